"""The class answers together: a lecturer starts a class in presentation mode, students
join by its link (?room=CODE) or its code, answer the question the lecturer asks on their
phones, and the projector shows how the room answered, the right answer hidden until the
reveal.

The rooms live in lnviz.classpoll (SQLite by default, Redis for replicas). The lecturer's
key stays in the lecturer's session (never in a link); a student is an anonymous random id
kept in the student's link, so that a reload keeps the answer given.
"""

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
    """The router's part, before the page: join a class from the link; a lecturer's room
    follows the lecturer's page; a student sees the class box at the top of every page."""
    join_from_link()
    if not st.context.is_embedded and STUDENT_KEY not in st.session_state:
        join_panel()
    lecturer = st.session_state.get(LECTURER_KEY)
    if lecturer:
        follow(lecturer, url_path)
    student = st.session_state.get(STUDENT_KEY)
    if student:
        student_box(student, url_path)
