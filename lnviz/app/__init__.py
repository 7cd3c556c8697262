"""The Streamlit layer; its import warms every page's modules under a lock, even without app.py."""

from lnviz.app.warmup import import_once

import_once()
