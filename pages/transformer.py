"""Layer norm inside a transformer (being written)."""

from lnviz.app import ui

ui.page_intro("Layer norm inside a transformer", "Where layer norm sits in a model.")
