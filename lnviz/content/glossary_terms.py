"""Glossary rows (slug, name, aliases, definition, LaTeX, links, related), in teaching order."""

from __future__ import annotations

TOY = {"z": "1,2,3", "gamma": "1,2,1", "beta": "0,1,0"}  # the eps = 0 example of the gain page

# fmt: off
TERM_DATA: tuple = (
    (
        "layer-normalization", "Layer normalization", ("LayerNorm", "LN", "token-wise"),
        r"""A layer that standardizes each vector of activations with the mean and the spread
        of that same vector, then gives every coordinate a learned scale and offset. On a
        (batch, token, feature) tensor each token is normalized over its own features, so
        the result does not depend on the other examples or the other tokens, and training
        and inference compute exactly the same thing.""",
        (r"\mu=\tfrac1d\textstyle\sum_i z_i,\quad q=\tfrac1d\textstyle\sum_i(z_i-\mu)^2",
         r"y=\gamma\odot\dfrac{z-\mu\mathbf 1}{\sqrt{q+\varepsilon}}+\beta"),
        (("gain-and-bias", "Follow one vector through the layer", TOY | {"eps": "0"}),
         ("reduction-axes", "See which entries share statistics", {"scheme": "layer"})),
        ("normalized-core", "gain", "bias", "reduction-axes"),
    ),
    (
        "normalized-core", "Normalized core", ("u_eps", "pre-affine output", "standardized"),
        r"""What layer normalization produces before the gain and bias: the input with its
        mean removed, divided by the square root of its variance plus ε. Its mean is 0 wherever
        it is defined (for every input when ε > 0). Its variance is $q/(q+\varepsilon)$, close
        to 1 only when the input's variance $q$ is large next to ε.""",
        (r"u_\varepsilon(z)=\dfrac{z-\mu\mathbf 1}{\sqrt{q+\varepsilon}}",
         r"\operatorname{var}u_\varepsilon(z)=\dfrac{q}{q+\varepsilon}"),
        (("epsilon", "Open the core of (1, 2, 3) at ε = 1/3", {"z": "1,2,3", "eps": "1/3"}),),
        ("epsilon", "population-variance", "centering-matrix"),
    ),
    (
        "epsilon", "ε (epsilon)", ("eps", "variance epsilon", "numerical stability"),
        r"""A small positive number added to the variance $q$, inside the square root. It keeps the
        division defined when all coordinates are equal and limits how steep the map can be.
        It is not harmless: the same input gives a different core for a different ε, the core
        no longer has variance 1, and rescaling the input no longer cancels out. Frameworks
        default to values such as $10^{-5}$.""",
        (r"\sqrt{q+\varepsilon}\quad\text{not}\quad\sqrt q+\varepsilon",),
        (("epsilon", "Same input, ε = 4/3", {"z": "1,2,3", "eps": "4/3"}),
         ("epsilon", "Same input, ε = 1/3", {"z": "1,2,3", "eps": "1/3"})),
        ("normalized-core", "lipschitz-constant", "scale-invariance"),
    ),
    (
        "gain", "Gain γ", ("gamma", "weight", "scale"),
        r"""A learned vector with one factor per coordinate, multiplied into the core. It gives
        back to each coordinate whatever scale the network finds useful. Unequal gains can also
        move the output's mean away from 0. Its largest absolute entry multiplies the layer's
        sensitivity bound.""",
        (r"y_i=\gamma_i\,u_i+\beta_i",),
        (("gain-and-bias", "Gains (1, 2, 1) without bias",
          {"z": "1,2,3", "gamma": "1,2,1", "beta": "0,0,0", "eps": "0"}),),
        ("bias", "layer-normalization", "lipschitz-constant"),
    ),
    (
        "bias", "Bias β", ("beta", "offset", "shift parameter"),
        r"""A learned vector added after the gain, one offset per coordinate. It decides where
        the output sits: after it the output's mean need not be 0. For an input whose
        coordinates are all equal the core is 0 when ε > 0, and the output is exactly β; at
        ε = 0 such an input gives 0/0 and no output at all.""",
        (r"y=\gamma\odot u_\varepsilon(z)+\beta",
         r"z=c\mathbf 1,\ \varepsilon>0\ \Rightarrow\ y=\beta"),
        (("gain-and-bias", "A constant input returns β",
          {"z": "2,2,2", "gamma": "1,2,1", "beta": "0,1,0", "eps": "0.01"}),),
        ("gain", "layer-normalization"),
    ),
    (
        "population-variance", "Population variance", ("biased variance", "divisor d"),
        r"""The average squared distance from the mean, dividing by the number of entries $d$.
        Layer normalization uses this form, not the sample (unbiased) variance with divisor
        $d-1$, which corrects for estimating a larger population from a sample. For
        (1, 2, 3) it gives 2/3 rather than 1.""",
        (r"q=\tfrac1d\textstyle\sum_{i=1}^d(z_i-\mu)^2=\tfrac1d\lVert v\rVert^2",),
        (("epsilon", "See q = 2/3 for (1, 2, 3)", {"z": "1,2,3", "eps": "1/3"}),),
        ("normalized-core", "centering-matrix"),
    ),
    (
        "centering-matrix", "Centering matrix", ("P", "mean subtraction"),
        r"""The $d\times d$ matrix that subtracts the mean from a vector. It sends the all-ones
        vector to 0, leaves vectors whose entries sum to 0 untouched, is symmetric and equals
        its own square: the orthogonal projection onto the zero-mean hyperplane.""",
        (r"P=I-\tfrac1d\mathbf 1\mathbf 1^{\mathsf T}", r"Pz=z-\mu\mathbf 1=v"),
        (("weighted-centering", "Equal weights: the usual centering", {"w": "0.5", "m": "2"}),),
        ("weighted-centering-matrix", "jacobian", "normalized-core"),
    ),
    (
        "weighted-centering-matrix", "Weighted centering matrix", ("P_a", "weighted mean"),
        r"""Centering with a weighted mean: take weights $a_i\ge0$ that add up to 1 and subtract
        the single number $a^{\mathsf T}x$ from every coordinate. The result has weighted mean
        0, while its ordinary mean need not be 0. With every weight $1/n$ it is the centering
        matrix. Unless the weights are equal it is an oblique projection.""",
        (r"P_a=I-\mathbf 1a^{\mathsf T}", r"P_ax=x-(a^{\mathsf T}x)\,\mathbf 1"),
        (("weighted-centering", "The worked example a = (1/4, 3/4), x = (4, 2)",
          {"w": "0.25", "x": "4,2", "m": "2"}),),
        ("centering-matrix", "oblique-projection", "d-inner-product"),
    ),
    (
        "idempotent", "Idempotent", ("idempotence", "P squared equals P"),
        r"""A map is idempotent when doing it twice gives the same result as doing it once:
        whatever it produces, it leaves alone. Every projection is idempotent. Centering is
        one: once the mean is removed, removing it again changes nothing, and the same holds
        for weighted centering, because its weights add up to 1. The normalized core is
        idempotent at ε = 0 (its output already has mean 0 and variance 1); with ε > 0 a
        second pass generally changes the result.""",
        (r"P^2=P", r"P_a^2=I-2\,\mathbf 1a^{\mathsf T}+\mathbf 1\,(a^{\mathsf T}\mathbf 1)\,"
         r"a^{\mathsf T}=P_a\quad(a^{\mathsf T}\mathbf 1=1)"),
        (("weighted-centering", "Check Pₐ² = Pₐ on the matrix",
          {"w": "0.25", "x": "4,2", "m": "2"}),),
        ("centering-matrix", "weighted-centering-matrix", "oblique-projection"),
    ),
    (
        "oblique-projection", "Oblique projection", ("slanted projection", "non-orthogonal"),
        r"""A projection (doing it twice is the same as once) that reaches its target subspace
        along a direction that is not perpendicular to it. Weighted centering is one: it lands
        on the points of weighted mean 0 by moving along $\mathbf 1$, which meets that subspace
        at a slant unless the weights are equal. Its matrix $\Pi$ is not symmetric.""",
        (r"\Pi^2=\Pi,\qquad \Pi\neq\Pi^{\mathsf T}",),
        (("weighted-centering", "See the slant in three dimensions",
          {"a3": "1,2,5", "x3": "3,1,2", "m": "3"}),),
        ("weighted-centering-matrix", "d-inner-product"),
    ),
    (
        "d-inner-product", "D-inner product", ("weighted inner product", "diag(a)"),
        r"""The dot product that counts coordinate $i$ with weight $a_i$, written with
        $D=\operatorname{diag}(a)$. Measured with it,
        weighted centering is an orthogonal projection: the step it takes is at a right angle
        to the result. With a zero weight a nonzero vector can get length 0, so the form stops
        being an inner product, although the matrix identities still hold.""",
        (r"\langle x,x'\rangle_D=x^{\mathsf T}Dx'=\textstyle\sum_i a_ix_ix'_i",
         r"DP_a=P_a^{\mathsf T}D=D-aa^{\mathsf T}"),
        (("weighted-centering", "A strongly unequal pair of weights", {"w": "0.1", "x": "4,2"}),
         ("weighted-centering", "A zero weight", {"w": "0"})),
        ("weighted-centering-matrix", "oblique-projection"),
    ),
    (
        "batch-normalization", "Batch normalization", ("BatchNorm", "BN"),
        r"""Standardizes each feature with a mean and a variance pooled over the examples of
        the mini-batch (and over tokens or pixels where there are any). One example's output
        therefore depends on its batch-mates. At evaluation the batch statistics are replaced
        by running averages gathered in training.""",
        (r"\mu_f=\tfrac1B\textstyle\sum_i x_{if},\quad"
         r"\sigma_f^2=\tfrac1B\textstyle\sum_i(x_{if}-\mu_f)^2",),
        (("reduction-axes", "The groups batch norm pools", {"scheme": "batch"}),
         ("batch-statistics", "Batch and running statistics", {"b": "8"})),
        ("running-statistics", "reduction-axes", "layer-normalization"),
    ),
    (
        "group-normalization", "Group normalization", ("GroupNorm", "GN"),
        r"""Splits the features (channels) of one example into $G$ blocks and standardizes each
        block over its features and all positions. With one group it pools the same entries as
        layer normalization over every axis but the batch; with one feature per group it is
        instance normalization.""",
        (r"\text{one statistic per }(b,\ g),\ \ g=1,\dots,G",),
        (("reduction-axes", "Two groups of features", {"scheme": "group", "groups": "2"}),),
        ("instance-normalization", "parameter-axes", "reduction-axes"),
    ),
    (
        "instance-normalization", "Instance normalization", ("InstanceNorm",),
        r"""Standardizes each feature of each example on its own, pooling over positions only:
        the tokens of a sequence here, the height and width of an image in vision models.""",
        (r"\mu_{bf}=\tfrac1T\textstyle\sum_t x_{btf}",),
        (("reduction-axes", "One group per feature and example", {"scheme": "instance"}),),
        ("group-normalization", "reduction-axes"),
    ),
    (
        "rms-normalization", "RMS normalization", ("RMSNorm", "root mean square"),
        r"""Token-wise normalization without the mean subtraction: divide by the root of the
        mean square of the features. It keeps the scaling behaviour of layer normalization but
        no longer removes a common shift.""",
        (r"\operatorname{rms}_\varepsilon(z)="
         r"z\Big/\sqrt{\tfrac1d\textstyle\sum_i z_i^2+\varepsilon}",),
        (("reduction-axes", "RMS norm on a tensor", {"scheme": "RMS"}),
         ("invariance", "A common shift moves RMS norm", {"z": "1,2,3", "c": "100", "eps": "1/3"})),
        ("shift-invariance", "layer-normalization"),
    ),
    (
        "reduction-axes", "Reduction axes", ("normalized axes", "axis=-1", "statistic groups"),
        r"""The axes pooled into one mean and variance; every index of the remaining axes gets
        its own statistics. This choice is what separates batch, layer, instance, group and RMS
        normalization, and it is a design decision (Keras's `LayerNormalization` pools the last
        axis unless told otherwise).""",
        (r"\text{token-wise: }\ \mu_{bt}=\tfrac1F\textstyle\sum_f x_{btf}",),
        (("reduction-axes", "Layer norm over token and feature", {"scheme": "layer-all"}),),
        ("parameter-axes", "batch-normalization", "group-normalization"),
    ),
    (
        "parameter-axes", "Parameter axes", ("parameter shape", "gamma shape"),
        r"""The axes along which the gain and bias have separate entries. They are chosen apart
        from the reduction axes: layer norm over (token, feature) and group norm with one group
        pool the same entries, yet one keeps a γ of shape $(T,F)$ and the other of shape $(F)$.
        Porting a model means matching both.""",
        (r"\gamma\in\mathbb R^{T\times F}\quad\text{vs}\quad\gamma\in\mathbb R^{F}",),
        (("reduction-axes", "Same statistics, different γ", {"scheme": "layer-all"}),),
        ("reduction-axes", "gain"),
    ),
    (
        "jacobian", "Jacobian", ("derivative", "Du"),
        r"""The matrix of partial derivatives of the core with respect to the input: how a small
        nudge of $z$ moves $u_\varepsilon(z)$. It is symmetric with three kinds of directions:
        the all-ones direction goes to 0; the radial direction $v$ (when $v\neq0$) is scaled by
        $\varepsilon/(q+\varepsilon)^{3/2}$; the $d-2$ directions orthogonal to both by
        $(q+\varepsilon)^{-1/2}$. The radial factor is the orthogonal one times
        $\varepsilon/(q+\varepsilon)=1/(1+q/\varepsilon)$, so its place depends on $q/\varepsilon$:
        nearly equal to it when $q\ll\varepsilon$, nearly 0 when $q\gg\varepsilon$. At a
        constant input every centred direction gets $\varepsilon^{-1/2}$.""",
        (r"\dfrac{\partial u_\varepsilon}{\partial z}=\dfrac{1}{\sqrt{q+\varepsilon}}"
         r"\Bigl(P-\dfrac{vv^{\mathsf T}}{d\,(q+\varepsilon)}\Bigr)",
         r"\text{radial}:\ \dfrac{\varepsilon}{(q+\varepsilon)^{3/2}}"
         r"=\dfrac{\varepsilon}{q+\varepsilon}\cdot\dfrac{1}{\sqrt{q+\varepsilon}}"),
        (("epsilon", "The Jacobian of (1, 2, 3) at ε = 1/3", {"z": "1,2,3", "eps": "1/3"}),),
        ("lipschitz-constant", "centering-matrix"),
    ),
    (
        "lipschitz-constant", "Lipschitz constant", ("sensitivity bound", "operator norm"),
        r"""A number $L$ such that the output never moves more than $L$ times as far as the
        input. For the core $L=\varepsilon^{-1/2}$, reached at an input with all coordinates
        equal (when $d\ge2$); with the gain the bound is $\max_i|\gamma_i|\,\varepsilon^{-1/2}$,
        which need not be reached. At ε = 0 no finite $L$ exists.""",
        (r"\lVert u_\varepsilon(z)-u_\varepsilon(z')\rVert_2\le"
         r"\varepsilon^{-1/2}\lVert z-z'\rVert_2",),
        (("epsilon", "Where the bound is reached", {"z": "2,2,2", "eps": "0.01"}),
         ("gain-and-bias", "The bound with gains", TOY | {"eps": "0.01"})),
        ("jacobian", "epsilon", "gain"),
    ),
    (
        "shift-invariance", "Shift invariance", ("common shift", "translation"),
        r"""Adding the same number $c$ to every coordinate changes nothing: the mean absorbs $c$
        and the variance never sees it. This is exact for every ε. A shift with unequal entries
        is only partly removed (its average), and RMS normalization removes none of it.""",
        (r"u_\varepsilon(z+c\mathbf 1)=u_\varepsilon(z)",),
        (("invariance", "(1, 2, 3) and (101, 102, 103)", {"z": "1,2,3", "c": "100", "eps": "1/3"}),
         ("invariance", "An unequal shift", {"z": "1,2,3", "s": "0,0,1", "eps": "1/3"})),
        ("scale-invariance", "rms-normalization"),
    ),
    (
        "scale-invariance", "Scale invariance", ("rescaling",),
        r"""Multiplying the input by a number $a>0$ would leave the core unchanged if the layer
        divided by $\sqrt q$ alone. With ε > 0 scaling by $a$ acts like dividing ε by $a^2$, so
        the core of an input that is not constant changes unless $a=1$. The invariance is exact
        at ε = 0 (for every input with $q>0$).""",
        (r"u_\varepsilon(az)=u_{\varepsilon/a^2}(z)",),
        (("invariance", "Broken at ε = 1", {"z": "1,2,3", "a": "10", "eps": "1"}),
         ("invariance", "Exact at ε = 0", {"z": "1,2,3", "a": "10", "eps": "0"})),
        ("shift-invariance", "epsilon"),
    ),
    (
        "look-ahead-bias", "Look-ahead bias", ("leakage", "future information", "causality"),
        r"""The error in a backtest or a validation score that comes from using, at time $t$,
        information that only became available after $t$: the model looks better than anything
        it could achieve in real time. Typical sources are a feature built from tomorrow's
        return and statistics pooled over a whole sequence. Token-wise normalization adds no
        such leak, but it cannot remove one that a feature already carries.""",
        (r"\text{no look-ahead: }\ \partial y_t/\partial x_s=0\ \text{ for every } s>t",),
        (("sequences", "A leaky feature survives normalization",
          {"leak": "true", "wrt": "market returns", "b": "8", "t": "64"}),
         ("sequences", "Sequence statistics leak the future",
          {"leak": "false", "wrt": "market returns", "b": "8", "t": "64"})),
        ("layer-normalization", "running-statistics"),
    ),
    (
        "running-statistics", "Running statistics", ("running mean", "moving average"),
        r"""Moving averages of the batch means and variances that batch normalization keeps
        while training and uses instead of batch statistics at evaluation. Layer normalization
        needs none: it takes its statistics from the current input every time.""",
        (r"\bar\mu\leftarrow(1-m)\,\bar\mu+m\,\mu_{\text{batch}}\quad"
         r"(m\text{: PyTorch's momentum})",),
        (("batch-statistics", "Running statistics after a shift", {"b": "16", "at": "80"}),),
        ("momentum", "batch-normalization"),
    ),
    (
        "momentum", "Momentum (running averages)", ("decay",),
        r"""The weight $m$ in the running-average update. The two big frameworks define it in
        opposite ways: in PyTorch $m$ weighs the new batch (default 0.1), in Keras it weighs the
        old value (default 0.99).""",
        (r"\text{PyTorch: }\bar\mu\leftarrow(1-m)\,\bar\mu+m\,\mu_{\text{batch}}",
         r"\text{Keras: }\bar\mu\leftarrow m\,\bar\mu+(1-m)\,\mu_{\text{batch}}"),
        (("batch-statistics", "PyTorch 0.1 against Keras 0.99",
          {"at": "200", "shift": "0", "spread": "1", "mt": "0.1", "mk": "0.99"}),),
        ("running-statistics", "batch-normalization"),
    ),
)
# fmt: on
