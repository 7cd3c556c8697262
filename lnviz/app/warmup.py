"""Import, once and under a lock, everything a page run needs, before any page runs.

Streamlit runs each visitor's script in its own thread. On a fresh server, thirty first
visits at once (a class opening a shared link) imported pandas, Plotly and the pages'
modules concurrently; Python's per-module import locks then let a thread see a module
that another thread had only half initialised ("partially initialized module 'pandas'
has no attribute 'Series'"), and most of those first visits failed. Here the first run
imports every module the pages use, and builds one chart and one table so that the
libraries' lazy imports happen too, while every other run waits on the lock; after
that the lock is free and costs nothing.

What these imports made (about 160,000 objects: modules, classes, functions, Plotly's
validators) lives as long as the server; it is then moved out of the garbage collector's
sight (`gc.freeze()`): Python's full collections, which stop every script run while they
last, no longer walk it (docs/benchmarks.md, "One run at a time").
"""

from __future__ import annotations

import gc
import importlib
import logging
import pkgutil
import threading

_LOG = logging.getLogger(__name__)
_LOCK = threading.Lock()
_done = False

# Libraries the pages reach, some only lazily inside Streamlit's elements.
LIBRARIES = (
    "numpy",
    "pandas",
    "pyarrow",
    "plotly.graph_objects",
    "plotly.io",
    "plotly.subplots",
    "plotly.express.colors",
    "streamlit.dataframe_util",
    "streamlit.elements.plotly_chart",
    "streamlit.elements.arrow",
    "streamlit.components.v1",
)


def _lnviz_modules() -> list[str]:
    import lnviz

    return [m.name for m in pkgutil.walk_packages(lnviz.__path__, "lnviz.", onerror=_skip)]


def _skip(name: str) -> None:
    _LOG.warning("warm-up could not import %s", name)


def _exercise() -> None:
    """What the libraries import only on first use: Plotly's validators and JSON encoder
    (which look for pandas), and pandas' Arrow conversion (st.dataframe)."""
    import numpy as np
    import pandas as pd
    import plotly.graph_objects as go
    import plotly.io as pio
    import pyarrow as pa

    fig = go.Figure(go.Scatter(x=np.arange(3.0), y=pd.Series([1.0, 2.0, 3.0])))
    pio.to_json(fig, validate=True)
    pa.Table.from_pandas(pd.DataFrame({"a": [1.0], "b": ["x"]}))


def import_once() -> None:
    """Import every library and lnviz module the pages use; later calls return at once."""
    global _done
    if _done:
        return
    with _LOCK:
        if _done:
            return
        for name in (*LIBRARIES, *_lnviz_modules()):
            try:
                importlib.import_module(name)
            except Exception:  # a page that needs it raises the error itself, visibly
                _LOG.exception("warm-up could not import %s", name)
        _exercise()
        gc.collect()  # what the exercise left behind, before the rest is frozen
        gc.freeze()
        _done = True
