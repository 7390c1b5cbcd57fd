"""``gpsimd.nki.legacy_isa``: the value-returning ``nki.isa`` of ``neuronxcc.nki``.

Before NKI 0.3.0, ``neuronxcc.nki.isa`` (Neuron SDK 2.2x, the style of AWS's NKI unit
tests and of the ``neuronxcc`` docs) returned each result as a new tile instead of
writing a destination: ``x = nisa.max8(src=t)``, ``c = nisa.tensor_tensor(a, b,
op=nl.add)``, ``i = nisa.iota(nl.arange(128)[:, None], dtype=nl.int32)``. This module
has those calls for the instructions gpsimd models; each allocates its result in SBUF
(``dtype=``, or the calls' default) and runs :mod:`gpsimd.nki.isa`'s call of the
same name on it, so the words, the validation and the errors are the same.
``gpsimd.nki.install_aliases()`` makes ``import neuronxcc.nki.isa`` this module.

- index expressions: ``iota``'s expression and ``affine_select``'s ``pred=`` are the
  affine value the instruction computes: a variable on grid dimension 0 is the
  partition (``channel_multiplier``), the others the free pattern, in grid order;
- ``mask=`` (a predicate of index variables, ``(i_p < 64) & (i_f < 256)``) narrows
  the operands and the result's view to what it keeps;
- ``memset(shape, value, dtype)``: a new tile of ``value``, written by Memset;
- ``tensor_copy_predicated``, ``select_reduce`` and ``tensor_scalar_cumulative`` already
  wrote a destination (``dst=``) in that style: they pass through.

Calls of instructions gpsimd does not model raise NotImplementedError, as in
:mod:`gpsimd.nki.isa`.

>>> import numpy as np, gpsimd.nki as nki, gpsimd.nki.language as nl
>>> import gpsimd.nki.legacy_isa as nisa
>>> @nki.jit
... def top8(a):
...     out = nl.ndarray((a.shape[0], 8), dtype=a.dtype, buffer=nl.shared_hbm)
...     nl.store(out, nisa.max8(src=nl.load(a)))
...     return out
>>> top8(np.arange(32, dtype=np.float32).reshape(2, 16))
array([[15., 14., 13., 12., 11., 10.,  9.,  8.],
       [31., 30., 29., 28., 27., 26., 25., 24.]], dtype=float32)
"""

from __future__ import annotations

from typing import Any

from . import isa as _isa
from . import language as nl
from ._index import IndexExpr, Predicate
from ._index import narrow as _narrow
from ._kernel import Tile, _error, current
from .isa import (NkiValidationError, dge_mode, dma_engine, engine, gpsimd_engine,  # noqa: F401
                  matmul_perf_mode, nc_version, oob_mode, reduce_cmd, scalar_engine,
                  tensor_engine, unknown_engine, vector_engine, get_nc_version)
from .language import maximum

__all__ = [
    "engine", "reduce_cmd", "dge_mode", "oob_mode", "matmul_perf_mode", "nc_version",
    "dma_engine", "NkiValidationError", "tensor_engine", "vector_engine", "scalar_engine",
    "gpsimd_engine", "unknown_engine", "get_nc_version", "iota", "affine_select",
    "range_select", "max8", "nc_find_index8", "nc_match_replace8", "sequence_bounds",
    "tensor_copy", "tensor_tensor", "tensor_scalar", "dma_copy", "memset", "tensor_reduce",
    "tensor_tensor_scan", "scalar_tensor_tensor", "tensor_copy_predicated", "select_reduce",
    "tensor_scalar_cumulative",
]


def _tile(call: str, arg: str, x: Any) -> Tile:
    return _isa._tile(call, arg, x, current(call))


def _new(call: str, shape: tuple[int, ...], dtype: Any) -> Tile:
    return nl.ndarray(shape, nl._dtype(call, dtype), nl.sbuf)


def _grid(call: str, arg: str, expr: Any) -> tuple[int, int, list[tuple[int, int]], int]:
    """Return (offset, channel_multiplier, free pattern [[step, num], ...], partitions)
    of an affine index expression: at most one variable per grid dimension; dimension 0
    the partition."""
    if not isinstance(expr, IndexExpr):
        raise _error(call, arg, f"expected an index expression of nl.arange / nl.mgrid, got "
                     f"{type(expr).__name__}")
    by_dim: dict[int, tuple[int, int]] = {}
    ndim = 1
    for v, c in expr.terms.items():
        if v.dim is None:
            raise _error(call, arg, "place each nl.arange on the grid: nl.arange(n)[:, None] "
                         "(partitions) or nl.arange(n)[None, :] (free)")
        if v.dim in by_dim:
            raise _error(call, arg, f"two index variables on grid dimension {v.dim}")
        by_dim[v.dim] = (c, v.count)
        ndim = max(ndim, v.ndim or 1)
    cm, partitions = by_dim.get(0, (0, 1))
    pattern = [list(by_dim.get(d, (0, 1))) for d in range(1, ndim)] or [[0, 1]]
    return expr.const, cm, pattern, partitions


def iota(expr, dtype, mask=None, **kwargs):
    """Generate the values of an index expression into a new SBUF tile: Iota (0x7e).

    ``nisa.iota(nl.arange(512)[None, :], dtype=nl.int32)`` is ``[[0, 1, ..., 511]]``;
    ``5 + 2 * nl.arange(128)[:, None]`` one value per partition; ``i_f + i_p`` both. The
    tile's shape is the grid's (each dimension its variable's count, 1 where none).

    >>> import gpsimd.nki as nki, gpsimd.nki.language as nl
    >>> import gpsimd.nki.legacy_isa as nisa
    >>> with nki.Program():
    ...     print(nisa.iota(5 + 2 * nl.arange(3)[:, None] + nl.arange(4)[None, :],
    ...                     dtype=nl.int32).numpy())
    [[ 5  6  7  8]
     [ 7  8  9 10]
     [ 9 10 11 12]]
    """
    call = "nisa.iota"
    offset, cm, pattern, partitions = _grid(call, "expr", expr)
    shape = (partitions,) + tuple(n for _, n in pattern)
    dst = _new(call, shape if len(pattern) > 1 or pattern[0][1] > 1 else (partitions, 1),
               dtype)
    _isa.iota(_narrow(call, dst, mask), [p for p in pattern if p[1] > 1] or [[0, 1]],
              offset, cm)
    return dst


_PRED = {"<": (-1, nl.greater), "<=": (-1, nl.greater_equal), ">": (1, nl.greater),
         ">=": (1, nl.greater_equal), "==": (1, nl.equal), "!=": (1, nl.not_equal)}


def affine_select(pred, on_true_tile, on_false_value, mask=None, dtype=None, **kwargs):
    """``on_true_tile`` where the affine predicate ``pred`` holds, else
    ``on_false_value``, into a new tile: AffineSelect (0x92).

    ``pred`` compares two affine expressions of the index variables (``iy < ix``, ``ix
    - iy >= 0``); gpsimd writes it as AffineSelect's ``value cmp 0`` with the partition
    variable as ``channel_multiplier``, as NKI's compiler does.

    >>> import numpy as np, gpsimd.nki as nki, gpsimd.nki.language as nl
    >>> import gpsimd.nki.legacy_isa as nisa
    >>> with nki.Program():
    ...     ix, iy = nl.mgrid[0:3, 0:3]
    ...     a = nl.full((3, 3), 1.0, dtype=nl.float32)
    ...     print(nisa.affine_select(pred=(iy < ix), on_true_tile=a[ix, iy],
    ...                              on_false_value=0.0).numpy())
    [[0. 0. 0.]
     [1. 0. 0.]
     [1. 1. 0.]]
    """
    call = "nisa.affine_select"
    src = _tile(call, "on_true_tile", on_true_tile)
    if not isinstance(pred, Predicate) or len(pred.parts) != 1:
        raise _error(call, "pred", "expected one comparison of affine index expressions "
                     "(iy < ix)")
    expr, op = pred.parts[0]
    sign, cmp_op = _PRED[op]
    offset, cm, pattern, _ = _grid(call, "pred", expr * sign)
    free = list(src.shape[1:])
    steps = [p[0] for p in pattern] + [0] * (len(free) - len(pattern))
    pattern = [[s, n] for s, n in zip(steps, free)] or [[0, 1]]
    dst = _new(call, src.shape, src.dtype if dtype is None else dtype)
    _isa.affine_select(_narrow(call, dst, mask), pattern, cm, _narrow(call, src, mask),
                       on_false_value, cmp_op=cmp_op, offset=offset)
    return dst


def range_select(on_true_tile, comp_op0, comp_op1, bound0, bound1,
                 reduce_cmd=reduce_cmd.reset_reduce, reduce_res=None, reduce_op=maximum,
                 range_start=0, on_false_value=..., mask=None, dtype=None, **kwargs):
    """:func:`gpsimd.nki.isa.range_select` into a new tile of ``on_true_tile``'s shape
    (``dtype``, or its dtype): RangeSelect (0xbc), with ``reduce_res`` then
    DveReadAccumulator (0x9b)."""
    call = "nisa.range_select"
    src = _tile(call, "on_true_tile", on_true_tile)
    dst = _new(call, src.shape, src.dtype if dtype is None else dtype)
    _isa.range_select(_narrow(call, dst, mask), _narrow(call, src, mask), comp_op0, comp_op1,
                      bound0, bound1, reduce_cmd=reduce_cmd, reduce_res=reduce_res,
                      reduce_op=reduce_op, range_start=range_start,
                      on_false_value=on_false_value)
    return dst


def max8(src, mask=None, dtype=None, **kwargs):
    """The 8 largest values of each partition, descending, as a new ``[P, 8]`` tile
    (``dtype``, or ``src``'s): Max8 (0x6c), see :func:`gpsimd.nki.isa.max8`."""
    call = "nisa.max8"
    s = _tile(call, "src", src)
    dst = _new(call, (s.partitions, 8), s.dtype if dtype is None else dtype)
    _isa.max8(dst, _narrow(call, s, mask))
    return dst


def nc_find_index8(data, vals, mask=None, dtype=nl.uint32, **kwargs):
    """The positions of the 8 ``vals`` in each partition of ``data``, as a new ``[P,
    8]`` tile (``dtype``, uint32 by default): MatchValueLoad (0x6d) + FindIndex8 (0x6e),
    see :func:`gpsimd.nki.isa.nc_find_index8`."""
    call = "nisa.nc_find_index8"
    d = _tile(call, "data", data)
    dst = _new(call, (d.partitions, 8), dtype)
    _isa.nc_find_index8(dst, _narrow(call, d, mask), vals)
    return dst


def nc_match_replace8(data, vals, imm, dst_idx=None, mask=None, dtype=None, **kwargs):
    """``data`` with the first occurrence of each of the 8 ``vals`` replaced by ``imm``,
    as a new tile (``dtype``, or ``data``'s): MatchValueLoad (0x6d) + MatchReplace8
    (0x6f), and with ``dst_idx`` FindIndex8 (0x6e) writing the matched positions there,
    see :func:`gpsimd.nki.isa.nc_match_replace8`."""
    call = "nisa.nc_match_replace8"
    d = _tile(call, "data", data)
    dst = _new(call, d.shape, d.dtype if dtype is None else dtype)
    _isa.nc_match_replace8(_narrow(call, dst, mask), _narrow(call, d, mask), vals, imm,
                           dst_idx=None if dst_idx is None else _narrow(call, dst_idx, None))
    return dst


def sequence_bounds(segment_ids, dtype=None, **kwargs):
    """The start and end of each element's segment, as a new ``[P, 2, n]`` tile
    (``dtype``, or ``segment_ids``'s): GetSequenceBounds (0xbe), see
    :func:`gpsimd.nki.isa.sequence_bounds`."""
    call = "nisa.sequence_bounds"
    ids = _tile(call, "segment_ids", segment_ids)
    dst = _new(call, (ids.partitions, 2, ids._free_count()),
               ids.dtype if dtype is None else dtype)
    _isa.sequence_bounds(dst, ids)
    return dst


def tensor_copy(src, mask=None, dtype=None, engine=engine.unknown, **kwargs):
    """A copy of ``src`` as a new tile (``dtype``, or ``src``'s): Copy (0x46), or Cast
    (0x47) to another dtype, see :func:`gpsimd.nki.isa.tensor_copy`."""
    call = "nisa.tensor_copy"
    s = _tile(call, "src", src)
    dst = _new(call, s.shape, s.dtype if dtype is None else dtype)
    _isa.tensor_copy(_narrow(call, dst, mask), _narrow(call, s, mask), engine=engine)
    return dst


def tensor_tensor(data1, data2, op, dtype=None, mask=None, engine=engine.unknown, **kwargs):
    """``op(data1, data2)`` element-wise, as a new tile of ``data1``'s shape (``dtype``,
    or ``data1``'s): TensorTensorArith (0x41) / TensorTensorBitvec (0x51), see
    :func:`gpsimd.nki.isa.tensor_tensor`."""
    call = "nisa.tensor_tensor"
    a = _tile(call, "data1", data1)
    b = _tile(call, "data2", data2)
    dst = _new(call, a.shape, a.dtype if dtype is None else dtype)
    _isa.tensor_tensor(_narrow(call, dst, mask), _narrow(call, a, mask), _narrow(call, b, mask),
                       op, engine=engine)
    return dst


def tensor_scalar(data, op0, operand0, reverse0=False, op1=None, operand1=None,
                  reverse1=False, dtype=None, mask=None, engine=engine.unknown, **kwargs):
    """``(data op0 operand0) op1 operand1`` as a new tile of ``data``'s shape
    (``dtype``, or ``data``'s): TensorScalarArith/Bitvec (0x43/0x53) or their pointer
    forms, see :func:`gpsimd.nki.isa.tensor_scalar`."""
    call = "nisa.tensor_scalar"
    d = _tile(call, "data", data)
    dst = _new(call, d.shape, d.dtype if dtype is None else dtype)
    ops = [o if not isinstance(o, Tile) else _narrow(call, o, mask)
           for o in (operand0, operand1)]
    _isa.tensor_scalar(_narrow(call, dst, mask), _narrow(call, d, mask), op0, ops[0],
                       reverse0=reverse0, op1=op1, operand1=ops[1], reverse1=reverse1,
                       engine=engine)
    return dst


def dma_copy(dst, src, mask=None, dst_rmw_op=None, oob_mode=oob_mode.error,
             dge_mode=dge_mode.unknown, **kwargs):
    """:func:`gpsimd.nki.isa.dma_copy` (``mask=`` narrows both sides); a read-modify-write
    DMA (``dst_rmw_op``) is not modelled."""
    call = "nisa.dma_copy"
    if dst_rmw_op is not None:
        raise NotImplementedError(f"{call}: dst_rmw_op: a read-modify-write DMA is not "
                                  "modelled")
    _isa.dma_copy(dst=_narrow(call, dst, mask), src=_narrow(call, src, mask),
                  oob_mode=oob_mode, dge_mode=dge_mode)
    return None


def memset(shape, value, dtype, mask=None, engine=engine.unknown, **kwargs):
    """A new SBUF tile of ``shape`` filled with ``value``: Memset (0x49), see
    :func:`gpsimd.nki.isa.memset` (the value converted to ``dtype`` by SPEC §4.18's rule)."""
    call = "nisa.memset"
    current(call)
    dst = _new(call, tuple(shape), dtype)
    _isa.memset(_narrow(call, dst, mask), value, engine=engine)
    return dst


def tensor_reduce(op, data, axis, mask=None, dtype=None, negate=False, keepdims=False,
                  **kwargs):
    """``op`` folded along ``axis`` (the last free dimensions) as a new tile (``dtype``,
    or ``data``'s): TensorReduceArith (0x42) / TensorReduceBitvec (0x52), see
    :func:`gpsimd.nki.isa.tensor_reduce`."""
    call = "nisa.tensor_reduce"
    d = _tile(call, "data", data)
    if mask is not None:
        raise NotImplementedError(f"{call}: mask= is not modelled for a reduction (index the "
                                  "data instead: data[i_p, i_f])")
    dst = _new(call, _isa._reduced_shape(call, axis, d, keepdims),
               d.dtype if dtype is None else dtype)
    _isa.tensor_reduce(dst, op, d, axis=axis, negate=negate, keepdims=keepdims)
    return dst


def tensor_tensor_scan(data0, data1, initial, op0, op1, reverse0=False, reverse1=False,
                       dtype=None, mask=None, **kwargs):
    """The scan ``r = op1(op0(data0, r), data1)`` from ``initial`` as a new tile of
    ``data0``'s shape (``dtype``, or ``data0``'s): TensorTensorScan (0xe5), see
    :func:`gpsimd.nki.isa.tensor_tensor_scan`."""
    call = "nisa.tensor_tensor_scan"
    a = _tile(call, "data0", data0)
    b = _tile(call, "data1", data1)
    dst = _new(call, a.shape, a.dtype if dtype is None else dtype)
    _isa.tensor_tensor_scan(_narrow(call, dst, mask), _narrow(call, a, mask),
                            _narrow(call, b, mask), initial, op0, op1, reverse0=reverse0,
                            reverse1=reverse1)
    return dst


def scalar_tensor_tensor(data, op0, operand0, op1, operand1, reverse0=False, reverse1=False,
                         dtype=None, mask=None, **kwargs):
    """``(data op0 operand0) op1 operand1`` as a new tile of ``data``'s shape (``dtype``,
    or ``data``'s): ScalarTensorTensorArith (0x9d), see
    :func:`gpsimd.nki.isa.scalar_tensor_tensor`."""
    call = "nisa.scalar_tensor_tensor"
    d = _tile(call, "data", data)
    dst = _new(call, d.shape, d.dtype if dtype is None else dtype)
    o1 = _narrow(call, operand1, mask) if isinstance(operand1, Tile) else operand1
    _isa.scalar_tensor_tensor(_narrow(call, dst, mask), _narrow(call, d, mask), op0, operand0,
                              op1, o1, reverse0=reverse0, reverse1=reverse1)
    return dst


def tensor_copy_predicated(src, dst, predicate, mask=None, reverse_pred=False, **kwargs):
    """Destination-first already in the legacy style: see
    :func:`gpsimd.nki.isa.tensor_copy_predicated` (``mask=`` narrows every operand)."""
    call = "nisa.tensor_copy_predicated"
    s = _narrow(call, src, mask) if isinstance(src, Tile) else src
    _isa.tensor_copy_predicated(dst=_narrow(call, dst, mask), src=s,
                                predicate=_narrow(call, predicate, mask),
                                reverse_pred=reverse_pred)
    return None


def select_reduce(dst, predicate, on_true, on_false, reduce_res=None,
                  reduce_cmd=reduce_cmd.idle, reduce_op=maximum, reverse_pred=False, **kwargs):
    """Destination-first already in the legacy style: see
    :func:`gpsimd.nki.isa.select_reduce`."""
    _isa.select_reduce(dst=dst, predicate=predicate, on_true=on_true, on_false=on_false,
                       reduce_res=reduce_res, reduce_cmd=reduce_cmd, reduce_op=reduce_op,
                       reverse_pred=reverse_pred)
    return None


def tensor_scalar_cumulative(dst, src, op0, op1, imm0, imm1=None,
                             reduce_cmd=reduce_cmd.reset_reduce, **kwargs):
    """Destination-first already in the legacy style: see
    :func:`gpsimd.nki.isa.tensor_scalar_cumulative`."""
    _isa.tensor_scalar_cumulative(dst=dst, src=src, op0=op0, op1=op1, imm0=imm0, imm1=imm1,
                                  reduce_cmd=reduce_cmd)
    return None


def __getattr__(name: str) -> Any:
    """The other calls of ``nki.isa``: a function raising NotImplementedError that says
    whether gpsimd models the instruction (then ``gpsimd.nki.isa``'s destination-first
    call runs it) or not."""
    fn = getattr(_isa, name, None)
    if name.startswith("_") or name not in _isa.__all__ or not callable(fn):
        raise AttributeError(f"module 'gpsimd.nki.legacy_isa' has no attribute {name!r}")
    doc = (fn.__doc__ or "").strip()
    if "gpsimd does not model it" in doc:
        why = doc.split("\n")[0].replace("NKI's ``nki.isa.", "").replace("``", "")
        reason = f"{why} ({name} is not modelled)"
    else:
        reason = (f"not modelled yet in the value-returning style; the destination-first "
                  f"gpsimd.nki.isa.{name} runs it")

    def raising(*args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f"nisa.{name}: {reason}")

    raising.__name__ = name
    raising.__doc__ = f"NKI's value-returning nisa.{name}: raises NotImplementedError."
    return raising
