"""The floor: Streamlit's own cost, the reference every lnviz page is measured against.

One slider, one 401-point Plotly line and one line of text, nothing else. The slider is
bound to the URL like every lnviz control, and the server runs as the app's does, so a
page and the floor differ only in their own content.

    streamlit run benchmarks/floor_app.py
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import streamlit as st

a = st.slider("a", 0.1, 4.0, 1.0, 0.1, key="a", bind="query-params")
t = np.linspace(-3.0, 3.0, 401)  # (401,)
fig = go.Figure(go.Scatter(x=t, y=np.tanh(a * t), mode="lines"))
st.plotly_chart(fig, key="curve")
st.write(f"tanh({a:.1f} t) at t = 1: {np.tanh(a):.4f}")
