"""The NumPy-only engine; lessons, content, figures, app and pages import it, never the reverse."""

from lnviz.axes import (
    SCHEME_INFO,
    SCHEMES,
    Reduction,
    compare_schemes,
    reduce_tensor,
    sample_tensor,
)
from lnviz.channels import batch_norm, group_norm, instance_norm
from lnviz.core import (
    AffineStages,
    Core,
    Scaling,
    Stage,
    affine_stages,
    analyze_core,
    core_variance_ratio,
    normalized_core,
    scaling_identity,
)
from lnviz.errors import LnvizError
from lnviz.family import ASYMPTOTE, Family, dh, epsilon_family, h
from lnviz.functional import default_rms_eps, layer_norm, rms_norm
from lnviz.invariance import Redundancy, Shift, affine_redundancy, compare_shift
from lnviz.jacobian import EigenDirection, Spectrum, centering_matrix, jacobian, jacobian_spectrum
from lnviz.weighted import (
    WeightedCentering,
    normalize_weights,
    weighted_centering,
    weighted_centering_matrix,
)

__all__ = [
    "ASYMPTOTE",
    "SCHEMES",
    "SCHEME_INFO",
    "AffineStages",
    "Core",
    "EigenDirection",
    "Family",
    "LnvizError",
    "Reduction",
    "Redundancy",
    "Scaling",
    "Shift",
    "Spectrum",
    "Stage",
    "WeightedCentering",
    "affine_redundancy",
    "affine_stages",
    "analyze_core",
    "batch_norm",
    "centering_matrix",
    "compare_schemes",
    "compare_shift",
    "core_variance_ratio",
    "default_rms_eps",
    "dh",
    "epsilon_family",
    "group_norm",
    "h",
    "instance_norm",
    "jacobian",
    "jacobian_spectrum",
    "layer_norm",
    "normalize_weights",
    "normalized_core",
    "reduce_tensor",
    "rms_norm",
    "sample_tensor",
    "scaling_identity",
    "weighted_centering",
    "weighted_centering_matrix",
]
