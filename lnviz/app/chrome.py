"""Page chrome: title and lead, the share box, presentation mode, "what to notice" lists."""

from __future__ import annotations

import contextlib
import contextvars
import sys
from collections.abc import Callable, Iterable, Iterator

import streamlit as st

from lnviz.app import classroom, slides
from lnviz.app.classroom import PRESENT_CSS
from lnviz.app.controls import toggle
from lnviz.app.links import in_link
from lnviz.app.targets import current_url_path, target
from lnviz.content import registry
from lnviz.content.references import for_page
from lnviz.content.term_links import link_terms

PRESENT_KEY = "present"  # URL key of presentation mode, shared by every page


def presenting() -> bool:
    """Whether presentation mode is on: the router's switch, or the link for a page run alone."""
    if PRESENT_KEY in st.session_state:
        return bool(st.session_state[PRESENT_KEY])
    return str(st.query_params.get(PRESENT_KEY, "")).strip().lower() == "true"


def presentation_switch() -> None:
    """The sidebar's presentation switch, drawn by the router: its link value is every page's."""
    if st.context.is_embedded:  # an embedding site shows its own frame; the link decides
        return
    with st.sidebar:
        present = toggle(
            "Presentation mode",
            key=PRESENT_KEY,
            help="Larger type and charts, explanations folded, the sidebar folded away, "
            "one section per screen on request: for projecting in class.",
        )
    st.set_page_config(initial_sidebar_state="collapsed" if present else "auto")


_TERM_CLAIMS = "lnviz-term-claims"  # {page: {glossary slug: the call site that links it}}


def linked(text: str, *, depth: int = 1) -> str:
    """`text`, glossary terms linked at first mention (kept by call site for fragment reruns)."""
    page = current_url_path()
    try:
        slugs = registry.by_path(page).terms
    except KeyError:
        return text
    if not slugs:
        return text
    caller = sys._getframe(depth)  # 1: the caller of linked(); 2: the caller of prose()
    site = f"{caller.f_code.co_filename}:{caller.f_lineno}"
    claims = st.session_state.setdefault(_TERM_CLAIMS, {}).setdefault(page, {})
    out, _ = link_terms(
        text, slugs, claim=lambda slug: claims.setdefault(slug, site) == site,
        present=presenting(),
    )  # fmt: skip
    return out


def prose(*parts: str) -> None:
    """Paragraphs and `display` formulas in one Markdown element (cheaper), terms linked."""
    st.markdown(linked("\n\n".join(parts), depth=2))


def display(tex: str) -> str:
    """A displayed formula, as a part of `prose` (what st.latex would draw)."""
    return f"$$\n{tex.strip()}\n$$"


def notice(items: Iterable[str], *, title: str = "What to notice") -> None:
    """The 'what to notice' list of a section (folded in presentation mode)."""
    with fold(title, expanded=not presenting(), icon=":material/visibility:"):
        st.markdown(linked("\n".join(f"- {item}" for item in items), depth=2))


_FURTHER = contextvars.ContextVar("lnviz-going-further", default=False)


@contextlib.contextmanager
def going_further(title: str, *keys: str, expanded: bool = False) -> Iterator[None]:
    """A step's advanced part, folded so the main flow stays short; open if asked or linked."""
    token = _FURTHER.set(True)
    label, icon = f"Going further: {title}", ":material/explore:"
    try:
        with st.expander(label, expanded=expanded or in_link(*keys), icon=icon):
            yield
    finally:
        _FURTHER.reset(token)


def fold(
    label: str, *, expanded: bool = False, icon: str | None = None
) -> contextlib.AbstractContextManager[object]:
    """An expander; inside a going-further part, the label in bold over the content."""
    if not _FURTHER.get():
        return st.expander(label, expanded=expanded, icon=icon)
    box = st.container()
    box.markdown(f"**{label}**")
    return box


def link_params(params: dict[str, str] | None = None) -> dict[str, str]:
    """An in-page link's query; not presentation mode, which the router's binding carries."""
    out = dict(params or {})
    if presenting() and slides.SLIDE_KEY in st.query_params:  # slides go on, from the start
        out[slides.SLIDE_KEY] = "1"
    return out


def page_intro(title: str, lead: str) -> None:
    """The page's title, lead, course step and share box; presenting, its bar and slides."""
    from lnviz.app.navigation import ensure_router  # (navigation imports this module)

    ensure_router()
    st.session_state.setdefault(_TERM_CLAIMS, {})[current_url_path()] = {}  # a full run
    present = presenting()
    embedded = st.context.is_embedded
    if embedded:
        classroom.full_app_link()
    else:
        with st.sidebar:
            share_link()
    number = 0
    if not embedded:  # slides, arrow keys and the folded sidebar are the full app's
        number = slides.slide_number() if present else slides.drop()
        slides.stage(present=present, number=number)
    if present:
        st.html(PRESENT_CSS)
        classroom.present_bar(number, PRESENT_KEY, slides=not embedded)
    where = registry.position(current_url_path())
    if where is not None:
        st.caption(f"Course · step {where[0]} of {where[1]}")
    st.title(title)
    if present:
        with st.expander("About this page", icon=":material/info:"):
            st.markdown(linked(lead, depth=2))
    else:
        st.markdown(linked(lead, depth=2))


def page_body(body: Callable[[], None]) -> Callable[[], None]:
    """Decorator: the page's controls and sections as one fragment, so a move reruns only them."""
    return st.fragment(body)


def page_end() -> None:
    """The course's previous and next steps, at the foot of every page on the path."""
    here = current_url_path()
    sources = for_page(here)
    previous, following = registry.neighbours(here)
    if not sources and previous is None and following is None:
        return
    if previous is not None and following is None:  # the course's last step
        course_recap()
    st.divider()
    if sources:
        st.caption("Sources for this page: " + " · ".join(r.cite for r in sources))
        st.page_link(
            target("pages/references.py"),
            label="References",
            icon=":material/library_books:",
            query_params=link_params(),
        )
    # One row that wraps on a phone: a flex container is one element, st.columns(2) three.
    # Previous sits on the left and Next on the right, also when it is alone.
    align = "distribute" if previous and following else "right" if following else "left"
    row = st.container(horizontal=True, horizontal_alignment=align)
    for step, word, icon in zip(
        (previous, following),
        ("Previous", "Next"),
        (":material/arrow_back:", ":material/arrow_forward:"),
        strict=True,
    ):
        if step is not None:
            row.page_link(
                target(step.script),
                label=f"{word}: {step.title}",
                icon=icon,
                query_params=link_params(),
            )


def course_recap() -> None:
    """At the course's end: each step's one-line lesson, linked back, and where to go next."""
    steps = "\n".join(
        f"{k}. [{p.title}]({p.url_path}): {p.lesson}" for k, p in enumerate(registry.COURSE, 1)
    )
    with st.expander("You finished the course: the course in review", expanded=True,
                     icon=":material/flag:"):  # fmt: skip
        st.markdown(f"**The course in review**\n\n{steps}")
        st.markdown(
            "**Where next.** Check what the two source documents state, with their numbers, "
            "on [Worked examples](examples); read the papers behind each step and test "
            "yourself on the whole course's exercise sheet on [References](references); look "
            "up any term in the [Glossary](glossary); or open any step again with your own "
            "numbers: every state is a link."
        )


_SHARE_HTML = """
<div class="row"><input id="u" readonly aria-label="Link to this view">
<button id="b" type="button">Copy link</button></div>
<style>
  body { margin: 0; font: 14px "Source Sans Pro", sans-serif; background: transparent; }
  .row { display: flex; gap: 6px; }
  input, button { padding: 6px 8px; border-radius: 6px; font: inherit; color: inherit;
    background: transparent; border: 1px solid color-mix(in srgb, currentColor 40%, transparent); }
  input { flex: 1; min-width: 0; } button { cursor: pointer; }
</style>
<script>
  const u = document.getElementById("u"), b = document.getElementById("b");
  const here = () => {  /* a class poll's anonymous voter id stays with its phone */
    try {
      const href = window.parent.location.href, url = new URL(href);
      if (!url.searchParams.has("voter")) return href;
      url.searchParams.delete("voter");
      return url.href;
    } catch (e) { return ""; }
  };
  const theme = () => {  /* the sidebar's own colours, live: they follow a theme switch */
    try {
      const around = window.parent.getComputedStyle(window.frameElement);
      document.body.style.color = around.color;
      document.documentElement.style.colorScheme = around.colorScheme;
    } catch (e) {}
  };
  const tick = () => { const h = here(); if (u.value !== h) u.value = h; theme(); };
  tick(); setInterval(tick, 600);
  b.addEventListener("click", async () => {
    tick();
    try { await navigator.clipboard.writeText(u.value); }
    catch (e) { u.select(); document.execCommand("copy"); }
    b.textContent = "Copied"; setTimeout(() => (b.textContent = "Copy link"), 1500);
  });
</script>
"""


def share_link() -> None:
    """This view's address and a copy button, read live in the browser: it follows every control."""
    st.caption("Share this view: the link holds every control's value.")
    st.iframe(_SHARE_HTML, height=44, alt="Link to this view with a copy button")
