"""Contrast inside the charts (issue 35, WCAG 1.4.3 and 1.4.11), which axe does not measure:
what Plotly draws in its SVG against what lies behind it.

`chart_marks(page)` reads, from the public DOM of every drawn chart, each visible text (tick
labels, axis and chart titles, legend, annotations, text written on the plot), each trace's
lines, markers and bars and the chart's rules (shapes' lines), with the colours that lie
behind them, bottom first: the
page's background, the chart's paper (the first SVG's background), the plot area's
rectangle, then a legend's or an annotation's box, or the bar a text is written on.
`contrast_failures(marks)` composes those colours and reports every mark below its
threshold: text 4.5:1, large text (24 px, or 18.66 px bold) 3:1, a trace's line, marker or
bar or rule 3:1.

Not measured, by rule: hover labels (drawn on demand); a heatmap's cell text (Plotly writes
it in dark grey or white, whichever contrasts more with the cell); 3-D scenes (WebGL, no SVG);
grid lines and axis lines; and marks drawn deliberately faint as context: any mark whose
opacity (the trace's, times its colour's alpha) is below 1, such as bands, earlier states
and reference curves.
"""

from __future__ import annotations

import re
from typing import Any

MARKS_JS = """() => {
  const up = (e) => e.parentElement || (e.getRootNode() && e.getRootNode().host);
  const roots = (root) => [root, ...[...root.querySelectorAll('*')].filter((e) => e.shadowRoot)
    .flatMap((e) => roots(e.shadowRoot))];
  const charts = roots(document).flatMap((r) => [...r.querySelectorAll('.js-plotly-plot')]);
  const shown = (e) => { const b = e.getBoundingClientRect(); return b.width > 0 && b.height > 0; };
  const alpha = (e, gd) => { let a = 1;
    for (; e && e !== gd; e = up(e)) a *= Number(getComputedStyle(e).opacity);
    return a; };
  const inside = (outer, e) => { const box = outer.getBoundingClientRect();
    const b = e.getBoundingClientRect(), x = b.left + b.width / 2, y = b.top + b.height / 2;
    return x >= box.left && x <= box.right && y >= box.top && y <= box.bottom; };
  const paint = (e, what) => { const s = getComputedStyle(e);  // a pattern: its ground colour
    const id = /^url/.test(s[what]) && s[what].match(/#([^"')]+)/)[1];
    const ground = id && e.getRootNode().getElementById(id)?.querySelector('rect');
    return [ground ? getComputedStyle(ground).fill : s[what], Number(s[what + 'Opacity'])]; };
  const behind = (e, page, paper, svg) => {  // bottom first: page, paper, plot area, a box
    const layers = [[page, 1], [paper, 1]];
    for (const r of svg.querySelectorAll('.bglayer rect.bg'))
      if (inside(r, e)) layers.push(paint(r, 'fill'));
    const box = e.closest('.legend, .annotation');
    const bg = box && box.querySelector('rect.bg');
    if (bg && inside(bg, e)) layers.push(paint(bg, 'fill'));
    const bar = e.tagName === 'text' && e.closest('.bars .point')?.querySelector('path');
    if (bar && inside(bar, e)) layers.push(paint(bar, 'fill'));
    return layers; };
  const pageBehind = (e) => { for (; e; e = up(e)) {
      const c = getComputedStyle(e).backgroundColor;
      if (c && !/rgba\\(.*, 0\\)$|transparent/.test(c)) return c; }
    return 'rgb(255, 255, 255)'; };
  const marks = [];
  charts.forEach((gd, chart) => {
    const svg = gd.querySelector('svg.main-svg');
    if (!shown(gd) || !svg) return;
    const page = pageBehind(up(gd)), paper = getComputedStyle(svg).backgroundColor;
    const title = ((gd.querySelector('.gtitle') || {}).textContent || '').slice(0, 50);
    const add = (e, kind, colour, extra) => {
      const a = alpha(e, gd) * colour[1];
      if (a > 0 && colour[0] && colour[0] !== 'none')
        marks.push({ chart, title, kind, colour: colour[0], alpha: a,
          behind: behind(e, page, paper, svg), ...extra }); };
    for (const t of gd.querySelectorAll('svg.main-svg text')) {
      const text = t.textContent.replace(/[\\u200b\\s]+/g, ' ').trim();
      const s = getComputedStyle(t);
      if (!text || !shown(t) || s.visibility !== 'visible') continue;
      if (t.closest('.hoverlayer, .heatmap-label')) continue;  // (see the module's text)
      add(t, 'text', paint(t, 'fill'), { text: text.slice(0, 40), size: parseFloat(s.fontSize),
        bold: Number(s.fontWeight) >= 700 });
    }
    for (const p of gd.querySelectorAll('.trace path.js-line, .shapelayer path')) {
      const drawn = (p.getAttribute('d') || 'M0,0Z') !== 'M0,0Z';
      if (drawn && parseFloat(getComputedStyle(p).strokeWidth) > 0)
        add(p, 'line', paint(p, 'stroke'), { text: p.closest('.trace') ? 'trace' : 'rule' });
    }
    for (const p of gd.querySelectorAll('.trace path.point')) if (shown(p)) {
      const fill = paint(p, 'fill');  // an open symbol: its outline
      add(p, 'marker', fill[1] > 0 && fill[0] !== 'none' ? fill : paint(p, 'stroke'),
        { text: 'marker' });
    }
    for (const p of gd.querySelectorAll('.trace.bars .point path'))
      if (shown(p)) add(p, 'bar', paint(p, 'fill'), { text: 'bar' });
  });
  return marks;
}"""


def rgba(css: str) -> tuple[float, float, float, float]:
    """A computed CSS colour (rgb(...) or rgba(...)) as r, g, b in 0-255 and alpha.

    >>> rgba("rgba(14, 17, 23, 0.5)"), rgba("rgb(255, 255, 255)")
    ((14.0, 17.0, 23.0, 0.5), (255.0, 255.0, 255.0, 1.0))
    """
    if css in ("transparent", "none", ""):
        return (0.0, 0.0, 0.0, 0.0)
    parts = [float(p) for p in re.findall(r"[0-9.]+", css)]
    return (parts[0], parts[1], parts[2], parts[3] if len(parts) > 3 else 1.0)


def over(top: tuple[float, ...], alpha: float, below: tuple[float, ...]) -> tuple[float, ...]:
    """`top` at `alpha` painted over the opaque colour `below` (source-over)."""
    return tuple(alpha * t + (1 - alpha) * b for t, b in zip(top[:3], below[:3], strict=True))


def luminance(rgb: tuple[float, ...]) -> float:
    """WCAG 2.1 relative luminance of an sRGB colour (0-255 channels)."""
    lin = [c / 255 / 12.92 if c <= 10.31 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def ratio(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """WCAG contrast ratio (L1 + 0.05) / (L2 + 0.05), lighter over darker.

    >>> round(ratio((255, 255, 255), (0, 0, 0)), 1), round(ratio((130, 129, 128), (255,) * 3), 2)
    (21.0, 3.89)
    """
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def measured(mark: dict[str, Any]) -> float:
    """The mark's contrast against its background: the layers behind it composed bottom up
    (each at its alpha), the mark over them at its own alpha."""
    below: tuple[float, ...] = (255.0, 255.0, 255.0)
    for colour, opacity in mark["behind"]:
        *rgb, a = rgba(colour)
        below = over(tuple(rgb), a * opacity, below)
    *rgb, a = rgba(mark["colour"])
    return ratio(over(tuple(rgb), a * mark["alpha"], below), below)


def needed(mark: dict[str, Any]) -> float:
    """4.5:1 for text, 3:1 for large text (24 px, or 18.66 px bold) and for a trace's marks."""
    if mark["kind"] != "text":
        return 3.0
    large = mark["size"] >= 24 or (mark["bold"] and mark["size"] >= 18.66)
    return 3.0 if large else 4.5


def context(mark: dict[str, Any]) -> bool:
    """Drawn faint on purpose (the rule in the module's text): below full opacity."""
    return mark["kind"] != "text" and mark["alpha"] * rgba(mark["colour"])[3] < 0.999


def contrast_failures(marks: list[dict[str, Any]]) -> list[str]:
    """Each mark below its threshold, once per chart, kind, colour and background.

    >>> white = [["rgb(255, 255, 255)", 1]]
    >>> grey = {"chart": 0, "title": "t", "kind": "text", "colour": "rgb(130, 129, 128)",
    ...         "alpha": 1, "behind": white, "text": "1.5", "size": 12, "bold": False}
    >>> contrast_failures([grey, {**grey, "size": 24}])
    ['chart 0 (t): text 1.5 rgb(130, 129, 128) at 3.89:1 < 4.5']
    >>> contrast_failures([{**grey, "kind": "line", "alpha": 0.4, "colour": "rgb(240, 240, 240)"}])
    []
    """
    found: dict[tuple[Any, ...], str] = {}
    for m in marks:
        if context(m):
            continue
        got = measured(m)
        if got < needed(m):
            key = (m["chart"], m["kind"], m["colour"], str(m["behind"]))
            found.setdefault(
                key,
                f"chart {m['chart']} ({m['title']}): {m['kind']} {m['text']} {m['colour']}"
                f" at {got:.2f}:1 < {needed(m):g}",
            )
    return list(found.values())


def lowest(marks: list[dict[str, Any]]) -> dict[str, float]:
    """The lowest contrast per kind of mark (faint context left out), for the docs."""
    out: dict[str, float] = {}
    for m in marks:
        if not context(m):
            out[m["kind"]] = min(out.get(m["kind"], 99.0), round(measured(m), 2))
    return out


def chart_marks(page: Any) -> list[dict[str, Any]]:
    """Every drawn chart's visible marks on `page` (MARKS_JS)."""
    return page.evaluate(MARKS_JS)
