"""``gpsimd.nki``: NKI kernels on gpsimd's bit-exact instructions.

Write a kernel as NKI code — ``import gpsimd.nki as nki``, ``import gpsimd.nki.isa as
nisa``, ``import gpsimd.nki.language as nl`` — and every ``nisa`` call builds the real
instruction words (SPEC §4), validates them, runs them on one machine and appends them
to one program (:class:`Program`), which prints as assembly, replays with ``gpsimd
run`` and explains itself. :mod:`gpsimd.nki.isa` follows the public ``nki.isa`` of NKI
0.3.0 (Neuron SDK 2.29.0) name for name, and :mod:`gpsimd.nki.legacy_isa` the
value-returning calls of ``neuronxcc.nki.isa``; :func:`install_aliases` makes NKI's own
import names resolve to them. docs/python.md has the worked example.

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

import sys
import types

from ..errors import NkiValidationError
from ._index import HbmTensor
from ._kernel import (Kernel, NkiInstruction, Program, Tile, baremetal, current, jit, simulate,
                      simulate_kernel)

__all__ = ["Program", "Tile", "NkiInstruction", "HbmTensor", "jit", "Kernel", "simulate",
           "simulate_kernel", "baremetal", "current",
           "NkiValidationError", "install_aliases", "isa", "language", "legacy_isa", "typing"]

from . import isa, language, legacy_isa, typing  # noqa: E402 - after the names they import

# ``nki.isa.constants``: the enums of nki.isa, as NKI's library kernels import them.
constants = types.ModuleType("gpsimd.nki.isa.constants",
                             "NKI's nki.isa.constants: the enums of gpsimd.nki.isa.")
for _name in ("engine", "reduce_cmd", "dge_mode", "oob_mode", "matmul_perf_mode",
              "nc_version", "dma_engine"):
    setattr(constants, _name, getattr(isa, _name))
isa.constants = constants  # type: ignore[attr-defined]
del _name


def _module(name: str, doc: str, attrs: dict) -> types.ModuleType:
    m = types.ModuleType(name, doc)
    m.__dict__.update({k: v for k, v in attrs.items() if not k.startswith("__")})
    return m


def install_aliases(*, neuronxcc: bool = True, nki: bool = True) -> None:
    """Make NKI's own import names resolve to gpsimd.nki, so that existing NKI code runs
    unchanged: registers in ``sys.modules``

    - ``nki``, ``nki.isa``, ``nki.language``, ``nki.typing``, ``nki.isa.constants``
      (NKI 0.3.0 and newer): ``gpsimd.nki``, :mod:`gpsimd.nki.isa` (destination first),
      :mod:`gpsimd.nki.language`, :mod:`gpsimd.nki.typing`, the enums;
    - ``neuronxcc``, ``neuronxcc.nki``, ``neuronxcc.nki.isa``, ``neuronxcc.nki.language``,
      ``neuronxcc.nki.typing``, ``neuronxcc.nki.isa.constants`` (the legacy style of
      AWS's NKI unit tests): the same,
      except that ``neuronxcc.nki.isa`` is :mod:`gpsimd.nki.legacy_isa` (value-returning
      calls).

    It refuses (RuntimeError) to shadow a real ``neuronxcc`` or ``nki`` already
    imported. Run a file of NKI code with the aliases in place by ``python -m gpsimd.nki
    run FILE`` (a script) or ``python -m gpsimd.nki test FILE...`` (pytest).

    >>> import gpsimd.nki
    >>> gpsimd.nki.install_aliases()
    >>> import neuronxcc.nki.isa as nisa, nki.language as nl
    >>> nisa is gpsimd.nki.legacy_isa, nl is gpsimd.nki.language
    (True, True)
    >>> from nki.isa.constants import oob_mode
    >>> oob_mode is gpsimd.nki.isa.oob_mode
    True
    """
    me = sys.modules[__name__]
    table: dict[str, types.ModuleType] = {}
    if nki:
        table.update({"nki": me, "nki.isa": isa, "nki.language": language,
                      "nki.typing": typing, "nki.isa.constants": constants})
    if neuronxcc:
        legacy = _module("neuronxcc.nki", "gpsimd.nki as neuronxcc.nki (legacy nki.isa)",
                         vars(me))
        legacy.isa = legacy_isa  # type: ignore[attr-defined]
        top = types.ModuleType("neuronxcc", "gpsimd.nki's stand-in for neuronxcc")
        top.nki = legacy  # type: ignore[attr-defined]
        top.__gpsimd_alias__ = legacy.__gpsimd_alias__ = True  # type: ignore[attr-defined]
        table.update({"neuronxcc": top, "neuronxcc.nki": legacy,
                      "neuronxcc.nki.isa": legacy_isa, "neuronxcc.nki.language": language,
                      "neuronxcc.nki.typing": typing,
                      "neuronxcc.nki.isa.constants": constants})
    for name, module in table.items():
        there = sys.modules.get(name)
        if there is not None and not getattr(there, "__gpsimd_alias__", False) \
                and there is not module:
            raise RuntimeError(f"gpsimd.nki.install_aliases: {name} is already imported "
                               f"({getattr(there, '__file__', there)!r}); not shadowing it")
    sys.modules.update(table)
