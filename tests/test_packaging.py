"""A wheel built from the repository carries every subpackage, and an installed copy works."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_wheel_carries_every_subpackage_and_installs(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(tmp_path), str(ROOT)],
        check=True, capture_output=True, cwd=tmp_path,
    )  # fmt: skip
    (wheel,) = tmp_path.glob("lnviz-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    packages = {p.parent.relative_to(ROOT).as_posix() for p in (ROOT / "lnviz").rglob("*.py")}
    for package in packages:
        assert f"{package}/__init__.py" in names, package
    modules = {  # the modules, and the components' scripts and styles the app reads
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "lnviz").rglob("*")
        if p.suffix in {".py", ".js", ".css"}
    }
    assert modules <= names, sorted(modules - names)
    # installed into a folder of its own, away from the repository: the engine works
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target),
         str(wheel)],
        check=True, capture_output=True,
    )  # fmt: skip
    code = (
        "import lnviz, lnviz.lessons.epsilon.figures as f; "
        f"print(lnviz.__file__.startswith({str(target)!r}), "
        "f.H.alt(lnviz.epsilon_family(1/3), []) != '')"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True,
        cwd=tmp_path, env={"PYTHONPATH": str(target), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert out.stdout.split() == ["True", "True"]
