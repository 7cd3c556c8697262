"""The class poll's app side: a lecturer asks, students answer on phones, the projector tallies."""

from __future__ import annotations

import streamlit as st

from lnviz.app.classpoll.common import (
    LECTURER_KEY,
    STUDENT_KEY,
    VOTER_PARAM,
    bars,
    in_class,
    service,
    student_params,
)
from lnviz.app.classpoll.lecturer import follow, lecturer_bar, lecturer_panel
from lnviz.app.classpoll.student import join_from_link, join_panel, student_box

__all__ = [
    "LECTURER_KEY",
    "STUDENT_KEY",
    "VOTER_PARAM",
    "bars",
    "before_page",
    "in_class",
    "lecturer_bar",
    "lecturer_panel",
    "service",
    "student_params",
]


def before_page(url_path: str) -> None:
    """The router's part before a page: join from a link, room follows lecturer, class box."""
    join_from_link()
    if not st.context.is_embedded and STUDENT_KEY not in st.session_state:
        join_panel()
    lecturer = st.session_state.get(LECTURER_KEY)
    if lecturer:
        follow(lecturer, url_path)
    student = st.session_state.get(STUDENT_KEY)
    if student:
        student_box(student, url_path)
