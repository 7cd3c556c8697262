"""What the benchmark scripts print and save: a Markdown table of their results on stdout,
and the raw results as JSON when the script's --json option names a file."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path


def print_table(title: str, header: Sequence[str], rows: Iterable[Sequence[object]]) -> None:
    """Print `# title`, then a Markdown table: the header, its rule, one line per row."""
    print(f"# {title}")
    for cells in (header, ["---"] * len(header), *rows):
        print("| " + " | ".join(str(c) for c in cells) + " |")


def save_json(path: Path | None, results: object, indent: int = 1) -> None:
    """Write `results` as JSON to `path`, when the script was given one (--json)."""
    if path:
        path.write_text(json.dumps(results, indent=indent))
