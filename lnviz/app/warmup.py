"""Import everything a page run needs once, under a lock: concurrent first imports break."""

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
    """Trigger the libraries' first-use imports: Plotly's validators and JSON, pandas' Arrow."""
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
