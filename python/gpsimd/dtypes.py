"""Instruction dtypes (SPEC §3.3) and the NumPy arrays that hold their values.

NumPy has no BF16 or FP8 type, so those values travel as their bit patterns in
``uint16`` and ``uint8`` arrays; FP16 travels as ``numpy.float16``. The extension also
registers NumPy dtypes ``bfloat16``, ``float8_e4m3`` (FP8_E4) and ``float8_e5m2``
(FP8_E5) whose elements are those bit patterns and whose casts convert by SPEC §5.1
(``x.astype("bfloat16")``); :func:`bits` views an array of them as its bit patterns.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from . import _core

__all__ = ["dtype_name", "dtype_size", "storage_dtype", "numpy_dtype", "bits", "registered",
           "FLOAT_DTYPES"]

# The NumPy type that stores each dtype's values (little-endian, as the machine).
_STORAGE = {
    "INT8": np.int8,
    "UINT8": np.uint8,
    "INT16": np.int16,
    "UINT16": np.uint16,
    "BF16": np.uint16,
    "FP16": np.float16,
    "INT32": np.int32,
    "UINT32": np.uint32,
    "FP32": np.float32,
    "FP32R": np.float32,
    "INT64": np.int64,
    "UINT64": np.uint64,
    "FP8_E3": np.uint8,
    "FP8_E4": np.uint8,
    "FP8_E5": np.uint8,
}

# The dtype a NumPy type means when nothing else is said.
_FROM_NUMPY = {
    np.dtype(np.int8): "INT8",
    np.dtype(np.uint8): "UINT8",
    np.dtype(np.int16): "INT16",
    np.dtype(np.uint16): "UINT16",
    np.dtype(np.float16): "FP16",
    np.dtype(np.int32): "INT32",
    np.dtype(np.uint32): "UINT32",
    np.dtype(np.float32): "FP32",
    np.dtype(np.int64): "INT64",
    np.dtype(np.uint64): "UINT64",
}

# NKI's names of the dtypes NumPy has no type for (the others are NumPy's names too).
_NKI_NAMES = {"bfloat16": "BF16", "float8_e4m3": "FP8_E4", "float8_e5m2": "FP8_E5"}

# The NumPy dtypes the extension registers (numpy_dtypes.cc), by the dtype they hold.
_REGISTERED = {"BF16": np.dtype(_core.bfloat16), "FP8_E4": np.dtype(_core.float8_e4m3),
               "FP8_E5": np.dtype(_core.float8_e5m2)}
_REGISTERED_STORAGE = {d: np.dtype(_STORAGE[name]) for name, d in _REGISTERED.items()}
_REGISTERED_NAME = {d: name for name, d in _REGISTERED.items()}

#: The float dtypes with a defined conversion (SPEC §5).
FLOAT_DTYPES = ("FP32", "FP32R", "BF16", "FP16", "FP8_E3", "FP8_E4", "FP8_E5")


def dtype_name(dtype: Any) -> str:
    """Return the SPEC name of a dtype given by name (any case), code or NumPy type.

    A NumPy type means the dtype whose values it stores natively (``numpy.uint16`` is
    UINT16; BF16 bit patterns must be named).

    NKI's dtype names (``gpsimd.nki.language.bfloat16``, or the string ``"bfloat16"``)
    name the same dtypes: ``float8_e4m3`` is FP8_E4 (IEEE-style, with infinities) and
    ``float8_e5m2`` FP8_E5.

    >>> dtype_name("bf16"), dtype_name(0xE), dtype_name(np.float16), dtype_name("float32")
    ('BF16', 'FP8_E4', 'FP16', 'FP32')
    >>> dtype_name("bfloat16"), dtype_name("float8_e4m3")
    ('BF16', 'FP8_E4')
    """
    nki_dtype = getattr(dtype, "gpsimd_dtype", False)  # a gpsimd.nki.language dtype
    if nki_dtype is not False:
        if nki_dtype is None:
            raise ValueError(f"dtype {dtype!r}: an NKI dtype gpsimd has no dtype for")
        return nki_dtype
    if isinstance(dtype, str):
        nki = _NKI_NAMES.get(str(dtype))
        if nki is not None:
            return nki
        code = _core.dtype_code(dtype)
        if code is not None:
            return _core.dtype_name(code)
    elif isinstance(dtype, (int, np.integer)) and not isinstance(dtype, bool):
        name = _core.dtype_name(int(dtype)) if 0 <= int(dtype) <= 255 else None
        if name is not None:
            return name
        raise ValueError(f"dtype code {int(dtype):#x} is not in the DTYPE enumeration")
    try:
        np_dtype = np.dtype(dtype)
    except TypeError:
        np_dtype = None
    if np_dtype is not None and np_dtype.newbyteorder("=") in _FROM_NUMPY:
        return _FROM_NUMPY[np_dtype.newbyteorder("=")]
    raise ValueError(
        f"dtype {dtype!r}: not a gpsimd dtype (FP32, FP32R, BF16, FP16, FP8_E3, FP8_E4, FP8_E5, "
        "INT8, UINT8, INT16, UINT16, INT32, UINT32, ...) nor a NumPy type that stores one"
    )


def dtype_size(dtype: Any) -> int | None:
    """Return the byte size of a dtype, or None for one without a size (FP4_E2, CPTC*).

    >>> dtype_size("bf16"), dtype_size("FP8_E5"), dtype_size("FP4_E2")
    (2, 1, None)
    """
    return _core.dtype_size(_core.dtype_code(dtype_name(dtype)))


def storage_dtype(dtype: Any) -> np.dtype:
    """Return the little-endian NumPy dtype that holds a dtype's values or bit patterns.

    >>> storage_dtype("BF16"), storage_dtype("FP16"), storage_dtype("FP8_E4")
    (dtype('uint16'), dtype('float16'), dtype('uint8'))
    """
    name = dtype_name(dtype)
    if name not in _STORAGE:
        raise ValueError(f"dtype {name} has no NumPy storage type")
    dt = np.dtype(_STORAGE[name])
    return dt if sys.byteorder == "little" else dt.newbyteorder("<")


def numpy_dtype(dtype: Any) -> np.dtype:
    """Return the NumPy dtype whose elements are a dtype's values: the registered
    ``bfloat16``, ``float8_e4m3``, ``float8_e5m2`` for BF16, FP8_E4, FP8_E5 (their
    elements are the bit patterns, their casts convert by SPEC §5.1), else the storage.

    >>> numpy_dtype("BF16"), numpy_dtype("FP8_E5"), numpy_dtype("INT32")
    (dtype(bfloat16), dtype(float8_e5m2), dtype('int32'))
    >>> np.float32([0.1, 300]).astype(numpy_dtype("FP8_E4"))   # RNE; beyond 240: inf
    array([0.1015625, inf], dtype='float8_e4m3')
    """
    name = dtype_name(dtype)
    return _REGISTERED.get(name) or storage_dtype(name)


def bits(a: np.ndarray) -> np.ndarray:
    """Return an array of a registered dtype (``bfloat16``, ``float8_e4m3``,
    ``float8_e5m2``) as a view of its bit patterns (``uint16``, ``uint8``); any other
    array as it is.

    >>> bits(np.float32([1.0, -2.0]).astype("bfloat16"))
    array([16256, 49152], dtype=uint16)
    """
    storage = _REGISTERED_STORAGE.get(a.dtype)
    return a if storage is None else a.view(storage)


def registered(dtype: Any) -> str | None:
    """Return the dtype a NumPy dtype gpsimd registers holds (``'BF16'`` for
    ``bfloat16``, ``'FP8_E4'``, ``'FP8_E5'``), None for any other.

    >>> registered(np.dtype("float8_e5m2")), registered(np.uint16)
    ('FP8_E5', None)
    """
    try:
        return _REGISTERED_NAME.get(np.dtype(dtype))
    except TypeError:
        return None
