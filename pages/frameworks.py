"""Placeholder until this page is built."""

import streamlit as st

st.title("frameworks")
st.info("Coming soon.")
