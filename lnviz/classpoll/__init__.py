"""The live class poll (issue 36): storage and room logic, no Streamlit (not loaded by lnviz)."""
