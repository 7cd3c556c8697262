"""The one exception type of lnviz."""

from __future__ import annotations

__all__ = ["LnvizError"]


class LnvizError(ValueError):
    """A bad argument: the message names the argument, the value and what is accepted.

    >>> from lnviz import layer_norm
    >>> try:
    ...     layer_norm([1.0, 2.0, 3.0], (3,), eps=-1.0)
    ... except LnvizError as err:
    ...     print(err)
    eps = -1.0 is not accepted: eps must be a finite number >= 0.
    """

    def __init__(self, name: str, value: object, accepted: str) -> None:
        self.name = name
        self.value = value
        self.accepted = accepted
        super().__init__(f"{name} = {_short(value)} is not accepted: {accepted}.")


def _short(value: object, limit: int = 60) -> str:
    """A one-line, bounded rendering of a bad value for messages."""
    text = repr(value) if not hasattr(value, "shape") else f"array of shape {tuple(value.shape)}"
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
