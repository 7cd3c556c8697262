"""Slides: in presentation mode a page is shown one section per screen."""

from __future__ import annotations

import json

import streamlit as st

from lnviz.app.streamlit_dom import SIDEBAR_TOGGLE
from lnviz.app.targets import current_url_path
from lnviz.content.text import plain

SLIDE_KEY = "slide"  # URL key of the section shown (1-based)
MAX_SLIDES = 40  # far more sections than any page has; larger numbers are refused
_SLIDE_PAGE = "lnviz-slide-page"  # the page the slide number belongs to
_FOLD = "lnviz-fold"  # the page the sidebar was last folded for ("" = not presenting)

STAGE_JS = r"""
const SIDEBAR_TOGGLE = __SIDEBAR_TOGGLE__;

export default function (component) {
  const { data, parentElement } = component;
  const w = window;
  const slide = data.slide | 0;
  const fold = data.fold || "";

  // the sidebar: folded once per page shown in presentation mode, opened again on leaving
  // (by its toggle, fold or unfold, whichever is shown: its aria-expanded says which)
  if (w.__lnvizFold !== fold) {
    const was = w.__lnvizFold;
    w.__lnvizFold = fold;
    const toggle = (expanded) => document.querySelector(
      `${SIDEBAR_TOGGLE}[aria-expanded="${expanded}"]`);
    const open = toggle(true);
    if (fold && open) open.click();
    if (!fold && was && !open && toggle(false)) toggle(false).click();
  }

  // the arrow keys (and a presenter remote's Page Up / Page Down) step the sections
  if (w.__lnvizKeys) document.removeEventListener("keydown", w.__lnvizKeys);
  w.__lnvizKeys = null;
  if (slide > 0) {
    w.__lnvizKeys = (e) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
      const t = e.target;
      const typing = t && t.closest && t.closest(
        'input, textarea, select, [contenteditable="true"], [role="slider"], ' +
        '[role="combobox"], [role="listbox"], [role="dialog"], .js-plotly-plot');
      if (typing) return;
      const next = ["ArrowRight", "PageDown"].includes(e.key);
      const prev = ["ArrowLeft", "PageUp"].includes(e.key);
      if (!next && !prev) return;
      const button = document.querySelector(
        next ? ".st-key-slide-next button" : ".st-key-slide-previous button");
      if (button && !button.disabled) { e.preventDefault(); button.click(); }
    };
    document.addEventListener("keydown", w.__lnvizKeys);
  }

  // a slide button pressed from the keyboard is replaced (or disabled) by the rerun, which
  // drops the focus to the page's top: it goes to the slide button now in its place
  const SLIDE_BUTTONS = ["next", "previous", "start"].map((k) => `.st-key-slide-${k} button`);
  const refocus = (tries) => {
    if (performance.now() - (w.__lnvizPressed || -1e4) > 4000) return; // a press's rerun only
    const at = document.activeElement;
    const lost = !at || at === document.body || at.disabled;
    const button = lost && SLIDE_BUTTONS.map((s) => document.querySelector(s))
      .find((b) => b && !b.disabled);
    if (button) { button.focus(); w.__lnvizPressed = 0; }
    else if (tries > 0) setTimeout(() => refocus(tries - 1), 100);
  };
  if (!w.__lnvizSlideKeys) {
    w.__lnvizSlideKeys = (e) => {
      const t = e.target;
      const pressed = ["Enter", " "].includes(e.key) && t.closest
        && t.closest('[class*="st-key-slide-"] button');
      w.__lnvizPressed = pressed ? performance.now() : 0;
    };
    document.addEventListener("keydown", w.__lnvizSlideKeys, true);
  }
  refocus(30);

  // one section on screen: the main pane's top-level blocks, cut at each section heading
  const show = () => {
    const main = document.querySelector(".stMainBlockContainer > .stVerticalBlock");
    if (!main) return;
    // A fragment is a block of its own (a layout wrapper around a vertical block); one that
    // holds section headings (a page's body: its controls and every section) is looked
    // through, so its children are cut at the headings like the main pane's.
    const HEADINGS = ".stHeading h2, .stHeading h3";
    const flat = (parent) => [...parent.children].flatMap((b) => {
      const inner = b.classList.contains("stElementContainer") ? null : b.firstElementChild;
      const through = inner && inner.classList.contains("stVerticalBlock")
        && !inner.className.includes("st-key-") && b.querySelector(HEADINGS);
      return through ? flat(inner) : [b];
    });
    const blocks = flat(main);
    let section = 1;
    const marks = blocks.map((b) => {
      const heading = b.querySelector(HEADINGS);
      if (heading && !b.querySelector(".st-key-lnviz-present-bar")) section += 1;
      return section;
    });
    const count = section;
    const shown = slide > 0 ? Math.min(slide, count) : 0;
    blocks.forEach((b, i) => {
      // the presentation bar, and the page's controls: every slide keeps the controls that
      // drive its charts (lnviz.app.layout.page_controls)
      const always = (sel) => b.matches(sel) || b.querySelector(sel);
      const keep = !shown || marks[i] === shown || always(".st-key-lnviz-present-bar")
        || always('[class*="st-key-lnviz-page-controls"]');
      if (keep) b.removeAttribute("data-lnviz-hidden");
      else b.setAttribute("data-lnviz-hidden", "");
    });
    const label = document.querySelector(".st-key-slide-label p");
    if (label && shown) {
      const heading = blocks.find((b, i) => marks[i] === shown
        && b.querySelector(".stHeading"));
      const title = heading ? heading.querySelector("h1, h2, h3").innerText.trim() : "";
      const text = `Section ${shown} of ${count}` + (title ? `: ${title}` : "");
      if (label.textContent !== text) label.textContent = text; // (no write, no new mutation)
    }
    const nextButton = document.querySelector(".st-key-slide-next button");
    if (nextButton && shown) nextButton.disabled = shown >= count;
    document.body.dataset.lnvizSections = String(count);
    document.body.dataset.lnvizSlide = String(shown);
  };
  if (w.__lnvizStage) w.__lnvizStage.disconnect();
  w.__lnvizStage = null;
  show();
  if (slide > 0) {
    let pending = false;
    // a frame already asked for by the observer of an earlier slide must not show that
    // slide again after this render (a "Whole page" press left one section shown)
    const observer = new MutationObserver(() => {
      if (pending) return;
      pending = true;
      requestAnimationFrame(() => { pending = false; if (w.__lnvizStage === observer) show(); });
    });
    w.__lnvizStage = observer;
    const root = document.querySelector(".stMainBlockContainer");
    // characterData too: the server's "Section n" can arrive as an edit of a text node
    if (root) observer.observe(root, { childList: true, subtree: true, characterData: true });
  }
}
"""

STAGE_JS = STAGE_JS.replace("__SIDEBAR_TOGGLE__", json.dumps(SIDEBAR_TOGGLE))
STAGE_CSS = "[data-lnviz-hidden] { display: none !important; }"
STAGE_STYLE = f"<style>{STAGE_CSS}</style>"  # constant: no visitor text reaches st.html

_stage = st.components.v2.component("lnviz.stage", js=STAGE_JS, isolate_styles=True)


def slide_number() -> int:
    """The section shown (1-based; 0: the whole page), from the link, checked, per page."""
    raw = st.query_params.get(SLIDE_KEY)
    if raw is None:
        return 0
    page = current_url_path()
    text = str(raw).strip()
    if not text.isdigit() or not 1 <= int(text) <= MAX_SLIDES:
        st.warning(
            f"The link set **{SLIDE_KEY}** to “{plain(text, 40)}”, which is not accepted "
            f"(a section number from 1 to {MAX_SLIDES}). Showing the whole page instead.",
            icon=":material/link_off:",
        )
        del st.query_params[SLIDE_KEY]
        return 0
    number = int(text)
    previous = st.session_state.get(_SLIDE_PAGE)
    if previous is not None and previous != page and number != 1:
        number = 1  # a new page opens at its first section
        st.query_params[SLIDE_KEY] = "1"
    st.session_state[_SLIDE_PAGE] = page
    return number


def drop() -> int:
    """Outside presentation mode there are no slides: a slide number in the link goes."""
    if SLIDE_KEY in st.query_params:
        del st.query_params[SLIDE_KEY]
    return 0


def _go(number: int) -> None:
    if number <= 0:
        st.query_params.pop(SLIDE_KEY, None)
    else:
        st.query_params[SLIDE_KEY] = str(min(number, MAX_SLIDES))


def controls(number: int) -> None:
    """The slide buttons: step through sections, previous / next, back to the whole page."""
    if number == 0:
        st.button(
            "Step through sections", icon=":material/slideshow:", key="slide-start",
            on_click=_go, args=(1,),
            help="One section per screen; the arrow keys step through them.",
        )  # fmt: skip
        return
    st.button(
        "Previous section", icon=":material/arrow_back:", key="slide-previous",
        on_click=_go, args=(number - 1,), disabled=number <= 1,
        help="Previous section (← or Page Up)",
    )  # fmt: skip
    with st.container(key="slide-label"):
        st.markdown(f"Section {number}")
    st.button(
        "Next section", icon=":material/arrow_forward:", key="slide-next",
        on_click=_go, args=(number + 1,), help="Next section (→ or Page Down)",
    )  # fmt: skip
    st.button("Whole page", icon=":material/view_agenda:", key="slide-end", on_click=_go, args=(0,))


def stage(*, present: bool, number: int) -> None:
    """Mount the stage (one section, arrow keys, sidebar) only when presenting or just after."""
    fold = (current_url_path() or "home") if present else ""
    was = st.session_state.get(_FOLD, "")
    st.session_state[_FOLD] = fold
    if not fold and not was:
        return
    st.html(STAGE_STYLE)
    with st.container(key="lnviz-stage"):
        _stage(data={"slide": number if present else 0, "fold": fold}, key="lnviz-stage-js")
