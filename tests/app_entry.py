"""The app's entrypoint as AppTest runs it: app.py's one call, from a folder with no pages/.

AppTest decides on every run whether an app is an old-style multipage app, by a pages/
folder beside its main script. Beside app.py it finds one and runs the page file alone,
each run, a mode a real server leaves for good at its first st.navigation. From tests/ the
router runs every time, as on a server after its first visit (the page files are the same;
tests/browser/test_browser_pages.py tests a fresh server's first visit by deep link).
"""

from lnviz.app import navigation

navigation.start()
