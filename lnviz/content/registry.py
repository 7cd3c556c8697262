"""The page registry: every page once; navigation, home cards, glossary links and tests read it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PageInfo:
    """One page: where it lives, what the navigation and the home page call it."""

    url_path: str  # "" for the home page
    title: str
    icon: str  # a Material Symbols name, as st.Page takes it
    section: str
    blurb: str  # one line for the home page's card, the recap and the navigation's hover
    course: bool = True  # a step of the course path (every page but home and the reference)
    terms: tuple[str, ...] = ()  # glossary slugs whose first mention on the page links there
    lesson: str = ""  # what the step teaches, in one line: the course recap on the last step

    @property
    def script(self) -> str:
        return f"pages/{self.url_path or 'home'}.py"

    @property
    def is_home(self) -> bool:
        return self.url_path == ""


SECTIONS = (
    "Start",
    "The formula",
    "In models",
    "Inside a transformer",
    "Engineering",
    "Advanced geometry",
    "Reference",
)

PAGES: tuple[PageInfo, ...] = (
    PageInfo(
        "",
        "Home",
        ":material/home:",
        "Start",
        "Why normalize, where layer norm sits in a transformer, and the way into the course.",
        course=False,
        terms=(
            "layer-normalization",
            "residual-stream",
            "pre-ln",
            "post-ln",
            "population-variance",
        ),
    ),
    PageInfo(
        "why-normalize",
        "Why normalize?",
        ":material/trending_up:",
        "Start",
        "A deep stack without normalization: activations drift, explode or vanish with depth.",
        terms=("layer-normalization",),
        lesson=(
            "Without normalization the size of the activations drifts from layer to layer, "
            "up or down; layer norm rescales each token's vector to mean 0 and spread 1."
        ),
    ),
    PageInfo(
        "gain-and-bias",
        "Gain and bias",
        ":material/tune:",
        "The formula",
        "What the learned affine step does to mean and variance: normalized does not mean "
        "mean 0 and variance 1.",
        terms=(
            "layer-normalization",
            "population-variance",
            "normalized-core",
            "lipschitz-constant",
        ),
        lesson=(
            "A learned gain γ and bias β then stretch and shift each coordinate, so the "
            "output's mean and variance need not be 0 and 1."
        ),
    ),
    PageInfo(
        "epsilon",
        "Epsilon",
        ":material/functions:",
        "The formula",
        "How ε bends the core: the curve h_ε(t), the variance q/(q+ε), lost scale invariance "
        "and the Lipschitz bound ε^(−1/2).",
        terms=(
            "layer-normalization",
            "population-variance",
            "epsilon",
            "scale-invariance",
            "jacobian",
            "centering-matrix",
            "lipschitz-constant",
        ),
        lesson=(
            "ε keeps the division finite: the core's variance is q/(q + ε) instead of 1, "
            "and an input of small spread is squashed towards 0."
        ),
    ),
    PageInfo(
        "invariance",
        "Invariances",
        ":material/balance:",
        "The formula",
        "Common shifts vanish exactly; unequal shifts and rescaling do not; the redundancy of "
        "a bias before the normalization.",
        terms=(
            "layer-normalization",
            "population-variance",
            "shift-invariance",
            "scale-invariance",
            "rms-normalization",
        ),
        lesson=(
            "Adding one number to every coordinate changes nothing; unequal shifts do, and "
            "scaling the input by a > 0 acts only through ε, which becomes ε/a²."
        ),
    ),
    PageInfo(
        "reduction-axes",
        "Reduction axes",
        ":material/view_in_ar:",
        "The formula",
        "Which entries share one mean and variance under batch, layer, instance, group and "
        "RMS normalization, on a tensor you control.",
        terms=(
            "rms-normalization",
            "batch-normalization",
            "layer-normalization",
            "instance-normalization",
            "group-normalization",
            "reduction-axes",
            "parameter-axes",
        ),
        lesson=(
            "Batch, layer, instance, group and RMS norm differ in which entries share one "
            "mean and variance; the shape of γ and β is a separate choice."
        ),
    ),
    PageInfo(
        "sequences",
        "Sequences and causality",
        ":material/timeline:",
        "In models",
        "What token-wise statistics guarantee for a forecast, and what they do not.",
        terms=(
            "layer-normalization",
            "batch-normalization",
            "look-ahead-bias",
            "jacobian",
            "running-statistics",
            "log-return",
            "garch",
            "residual-connection",
            "pre-ln",
            "post-ln",
        ),
        lesson=(
            "Token-wise statistics never carry a later token into an earlier output; "
            "statistics pooled over the sequence or the batch do, and a leaky input stays "
            "leaky."
        ),
    ),
    PageInfo(
        "batch-statistics",
        "Batch statistics",
        ":material/stacks:",
        "In models",
        "Batch norm's batch and running statistics against layer norm, which needs neither.",
        terms=("batch-normalization", "running-statistics", "momentum", "layer-normalization"),
        lesson=(
            "Batch norm uses the batch's statistics in training and running averages at "
            "inference, so its output depends on the batch and the mode; layer norm uses "
            "neither."
        ),
    ),
    PageInfo(
        "transformer",
        "Layer norm in a transformer",
        ":material/account_tree:",
        "Inside a transformer",
        "Pre-LN against Post-LN at depth, the residual stream, the sphere, QK-norm and the "
        "tanh look-alike, computed live.",
        terms=(
            "layer-normalization",
            "residual-connection",
            "residual-stream",
            "post-ln",
            "pre-ln",
            "learning-rate-warm-up",
            "softmax",
            "attention-entropy",
            "qk-norm",
            "dynamic-tanh",
        ),
        lesson=(
            "Pre-LN normalizes what each block reads and lets the stream grow; Post-LN "
            "normalizes the stream itself and usually needs a learning-rate warm-up."
        ),
    ),
    PageInfo(
        "frameworks",
        "Framework parity",
        ":material/compare_arrows:",
        "Engineering",
        "PyTorch, Keras and Flax side by side: code, defaults, and why outputs differ.",
        terms=(
            "welford",
            "one-pass-variance",
            "catastrophic-cancellation",
            "batch-normalization",
            "momentum",
            "running-statistics",
            "two-pass-variance",
        ),
        lesson=(
            "PyTorch, Keras and Flax differ in default ε, variance algorithm and momentum "
            "convention: a ported model agrees only once these are matched."
        ),
    ),
    PageInfo(
        "numerics",
        "Numerics lab",
        ":material/calculate:",
        "Engineering",
        "Variance algorithms in four precisions, and where ε goes.",
        terms=(
            "bfloat16",
            "two-pass-variance",
            "one-pass-variance",
            "welford",
            "float16",
            "catastrophic-cancellation",
        ),
        lesson=(
            "E[x²] − E[x]² loses digits when the mean is large next to the spread, the more "
            "so in low precision; two-pass and Welford's method keep them."
        ),
    ),
    PageInfo(
        "weighted-centering",
        "Weighted centering",
        ":material/call_split:",
        "Advanced geometry",
        "Subtracting a weighted mean is an oblique projection: P_a = I − 1aᵀ against the "
        "Euclidean one.",
        terms=("weighted-centering-matrix", "oblique-projection", "d-inner-product", "idempotent"),
        lesson=(
            "Subtracting a weighted mean aᵀx is a projection along 𝟏 that leans: its step "
            "meets the target at a right angle in the geometry weighted by a, in the "
            "ordinary one only for equal weights."
        ),
    ),
    PageInfo(
        "glossary",
        "Glossary",
        ":material/menu_book:",
        "Reference",
        "Every term with its formula and a page that shows it.",
        course=False,
    ),
    PageInfo(
        "examples",
        "Worked examples",
        ":material/checklist:",
        "Reference",
        "What the two source documents state, with their numbers, and the app's own checks by "
        "independent routes.",
        course=False,
    ),
    PageInfo(
        "references",
        "References",
        ":material/library_books:",
        "Reference",
        "The papers and documentation each page relies on, with what each contributes.",
        course=False,
    ),
)

_BY_PATH = {p.url_path: p for p in PAGES}


def by_path(url_path: str) -> PageInfo:
    """The page at a url path ("" for home); KeyError for an unknown one."""
    return _BY_PATH[url_path]


def title_of(url_path: str) -> str:
    """A page's title, or the url path itself for an unknown one."""
    page = _BY_PATH.get(url_path)
    return page.title if page else url_path


def in_section(section: str) -> tuple[PageInfo, ...]:
    """The pages of one section, in navigation order."""
    return tuple(p for p in PAGES if p.section == section)


COURSE: tuple[PageInfo, ...] = tuple(p for p in PAGES if p.course)  # the path, in order


def position(url_path: str) -> tuple[int, int] | None:
    """(k, n): the page is step k of the course's n, or None off the path."""
    steps = [p.url_path for p in COURSE]
    return (steps.index(url_path) + 1, len(steps)) if url_path in steps else None


def neighbours(url_path: str) -> tuple[PageInfo | None, PageInfo | None]:
    """The previous and next steps of the course around a page (None at either end)."""
    steps = [p.url_path for p in COURSE]
    if url_path not in steps:
        return None, None
    k = steps.index(url_path)
    return (COURSE[k - 1] if k > 0 else None, COURSE[k + 1] if k + 1 < len(COURSE) else None)


def pages_using(slug: str) -> tuple[PageInfo, ...]:
    """The pages whose prose links this glossary term (the entry's "used on" list)."""
    return tuple(p for p in PAGES if slug in p.terms)
