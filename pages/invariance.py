import streamlit as st

st.title("invariance")
st.info("Coming soon.")
