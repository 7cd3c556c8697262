"""The reduction-axes page's URL keys and presets (lnviz.lessons.spec)."""

from __future__ import annotations

from lnviz.axes import SCHEME_INFO
from lnviz.lessons.spec import SEED, Eps, Options, State, Text, Whole

MAX_B, MAX_T, MAX_F = 8, 16, 32  # at most 4096 entries: light to compute, draw and send

STATE = State(
    Whole("b", "batch B", 2, lo=1, hi=MAX_B),  # the tensor's shape (B, T, F)
    Whole("t", "tokens T", 4, lo=1, hi=MAX_T),
    Whole("f", "features F", 6, lo=1, hi=MAX_F),
    SEED,
    Options("scheme", "Scheme", "layer", options=tuple(SCHEME_INFO)),
    Options(
        "groups",
        "feature groups G (group norm)",
        2,
        options=tuple(range(1, MAX_F + 1)),  # the page offers the divisors of F
        help="Group norm splits the features into G groups; G must divide F.",
    ),
    Eps(default=1e-5),  # label and help name the scheme's statistic
    Text(
        "edits",
        "Edit entries (b,t,f=value; …)",
        "",
        help="0-based indices; e.g. 0,1,2=5 sets batch 0, token 1, feature 2 to 5.",
    ),
    Whole("eb", "entry: batch", 0, lo=0, hi=MAX_B - 1),  # the page narrows these to the shape
    Whole("et", "entry: token", 0, lo=0, hi=MAX_T - 1),
    Whole("ef", "entry: feature", 0, lo=0, hi=MAX_F - 1),
)

PRESETS = {
    "Layer, token-wise": {"scheme": "layer"},
    "Batch": {"scheme": "batch"},
    "Group, 2 groups": {"scheme": "group", "groups": 2},
    "RMS": {"scheme": "rms"},
    "A constant token": {
        "scheme": "layer",
        "edits": "0,0,0=1; 0,0,1=1; 0,0,2=1; 0,0,3=1; 0,0,4=1; 0,0,5=1",
        "eb": 0,
        "et": 0,
        "ef": 0,
    },
}
