"""The papers, documentation and sources the pages rely on, each with what it contributes."""

from __future__ import annotations

from dataclasses import dataclass

from lnviz.content.sources import SOURCES


@dataclass(frozen=True)
class Reference:
    key: str  # stable anchor on the references page
    cite: str  # authors, year
    title: str
    where: str  # venue or site, with the version for documentation
    url: str
    contributes: str  # one line: what a page takes from it
    pages: tuple[str, ...]  # url paths of the pages that rely on it


REFERENCES: tuple[Reference, ...] = (
    Reference(
        "ba2016", "Ba, Kiros & Hinton (2016)", "Layer Normalization", "arXiv:1607.06450",
        "https://arxiv.org/abs/1607.06450",
        "Introduces layer norm: statistics over the features of one example, the same in "
        "training and at inference, with a learned gain and bias.",
        ("why-normalize", "gain-and-bias", "epsilon", "invariance", "reduction-axes",
         "batch-statistics"),
    ),
    Reference(
        "ioffe2015", "Ioffe & Szegedy (2015)",
        "Batch Normalization: Accelerating Deep Network Training by Reducing Internal "
        "Covariate Shift", "ICML 2015, arXiv:1502.03167", "https://arxiv.org/abs/1502.03167",
        "Batch norm: statistics over the batch, running averages for inference; the "
        "train/eval gap and batch effects on the batch-statistics page come from it.",
        ("reduction-axes", "batch-statistics", "frameworks"),
    ),
    Reference(
        "ulyanov2016", "Ulyanov, Vedaldi & Lempitsky (2016)",
        "Instance Normalization: The Missing Ingredient for Fast Stylization",
        "arXiv:1607.08022", "https://arxiv.org/abs/1607.08022",
        "Instance norm: statistics per example and per channel.",
        ("reduction-axes", "frameworks"),
    ),
    Reference(
        "wu2018", "Wu & He (2018)", "Group Normalization", "ECCV 2018, arXiv:1803.08494",
        "https://arxiv.org/abs/1803.08494",
        "Group norm: channels split into groups, one mean and variance per group; layer and "
        "instance norm as its two extremes.",
        ("reduction-axes", "frameworks"),
    ),
    Reference(
        "zhang2019", "Zhang & Sennrich (2019)", "Root Mean Square Layer Normalization",
        "NeurIPS 2019, arXiv:1910.07467", "https://arxiv.org/abs/1910.07467",
        "RMS norm: divide by the root mean square without centering; what it keeps and loses "
        "against layer norm.",
        ("invariance", "reduction-axes", "frameworks", "numerics"),
    ),
    Reference(
        "xiong2020", "Xiong et al. (2020)",
        "On Layer Normalization in the Transformer Architecture",
        "ICML 2020, arXiv:2002.04745", "https://arxiv.org/abs/2002.04745",
        "Pre-LN against Post-LN at initialization, under the paper's assumptions: a bound on "
        "the last layer's gradient that does not depend on the depth in Post-LN and shrinks "
        "like 1/√L in Pre-LN, and the hypothesis that Post-LN's large gradients near the "
        "output are why it needs a learning-rate warm-up.",
        ("transformer",),
    ),
    Reference(
        "liu2020", "Liu et al. (2020)", "Understanding the Difficulty of Training Transformers",
        "EMNLP 2020, arXiv:2004.08249", "https://arxiv.org/abs/2004.08249",
        "Another explanation of Post-LN's unstable training: not its unbalanced gradients, "
        "but each layer leaning so heavily on its residual branch that small changes of the "
        "parameters are amplified.",
        ("transformer",),
    ),
    Reference(
        "henry2020", "Henry et al. (2020)", "Query-Key Normalization for Transformers",
        "Findings of EMNLP 2020, arXiv:2010.04245", "https://arxiv.org/abs/2010.04245",
        "QK-norm with a learned scale: queries and keys normalized, their dot product "
        "multiplied by one learned number instead of divided by √d.",
        ("transformer",),
    ),
    Reference(
        "wang2022", "Wang et al. (2022)", "DeepNet: Scaling Transformers to 1,000 Layers",
        "arXiv:2203.00555", "https://arxiv.org/abs/2203.00555",
        "DeepNorm: Post-LN with the residual (identity) path up-weighted by a depth-dependent "
        "constant α before the norm, and the initial feed-forward, value and output weights "
        "scaled down; stable up to 1,000 layers.",
        ("transformer",),
    ),
    Reference(
        "sun2025", "Sun et al. (2025)", "The Curse of Depth in Large Language Models",
        "arXiv:2502.05795", "https://arxiv.org/abs/2502.05795",
        "LayerNorm Scaling: the output of layer l's norm multiplied by 1/√l, against the "
        "growth of the Pre-LN residual stream.",
        ("transformer",),
    ),
    Reference(
        "brody2023", "Brody, Alon & Yahav (2023)",
        "On the Expressivity Role of LayerNorm in Transformers' Attention",
        "Findings of ACL 2023, arXiv:2305.02582", "https://arxiv.org/abs/2305.02582",
        "Layer norm projects keys onto a hyperplane, which lets a query attend to all keys "
        "equally, and scales them onto a sphere, which keeps every key selectable by some "
        "query.",
        ("transformer",),
    ),
    Reference(
        "dehghani2023", "Dehghani et al. (2023)",
        "Scaling Vision Transformers to 22 Billion Parameters",
        "ICML 2023, arXiv:2302.05442", "https://arxiv.org/abs/2302.05442",
        "QK-norm: attention logits grew and training diverged in their models of about 8 "
        "billion parameters; layer norm on queries and keys kept the logits bounded, and the "
        "22-billion-parameter model was trained with it.",
        ("transformer",),
    ),
    Reference(
        "zhu2025", "Zhu et al. (2025)", "Transformers without Normalization",
        "CVPR 2025, arXiv:2503.10622", "https://arxiv.org/abs/2503.10622",
        "Dynamic Tanh, γ ⊙ tanh(αx) + β with one learned scalar α (0.5 at the start by "
        "default) and a γ and β per channel, in place of layer norm, because trained layer "
        "norms often map inputs to outputs along an S-curve.",
        ("transformer",),
    ),
    Reference(
        "he2015", "He et al. (2015)",
        "Delving Deep into Rectifiers: Surpassing Human-Level Performance on ImageNet "
        "Classification", "ICCV 2015, arXiv:1502.01852", "https://arxiv.org/abs/1502.01852",
        "The weight scale √(2/d) that keeps the spread of ReLU activations steady with depth.",
        ("why-normalize",),
    ),
    Reference(
        "welford1962", "Welford (1962)",
        "Note on a Method for Calculating Corrected Sums of Squares and Products",
        "Technometrics 4(3), 419–420", "https://doi.org/10.1080/00401706.1962.10490022",
        "A single sweep over the data that updates the mean and the sum of squared deviations "
        "value by value: unlike the one-pass formula, it stays accurate far from zero.",
        ("numerics", "frameworks"),
    ),
    Reference(
        "pytorch", "PyTorch 2.13", "torch.nn.functional: layer_norm, rms_norm, group_norm, "
        "instance_norm, batch_norm", "PyTorch documentation and ATen CPU kernels, version 2.13",
        "https://docs.pytorch.org/docs/stable/nn.functional.html",
        "The semantics the engine matches (shapes, ε placement, running statistics), and the "
        "CPU kernels' variance algorithms.",
        ("frameworks", "numerics", "batch-statistics", "reduction-axes"),
    ),
    Reference(
        "keras", "Keras 3.15", "Normalization layers", "Keras documentation and backend "
        "sources, version 3.15.1", "https://keras.io/api/layers/normalization_layers/",
        "Keras's defaults (ε 1e-3, momentum 0.99) and how each backend computes moments.",
        ("frameworks", "numerics", "batch-statistics"),
    ),
    Reference(
        "flax", "Flax 0.12", "flax.linen normalization layers", "Flax documentation and "
        "sources, version 0.12.8", "https://flax.readthedocs.io/en/latest/api_reference/flax.linen/layers.html",
        "Flax's defaults (ε 1e-6, 1e-5 for BatchNorm) and its fast variance E[x²] − E[x]².",
        ("frameworks", "numerics"),
    ),
    Reference(
        "source-note", "Untitled note on ε and weighted centering",
        "A mathematical note without a title: ε in layer normalization, the centering matrix "
        "and weighted centering",
        SOURCES["note"].name, "",
        "The worked numbers of the ε, invariance and weighted-centering pages: the core's "
        "variance, the scaling identity, the Jacobian and its bound, oblique projections.",
        ("epsilon", "invariance", "gain-and-bias", "weighted-centering", "examples"),
    ),
    Reference(
        "source-glossary", "“Layer normalisation”", "Layer normalisation", SOURCES["glossary"].name,
        "",
        "Token-wise reduction axes, batch independence, and what normalization does and does "
        "not guarantee for a causal financial forecast.",
        ("reduction-axes", "sequences", "batch-statistics", "examples"),
    ),
)  # fmt: skip


def for_page(url_path: str) -> tuple[Reference, ...]:
    """The references a page relies on, in the references page's order."""
    return tuple(r for r in REFERENCES if url_path in r.pages)
