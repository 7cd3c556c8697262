"""Placeholder until this page is built."""

import streamlit as st

st.title("examples")
st.info("Coming soon.")
