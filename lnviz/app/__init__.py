"""The app layer: everything that imports Streamlit (controls, charts, page chrome, the
navigation built from the page registry, server settings). Pages import `lnviz.app.ui`."""
