"""What a page script needs, in one import: `from lnviz.app import ui`."""

from __future__ import annotations

from lnviz.app.boxes import int_row
from lnviz.app.caching import cached
from lnviz.app.charts import chart, download_name
from lnviz.app.chrome import (
    PRESENT_KEY,
    display,
    fold,
    going_further,
    link_params,
    linked,
    notice,
    page_body,
    page_end,
    page_intro,
    presenting,
    prose,
    share_link,
)
from lnviz.app.controls import (
    EPS_GRID,
    choice,
    choice_slider,
    eps_options,
    eps_slider,
    int_choice,
    int_input,
    keep_choice,
    label_name,
    link_text,
    number_slider,
    presets,
    refuse,
    set_state,
    text_field,
    toggle,
    vector_input,
)
from lnviz.app.layout import latex_row, page_button, page_controls, row, side_by_side, table
from lnviz.app.links import in_link
from lnviz.app.state import control
from lnviz.app.targets import target as page_target
from lnviz.content.text import EPS_LABELS, eps_label, plain
from lnviz.content.text import number as fmt
from lnviz.content.text import vector as fmt_vec

__all__ = [
    "EPS_GRID",
    "EPS_LABELS",
    "PRESENT_KEY",
    "cached",
    "chart",
    "choice",
    "choice_slider",
    "control",
    "display",
    "download_name",
    "eps_label",
    "eps_options",
    "eps_slider",
    "fmt",
    "fmt_vec",
    "fold",
    "going_further",
    "in_link",
    "int_choice",
    "int_input",
    "int_row",
    "keep_choice",
    "label_name",
    "latex_row",
    "link_params",
    "link_text",
    "linked",
    "notice",
    "number_slider",
    "page_body",
    "page_button",
    "page_controls",
    "page_end",
    "page_intro",
    "page_target",
    "plain",
    "presenting",
    "presets",
    "prose",
    "refuse",
    "row",
    "set_state",
    "share_link",
    "side_by_side",
    "table",
    "text_field",
    "toggle",
    "vector_input",
]
