"""The rules every high-level function (ops, predicates, search) shares, written once:

- the dtype rule: a NumPy array's dtype names the gpsimd dtype (``float32`` is FP32,
  ``uint16`` UINT16, ...); BF16 and FP8 data are bit arrays with the dtype named
  explicitly; nothing is guessed (:func:`data_array`);
- Python lists and numbers, which have no dtype (:func:`data_array` too);
- errors that name the function and the argument;
- ``strict=`` and ``return_words=`` (:class:`Runner`).
"""

from __future__ import annotations

from typing import Tuple, Union

import numpy as np

from .dtypes import _FROM_NUMPY, dtype_name, storage_dtype
from .machine import Machine

__all__ = ["data_array", "out_dtype", "number", "integer", "field_int", "FIELD_RANGES", "Runner",
           "words_array", "ArrayResult", "PairResult"]

#: What a function returning one array returns: the array, or ``(array, words)`` with
#: ``return_words=True`` (words: uint8 ``(n, 64)``).
ArrayResult = Union[np.ndarray, Tuple[np.ndarray, np.ndarray]]
#: The same for a function returning two arrays: ``(a, b)`` or ``((a, b), words)``.
PairResult = Union[Tuple[np.ndarray, np.ndarray], Tuple[Tuple[np.ndarray, np.ndarray], np.ndarray]]

_FP8 = ("FP8_E3", "FP8_E4", "FP8_E5")
# The NumPy name of each dtype that has a NumPy type of its own (the others are bits).
_NUMPY_NAME = {name: np.dtype(t).name for t, name in _FROM_NUMPY.items()}
_NUMPY_NAME["FP32R"] = "float32"


def _native(dt):
    return dt.newbyteorder("=")


def _fp8_example(fp8):
    return "FP8_E4" if "FP8_E4" in fp8 else fp8[0]


def _takes(allowed, dtype_arg):
    """Return how a function's accepted dtypes are written: 'float32 (FP32), ...'."""
    parts = []
    for name in allowed:
        if name in ("BF16",) + _FP8 or name not in _NUMPY_NAME:
            continue
        if name == "FP32R":
            continue
        parts.append(f"{_NUMPY_NAME[name]} ({name})")
    bits = [n for n in allowed if n == "BF16" or n in _FP8]
    if "BF16" in bits:
        parts.append(f"BF16 as uint16 bits with {dtype_arg}='BF16'")
    fp8 = [n for n in bits if n in _FP8]
    if fp8:
        parts.append(f"{'/'.join(fp8)} as uint8 bits with {dtype_arg}='{_fp8_example(fp8)}'")
    return ", ".join(parts)


def _fix(arg, a_dtype, allowed, dtype_arg):
    """Return the advice for an array whose NumPy type the function does not take."""
    native = _native(a_dtype)
    if native == np.dtype(np.uint16) and "BF16" in allowed:
        return f"pass {dtype_arg}='BF16' if these are BF16 bits"
    fp8 = [n for n in allowed if n in _FP8]
    if native == np.dtype(np.uint8) and fp8:
        first = _fp8_example(fp8)
        others = ", ".join(f"'{n}'" for n in fp8 if n != first)
        return (f"pass {dtype_arg}='{first}'" + (f" (or {others})" if others else "")
                + " if these are FP8 bits")
    target = next((_NUMPY_NAME[n] for n in allowed if n in _NUMPY_NAME), None)
    advice = f"convert it, e.g. {arg}.astype(numpy.{target})" if target else "convert it"
    if native.kind == "u":
        # Float bits held in unsigned integers of the same width: name them.
        floats = [n for n in allowed if n in ("FP32", "FP16")
                  and storage_dtype(n).itemsize == native.itemsize]
        if floats:
            f = floats[0]
            how = (f"pass {dtype_arg}='{f}'" if dtype_arg
                   else f"pass {arg}.view(numpy.{_NUMPY_NAME[f]})")
            advice += f", or {how} if these are {f} bits"
    return advice


def _from_python(func, arg, x, name, allowed):
    """Return the array of a Python list/tuple/number (which has no dtype): with a dtype
    named, its storage type (integers must be exact); else Python ints are int32 (if the
    function takes INT32, otherwise float32 when exact) and floats float32."""
    try:
        a = np.asarray(x)
    except ValueError as e:  # ragged lists
        raise ValueError(f"{func}: {arg} is not a rectangular array of numbers ({e})") from None
    if a.dtype.kind not in "biuf":
        raise TypeError(f"{func}: {arg} must be numbers (a NumPy array or a list of numbers), "
                        f"got {type(x).__name__} of {a.dtype}")
    if name is not None:
        target = storage_dtype(name)
    elif a.dtype.kind == "f":
        target = np.dtype(np.float32)
    elif "INT32" in allowed or "FP32" not in allowed:
        target = np.dtype(np.int32)
    else:
        target = np.dtype(np.float32)
    if target.kind == "f":
        with np.errstate(over="ignore"):
            out = a.astype(target)
        if a.dtype.kind != "f" and not np.array_equal(out.astype(np.float64), a):
            raise ValueError(f"{func}: {arg}: these integers are not exact in {target}; pass a "
                             "NumPy array of the dtype you mean")
        return out
    info = np.iinfo(target)
    if a.dtype.kind == "f" and not np.all(np.isfinite(a) & (a == np.round(a))):
        if name in ("BF16",) + _FP8:
            raise TypeError(f"{func}: {arg}: {name} data are bit patterns ({target} integers); "
                            f"convert values first, e.g. gpsimd.narrow({arg}, '{name}')")
        raise TypeError(f"{func}: {arg}: {target} data needs integers, got {x!r}")
    if a.size and (a.min() < info.min or a.max() > info.max):
        raise ValueError(f"{func}: {arg}: values outside {target} [{info.min}, {info.max}]; "
                         "pass a NumPy array of the dtype you mean")
    return a.astype(target)


def data_array(func, arg, x, allowed, dtype=None, dtype_arg="dtype"):
    """Return ``(array, gpsimd dtype name)`` of a data argument, by the one dtype rule.

    - ``dtype`` given: it names the data; the array must be of its NumPy storage type
      (or the unsigned integer of its width: bit patterns), BF16 and FP8 always bits.
    - else a NumPy array's dtype names it (``uint16`` is UINT16, never BF16).
    - a Python list or number has no dtype: see :func:`_from_python`.

    Raises TypeError naming the function, the argument and the fix when the function
    (whose dtypes are ``allowed``) cannot take the data.
    """
    name = None
    if dtype is not None:
        try:
            name = dtype_name(dtype)
        except ValueError:
            raise ValueError(f"{func}: {dtype_arg}={dtype!r} is not a gpsimd dtype; {func} takes "
                             f"{', '.join(allowed)}") from None
        if name not in allowed:
            raise TypeError(f"{func}: {dtype_arg}='{name}' is not a dtype {func} takes; it takes "
                            f"{', '.join(allowed)}")
    if isinstance(x, (np.ndarray, np.generic)):
        a = np.asarray(x)
    else:
        a = _from_python(func, arg, x, name, allowed)
    if name is not None:
        st = storage_dtype(name)
        if _native(a.dtype) not in (_native(st), np.dtype(f"u{st.itemsize}")):
            raise TypeError(f"{func}: {arg} is {a.dtype}, but {dtype_arg}='{name}' needs {st} "
                            f"data (or uint{8 * st.itemsize} bit patterns)")
        return a, name
    inferred = _FROM_NUMPY.get(_native(a.dtype))
    if inferred is None or inferred not in allowed:
        what = f"{a.dtype} ({inferred})" if inferred else f"{a.dtype}, which is no gpsimd dtype"
        raise TypeError(f"{func}: {arg} is {what}; {func} takes "
                        f"{_takes(allowed, dtype_arg)}; {_fix(arg, a.dtype, allowed, dtype_arg)}")
    return a, inferred


def number(func, arg, value):
    """Return a real-number argument (a Python or NumPy number), or raise naming it."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer,
                                                                      np.floating)):
        raise TypeError(f"{func}: {arg}: expected a number, got {value!r}")
    return value


def integer(func, arg, value, lo=None, hi=None):
    """Return an integer argument (a Python or NumPy integer, within [lo, hi] when given),
    or raise naming it."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{func}: {arg}: expected an integer, got {value!r}")
    if lo is not None and not lo <= int(value) <= hi:
        raise ValueError(f"{func}: {arg}: {int(value)} is outside [{lo}, {hi}]")
    return int(value)


#: The integer types of word fields and their ranges (SPEC §3, §4), for :func:`field_int`.
FIELD_RANGES = {
    "uint8": (0, (1 << 8) - 1),
    "int16": (-(1 << 15), (1 << 15) - 1),
    "uint16": (0, (1 << 16) - 1),
    "int32": (-(1 << 31), (1 << 31) - 1),
    "uint32": (0, (1 << 32) - 1),
}


def field_int(func, arg, value, field):
    """Return an integer argument that goes into a word field of integer type ``field``
    (a key of :data:`FIELD_RANGES`: ``'int32'``, ``'uint32'``, ...), or one per row.

    A Python or NumPy integer comes back as an ``int``, an array of them as an int64
    array. A value outside the field's range is never wrapped: ValueError naming the
    function, the argument, the value and the range. Anything but integers: TypeError.

    >>> field_int("iota", "channel_multiplier", -3, "int32")
    -3
    >>> field_int("iota", "channel_multiplier", 3000000000, "int32")
    Traceback (most recent call last):
    ...
    ValueError: iota: channel_multiplier: 3000000000 is outside int32 [-2147483648, 2147483647]
    """
    lo, hi = FIELD_RANGES[field]
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        v = int(value)
        if not lo <= v <= hi:
            raise ValueError(f"{func}: {arg}: {v} is outside {field} [{lo}, {hi}]")
        return v
    if not isinstance(value, (list, tuple, np.ndarray)):
        raise TypeError(f"{func}: {arg}: expected an integer, got {value!r}")
    try:
        a = np.asarray(value)
    except ValueError:  # ragged lists
        a = np.asarray(value, dtype=object)
    if a.dtype.kind not in "iu":
        raise TypeError(f"{func}: {arg}: expected integers, got {value!r}")
    outside = a[(a < lo) | (a > hi)]
    if outside.size:
        raise ValueError(f"{func}: {arg}: {int(outside.flat[0])} is outside {field} [{lo}, {hi}]")
    return a.astype(np.int64)


def out_dtype(func, arg, dtype):
    """Return the dtype name of an output-dtype argument, or raise naming it."""
    try:
        return dtype_name(dtype)
    except ValueError:
        raise ValueError(f"{func}: {arg}={dtype!r} is not a gpsimd dtype name (FP32, BF16, "
                         "FP16, FP8_E4, INT32, ...) nor a NumPy type that stores one") from None


def words_array(words):
    """Return words (bytes each) as a NumPy uint8 array of shape (n, 64)."""
    return np.frombuffer(b"".join(words), dtype=np.uint8).reshape(-1, 64).copy()


class Runner:
    """The scratch machine of one high-level call: runs its words with the call's
    ``strict`` and keeps them, for ``return_words``."""

    def __init__(self, func, generation, strict):
        self.func = func
        self.strict = bool(strict)
        try:
            self.machine = Machine(generation)
        except ValueError as e:
            raise ValueError(f"{func}: {e}") from None
        self.words = []

    def partition_bytes(self):
        return self.machine.partition_bytes("sbuf")

    def run(self, words, atomic=True):
        if isinstance(words, (bytes, bytearray)):
            words = [bytes(words)]
        words = [bytes(w) for w in words]
        self.words.extend(words)
        return self.machine.run(words, strict=self.strict, atomic=atomic)

    def result(self, value, return_words):
        """Return ``value``, or ``(value, words)`` with ``return_words``."""
        if return_words:
            return value, words_array(self.words)
        return value
