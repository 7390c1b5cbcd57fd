"""``gpsimd.nki``: NKI kernels on gpsimd's bit-exact instructions.

Write a kernel as NKI code — ``import gpsimd.nki as nki``, ``import gpsimd.nki.isa as
nisa``, ``import gpsimd.nki.language as nl`` — and every ``nisa`` call builds the real
instruction words (SPEC §4), validates them, runs them on one machine and appends them
to one program (:class:`Program`), which prints as assembly, replays with ``gpsimd
run`` and explains itself. :mod:`gpsimd.nki.isa` follows the public ``nki.isa`` of NKI
0.3.0 (Neuron SDK 2.29.0) name for name; docs/python.md has the worked example.

>>> import numpy as np
>>> import gpsimd.nki as nki
>>> import gpsimd.nki.isa as nisa
>>> import gpsimd.nki.language as nl
>>> @nki.jit
... def top8(logits):
...     x = nl.ndarray(logits.shape, dtype=nl.float32, buffer=nl.sbuf)
...     nisa.dma_copy(dst=x, src=logits)
...     v = nl.ndarray((logits.shape[0], 8), dtype=nl.float32, buffer=nl.sbuf)
...     nisa.max8(dst=v, src=x)
...     out = nl.ndarray(v.shape, dtype=nl.float32, buffer=nl.shared_hbm)
...     nisa.dma_copy(dst=out, src=v)
...     return out
>>> top8(np.arange(32, dtype=np.float32).reshape(2, 16))
array([[15., 14., 13., 12., 11., 10.,  9.,  8.],
       [31., 30., 29., 28., 27., 26., 25., 24.]], dtype=float32)
>>> import gpsimd
>>> [gpsimd.decode(w)["instruction"] for w in top8.program.words]
['Max8']
"""

from ..errors import NkiValidationError
from ._kernel import Program, Tile, current, jit

__all__ = ["Program", "Tile", "jit", "current", "NkiValidationError", "isa", "language"]

from . import isa, language  # noqa: E402 - after the names they import
