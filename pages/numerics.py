"""Placeholder until this page is built."""

import streamlit as st

st.title("numerics")
st.info("Coming soon.")
