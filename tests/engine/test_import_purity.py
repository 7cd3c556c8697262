"""The engine imports NumPy only: never Streamlit or Plotly."""

import subprocess
import sys


def test_import_lnviz_pulls_in_neither_streamlit_nor_plotly() -> None:
    code = (
        "import sys, lnviz; "
        "bad = [m for m in ('streamlit', 'plotly', 'pandas', 'torch') if m in sys.modules]; "
        "print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_public_api_is_complete() -> None:
    import lnviz

    for name in (
        "layer_norm",
        "rms_norm",
        "group_norm",
        "instance_norm",
        "batch_norm",
        "normalized_core",
        "h",
        "dh",
        "jacobian",
        "weighted_centering_matrix",
        "LnvizError",
    ):
        assert name in lnviz.__all__
        assert callable(getattr(lnviz, name))
    assert issubclass(lnviz.LnvizError, ValueError)
