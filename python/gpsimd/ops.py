"""NumPy in, NumPy out: the instructions as functions.

Each function builds the real instruction words (by :mod:`gpsimd._lower`, the lowering
:mod:`gpsimd.nki.isa` uses too), runs them on a scratch :class:`gpsimd.Machine` (exactly
what the command-line tool executes) and reads the results back. Rows are partitions: a
2-D input ``[rows, columns]`` puts row ``i`` in a partition; more than 128 rows become
several instructions. Where an instruction's semantics allow it, long rows are split
across instructions too; where they do not (a sort, a sequence), a row that does not
fit one instruction is rejected with a ValueError naming the limit (the instruction's
own clause where it has one). Parameters the instruction validates surface as
:class:`gpsimd.InvalidInstruction` naming its clauses and, for each, the argument its
field comes from; argument mistakes raise TypeError / ValueError naming the function
and the argument.

The dtype rule (:mod:`gpsimd._api`, shared by every function): a NumPy array's dtype
names the gpsimd dtype (``uint16`` is UINT16); BF16 and FP8 travel as ``uint16`` /
``uint8`` bit patterns with the dtype named (see :mod:`gpsimd.formats`); Python lists
are int32 / float32. ``dtype=`` is always the **result's** dtype and ``in_dtype=`` the
**input's**, both keyword-only; a bare integer is never a dtype. Every function also
takes ``strict=`` and ``return_words=`` (then it returns ``(result, words)``: the
:class:`gpsimd.Words` that, run in order on one fresh machine holding the call's
inputs, reproduce the result).

The scratch machines are pooled: a call takes a fresh one and gives it back reset (only
the bytes it wrote are cleared), so a call on a small tile costs microseconds.
"""

from __future__ import annotations

from typing import Any, Sequence, Tuple, Union

import numpy as np
from numpy.typing import ArrayLike

from . import _lower as lower
from ._api import (ArrayResult, PairResult, Runner, data_array, dtype_arg, engine_arg, field_int,
                   in_out, integer, number, same_dtype)
from ._operands import (affine_cmp, alu_op, comparison, data4d, is_bitvec_only, memset_bits,
                        scalar_bits, wrap_int32)
from .dtypes import dtype_size, storage_dtype

__all__ = [
    "range_select",
    "select_reduce",
    "tensor_scalar_select",
    "sequence_bounds",
    "sort",
    "affine_select",
    "iota",
    "causal_mask",
    "tensor_copy",
    "cast",
    "memset",
    "tensor_reduce",
]

#: A dtype argument: a SPEC name ('BF16', 'FP8_E4', ...), NKI's name ('bfloat16'), an NKI
#: dtype object (gpsimd.nki.language.bfloat16) or a NumPy type; never a bare integer.
DtypeLike = Any

#: The dtypes ``is_valid_dtype`` allows (SPEC §3.3), FP32R aside.
VALID_DTYPES = ("FP32", "FP16", "BF16", "FP8_E3", "FP8_E4", "FP8_E5", "INT8", "UINT8", "INT16",
                "UINT16", "INT32", "UINT32")
_RANGE_SELECT_DTYPES = ("FP32", "FP16", "BF16", "FP8_E3", "FP8_E4", "FP8_E5")
_SORT_DTYPES = ("FP32", "FP16", "BF16", "INT16", "UINT16", "INT32", "UINT32")
_SEQUENCE_DTYPES = ("INT32", "FP32")

#: The NumPy face's name of the role NKI calls ``dst`` (gpsimd._lower's names are NKI's):
#: the result, whose dtype is ``dtype=``.
_RESULT = {"dst": "dtype"}

_PARTITIONS = 128
_ALIGN = 64  # operands start on 64-byte boundaries
_MAX_NUM = 65535  # num_elem is a uint16
_MAX_STEP = 32767  # step_elem is an int16

def _ceil(n, a=_ALIGN):
    return -(-n // a) * a


def _tiles_bytes(cols, width, *sizes):
    """Return the bytes of each partition that a row of ``cols`` elements takes when it
    is cut into column tiles of ``width`` (the last one narrower), each tile with one
    64-aligned region per element size in ``sizes``."""
    full, last = divmod(cols, width)
    tile = lambda w: sum(_ceil(w * s) for s in sizes)  # noqa: E731
    return full * tile(width) + (tile(last) if last else 0)


def _rows(a, what):
    """Return (2-D [rows, columns] view of the array a, True when a was 1-D)."""
    if a.ndim == 0:
        raise ValueError(f"{what}: expected an array of at least one dimension, got a scalar")
    if a.size == 0:
        raise ValueError(f"{what}: the array is empty ({a.shape})")
    if a.ndim == 1:
        return a.reshape(1, -1), True
    return a.reshape(a.shape[0], -1), False


def _as_bits(a, name):
    """Return a C-contiguous little-endian array of `name`'s storage type holding a's bits."""
    st = storage_dtype(name)
    if a.dtype.newbyteorder("=") == st.newbyteorder("="):
        return np.ascontiguousarray(a, dtype=st)
    # Bit patterns given as the unsigned integer of the dtype's width.
    u = np.dtype(f"<u{st.itemsize}")
    return np.ascontiguousarray(a, dtype=u).view(st)


def _per_row(value, rows, what):
    """Return a scalar, or an array of one value per row (for a pointer immediate)."""
    try:
        v = np.asarray(value)
    except ValueError:
        v = np.asarray(value, dtype=object)
    if v.dtype.kind not in "biuf":
        raise TypeError(f"{what}: expected a number or one number per row ({rows}), got "
                        f"{value!r}")
    if v.ndim == 0:
        return v[()], False
    v = v.reshape(-1) if v.ndim == 2 and v.shape[1] == 1 else v
    if v.shape != (rows,):
        raise ValueError(f"{what}: expected a scalar or one value per row ({rows}), got shape "
                         f"{v.shape}")
    return v, True


def _sbuf(partition, offset, num, step=None):
    t = {"space": "sbuf", "partition": partition, "offset": offset, "num": list(num)}
    if step is not None:
        t["step"] = list(step)
    return t


def _ptr(offset, partition=0):
    return {"space": "sbuf", "partition": partition, "offset": offset}


def _parts(r0, r, c0=None, w=None):
    return (slice(r0, r0 + r),) if c0 is None else (slice(r0, r0 + r), slice(c0, c0 + w))


#: The NumPy face's names of RangeSelect's roles (gpsimd._lower's are NKI's).
_RANGE_SELECT_NAMES = {"on_true_tile": "tile", "dst": "dtype", "on_true_tile/dst": "tile/dtype",
                       "reduce_cmd": "reduce", "reduce_op": "reduce", "reduce_res": "reduce"}

#: ``(out, row_max)``, or ``((out, row_max), words)`` with ``return_words=True``.
RangeSelectResult = Union[Tuple[np.ndarray, Any], Tuple[Tuple[np.ndarray, Any], np.ndarray]]


# ---- RangeSelect -----------------------------------------------------------------------


def range_select(
    tile: ArrayLike,
    comp_op0: Any,
    comp_op1: Any,
    bound0: Union[float, ArrayLike],
    bound1: Union[float, ArrayLike],
    range_start: float = 0,
    *,
    reduce: Union[bool, ArrayLike] = True,
    dtype: DtypeLike = None,
    in_dtype: DtypeLike = None,
    generation: str = "v3",
    strict: bool = False,
    return_words: bool = False,
) -> RangeSelectResult:
    """Return ``(out, row_max)``: a tile masked to an index range, and each row's maximum.

    For each row ``r`` and column ``j`` (SPEC §4.1): the index ``idx = fp32(range_start +
    j)`` passes when ``comp_op0(idx, bound0[r])`` and ``comp_op1(idx, bound1[r])``; then
    ``out[r, j] = tile[r, j]``, otherwise ``-FLT_MAX`` (which is ``-inf`` once rounded to
    a narrower ``dtype``). ``row_max[r]`` is the maximum of the FP32 results before
    that rounding (NaNs ignored), from the DVE accumulator.

    - ``tile``: ``[rows, ...]`` (trailing dimensions are flattened into the index) or 1-D
      (one row). float32 is FP32, float16 FP16; BF16 and FP8 bit patterns (uint16,
      uint8) need ``in_dtype`` ('BF16', 'FP8_E3', 'FP8_E4' or 'FP8_E5').
    - ``comp_op0``, ``comp_op1``: 'IS_EQ', 'IS_GT', 'IS_GE', 'IS_LE', 'IS_LT', the
      symbols '==', '>', '>=', '<=', '<', numpy.equal, numpy.greater, ..., or NKI's
      ``nl.equal``, ``nl.greater``, ... (:mod:`gpsimd.nki.language`).
    - ``bound0``, ``bound1``: a number, or one per row (then read through a pointer).
    - ``range_start``: the index of column 0 (RangeSelect's ``base``).
    - ``dtype``: the result's dtype: FP32, FP32R, FP16, BF16 or FP8_*; default the
      input's.
    - ``reduce``: True (row_max from ZERO_ACCUMULATE), False (reduce_cmd IDLE, row_max
      is None) or one starting value per row (ACCUMULATE onto it). For a 1-D tile,
      row_max is a float32 scalar.

    Rows beyond 128 and columns beyond one partition become several instructions; a
    column tile's ``base`` continues the index and ACCUMULATE carries the maximum
    (with more than 128 rows, a DveReadAccumulator writes each block's maxima to SBUF).

    >>> import numpy as np, gpsimd
    >>> x = np.array([[1, 7, 3, 5, 2, 8], [4, 4, 9, 0, 6, 1]], dtype=np.float32)
    >>> out, mx = gpsimd.range_select(x, ">=", "<", bound0=[1, 3], bound1=[4, 6])
    >>> out
    array([[-3.4028235e+38,  7.0000000e+00,  3.0000000e+00,  5.0000000e+00,
            -3.4028235e+38, -3.4028235e+38],
           [-3.4028235e+38, -3.4028235e+38, -3.4028235e+38,  0.0000000e+00,
             6.0000000e+00,  1.0000000e+00]], dtype=float32)
    >>> mx
    array([7., 6.], dtype=float32)
    """
    fn = "range_select"
    a, din, dout = in_out(fn, "tile", tile, _RANGE_SELECT_DTYPES, in_dtype, dtype)
    x2, one_d = _rows(a, "range_select: tile")
    shape = a.shape
    rows, cols = x2.shape
    src = _as_bits(x2, din)
    isz, osz = dtype_size(din), dtype_size(dout)
    if isz is None or osz is None:
        raise ValueError(f"range_select: {din if isz is None else dout} has no byte size")
    op0 = comparison(fn, "comp_op0", comp_op0)
    op1 = comparison(fn, "comp_op1", comp_op1)
    b0, b0_rows = _per_row(bound0, rows, "range_select: bound0")
    b1, b1_rows = _per_row(bound1, rows, "range_select: bound1")
    b0 = np.asarray(b0, dtype=np.float32)
    b1 = np.asarray(b1, dtype=np.float32)

    initial = None
    if reduce is None or isinstance(reduce, (bool, np.bool_)):
        reducing = bool(reduce)
    else:
        reducing = True
        start, start_rows = _per_row(reduce, rows, "range_select: reduce")
        initial = np.full(rows, start, dtype=np.float32) if not start_rows else np.asarray(
            start, dtype=np.float32)

    base = np.float32(number(fn, "range_start", range_start))
    blocks = -(-rows // _PARTITIONS)
    if blocks > 1 and initial is not None and return_words:
        raise ValueError(
            "range_select: with return_words=True and reduce= start values, rows beyond 128 "
            "would need the accumulators loaded again between blocks, which no instruction "
            "does; call it on 128 rows at a time")
    out = np.empty((rows, cols), dtype=storage_dtype(dout))
    row_max = np.empty(rows, dtype=np.float32) if reducing else None
    with Runner(fn, generation, strict, return_words) as run:
        pbytes = run.partition_bytes()
        width = min(_MAX_NUM, (pbytes - 3 * _ALIGN) // (isz + osz))
        while width > 1 and 2 * _ALIGN + _ceil(width * isz) + width * osz > pbytes:
            width -= 1
        tiles = -(-cols // width)
        w_last = cols - (tiles - 1) * width
        per_tile = (tiles - 1) * (_ceil(width * isz) + _ceil(width * osz)) + \
            _ceil(w_last * isz) + _ceil(w_last * osz)
        fits = run.layout(blocks * (_ALIGN + (_ALIGN if blocks > 1 else 0) + per_tile))
        run.result_shape("out", (rows, cols), out.dtype)
        if reducing:
            run.result_shape("row_max", (rows, 1), np.float32)
        for r0 in range(0, rows, _PARTITIONS):
            r = min(_PARTITIONS, rows - r0)
            # bound0 at +0, bound1 at +4 (one per row, pointers), the row maxima at +32.
            if fits or r0 == 0:
                bounds_off = run.block(36)
            if b0_rows:
                run.load(0, bounds_off, b0[r0 : r0 + r].reshape(r, 1), name="bound0")
            if b1_rows:
                run.load(0, bounds_off + 4, b1[r0 : r0 + r].reshape(r, 1), name="bound1")
            if initial is not None:
                run.set_accumulators(0, initial[r0 : r0 + r].view(np.uint32))
            for c0 in range(0, cols, width):
                w = min(width, cols - c0)
                if fits or (r0 == 0 and c0 == 0):
                    src_off, dst_off = run.block(w * isz, w * osz)
                tile_base = np.float32(float(base) + c0)
                if c0 and float(tile_base) != float(base) + c0:
                    raise ValueError(
                        f"range_select: the row is split at column {c0}, and range_start "
                        f"{float(base)!r} + {c0} is not exact in FP32, so the split "
                        "instructions would not compute the same indices; use an integer "
                        "range_start")
                run.load(0, src_off, src[r0 : r0 + r, c0 : c0 + w], name="tile")
                if not reducing:
                    cmd = "IDLE"
                elif c0 == 0 and initial is None:
                    cmd = "ZERO_ACCUMULATE"
                else:
                    cmd = "ACCUMULATE"
                run.run(lower.range_select(
                    in_dtype=din, out_dtype=dout, channels=r,
                    src=_sbuf(0, src_off, [w, 1], [1, 0]), dst=_sbuf(0, dst_off, [w, 1], [1, 0]),
                    comp_op0=op0, comp_op1=op1,
                    bound0=_ptr(bounds_off) if b0_rows else b0[()],
                    bound1=_ptr(bounds_off + 4) if b1_rows else b1[()],
                    range_start=tile_base, reduce_cmd=cmd, names=_RANGE_SELECT_NAMES))
                out[r0 : r0 + r, c0 : c0 + w] = run.read(0, r, dst_off, w, dout, "out",
                                                         into=("out", _parts(r0, r, c0, w)))
            if not reducing:
                continue
            if blocks == 1:
                row_max[:r] = np.array(run.machine.accumulator_values[:r])
                run.result_dump("row_max", "acc", 0, r, into=("row_max", _parts(0, r)))
                continue
            # Later blocks reuse the accumulators: write this block's maxima to SBUF.
            acc_off = bounds_off + 32
            run.run(lower.read_accumulator(dtype="FP32", channels=r,
                                           dst={**_ptr(acc_off), "num": [1], "step": [1]},
                                           names=_RANGE_SELECT_NAMES))
            row_max[r0 : r0 + r] = run.read(0, r, acc_off, 1, "FP32", "row_max",
                                            into=("row_max", _parts(r0, r)))[:, 0]
        out = out.reshape(shape)
        if one_d and reducing:
            row_max = row_max[0]
        return run.result((out, row_max))


# ---- SelectReduce ----------------------------------------------------------------------

_PREDICATE_DTYPES = ("INT8", "UINT8", "INT16", "UINT16", "INT32", "UINT32")


def select_reduce(
    predicate: ArrayLike,
    on_true: ArrayLike,
    on_false: Union[float, ArrayLike],
    reduce: bool = True,
    reverse_pred: bool = False,
    *,
    dtype: DtypeLike = None,
    in_dtype: DtypeLike = None,
    generation: str = "v3",
    strict: bool = False,
    return_words: bool = False,
) -> RangeSelectResult:
    """Return ``(out, row_max)``: ``out = where(predicate, on_true, on_false)`` and each
    row's maximum of it (``on_false`` values included, NaNs ignored), from the DVE
    accumulator: SelectReduce (0xea, V3 and newer), SPEC §4.25 — NKI's
    ``nki.isa.select_reduce`` without its ``dst``, ``reduce_res`` the second result.

    - ``predicate``: integers (a bool array is UINT8), true where any bit is set;
      ``reverse_pred`` negates it.
    - ``on_true``: ``[rows, ...]`` or 1-D, of ``predicate``'s shape, not a 32-bit integer
      dtype (BF16/FP8 bits with ``in_dtype``); ``on_false`` a number or one float32 per row.
    - ``reduce``: True (ZERO_ACCUMULATE: the maximum from -inf) or False (IDLE: row_max is
      None). ``dtype``: the result's, default ``on_true``'s.

    >>> import numpy as np, gpsimd
    >>> out, mx = gpsimd.select_reduce(np.array([[1, 0, 1, 0]], np.uint8),
    ...                                np.float32([[5, 50, 7, -1]]), -1.0)
    >>> out, mx
    (array([[ 5., -1.,  7., -1.]], dtype=float32), array([7.], dtype=float32))
    """
    fn = "select_reduce"
    a, din, dout = in_out(fn, "on_true", on_true, VALID_DTYPES, in_dtype, dtype)
    pred = np.asarray(predicate)
    if pred.dtype == np.bool_:
        pred = pred.astype(np.uint8)
    p, pdt = data_array(fn, "predicate", pred, _PREDICATE_DTYPES, None, "in_dtype")
    if p.shape != a.shape:
        raise ValueError(f"select_reduce: predicate has shape {p.shape} and on_true {a.shape}; "
                         "they must have one shape")
    x2, one_d = _rows(a, "select_reduce: on_true")
    p2 = p.reshape(x2.shape)
    shape = a.shape
    rows, cols = x2.shape
    psz, isz, osz = dtype_size(pdt), dtype_size(din), dtype_size(dout)
    if isz is None or osz is None:
        raise ValueError(f"select_reduce: {din if isz is None else dout} has no byte size")
    f, f_rows = _per_row(on_false, rows, "select_reduce: on_false")
    f = np.asarray(f, dtype=np.float32)
    out = np.empty((rows, cols), dtype=storage_dtype(dout))
    row_max = np.empty(rows, dtype=np.float32) if reduce else None
    with Runner(fn, generation, strict, return_words) as run:
        if min(_MAX_NUM, (run.partition_bytes() - 4 * _ALIGN) // (psz + isz + osz)) < cols:
            raise ValueError(f"select_reduce: a row of {cols} elements does not fit one SBUF "
                             f"partition on {generation} with its operands; pass shorter rows")
        src_p, src_x = _as_bits(p2, pdt), _as_bits(x2, din)
        blocks = -(-rows // _PARTITIONS)
        fits = run.layout(blocks * (2 * _ALIGN + _tiles_bytes(cols, cols, psz, isz, osz)))
        run.result_shape("out", (rows, cols), out.dtype)
        if reduce:
            run.result_shape("row_max", (rows, 1), np.float32)
        for r0 in range(0, rows, _PARTITIONS):
            r = min(_PARTITIONS, rows - r0)
            if fits or r0 == 0:
                imm_off = run.block(8)  # on_false at +0, the row maxima at +4
                off_p, off_x, off_d = run.block(cols * psz, cols * isz, cols * osz)
            if f_rows:
                run.load(0, imm_off, f[r0 : r0 + r].reshape(r, 1), name="on_false")
            run.load(0, off_p, src_p[r0 : r0 + r], name="predicate")
            run.load(0, off_x, src_x[r0 : r0 + r], name="on_true")
            run.run(lower.select_reduce(
                pred_dtype=pdt, in_dtype=din, out_dtype=dout, channels=r,
                predicate=_sbuf(0, off_p, [cols, 1], [1, 0]),
                on_true=_sbuf(0, off_x, [cols, 1], [1, 0]),
                dst=_sbuf(0, off_d, [cols, 1], [1, 0]),
                on_false=_ptr(imm_off) if f_rows else f[()], reverse_pred=reverse_pred,
                reduce_cmd="ZERO_ACCUMULATE" if reduce else "IDLE", names=_RESULT))
            out[r0 : r0 + r] = run.read(0, r, off_d, cols, dout, "out",
                                        into=("out", _parts(r0, r)))
            if reduce:
                run.run(lower.read_accumulator(dtype="FP32", channels=r,
                                               dst={**_ptr(imm_off + 4), "num": [1], "step": [1]},
                                               names={"reduce_res": "reduce"}))
                row_max[r0 : r0 + r] = run.read(0, r, imm_off + 4, 1, "FP32", "row_max",
                                                into=("row_max", _parts(r0, r)))[:, 0]
        out = out.reshape(shape)
        if one_d and reduce:
            row_max = row_max[0]
        return run.result((out, row_max))


# ---- TensorScalarSelect ----------------------------------------------------------------


def tensor_scalar_select(tile: ArrayLike, scalar: Union[float, ArrayLike],
                         predicate: Union[bool, ArrayLike], reversed: bool = False, *,
                         dtype: DtypeLike = None, in_dtype: DtypeLike = None,
                         generation: str = "v3", strict: bool = False,
                         return_words: bool = False) -> ArrayResult:
    """Return, per row, the tile where the row's predicate holds and the scalar elsewhere.

    SPEC §4.2: row ``r`` is ``tile[r]`` when ``bool(predicate[r]) != reversed``, else
    every element is ``scalar[r]``. Bits are copied, never converted.

    - ``tile``: ``[rows, ...]`` or 1-D (one row), of any dtype the instruction moves:
      float32, float16, int8/16/32, uint8/16/32, or BF16/FP8 bit patterns (uint16/uint8)
      with ``in_dtype`` (or ``dtype``: the result has the tile's dtype) naming them.
    - ``scalar``: a number, or one per row (read through a pointer). A NumPy value of
      the tile's storage type is taken bit for bit; other numbers are converted to the
      dtype (floats with the model's rounding; integers must fit).
    - ``predicate``: a truth value, or one per row (read through a pointer).

    >>> import numpy as np, gpsimd
    >>> x = np.arange(8, dtype=np.int16).reshape(2, 4)
    >>> gpsimd.tensor_scalar_select(x, -1, predicate=[True, False])
    array([[ 0,  1,  2,  3],
           [-1, -1, -1, -1]], dtype=int16)
    """
    fn = "tensor_scalar_select"
    a, name = data_array(fn, "tile", tile, VALID_DTYPES, same_dtype(fn, dtype, in_dtype))
    x2, _ = _rows(a, "tensor_scalar_select: tile")
    shape = a.shape
    rows, cols = x2.shape
    size = dtype_size(name)
    src = _as_bits(x2, name)
    s_val, s_rows = _per_row(scalar, rows, "tensor_scalar_select: scalar")
    s_bits = scalar_bits(fn, "scalar", s_val, name)
    p_val, p_rows = _per_row(predicate, rows, "tensor_scalar_select: predicate")
    p_bits = (np.asarray(p_val) != 0).astype(f"<u{size}")
    pred_dtype = {1: "UINT8", 2: "UINT16", 4: "UINT32"}.get(size, "UINT32")

    out = np.empty((rows, cols), dtype=src.dtype)
    blocks = -(-rows // _PARTITIONS)
    with Runner(fn, generation, strict, return_words) as run:
        pbytes = run.partition_bytes()
        width = min(_MAX_NUM, (pbytes - 3 * _ALIGN) // (2 * size))
        while width > 1 and _ALIGN + 2 * _ceil(width * size) > pbytes:
            width -= 1
        fits = run.layout(blocks * (_ALIGN + _tiles_bytes(cols, width, size, size)))
        run.result_shape("out", (rows, cols), out.dtype)
        for r0 in range(0, rows, _PARTITIONS):
            r = min(_PARTITIONS, rows - r0)
            if fits or r0 == 0:
                imm_off = run.block(8)
            if s_rows:
                run.load(0, imm_off, s_bits[r0 : r0 + r].reshape(r, 1), name="scalar")
            if p_rows:
                run.load(0, imm_off + 4, p_bits[r0 : r0 + r].reshape(r, 1), name="predicate")
            for c0 in range(0, cols, width):
                w = min(width, cols - c0)
                if fits or (r0 == 0 and c0 == 0):
                    src_off, dst_off = run.block(w * size, w * size)
                run.load(0, src_off, src[r0 : r0 + r, c0 : c0 + w], name="tile")
                run.run(lower.tensor_scalar_select(
                    dtype=name, pred_dtype=pred_dtype, channels=r,
                    src=_sbuf(0, src_off, [w, 1, 1], [1, 0, 0]),
                    dst=_sbuf(0, dst_off, [w, 1, 1], [1, 0, 0]),
                    scalar=_ptr(imm_off) if s_rows else s_bits,
                    predicate=_ptr(imm_off + 4) if p_rows else p_bits, reversed=reversed))
                out[r0 : r0 + r, c0 : c0 + w] = run.read(0, r, dst_off, w, name, "out",
                                                         into=("out", _parts(r0, r, c0, w)))
        return run.result(out.reshape(shape))


# ---- GetSequenceBounds -----------------------------------------------------------------

_SEQUENCE_BOUNDS_NAMES = {"segment_ids": "ids", "dst": "dtype"}


def sequence_bounds(ids: ArrayLike, *, dtype: DtypeLike = None, generation: str = "v3",
                    strict: bool = False, return_words: bool = False) -> ArrayResult:
    """Return each element's segment ``[start, end)`` (SPEC §4.3, GetSequenceBounds).

    Segments are maximal runs of equal adjacent ids; id 0 is padding, with start ``n``
    and end ``-1``. A 1-D ``ids`` of length n gives shape ``(2, n)`` (starts, then ends);
    ``[rows, n]`` gives ``(rows, 2, n)``, one instruction per row (the instruction runs
    on exactly one partition). ids are int32 or float32 (a Python list of ints is int32);
    ``dtype``, the result's dtype, is int32 or float32, default the ids' type.

    A sequence is not split across instructions: its bounds refer to the whole of it.
    One instruction takes n up to the 2n-element destination fitting an SBUF partition
    (and step_elem's int16 range); longer sequences raise ValueError.

    >>> import gpsimd
    >>> gpsimd.sequence_bounds([0, 1, 1, 2, 2, 2, 0, 3, 3])
    array([[ 9,  1,  1,  3,  3,  3,  9,  7,  7],
           [-1,  3,  3,  6,  6,  6, -1,  9,  9]], dtype=int32)
    """
    fn = "sequence_bounds"
    a, din, dout = in_out(fn, "ids", ids, _SEQUENCE_DTYPES, None, dtype)
    if a.ndim not in (1, 2):
        raise ValueError(f"sequence_bounds: ids must be 1-D or [rows, n], got shape {a.shape}")
    one_d = a.ndim == 1
    a2 = a.reshape(1, -1) if one_d else a
    rows, n = a2.shape
    if n == 0 or rows == 0:
        raise ValueError(f"sequence_bounds: ids are empty ({a.shape})")
    src = _as_bits(a2, din)
    osz = dtype_size(dout) or 4

    with Runner(fn, generation, strict, return_words) as run:
        pbytes = run.partition_bytes()
        limit = min(pbytes // (2 * osz), pbytes // 4, _MAX_STEP, 1 << 23)
        if n > limit:
            raise ValueError(
                f"sequence_bounds: {n} ids do not fit one GetSequenceBounds on "
                f"{run.machine.generation}: it runs on one partition (num_active_channels = "
                f"1), its 2n-element destination must fit a {pbytes}-byte SBUF partition "
                f"with the ends step_elem <= {_MAX_STEP} elements after the starts, and 2n "
                f"<= 2^24 (the walk limit), so n <= {limit}; a sequence cannot be split, "
                "because its bounds refer to the whole sequence")
        # Up to 64 rows a batch: row i's ids in partition i, its bounds in partition 64+i.
        batch = _PARTITIONS // 2
        region = max(4 * n, 2 * n * osz)
        batches = -(-rows // batch)
        fits = run.layout(batches * _ceil(region))
        out = np.empty((rows, 2, n), dtype=storage_dtype(dout))
        run.result_shape("bounds", (rows, 2 * n), out.dtype)
        for r0 in range(0, rows, batch):
            r = min(batch, rows - r0)
            if fits or r0 == 0:
                off = run.block(region)
            run.load(0, off, src[r0 : r0 + r], name="ids")
            run.run([lower.sequence_bounds(in_dtype=din, out_dtype=dout, channels=1,
                                           src=_sbuf(i, off, [n, 1, 1], [1, 0, 0]),
                                           dst=_sbuf(batch + i, off, [n, 1, 2], [1, 0, n]),
                                           names=_SEQUENCE_BOUNDS_NAMES)
                     for i in range(r)])
            out[r0 : r0 + r] = run.read(batch, r, off, 2 * n, dout, "bounds",
                                        into=("bounds", _parts(r0, r))).reshape(r, 2, n)
        return run.result(out[0] if one_d else out)


# ---- Sort ------------------------------------------------------------------------------


def sort(x: ArrayLike, descending: bool = False, stable: bool = True, k: int | None = None,
         index_offset: Union[int, ArrayLike] = 0, *, dtype: DtypeLike = None,
         in_dtype: DtypeLike = None, generation: str = "v3", strict: bool = False,
         return_words: bool = False) -> PairResult:
    """Return ``(values, indices)``: each row sorted, with the original positions.

    SPEC §4.4: values ascending (or ``descending``); floats by IEEE value with NaN above
    +inf and -0.0 equal to +0.0; ties keep increasing original position. ``indices`` are
    the positions plus ``index_offset`` (a number or one per row), modulo 2^16 for
    16-bit dtypes (uint16) and 2^32 for 32-bit ones (uint32). ``k`` keeps the first k
    of each sorted row (top-K). A 1-D ``x`` is one row; ``[rows, N]`` sorts each row.

    dtypes: float32, float16, int16, uint16 (UINT16: integers), int32, uint32, and BF16
    bit patterns (uint16) with ``in_dtype='BF16'`` (or ``dtype='BF16'``: the values keep
    the input's dtype); a Python list of ints is int32, of floats float32. One Sort
    takes ``N x channels <= 4096`` (16-bit) or ``<= 2048`` (32-bit), so rows are
    batched into as many instructions as needed; a row longer than that cannot be
    sorted by the instruction (a sort does not split): its word raises
    :class:`gpsimd.InvalidInstruction` (``sort_tensor_shapes_ok``, naming ``x``).

    >>> import numpy as np, gpsimd
    >>> gpsimd.sort(np.array([9, 3, 5, 1, 0, 0], dtype=np.float32), index_offset=100)
    (array([0., 0., 1., 3., 5., 9.], dtype=float32),
     array([104, 105, 103, 101, 102, 100], dtype=uint32))
    """
    fn = "sort"
    a, name = data_array(fn, "x", x, _SORT_DTYPES, same_dtype(fn, dtype, in_dtype))
    if a.ndim not in (1, 2):
        raise ValueError(f"sort: x must be 1-D or [rows, N], got shape {a.shape}")
    one_d = a.ndim == 1
    a2 = a.reshape(1, -1) if one_d else a
    rows, n = a2.shape
    if n == 0 or rows == 0:
        raise ValueError(f"sort: x is empty ({a.shape})")
    size = dtype_size(name)
    src = _as_bits(a2, name)
    limit = {2: 4096, 4: 2048}.get(size)  # N x channels of one Sort: rows a word
    kk = n if k is None else integer(fn, "k", k, 1, n)
    off_val, off_rows = _per_row(index_offset, rows, "sort: index_offset")
    offsets = np.asarray(field_int(fn, "index_offset", off_val, "uint32")).astype(np.uint32)

    channels = min(_PARTITIONS, max(1, (limit or n) // n))
    value_dtype = src.dtype
    index_dtype = np.dtype(f"<u{size}")
    values = np.empty((rows, kk), dtype=value_dtype)
    indices = np.empty((rows, kk), dtype=index_dtype)
    with Runner(fn, generation, strict, return_words) as run:
        batches = -(-rows // channels)
        fits = run.layout(batches * (_ALIGN + _ceil(n * size) + _ceil(2 * kk * size)))
        run.result_shape("values", (rows, kk), value_dtype)
        run.result_shape("indices", (rows, kk), index_dtype)
        for r0 in range(0, rows, channels):
            r = min(channels, rows - r0)
            if fits or r0 == 0:
                off_off, src_off, dst_off = run.block(4, n * size, 2 * kk * size)
            run.load(0, src_off, src[r0 : r0 + r], name="x")
            if off_rows:
                run.load(0, off_off, offsets[r0 : r0 + r].reshape(r, 1), name="index_offset")
            run.run(lower.sort(dtype=name, channels=r, src=_sbuf(0, src_off, [n], [1]),
                               dst=_sbuf(0, dst_off, [2, kk], [1, 2]), descending=descending,
                               stable=stable,
                               index_offset=_ptr(off_off) if off_rows else offsets))
            part = _parts(r0, r)
            values[r0 : r0 + r] = run.read(0, r, dst_off, kk, name, "values", step=2,
                                           into=("values", part))
            indices[r0 : r0 + r] = run.read(0, r, dst_off + size, kk, f"UINT{8 * size}",
                                            "indices", step=2, into=("indices", part))
        if one_d:
            return run.result((values[0], indices[0]))
        return run.result((values, indices))


# ---- AffineSelect and Iota: the ramp of SPEC §3.7 ----------------------------------------


def affine_select(pattern: Sequence[Sequence[int]], channel_multiplier: int,
                  on_true_tile: ArrayLike, on_false_value: float, cmp_op: Any = "eq",
                  offset: int = 0, *, dtype: DtypeLike = None, in_dtype: DtypeLike = None,
                  generation: str = "v3", strict: bool = False,
                  return_words: bool = False) -> ArrayResult:
    """Return the tile where an affine function of the position compares against 0, and
    ``on_false_value`` elsewhere (SPEC §4.5): NKI's ``nki.isa.affine_select`` without its
    ``dst``, in its argument order, with its default comparison ``equal``.

    For row ``p`` (a partition) and position ``j`` of the row in the pattern's walk, the
    value ``m = offset + Σ i[d] * step[d] + p * channel_multiplier`` (int32, wrapping) is
    compared with 0 by ``cmp_op``; the result is ``on_true_tile[p, j]`` (converted to
    ``dtype`` when it differs, through FP32) where it holds, else ``on_false_value``.

    - ``pattern``: ``[[step, num], ...]`` outermost first, NKI's order (up to four
      pairs); the product of the nums is the row length.
    - ``channel_multiplier``: the int32 factor of the row index.
    - ``on_true_tile``: ``[rows, ...]`` (trailing dimensions are the row, in C order) or
      1-D (one row). The NumPy type names the dtype (float32 is FP32, int32 INT32, ...);
      BF16 and FP8 bit patterns (uint16, uint8) need ``in_dtype``.
    - ``on_false_value``: a number, held as an FP32 (the fill register) and converted to
      ``dtype``.
    - ``cmp_op``: 'eq' (the default, NKI's ``nl.equal``), 'ne', 'gt', 'ge', the symbols
      '==', '!=', '>', '>=', numpy.equal, numpy.not_equal, numpy.greater,
      numpy.greater_equal, or NKI's ``nl.equal``, ... (:mod:`gpsimd.nki.language`).
    - ``offset``: the ramp's base (int32).
    - ``dtype``: the result's dtype (a NumPy type or a SPEC name such as 'BF16',
      'FP32R'); default the input's.

    More than 128 rows become several instructions (the row index keeps counting, so
    row 130 has p = 130); a row must fit one instruction.

    >>> import numpy as np, gpsimd
    >>> x = np.arange(1, 17, dtype=np.float32).reshape(4, 4)
    >>> gpsimd.affine_select([[-1, 4]], 1, x, -99.0, cmp_op="ge")   # keep j <= p
    array([[  1., -99., -99., -99.],
           [  5.,   6., -99., -99.],
           [  9.,  10.,  11., -99.],
           [ 13.,  14.,  15.,  16.]], dtype=float32)
    >>> gpsimd.affine_select([[-1, 4]], 1, x, 0.0)   # NKI's default: keep m == 0, j == p
    array([[ 1.,  0.,  0.,  0.],
           [ 0.,  6.,  0.,  0.],
           [ 0.,  0., 11.,  0.],
           [ 0.,  0.,  0., 16.]], dtype=float32)
    """
    fn = "affine_select"
    a, din, dout = in_out(fn, "on_true_tile", on_true_tile, VALID_DTYPES, in_dtype, dtype)
    x2, _ = _rows(a, "affine_select: on_true_tile")
    shape = a.shape
    rows, cols = x2.shape
    isz, osz = dtype_size(din), dtype_size(dout)
    if isz is None or osz is None:
        raise ValueError(f"affine_select: {din if isz is None else dout} has no byte size")
    channel_multiplier = field_int(fn, "channel_multiplier", channel_multiplier, "int32")
    offset = field_int(fn, "offset", offset, "int32")
    on_false_value = number(fn, "on_false_value", on_false_value)
    data, _ = data4d(fn, "pattern", pattern, offset)
    cmp = affine_cmp(fn, "cmp_op", cmp_op)
    src = _as_bits(x2, din)
    out = np.empty((rows, cols), dtype=storage_dtype(dout))
    with Runner(fn, generation, strict, return_words) as run:
        pbytes = run.partition_bytes()
        if cols > _MAX_NUM or 2 * _ALIGN + _ceil(cols * isz) + cols * osz > pbytes:
            raise ValueError(
                f"affine_select: a row of {cols} elements does not fit one instruction (at "
                f"most {min(_MAX_NUM, (pbytes - 2 * _ALIGN) // (isz + osz))} {din} -> {dout} "
                "elements)")
        blocks = -(-rows // _PARTITIONS)
        fits = run.layout(blocks * (_ceil(cols * isz) + _ceil(cols * osz)))
        run.set_register(0, int(np.float32(on_false_value).view(np.uint32)))
        run.result_shape("out", (rows, cols), out.dtype)
        for r0 in range(0, rows, _PARTITIONS):
            r = min(_PARTITIONS, rows - r0)
            if fits or r0 == 0:
                src_off, dst_off = run.block(cols * isz, cols * osz)
            run.load(0, src_off, src[r0 : r0 + r], name="on_true_tile")
            mask = dict(data, base=wrap_int32(data["base"] + r0 * int(channel_multiplier)))
            run.run(lower.affine_select(
                in_dtype=din, out_dtype=dout, channels=r,
                src=_sbuf(0, src_off, [cols, 1], [1, 0]), dst=_sbuf(0, dst_off, [cols, 1], [1, 0]),
                pattern=mask, channel_multiplier=wrap_int32(channel_multiplier), cmp_op=cmp,
                fill_reg=0, names=_RESULT))
            out[r0 : r0 + r] = run.read(0, r, dst_off, cols, dout, "out",
                                        into=("out", _parts(r0, r)))
        return run.result(out.reshape(shape))


def causal_mask(scores: ArrayLike, fill: float = -9984.0, *, dtype: DtypeLike = None,
                in_dtype: DtypeLike = None, generation: str = "v3", strict: bool = False,
                return_words: bool = False) -> ArrayResult:
    """Return a score tile with every key after its query replaced by ``fill``.

    Row ``q`` keeps columns ``k <= q`` (``numpy.tril``'s lower triangle, diagonal
    included): one AffineSelect with ``m = q - k``, GE, i.e. pattern ``[[-1, keys]]``,
    channel_multiplier 1. ``dtype`` is the result's dtype, ``in_dtype`` names BF16/FP8
    score bits.

    >>> import numpy as np, gpsimd
    >>> gpsimd.causal_mask(np.ones((3, 3), dtype=np.float32), fill=0.0)
    array([[1., 0., 0.],
           [1., 1., 0.],
           [1., 1., 1.]], dtype=float32)
    """
    a, _ = data_array("causal_mask", "scores", scores, VALID_DTYPES, in_dtype, "in_dtype")
    number("causal_mask", "fill", fill)
    s2, _ = _rows(a, "causal_mask: scores")
    keys = s2.shape[1]
    out = affine_select([[-1, keys]], 1, s2, fill, cmp_op="ge", dtype=dtype,
                        in_dtype=in_dtype, generation=generation, strict=strict,
                        return_words=return_words)
    if return_words:
        return out[0].reshape(a.shape), out[1]
    return out.reshape(a.shape)


# The result's dtype is dtype=, its shape the pattern's.
_IOTA_NAMES = {"dst": "dtype", "dst_mem_pattern": "pattern"}


def iota(pattern: Sequence[Sequence[int]], offset: int = 0, channel_multiplier: int = 0, *,
         partitions: int = 1, dtype: DtypeLike = np.int32, generation: str = "v3",
         strict: bool = False, return_words: bool = False) -> ArrayResult:
    """Return the ramp ``offset + Σ i[d] * step[d] + p * channel_multiplier`` (SPEC §4.6)
    of each row ``p`` as an array ``[partitions, num_w, ..., num_x]``: NKI's
    ``nki.isa.iota(dst, pattern, offset, channel_multiplier)`` without its ``dst``, in
    its argument order (``dst``'s partition count and dtype are ``partitions`` and
    ``dtype``).

    - ``pattern``: ``[[step, num], ...]`` outermost first, up to four pairs.
    - ``offset``, ``channel_multiplier``: int32, the arithmetic wraps around 2^32.
    - ``dtype`` (keyword-only): the result's dtype (a NumPy type, or a SPEC name: 'BF16'
      and 'FP8_*' come back as bit patterns). Integer outputs keep the low bits of the
      int32 value (INT8 of 300 is 44); float outputs round to FP32, then to the narrower
      format.

    >>> import gpsimd
    >>> gpsimd.iota([[1, 4]], 5, 2, partitions=3)
    array([[ 5,  6,  7,  8],
           [ 7,  8,  9, 10],
           [ 9, 10, 11, 12]], dtype=int32)
    """
    fn = "iota"
    name = dtype_arg(fn, "dtype", dtype)
    size = dtype_size(name)
    if size is None:
        raise ValueError(f"iota: {name} has no byte size")
    channel_multiplier = field_int(fn, "channel_multiplier", channel_multiplier, "int32")
    offset = field_int(fn, "offset", offset, "int32")
    data, nums = data4d(fn, "pattern", pattern, offset)
    count = int(np.prod(nums))
    partitions = integer(fn, "partitions", partitions)
    if partitions < 1:
        raise ValueError(f"iota: partitions must be >= 1, got {partitions}")
    # The destination: dense, with the pattern's shape (dimension 0 innermost).
    dims = data["num"]
    steps = [int(np.prod(dims[:d])) for d in range(4)]
    if max(s for s, n in zip(steps, dims) if n > 1 or s == 1) > _MAX_STEP:
        raise ValueError(f"iota: the dense steps {steps} do not fit int16")
    steps = [s if n > 1 else 0 for s, n in zip(steps, dims)]
    out = np.empty((partitions, count), dtype=storage_dtype(name))
    with Runner(fn, generation, strict, return_words) as run:
        pbytes = run.partition_bytes()
        if count * size > pbytes - _ALIGN:
            raise ValueError(
                f"iota: {count} {name} values do not fit one partition "
                f"(at most {(pbytes - _ALIGN) // size})"
            )
        blocks = -(-partitions // _PARTITIONS)
        fits = run.layout(blocks * _ceil(count * size))
        run.result_shape("out", (partitions, count), out.dtype)
        for r0 in range(0, partitions, _PARTITIONS):
            r = min(_PARTITIONS, partitions - r0)
            if fits or r0 == 0:
                dst_off = run.block(count * size)
            run.run(lower.iota(
                out_dtype=name, channels=r,
                pattern=dict(data, base=wrap_int32(data["base"] + r0 * int(channel_multiplier))),
                channel_multiplier=wrap_int32(channel_multiplier),
                dst=_sbuf(0, dst_off, dims, steps), names=_IOTA_NAMES))
            out[r0 : r0 + r] = run.read(0, r, dst_off, count, name, "out",
                                        into=("out", _parts(r0, r)))
        return run.result(out.reshape([partitions] + nums))


# ---- Copy and Cast -------------------------------------------------------------------------


def _copy_cast(fn, cast, src, dtype, in_dtype, engine, generation, strict, return_words):
    a, din, dout = in_out(fn, "src", src, VALID_DTYPES, in_dtype, dtype)
    eng = engine_arg(fn, engine)
    x2, _ = _rows(a, f"{fn}: src")
    shape = a.shape
    rows, cols = x2.shape
    bits = _as_bits(x2, din)
    isz, osz = dtype_size(din), dtype_size(dout)
    out = np.empty((rows, cols), dtype=storage_dtype(dout))
    blocks = -(-rows // _PARTITIONS)
    with Runner(fn, generation, strict, return_words, engine=eng) as run:
        pbytes = run.partition_bytes()
        width = min(_MAX_NUM, (pbytes - 2 * _ALIGN) // (isz + osz))
        tiles = -(-cols // width)
        w_last = cols - (tiles - 1) * width
        per_block = (tiles - 1) * (_ceil(width * isz) + _ceil(width * osz)) + \
            _ceil(w_last * isz) + _ceil(w_last * osz)
        fits = run.layout(blocks * per_block)
        run.result_shape("out", (rows, cols), out.dtype)
        for r0 in range(0, rows, _PARTITIONS):
            r = min(_PARTITIONS, rows - r0)
            for c0 in range(0, cols, width):
                w = min(width, cols - c0)
                if fits or (r0 == 0 and c0 == 0):
                    src_off, dst_off = run.block(w * isz, w * osz)
                run.load(0, src_off, bits[r0 : r0 + r, c0 : c0 + w], name="src")
                run.run(lower.copy(in_dtype=din, out_dtype=dout, channels=r,
                                   src=_sbuf(0, src_off, [w, 1, 1, 1], [1, 0, 0, 0]),
                                   dst=_sbuf(0, dst_off, [w, 1, 1, 1], [1, 0, 0, 0]),
                                   cast=cast, names=_RESULT))
                out[r0 : r0 + r, c0 : c0 + w] = run.read(0, r, dst_off, w, dout, "out",
                                                         into=("out", _parts(r0, r, c0, w)))
        return run.result(out.reshape(shape))


def tensor_copy(src: ArrayLike, *, dtype: DtypeLike = None, in_dtype: DtypeLike = None,
                engine: str | None = None, generation: str = "v3", strict: bool = False,
                return_words: bool = False) -> ArrayResult:
    """Return a copy of ``src`` in ``dtype``: NKI's ``nki.isa.tensor_copy`` without its
    ``dst`` (whose dtype is ``dtype``), as Copy (0x46, SPEC §4.16) when the dtypes are
    equal and Cast (0x47, §4.17) otherwise.

    - ``src``: ``[rows, ...]`` (trailing dimensions flattened, a row per partition) or
      1-D (one row), any of the twelve data dtypes by the dtype rule (BF16 and FP8 as
      bit patterns with ``in_dtype=`` naming them).
    - ``dtype`` (keyword-only): the result's dtype, default ``src``'s; FP32R too.
      Equal dtypes copy the bits (NaN payloads, ``-0.0``, INT32 beyond 2^24); every
      other pair converts through FP32 by SPEC §5.1 (round to nearest even, integers
      saturate, NaN becomes 0 in an integer, BF16/FP16/FP8 overflow to ±inf, INT32 to
      BF16 rounds twice).
    - ``engine``: the engine the words run on (SPEC §3.9): ``'pool'`` (NKI's
      ``'gpsimd'``, the default), ``'dve'`` (``'vector'``) or ``'act'`` (``'scalar'``).
      The operands are in SBUF, which all three reach; on ``'act'`` of ``v2`` every
      element goes through FP32, equal dtypes included (INT32 2^24 + 1 becomes 2^24).

    Rows beyond 128 and columns beyond one partition become several instructions.

    >>> import numpy as np, gpsimd
    >>> x = np.array([[2.5, 3.5, -0.5, np.nan], [1e10, -1e10, 7.0, -0.0]], np.float32)
    >>> gpsimd.tensor_copy(x, dtype=np.int32)
    array([[          2,           4,           0,           0],
           [ 2147483647, -2147483648,           7,           0]], dtype=int32)
    >>> gpsimd.tensor_copy(np.array([16777217], np.int32), engine="act", generation="v2")
    array([16777216], dtype=int32)
    >>> hex(gpsimd.tensor_copy(np.array([16777216 + 65536 + 1], np.int32), dtype="BF16")[0])
    '0x4b80'
    """
    return _copy_cast("tensor_copy", False, src, dtype, in_dtype, engine, generation, strict,
                      return_words)


def cast(src: ArrayLike, *, dtype: DtypeLike, in_dtype: DtypeLike = None,
         engine: str | None = None, generation: str = "v3", strict: bool = False,
         return_words: bool = False) -> ArrayResult:
    """Return ``src`` converted to ``dtype`` by SPEC §5.1: :func:`tensor_copy`, spelled for
    a conversion. ``dtype`` is required; the words are always Cast (0x47, SPEC §4.17),
    which copies the bits when the dtypes are equal (as Copy does) and converts through
    FP32 otherwise. The arguments are :func:`tensor_copy`'s.

    >>> import numpy as np, gpsimd
    >>> gpsimd.cast(np.array([300, -1, 65535], np.int32), dtype=np.int8)
    array([127,  -1, 127], dtype=int8)
    >>> gpsimd.cast(np.array([-1], np.int8), dtype="UINT8")
    array([0], dtype=uint8)
    >>> gpsimd.from_bf16(gpsimd.cast(np.array([1.00390625, -3.4028235e38], np.float32),
    ...                              dtype="BF16"))
    array([  1., -inf], dtype=float32)
    """
    return _copy_cast("cast", True, src, dtype, in_dtype, engine, generation, strict,
                      return_words)


# ---- Memset (SPEC §4.18) and TensorReduce (§4.19) ----------------------------------------


def _shape_arg(fn, shape):
    """Return a shape argument (an int or a sequence of ints >= 1) as a tuple."""
    dims = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
    if not dims or any(isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer))
                       or n < 1 for n in dims):
        raise ValueError(f"{fn}: shape must be a positive int or a sequence of them, got "
                         f"{shape!r}")
    return tuple(int(n) for n in dims)


def memset(shape: Any, value: Any, *, dtype: DtypeLike = np.float32, engine: str | None = None,
           generation: str = "v3", strict: bool = False,
           return_words: bool = False) -> ArrayResult:
    """Return an array of ``shape`` filled with ``value`` by Memset (0x49, SPEC §4.18):
    NKI's ``nki.isa.memset(dst, value, engine)`` without its ``dst`` (whose shape and
    dtype are ``shape`` and ``dtype``).

    - ``value``: the word's ``set_value`` is ``dtype``'s bit pattern of it (SPEC §4.18's
      rule): a Python ``int`` (or ``bool``) into an integer dtype is taken exactly and must
      fit; every other value is rounded to FP32, then converted by SPEC §5.1 (300.0 into
      INT8 is 127, NaN into an integer 0).
    - ``dtype`` (keyword-only): the result's dtype (BF16 and FP8 come back as bit
      patterns); FP32R is not fillable.
    - ``engine``: ``'dve'`` (the default) or ``'pool'``; ``'act'`` faults (Memset does not
      run there).

    Rows are partitions (``shape[0]``), the other dimensions a row's elements; more than
    128 rows, or rows longer than one instruction's walk, become several instructions.

    >>> import numpy as np, gpsimd
    >>> gpsimd.memset((2, 3), 0.2)
    array([[0.2, 0.2, 0.2],
           [0.2, 0.2, 0.2]], dtype=float32)
    >>> gpsimd.memset(4, -1, dtype=np.int8)
    array([-1, -1, -1, -1], dtype=int8)
    >>> hex(gpsimd.memset(1, 0.2, dtype="BF16")[0])
    '0x3e4d'
    """
    fn = "memset"
    name = dtype_arg(fn, "dtype", dtype)
    size = dtype_size(name)
    if size is None:
        raise ValueError(f"memset: {name} has no byte size")
    if name == "FP32R":
        raise ValueError("memset: an FP32R result is not fillable (memset_set_value_type has "
                         "no FP32R arm); use FP32")
    dims = _shape_arg(fn, shape)
    bits = memset_bits(fn, "value", value, name)
    eng = engine_arg(fn, engine)
    rows = dims[0] if len(dims) > 1 else 1
    cols = int(np.prod(dims[1:])) if len(dims) > 1 else dims[0]
    out = np.empty((rows, cols), dtype=storage_dtype(name))
    names = {"dst": "shape", "value": "value"}
    with Runner(fn, generation, strict, return_words, engine=eng) as run:
        width = min(_MAX_NUM, (run.partition_bytes() - _ALIGN) // size)
        blocks = -(-rows // _PARTITIONS)
        fits = run.layout(blocks * _tiles_bytes(cols, width, size))
        run.result_shape("out", (rows, cols), out.dtype)
        for r0 in range(0, rows, _PARTITIONS):
            r = min(_PARTITIONS, rows - r0)
            for c0 in range(0, cols, width):
                w = min(width, cols - c0)
                if fits or (r0 == 0 and c0 == 0):
                    dst_off = run.block(w * size)
                run.run(lower.memset(dtype=name, channels=r, set_value=bits, names=names,
                                     dst=_sbuf(0, dst_off, [w, 1, 1, 1], [1, 0, 0, 0])))
                out[r0 : r0 + r, c0 : c0 + w] = run.read(0, r, dst_off, w, name, "out",
                                                         into=("out", _parts(r0, r, c0, w)))
        return run.result(out.reshape(dims))


def _reduce_axes(fn, axis, ndim):
    """Return how many trailing dimensions of an ``ndim``-D array ``axis`` names (an int
    or a sequence of ints, negative ones counted from the end, the row dimension 0 never):
    they must be the last ones, without repeats."""
    axes = list(axis) if isinstance(axis, (list, tuple)) else [axis]
    if not axes or any(isinstance(a, (bool, np.bool_)) or not isinstance(a, (int, np.integer))
                       for a in axes):
        raise TypeError(f"{fn}: axis must be an int or a sequence of ints, got {axis!r}")
    norm = [int(a) + ndim if int(a) < 0 else int(a) for a in axes]
    if len(set(norm)) != len(norm):
        raise ValueError(f"{fn}: axis {axis!r} names a dimension twice")
    if sorted(norm) != list(range(ndim - len(norm), ndim)) or 0 in norm:
        raise ValueError(f"{fn}: axis {axis!r} must be the last dimensions of the "
                         f"{ndim}-D data (not the row dimension 0): -1, (-2, -1), ...")
    return len(norm)


def tensor_reduce(data: ArrayLike, op: Any, axis: Any = -1, *, negate: bool = False,
                  keepdims: bool = False, dtype: DtypeLike = None, in_dtype: DtypeLike = None,
                  generation: str = "v3", strict: bool = False,
                  return_words: bool = False) -> ArrayResult:
    """Return ``data`` reduced with ``op`` over its last dimensions ``axis``: NKI's
    ``nki.isa.tensor_reduce(dst, op, data, axis, negate, keepdims)`` without its ``dst``
    (whose dtype is ``dtype``), as TensorReduceArith (0x42) or, for a bitwise op,
    TensorReduceBitvec (0x52), SPEC §4.19, on the Vector engine.

    - ``data``: ``[rows, d1, ..., dn]`` (a row per partition, at most four more
      dimensions), any of the twelve data dtypes by the dtype rule.
    - ``op``: ADD, SUBTRACT, MULT, MAX, MIN, LOGICAL_AND/OR/XOR (in FP32: each element
      converted, each group folded left to right, one FP32 rounding per step, the result
      converted to ``dtype``; a logical reduction is 1 or 0) or BITWISE_AND/OR/XOR (the
      raw bits; ``dtype`` must then be ``data``'s integer dtype), by name, NKI operator or
      NumPy ufunc (``np.add``).
    - ``axis``: the last dimension (-1, the default) or the last few (``(-2, -1)``).
    - ``negate``: multiply each result by -1.0 (arithmetic ops).
    - ``keepdims``: keep the reduced dimensions with size 1.
    - ``dtype`` (keyword-only): the result's dtype, default ``data``'s.

    >>> import numpy as np, gpsimd
    >>> x = np.arange(12, dtype=np.float32).reshape(2, 2, 3)
    >>> gpsimd.tensor_reduce(x, "ADD")
    array([[ 3., 12.],
           [21., 30.]], dtype=float32)
    >>> gpsimd.tensor_reduce(x, np.maximum, (1, 2), negate=True, keepdims=True).shape
    (2, 1, 1)
    >>> gpsimd.tensor_reduce(np.array([[1e8, 1, -1e8]], np.float32), np.add)
    array([0.], dtype=float32)
    """
    fn = "tensor_reduce"
    a, din, dout = in_out(fn, "data", data, VALID_DTYPES, in_dtype, dtype)
    if a.ndim < 2 or a.ndim > 5:
        raise ValueError(f"{fn}: data must be [rows, d1, ..., dn] with 1 <= n <= 4, got shape "
                         f"{a.shape}")
    if a.size == 0:
        raise ValueError(f"{fn}: data is empty ({a.shape})")
    k = _reduce_axes(fn, axis, a.ndim)
    name = alu_op(fn, "op", op, din)
    rows = a.shape[0]
    free = list(a.shape[1:])
    kept = free[: len(free) - k]
    inner = free[::-1]  # innermost first
    steps = [int(np.prod(inner[:d])) for d in range(len(inner))]
    if max(inner) > _MAX_NUM or max(steps) > _MAX_STEP:
        raise ValueError(f"{fn}: a dimension of {a.shape} does not fit one walk (at most "
                         f"{_MAX_NUM} elements, dense steps up to {_MAX_STEP})")
    count = int(np.prod(free))
    groups = int(np.prod(kept)) if kept else 1
    isz, osz = dtype_size(din), dtype_size(dout)
    bits = _as_bits(a.reshape(rows, count), din)
    out = np.empty((rows, groups), dtype=storage_dtype(dout))
    names = {"dst": "dtype", "data": "data", "axis": "axis", "negate": "negate", "op": "op"}
    pad = [1] * (4 - len(inner))
    data_steps = [st if n > 1 else 0 for st, n in zip(steps, inner)] + [0] * len(pad)
    with Runner(fn, generation, strict, return_words) as run:
        need = _ceil(count * isz) + _ceil(groups * osz)
        if need > run.partition_bytes():
            raise ValueError(f"{fn}: a row of {count} {din} elements and its {groups} results "
                             f"do not fit one partition ({run.partition_bytes()} bytes)")
        blocks = -(-rows // _PARTITIONS)
        fits = run.layout(blocks * need)
        run.result_shape("out", (rows, groups), out.dtype)
        for r0 in range(0, rows, _PARTITIONS):
            r = min(_PARTITIONS, rows - r0)
            if fits or r0 == 0:
                src_off, dst_off = run.block(count * isz, groups * osz)
            run.load(0, src_off, bits[r0 : r0 + r], name="data")
            run.run(lower.tensor_reduce(
                op=name, in_dtype=din, out_dtype=dout, channels=r, dims=k,
                negate=bool(negate) and not is_bitvec_only(name), names=names,
                data=_sbuf(0, src_off, inner + pad, data_steps),
                dst=_sbuf(0, dst_off, [groups, 1, 1, 1], [1, 0, 0, 0])))
            out[r0 : r0 + r] = run.read(0, r, dst_off, groups, dout, "out",
                                        into=("out", _parts(r0, r)))
        shape = [rows] + kept + ([1] * k if keepdims else [])
        return run.result(out.reshape(shape))
