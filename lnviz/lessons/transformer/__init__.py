"""Layer norm inside a transformer (issue 17): one import for the section's pages.

Each lesson lives in its own module; this one gathers their public names.

* lnviz.lessons.transformer.residual_stack: Pre-LN, Post-LN and a depth-scaled Pre-LN stack of MLP
  blocks at initialization, forward and hand-written backward pass (Xiong et al. 2020);
* lnviz.lessons.transformer.depth_sweep: the first and last block's gradient against depth;
* lnviz.lessons.transformer.sphere: centring onto 1^perp, the sphere of radius sqrt(d), eps pulling
  small tokens inside, the gain's ellipsoid;
* lnviz.lessons.transformer.qk_attention: logits, softmax weights and entropy with and without
  QK-norm, and which keys a query can select (Brody, Alon & Yahav 2023);
* lnviz.lessons.transformer.tanh_fit: layer norm's per-element S-curve against
  gamma tanh(alpha x) + beta (Dynamic Tanh, Zhu et al. 2025);
* lnviz.lessons.transformer.ln_backward: the input gradient of layer norm, re-centred, and
  orthogonal to the normalized output exactly when eps = 0.

>>> from lnviz.lessons.transformer import PLACEMENTS, compare_placements
>>> PLACEMENTS
('pre', 'post', 'scaled')
"""

from __future__ import annotations

from lnviz.lessons.transformer.depth_sweep import DepthSweep, depth_sweep
from lnviz.lessons.transformer.ln_backward import LayerNormBackward, layer_norm_backward
from lnviz.lessons.transformer.qk_attention import (
    QK_NORMS,
    AttentionScan,
    Selectability,
    attention_scan,
    hidden_key_example,
    selectable_keys,
)
from lnviz.lessons.transformer.residual_stack import (
    ACTIVATIONS,
    PLACEMENTS,
    PRECISIONS,
    PlacementComparison,
    StackRun,
    compare_placements,
    residual_stack,
    stack_inputs,
    stack_weights,
)
from lnviz.lessons.transformer.sphere import SphereView, plane_basis, sample_tokens, sphere_view
from lnviz.lessons.transformer.tanh_fit import TanhFit, sample_activations, tanh_fit

__all__ = [
    "ACTIVATIONS",
    "PLACEMENTS",
    "PRECISIONS",
    "QK_NORMS",
    "AttentionScan",
    "DepthSweep",
    "LayerNormBackward",
    "PlacementComparison",
    "Selectability",
    "SphereView",
    "StackRun",
    "TanhFit",
    "attention_scan",
    "compare_placements",
    "depth_sweep",
    "hidden_key_example",
    "layer_norm_backward",
    "plane_basis",
    "residual_stack",
    "sample_activations",
    "sample_tokens",
    "selectable_keys",
    "sphere_view",
    "stack_inputs",
    "stack_weights",
    "tanh_fit",
]
