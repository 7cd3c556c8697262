"""The claims of the two source documents and the app's own checks, as data, in lesson order."""

from __future__ import annotations

import math

import numpy as np

import lnviz
from lnviz import weighted as wt
from lnviz.content import claims_routes as rt
from lnviz.lessons import symmetry

R32 = math.sqrt(1.5)  # sqrt(3/2), the eps = 0 core entry of the glossary entry's example
R2, R3, R5, R17, R67 = (math.sqrt(k) for k in (2, 3, 5, 17, 67))
TOY = {"z": "1,2,3", "gamma": "1,2,1", "beta": "0,1,0"}  # gain-and-bias page, the toy example
CONST = {"z": "2,2,2", "gamma": "1,2,1", "beta": "0,1,0", "eps": "0.01"}
A, X = (0.25, 0.75), (4.0, 2.0)  # the note's weighted-centering example
WC = {"w": "0.25", "x": "4,2", "m": "2"}
AXES = {"b": "2", "t": "4", "f": "6", "seed": "0"}  # the reduction-axes page's default tensor
P3 = np.eye(3) - 1 / 3  # centering matrix, d = 3
J123 = np.array([[1, -1, 0], [-1, 2, -1], [0, -1, 1]]) / 3  # Du at z = (1, 2, 3), eps = 1/3
FD = 1e-9  # tolerance of a finite-difference route (its error is about 1e-11 here)
T = r"{)}^{\mathsf{T}}"  # how the note closes a transposed vector


def _toy(eps: float) -> lnviz.AffineStages:
    return lnviz.affine_stages([1, 2, 3], [1, 2, 1], [0, 1, 0], eps)


def _dh(t: float, eps: float) -> float:
    """h'_eps(t) by finite differences of the core's third coordinate (not from its formula)."""
    return float(rt.fd_derivative(lambda s: np.array([rt.h_by_core(s[0], eps)]), [t], [1.0])[0])


def _ratio_measured(r: float) -> float:
    """The measured variance of the core of (−√r, √r) at eps = 1, whose q/eps is r."""
    return rt.core_variance_measured([-math.sqrt(r), math.sqrt(r)], 1.0)


def _tensor() -> np.ndarray:
    return lnviz.sample_tensor((2, 4, 6), 0)  # (B, T, F)


def _batchmate_effect() -> float:
    """Largest change of example 0's layer-norm output when example 1 is replaced."""
    x = _tensor()  # (2, 4, 6)
    other = x.copy()
    other[1] = 100.0 * x[1] + 7.0  # a different batch-mate
    y0 = lnviz.reduce_tensor(x, "layer").output[0]  # (4, 6)
    y1 = lnviz.reduce_tensor(other, "layer").output[0]  # (4, 6)
    return float(np.abs(y0 - y1).max())


def _groups(scheme: str, groups: int = 1) -> tuple[int, int]:
    r = lnviz.reduce_tensor(_tensor(), scheme, num_groups=groups)
    return r.group_count, r.group_size


def _redundancy() -> lnviz.Redundancy:
    layer = symmetry.seeded_layer(0)
    return lnviz.affine_redundancy(
        layer.w, layer.b, layer.xs, c=5.0, r=[1, -2, 0.5], s=[1, 0, 0], eps=1 / 3
    )


# fmt: off
CLAIM_DATA: tuple = (
    # --- gain and bias -------------------------------------------------------------------
    ("C13", "gain-and-bias", "Normalized does not mean mean 0 and variance 1", ("glossary",),
     r"""An example at ε = 0: z = (1, 2, 3), gains (1, 2, 1), biases (0, 1, 0). The core is
     exactly standardized, but after the gain and bias the output has mean 1/3 and population
     variance 11/9.""",
     (("Open the example at ε = 0", TOY | {"eps": "0"}),),
     (("core u₀(z)", (-R32, 0, R32), "(−√(3/2), 0, √(3/2))", lambda: _toy(0).core.values, 1e-12,
       "the engine's core of (1, 2, 3) at ε = 0",
       ("glossary", r"Standardisation gives" "\nz=(−32, 0, 32).z="
        r"\left(-\sqrt{\frac{3}{2}},\ 0,\ \sqrt{\frac{3}{2}}\right)",
        r"\left(-\sqrt{\frac{3}{2}},\ 0,\ \sqrt{\frac{3}{2}}\right)")),
      ("output y", (-R32, 1, R32), "(−√(3/2), 1, √(3/2))", lambda: _toy(0).output.values, 1e-12,
       "the engine's output with gains (1, 2, 1) and biases (0, 1, 0)",
       ("glossary", r"y=\left(-\sqrt{\frac{3}{2}},\ 1,\ \sqrt{\frac{3}{2}}\right)",
        r"\left(-\sqrt{\frac{3}{2}},\ 1,\ \sqrt{\frac{3}{2}}\right)")),
      ("mean of y", 1 / 3, "1/3", lambda: float(np.mean(_toy(0).output.values)), 1e-12,
       "numpy.mean of the output's values",
       ("glossary", "The final output has mean 1/3", "1/3")),
      ("variance of y", 11 / 9, "11/9", lambda: float(np.var(_toy(0).output.values)), 1e-12,
       "numpy.var (divisor d) of the output's values",
       ("glossary", "population variance 11/9", "11/9")))),
    ("C12", "gain-and-bias", "The variance divides by d, not d − 1", ("glossary", "note"),
     r"""Layer normalization uses the population variance. For (1, 2, 3) that is 2/3; the
     sample variance with divisor d − 1 would be 1. With the population form the core has
     variance exactly 1 at ε = 0.""",
     (("Open the example at ε = 0", TOY | {"eps": "0"}),),
     (("variance q of z", 2 / 3, "2/3", lambda: _toy(0).q, 1e-12,
       "the engine's q of (1, 2, 3)",
       ("glossary", "Their mean is 22, and their population variance is 2/3", "2/3")),
      ("variance of the core at ε = 0", 1.0, "1", lambda: rt.core_variance_measured(
          [1, 2, 3], 0.0), 1e-12, "numpy.var of the core's values",
       ("glossary", "The epsilon-zero toy has pre-affine mean zero and variance one", "one")))),
    ("C14", "gain-and-bias", "With ε > 0 the core falls short of variance 1", ("glossary",),
     r"""Before the gain and bias the vector has variance $q/(q+\varepsilon)$, not 1. For
     z = (1, 2, 3), q = 2/3: at ε = 1/3 that is 2/3, at ε = 4/3 it is 1/3. Both are measured
     from the core's values.""",
     (("Open the example at ε = 1/3", TOY | {"eps": "1/3"}),),
     (("variance of the core at ε = 1/3", 2 / 3, "q/(q+ε) = 2/3",
       lambda: float(np.var(_toy(1 / 3).core.values)), 1e-12, "numpy.var of the core's values"),
      ("variance of the core at ε = 4/3", 1 / 3, "q/(q+ε) = 1/3",
       lambda: rt.core_variance_measured([1, 2, 3], 4 / 3), 1e-12,
       "numpy.var of the core's values"))),
    ("C1", "gain-and-bias", "A constant input returns the bias (ε > 0)", ("note", "glossary"),
     r"""If every coordinate is equal, centring leaves nothing: v = 0 and q = 0, so with ε > 0
     the core is 0 and the output is β. (At ε = 0 the core is 0/0, undefined.) With
     z = (2, 2, 2), ε = 0.01 and β = (0, 1, 0):""",
     (("Open a constant input", CONST),),
     (("core", (0, 0, 0), "0", lambda: lnviz.affine_stages([2, 2, 2], eps=0.01).core.values, 0.0,
       "the engine's core of (2, 2, 2)"),
      ("output", (0, 1, 0), "β = (0, 1, 0)",
       lambda: lnviz.affine_stages([2, 2, 2], [1, 2, 1], [0, 1, 0], 0.01).output.values, 0.0,
       "the engine's output with β = (0, 1, 0)"))),
    ("C7 (output)", "gain-and-bias", "The gain multiplies the sensitivity bound", ("note",),
     r"""The core is Lipschitz with constant $\varepsilon^{-1/2}$, the full output with
     $\max_i|\gamma_i|\,\varepsilon^{-1/2}$: 10 and 20 for ε = 0.01 and gains (1, 2, 1). At the
     constant input (2, 2, 2) the core stretches a small centred step by exactly 10; the
     output stretches one by at most $10\sqrt3\approx17.3$ there (along (1, −2, 1)), and by
     less elsewhere. For these gains the bound 20 holds but is never reached.""",
     (("Open the example at ε = 0.01", TOY | {"eps": "0.01"}),),
     (("largest stretch of the core at (2, 2, 2)", 10.0, "ε^(−1/2) = 10",
       lambda: rt.core_stretch([2, 2, 2], 0.01), FD,
       "‖·‖₂ of the core's Jacobian by finite differences"),
      ("largest stretch of y at (2, 2, 2)", 10 * R3, "10√3",
       lambda: rt.output_stretch([2, 2, 2], [1, 2, 1], [0, 1, 0], 0.01), FD,
       "‖·‖₂ of the output's Jacobian by finite differences"))),
    # --- epsilon ----------------------------------------------------------------------------
    ("C3", "epsilon", "ε changes the core of the same input", ("note",),
     r"""For z = (1, 2, 3) (q = 2/3), ε = 1/3 gives q + ε = 1 and the core (−1, 0, 1); ε = 4/3
     gives q + ε = 2 and the same vector divided by √2.""",
     (("Open at ε = 1/3", {"z": "1,2,3", "eps": "1/3"}),
      ("Open at ε = 4/3", {"z": "1,2,3", "eps": "4/3"})),
     (("core at ε = 1/3", (-1, 0, 1), "(−1, 0, 1)",
       lambda: lnviz.normalized_core([1, 2, 3], 1 / 3), 1e-12, "the engine's core",
       ("note", f"changes the core from $(-1,0,1{T}$", f"(-1,0,1{T}")),
      ("core at ε = 4/3", (-1 / R2, 0, 1 / R2), "(−1, 0, 1)/√2",
       lambda: lnviz.normalized_core([1, 2, 3], 4 / 3), 1e-12, "the engine's core",
       ("note", f"to $(-1,0,1{T}/\\sqrt{{2}}$", f"(-1,0,1{T}/\\sqrt{{2}}")))),
    ("C2", "epsilon", "The core has mean 0 and variance q/(q + ε)", ("note",),
     r"""z = (1, 3) has q = 1; at ε = 1 the core (−1, 1)/√2 has variance exactly 1/2. The
     ratio $q/(q+\varepsilon)$ tends to 1 when $q\gg\varepsilon$ and to 0 when
     $q\ll\varepsilon$: measured on (−√r, √r) at ε = 1, whose q/ε is r.""",
     (("Open z = (1, 3) at ε = 1", {"z": "1,3", "eps": "1"}),),
     (("mean of the core", 0.0, "0", lambda: float(np.mean(lnviz.normalized_core([1, 3], 1.0))),
       1e-15, "numpy.mean of the core's values",
       ("note", "The arithmetic mean of the normalized core is 0", "0")),
      ("variance at q = ε", 0.5, "1/2", lambda: rt.core_variance_measured([1, 3], 1.0), 1e-15,
       "numpy.var of the core's values", ("note", r"equals $1/2$ when $q=\epsilon$", "1/2")),
      ("variance at q/ε = 10⁻⁶, 1, 10⁶", (1 / 1000001, 0.5, 1000000 / 1000001),
       "q/(q+ε) = (1/1000001, 1/2, 1000000/1000001)",
       lambda: [_ratio_measured(r) for r in (1e-6, 1.0, 1e6)], 1e-12,
       "numpy.var of the cores' values"))),
    ("C8", "epsilon", "The family (−t, 0, t): a smoothed step", ("note",),
     r"""The third core coordinate of (−t, 0, t) is $h_\varepsilon(t)=t/\sqrt{2t^2/3+\varepsilon}$,
     with slope $h'_\varepsilon(t)=\varepsilon/(2t^2/3+\varepsilon)^{3/2}$. At ε = 1/3: h(1) = 1,
     h′(1) = 1/3, the slope at 0 is $\varepsilon^{-1/2}=\sqrt3$, and far out h approaches
     $\sqrt{3/2}$. The app reads h off the engine's core and its slope by finite
     differences.""",
     (("Open the curves at ε = 1/3", {"eps": "1/3"}),),
     (("h(1)", 1.0, "1", lambda: rt.h_by_core(1.0, 1 / 3), 1e-12,
       "third coordinate of the engine's core of (−1, 0, 1)"),
      ("h′(1)", 1 / 3, "1/3", lambda: _dh(1.0, 1 / 3), FD,
       "finite differences of the core's third coordinate"),
      ("h′(0)", R3, "√3", lambda: _dh(0.0, 1 / 3), FD,
       "finite differences of the core's third coordinate"),
      ("h(10⁶)", R32, "→ √(3/2)", lambda: rt.h_by_core(1e6, 1 / 3), 1e-9,
       "third coordinate of the engine's core of (−10⁶, 0, 10⁶)",
       ("note", r"The dashed lines mark $\pm \sqrt{3/2}$", r"\sqrt{3/2}")))),
    ("C4", "epsilon", "Scaling the input is the same as dividing ε by a²", ("note",),
     r"""$u_\varepsilon(az)=av/\sqrt{a^2q+\varepsilon}=u_{\varepsilon/a^2}(z)$. For z = (1, 2, 3),
     ε = 1/3 and a = 10 the core becomes (−10, 0, 10)/√67 instead of (−1, 0, 1); at ε = 0
     nothing changes.""",
     (("Open with a = 10", {"z": "1,2,3", "eps": "1/3", "a": "10"}),
      ("Scaling at ε = 0 (Invariances)", {"z": "1,2,3", "eps": "0", "a": "10"}, "invariance")),
     (("u_ε(10z)", (-10 / R67, 0, 10 / R67), "(−10, 0, 10)/√67",
       lambda: lnviz.normalized_core([10, 20, 30], 1 / 3), 1e-12,
       "the engine's core of (10, 20, 30)"),
      ("max |u_ε(10z) − u_ε(z)|", 10 / R67 - 1, "10/√67 − 1",
       lambda: lnviz.scaling_identity([1, 2, 3], 1 / 3, 10).change, 1e-12,
       "the engine's cores of 10z and z, subtracted"),
      ("max |u_ε(10z) − u_(ε/100)(z)|", 0.0, "0",
       lambda: lnviz.scaling_identity([1, 2, 3], 1 / 3, 10).identity_error, 1e-12,
       "the engine's core of 10z at ε against that of z at ε/100"),
      ("same change at ε = 0", 0.0, "0",
       lambda: lnviz.scaling_identity([1, 2, 3], 0.0, 10).change, 1e-12,
       "the engine's cores of 10z and z at ε = 0, subtracted"))),
    ("C5", "epsilon", "The Jacobian in closed form", ("note",),
     r"""$Du_\varepsilon(z)=\tfrac{1}{\sqrt{q+\varepsilon}}
     \bigl(P-\tfrac{vv^{\mathsf T}}{d(q+\varepsilon)}\bigr)$.
     For z = (1, 2, 3) and ε = 1/3, q + ε = 1 and v = (−1, 0, 1), so every entry is a whole
     number of thirds. At a constant input it is $P/\sqrt\varepsilon$. The app differentiates
     the core numerically and compares.""",
     (("Open the Jacobian", {"z": "1,2,3", "eps": "1/3"}),),
     (("Du at (1, 2, 3), ε = 1/3", J123,
       "(1/3)·[[1, −1, 0], [−1, 2, −1], [0, −1, 1]]",
       lambda: rt.core_fd_jacobian([1, 2, 3], 1 / 3), FD, "finite differences of the core"),
      ("Du at (2, 2, 2), ε = 0.01", 10 * P3, "P/√ε = 10·P",
       lambda: rt.core_fd_jacobian([2, 2, 2], 0.01), FD, "finite differences of the core"))),
    ("C6", "epsilon", "Three eigen-directions", ("note",),
     r"""The offset $\mathbf 1$ goes to 0, the radial direction v gets
     $\varepsilon/(q+\varepsilon)^{3/2}$ and the directions orthogonal to both get
     $(q+\varepsilon)^{-1/2}$. For (1, 2, 3) at ε = 1/3 that is 0, 1/3 and 1; at a constant
     input with ε = 0.01, $P/\sqrt\varepsilon$ has eigenvalues 0, 10, 10.""",
     (("Open (1, 2, 3) at ε = 1/3", {"z": "1,2,3", "eps": "1/3"}),
      ("Open a constant input", {"z": "2,2,2", "eps": "0.01"})),
     (("eigenvalues at (1, 2, 3)", (0, 1 / 3, 1), "(0, 1/3, 1)",
       lambda: rt.fd_eigenvalues([1, 2, 3], 1 / 3), FD,
       "eigenvalues of the finite-difference Jacobian"),
      ("eigenvalues at (2, 2, 2)", (0, 10, 10), "(0, 1/√ε, 1/√ε)",
       lambda: rt.fd_eigenvalues([2, 2, 2], 0.01), FD,
       "eigenvalues of the finite-difference Jacobian"))),
    ("C7", "epsilon", "The Lipschitz bound ε^(−1/2), reached at a constant input", ("note",),
     r"""$\lVert Du_\varepsilon\rVert_2$ never exceeds $\varepsilon^{-1/2}$. For (1, 2, 3) at
     ε = 1/3 the norm is 1, below the bound √3, which a constant input reaches at the same ε;
     at a constant input with ε = 0.01 it is the bound 10.""",
     (("Open (1, 2, 3) at ε = 1/3", {"z": "1,2,3", "eps": "1/3"}),
      ("Open the constant input", {"z": "2,2,2", "eps": "0.01"})),
     (("‖Du‖₂ at (1, 2, 3)", 1.0, "1", lambda: rt.core_stretch([1, 2, 3], 1 / 3), FD,
       "‖·‖₂ of the finite-difference Jacobian"),
      ("‖Du‖₂ at (2, 2, 2), ε = 1/3", R3, "ε^(−1/2) = √3",
       lambda: rt.core_stretch([2, 2, 2], 1 / 3), FD, "‖·‖₂ of the finite-difference Jacobian"),
      ("‖Du‖₂ at (2, 2, 2), ε = 0.01", 10.0, "ε^(−1/2) = 10",
       lambda: rt.core_stretch([2, 2, 2], 0.01), FD, "‖·‖₂ of the finite-difference Jacobian"))),
    # --- invariance -------------------------------------------------------------------------
    ("C9", "invariance", "A common shift changes nothing, even with ε > 0", ("note",),
     r"""Adding c to every coordinate adds c to the mean and leaves the variance alone. So
     (1, 2, 3) and (101, 102, 103) have the same core at ε = 1/3.""",
     (("Open the shift c = 100", {"z": "1,2,3", "c": "100", "eps": "1/3"}),),
     (("core of (101, 102, 103)", (-1, 0, 1), "(−1, 0, 1)",
       lambda: lnviz.normalized_core([101, 102, 103], 1 / 3), 1e-12, "the engine's core",
       ("note", f"giving $u_{{\\epsilon }}(z)=(-1,0,1{T}$. The vector $(101,102,103{T}$ has "
        "exactly the same normalized core", f"(-1,0,1{T}")),
      ("max |u(z + 100) − u(z)|", 0.0, "0", lambda: float(np.abs(
          lnviz.normalized_core([101, 102, 103], 1 / 3)
          - lnviz.normalized_core([1, 2, 3], 1 / 3)).max()), 1e-12,
       "the engine's two cores, subtracted"))),
    ("C10", "invariance", "An unequal shift gets through", ("note",),
     r"""Moving only the last coordinate, (1, 2, 3) → (1, 2, 4), changes the core at ε = 1/3
     from (−1, 0, 1) to (−4, −1, 5)/√17.""",
     (("Open the shift s = (0, 0, 1)", {"z": "1,2,3", "s": "0,0,1", "eps": "1/3"}),),
     (("core of (1, 2, 4)", (-4 / R17, -1 / R17, 5 / R17), "(−4, −1, 5)/√17",
       lambda: lnviz.normalized_core([1, 2, 4], 1 / 3), 1e-12, "the engine's core",
       ("note", f"$(1,2,4{T}$ instead gives $(-4,-1,5{T}/\\sqrt{{17}}$",
        f"(-4,-1,5{T}/\\sqrt{{17}}")),)),
    ("A4", "invariance", "RMS norm keeps the mean, so a shift gets through", ("glossary",),
     r"""RMS normalization divides by the root of the uncentred mean square. For (1, 2, 3) at
     ε = 1/3 that is √(14/3 + 1/3) = √5. Shifted by 100 it becomes √10405: the output moves.""",
     (("Open the RMS contrast", {"z": "1,2,3", "c": "100", "eps": "1/3"}),),
     (("rms_ε(1, 2, 3)", (1 / R5, 2 / R5, 3 / R5), "(1, 2, 3)/√5",
       lambda: lnviz.rms_norm([1.0, 2.0, 3.0], 3, eps=1 / 3), 1e-12, "the engine's rms_norm"),
      ("rms_ε(101, 102, 103)", tuple(v / math.sqrt(10405) for v in (101, 102, 103)),
       "(101, 102, 103)/√10405",
       lambda: lnviz.rms_norm([101.0, 102.0, 103.0], 3, eps=1 / 3), 1e-12,
       "the engine's rms_norm"))),
    ("C11", "invariance", "Redundant parameters in the layer before", ("note",),
     r"""If $z=Wx+b$, then $b+c\mathbf 1$ and $W+\mathbf 1r^{\mathsf T}$ only add common shifts,
     removed input by input: the normalized output of all five inputs of a random layer
     (random seed 0) does not move (c = 5, r = (1, −2, 0.5)).""",
     (("Open the redundancy section", {"seed": "0", "cb": "5", "r": "1,-2,0.5", "eps": "1/3"}),),
     (("max change, b + c", 0.0, "0", lambda: _redundancy().bias_change, 1e-12,
       "the engine's outputs before and after, subtracted"),
      ("max change, W + 1rᵀ", 0.0, "0", lambda: _redundancy().weight_change, 1e-12,
       "the engine's outputs before and after, subtracted"))),
    # --- reduction axes ---------------------------------------------------------------------
    ("D3", "reduction-axes", "Token-wise statistics ignore the rest of the batch",
     ("glossary",),
     r"""On a (2, 4, 6) tensor token-wise layer norm forms one group per (example, token): 8
     groups of 6 features. Replacing the second example leaves the first one's output
     exactly as it was.""",
     (("Open token-wise layer norm", AXES | {"scheme": "layer"}),),
     (("groups, entries per group", (8, 6), "(B·T, F) = (8, 6)", lambda: _groups("layer"), 0.0,
       "the engine's grouping of the tensor"),
      ("change of example 0", 0.0, "0", _batchmate_effect, 0.0,
       "the engine's outputs with two different second examples, subtracted"))),
    ("A1", "reduction-axes", "Batch norm pools a feature column across examples", ("glossary",),
     r"""In training, batch norm takes one statistic per feature over every example and
     token: 6 groups of 2 · 4 = 8 entries.""",
     (("Open batch norm", AXES | {"scheme": "batch"}),),
     (("groups, entries per group", (6, 8), "(F, B·T) = (6, 8)", lambda: _groups("batch"),
       0.0, "the engine's grouping of the tensor"),)),
    ("A2", "reduction-axes", "Group norm pools a block of features in one example",
     ("glossary",),
     r"""With 2 groups of 3 features each example has 2 statistics over 4 tokens × 3
     features: 4 groups of 12 entries.""",
     (("Open group norm, 2 groups", AXES | {"scheme": "group", "groups": "2"}),),
     (("groups, entries per group", (4, 12), "(B·G, T·F/G) = (4, 12)",
       lambda: _groups("group", 2), 0.0, "the engine's grouping of the tensor"),)),
    ("A3", "reduction-axes", "Same statistics, different parameter shapes", ("glossary",),
     r"""Layer norm over (token, feature) and group norm with one group pool the same 24
     entries per example, so their means agree; yet layer norm keeps 4 × 6 = 24 gains and
     group norm 6.""",
     (("Open layer norm over token and feature", AXES | {"scheme": "layer-all"}),),
     (("largest gap in the means", 0.0, "0", lambda: float(np.abs(
         lnviz.reduce_tensor(_tensor(), "layer_all").mean
         - lnviz.reduce_tensor(_tensor(), "group", num_groups=1).mean).max()), 1e-12,
       "the engine's two reductions, subtracted"),
      ("γ entries (layer over T, F; group)", (24, 6), "(24, 6)", lambda: (
          lnviz.reduce_tensor(_tensor(), "layer_all").gamma.size,
          lnviz.reduce_tensor(_tensor(), "group", num_groups=1).gamma.size), 0.0,
       "the engine's parameter shapes"))),
    # --- weighted centering -----------------------------------------------------------------
    ("W4", "weighted-centering", "The worked example a = (1/4, 3/4), x = (4, 2)", ("note",),
     r"""The weighted mean is aᵀx = 2.5, so Pₐx = (1.5, −0.5), whose ordinary mean is 0.5. The
     Euclidean projection onto the same line is a different point, (3, −1).""",
     (("Open the worked example", WC),),
     (("aᵀx", 2.5, "5/2", lambda: wt.weighted_centering(A, X).c, 1e-12, "the engine's aᵀx",
       ("note", r"give $a^{\mathsf{T}}x=2.5$", "2.5")),
      ("Pₐx", (1.5, -0.5), "(3/2, −1/2)", lambda: wt.weighted_centering(A, X).centered, 1e-12,
       "the engine's Pₐx", ("note", f"$P_{{a}}x=(1.5,-0.5{T}$", f"(1.5,-0.5{T}")),
      ("ordinary mean of Pₐx", 0.5, "1/2", lambda: wt.weighted_centering(A, X).ordinary_mean,
       1e-12, "the mean of the engine's Pₐx",
       ("note", "while the ordinary mean is $0.5$", "0.5")),
      ("Euclidean projection", (3, -1), "(3, −1)", lambda: rt.nullspace_projection(A, X), 1e-12,
       "projection onto an SVD basis of {y : aᵀy = 0}",
       ("note", f"onto the same line instead gives $(3,-1{T}$", f"(3,-1{T}")))),
    ("W1", "weighted-centering", "Zero weighted mean, not zero plain sum", ("note",),
     r"""$P_a=I-\mathbf 1a^{\mathsf T}$ subtracts aᵀx from every coordinate, so aᵀPₐx = 0 for
     every x; the plain sum of Pₐx need not vanish.""",
     (("Open the worked example", WC),),
     (("Pₐ for a = (1/4, 3/4)", ((0.75, -0.75), (-0.25, 0.25)), "[[3/4, −3/4], [−1/4, 1/4]]",
       lambda: rt.lstsq_centering_matrix(A), 1e-12,
       "residuals of a weighted least-squares fit of a constant to e₁ and e₂"),
      ("aᵀPₐx", 0.0, "0", lambda: wt.weighted_centering(A, X).weighted_mean, 1e-12,
       "aᵀ times the engine's Pₐx", ("note", "The weighted mean is zero", "zero")))),
    ("W2", "weighted-centering", "A projection whose kernel is the constants", ("note",),
     r"""$P_a^2=P_a$ and $P_a\mathbf 1=0$ (the kernel is spanned by $\mathbf 1$),
     with rank n − 1: for n = 2 the rank is 1.""",
     (("Open the matrix checks", WC),),
     (("max |Pₐ² − Pₐ|", 0.0, "0", lambda: wt.projection_checks(A).idempotent_error, 1e-12,
       "the engine's Pₐ squared, minus Pₐ"),
      ("Pₐ applied to (1, 1)", (0, 0), "(0, 0)", lambda: wt.projection_checks(A).ones_image,
       1e-12, "the engine's Pₐ times (1, 1)"),
      ("rank", 1, "n − 1 = 1", lambda: wt.projection_checks(A).rank, 0.0,
       "numpy.linalg.matrix_rank"))),
    ("W3", "weighted-centering", "Not symmetric: an oblique projection", ("note",),
     r"""For unequal weights Pₐ ≠ Pₐᵀ: here they differ by 1/2. The step (2.5, 2.5) meets Pₐx at
     arccos(1/√5) ≈ 63.43° in the ordinary geometry, not at a right angle.""",
     (("Open the worked example", WC),),
     (("max |Pₐ − Pₐᵀ|", 0.5, "1/2", lambda: wt.projection_checks(A).asymmetry, 1e-12,
       "the engine's Pₐ minus its transpose"),
      ("Euclidean angle (degrees)", math.degrees(math.acos(1 / R5)), "arccos(1/√5)",
       lambda: wt.weighted_centering(A, X).angle_euclidean, 1e-9,
       "the angle between the engine's two vectors"))),
    ("W5", "weighted-centering", "Orthogonal in the D-geometry; a weighted least-squares fit",
     ("note",),
     r"""With D = diag(a), DPₐ = PₐᵀD = D − aaᵀ, so the step is D-orthogonal to Pₐx (90°).
     Fitting one constant c to x with weights a gives c = aᵀx = 2.5 and residual sum 3/4.""",
     (("Open the worked example", WC),),
     (("D Pₐ", ((3 / 16, -3 / 16), (-3 / 16, 3 / 16)), "D − aaᵀ = (3/16)·[[1, −1], [−1, 1]]",
       lambda: wt.projection_checks(A).d_p, 1e-15, "the matrix product of D and the engine's Pₐ"),
      ("D-angle (degrees)", 90.0, "90", lambda: wt.weighted_centering(A, X).angle_d, 1e-9,
       "the angle between the engine's two vectors, measured with D"),
      ("fitted constant ĉ (solver)", 2.5, "aᵀx = 5/2",
       lambda: wt.constant_fit(wt.weighted_centering(A, X)).c, 1e-12,
       "numpy.linalg.lstsq on the weighted problem"),
      ("Σ aᵢ(xᵢ − c)² at the minimum", 0.75, "3/4",
       lambda: wt.constant_fit(wt.weighted_centering(A, X)).minimum, 1e-12,
       "the weighted sum of squares at the solver's c"))),
    ("W6", "weighted-centering", "Zero weights and equal weights", ("note",),
     r"""A zero weight keeps the algebra (here a = (0, 1): DPₐ = D − aaᵀ still holds) but gives
     e₁ a D-length of 0. Equal weights 1/n give back the usual centering matrix
     $I-\mathbf 1\mathbf 1^{\mathsf T}/n$.""",
     (("Open a zero weight", {"w": "0"}),
      ("Open equal weights, n = 3", {"a3": "1,1,1", "m": "3"})),
     (("max |DPₐ − (D − aaᵀ)|, a = (0, 1)", 0.0, "0",
       lambda: wt.projection_checks([0, 1]).d_identity_error, 1e-12,
       "the product DPₐ against D − aaᵀ, subtracted"),
      ("⟨e₁, e₁⟩_D, a = (0, 1)", 0.0, "0", lambda: wt.d_inner([0, 1], [1, 0], [1, 0]), 0.0,
       "the engine's D-inner product"),
      ("Pₐ for a = (1, 1, 1)/3", P3, "I − 11ᵀ/3", lambda: rt.lstsq_centering_matrix([1, 1, 1]),
       1e-12, "residuals of a least-squares fit of a constant to e₁, e₂, e₃"))),
)
# fmt: on
