"""Questions of the sequences page: which tokens a normalized output can see."""

from __future__ import annotations

from lnviz.content.questions import Question, choice, link, number, twice_or_half
from lnviz.content.text import short
from lnviz.lessons.sequences import MAX_TOKENS, MIN_TOKENS
from lnviz.lessons.sequences.analysis import Settings, analyse, shock, shock_table
from lnviz.lessons.sequences.causality import SCHEMES, dependence, normalize

SHOCK = 2.0  # the page's default shock, in % of log return
NAMES = {"token": "token-wise", "sequence": "sequence pooling", "causal": "causal",
         "batch": "batch norm"}  # fmt: skip


def shocked_token(tokens: int) -> int:
    """The token the page shocks by default: three quarters of the way along."""
    return (3 * tokens) // 4


def questions(
    tokens: int = 32, batch: int = 4, leak: bool = True, seed: int = 0, window: int = 5,
    eps: float = 1e-5,
) -> tuple[Question, ...]:  # fmt: skip
    """Future pairs at another T (the page counts its own), a future shock, and batch mixing."""
    return (
        _pairs(Settings(1, twice_or_half(tokens, MAX_TOKENS), seed, window, False, eps), tokens),
        _shock(Settings(batch, tokens, seed, window, leak, eps)),
        _company(Settings(batch, MIN_TOKENS, seed, window, False, eps)),
    )


def _pairs(s: Settings, shown: int) -> Question:
    """Sequence pooling's future pairs on x (they do not depend on the batch size)."""
    counts = {k: d.future_pairs for k, d in analyse(s).deps["x"].items()}
    t = s.tokens
    return number(
        "pairs",
        f"The page counts the future pairs of T = {shown} tokens; your turn for T = {t}. "
        f"Sequence pooling takes each feature's mean and variance over all {t} tokens. "
        "Count the pairs of tokens (t, s) with s later than t (s in t's future) for which "
        "output t changes when input s changes. How many are there?",
        counts["sequence"],
        link("sequences", f"Show the maps for T = {t}", t=str(t), wrt="x"),
        hint="Every output reads every token of its series through the shared mean and "
        "variance. Count the pairs with s > t.",
        explanation=f"All of them: T(T − 1)/2 = {counts['sequence']}. Token-wise and causal "
        f"statistics have {counts['token']} and {counts['causal']} such pairs.",
    )


def _shock(s: Settings) -> Question:
    """The first token whose token-wise output moves when a later return is shocked."""
    k = shocked_token(s.tokens)
    first = shock_table(shock(s, k, SHOCK, 0)).first_moved
    tokens = sorted({0, k - 1, k, first[0]})
    said = "with" if s.leak else "without"
    return choice(
        "shock",
        f"Day {k}'s return gets a shock and the features are rebuilt, {said} the leaky "
        "feature. Which is the first token whose token-wise layer-norm output moves?",
        tuple(f"token {j}" for j in tokens),
        tokens.index(first[0]),
        link("sequences", f"Show the shock at token {k}", t=str(s.tokens), b=str(s.batch),
             leak=str(s.leak).lower(), at=str(k), size=f"{SHOCK:g}"),
        hint=f"A token-wise output reads its own token's features only. Which token's "
        f"features read the return of day {k}?",
        explanation=f"Token-wise layer norm first moves at token {first[0]}"
        + (f": the leaky feature of token {k - 1} is r({k})." if first[0] == k - 1 else ".")
        + f" Sequence pooling moves from token {first[1]} on: its shared mean and variance "
        "carry the shock into the past.",
    )  # fmt: skip


def _company(s: Settings) -> Question:
    """Which scheme lets one series' outputs depend on another series of the batch."""
    cross = {k: dependence(normalize(s.market().x, k, s.eps)).cross_examples for k in SCHEMES}
    names = (*(NAMES[k] for k in SCHEMES), "none of them")
    mixing = [i for i, k in enumerate(SCHEMES) if cross[k] > 0]
    if len(mixing) > 1:
        raise ValueError(f"more than one scheme mixes the series: {mixing}")
    right = mixing[0] if mixing else len(SCHEMES)
    return choice(
        "company",
        f"In a batch of B = {s.batch} series, which statistics let one series' outputs "
        "depend on another series?",
        names,
        right,
        link("sequences", f"Show a batch of {s.batch}", b=str(s.batch), wrt="x"),
        hint="Ask, for each scheme, which entries share one mean and variance.",
        explanation=(
            f"Batch norm pools every series of the batch: {cross['batch']} ordered pairs of "
            "different series depend on each other; the other three use none."
            if s.batch > 1
            else "A batch of one has no other series, so no scheme can read one: "
            f"{short(cross['batch'])} cross-series pairs even for batch norm."
        ),
    )
