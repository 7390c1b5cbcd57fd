"""NumPy in, NumPy out: the ALU instructions (SPEC §3.8, §4.14, §4.15) as functions.

:func:`tensor_tensor` is TensorTensorArith (0x41) / TensorTensorBitvec (0x51),
:func:`tensor_scalar` TensorScalarArith (0x43) / TensorScalarBitvec (0x53) and the
pointer forms 0x44 / 0x54, with NKI's argument names, order and defaults (NKI's
``nki.isa.tensor_tensor`` and ``nki.isa.tensor_scalar`` without their ``dst``). Each
builds the real words, runs them on a scratch :class:`gpsimd.Machine` for the engine
given (SPEC §3.9) and reads the result back, so the result is the model's, bit for bit.

An ``op`` is an ALU_OP name of the table (``'ADD'``, ``'add'``, ``'max'``), NKI's
operator (``gpsimd.nki.language.add``, or its name ``'multiply'``) or a NumPy ufunc
that is one ALU op (:data:`UFUNC_OPS`). The op set comes from the model's ALU_OP table
(:func:`alu_ops`); the opcode (arithmetic or bitvec) follows from the op.
"""

from __future__ import annotations

from typing import Any, Union

import numpy as np
from numpy.typing import ArrayLike

from . import _core
from ._api import ArrayResult, Runner, data_array, engine_arg, in_out
from .codec import encode
from .dtypes import dtype_size, storage_dtype
from .ops import VALID_DTYPES, _as_bits, _ceil, _parts, _ptr, _rows, _tiles_bytes

__all__ = ["tensor_tensor", "tensor_scalar", "alu_ops", "UFUNC_OPS"]

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
    return [dict(r) for r in _TABLE]


_TABLE = tuple(_core.alu_ops())
_BY_NAME = {r["name"]: r for r in _TABLE}

#: The NumPy ufuncs that are one ALU op, and which (``numpy.right_shift`` is
#: ARITH_SHIFT_RIGHT on signed integers and LOGICAL_SHIFT_RIGHT on the others, as NumPy
#: shifts; ``numpy.maximum``/``fmax`` are MAX, whose NaN rule is maxNum's, SPEC §3.8.2).
UFUNC_OPS = {
    np.add: "ADD",
    np.subtract: "SUBTRACT",
    np.multiply: "MULT",
    np.divide: "DIVIDE",
    np.power: "POW",
    np.maximum: "MAX",
    np.fmax: "MAX",
    np.minimum: "MIN",
    np.fmin: "MIN",
    np.absolute: "ABSOLUTE_VALUE",
    np.square: "SQUARE",
    np.bitwise_and: "BITWISE_AND",
    np.bitwise_or: "BITWISE_OR",
    np.bitwise_xor: "BITWISE_XOR",
    np.invert: "BITWISE_NOT",
    np.left_shift: "LOGICAL_SHIFT_LEFT",
    np.right_shift: None,  # by the dtype: see above
    np.equal: "IS_EQ",
    np.not_equal: "IS_NE",
    np.greater: "IS_GT",
    np.greater_equal: "IS_GE",
    np.less: "IS_LT",
    np.less_equal: "IS_LE",
    np.logical_and: "LOGICAL_AND",
    np.logical_or: "LOGICAL_OR",
    np.logical_xor: "LOGICAL_XOR",
}
_SIGNED = ("INT8", "INT16", "INT32", "INT64")


def _gen_number(generation: str) -> int:
    return int(generation[1:])


def _nl_operators() -> dict:
    from .nki import language as nl

    return {name: getattr(nl, name) for name in dir(nl)
            if getattr(getattr(nl, name), "is_nki_op", False) is True
            and not isinstance(getattr(nl, name), type)}


def _describe(op: Any) -> str:
    if isinstance(op, np.ufunc):
        return f"numpy.{op.__name__}"
    if getattr(op, "is_nki_op", False):
        return repr(op)
    return repr(op)


def _resolve(func: str, arg: str, op: Any, data_dtype: str, allowed: list[str]) -> str:
    """Return the ALU_OP name of an op argument, or raise TypeError naming it and what
    ``func`` takes (``allowed``, from the table)."""
    takes = f"{func} takes {', '.join(allowed)} (ALU_OP names, any case; NKI's nl.* " \
            "operators and names; the NumPy ufuncs of gpsimd.alu.UFUNC_OPS)"
    name = None
    if isinstance(op, np.ufunc):
        if op not in UFUNC_OPS:
            raise TypeError(f"{func}: {arg}: numpy.{op.__name__} is no ALU op; {takes}")
        name = UFUNC_OPS[op]
        if name is None:  # numpy.right_shift: NumPy's shift of this dtype
            name = "ARITH_SHIFT_RIGHT" if data_dtype in _SIGNED else "LOGICAL_SHIFT_RIGHT"
    elif getattr(op, "is_nki_op", False) is True:
        name = op.tensor_op
        if name is None:
            raise TypeError(f"{func}: {arg}: {op!r} is no ALU op; {takes}")
    elif isinstance(op, str):
        text = op.strip()
        if text.upper() in _BY_NAME:
            name = text.upper()
        else:
            nl_op = _nl_operators().get(text)
            if nl_op is None or nl_op.tensor_op is None:
                raise TypeError(f"{func}: {arg}: {op!r} is no ALU op; {takes}")
            name = nl_op.tensor_op
    else:
        raise TypeError(f"{func}: {arg}: expected an op (an ALU_OP name such as 'ADD', "
                        f"nl.add or numpy.add), got {op!r}")
    if name not in allowed:
        via = "" if isinstance(op, str) and op.strip().upper() == name else f" (ALU_OP {name})"
        raise TypeError(f"{func}: {arg}: {_describe(op)}{via} is not an op {func} takes; "
                        f"{takes}")
    return name


def _names(generation: str, *predicates: str, extra: tuple = ()) -> list[str]:
    """Return the ALU_OP names, in value order, that are enumerators on the generation
    and satisfy one of the predicates (or are in ``extra``)."""
    g = _gen_number(generation)
    return [r["name"] for r in _TABLE if r["first_generation"] <= g
            and (any(r[p] for p in predicates) or r["name"] in extra)]


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


def tensor_tensor_op(func: str, op: Any, data_dtype: str, generation: str) -> tuple:
    """Return ``(ALU_OP name, mnemonic)`` of TensorTensor's ``op`` on the generation:
    TensorTensorArith for the arithmetic ops (``is_general_arith_op``, POW, the
    ``is_valid_int_aluop`` ops), TensorTensorBitvec for the other ``is_general_bitvec_op``
    ones; a TypeError naming ``func`` and the ops it takes otherwise. ``data_dtype``
    (data1's) picks ``numpy.right_shift``'s shift."""
    arith = _names(generation, "is_general_arith_op", "is_valid_int_aluop", extra=("POW",))
    bitvec = [n for n in _names(generation, "is_general_bitvec_op") if n not in arith]
    name = _resolve(func, "op", op, data_dtype, arith + bitvec)
    return name, "TensorTensorBitvec" if name in bitvec else "TensorTensorArith"


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
      generation; BYPASS is arithmetic. Arithmetic runs through FP32 (SPEC §3.8.1), but on
      ``engine='pool'`` with INT32/UINT32 data and result, and for the ``*_INT`` ops, on
      the native integer path; bitvec ops work on the bits (data and result of one
      integer dtype).
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
    with Runner(fn, generation, strict, return_words, eng) as run:
        name, instruction = tensor_tensor_op(fn, op, lo, run.machine.generation)
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
                run.run(encode(
                    instruction,
                    num_active_channels=r,
                    in0_in1_dtype=(lo, hi),
                    out_dtype=out,
                    op=name,
                    src0_mem_pattern=_tensor(off0, w),
                    src1_mem_pattern=_tensor(off1, w),
                    dst_mem_pattern=_tensor(offd, w),
                ))
                res[r0 : r0 + r, c0 : c0 + w] = run.read(0, r, offd, w, out, "out",
                                                         into=("out", _parts(r0, r, c0, w)))
        return run.result(res.reshape(shape))


# ---- TensorScalar --------------------------------------------------------------------------


def _is_scalar(value: Any) -> bool:
    return np.ndim(value) == 0


def _fp32_immediate(func: str, arg: str, value: Any) -> int:
    """Return the FP32 bits of an arithmetic immediate (SPEC §4.15: FP32)."""
    v = value[()] if isinstance(value, np.ndarray) else value  # a 0-d array: its scalar
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.integer,
                                                             np.floating)):
        raise TypeError(f"{func}: {arg}: expected a number (an FP32 immediate) or one value "
                        f"per row, got {value!r}")
    if isinstance(v, np.float32):
        return int(np.asarray(v).view(np.uint32))
    if isinstance(v, (int, np.integer)):
        with np.errstate(over="ignore"):
            f = np.float32(float(int(v))) if abs(int(v)) < 2**128 else np.float32(np.inf)
        if not np.isfinite(f) or int(f) != int(v):
            raise ValueError(f"{func}: {arg}: the integer {int(v)} is not exact in FP32 (the "
                             "immediates of the arithmetic opcodes are FP32); pass a float")
        return int(np.asarray(f).view(np.uint32))
    with np.errstate(over="ignore"):
        return int(np.asarray(np.float32(v)).view(np.uint32))


def _bits_immediate(func: str, arg: str, value: Any, name: str) -> int:
    """Return the bit pattern of a bitvec immediate: an integer of the data's dtype."""
    st = storage_dtype(name)
    u = np.dtype(f"<u{st.itemsize}")
    v = np.asarray(value)
    if v.dtype.newbyteorder("=") == st.newbyteorder("="):
        return int(v.astype(st).view(u))
    if isinstance(value, (bool, np.bool_)) or v.dtype.kind not in "iu":
        raise TypeError(f"{func}: {arg}: the bitvec ops take an integer of the data's dtype "
                        f"{name}, got {value!r}")
    # A float dtype has no bitvec ops (the instruction's tensor_scalar_valid_types says
    # so); its immediate is then read as bits of the width.
    info = np.iinfo(st if st.kind in "iu" else u)
    if not info.min <= int(v) <= info.max:
        raise ValueError(f"{func}: {arg}: {int(v)} does not fit the data's dtype {name} "
                         f"[{info.min}, {info.max}]")
    return int(np.asarray(int(v), dtype=st).view(u))


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


def tensor_scalar_ops(func: str, op0: Any, op1: Any, data_dtype: str, generation: str) -> tuple:
    """Return ``(op0 name, op1 name, bitvec)`` of TensorScalar's two ops on the generation
    (``op1=None`` is BYPASS): both arithmetic (``is_general_arith_op``, RSQRT; on V5 the
    ``is_valid_int_aluop_dve`` ops) or both bitvec (``is_bitvec_op``), BYPASS going with
    either; a TypeError naming ``func`` and the ops it takes otherwise. ``bitvec`` is True
    for 0x53/0x54."""
    gen = generation
    arith = _names(gen, "is_general_arith_op", extra=("RSQRT",))
    if gen == "v5":
        arith += [n for n in _names(gen, "is_valid_int_aluop_dve") if n not in arith]
    bitvec = _names(gen, "is_bitvec_op")
    allowed = arith + [n for n in bitvec if n not in arith]
    name0 = _resolve(func, "op0", op0, data_dtype, allowed)
    name1 = "BYPASS" if op1 is None else _resolve(func, "op1", op1, data_dtype, allowed)
    kinds = {n: ("bitvec" if n not in arith else "arithmetic" if n not in bitvec
                 else "either") for n in (name0, name1)}
    if {kinds[name0], kinds[name1]} == {"bitvec", "arithmetic"}:
        raise TypeError(
            f"{func}: op0 {name0} is {kinds[name0]} and op1 {name1} "
            f"{kinds[name1]}; TensorScalar's two ops are both arithmetic (0x43/0x44) or "
            "both bitvec (0x53/0x54), NKI's rule too")
    bitvec_op = "bitvec" in kinds.values()
    return name0, name1, bitvec_op


def immediate(func: str, arg: str, value: Any, data_dtype: str, bitvec: bool) -> int:
    """Return the IMM_VAL bits of a number operand: an FP32 for the arithmetic opcodes, an
    integer of the data's dtype for the bitvec ones (SPEC §4.15)."""
    return _bits_immediate(func, arg, value, data_dtype) if bitvec \
        else _fp32_immediate(func, arg, value)


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
      of an integer dtype, result of the data's dtype); BYPASS goes with either.
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
    with Runner(fn, generation, strict, return_words, eng) as run:
        name0, name1, bitvec_op = tensor_scalar_ops(fn, op0, op1, din, run.machine.generation)
        kind0, v0 = _operand(fn, "operand0", operand0, rows, din, bitvec_op)
        kind1, v1 = ("imm", 0) if operand1 is None else _operand(fn, "operand1", operand1,
                                                                  rows, din, bitvec_op)
        pointer_form = kind0 == kind1 == "ptr"
        instruction = ("TensorScalarPtr" if pointer_form else "TensorScalar") + (
            "Bitvec" if bitvec_op else "Arith")
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
            fields = {}
            for i, (kind, v) in enumerate(((kind0, v0), (kind1, v1))):
                if kind == "ptr":
                    run.load(0, imm_off + 4 * i, v[r0 : r0 + r], name=f"operand{i}")
                    fields[f"imm{i}"] = _ptr(imm_off + 4 * i)
                    if not pointer_form:
                        fields[f"imm{i}_src"] = "POINTER_IMMEDIATE"
                else:
                    fields[f"imm{i}"] = v
            for c0 in range(0, cols, width):
                w = min(width, cols - c0)
                if fits or (r0 == 0 and c0 == 0):
                    src_off, dst_off = run.block(w * isz, w * osz)
                run.load(0, src_off, src[r0 : r0 + r, c0 : c0 + w], name="data")
                run.run(encode(
                    instruction,
                    num_active_channels=r,
                    in_dtype=din,
                    out_dtype=dout,
                    op0=name0,
                    op1=name1,
                    reverse_operands=int(bool(reverse0)) | 2 * int(bool(reverse1)),
                    src_mem_pattern=_tensor(src_off, w),
                    dst_mem_pattern=_tensor(dst_off, w),
                    **fields,
                ))
                res[r0 : r0 + r, c0 : c0 + w] = run.read(0, r, dst_off, w, dout, "out",
                                                         into=("out", _parts(r0, r, c0, w)))
        return run.result(res.reshape(shape))

