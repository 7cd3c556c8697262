import streamlit as st

st.title("home")
st.info("Coming soon.")
