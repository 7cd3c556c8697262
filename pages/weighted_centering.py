import streamlit as st

st.title("weighted_centering")
st.info("Coming soon.")
