"""The poll loads neither Streamlit nor Plotly, and `import lnviz` does not load the poll."""

from __future__ import annotations

import subprocess
import sys


def loaded_after(statement: str) -> set[str]:
    code = (
        f"import sys; {statement}; "
        "print(' '.join(m for m in ('streamlit', 'plotly', 'pandas', 'redis', "
        "'lnviz.classpoll') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(out.stdout.split())


def test_import_lnviz_leaves_the_poll_and_redis_out() -> None:
    assert loaded_after("import lnviz") == set()


def test_the_poll_loads_no_streamlit_plotly_or_pandas() -> None:
    assert loaded_after("import lnviz.classpoll.rooms") == {"lnviz.classpoll"}
    assert "redis" in loaded_after(
        "from lnviz.classpoll.store import open_store; open_store({'LNVIZ_REDIS_URL': 'redis://x'})"
    )
