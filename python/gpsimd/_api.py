"""The rules every high-level function (ops, predicates, search) shares, written once:

- the dtype rule: a NumPy array's dtype names the gpsimd dtype (``float32`` is FP32,
  ``uint16`` UINT16, ...); BF16 and FP8 data are bit arrays with the dtype named
  explicitly; nothing is guessed (:func:`data_array`);
- Python lists and numbers, which have no dtype (:func:`data_array` too);
- errors that name the function and the argument;
- the dtype arguments: ``dtype=`` is always the *result's* dtype, ``in_dtype=`` the
  input's (:func:`in_out`, :func:`same_dtype`); a bare integer is never a dtype;
- the engine argument (:func:`engine_arg`): the engine input of SPEC §3.9, named as the
  vendor ('dve', 'pool', 'act') or as NKI ('vector', 'gpsimd', 'scalar');
- ``strict=`` and ``return_words=`` (:class:`Runner`), on pooled scratch machines.
"""

from __future__ import annotations

from typing import Tuple, Union

import numpy as np

from . import _core
from .codec import _engine_name
from ._program import DirtyRanges, Dump, Load, Recording, Words
from .dtypes import _FROM_NUMPY, dtype_name, storage_dtype
from .errors import InvalidInstruction
from .machine import Machine

__all__ = ["data_array", "out_dtype", "dtype_arg", "same_dtype", "in_out", "number", "integer",
           "field_int", "FIELD_RANGES", "engine_arg", "Runner", "words_array", "ArrayResult",
           "PairResult"]

#: What a function returning one array returns: the array, or ``(array, words)`` with
#: ``return_words=True`` (words: uint8 ``(n, 64)``).
ArrayResult = Union[np.ndarray, Tuple[np.ndarray, np.ndarray]]
#: The same for a function returning two arrays: ``(a, b)`` or ``((a, b), words)``.
PairResult = Union[Tuple[np.ndarray, np.ndarray], Tuple[Tuple[np.ndarray, np.ndarray], np.ndarray]]

_FP8 = ("FP8_E3", "FP8_E4", "FP8_E5")
_ALIGN = 64  # operands start on 64-byte boundaries
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
        if isinstance(dtype, (bool, np.bool_, int, np.integer)):
            raise TypeError(f"{func}: {dtype_arg}={dtype!r}: a bare integer is not a dtype; "
                            "name it ('UINT16', 'BF16', numpy.float32, ...)")
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
    or raise naming it. For a count or choice of the call (``k``, ``partitions``); an
    integer that goes into a word field is checked by :func:`field_int`."""
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


def dtype_arg(func, arg, dtype):
    """Return the gpsimd name of a dtype argument: a name ('BF16', NKI's 'bfloat16'), a
    NumPy type or an NKI dtype object. A bare integer is never a dtype here (it is the
    low-level DTYPE code only for :func:`gpsimd.dtype_name`): it raises TypeError."""
    if isinstance(dtype, (bool, np.bool_, int, np.integer)):
        raise TypeError(f"{func}: {arg}={dtype!r}: a bare integer is not a dtype; name it "
                        "('UINT16', 'BF16', numpy.float32, ...)")
    try:
        return dtype_name(dtype)
    except ValueError:
        raise ValueError(f"{func}: {arg}={dtype!r} is not a gpsimd dtype name (FP32, BF16, "
                         "FP16, FP8_E4, INT32, ...) nor a NumPy type that stores one") from None


def engine_arg(func, engine):
    """Return the engine id ('dve', 'pool', 'act') of an ``engine=`` argument, or None
    for the opcode's default (SPEC §3.9): a name ``'dve'``, ``'pool'``, ``'act'`` (any
    case) or NKI's ``'vector'``, ``'gpsimd'``, ``'scalar'``, or an NKI engine enum
    (``gpsimd.nki.isa.engine.vector``, ...; ``engine.unknown`` is the default). Raises
    TypeError or ValueError naming the function.

    >>> engine_arg("tensor_tensor", "GpSimd")
    'pool'
    >>> engine_arg("tensor_tensor", "tensor")
    Traceback (most recent call last):
    ...
    ValueError: tensor_tensor: engine 'tensor' must be dve, pool or act (NKI's vector, gpsimd, scalar), or None for the opcode's default
    """
    engine = _engine_name(engine)
    if engine is None:
        return None
    if not isinstance(engine, str):
        raise TypeError(f"{func}: engine must be a string ({_core.ENGINE_NAMES}), an NKI "
                        f"engine (gpsimd.nki.isa.engine.vector, ...) or None, got {engine!r}")
    e = _core.parse_engine(engine)
    if e is None:
        raise ValueError(f"{func}: engine {engine!r} must be {_core.ENGINE_NAMES}, or None "
                         "for the opcode's default")
    return e


def out_dtype(func, arg, dtype):
    """Return the dtype name of an output-dtype argument, or raise naming it."""
    return dtype_arg(func, arg, dtype)


def same_dtype(func, dtype, in_dtype):
    """Return the data's dtype for a function whose result has its input's dtype: named
    by ``dtype=`` (the result's dtype, in every function) or ``in_dtype=`` (the input's),
    which must then agree; None when neither is given."""
    names = {a: dtype_arg(func, a, v) for a, v in (("dtype", dtype), ("in_dtype", in_dtype))
             if v is not None}
    if len(set(names.values())) > 1:
        raise ValueError(f"{func}: dtype={names['dtype']!r} and in_dtype={names['in_dtype']!r} "
                         f"disagree; {func}'s result has its input's dtype, so give one")
    return next(iter(names.values()), None)


def in_out(func, arg, x, allowed, in_dtype, dtype):
    """Return ``(array, input dtype, result dtype)`` for a function whose result dtype
    may differ from its input's: ``in_dtype=`` names the input (by the dtype rule of
    :func:`data_array`), ``dtype=`` the result (default: the input's).

    A ``dtype=`` of BF16 or FP8 with an unsigned-integer input of the same width and no
    ``in_dtype`` is refused: such code meant, in an earlier gpsimd, that the input holds
    those bits; now the input would silently be read as integers."""
    a, din = data_array(func, arg, x, allowed, in_dtype, "in_dtype")
    dout = din if dtype is None else dtype_arg(func, "dtype", dtype)
    if (dtype is not None and in_dtype is None and dout in ("BF16",) + _FP8
            and din == f"UINT{8 * storage_dtype(dout).itemsize}"):
        raise TypeError(f"{func}: dtype='{dout}' names the result's dtype; {arg} is "
                        f"{a.dtype}, read as {din} integers. If {arg} holds {dout} bit "
                        f"patterns, pass in_dtype='{dout}' (in every gpsimd function dtype= "
                        "is the result's dtype and in_dtype= the input's)")
    return a, din, dout


def words_array(words):
    """Return words (bytes each) as a NumPy uint8 array of shape (n, 64)."""
    return np.frombuffer(b"".join(words), dtype=np.uint8).reshape(-1, 64).copy()


# ---- scratch machines ---------------------------------------------------------------------

# Idle scratch machines by generation. A high-level call takes one, marks every byte it
# or its instructions write, and gives it back reset (only the marked bytes are zeroed),
# so that a call on a small tile costs microseconds, not a 28 MiB machine. A machine is
# only ever used by one call at a time (list.pop/append are atomic under the GIL).
_POOL = {}
_POOL_LIMIT = 4
_GENERATIONS = {}


def _generation(func, generation):
    key = (type(generation), generation) if isinstance(generation, (str, int)) else None
    name = _GENERATIONS.get(key) if key is not None else None
    if name is None:
        try:
            name = Machine(generation).generation
        except (ValueError, TypeError) as e:
            raise ValueError(f"{func}: {e}") from None
        if key is not None:
            _GENERATIONS[key] = name
    return name


def acquire(func, generation):
    """Return a fresh scratch machine of a generation (and its dirty ranges)."""
    gen = _generation(func, generation)
    idle = _POOL.setdefault(gen, [])
    try:
        m = idle.pop()
    except IndexError:
        m = Machine(gen)
        m._scratch_dirty = DirtyRanges()
    return m


def release(m):
    """Give a scratch machine back, fresh again."""
    m._scratch_dirty.reset(m)
    idle = _POOL.setdefault(m.generation, [])
    if len(idle) < _POOL_LIMIT:
        idle.append(m)


class NoRoom(ValueError):
    """A call's operands do not fit one SBUF partition together."""


class Runner:
    """The scratch machine of one high-level call: a fresh machine from the pool, an
    allocator of partition bytes, the words run with the call's ``strict``, and, with
    ``return_words``, the recording of the call's program (its inputs as initial state,
    its words, where its results are).

    Use it as a context manager: the machine goes back to the pool, reset, on exit.

    Layout: ``alloc()`` takes bytes that stay the call's for its whole run; ``block()``
    takes the bytes one block of rows (or columns) needs. Blocks get their own bytes
    while the partition holds them all, so that the recorded words replay on one
    machine; when it does not, a call without ``return_words`` reuses the blocks' bytes
    (each block's results are read before the next loads), and a call with it raises
    ValueError: no stream of words could reproduce it on one machine."""

    def __init__(self, func, generation, strict, return_words=False, engine=None):
        self.func = func
        self.strict = bool(strict)
        self.engine = engine  # the engine input of the call's words (SPEC §3.9), or None
        self.machine = acquire(func, generation)
        self._dirty = self.machine._scratch_dirty
        self.pbytes = self.machine.partition_bytes("sbuf")
        self.record = (Recording(self.machine.generation, title=f"gpsimd.{func}")
                       if return_words else None)
        self.words = []
        self._top = 0  # next free byte of every partition
        self._blocks = None  # where the first block started

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        release(self.machine)
        return False

    def partition_bytes(self):
        return self.pbytes

    # -- layout -----------------------------------------------------------------------

    @staticmethod
    def place(sizes, top=0, align=_ALIGN):
        """Return (the offsets, the end) of regions of these byte sizes placed from byte
        ``top`` of a partition, each at the next multiple of ``align``: the layout of
        :meth:`alloc`, for a function that states how much one call can take."""
        offsets = []
        for n in sizes:
            top = -(-top // align) * align
            offsets.append(top)
            top += int(n)
        return offsets, top

    def alloc(self, *sizes, align=_ALIGN):
        """Return the offsets of regions of these byte sizes (per partition), for the
        whole call."""
        offsets, top = self.place(sizes, self._top, align)
        if top > self.pbytes:
            raise NoRoom(f"{self.func}: its operands need {top} bytes of each partition, more "
                         f"than the {self.pbytes} of an SBUF partition on "
                         f"{self.machine.generation}")
        self._top = top
        return offsets if len(offsets) != 1 else offsets[0]

    def block(self, *sizes):
        """Return the offsets of one block's regions (see the class)."""
        if self._blocks is None:
            self._blocks = self._top
        try:
            return self.alloc(*sizes)
        except NoRoom:
            if self._top == self._blocks:
                raise
            if self.record is not None:
                raise ValueError(
                    f"{self.func}: with return_words=True every block of the call keeps its "
                    f"own bytes, so that its words replay on one fresh machine, and these "
                    f"inputs need more than the {self.pbytes} bytes of an SBUF partition on "
                    f"{self.machine.generation}; call it on fewer rows (128 a call) or "
                    "without return_words") from None
            self._top = self._blocks  # reuse: the previous blocks' results are read
            return self.alloc(*sizes)

    # -- state ------------------------------------------------------------------------

    def load(self, first, offset, data, space="sbuf", name=""):
        """Write rows of ``data`` (any dtype; C order) to partitions ``first, ...`` at
        ``offset``: a call's input, recorded as initial state."""
        raw = np.ascontiguousarray(data)
        raw = raw.reshape(raw.shape[0], -1).view(np.uint8)
        rows, n = raw.shape
        mem = self.machine.sbuf if space == "sbuf" else self.machine.psum
        mem[first : first + rows, offset : offset + n] = raw
        self._dirty.mark(space, first, rows, offset, offset + n)
        if self.record is not None:
            self.record.loads.append(Load(space, first, offset, raw.copy(), name))

    def set_register(self, index, bits):
        self.machine.registers[index] = bits
        if self.record is not None:
            self.record.registers[index] = int(bits)

    def set_accumulators(self, first, bits):
        bits = np.asarray(bits, dtype=np.uint32).reshape(-1)
        self.machine.accumulators[first : first + bits.size] = bits
        if self.record is not None:
            for i, b in enumerate(bits):
                self.record.accumulators[first + i] = int(b)

    def run(self, words, atomic=False):
        """Run words on the scratch machine (the machine is reset when the call ends). A
        fault raises as Machine.run does; a word that fails validation raises
        InvalidInstruction as the call's, each clause naming the call's argument its field
        comes from (the ``arguments`` of a :class:`gpsimd._lower.Word`)."""
        if isinstance(words, (bytes, bytearray)):
            words = [words if isinstance(words, bytes) else bytes(words)]
        self.words.extend(words)
        if self.record is not None:
            self.record.add_words(words, engine=self.engine)
        try:
            return self.machine._run_words(words, strict=self.strict, atomic=atomic,
                                           dirty=self._dirty, engine=self.engine)
        except InvalidInstruction as e:
            arguments = getattr(words[e.index], "arguments", None) if e.index is not None else None
            if arguments is None:
                raise
            raise InvalidInstruction(e.diagnostics, e.index, e.word, e.generation,
                                     call=self.func, arguments=arguments) from None

    def layout(self, total):
        """Return True when ``total`` bytes of each partition (every block's own
        regions) fit the partition after what is allocated: then every block gets its own
        bytes. Otherwise the blocks reuse one set of regions, which ``return_words``
        cannot replay: it raises ValueError then."""
        if -(-self._top // _ALIGN) * _ALIGN + total <= self.pbytes:
            return True
        if self.record is not None:
            raise ValueError(
                f"{self.func}: with return_words=True every block of the call keeps its own "
                f"bytes, so that its words replay on one fresh machine, and these inputs "
                f"need {total} bytes of each partition, more than the {self.pbytes} of an "
                f"SBUF partition on {self.machine.generation}; call it on less data at a "
                "time (128 rows a call) or without return_words")
        return False

    def result_shape(self, name, shape, dtype):
        """Declare a result that dumps (``read(into=...)``) make up."""
        if self.record is not None:
            self.record.shapes[name] = (tuple(shape), np.dtype(dtype))

    def read(self, first, rows, offset, count, dtype, name=None, step=1, space="sbuf",
             into=None):
        """Return (a copy of) ``count`` elements of ``dtype`` per partition, ``step``
        apart, from partitions ``first .. first + rows - 1``; with ``name`` also a result
        of the recording (``into``: the index of the part it is of a declared result)."""
        dt = storage_dtype(dtype)
        nbytes = ((count - 1) * step + 1) * dt.itemsize if count else 0
        mem = self.machine.sbuf if space == "sbuf" else self.machine.psum
        raw = mem[first : first + rows, offset : offset + nbytes]
        out = np.ascontiguousarray(raw).view(dt)[:, ::step].copy()
        if name is not None and self.record is not None:
            self.record.dumps.append(Dump(name, space, first, rows, offset, dtype_name(dtype),
                                          count, step, into))
        return out

    def result_dump(self, name, space, first, rows, into=None):
        """Record accumulators (space 'acc') or search lanes ('match') as a result."""
        if self.record is not None:
            self.record.dumps.append(Dump(name, space, first, rows, into=into))

    def result(self, value, return_words=None):
        """Return ``value``, or ``(value, words)`` with ``return_words``."""
        if self.record is not None:
            return value, Words(self.words, self.record)
        return value
