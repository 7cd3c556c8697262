"""lnviz: the router. The pages are declared once, in lnviz/content/registry.py."""

from lnviz.app import navigation

navigation.start()  # page config, shared styles, then the visitor's page
