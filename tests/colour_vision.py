"""Colour-blind simulation and colour difference, for the test that no chart tells traces
apart by colour alone (tests/app/test_colour_alone.py).

- Simulation: Machado, Oliveira and Fernandes (2009), "A physiologically-based model for
  simulation of color vision deficiency", IEEE TVCG 15(6), the matrices of its table for
  severity 1.0 (protanopia, deuteranopia, tritanopia), applied to linear RGB and clipped.
- Difference: CIEDE2000 (Sharma, Wu and Dalal 2005, with their test data below) between
  CIELAB colours (sRGB, D65 white).

>>> round(delta_e2000((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485)), 4)
2.0425
>>> round(delta_e2000((50.0, 2.5, 0.0), (73.0, 25.0, -18.0)), 4)
27.1492
>>> round(delta_e2000((2.0776, 0.0795, -1.135), (0.9033, -0.0636, -0.5514)), 4)
0.9082
"""

from __future__ import annotations

import math

import numpy as np

MACHADO = {  # severity 1.0; rows map linear (R, G, B) to the simulated linear (R, G, B)
    "protanopia": np.array(
        [
            [0.152286, 1.052583, -0.204868],
            [0.114503, 0.786281, 0.099216],
            [-0.003882, -0.048116, 1.051998],
        ]
    ),
    "deuteranopia": np.array(
        [
            [0.367322, 0.860646, -0.227968],
            [0.280085, 0.672501, 0.047413],
            [-0.011820, 0.042940, 0.968881],
        ]
    ),
    "tritanopia": np.array(
        [
            [1.255528, -0.076749, -0.178779],
            [-0.078411, 0.930809, 0.147602],
            [0.004733, 0.691367, 0.303900],
        ]
    ),
}
VISIONS = ("normal", *MACHADO)
_XYZ = np.array(  # linear sRGB to CIE XYZ, D65
    [[0.4124564, 0.3575761, 0.1804375], [0.2126729, 0.7151522, 0.0721750],
     [0.0193339, 0.1191920, 0.9503041]]
)  # fmt: skip
_WHITE = _XYZ.sum(axis=1)  # D65 (0.9505, 1.0, 1.089)


def rgb(colour: str) -> tuple[float, float, float]:
    """A CSS colour as written in the figures ("#RRGGBB", "#RGB", "rgb(...)", "rgba(...)")
    as sRGB in 0..1 (alpha dropped).

    >>> rgb("#F28E2B"), rgb("rgba(0, 0, 255, 0.5)")
    ((0.9490196078431372, 0.5568627450980392, 0.16862745098039217), (0.0, 0.0, 1.0))
    """
    c = colour.strip().lower()
    if c.startswith("#"):
        h = c[1:] if len(c) == 7 else "".join(ch * 2 for ch in c[1:4])
        return tuple(int(h[i : i + 2], 16) / 255 for i in (0, 2, 4))  # type: ignore[return-value]
    if c.startswith("rgb"):
        parts = c[c.index("(") + 1 : c.index(")")].split(",")
        return tuple(float(p) / 255 for p in parts[:3])  # type: ignore[return-value]
    raise ValueError(f"colour {colour!r}: expected #RRGGBB, #RGB, rgb() or rgba()")


def _linear(srgb: np.ndarray) -> np.ndarray:
    return np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)


def lab(colour: str, vision: str = "normal") -> tuple[float, float, float]:
    """CIELAB (D65) of `colour` as seen with `vision` ("normal" or a key of MACHADO)."""
    lin = _linear(np.array(rgb(colour)))
    if vision != "normal":
        lin = np.clip(MACHADO[vision] @ lin, 0.0, 1.0)
    t = (_XYZ @ lin) / _WHITE
    f = np.where(t > (6 / 29) ** 3, np.cbrt(t), t / (3 * (6 / 29) ** 2) + 4 / 29)
    return (float(116 * f[1] - 16), float(500 * (f[0] - f[1])), float(200 * (f[1] - f[2])))


def delta_e2000(lab1: tuple[float, float, float], lab2: tuple[float, float, float]) -> float:
    """CIEDE2000 colour difference (kL = kC = kH = 1)."""
    (l1, a1, b1), (l2, a2, b2) = lab1, lab2
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1p, a2p = a1 * (1 + g), a2 * (1 + g)
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl, dc = l2 - l1, c2p - c1p
    dh = 0.0
    if c1p * c2p:
        dh = h2p - h1p
        dh = dh - 360 if dh > 180 else dh + 360 if dh < -180 else dh
    dhh = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    lm, cm = (l1 + l2) / 2, (c1p + c2p) / 2
    hm = h1p + h2p
    if c1p * c2p:
        hm = (hm + 360) / 2 if abs(h1p - h2p) > 180 else hm / 2
        hm = hm - 180 if hm >= 360 else hm
    t = (
        1 - 0.17 * math.cos(math.radians(hm - 30)) + 0.24 * math.cos(math.radians(2 * hm))
        + 0.32 * math.cos(math.radians(3 * hm + 6)) - 0.20 * math.cos(math.radians(4 * hm - 63))
    )  # fmt: skip
    sl = 1 + 0.015 * (lm - 50) ** 2 / math.sqrt(20 + (lm - 50) ** 2)
    sc, sh = 1 + 0.045 * cm, 1 + 0.015 * cm * t
    rt = (
        -2 * math.sqrt(cm**7 / (cm**7 + 25**7))
        * math.sin(math.radians(60 * math.exp(-(((hm - 275) / 25) ** 2))))
    )  # fmt: skip
    return math.sqrt(
        (dl / sl) ** 2 + (dc / sc) ** 2 + (dhh / sh) ** 2 + rt * (dc / sc) * (dhh / sh)
    )


def least_difference(colour1: str, colour2: str) -> tuple[float, str]:
    """The smallest CIEDE2000 difference of two colours over normal vision and the three
    simulated dichromacies, and the vision it occurs in."""
    return min((delta_e2000(lab(colour1, v), lab(colour2, v)), v) for v in VISIONS)
