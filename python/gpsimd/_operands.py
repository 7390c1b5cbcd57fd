"""What both faces take as an instruction's operands, turned into field values once.

The NumPy face (:mod:`gpsimd.alu`, :mod:`gpsimd.ops`, ...) and the NKI face
(:mod:`gpsimd.nki.isa`) accept the same spellings of an op, a comparison, a ramp pattern
or a number; this module reads them into what a word field holds (an ALU_OP name, an
AFFINE_SELECT_CMP name, a DATA4D ramp, the bits of an immediate). It knows how a value
is written, never which values an instruction allows: that is the C++ validation's
(SPEC §6), whose clauses :mod:`gpsimd._lower` names by the caller's arguments.

Every error is a TypeError or ValueError ``"<function>: <argument>: <reason>"``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _core
from ._api import field_int
from .dtypes import FLOAT_DTYPES, storage_dtype
from .formats import narrow

__all__ = ["UFUNC_OPS", "alu_op", "alu_table", "is_bitvec_only", "comparison", "affine_cmp",
           "data4d", "wrap_int32", "fp32_immediate", "bits_immediate", "immediate",
           "scalar_bits", "memset_bits", "NEG_FLT_MAX"]

#: RangeSelect's only fill value (0xff7fffff).
NEG_FLT_MAX = np.float32(np.finfo(np.float32).min)

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
_TAKES = ("an ALU_OP name (any case; gpsimd.alu.alu_ops() lists them), one of NKI's nl.* "
          "operators or its name, or a NumPy ufunc of gpsimd.alu.UFUNC_OPS")


def alu_table() -> tuple:
    """Return the model's ALU_OP table (SPEC §3.8), one dict per op in value order."""
    return _TABLE


def is_bitvec_only(name: str) -> bool:
    """Return True for an ALU_OP of the bitvec class only (``is_bitvec_op`` and not
    ``is_arith_op``): the ops that make an ALU instruction its Bitvec opcode."""
    row = _BY_NAME[name]
    return bool(row["is_bitvec_op"]) and not row["is_arith_op"]


def _nl_operators() -> dict:
    from .nki import language as nl

    return {name: getattr(nl, name) for name in dir(nl)
            if getattr(getattr(nl, name), "is_nki_op", False) is True
            and not isinstance(getattr(nl, name), type)}


def alu_op(func: str, arg: str, op: Any, data_dtype: str) -> str:
    """Return the ALU_OP name of an op argument: an ALU_OP name (any case), NKI's operator
    (``nl.add``) or its name (``'multiply'``), or a NumPy ufunc of :data:`UFUNC_OPS`
    (``numpy.right_shift`` by ``data_dtype``, as NumPy shifts). Which ops an instruction
    takes is its validation's: here only what is no ALU op at all raises TypeError.

    >>> import numpy as np
    >>> alu_op("f", "op", "max", "FP32"), alu_op("f", "op", np.right_shift, "INT16")
    ('MAX', 'ARITH_SHIFT_RIGHT')
    >>> alu_op("f", "op", np.sin, "FP32")
    Traceback (most recent call last):
    ...
    TypeError: f: op: numpy.sin is no ALU op; op takes an ALU_OP name (any case; ...
    """
    if isinstance(op, np.ufunc):
        if op not in UFUNC_OPS:
            raise TypeError(f"{func}: {arg}: numpy.{op.__name__} is no ALU op; {arg} takes "
                            f"{_TAKES}")
        name = UFUNC_OPS[op]
        if name is None:  # numpy.right_shift: NumPy's shift of this dtype
            name = "ARITH_SHIFT_RIGHT" if data_dtype in _SIGNED else "LOGICAL_SHIFT_RIGHT"
        return name
    if getattr(op, "is_nki_op", False) is True:
        if op.tensor_op is None:
            raise TypeError(f"{func}: {arg}: {op!r} is no ALU op; {arg} takes {_TAKES}")
        return op.tensor_op
    if isinstance(op, str):
        text = op.strip()
        if text.upper() in _BY_NAME:
            return text.upper()
        nl_op = _nl_operators().get(text)
        if nl_op is None or nl_op.tensor_op is None:
            raise TypeError(f"{func}: {arg}: {op!r} is no ALU op; {arg} takes {_TAKES}")
        return nl_op.tensor_op
    raise TypeError(f"{func}: {arg}: expected an op (an ALU_OP name such as 'ADD', nl.add or "
                    f"numpy.add), got {op!r}")


# ---- RangeSelect's comparisons, AffineSelect's fill modes ------------------------------------

_COMPARISONS = {"==": "IS_EQ", "!=": "IS_NE", ">": "IS_GT", ">=": "IS_GE", "<=": "IS_LE",
                "<": "IS_LT"}


def comparison(func: str, arg: str, op: Any) -> Any:
    """Return the ALU_OP of a comparison argument: a symbol (``'>='``), NKI's operator
    (``nl.greater_equal``), a NumPy ufunc (``numpy.greater_equal``), or an ALU_OP name or
    code as it is (the instruction validates which it takes)."""
    if getattr(op, "is_nki_op", False) is True or isinstance(op, np.ufunc):
        return alu_op(func, arg, op, "FP32")
    if isinstance(op, str) and op.strip() in _COMPARISONS:
        return _COMPARISONS[op.strip()]
    return op


_AFFINE_CMP = {
    "gt": "GT", ">": "GT", "ge": "GE", ">=": "GE", "eq": "EQ", "==": "EQ", "ne": "NE", "!=": "NE",
}
_UFUNC_AFFINE_CMP = {np.greater: "GT", np.greater_equal: "GE", np.equal: "EQ", np.not_equal: "NE"}


def affine_cmp(func: str, arg: str, op: Any) -> Any:
    """Return the AFFINE_SELECT_CMP of a comparison argument: ``'ge'``, ``'>='``, NKI's
    ``nl.greater_equal``, ``numpy.greater_equal``, ..., or a name or code as it is (the
    instruction validates it). An operator that has no AFFINE_SELECT_CMP raises
    ValueError."""
    if getattr(op, "is_nki_op", False) is True:
        if op.affine_cmp is None:
            raise ValueError(f"{func}: {arg}: nl.{op.__name__} has no AffineSelect fill_mode "
                             "(GT, GE, EQ, NE); negate the pattern, offset and "
                             "channel_multiplier and use nl.greater or nl.greater_equal")
        return op.affine_cmp
    if isinstance(op, np.ufunc):
        if op in _UFUNC_AFFINE_CMP:
            return _UFUNC_AFFINE_CMP[op]
        raise ValueError(f"{func}: {arg}: numpy.{op.__name__} is not an AFFINE_SELECT_CMP")
    if isinstance(op, str) and op.strip().lower() in _AFFINE_CMP:
        return _AFFINE_CMP[op.strip().lower()]
    return op


# ---- the ramp of SPEC §3.7 -----------------------------------------------------------------

_INT32 = 1 << 32


def wrap_int32(v: Any) -> int:
    """Return v reduced modulo 2^32 into [-2^31, 2^31) (the ramp's arithmetic)."""
    v = int(v) % _INT32
    return v - _INT32 if v >= _INT32 // 2 else v


def data4d(func: str, arg: str, pattern: Any, offset: int) -> tuple:
    """Return (the DATA4D dict, the counts outermost first) of an NKI pattern.

    ``pattern`` is ``[[step, num], ...]``, outermost first, one to four pairs (NKI's
    ``[[step_w, num_w], [step_z, num_z], [step_y, num_y], [step_x, num_x]]``); the last
    pair is dimension 0, the innermost.
    """
    try:
        pairs = [list(p) for p in pattern]
    except TypeError:
        raise TypeError(f"{func}: {arg}: expected a list of [step, num] pairs, outermost "
                        f"first; got {pattern!r}") from None
    if not 1 <= len(pairs) <= 4 or any(len(p) != 2 for p in pairs):
        raise ValueError(f"{func}: {arg}: expected one to four [step, num] pairs, outermost "
                         f"first; got {pattern!r}")
    for step, num in pairs:  # the fields' ranges; which counts are valid is validation's
        field_int(func, f"{arg} step", step, "int16")
        field_int(func, f"{arg} num", num, "uint16")
    inner_first = pairs[::-1] + [[0, 1]] * (4 - len(pairs))
    data = {
        "base": wrap_int32(offset),
        "step": [int(s) for s, _ in inner_first],
        "num": [int(n) for _, n in inner_first],
    }
    return data, [int(n) for _, n in pairs]


# ---- numbers as immediates -------------------------------------------------------------------


def fp32_immediate(func: str, arg: str, value: Any) -> int:
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


def bits_immediate(func: str, arg: str, value: Any, name: str) -> int:
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


def immediate(func: str, arg: str, value: Any, data_dtype: str, bitvec: bool) -> int:
    """Return the IMM_VAL bits of a number operand of an ALU instruction: an FP32 for the
    arithmetic opcodes, an integer of the data's dtype for the bitvec ones (SPEC §4.15)."""
    return bits_immediate(func, arg, value, data_dtype) if bitvec \
        else fp32_immediate(func, arg, value)


def scalar_bits(func: str, arg: str, value: Any, name: str, python_float: bool = True) -> Any:
    """Return the bits of values of dtype ``name`` (an unsigned array, or one unsigned
    scalar): NumPy values of its storage type are taken as they are; other numbers are
    converted (floats rounded as SPEC §5 says, integers must fit). With
    ``python_float=False`` a Python float needs a float dtype (a TypeError otherwise)."""
    if not python_float and isinstance(value, float) and name not in FLOAT_DTYPES:
        raise TypeError(f"{func}: {arg}: a Python float {arg} needs a float dst dtype, not "
                        f"{name}")
    st = storage_dtype(name)
    u = np.dtype(f"<u{st.itemsize}")
    v = np.asarray(value)
    if v.dtype.newbyteorder("=") == st.newbyteorder("="):
        return np.asarray(v, dtype=st, order="C").view(u)
    if name in FLOAT_DTYPES:
        if v.dtype.kind not in "biuf":
            raise TypeError(f"{func}: {arg}: expected numbers, got {v.dtype}")
        return np.asarray(narrow(v.astype(np.float64), name)).view(u)
    if v.dtype.kind not in "biu" and not (
        v.dtype.kind == "f" and np.all(np.isfinite(v)) and np.all(v == np.round(v))
    ):
        raise TypeError(f"{func}: {arg}: {name} needs integers, got {value!r}")
    info = np.iinfo(st)
    if np.any(v < info.min) or np.any(v > info.max):
        raise ValueError(f"{func}: {arg}: {value!r} does not fit {name} [{info.min}, {info.max}]")
    return v.astype(st).view(u)


_INTEGER_DTYPES = ("INT8", "UINT8", "INT16", "UINT16", "INT32", "UINT32")


def memset_bits(func: str, arg: str, value: Any, name: str) -> int:
    """Return Memset's ``set_value`` for ``value`` filled into dtype ``name`` (SPEC §4.18's
    rule): a Python int (or bool) into an integer dtype is taken exactly and must lie in
    its range; every other value is rounded to FP32 (nearest even, beyond the FP32 range
    ±inf), then converted by SPEC §5.1's from_fp32 (300.0 into INT8 is 127, NaN 0)."""
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if isinstance(value, int) and name in _INTEGER_DTYPES:
        info = np.iinfo(storage_dtype(name))
        if not info.min <= value <= info.max:
            raise ValueError(f"{func}: {arg}: {value} does not fit {name} [{info.min}, "
                             f"{info.max}]")
        return int(value) & ((1 << info.bits) - 1)
    if not isinstance(value, (int, float, np.integer, np.floating, np.bool_)):
        raise TypeError(f"{func}: {arg}: expected a number, got {value!r}")
    if isinstance(value, np.float32):
        f = value
    else:
        try:
            x = float(value)
        except OverflowError:  # an int beyond every float: ±inf
            x = float("inf") if value > 0 else float("-inf")
        with np.errstate(over="ignore"):
            f = np.float32(x)
    fp32 = np.asarray([f], dtype=np.float32).view(np.uint32)
    return int(_core.cast_bits("FP32", name, fp32)[0])
