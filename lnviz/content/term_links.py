"""Links from a page's prose to the glossary: a term's first use on a page links to its entry."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Collection

# slug -> the words prose uses for the term (longest first within a term).
MENTIONS: dict[str, tuple[str, ...]] = {
    "layer-normalization": ("layer normalization", "layer norm"),
    "normalized-core": ("normalized core",),
    "epsilon": ("epsilon",),
    "population-variance": ("population variance",),
    "centering-matrix": ("centering matrix",),
    "weighted-centering-matrix": ("weighted centering matrix", "weighted centering"),
    "idempotent": ("idempotent", "idempotence"),
    "oblique-projection": ("oblique projection",),
    "d-inner-product": ("D-inner product",),
    "batch-normalization": ("batch normalization", "batch norm"),
    "group-normalization": ("group normalization", "group norm"),
    "instance-normalization": ("instance normalization", "instance norm"),
    "rms-normalization": ("RMS normalization", "RMS norm"),
    "reduction-axes": ("reduction axes",),
    "parameter-axes": ("parameter axes",),
    "jacobian": ("Jacobian",),
    "lipschitz-constant": ("Lipschitz constant", "Lipschitz bound", "Lipschitz"),
    "shift-invariance": ("shift invariance", "shift-invariant"),
    "scale-invariance": ("scale invariance", "scale-invariant"),
    "look-ahead-bias": ("look-ahead bias",),
    "running-statistics": ("running statistics", "running mean", "running variance"),
    "momentum": ("momentum",),
    "log-return": ("log returns", "log return", "log-returns", "log-return"),
    "garch": ("GARCH", "volatility clustering"),
    "residual-connection": ("residual connections", "residual connection", "skip connection"),
    "residual-stream": ("residual stream",),
    "pre-ln": ("Pre-LN", "pre-norm"),
    "post-ln": ("Post-LN", "post-norm"),
    "learning-rate-warm-up": ("learning-rate warm-up", "learning rate warm-up"),
    "softmax": ("softmax",),
    "attention-entropy": ("attention entropy", "entropy of the weights", "entropy"),
    "qk-norm": ("QK-norm", "QK norm"),
    "dynamic-tanh": ("Dynamic Tanh", "DyT"),
    "two-pass-variance": ("two-pass variance", "two-pass"),
    "one-pass-variance": ("one-pass variance", "one-pass"),
    "catastrophic-cancellation": ("catastrophic cancellation", "cancellation"),
    "welford": ("Welford's algorithm", "Welford"),
    "float16": ("float16", "half precision"),
    "bfloat16": ("bfloat16",),
}

# Spans that are never linked: inline or display math, code, existing links, HTML tags.
_PROTECTED = re.compile(r"\$\$.*?\$\$|\$[^$]*\$|`[^`]*`|\[[^\]]*\]\([^)]*\)|<[^>]+>", re.S)


def href(slug: str, *, present: bool = False) -> str:
    """The relative address of a glossary entry (relative, so a path prefix is kept)."""
    return f"glossary?term={slug}" + ("&present=true" if present else "")


def protected_spans(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in _PROTECTED.finditer(text)]


def _pattern(words: tuple[str, ...]) -> re.Pattern[str]:
    alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])", re.I)


_PATTERNS = {slug: _pattern(words) for slug, words in MENTIONS.items()}


@functools.lru_cache(maxsize=4096)
def _first_mentions(text: str, slugs: tuple[str, ...]) -> tuple[tuple[int, int, str], ...]:
    """Each term's first mention (start, end, slug) outside math, code and links; cached."""
    spans = protected_spans(text)
    found: list[tuple[int, int, str]] = []
    for slug in slugs:
        pattern = _PATTERNS.get(slug)
        if pattern is None:
            continue
        for m in pattern.finditer(text):
            if any(a <= m.start() < b for a, b in spans):
                continue
            found.append((m.start(), m.end(), slug))
            break
    return tuple(sorted(found))


def link_terms(
    text: str,
    slugs: Collection[str],
    *,
    claim: Callable[[str], bool] = lambda slug: True,
    present: bool = False,
) -> tuple[str, tuple[str, ...]]:
    """Link the first mention of each term `claim` grants; return the text and the slugs linked."""
    out, last, linked = [], 0, []
    for start, end, slug in _first_mentions(text, tuple(slugs)):
        if start < last or not claim(slug):
            continue
        out += [text[last:start], f"[{text[start:end]}]({href(slug, present=present)})"]
        last = end
        linked.append(slug)
    out.append(text[last:])
    return "".join(out), tuple(linked)
