"""Number-format conversions (SPEC §5) with the model's own conversion code.

Narrowing (``to_*``) takes values, converts them to float32 (NumPy's rounding, exact for
float32 and float16 inputs), then rounds to the narrow format as an instruction does:
round-to-nearest-even, subnormals kept, overflow to ±inf, NaN to the format's canonical
NaN with its sign. BF16 and FP8 results are bit patterns (``uint16`` / ``uint8``).
Widening (``from_*``) is exact for numbers; a NaN keeps its sign and payload and gets
the quiet bit. Scalars in give NumPy scalars out.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from . import _core
from .dtypes import bits as as_bits
from .dtypes import dtype_name, numpy_dtype, storage_dtype

__all__ = [
    "narrow",
    "widen",
    "to_bf16",
    "from_bf16",
    "to_fp16",
    "from_fp16",
    "to_fp8_e3",
    "from_fp8_e3",
    "to_fp8_e4",
    "from_fp8_e4",
    "to_fp8_e5",
    "from_fp8_e5",
]


def _float_name(dtype):
    name = dtype_name(dtype)
    if name not in ("FP32", "FP32R", "BF16", "FP16", "FP8_E3", "FP8_E4", "FP8_E5"):
        raise ValueError(f"dtype {name}: not a float dtype with a conversion (SPEC §5)")
    return name


def _out(x, result):
    return result[()] if np.ndim(x) == 0 else result


def narrow(values: ArrayLike, dtype: Any) -> np.ndarray:
    """Return values rounded to a float dtype, in its storage type (SPEC §5).

    >>> narrow([1.0, -2.5, 1e10], "FP8_E4")
    array([ 56, 194, 120], dtype=uint8)
    """
    name = _float_name(dtype)
    x = np.asarray(values)
    f32 = np.asarray(x, dtype=np.float32, order="C")
    bits = _core.narrow_from_fp32(name, f32.view(np.uint32))
    return _out(x, bits.astype(storage_dtype(name).str.replace("f", "u")).view(storage_dtype(name)))


def widen(bits: ArrayLike, dtype: Any) -> np.ndarray:
    """Return the float32 values of a float dtype's values or bit patterns.

    ``bits`` is the dtype's storage (``float16`` for FP16, ``float32`` for FP32), an
    unsigned integer array of the dtype's width holding bit patterns, or an array of the
    NumPy dtype gpsimd registers for it (``bfloat16``, ``float8_e4m3``, ``float8_e5m2``).

    >>> widen(np.array([0x38, 0x78, 0x7C], dtype=np.uint8), "FP8_E4")
    array([ 1., inf, nan], dtype=float32)
    """
    name = _float_name(dtype)
    x = np.asarray(bits)
    if x.dtype.kind == "V":  # an array of a NumPy dtype gpsimd registers: its bit patterns
        if x.dtype != numpy_dtype(name):
            raise TypeError(f"{name}: expected bit patterns or {numpy_dtype(name)}, got {x.dtype}")
        x = as_bits(x)
    size = storage_dtype(name).itemsize
    if x.dtype.kind == "f":
        if x.dtype.itemsize != size:
            raise TypeError(f"{name} values are {size}-byte; got {x.dtype}")
        u = np.asarray(x, order="C").view(f"<u{size}")
    elif x.dtype.kind in "ui":
        if x.dtype.itemsize != size and not (x.dtype.kind == "u" and x.dtype.itemsize <= 4):
            raise TypeError(f"{name} bit patterns are {size}-byte unsigned integers; got {x.dtype}")
        u = x
    else:
        raise TypeError(f"{name}: expected bit patterns or {storage_dtype(name)}, got {x.dtype}")
    mask = np.uint64((1 << (8 * size)) - 1)
    u32 = np.asarray(np.asarray(u).astype(np.uint64) & mask, dtype=np.uint32, order="C")
    return _out(x, _core.widen_to_fp32(name, u32).view(np.float32))


def to_bf16(values: ArrayLike) -> np.ndarray:
    """Return BF16 bit patterns (uint16) of values.

    >>> hex(to_bf16(1.0)), hex(to_bf16(-3.4028235e38)), hex(to_bf16(float("nan")))
    ('0x3f80', '0xff80', '0x7fc0')
    """
    return narrow(values, "BF16")


def from_bf16(bits: ArrayLike) -> np.ndarray:
    """Return the float32 values of BF16 bit patterns.

    >>> from_bf16(np.array([0x3F80, 0xC000, 0x7F80], dtype=np.uint16))
    array([ 1., -2., inf], dtype=float32)
    """
    return widen(bits, "BF16")


def to_fp16(values: ArrayLike) -> np.ndarray:
    """Return values as float16, rounded by the model (NaN becomes 0x7E00 with its sign).

    >>> to_fp16([1.0, 65520.0, 2.0 ** -25])
    array([ 1., inf,  0.], dtype=float16)
    """
    return narrow(values, "FP16")


def from_fp16(values: ArrayLike) -> np.ndarray:
    """Return the float32 values of float16 values or FP16 bit patterns (uint16).

    >>> from_fp16(np.array([0x3C00, 0xFC00], dtype=np.uint16))
    array([  1., -inf], dtype=float32)
    """
    return widen(values, "FP16")


def to_fp8_e3(values: ArrayLike) -> np.ndarray:
    """Return FP8_E3 bit patterns (uint8): 1-3-4, bias 3, max 15.5, with infinities.

    >>> to_fp8_e3([1.0, 15.5, 16.0])
    array([ 48, 111, 112], dtype=uint8)
    """
    return narrow(values, "FP8_E3")


def from_fp8_e3(bits: ArrayLike) -> np.ndarray:
    """Return the float32 values of FP8_E3 bit patterns.

    >>> from_fp8_e3(np.array([0x30, 0x6F, 0x01], dtype=np.uint8))
    array([ 1.     , 15.5    ,  0.015625], dtype=float32)
    """
    return widen(bits, "FP8_E3")


def to_fp8_e4(values: ArrayLike) -> np.ndarray:
    """Return FP8_E4 bit patterns (uint8): IEEE-style E4M3, bias 7, max 240, with infinities.

    >>> to_fp8_e4([1.0, 240.0, 248.0])
    array([ 56, 119, 120], dtype=uint8)
    """
    return narrow(values, "FP8_E4")


def from_fp8_e4(bits: ArrayLike) -> np.ndarray:
    """Return the float32 values of FP8_E4 bit patterns.

    >>> from_fp8_e4(np.array([0x38, 0x77, 0xF8], dtype=np.uint8))
    array([   1.,  240., -inf], dtype=float32)
    """
    return widen(bits, "FP8_E4")


def to_fp8_e5(values: ArrayLike) -> np.ndarray:
    """Return FP8_E5 bit patterns (uint8): 1-5-2, bias 15, max 57344, with infinities.

    >>> to_fp8_e5([1.0, 57344.0, -65536.0])
    array([ 60, 123, 252], dtype=uint8)
    """
    return narrow(values, "FP8_E5")


def from_fp8_e5(bits: ArrayLike) -> np.ndarray:
    """Return the float32 values of FP8_E5 bit patterns.

    >>> from_fp8_e5(np.array([0x3C, 0x7B, 0x7E], dtype=np.uint8))
    array([1.0000e+00, 5.7344e+04,        nan], dtype=float32)
    """
    return widen(bits, "FP8_E5")


def cast_storage(a: np.ndarray, from_dtype: Any, to_dtype: Any) -> np.ndarray:
    """Return SPEC §5.1's ``cast`` of every element of ``a`` (``from_dtype``'s storage:
    values, or BF16/FP8 bit patterns) as ``to_dtype``'s storage, by the model's own
    conversion: equal dtypes copy the bits; every other pair goes through FP32 (round to
    nearest even, integers saturate, NaN becomes 0 in an integer, narrow floats overflow
    to ±inf). What a DMA with a dtype conversion does (SPEC §4.23).

    >>> cast_storage(np.array([7, -1, 16777217], np.int32), "INT32", "FP32")
    array([ 7.0000000e+00, -1.0000000e+00,  1.6777216e+07], dtype=float32)
    >>> cast_storage(np.float32([2.5, 3.5, np.nan, 1e10]), "FP32", "INT32")
    array([         2,          4,          0, 2147483647], dtype=int32)
    """
    src, dst = dtype_name(from_dtype), dtype_name(to_dtype)
    x = np.ascontiguousarray(a)
    size = x.dtype.itemsize
    u32 = x.view(f"<u{size}").astype(np.uint32)
    out = _core.cast_bits(src, dst, u32)
    st = storage_dtype(dst)
    return out.astype(f"<u{st.itemsize}").view(st).reshape(x.shape)
