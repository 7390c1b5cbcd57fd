"""``gpsimd.nki.typing``: NKI's ``nki.typing`` annotations — ``tensor``,
``mutable_tensor``, ``scalar`` — for kernels that annotate their arguments and tiles
(``def k(a: nt.tensor)``, ``x: tensor[128, 512] = nl.load(a)``). They check nothing
here, as in NKI's simulation.

>>> from gpsimd.nki.typing import tensor
>>> tensor[128, 512]
gpsimd.nki.typing.tensor[128, 512]
"""

from __future__ import annotations

from typing import Any

__all__ = ["tensor", "mutable_tensor", "scalar"]


class _Shaped:
    """An annotation, optionally with a shape: ``T[128, 512]``."""

    def __init__(self, name: str, shape: tuple[Any, ...] | None = None) -> None:
        self.name = name
        self.shape = shape

    def __getitem__(self, shape: Any) -> "_Shaped":
        return _Shaped(self.name, shape if isinstance(shape, tuple) else (shape,))

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError(f"nki.typing.{self.name} is an annotation, not a constructor: "
                        "allocate with nl.ndarray")

    def __repr__(self) -> str:
        dims = "" if self.shape is None else "[" + ", ".join(map(str, self.shape)) + "]"
        return f"gpsimd.nki.typing.{self.name}{dims}"


tensor = _Shaped("tensor")
mutable_tensor = _Shaped("mutable_tensor")
scalar = _Shaped("scalar")
