"""How a question's link writes a page's state: the strings the page's controls read."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from lnviz.content.text import eps_label

eps_param = eps_label  # the ε slider reads (and a link writes) its option's label


def vector_param(values: Iterable[float] | np.ndarray) -> str:
    """A vector as a text box reads it: comma-separated, no spaces, to 12 significant digits."""
    return ",".join(f"{float(v):.12g}" for v in values)
