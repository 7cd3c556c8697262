import streamlit as st

st.title("gain_and_bias")
st.info("Coming soon.")
