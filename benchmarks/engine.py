"""Engine benchmark: lnviz.layer_norm / rms_norm against torch.nn.functional, one thread each.

    python benchmarks/engine.py            # print the table
    python benchmarks/engine.py --check    # also exit 1 if a target is missed

For every (op, shape) it reports the best and the median time per call of PyTorch and of
lnviz, measured in one run with the two interleaved (the order alternates every round, each
sample is a batch of calls lasting at least BATCH_SECONDS), the ratio torch time / lnviz
time (> 1: lnviz is faster), and accuracy: the largest absolute difference between the two,
and of each from a float64 two-pass reference, for standard normal input and for
1e4 + standard normal input (float32 keeps about 3 decimals there).

layer_norm is called with weight and bias and eps=1e-5; rms_norm with weight and eps=None
(float32's machine epsilon in both libraries). Inputs are float32 arrays (batch, tokens,
features), normalized over the features.

Targets (--check): ratio of the best times >= 1 on the large shape and >= 0.67 on the small
one; lnviz no further from the float64 reference than PyTorch (up to a factor ACC_FACTOR
plus ACC_ABS, for rounding noise).

Both libraries run on one thread: torch.set_num_threads(1), and the BLAS under NumPy (lnviz
uses gemv and dot) is held to one thread by OPENBLAS_NUM_THREADS=1 (and OMP/MKL), set here
before NumPy is imported. The cpu/wall column is process CPU time over wall time during the
lnviz calls: about 1 is one busy thread; clearly below 1 means other programs competed for
the CPU during the run, and the times are less reliable.
"""

from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_var] = "1"  # one BLAS / OpenMP thread: lnviz is measured single-threaded

import argparse  # noqa: E402
import platform  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import torch  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # lnviz from this checkout
import lnviz  # noqa: E402

torch.set_num_threads(1)

SMALL, LARGE = (8, 64, 256), (64, 512, 1024)  # (batch, tokens, features)
OPS = ("layer_norm", "rms_norm")
TARGET = {SMALL: 0.67, LARGE: 1.0}  # minimum ratio torch time / lnviz time (best of rounds)
ROUNDS = {SMALL: 200, LARGE: 15}  # timed rounds per library
BATCH_SECONDS = 2e-3  # each timed sample is a batch of calls lasting at least this long
ACC_FACTOR, ACC_ABS = 1.5, 1e-5  # accuracy target: lnviz error <= factor * torch error + abs


@dataclass
class Timing:
    best: float  # seconds per call, minimum over rounds
    median: float  # seconds per call, median over rounds
    cpu_per_wall: float  # process CPU time / wall time over all rounds


@dataclass
class Row:
    op: str
    shape: tuple[int, ...]
    torch: Timing
    lnviz: Timing
    diff: float  # max |lnviz - torch|, normal input
    err_lnviz: float  # max |lnviz - float64 reference|, normal input
    err_torch: float  # max |torch - float64 reference|, normal input
    far_lnviz: float  # the same for 1e4 + normal input
    far_torch: float

    @property
    def ratio(self) -> float:
        return self.torch.best / self.lnviz.best

    @property
    def ratio_median(self) -> float:
        return self.torch.median / self.lnviz.median


def time_pair(fa: Callable[[], object], fb: Callable[[], object], rounds: int) -> list[Timing]:
    """Time fa and fb alternately (ab, ba, ab, ...) in batches of calls."""
    fa()
    fb()  # warm-up: caches, lazy initialisation, allocator pools
    t0 = time.perf_counter()
    fa()
    number = max(1, int(BATCH_SECONDS / max(time.perf_counter() - t0, 1e-7)))  # calls/batch
    fns = (fa, fb)
    samples: list[list[float]] = [[], []]
    wall, cpu = [0.0, 0.0], [0.0, 0.0]
    for r in range(rounds):
        for i in (0, 1) if r % 2 == 0 else (1, 0):
            f = fns[i]
            c0, t0 = time.process_time(), time.perf_counter()
            for _ in range(number):
                f()
            dt = time.perf_counter() - t0
            cpu[i] += time.process_time() - c0
            wall[i] += dt
            samples[i].append(dt / number)
    return [
        Timing(min(s), statistics.median(s), c / w)
        for s, c, w in zip(samples, cpu, wall, strict=True)
    ]


def calls(
    op: str, x: np.ndarray, w: np.ndarray, b: np.ndarray
) -> tuple[Callable[[], np.ndarray], Callable[[], np.ndarray]]:
    """The torch call (returning a NumPy view) and the lnviz call for op."""
    n = x.shape[-1]
    tx, tw, tb = (torch.from_numpy(a) for a in (x, w, b))
    if op == "layer_norm":
        return (
            lambda: torch.nn.functional.layer_norm(tx, (n,), tw, tb, 1e-5).numpy(),
            lambda: lnviz.layer_norm(x, (n,), w, b, 1e-5),
        )
    return (
        lambda: torch.nn.functional.rms_norm(tx, (n,), tw).numpy(),
        lambda: lnviz.rms_norm(x, (n,), w),
    )


def reference(op: str, x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """float64 two-pass reference over the last axis, from the same float32 values."""
    x64, w64, b64 = (a.astype(np.float64) for a in (x, w, b))
    if op == "layer_norm":
        d = x64 - x64.mean(axis=-1, keepdims=True)
        return d / np.sqrt((d * d).mean(axis=-1, keepdims=True) + 1e-5) * w64 + b64
    eps = float(np.finfo(np.float32).eps)  # rms_norm(eps=None) on float32
    return x64 / np.sqrt((x64 * x64).mean(axis=-1, keepdims=True) + eps) * w64


def max_abs(a: np.ndarray, b: np.ndarray) -> float:
    return float(np.abs(a.astype(np.float64) - b).max())


def measure(op: str, shape: tuple[int, ...], rounds: int, rng: np.random.Generator) -> Row:
    n = shape[-1]
    x = rng.standard_normal(shape, dtype=np.float32)
    far = (1e4 + rng.standard_normal(shape)).astype(np.float32)
    w = (1 + 0.5 * rng.standard_normal(n)).astype(np.float32)
    b = (0.5 * rng.standard_normal(n)).astype(np.float32)
    f_torch, f_lnviz = calls(op, x, w, b)
    t_torch, t_lnviz = time_pair(f_torch, f_lnviz, rounds)
    y_torch, y_lnviz, ref = f_torch(), f_lnviz(), reference(op, x, w, b)
    g_torch, g_lnviz = calls(op, far, w, b)
    ref_far = reference(op, far, w, b)
    return Row(
        op,
        shape,
        t_torch,
        t_lnviz,
        diff=max_abs(y_lnviz, y_torch.astype(np.float64)),
        err_lnviz=max_abs(y_lnviz, ref),
        err_torch=max_abs(y_torch, ref),
        far_lnviz=max_abs(g_lnviz(), ref_far),
        far_torch=max_abs(g_torch(), ref_far),
    )


def machine() -> list[str]:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    blas = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
    env = " ".join(
        f"{k}={v}" for k, v in sorted(os.environ.items()) if k.startswith(("OPENBLAS_", "OMP_"))
    )
    load = " ".join(f"{v:.1f}" for v in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    return [
        f"machine: {cpu}, {os.cpu_count()} logical CPUs, {platform.system()} {platform.release()}",
        f"python {platform.python_version()}, numpy {np.__version__}, torch {torch.__version__}, "
        f"numpy BLAS {blas.get('name')} {blas.get('version')}",
        f"threads: torch {torch.get_num_threads()}, BLAS 1; env: {env}",
        f"load average (1, 5, 15 min) at start: {load}",
    ]


HEADER = (
    "| op | shape | torch ms best / median | lnviz ms best / median | ratio best (median) "
    "| lnviz cpu/wall | max abs lnviz-torch | lnviz-f64 | torch-f64 "
    "| 1e4+noise lnviz-f64 | 1e4+noise torch-f64 |"
)


def table_row(r: Row) -> str:
    cells = [
        r.op,
        "x".join(map(str, r.shape)),
        f"{r.torch.best * 1e3:.3f} / {r.torch.median * 1e3:.3f}",
        f"{r.lnviz.best * 1e3:.3f} / {r.lnviz.median * 1e3:.3f}",
        f"**{r.ratio:.2f}** ({r.ratio_median:.2f})",
        f"{r.lnviz.cpu_per_wall:.2f}",
        *(f"{v:.1e}" for v in (r.diff, r.err_lnviz, r.err_torch, r.far_lnviz, r.far_torch)),
    ]
    return "| " + " | ".join(cells) + " |"


def failures(r: Row) -> list[str]:
    out = []
    if r.ratio < TARGET[r.shape]:
        out.append(f"{r.op} {r.shape}: speed ratio {r.ratio:.2f} < {TARGET[r.shape]}")
    for label, mine, theirs in (
        ("normal", r.err_lnviz, r.err_torch),
        ("1e4+noise", r.far_lnviz, r.far_torch),
    ):
        if mine > ACC_FACTOR * theirs + ACC_ABS:
            out.append(f"{r.op} {r.shape} {label} input: error {mine:.1e} vs torch {theirs:.1e}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="lnviz engine vs torch.nn.functional")
    parser.add_argument("--check", action="store_true", help="exit 1 if a target is missed")
    parser.add_argument("--rounds", type=int, help="timed rounds per library (default per shape)")
    args = parser.parse_args(argv)

    print("\n".join(machine()), end="\n\n")
    print(HEADER)
    print("|" + "---|" * HEADER.count(" | ") + "---|")
    rng = np.random.default_rng(0)
    missed: list[str] = []
    for shape in (SMALL, LARGE):
        for op in OPS:
            row = measure(op, shape, args.rounds or ROUNDS[shape], rng)
            print(table_row(row), flush=True)
            missed += failures(row)
    print()
    print(
        "ratio = torch time / lnviz time (> 1: lnviz faster); targets: ratio >= "
        + ", ".join(f"{TARGET[s]} on {'x'.join(map(str, s))}" for s in (SMALL, LARGE))
        + f"; lnviz-f64 <= {ACC_FACTOR} * torch-f64 + {ACC_ABS:g}"
    )
    print("targets missed:\n  " + "\n  ".join(missed) if missed else "all targets met")
    return 1 if missed and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
