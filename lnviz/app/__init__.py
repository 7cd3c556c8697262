"""The app layer: everything that imports Streamlit (controls, charts, page chrome, the
navigation built from the page registry, server settings). Pages import `lnviz.app.ui`.

Importing this package first imports every module a page uses, once per server process
and under a lock (lnviz.app.warmup): the first visits of a class arriving at once on a
fresh server would otherwise race on half-imported libraries. Streamlit may run a page
script directly, without app.py, on the very first visits, so the guard lives here, on
the path of every page.
"""

from lnviz.app.warmup import import_once

import_once()
