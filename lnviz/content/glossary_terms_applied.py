"""Glossary rows of the model and engineering pages, in glossary_terms' row format."""

from __future__ import annotations

DEEP_POST = {"placement": "post", "depth": "48"}
DEEP_PRE = {"placement": "pre", "depth": "48"}
GRID_1E4 = {"data": "grid", "off": "1e4", "prec": "float32"}  # the numerics preset

# fmt: off
MODEL_TERMS: tuple = (
    (
        "log-return", "Log return", ("logarithmic return", "continuously compounded return"),
        r"""The change of the logarithm of a price from one period to the next, here in
        percent. Log returns add up over time: the sum of the daily log returns over a stretch
        is the log of the price ratio over that stretch. For small moves a log return is close
        to the ordinary percentage change.""",
        (r"r_t=100\,\ln\dfrac{\text{price}_t}{\text{price}_{t-1}}\ \%",
         r"\textstyle\sum_{t=1}^{T} r_t=100\,\ln\dfrac{\text{price}_T}{\text{price}_0}\ \%"),
        (("sequences", "64 days of simulated log returns", {"t": "64"}),
         ("sequences", "A shock of 5 % log return", {"size": "5"})),
        ("garch", "look-ahead-bias"),
    ),
    (
        "garch", "GARCH(1, 1)", ("GARCH", "volatility clustering", "heteroskedasticity"),
        r"""A model of returns whose variance changes over time: the variance of today's
        return is a constant plus a share of yesterday's squared return plus a share of
        yesterday's variance. Large moves therefore tend to follow large moves and calm days
        follow calm days, the volatility clustering seen in markets. The sequences page
        simulates its series this way.""",
        (r"r_t=\sigma_t\,\xi_t,\quad \xi_t\sim N(0,1)",
         r"\sigma_t^2=\omega+\kappa\,r_{t-1}^2+\lambda\,\sigma_{t-1}^2,"
         r"\quad \kappa+\lambda<1"),
        (("sequences", "Series of random seed 1, 64 days", {"seed": "1", "t": "64"}),),
        ("log-return", "look-ahead-bias"),
    ),
    (
        "residual-connection", "Residual connection", ("skip connection", "shortcut"),
        r"""A connection that adds a block's input back to its output, so the block only has
        to learn a correction: the output is the input plus what the block computes. The
        gradient flows back through the addition untouched, which helps deep stacks train. In
        a transformer every attention block and every MLP block sits beside one.""",
        (r"x_l=x_{l-1}+F_l(\,\cdot\,)",),
        (("transformer", "Residual connections in a stack of 12", {"placement": "pre",
                                                                    "depth": "12"}),),
        ("residual-stream", "pre-ln", "post-ln"),
    ),
    (
        "residual-stream", "Residual stream", ("residual path", "hidden state"),
        r"""The vector each token carries from block to block in a transformer: every block
        reads it, computes something and adds its result back through a residual connection.
        In a Pre-LN stack the stream itself is never normalized, only the copy each block
        reads, so it tends to grow with depth and one last layer norm brings it back to
        scale. In a Post-LN stack the stream is normalized again after every block.""",
        (r"\text{Pre-LN: }\ x_L=x_0+\textstyle\sum_{l=1}^{L}F_l\bigl(\mathrm{LN}(x_{l-1})\bigr)",),
        (("transformer", "The stream of a Pre-LN stack of 48 blocks", DEEP_PRE),
         ("transformer", "The stream of a Post-LN stack of 48 blocks", DEEP_POST)),
        ("residual-connection", "pre-ln", "post-ln"),
    ),
    (
        "pre-ln", "Pre-LN (pre-norm)", ("pre-norm", "pre-layer normalization"),
        r"""Layer norm placed on the way into each block: the block reads a normalized copy
        of the residual stream and adds its output to the stream, which stays unnormalized;
        one last layer norm sits at the top. GPT-2 and most language models since use it.
        Xiong et al. (2020) bound the gradient of the last block's weights at initialization
        by a quantity that shrinks like $1/\sqrt L$ with the depth $L$, and trained Pre-LN
        transformers without the learning-rate warm-up that Post-LN usually needs.""",
        (r"x_l=x_{l-1}+F_l\bigl(\mathrm{LN}(x_{l-1})\bigr),\qquad y=\mathrm{LN}(x_L)",),
        (("transformer", "Pre-LN at depth 48", DEEP_PRE),),
        ("post-ln", "residual-stream", "learning-rate-warm-up"),
    ),
    (
        "post-ln", "Post-LN (post-norm)", ("post-norm", "post-layer normalization"),
        r"""Layer norm placed after the residual addition, as in the original Transformer:
        each block's output is added to the stream and the sum is normalized, so the stream is
        renormalized after every block. Xiong et al. (2020) bound the gradient of the last
        block's weights at initialization independently of the depth. Post-LN usually needs a
        learning-rate warm-up; why is still argued (see learning-rate warm-up).""",
        (r"x_l=\mathrm{LN}\bigl(x_{l-1}+F_l(x_{l-1})\bigr),\qquad y=x_L",),
        (("transformer", "Post-LN at depth 48", DEEP_POST),),
        ("pre-ln", "residual-stream", "learning-rate-warm-up"),
    ),
    (
        "learning-rate-warm-up", "Learning-rate warm-up", ("warmup", "warm-up schedule"),
        r"""A start of training in which the learning rate rises from near 0 to its full
        value over the first steps (often a few thousand), instead of starting at full size.
        Post-LN transformers often diverge or train badly without it; Pre-LN ones can often
        do without. Why is a matter of hypotheses with evidence, not settled fact: Xiong et
        al. (2020) point to Post-LN's large gradients near the output at initialization; Liu
        et al. (2020) argue that these are not the root cause, and point to each layer leaning
        so heavily on its residual branch that small changes of the weights are amplified.""",
        (r"\eta_t=\eta_{\max}\cdot\min\bigl(1,\ t/T_{\text{warm}}\bigr)",),
        (("transformer", "Post-LN's last block: a larger gradient than Pre-LN's", DEEP_POST),),
        ("post-ln", "pre-ln"),
    ),
    (
        "softmax", "Softmax", ("attention weights", "normalized exponential"),
        r"""The function that turns a list of scores (logits) into weights that are positive
        and add up to 1, giving larger scores exponentially more weight. Adding the same
        number to every score changes nothing; multiplying all scores by a growing factor
        makes the largest score take nearly all the weight.""",
        (r"w_j=\dfrac{e^{\ell_j}}{\sum_k e^{\ell_k}}",),
        (("transformer", "Softmax weights with and without QK-norm", {"qk": "layer", "tau": "2"}),),
        ("attention-entropy", "qk-norm"),
    ),
    (
        "attention-entropy", "Attention entropy", ("entropy", "attention collapse"),
        r"""How spread out a query's attention weights are: the entropy of its softmax
        weights, in nats. It is $\ln n$ when all $n$ keys get equal weight and 0 when one key
        takes all of it. Entropy falling toward 0 means attention has locked onto single
        keys, the instability Dehghani et al. (2023) met in vision transformers of about 8
        billion parameters, when the attention scores grew during training.""",
        (r"H=-\textstyle\sum_j w_j\ln w_j,\qquad 0\le H\le\ln n",),
        (("transformer", "Entropy with QK-norm at τ = 2", {"qk": "layer", "tau": "2"}),
         ("transformer", "Entropy with QK-norm at τ = 16", {"qk": "layer", "tau": "16"})),
        ("softmax", "qk-norm"),
    ),
    (
        "qk-norm", "QK-norm", ("query-key normalization", "QK layer norm"),
        r"""Normalizing each query and each key (with layer norm or RMS norm) before their
        dot product, then multiplying by a learned scale τ, as Henry et al. (2020) did
        (Dehghani et al. (2023) kept layer norm's own learned gain instead). The attention
        scores can then no longer grow without bound as training inflates the queries and
        keys: without a gain
        each normalized vector has length at most $\sqrt d$ (exactly $\sqrt d$ at ε = 0), so
        every score, divided by $\sqrt d$ as usual, lies within $\pm\tau\sqrt d$.""",
        (r"\text{logit}_j=\dfrac{\tau\,N(q)\cdot N(k_j)}{\sqrt d},\qquad"
         r"\lvert\text{logit}_j\rvert\le\tau\sqrt d",),
        (("transformer", "QK-norm with layer norm, τ = 4", {"qk": "layer", "tau": "4"}),
         ("transformer", "QK-norm with RMS norm, τ = 4", {"qk": "rms", "tau": "4"})),
        ("attention-entropy", "softmax", "rms-normalization"),
    ),
    (
        "dynamic-tanh", "Dynamic Tanh (DyT)", ("DyT", "tanh instead of normalization"),
        r"""A replacement for layer norm proposed by Zhu et al. (2025): no statistics at all,
        only an S-shaped squashing of each number, with one learned steepness α for the whole
        layer (0.5 at the start by default) and, as in layer norm, a gain γ and a bias β with
        one entry per channel. It is modelled on what layer norm often does in trained
        transformers, where most inputs are mapped almost linearly and a few large outliers
        are squashed; unlike layer norm it treats each number on its own, without its
        token's mean or spread.""",
        (r"\mathrm{DyT}(x)=\gamma\odot\tanh(\alpha x)+\beta",),
        (("transformer", "Layer norm against tanh, 10 % outlier tokens", {"outliers": "0.1"}),
         ("transformer", "No outliers", {"outliers": "0"})),
        ("layer-normalization", "gain", "bias"),
    ),
)

ENGINEERING_TERMS: tuple = (
    (
        "two-pass-variance", "Two-pass variance", ("centred sum of squares", "two passes"),
        r"""The variance computed by reading the data twice: first the mean, then the average
        squared distance from it. Subtracting the mean before squaring keeps the small
        deviations intact, so the result stays accurate when the mean is large next to the
        spread, and it is never negative. The cost is a second sweep over the data.""",
        (r"\mu=\tfrac1n\textstyle\sum_i x_i,\qquad v=\tfrac1n\textstyle\sum_i(x_i-\mu)^2",),
        (("numerics", "Two-pass against one-pass at an offset of 10⁴", GRID_1E4),
         ("frameworks", "Keras on JAX: two passes", {"backend": "jax"})),
        ("one-pass-variance", "welford", "population-variance"),
    ),
    (
        "one-pass-variance", "One-pass variance", ("E[x²] − E[x]²", "naive variance"),
        r"""The variance computed in a single sweep: accumulate the sum of the values and the
        sum of their squares, then subtract the squared mean from the mean square. It is cheap
        and easy to parallelize, but when the mean is large next to the spread both terms are
        large and nearly equal, and the subtraction loses the digits that held the variance
        (catastrophic cancellation). In floating point the result can even come out
        negative.""",
        (r"v=\tfrac1n\textstyle\sum_i x_i^2-\mu^2",),
        (("numerics", "16 values around 10⁴ in float32", GRID_1E4),
         ("numerics", "Around 10⁸: nothing left", {"data": "grid", "off": "1e8"})),
        ("two-pass-variance", "catastrophic-cancellation", "welford"),
    ),
    (
        "catastrophic-cancellation", "Catastrophic cancellation",
        ("cancellation", "loss of significance"),
        r"""The loss of correct digits when two nearly equal numbers, each carrying a small
        rounding error, are subtracted: the leading digits cancel, and what is left is mostly
        the rounding errors. The subtraction itself adds almost no error; it exposes the
        errors the two numbers already carried. Here $u$ is the format's unit roundoff, the
        largest relative error of rounding one number.""",
        (r"\hat a=a(1+\delta_a),\ \ \hat b=b(1+\delta_b),\ \ \lvert\delta\rvert\le u",
         r"\dfrac{\lvert(\hat a-\hat b)-(a-b)\rvert}{\lvert a-b\rvert}"
         r"\le u\,\dfrac{\lvert a\rvert+\lvert b\rvert}{\lvert a-b\rvert}"),
        (("numerics", "The one-pass variance around 10⁴", GRID_1E4),),
        ("one-pass-variance", "float16", "bfloat16"),
    ),
    (
        "welford", "Welford's algorithm", ("Welford", "online variance", "streaming variance"),
        r"""A way to compute the mean and the variance in a single sweep without the
        cancellation of the one-pass formula: after each new value it updates the mean so far
        and the sum of squared deviations from it. It reads the data once and partial results
        of blocks can be merged; it rounds differently from two passes, and in float32 with
        the values added in order its error can be several times larger. PyTorch's
        layer-norm kernel on the CPU computes its statistics this way.""",
        (r"m_k=m_{k-1}+\dfrac{x_k-m_{k-1}}{k}",
         r"M_k=M_{k-1}+(x_k-m_{k-1})(x_k-m_k),\qquad v=M_n/n"),
        (("numerics", "Welford on 1000 values around 10⁶", {"data": "noise", "off": "1e6"}),
         ("frameworks", "PyTorch's layer norm kernel", {"scheme": "layer"})),
        ("one-pass-variance", "two-pass-variance"),
    ),
    (
        "float16", "float16 (half precision)", ("fp16", "half", "binary16"),
        r"""The IEEE 16-bit floating-point format: 1 sign bit, 5 exponent bits and 10 stored
        significand bits (11 with the implicit leading 1), about three decimal digits. Its
        largest finite number is 65504, so a sum of squares can overflow to infinity long
        before the values themselves are large. Mixed-precision training (PyTorch's autocast,
        for one) runs layer norm in float32.""",
        (r"u=2^{-11}\approx4.9\times10^{-4},\qquad x_{\max}=65504",),
        (("numerics", "Around 2000 in float16", {"off": "2000", "prec": "float16"}),),
        ("bfloat16", "catastrophic-cancellation"),
    ),
    (
        "bfloat16", "bfloat16", ("bf16", "brain floating point"),
        r"""A 16-bit format that keeps float32's 8 exponent bits, and so nearly its range (up
        to about $3.4\times10^{38}$), but only 7 stored significand bits (8 with the implicit
        leading 1), two to three decimal digits. Sums of squares rarely overflow in it, but
        every stored number can be off by up to 1/256 of its size: numbers near 10 are 1/16
        apart.""",
        (r"u=2^{-8}\approx3.9\times10^{-3},\qquad x_{\max}\approx3.4\times10^{38}",),
        (("numerics", "Noise around 10 in bfloat16",
          {"data": "noise", "n": "1000", "seed": "0", "off": "10", "prec": "bfloat16"}),),
        ("float16", "catastrophic-cancellation"),
    ),
)
# fmt: on
