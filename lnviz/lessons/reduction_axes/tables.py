"""Reduction-axes tables as frozen columns of numbers; RMS norm's have no mean column."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields

import numpy as np

from lnviz.axes import SCHEME_INFO, Reduction

Column = tuple[object, ...]


def second_name(red: Reduction) -> str:
    """The name of a scheme's second statistic: 'variance', or 'mean square' for RMS norm."""
    return "variance" if red.centered else "mean square"


def parameters_text(red: Reduction) -> str:
    """The learned parameters and their shape: 'γ, β: (6,)', or 'γ: (6,), no β' for RMS norm."""
    shape = str(red.param_shape)
    return f"γ, β: {shape}" if red.centered else f"γ: {shape}, no β"


def _columns(table: object, **labels: str) -> dict[str, Column]:
    """A table's columns in field order, named by `labels`; None columns, second_name omitted."""
    out: dict[str, Column] = {}
    for field in fields(table):  # type: ignore[arg-type]
        value = getattr(table, field.name)
        if field.name != "second_name" and value is not None:
            out[labels.get(field.name, field.name.replace("_", " "))] = value
    return out


@dataclass(frozen=True)
class GroupTable:
    """One row per statistic group: its number, first entry, size and statistics."""

    group: tuple[int, ...]
    first_entry: tuple[str, ...]  # "(b, t, f)" of the group's first entry in C order
    entries: tuple[int, ...]
    mean: tuple[float, ...] | None  # None for RMS norm, which subtracts no mean
    second: tuple[float, ...]  # variance, or mean square for RMS norm
    second_name: str

    def columns(self) -> dict[str, Column]:
        return _columns(self, first_entry="first entry (b, t, f)", second=self.second_name)


def group_table(red: Reduction) -> GroupTable:
    """Each statistic group of a reduction: where it starts, how many entries, its statistics."""
    counts = np.bincount(red.labels.ravel(), minlength=red.group_count)  # (G,)
    return GroupTable(
        group=tuple(range(red.group_count)),
        first_entry=tuple(f"({b}, {t}, {f})" for b, t, f in red.anchors.tolist()),
        entries=tuple(int(n) for n in counts),
        mean=tuple(float(m) for m in red.mean) if red.centered else None,
        second=tuple(float(s) for s in red.second),
        second_name=second_name(red),
    )


@dataclass(frozen=True)
class EntryTable:
    """One row per entry of the tensor: indices, group, input, statistics, core and output."""

    batch: tuple[int, ...]
    token: tuple[int, ...]
    feature: tuple[int, ...]
    group: tuple[int, ...]
    x: tuple[float, ...]
    group_mean: tuple[float, ...] | None  # None for RMS norm
    group_second: tuple[float, ...]  # the group's variance, or mean square for RMS norm
    core: tuple[float, ...]
    output: tuple[float, ...]
    second_name: str

    def columns(self) -> dict[str, Column]:
        return _columns(self, group_second=f"group {self.second_name}")


def _floats(a: np.ndarray) -> tuple[float, ...]:
    return tuple(float(v) for v in np.asarray(a, dtype=np.float64).ravel())


def entry_table(red: Reduction) -> EntryTable:
    """Every entry of the tensor in C order (batch, then token, then feature)."""
    b, t, f = np.indices(red.x.shape)  # (B, T, F) each
    labels = red.labels.ravel()  # (B*T*F,)
    return EntryTable(
        batch=tuple(int(v) for v in b.ravel()),
        token=tuple(int(v) for v in t.ravel()),
        feature=tuple(int(v) for v in f.ravel()),
        group=tuple(int(v) for v in labels),
        x=_floats(red.x),
        group_mean=_floats(red.mean[labels]) if red.centered else None,
        group_second=_floats(red.second[labels]),
        core=_floats(red.core),
        output=_floats(red.output),
        second_name=second_name(red),
    )


@dataclass(frozen=True)
class SchemeTable:
    """One row per scheme on the same tensor: what it pools, how many groups, its parameters."""

    scheme: tuple[str, ...]  # display names
    pooled_over: tuple[str, ...]
    groups: tuple[int, ...]
    entries_per_group: tuple[int, ...]
    parameters: tuple[str, ...]

    def columns(self) -> dict[str, Column]:
        return _columns(self)


def scheme_table(reductions: Mapping[str, Reduction]) -> SchemeTable:
    """The schemes of compare_schemes side by side."""
    reds = list(reductions.values())
    return SchemeTable(
        scheme=tuple(SCHEME_INFO[k][0] for k in reductions),
        pooled_over=tuple(" + ".join(r.reduce_axes) for r in reds),
        groups=tuple(r.group_count for r in reds),
        entries_per_group=tuple(r.group_size for r in reds),
        parameters=tuple(parameters_text(r) for r in reds),
    )


def csv_text(columns: Mapping[str, Sequence[object]]) -> str:
    """Columns as CSV text, floats written exactly (repr), so a reader gets the same numbers."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(list(columns))
    writer.writerows(zip(*columns.values(), strict=True))
    return out.getvalue()
