import streamlit as st

st.title("reduction_axes")
st.info("Coming soon.")
