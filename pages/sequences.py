"""Placeholder until this page is built."""

import streamlit as st

st.title("sequences")
st.info("Coming soon.")
