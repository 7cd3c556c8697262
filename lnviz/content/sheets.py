"""Teachers' exercise sheets: questions as Markdown and printable HTML, with or without answers."""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

from lnviz.content.questions import Question

Section = tuple[str, Sequence[Question]]  # a page's title and its questions


def origin(url: str) -> str:
    """scheme://host[:port] of an address (what the sheet's links start with)."""
    m = re.match(r"^(https?://[^/?#]+)", url or "")
    return m.group(1) if m else "http://localhost:8501"


def _full(base: str, q: Question) -> str:
    return f"{base}/{q.link.href}"


def markdown_sheet(sections: Sequence[Section], base: str, *, answers: bool) -> str:
    """The sheet as Markdown: one numbered list per page."""
    title = sections[0][0] if len(sections) == 1 else "the course"
    lines = [f"# lnviz exercises: {title}", ""]
    for name, questions in sections:
        lines += [f"## {name}", ""]
        for i, q in enumerate(questions, 1):
            lines.append(f"{i}. {q.prompt}")
            lines += [f"   - {chr(97 + k)}) {c}" for k, c in enumerate(q.choices)]
            lines.append(f"   Check it: {_full(base, q)}")
            if answers:
                lines.append(f"   Answer: {q.solution}. {q.explanation}")
        lines.append("")
    return "\n".join(lines)


_BOLD = re.compile(r"\*\*(.+?)\*\*")
_CSS = """
body { font: 12pt/1.45 Georgia, serif; max-width: 46rem; margin: 2rem auto; color: #111; }
h1 { font-size: 18pt; } h2 { font-size: 14pt; margin-top: 1.6rem; }
li { margin: 0.6rem 0; } .link { font: 9pt monospace; color: #333; word-break: break-all; }
.answer { margin-top: 0.3rem; padding: 0.3rem 0.5rem; border-left: 3px solid #4E79A7; }
.space { height: 3.2rem; border-bottom: 1px dotted #999; }
@media print { body { margin: 0; } h2 { break-after: avoid; } li { break-inside: avoid; } }
"""


def _inline(text: str) -> str:
    return _BOLD.sub(r"<strong>\1</strong>", html.escape(text, quote=False))


def html_sheet(sections: Sequence[Section], base: str, *, answers: bool) -> str:
    """The sheet as one self-contained HTML page (no scripts, no outside files)."""
    title = sections[0][0] if len(sections) == 1 else "the course"
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>lnviz exercises: {html.escape(title)}</title><style>{_CSS}</style></head>",
        f"<body><h1>lnviz exercises: {html.escape(title)}</h1>",
    ]
    for name, questions in sections:
        parts.append(f"<h2>{html.escape(name)}</h2><ol>")
        for q in questions:
            parts.append(f"<li>{_inline(q.prompt)}")
            if q.choices:
                items = "".join(f"<li>{_inline(c)}</li>" for c in q.choices)
                parts.append(f"<ol type='a'>{items}</ol>")
            url = html.escape(_full(base, q))
            parts.append(f"<div class='link'>Check it: <a href='{url}'>{url}</a></div>")
            if answers:
                answer = _inline(f"Answer: {q.solution}. {q.explanation}")
                parts.append(f"<div class='answer'>{answer}</div>")
            else:
                parts.append("<div class='space'></div>")
            parts.append("</li>")
        parts.append("</ol>")
    parts.append("</body></html>")
    return "".join(parts)
