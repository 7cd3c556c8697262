"""Placeholder until this page is built."""

import streamlit as st

st.title("batch-statistics")
st.info("Coming soon.")
