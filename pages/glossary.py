"""Placeholder until this page is built."""

import streamlit as st

st.title("glossary")
st.info("Coming soon.")
