"""NumPy in, NumPy out: the ALU instructions (SPEC §3.8, §4.14, §4.15, §4.24) as functions.

:func:`tensor_tensor` is TensorTensorArith (0x41) / TensorTensorBitvec (0x51),
:func:`tensor_scalar` TensorScalarArith (0x43) / TensorScalarBitvec (0x53) and the
pointer forms 0x44 / 0x54, :func:`tensor_scalar_cumulative` TensorScalarCacheCumulative
(0xe6), with NKI's argument names, order and defaults (NKI's ``nki.isa.tensor_tensor``,
``nki.isa.tensor_scalar`` and ``nki.isa.tensor_scalar_cumulative`` without their ``dst``). Each
builds the real words, runs them on a scratch :class:`gpsimd.Machine` for the engine
given (SPEC §3.9) and reads the result back, so the result is the model's, bit for bit.

An ``op`` is an ALU_OP name of the table (``'ADD'``, ``'add'``, ``'max'``), NKI's
operator (``gpsimd.nki.language.add``, or its name ``'multiply'``) or a NumPy ufunc
that is one ALU op (:data:`UFUNC_OPS`); anything else is a TypeError. The opcode
(arithmetic or bitvec) follows from the ops' class in the model's ALU_OP table
(:func:`alu_ops`); which ops an opcode takes on a generation is the instruction's own
validation: an op it does not take raises :class:`gpsimd.InvalidInstruction` naming the
argument and listing the ops it takes.
"""

from __future__ import annotations

from typing import Any, Union

import numpy as np
from numpy.typing import ArrayLike

from . import _lower as lower
from ._api import ArrayResult, Runner, data_array, engine_arg, in_out
from ._operands import UFUNC_OPS, alu_op, alu_table, immediate
from .dtypes import dtype_size, storage_dtype
from .ops import _RESULT, VALID_DTYPES, _as_bits, _ceil, _parts, _ptr, _rows, _tiles_bytes

__all__ = ["tensor_tensor", "tensor_scalar", "tensor_scalar_cumulative", "tensor_tensor_scan",
           "scalar_tensor_tensor", "alu_ops", "UFUNC_OPS"]

DtypeLike = Any

_PARTITIONS = 128
_ALIGN = 64
_MAX_NUM = 65535  # num_elem is a uint16


def alu_ops() -> list[dict]:
    """Return the model's ALU_OP table (SPEC §3.8): one dict per op, in value order, with
    ``name``, ``code``, ``first_generation`` and the vendor's op-class predicates
    (``is_general_arith_op``, ``is_bitvec_op``, ``is_valid_int_aluop``, ...,
    ``unary``, ``unmodelled``).

    >>> row = next(r for r in alu_ops() if r["name"] == "ABS_MAX")
    >>> row["code"], row["first_generation"], row["is_general_arith_op"]
    (32, 4, True)
    """
    return [dict(r) for r in alu_table()]


def _describe(op: Any) -> str:
    return f"numpy.{op.__name__}" if isinstance(op, np.ufunc) else repr(op)


def _tensor(offset: int, n: int) -> dict:
    return {"space": "sbuf", "partition": 0, "offset": offset, "num": [n, 1, 1],
            "step": [1, 0, 0]}


def _width(pbytes: int, sizes: tuple, fixed: int = 0) -> int:
    """Return the widest column tile whose 64-aligned regions of these element sizes
    (and ``fixed`` bytes before them) fit a partition."""
    width = min(_MAX_NUM, max(1, (pbytes - fixed - len(sizes) * _ALIGN) // sum(sizes)))
    while width > 1 and fixed + sum(_ceil(width * s) for s in sizes) > pbytes:
        width -= 1
    return width


# ---- TensorTensor --------------------------------------------------------------------------


def _in_dtypes(func: str, in_dtype: Any) -> tuple:
    if not isinstance(in_dtype, (tuple, list)):
        return in_dtype, in_dtype
    if len(in_dtype) != 2:
        raise ValueError(f"{func}: in_dtype: expected one dtype (both inputs) or a pair "
                         f"(data1's, data2's), got {in_dtype!r}")
    return tuple(in_dtype)


def tensor_tensor(data1: ArrayLike, data2: ArrayLike, op: Any, engine: Any = None, *,
                  dtype: DtypeLike = None, in_dtype: DtypeLike = None, generation: str = "v3",
                  strict: bool = False, return_words: bool = False) -> ArrayResult:
    """Return ``op(data1, data2)`` element-wise: TensorTensorArith (0x41) or
    TensorTensorBitvec (0x51), SPEC §4.14 — NKI's ``nki.isa.tensor_tensor`` without its
    ``dst``, in its argument order (``dst``'s dtype is ``dtype=``).

    - ``data1``, ``data2``: arrays of one shape, ``[rows, ...]`` (row ``i`` a partition;
      trailing dimensions are the row in C order) or 1-D (one row). The NumPy type names
      the dtype (the one dtype rule); BF16/FP8 bits need ``in_dtype`` (one name for both,
      or a pair ``(data1's, data2's)``).
    - ``op``: an arithmetic op (0x41: ``is_general_arith_op``, POW and the
      ``is_valid_int_aluop`` ops) or a bitvec op (0x51: ``is_general_bitvec_op``) of the
      generation; an op of the bitvec class only makes the word 0x51, any other 0x41
      (BYPASS is arithmetic), and an op the opcode does not take raises
      :class:`gpsimd.InvalidInstruction` (``s3s3d3_tt_valid_op``). Arithmetic runs
      through FP32 (SPEC §3.8.1), but on ``engine='pool'`` with INT32/UINT32 data and
      result, and for the ``*_INT`` ops, on the native integer path; bitvec ops work on
      the bits (data and result of one integer dtype).
    - ``engine``: ``None`` (the opcode's default, ``dve``), ``'dve'``, ``'pool'``,
      ``'act'`` or NKI's ``'vector'``, ``'gpsimd'``, ``'scalar'`` or
      ``gpsimd.nki.isa.engine.*``. An op the engine does not run faults
      ``unsupported-op`` (:class:`gpsimd.Fault`).
    - ``dtype``: the result's dtype; default the inputs' (which must then agree).

    >>> import numpy as np, gpsimd
    >>> a = np.array([[1.5, -2.0, 3.0]], dtype=np.float32)
    >>> gpsimd.tensor_tensor(a, np.float32([[0.5, 0.5, -1.0]]), np.add)
    array([[ 2. , -1.5,  2. ]], dtype=float32)
    >>> x = np.array([16777217], dtype=np.uint32)
    >>> gpsimd.tensor_tensor(x, np.zeros(1, np.uint32), "add"), \\
    ...     gpsimd.tensor_tensor(x, np.zeros(1, np.uint32), "add", engine="gpsimd")
    (array([16777216], dtype=uint32), array([16777217], dtype=uint32))
    """
    fn = "tensor_tensor"
    eng = engine_arg(fn, engine)
    in1, in2 = _in_dtypes(fn, in_dtype)
    a, lo, out = in_out(fn, "data1", data1, VALID_DTYPES, in1, dtype)
    b, hi = data_array(fn, "data2", data2, VALID_DTYPES, in2, "in_dtype")
    if a.shape != b.shape:
        raise ValueError(f"tensor_tensor: data1 has shape {a.shape} and data2 {b.shape}; "
                         "they must have one shape (there is no broadcasting: "
                         "tensor_scalar takes one value per row)")
    if dtype is None and lo != hi:
        raise ValueError(f"tensor_tensor: data1 is {lo} and data2 {hi}: name the result's "
                         "dtype with dtype=")
    x1, _ = _rows(a, "tensor_tensor: data1")
    x2 = b.reshape(x1.shape)
    shape = a.shape
    rows, cols = x1.shape
    lsz, hsz, osz = dtype_size(lo), dtype_size(hi), dtype_size(out)
    if osz is None:
        raise ValueError(f"tensor_tensor: {out} has no byte size")
    name = alu_op(fn, "op", op, lo)
    with Runner(fn, generation, strict, return_words, eng) as run:
        src0, src1 = _as_bits(x1, lo), _as_bits(x2, hi)
        res = np.empty((rows, cols), dtype=storage_dtype(out))
        width = _width(run.partition_bytes(), (lsz, hsz, osz))
        blocks = -(-rows // _PARTITIONS)
        fits = run.layout(blocks * _tiles_bytes(cols, width, lsz, hsz, osz))
        run.result_shape("out", (rows, cols), res.dtype)
        for r0 in range(0, rows, _PARTITIONS):
            r = min(_PARTITIONS, rows - r0)
            for c0 in range(0, cols, width):
                w = min(width, cols - c0)
                if fits or (r0 == 0 and c0 == 0):
                    off0, off1, offd = run.block(w * lsz, w * hsz, w * osz)
                run.load(0, off0, src0[r0 : r0 + r, c0 : c0 + w], name="data1")
                run.load(0, off1, src1[r0 : r0 + r, c0 : c0 + w], name="data2")
                run.run(lower.tensor_tensor(
                    op=name, in_dtypes=(lo, hi), out_dtype=out, channels=r,
                    data1=_tensor(off0, w), data2=_tensor(off1, w), dst=_tensor(offd, w),
                    names=_RESULT))
                res[r0 : r0 + r, c0 : c0 + w] = run.read(0, r, offd, w, out, "out",
                                                         into=("out", _parts(r0, r, c0, w)))
        return run.result(res.reshape(shape))


# ---- TensorScalar --------------------------------------------------------------------------


def _is_scalar(value: Any) -> bool:
    return np.ndim(value) == 0


def _operand(func: str, arg: str, value: Any, rows: int, name: str, bitvec: bool):
    """Return ('imm', bits) for a scalar, or ('ptr', [rows, 1] bit array) for one value
    per row (read through a pointer: FP32 for arithmetic, the data's dtype for bitvec)."""
    if _is_scalar(value):
        return "imm", immediate(func, arg, value, name, bitvec)
    want = name if bitvec else "FP32"
    if bitvec and isinstance(value, np.ndarray):
        st = storage_dtype(name)
        if value.dtype.newbyteorder("=") not in (st, np.dtype(f"u{st.itemsize}")):
            raise TypeError(f"{func}: {arg} is {value.dtype}; a bitvec op reads one {name} "
                            f"per row (the data's dtype): pass {st} values")
    col, _ = data_array(func, arg, value, (want,), want if bitvec else None, "in_dtype")
    if col.shape not in ((rows,), (rows, 1)):
        raise ValueError(f"{func}: {arg}: expected a number or one value per row, shape "
                         f"({rows}, 1) or ({rows},), got shape {col.shape}")
    return "ptr", _as_bits(col.reshape(rows, 1), want)


def tensor_scalar(data: ArrayLike, op0: Any, operand0: Union[float, ArrayLike],
                  reverse0: bool = False, op1: Any = None,
                  operand1: Union[float, ArrayLike, None] = None, reverse1: bool = False,
                  engine: Any = None, *, dtype: DtypeLike = None, in_dtype: DtypeLike = None,
                  generation: str = "v3", strict: bool = False,
                  return_words: bool = False) -> ArrayResult:
    """Return ``(data op0 operand0) op1 operand1``: TensorScalarArith (0x43) /
    TensorScalarBitvec (0x53), or the pointer forms 0x44 / 0x54 when both operands are
    per-row columns, SPEC §4.15 — NKI's ``nki.isa.tensor_scalar`` without its ``dst``,
    in its argument order and with its defaults.

    - ``data``: ``[rows, ...]`` (row ``i`` a partition) or 1-D (one row), by the one dtype
      rule (BF16/FP8 bits with ``in_dtype``).
    - ``op0``, ``op1``: ops of one class — both arithmetic (``is_general_arith_op``: FP32
      arithmetic, whatever the data's dtype) or both bitvec (``is_bitvec_op``: the bits
      of an integer dtype, result of the data's dtype); BYPASS goes with either. An op of
      the bitvec class only makes the word bitvec; ops of two classes, or ops the opcode
      does not take, raise :class:`gpsimd.InvalidInstruction` (``tensor_scalar_valid_ops``).
      ``op1=None`` (with ``operand1=None``) is one op (op1 BYPASS).
    - ``operand0``, ``operand1``: a number (an immediate: FP32 for arithmetic, an integer
      of the data's dtype for bitvec) or one value per row, shape ``(rows, 1)`` or
      ``(rows,)`` (float32 for arithmetic, the data's dtype for bitvec), placed in SBUF
      and read through a pointer.
    - ``reverse0``: ``operand0 op0 x`` instead of ``x op0 operand0``; ``reverse1``:
      ``operand1 op1 t``.
    - ``engine``: as for :func:`tensor_tensor`; only ``dve`` (the default) runs
      TensorScalar, the other engines fault ``unsupported-op``.
    - ``dtype``: the result's dtype; default the data's.

    >>> import numpy as np, gpsimd
    >>> x = np.array([[1.0, 2.0, 4.0], [3.0, 0.5, -1.0]], dtype=np.float32)
    >>> gpsimd.tensor_scalar(x, np.subtract, 1.0, reverse0=True)       # 1 - x
    array([[ 0. , -1. , -3. ],
           [-2. ,  0.5,  2. ]], dtype=float32)
    >>> gpsimd.tensor_scalar(x, "mult", np.float32([[2], [10]]), op1="add", operand1=0.5)
    array([[ 2.5,  4.5,  8.5],
           [30.5,  5.5, -9.5]], dtype=float32)
    >>> gpsimd.tensor_scalar(np.int32([0x1234]), np.bitwise_and, 0xFF, op1=np.left_shift,
    ...                      operand1=4)
    array([832], dtype=int32)
    """
    fn = "tensor_scalar"
    eng = engine_arg(fn, engine)
    a, din, dout = in_out(fn, "data", data, VALID_DTYPES, in_dtype, dtype)
    x2, _ = _rows(a, "tensor_scalar: data")
    shape = a.shape
    rows, cols = x2.shape
    isz, osz = dtype_size(din), dtype_size(dout)
    if osz is None:
        raise ValueError(f"tensor_scalar: {dout} has no byte size")
    if op1 is None and operand1 is not None:
        raise ValueError("tensor_scalar: operand1 is given but op1 is None; NKI's rule: op1 "
                         "and operand1 are both None when unused")
    if op1 is not None and operand1 is None:
        raise ValueError(f"tensor_scalar: op1 is {_describe(op1)} but operand1 is None; give "
                         "operand1 (a number or one value per row)")
    name0 = alu_op(fn, "op0", op0, din)
    name1 = "BYPASS" if op1 is None else alu_op(fn, "op1", op1, din)
    bitvec_op = lower.tensor_scalar_bitvec(name0, name1)
    with Runner(fn, generation, strict, return_words, eng) as run:
        kind0, v0 = _operand(fn, "operand0", operand0, rows, din, bitvec_op)
        kind1, v1 = ("imm", 0) if operand1 is None else _operand(fn, "operand1", operand1,
                                                                  rows, din, bitvec_op)
        src = _as_bits(x2, din)
        res = np.empty((rows, cols), dtype=storage_dtype(dout))
        width = _width(run.partition_bytes(), (isz, osz), _ALIGN)
        blocks = -(-rows // _PARTITIONS)
        fits = run.layout(blocks * (_ALIGN + _tiles_bytes(cols, width, isz, osz)))
        run.result_shape("out", (rows, cols), res.dtype)
        for r0 in range(0, rows, _PARTITIONS):
            r = min(_PARTITIONS, rows - r0)
            if fits or r0 == 0:
                imm_off = run.block(8)  # operand0's column at +0, operand1's at +4
            operands = []
            for i, (kind, v) in enumerate(((kind0, v0), (kind1, v1))):
                if kind == "ptr":
                    run.load(0, imm_off + 4 * i, v[r0 : r0 + r], name=f"operand{i}")
                    v = _ptr(imm_off + 4 * i)
                operands.append(v)
            for c0 in range(0, cols, width):
                w = min(width, cols - c0)
                if fits or (r0 == 0 and c0 == 0):
                    src_off, dst_off = run.block(w * isz, w * osz)
                run.load(0, src_off, src[r0 : r0 + r, c0 : c0 + w], name="data")
                run.run(lower.tensor_scalar(
                    op0=name0, op1=name1, in_dtype=din, out_dtype=dout, channels=r,
                    data=_tensor(src_off, w), dst=_tensor(dst_off, w), operand0=operands[0],
                    operand1=operands[1], reverse0=reverse0, reverse1=reverse1,
                    names=_RESULT))
                res[r0 : r0 + r, c0 : c0 + w] = run.read(0, r, dst_off, w, dout, "out",
                                                         into=("out", _parts(r0, r, c0, w)))
        return run.result(res.reshape(shape))


# ---- TensorTensorScan (SPEC §4.20) and ScalarTensorTensorArith (§4.21) ---------------------


def _tensor2(offset: int, n: int) -> dict:
    return {"space": "sbuf", "partition": 0, "offset": offset, "num": [n, 1], "step": [1, 0]}


def _stt(fn: str, data0: ArrayLike, data1: ArrayLike, imm: Any, op0: Any, op1: Any,
         reverse0: bool, reverse1: bool, dtype: DtypeLike, in_dtype: DtypeLike,
         generation: str, strict: bool, return_words: bool, scan: bool) -> ArrayResult:
    """The two NumPy faces of S2S2D2_STT with FP32 arithmetic: one word per block of 128
    rows, each row whole (a scan does not restart within a row)."""
    names = ("data0", "data1", "initial") if scan else ("data", "operand1", "operand0")
    in0, in1 = _in_dtypes(fn, in_dtype)
    a, lo, out = in_out(fn, names[0], data0, VALID_DTYPES, in0, dtype)
    b, hi = data_array(fn, names[1], data1, VALID_DTYPES, in1, "in_dtype")
    if a.shape != b.shape:
        raise ValueError(f"{fn}: {names[0]} has shape {a.shape} and {names[1]} {b.shape}; "
                         "they must have one shape")
    x0, _ = _rows(a, f"{fn}: {names[0]}")
    x1 = b.reshape(x0.shape)
    shape = a.shape
    rows, cols = x0.shape
    lsz, hsz, osz = dtype_size(lo), dtype_size(hi), dtype_size(out)
    if osz is None:
        raise ValueError(f"{fn}: {out} has no byte size")
    name0, name1 = alu_op(fn, "op0", op0, lo), alu_op(fn, "op1", op1, lo)
    with Runner(fn, generation, strict, return_words) as run:
        kind, v = _operand(fn, names[2], imm, rows, lo, False)
        if _width(run.partition_bytes(), (lsz, hsz, osz), _ALIGN) < cols:
            raise ValueError(f"{fn}: a row of {cols} elements does not fit one SBUF partition "
                             f"on {generation} with its operands; pass shorter rows")
        src0, src1 = _as_bits(x0, lo), _as_bits(x1, hi)
        res = np.empty((rows, cols), dtype=storage_dtype(out))
        blocks = -(-rows // _PARTITIONS)
        fits = run.layout(blocks * (_ALIGN + _tiles_bytes(cols, cols, lsz, hsz, osz)))
        run.result_shape("out", (rows, cols), res.dtype)
        for r0 in range(0, rows, _PARTITIONS):
            r = min(_PARTITIONS, rows - r0)
            if fits or r0 == 0:
                imm_off = run.block(4)
                off0, off1, offd = run.block(cols * lsz, cols * hsz, cols * osz)
            if kind == "ptr":
                run.load(0, imm_off, v[r0 : r0 + r], name=names[2])
                operand = _ptr(imm_off)
            else:
                operand = np.uint32(v).view(np.float32)
            run.load(0, off0, src0[r0 : r0 + r], name=names[0])
            run.load(0, off1, src1[r0 : r0 + r], name=names[1])
            common = dict(op0=name0, op1=name1, in_dtypes=(lo, hi), out_dtype=out, channels=r,
                          dst=_tensor2(offd, cols), reverse0=reverse0, reverse1=reverse1,
                          names=_RESULT)
            if scan:
                word = lower.tensor_tensor_scan(data0=_tensor2(off0, cols),
                                                data1=_tensor2(off1, cols), initial=operand,
                                                **common)
            else:
                word = lower.scalar_tensor_tensor(data=_tensor2(off0, cols),
                                                  operand1=_tensor2(off1, cols),
                                                  operand0=operand, **common)
            run.run(word)
            res[r0 : r0 + r] = run.read(0, r, offd, cols, out, "out",
                                        into=("out", _parts(r0, r)))
        return run.result(res.reshape(shape))


def tensor_tensor_scan(data0: ArrayLike, data1: ArrayLike, initial: Union[float, ArrayLike],
                       op0: Any, op1: Any, reverse0: bool = False, reverse1: bool = False, *,
                       dtype: DtypeLike = None, in_dtype: DtypeLike = None,
                       generation: str = "v3", strict: bool = False,
                       return_words: bool = False) -> ArrayResult:
    """Return the scan ``r[j] = (data0[j] op0 r[j-1]) op1 data1[j]`` along each row,
    ``r[-1] = initial``: TensorTensorScan (0xe5), SPEC §4.20 — NKI's
    ``nki.isa.tensor_tensor_scan`` without its ``dst``.

    ``data0``, ``data1``: arrays of one shape, ``[rows, ...]`` (each row one scan, over
    its trailing dimensions in C order) or 1-D; ``initial`` a number or one float32 value
    per row; ``op0``, ``op1`` arithmetic ops, computed in FP32 (the carry stays FP32);
    ``reverse0`` makes ``data0`` the right operand of ``op0``, ``reverse1`` makes
    ``data1`` the left operand of ``op1``; ``dtype`` the result's (default data0's).

    >>> import numpy as np, gpsimd
    >>> gpsimd.tensor_tensor_scan(np.ones(4, np.float32), np.float32([1, 2, 3, 4]), 0.0,
    ...                           "mult", "add")
    array([ 1.,  3.,  6., 10.], dtype=float32)
    """
    return _stt("tensor_tensor_scan", data0, data1, initial, op0, op1, reverse0, reverse1,
                dtype, in_dtype, generation, strict, return_words, True)


def scalar_tensor_tensor(data: ArrayLike, op0: Any, operand0: Union[float, ArrayLike], op1: Any,
                         operand1: ArrayLike, reverse0: bool = False, reverse1: bool = False, *,
                         dtype: DtypeLike = None, in_dtype: DtypeLike = None,
                         generation: str = "v3", strict: bool = False,
                         return_words: bool = False) -> ArrayResult:
    """Return ``(data op0 operand0) op1 operand1``: ScalarTensorTensorArith (0x9d), SPEC
    §4.21 — NKI's ``nki.isa.scalar_tensor_tensor`` without its ``dst``.

    ``operand0`` a number or one float32 value per row; ``operand1`` an array of
    ``data``'s shape; arithmetic ops in FP32 (bitvec ops make the word 0x9e, which faults
    ``unsupported-op``); ``reverse0``: ``operand0 op0 data``; ``reverse1``: ``operand1
    op1 t``.

    >>> import numpy as np, gpsimd
    >>> gpsimd.scalar_tensor_tensor(np.float32([2, -3]), "subtract", 5.0, "subtract",
    ...                             np.float32([10, 20]), reverse0=True)
    array([ -7., -12.], dtype=float32)
    """
    return _stt("scalar_tensor_tensor", data, operand1, operand0, op0, op1, reverse0, reverse1,
                dtype, in_dtype, generation, strict, return_words, False)


# ---- TensorScalarCacheCumulative -----------------------------------------------------------

_CUMULATIVE_CMDS = {"reset_reduce": "ZERO_ACCUMULATE", "load_reduce": "LOAD_ACCUMULATE",
                    "zero_accumulate": "ZERO_ACCUMULATE", "load_accumulate": "LOAD_ACCUMULATE"}


def tensor_scalar_cumulative(src: ArrayLike, op0: Any, op1: Any, imm0: Union[float, ArrayLike],
                             imm1: Union[float, ArrayLike, None] = None,
                             reduce_cmd: Any = "reset_reduce", *, dtype: DtypeLike = None,
                             in_dtype: DtypeLike = None, generation: str = "v3",
                             strict: bool = False, return_words: bool = False) -> ArrayResult:
    """Return the running value ``reg = op1(op0(x, imm0), reg)`` at every element of each
    row: TensorScalarCacheCumulative (0xe6), SPEC §4.24 — NKI's
    ``nki.isa.tensor_scalar_cumulative`` without its ``dst``.

    Each row runs over its elements in order on the FP32 path (SPEC §3.8), the element on
    ``op1``'s left, the carried value FP32 (the result converted to ``dtype`` element by
    element). A row longer than one word's walk continues in the next word from the
    accumulator (ACCUMULATE), which carries the FP32 value.

    - ``src``: ``[rows, ...]`` or 1-D (one row), not INT32/UINT32 (BF16/FP8 bits with
      ``in_dtype``).
    - ``op0``: an arithmetic op (``is_general_arith_op``); ``op1``: ADD, SUBTRACT, MULT,
      MAX or MIN (NKI's ``nl.add``, ..., NumPy's ufuncs or ALU_OP names).
    - ``imm0``, ``imm1``: a number (an FP32 immediate) or one value per row, shape
      ``(rows, 1)`` or ``(rows,)``, read through a pointer.
    - ``reduce_cmd``: ``'reset_reduce'`` (the default: from ``op1``'s identity) or
      ``'load_reduce'`` (from ``imm1``), or ``gpsimd.nki.isa.reduce_cmd``'s members;
      ``imm1`` is used by ``load_reduce`` only.
    - ``dtype``: the result's dtype (not INT32/UINT32: unsupported-op); default the
      source's.

    >>> import numpy as np, gpsimd
    >>> x = np.array([[1, 2, 3, 4], [1, 1, 1, 1]], dtype=np.float32)
    >>> gpsimd.tensor_scalar_cumulative(x, "add", "add", 0.0)
    array([[ 1.,  3.,  6., 10.],
           [ 1.,  2.,  3.,  4.]], dtype=float32)
    >>> gpsimd.tensor_scalar_cumulative(x, "mult", "max", 2.0, 5.0, "load_reduce")
    array([[5., 5., 6., 8.],
           [5., 5., 5., 5.]], dtype=float32)
    """
    fn = "tensor_scalar_cumulative"
    cmd_name = getattr(reduce_cmd, "name", reduce_cmd)
    cmd = _CUMULATIVE_CMDS.get(str(cmd_name).lower()) if isinstance(cmd_name, str) else None
    if cmd is None:
        raise ValueError(f"{fn}: reduce_cmd={reduce_cmd!r}: expected 'reset_reduce' or "
                         "'load_reduce' (reduce continues from an earlier word's accumulators, "
                         "which a call on a fresh machine does not have)")
    if cmd == "LOAD_ACCUMULATE" and imm1 is None:
        raise ValueError(f"{fn}: imm1 is None but reduce_cmd is load_reduce, which starts from "
                         "imm1: give a number or one value per row")
    a, din, dout = in_out(fn, "src", src, VALID_DTYPES, in_dtype, dtype)
    x2, _ = _rows(a, f"{fn}: src")
    shape = a.shape
    rows, cols = x2.shape
    isz, osz = dtype_size(din), dtype_size(dout)
    name0 = alu_op(fn, "op0", op0, din)
    name1 = alu_op(fn, "op1", op1, din)
    with Runner(fn, generation, strict, return_words) as run:
        kind0, v0 = _operand(fn, "imm0", imm0, rows, din, False)
        kind1, v1 = (_operand(fn, "imm1", imm1, rows, din, False) if cmd == "LOAD_ACCUMULATE"
                     else ("imm", 0))
        data = _as_bits(x2, din)
        res = np.empty((rows, cols), dtype=storage_dtype(dout))
        width = _width(run.partition_bytes(), (isz, osz), _ALIGN)
        blocks = -(-rows // _PARTITIONS)
        fits = run.layout(blocks * (_ALIGN + _tiles_bytes(cols, width, isz, osz)))
        run.result_shape("out", (rows, cols), res.dtype)
        for r0 in range(0, rows, _PARTITIONS):
            r = min(_PARTITIONS, rows - r0)
            if fits or r0 == 0:
                imm_off = run.block(8)  # imm0's column at +0, imm1's at +4
            imms = []
            for i, (kind, v) in enumerate(((kind0, v0), (kind1, v1))):
                if kind == "ptr":
                    run.load(0, imm_off + 4 * i, v[r0 : r0 + r], name=f"imm{i}")
                    v = _ptr(imm_off + 4 * i)
                imms.append(v)
            for c0 in range(0, cols, width):
                w = min(width, cols - c0)
                if fits or (r0 == 0 and c0 == 0):
                    src_off, dst_off = run.block(w * isz, w * osz)
                run.load(0, src_off, data[r0 : r0 + r, c0 : c0 + w], name="src")
                # The row's first word seeds the running value; the next ones continue it.
                run.run(lower.tensor_scalar_cumulative(
                    op0=name0, op1=name1, in_dtype=din, out_dtype=dout, channels=r,
                    src=_tensor(src_off, w), dst=_tensor(dst_off, w), imm0=imms[0],
                    imm1=imms[1], reduce_cmd=cmd if c0 == 0 else "ACCUMULATE", names=_RESULT))
                res[r0 : r0 + r, c0 : c0 + w] = run.read(0, r, dst_off, w, dout, "out",
                                                         into=("out", _parts(r0, r, c0, w)))
        return run.result(res.reshape(shape))
