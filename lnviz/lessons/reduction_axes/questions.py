"""Questions of the reduction-axes page: who shares a statistic, and what shape γ has."""

from __future__ import annotations

import numpy as np

from lnviz.axes import SCHEME_INFO, Reduction, has_statistics, reduce_tensor
from lnviz.content.questions import Question, choice, link, number
from lnviz.lessons.reduction_axes.notes import SCHEME_SHORT
from lnviz.lessons.reduction_axes.state import MAX_B, MAX_F, MAX_T

DEFAULT_SHAPE = (2, 4, 6)  # the page's default (B, T, F)
TOKEN_OPTIONS = ("batch", "layer_all", "instance", "layer")  # schemes offered for "per token"
SYMBOL = {"batch": "B", "token": "T", "feature": "F"}  # axis -> its size's letter
# The parameter axes a scheme's γ can have, with the option that names them.
GAMMA_OPTIONS = (
    (("feature",), "(F,): one γ per feature"),
    (("token", "feature"), "(T, F): one γ per token position and feature"),
    (("batch", "token"), "(B, T): one γ per token of the batch"),
    (("statistic group",), "one γ per statistic group"),
)


def questions(
    shape: tuple[int, int, int] = DEFAULT_SHAPE, scheme: str = "layer", groups: int = 2
) -> tuple[Question, ...]:
    """Four questions: group size, group norm's groups, the per-token scheme and γ's shape."""
    b, t, f = (int(n) for n in shape)
    shape = (b, t, f)
    shown = scheme if has_statistics(scheme, shape) else "layer"
    g = groups if f % groups == 0 else 1
    red = _reduce(shape, shown, g)
    return (_entries(red), _groups(shape, g), _per_token(shape), _gamma(red))


def _reduce(shape: tuple[int, int, int], scheme: str, groups: int) -> Reduction:
    """The engine's reduction of a tensor of this shape (the partition ignores the values)."""
    return reduce_tensor(np.zeros(shape), scheme, num_groups=groups)


def _n(count: int, word: str) -> str:
    """'1 entry', '6 entries'; '1 group', '8 groups'."""
    plural = word[:-1] + "ies" if word.endswith("y") else word + "s"
    return f"{count} {word if count == 1 else plural}"


def _pooled(red: Reduction) -> str:
    """The axes pooled into one group, in words."""
    if red.scheme == "group":
        return "the token axis and a block of F/G features"
    axes = red.reduce_axes
    return f"the {' and '.join(axes)} {'axis' if len(axes) == 1 else 'axes'}"


def _name(red: Reduction) -> str:
    name = SCHEME_INFO[red.scheme][0]
    return f"{name} with G = {red.num_groups}" if red.scheme == "group" else name


def _state(red: Reduction, **extra: str) -> dict[str, str]:
    """The page's URL values for this reduction's shape and scheme."""
    b, t, f = red.x.shape
    scheme = SCHEME_SHORT.get(red.scheme, red.scheme)  # as the page's link writes it
    query = {"b": str(b), "t": str(t), "f": str(f), "scheme": scheme}
    if red.scheme == "group":
        query["groups"] = str(red.num_groups)
    return query | extra


def _sizes(red: Reduction) -> tuple[str, str]:
    """The pooled axes' sizes as letters and as numbers, e.g. ('B·T', '2·4')."""
    b, t, f = red.x.shape
    size = {"batch": b, "token": t, "feature": f, "feature group": f // red.num_groups}
    letters = {**SYMBOL, "feature group": "F/G"}
    axes = red.reduce_axes
    return "·".join(letters[a] for a in axes), "·".join(str(size[a]) for a in axes)


def _other_shape(red: Reduction) -> tuple[int, int, int]:
    """Another tensor, so the page does not show the answer: axes doubled, else halved if even."""
    b, t, f = (
        2 * n if 2 * n <= hi else n // 2 if n % 2 == 0 else n
        for n, hi in zip(red.x.shape, (MAX_B, MAX_T, MAX_F), strict=True)
    )
    if red.scheme == "group" and f % red.num_groups:
        f = red.x.shape[2]
    return b, t, f


def _entries(red: Reduction) -> Question:
    page_shape = red.x.shape
    other = _other_shape(red)
    if has_statistics(red.scheme, other):
        red = _reduce(other, red.scheme, red.num_groups)
    b, t, f = red.x.shape
    stat = "mean and variance" if red.centered else "mean square"
    letters, numbers = _sizes(red)
    worked = numbers if "·" not in numbers else f"{numbers} = {red.group_size}"
    return number(
        "entries",
        f"Your turn on another tensor: shape (B, T, F) = ({b}, {t}, {f}) instead of the "
        f"page's {page_shape}, under **{_name(red)}**: how many entries share one {stat}? "
        "The block below colours the groups of the page's tensor.",
        red.group_size,
        link("reduction-axes", "Show this scheme on this tensor", **_state(red)),
        hint=f"Multiply the sizes of the axes it pools: {_pooled(red)}.",
        explanation=f"{_name(red)} pools {_pooled(red)}: {letters} = {worked}, so "
        f"{_n(red.group_size, 'entry')} per group and {_n(red.group_count, 'group')} in all.",
    )


def _groups(shape: tuple[int, int, int], groups: int) -> Question:
    b, t, f = shape
    red = _reduce(shape, "group", groups)
    per = red.group_count // b
    return number(
        "groups",
        f"Group norm with G = {groups} splits the F = {f} features into {groups} "
        f"block{'s' if groups != 1 else ''}. How many statistic groups does it form on the whole "
        f"tensor of shape ({b}, {t}, {f})?",
        red.group_count,
        link("reduction-axes", f"Show group norm with G = {groups}", **_state(red)),
        hint="Each example of the batch gets its own statistics for each block of features; "
        "the tokens of an example share them.",
        explanation=f"One group per example and block: B·G = {b}·{per} = {red.group_count}, "
        f"each pooling T·F/G = {t}·{f // groups} = {_n(red.group_size, 'entry')}.",
    )


def _per_token_shape(shape: tuple[int, int, int]) -> tuple[tuple[int, int, int], list[int]]:
    """This shape if exactly one option is per token (else the default), and that option's index."""
    for candidate in (shape, DEFAULT_SHAPE):
        b, t, _ = candidate
        token = np.broadcast_to(np.arange(b * t).reshape(b, t, 1), candidate)  # (B, T, F)
        hits = []
        for i, scheme in enumerate(TOKEN_OPTIONS):
            if not has_statistics(scheme, candidate):
                continue
            red = _reduce(candidate, scheme, 1)
            pairs = np.unique(np.stack([red.labels.ravel(), token.ravel()]), axis=1)
            if pairs.shape[1] == red.group_count == b * t:
                hits.append(i)
        if len(hits) == 1:
            return candidate, hits
    raise AssertionError("the default shape has exactly one per-token scheme")


def _per_token(shape: tuple[int, int, int]) -> Question:
    asked, hits = _per_token_shape(shape)
    right = TOKEN_OPTIONS[hits[0]]
    red = _reduce(asked, right, 1)
    b, t, f = asked
    return choice(
        "per-token",
        "A language model must normalize every token on its own, whatever else is in the "
        f"batch. Which scheme gives each token of a ({b}, {t}, {f}) tensor its own mean and "
        "variance?",
        tuple(SCHEME_INFO[s][0] for s in TOKEN_OPTIONS),
        hits[0],
        link("reduction-axes", "Show the per-token scheme", **_state(red)),
        hint="One group per token means B·T groups, each pooling that token's F features.",
        explanation=f"{SCHEME_INFO[right][0]}: {_n(red.group_count, 'group')} of "
        f"{_n(red.group_size, 'entry')}, one per token. Batch norm mixes the tokens of the batch, "
        "instance norm pools a feature over the tokens, and layer norm over token and feature "
        "pools a whole example.",
    )


def _gamma(red: Reduction) -> Question:
    b, t, f = red.x.shape
    axes = [a for a, _ in GAMMA_OPTIONS]
    right = axes.index(red.param_axes)
    beta = "" if red.centered else " RMS norm keeps no β."
    return choice(
        "gamma",
        f"Under **{_name(red)}** on a ({b}, {t}, {f}) tensor, what shape does the learned "
        "gain γ have?",
        tuple(text for _, text in GAMMA_OPTIONS),
        right,
        link("reduction-axes", "Show the parameters of this scheme", **_state(red)),
        hint="The parameters do not follow the statistic groups: they follow the axes a "
        "model keeps fixed from one example to the next.",
        explanation=f"γ has shape {red.param_shape}: one per "
        f"{' and '.join(red.param_axes)}, whatever the statistic groups ({red.group_count} "
        f"here) are.{beta}",
    )
