"""Every lesson's declarative state spec (lnviz/lessons/<page>/state.py): its defaults and
presets are values of its keys, and each key is one the registry's page can be linked by."""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

import pytest

from lnviz.content import registry
from lnviz.lessons.spec import Eps, Options, State, Vector, Whole

LESSONS = Path(__file__).resolve().parents[2] / "lnviz" / "lessons"


def state_modules() -> list[ModuleType]:
    return [
        importlib.import_module(f"lnviz.lessons.{path.parent.name}.state")
        for path in sorted(LESSONS.glob("*/state.py"))
    ]


def test_each_state_belongs_to_a_registered_page() -> None:
    folders = {m.__name__.split(".")[2] for m in state_modules()}
    assert folders, "no lesson has a state spec"
    assert folders <= {p.url_path.replace("-", "_") for p in registry.PAGES}


@pytest.mark.parametrize("module", state_modules(), ids=lambda m: m.__name__.split(".")[2])
def test_defaults_and_presets_are_values_of_their_keys(module: ModuleType) -> None:
    state = module.STATE
    assert state.problems({k.name: k.default for k in state.keys}) == []
    for name, preset in getattr(module, "PRESETS", {}).items():
        assert state.problems(preset) == [], name


def test_the_check_finds_what_is_wrong_with_a_preset() -> None:
    state = State(
        Vector("z", "z", "1, 2", lo=-1, hi=1, min_len=2),
        Eps(default=0.0, allow_zero=True),
        Whole("n", "n", 2, lo=1, hi=4),
        Options("m", "m", "a", options=("a", "b")),
    )
    found = state.problems({"z": "1, 5", "eps": 0.5, "n": 9, "m": "c", "x": 1})
    assert [f.split(":")[0] for f in found] == ["z", "eps", "n", "m", "x"]
    with pytest.raises(ValueError):
        State(Whole("n", "n", 1), Whole("n", "again", 1))
