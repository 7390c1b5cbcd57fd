"""NumPy in, NumPy out: NonzeroWithCount, CopyPredicatedScalar and DveReadAccumulator.

Like :mod:`gpsimd.ops`, each function builds the real instruction words, runs them on a
scratch :class:`gpsimd.Machine` and reads the results back; rows are partitions. The
names and argument order are NKI's (``nki.isa.nonzero_with_count``,
``nki.isa.tensor_copy_predicated``); NKI's output tile ``dst`` is the return value,
and where the instruction leaves part of it untouched, the function takes the tile's
prior contents as an argument. ``dtype=`` is the result's dtype (keyword-only, as in
every function).
"""

from __future__ import annotations

import functools
from typing import Union

import numpy as np
from numpy.typing import ArrayLike

from . import _lower as lower
from ._api import ArrayResult, Runner, data_array, dtype_arg, field_int, same_dtype
from ._operands import scalar_bits
from .machine import Machine
from .dtypes import dtype_size, storage_dtype
from .ops import (
    _ALIGN,
    _MAX_NUM,
    _PARTITIONS,
    VALID_DTYPES,
    DtypeLike,
    _as_bits,
    _parts,
    _ptr,
    _tiles_bytes,
)

__all__ = ["nonzero_with_count", "tensor_copy_predicated", "dve_read_accumulator"]

#: SPEC §4.11: only channels c with c % 16 == 0 run (one per GpSimd core).
NONZERO_CHANNEL_STRIDE = 16


def _sbuf3(partition, offset, num):
    return {"space": "sbuf", "partition": partition, "offset": offset, "num": [num, 1, 1],
            "step": [1, 0, 0]}


def _int32_operand(value, rows, what):
    """Return (the int32 bits, as a uint32 scalar or per-row array, per_row) of an INT32
    operand."""
    func, _, arg = what.partition(": ")
    v = np.asarray(field_int(func, arg, value, "int32"))
    bits = (v.astype(np.int64) & 0xFFFFFFFF).astype(np.uint32)
    if bits.ndim == 0:
        return bits[()], False
    bits = bits.reshape(-1)
    if bits.shape != (rows,):
        raise ValueError(f"{what}: expected a scalar or one value per row ({rows}), got {v.shape}")
    return bits, True


# ---- NonzeroWithCount ------------------------------------------------------------------


def _nonzero_regions(t):
    """Return the byte sizes of the regions one NonzeroWithCount on rows of ``t``
    elements takes in each partition, in :meth:`Runner.alloc`'s order: index_offset and
    padding_val (an INT32 each), src (T int32), dst (T + 1 int32)."""
    return 8, 4 * t, 4 * (t + 1)


@functools.lru_cache(maxsize=None)
def _nonzero_max_t(pbytes):
    """Return the longest row one NonzeroWithCount takes on a partition of ``pbytes``:
    the regions of :func:`_nonzero_regions`, laid out as :meth:`Runner.alloc` lays them
    out, fit the partition, and T + 1 is a count of the uint16 num_elem."""
    t = min(_MAX_NUM - 1, pbytes // 8)  # the regions take more than 8 T bytes
    while t > 0 and Runner.place(_nonzero_regions(t))[1] > pbytes:
        t -= 1
    return t


def nonzero_with_count(src: ArrayLike, index_offset: Union[int, ArrayLike] = 0,
                       padding_val: Union[int, ArrayLike] = -1, *, dst: ArrayLike | None = None,
                       generation: str = "v3", strict: bool = False,
                       return_words: bool = False) -> ArrayResult:
    """Return NKI's ``dst`` of ``nonzero_with_count``: per processed row, the positions of
    its nonzero elements plus ``index_offset``, then ``padding_val``, then the count.

    SPEC §4.11 (NonzeroWithCount, 0xf2, V3 and later): row ``r`` of ``src`` (T elements)
    gives row ``r`` of the ``[rows, T + 1]`` int32 result: ``j + index_offset`` for every
    nonzero ``src[r, j]`` in order, ``padding_val`` in the slots after them, and the
    number of nonzero elements in the last column. INT32 is nonzero when any bit is set;
    FP32 when ``x != 0`` (``-0.0`` is zero, NaN is nonzero).

    **Only every 16th row runs**, as on the hardware: rows 0, 16, ..., 112 (one per
    GpSimd core). The other rows of the result keep ``dst``'s values (zeros when ``dst``
    is None), exactly as NKI leaves them unmodified.

    - ``src``: ``[rows, T]`` int32 or float32, rows <= 128 (one instruction covers the
      partitions), or 1-D (one row, which runs).
    - ``index_offset``, ``padding_val``: integers (INT32), or one per row (read through
      pointers).
    - ``dst``: the result tile's prior contents, ``[rows, T + 1]`` int32.

    >>> import numpy as np, gpsimd
    >>> gpsimd.nonzero_with_count(np.array([0, 1, 1, 0, 0, 1, 0, 0], dtype=np.int32),
    ...                           index_offset=16, padding_val=-1)
    array([17, 18, 21, -1, -1, -1, -1, -1,  3], dtype=int32)
    """
    fn = "nonzero_with_count"
    a, kind = data_array(fn, "src", src, ("INT32", "FP32"), dtype_arg=None)
    if a.ndim not in (1, 2):
        raise ValueError(f"nonzero_with_count: src must be 1-D or [rows, T], got shape {a.shape}")
    one_d = a.ndim == 1
    a2 = a.reshape(1, -1) if one_d else a
    rows, t = a2.shape
    if rows == 0 or t == 0:
        raise ValueError(f"nonzero_with_count: src is empty ({a.shape})")
    if rows > _PARTITIONS:
        raise ValueError(
            f"nonzero_with_count: src has {rows} rows; one instruction covers at most "
            f"{_PARTITIONS} partitions (and processes rows 0, 16, ..., 112 of them)")
    off, off_rows = _int32_operand(index_offset, rows, "nonzero_with_count: index_offset")
    pad, pad_rows = _int32_operand(padding_val, rows, "nonzero_with_count: padding_val")
    if dst is None:
        prior = np.zeros((rows, t + 1), dtype=np.int32)
    else:
        prior = np.asarray(dst)
        want = (t + 1,) if one_d else (rows, t + 1)
        if prior.shape != want or prior.dtype.newbyteorder("=") != np.dtype(np.int32):
            raise ValueError(
                f"nonzero_with_count: dst must be an int32 array of shape {want} (src's "
                f"shape with one more column for the count), got {prior.dtype} {prior.shape}")
        prior = prior.reshape(rows, t + 1)

    with Runner(fn, generation, strict, return_words) as run:
        pbytes = run.partition_bytes()
        limit = _nonzero_max_t(pbytes)
        if t > limit:
            raise ValueError(
                f"nonzero_with_count: a row of T = {t} elements does not fit one instruction "
                f"on {run.machine.generation}: src and its T + 1 results share a "
                f"{pbytes}-byte partition, so T <= {limit}; split the row and use "
                "index_offset for the later pieces")
        # Per partition: index_offset at +0, padding_val at +4, then src, then dst.
        imm_off, src_off, dst_off = run.alloc(*_nonzero_regions(t))
        run.load(0, src_off, _as_bits(a2, kind), name="src")
        run.load(0, dst_off, np.ascontiguousarray(prior, dtype="<i4"), name="dst")
        if off_rows:
            run.load(0, imm_off, off.reshape(rows, 1), name="index_offset")
        if pad_rows:
            run.load(0, imm_off + 4, pad.reshape(rows, 1), name="padding_val")
        run.run(lower.nonzero_with_count(
            in_dtype=kind, out_dtype="INT32", channels=rows, src=_sbuf3(0, src_off, t),
            dst=_sbuf3(0, dst_off, t + 1), index_offset=_ptr(imm_off) if off_rows else off,
            padding_val=_ptr(imm_off + 4) if pad_rows else pad))
        out = run.read(0, rows, dst_off, t + 1, "INT32", "dst").astype(np.int32)
        return run.result(out[0] if one_d else out)


# ---- CopyPredicatedScalar --------------------------------------------------------------

_PRED_DTYPES = ("UINT8", "UINT16", "UINT32", "INT8", "INT16", "INT32")


def tensor_copy_predicated(dst: ArrayLike, src: Union[float, ArrayLike], predicate: ArrayLike,
                           reverse_pred: bool = False, *, dtype: DtypeLike = None,
                           in_dtype: DtypeLike = None, generation: str = "v3",
                           strict: bool = False, return_words: bool = False) -> ArrayResult:
    """Return ``dst`` with ``src`` written where ``predicate`` is true.

    NKI's ``tensor_copy_predicated`` with a scalar ``src`` is the CopyPredicatedScalar
    instruction (SPEC §4.12, 0xe8): element ``j`` of row ``r`` becomes ``src`` where
    ``predicate[r, j]`` is nonzero (any bit set), and keeps ``dst[r, j]`` elsewhere;
    ``reverse_pred=True`` writes where the predicate is zero instead. NKI's
    ``reverse_pred=False`` is the instruction's ``reversed_pred = 1``. The scalar's bits
    are written unchanged. ``dst`` itself is not modified: the result is a new array.
    With a tensor ``src`` (``dst``'s shape and dtype) it is CopyPredicated (SPEC §4.22,
    0x72): ``np.where(predicate, src, dst)`` bit for bit, and with ``reverse_pred=True``
    ``np.where(predicate, dst, src)`` (a TensorScalarArith word reverses the predicate
    first, SPEC §4.22).

    - ``dst``: ``[rows, ...]`` or 1-D, of any dtype the instruction moves (float32,
      float16, int8/16/32, uint8/16/32, or BF16/FP8 bit patterns named by ``in_dtype``
      or ``dtype``: the result has ``dst``'s dtype).
    - ``src``: a number (a Python float needs a float dtype, an int an integer one; it is
      converted to the dtype as SPEC §5 says), a NumPy scalar of dst's storage type (taken
      bit for bit), ``[rows, 1]`` values, one per row (read through a pointer), or an
      array of ``dst``'s shape and dtype (CopyPredicated).
    - ``predicate``: the shape of ``dst``; bool, uint8/16/32 or int8/16/32 (a Python list
      of ints is int32, as everywhere).

    >>> import numpy as np, gpsimd
    >>> scores = np.array([[0.5, 2.0, -1.0, 3.0]], dtype=np.float32)
    >>> gpsimd.tensor_copy_predicated(scores, -9984.0, predicate=scores < 0)
    array([[ 5.000e-01,  2.000e+00, -9.984e+03,  3.000e+00]], dtype=float32)
    >>> gpsimd.tensor_copy_predicated(scores, scores * 10, predicate=scores > 1)
    array([[ 0.5, 20. , -1. , 30. ]], dtype=float32)
    """
    fn = "tensor_copy_predicated"
    d, name = data_array(fn, "dst", dst, VALID_DTYPES, same_dtype(fn, dtype, in_dtype))
    if d.ndim == 0 or d.size == 0:
        raise ValueError(f"tensor_copy_predicated: dst must be a non-empty array, got {d.shape}")
    shape = d.shape
    d2 = d.reshape(1, -1) if d.ndim == 1 else d.reshape(d.shape[0], -1)
    rows, cols = d2.shape
    size = dtype_size(name)
    if isinstance(predicate, np.ndarray) and predicate.dtype == np.bool_:
        p, pname = predicate.astype(np.uint8), "UINT8"
    elif (isinstance(predicate, (list, tuple)) and np.asarray(predicate).dtype == np.bool_):
        p, pname = np.asarray(predicate).astype(np.uint8), "UINT8"
    else:
        try:
            p, pname = data_array(fn, "predicate", predicate, _PRED_DTYPES, dtype_arg=None)
        except TypeError:
            raise TypeError(f"tensor_copy_predicated: predicate dtype "
                            f"{np.asarray(predicate).dtype} is not bool, uint8/16/32 or "
                            "int8/16/32 (float predicates are invalid)") from None
    if p.shape != shape:
        raise ValueError(f"tensor_copy_predicated: predicate has shape {p.shape}, dst {shape}: "
                         "they must be equal")
    psize = dtype_size(pname)
    p2 = np.ascontiguousarray(p.reshape(rows, cols)).view(f"<u{psize}")

    s = np.asarray(src)
    per_row = s.ndim == 2 and s.shape == (rows, 1)
    if s.ndim != 0 and not per_row:
        if s.shape != shape:
            raise ValueError(
                f"tensor_copy_predicated: src has shape {s.shape}, dst {shape}: a tensor src "
                f"(CopyPredicated) has dst's shape; a scalar src is a number or [rows, 1] "
                f"values, one per row (here [{rows}, 1])")
        data, dname = data_array(fn, "src", src, VALID_DTYPES, same_dtype(fn, dtype, in_dtype))
        if dname != name:
            raise TypeError(f"tensor_copy_predicated: src is {dname}, dst {name}: CopyPredicated "
                            "copies bits, so they must have the same dtype")
        return _copy_predicated_tensor(d2, name, p2, pname, _as_bits(data.reshape(rows, cols),
                                                                     name), shape, reverse_pred,
                                       generation, strict, return_words)
    s_bits = scalar_bits(fn, "src", src if isinstance(src, float) else
                         s.reshape(-1) if per_row else s[()], name, python_float=False)

    out = np.ascontiguousarray(_as_bits(d2, name)).copy()
    blocks = -(-rows // _PARTITIONS)
    with Runner(fn, generation, strict, return_words) as run:
        pbytes = run.partition_bytes()
        width = min(_MAX_NUM, (pbytes - 3 * _ALIGN) // (psize + size))
        fits = run.layout(blocks * (_ALIGN + _tiles_bytes(cols, width, psize, size)))
        run.result_shape("dst", (rows, cols), out.dtype)
        for r0 in range(0, rows, _PARTITIONS):
            r = min(_PARTITIONS, rows - r0)
            if fits or r0 == 0:
                imm_off = run.block(size)
            if per_row:
                run.load(0, imm_off, s_bits[r0 : r0 + r].reshape(r, 1), name="src")
            for c0 in range(0, cols, width):
                w = min(width, cols - c0)
                if fits or (r0 == 0 and c0 == 0):
                    pred_off, dst_off = run.block(w * psize, w * size)
                run.load(0, pred_off, p2[r0 : r0 + r, c0 : c0 + w], name="predicate")
                run.load(0, dst_off, out[r0 : r0 + r, c0 : c0 + w], name="dst")
                run.run(lower.copy_predicated_scalar(
                    dtype=name, pred_dtype=pname, channels=r, predicate=_sbuf3(0, pred_off, w),
                    dst=_sbuf3(0, dst_off, w), src=_ptr(imm_off) if per_row else s_bits,
                    reverse_pred=reverse_pred))
                out[r0 : r0 + r, c0 : c0 + w] = run.read(0, r, dst_off, w, name, "dst",
                                                         into=("dst", _parts(r0, r, c0, w)))
        return run.result(out.view(storage_dtype(name)).reshape(shape))


def _copy_predicated_tensor(d2, name, p2, pname, s2, shape, reverse_pred, generation, strict,
                            return_words):
    """tensor_copy_predicated with a tensor src: CopyPredicated (0x72) per block of rows
    and columns; with ``reverse_pred`` the predicate goes through a scratch region first
    (SPEC §4.22's two words)."""
    fn = "tensor_copy_predicated"
    rows, cols = d2.shape
    psize, size = dtype_size(pname), dtype_size(name)
    sizes = (psize, size, size) + ((psize,) if reverse_pred else ())
    out = np.ascontiguousarray(_as_bits(d2, name)).copy()
    blocks = -(-rows // _PARTITIONS)
    with Runner(fn, generation, strict, return_words) as run:
        pbytes = run.partition_bytes()
        width = min(_MAX_NUM, (pbytes - 5 * _ALIGN) // sum(sizes))
        fits = run.layout(blocks * _tiles_bytes(cols, width, *sizes))
        run.result_shape("dst", (rows, cols), out.dtype)
        for r0 in range(0, rows, _PARTITIONS):
            r = min(_PARTITIONS, rows - r0)
            for c0 in range(0, cols, width):
                w = min(width, cols - c0)
                if fits or (r0 == 0 and c0 == 0):
                    offs = run.block(*(w * z for z in sizes))
                pred_off, src_off, dst_off = offs[:3]
                run.load(0, pred_off, p2[r0 : r0 + r, c0 : c0 + w], name="predicate")
                run.load(0, src_off, s2[r0 : r0 + r, c0 : c0 + w], name="src")
                run.load(0, dst_off, out[r0 : r0 + r, c0 : c0 + w], name="dst")
                operands = dict(pred_dtype=pname, dtype=name, out_dtype=name, channels=r,
                                predicate=_sbuf3(0, pred_off, w), src=_sbuf3(0, src_off, w),
                                dst=_sbuf3(0, dst_off, w))
                run.run(lower.copy_predicated_reversed(scratch=_sbuf3(0, offs[3], w), **operands)
                        if reverse_pred else [lower.copy_predicated(**operands)])
                out[r0 : r0 + r, c0 : c0 + w] = run.read(0, r, dst_off, w, name, "dst",
                                                         into=("dst", _parts(r0, r, c0, w)))
        return run.result(out.view(storage_dtype(name)).reshape(shape))


# ---- DveReadAccumulator ----------------------------------------------------------------


def dve_read_accumulator(accumulators: Union[Machine, ArrayLike], *, dtype: DtypeLike = "FP32",
                         negated: bool = False, generation: str = "v3", strict: bool = False,
                         return_words: bool = False) -> ArrayResult:
    """Return the DVE accumulators as DveReadAccumulator reads them: each FP32 value,
    optionally negated (the sign bit flipped), converted to ``dtype``.

    SPEC §4.13 (0x9b): channel ``c`` writes the accumulator of its destination partition;
    the conversion is SPEC §5's (round to nearest even, ``-FLT_MAX`` becomes ``-inf`` in
    BF16/FP16/FP8, NaNs become the canonical NaN with their sign).

    - ``accumulators``: a :class:`gpsimd.Machine` (all 128 of its accumulators), or up to
      128 float32 values (e.g. ``range_select``'s ``row_max``; FP32 bit patterns held in
      uint32 need ``.view(numpy.float32)``).
    - ``dtype`` (keyword-only): the result's dtype: FP32, FP32R, BF16, FP16, FP8_E3,
      FP8_E4 or FP8_E5. The result's NumPy type is the dtype's storage (uint16 bit
      patterns for BF16, uint8 for FP8).

    >>> import numpy as np, gpsimd
    >>> gpsimd.dve_read_accumulator(np.array([1.5, -3.4028235e38], dtype=np.float32),
    ...                             dtype="BF16")
    array([16320, 65408], dtype=uint16)
    """
    fn = "dve_read_accumulator"
    if isinstance(accumulators, Machine):
        bits = np.array(accumulators.accumulators, dtype=np.uint32)
    else:
        a, _ = data_array(fn, "accumulators", accumulators, ("FP32",), dtype_arg=None)
        if a.ndim == 0:
            a = a.reshape(1)
        if a.ndim != 1 or not 1 <= a.size <= _PARTITIONS:
            raise ValueError(f"dve_read_accumulator: expected 1 to {_PARTITIONS} accumulator "
                             f"values (one per partition), got shape {a.shape}")
        bits = _as_bits(a, "FP32").view(np.uint32)
    name = dtype_arg(fn, "dtype", dtype)
    size = dtype_size(name) or 4
    n = bits.size
    with Runner(fn, generation, strict, return_words) as run:
        dst_off = run.alloc(size)
        run.set_accumulators(0, bits)
        run.run(lower.read_accumulator(dtype=name, channels=n, negated=negated,
                                       dst={**_ptr(dst_off), "num": [1], "step": [1]},
                                       names={"reduce_res": "dtype"}))
        return run.result(run.read(0, n, dst_off, 1, name, "out").reshape(n))
