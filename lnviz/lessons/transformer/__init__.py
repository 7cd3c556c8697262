"""Layer norm inside a transformer (issue 17): one import for the section's pages."""

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
)
from lnviz.lessons.transformer.sphere import SphereView, plane_basis, sample_tokens, sphere_view
from lnviz.lessons.transformer.stack_parts import stack_weights
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
