"""``gpsimd.nki.language``: the part of NKI's ``nki.language`` that kernels of the
modelled instructions use — dtypes, memory buffers, ``ndarray`` and the operators that
name comparisons and reductions.

Import it as NKI code does: ``import gpsimd.nki.language as nl``. Names and signatures
follow NKI 0.3.0 (Neuron SDK 2.29.0; docs/python.md says which stubs).

- dtypes: ``bool_, int8, int16, int32, uint8, uint16, uint32, float16, float32,
  bfloat16, float8_e4m3, float8_e5m2`` (and ``tfloat32, float8_e4m3fn`` and the ``_x4``
  packed types, which gpsimd has no dtype for: using one raises NotImplementedError).
  They are strings, as in NKI (``nl.bfloat16 == "bfloat16"``); ``float8_e4m3`` is
  gpsimd's FP8_E4 (IEEE-style, with infinities), ``bool_`` is stored as UINT8. NumPy
  takes them too: ``bfloat16``, ``float8_e4m3`` and ``float8_e5m2`` are NumPy dtypes the
  extension registers (``x.astype(nl.bfloat16)``, ``np.dtype(nl.float8_e4m3)``; their
  elements are the bit patterns, their casts convert by SPEC §5.1, NumPy's ufuncs run
  on them in float32), and HBM tensors of them are arrays of those dtypes.
- buffers: ``sbuf``, ``psum`` (a tile of the program's machine), ``hbm``,
  ``shared_hbm``, ``private_hbm`` (a NumPy array: NumPy stands for HBM).
- ``ndarray``, ``zeros``, ``full``, ``ones``, ``empty_like``.
- operators: ``equal, not_equal, greater, greater_equal, less, less_equal, maximum,
  minimum, add, subtract, multiply, ...``: arguments of ``nisa`` calls (``cmp_op``,
  ``reduce_op``); applied to tiles they compute a new tile by TensorTensor or
  TensorScalar. ACT functions (``exp``, ``gelu``, ...) and the reductions raise
  NotImplementedError saying why.
- ``load``, ``store`` (the DMA, host side), index expressions (``arange``, ``mgrid``,
  ``ds``).
- SPMD: ``program_id``, ``num_programs``, ``program_ndim``, ``spmd_dim``, ``nc``
  (``kernel[grid](...)``, :func:`gpsimd.nki.jit`); ``device_print``.
- ``fp32.min``/``fp32.max``, ``tile_size.pmax``, ``affine_range``, ``static_range``,
  ``sequential_range``.

>>> import gpsimd.nki as nki, gpsimd.nki.language as nl
>>> with nki.Program():
...     t = nl.ndarray((128, 512), dtype=nl.bfloat16, buffer=nl.sbuf)
>>> t.shape, t.dtype, t.buffer
((128, 512), 'bfloat16', nl.sbuf)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._operands import scalar_bits
from ..dtypes import bits, numpy_dtype, storage_dtype
from ._kernel import Tile, _error, _stack, current

__all__ = [
    "NkiDtype", "MemoryRegion", "bool_", "int8", "int16", "int32", "uint8", "uint16", "uint32",
    "float16", "float32", "bfloat16", "tfloat32", "float8_e4m3", "float8_e5m2", "float8_e4m3fn",
    "float8_e5m2_x4", "float8_e4m3fn_x4", "float4_e2m1fn_x4", "sbuf", "psum", "hbm",
    "shared_hbm", "private_hbm", "ndarray", "zeros", "full", "ones", "empty_like", "equal",
    "not_equal", "greater", "greater_equal", "less", "less_equal", "maximum", "minimum", "add",
    "subtract", "multiply", "divide", "abs", "bitwise_and", "bitwise_or", "bitwise_xor",
    "invert", "left_shift", "right_shift", "logical_and", "logical_or", "logical_xor",
    "logical_not", "power", "bypass", "copy", "fp32", "tile_size", "affine_range",
    "static_range", "sequential_range",
]


class NkiDtype(str):
    """An NKI dtype: its NKI name (a ``str``, as in NKI) and the gpsimd dtype it is
    (``gpsimd_dtype``, e.g. ``'BF16'``), or None when gpsimd has none.

    >>> import gpsimd.nki.language as nl
    >>> nl.float8_e4m3, nl.float8_e4m3.gpsimd_dtype, nl.float8_e4m3.storage
    ('float8_e4m3', 'FP8_E4', dtype('uint8'))
    >>> import numpy as np
    >>> np.dtype(nl.bfloat16), np.float32([1.7]).astype(nl.float8_e4m3)
    (dtype(bfloat16), array([1.75], dtype='float8_e4m3'))
    """

    gpsimd_dtype: str | None

    def __new__(cls, name: str, gpsimd: str | None, doc: str) -> "NkiDtype":
        obj = super().__new__(cls, name)
        obj.gpsimd_dtype = gpsimd
        obj.__doc__ = doc
        return obj

    @property
    def storage(self) -> np.dtype | None:
        """The NumPy type a tile's ``numpy()`` gives (bit patterns for BF16 and FP8)."""
        return None if self.gpsimd_dtype is None else storage_dtype(self.gpsimd_dtype)

    @property
    def numpy(self) -> np.dtype | None:
        """The NumPy dtype of its values: HBM tensors and ``np.asarray(tile)`` (the
        registered ``bfloat16``/``float8_e4m3``/``float8_e5m2`` for BF16 and FP8)."""
        return None if self.gpsimd_dtype is None else numpy_dtype(self.gpsimd_dtype)

    def __repr__(self) -> str:
        return str.__repr__(self)


bool_ = NkiDtype("bool", "UINT8", "Boolean (True or False) stored as a byte (gpsimd: UINT8)")
int8 = NkiDtype("int8", "INT8", "8-bit signed integer number")
int16 = NkiDtype("int16", "INT16", "16-bit signed integer number")
int32 = NkiDtype("int32", "INT32", "32-bit signed integer number")
uint8 = NkiDtype("uint8", "UINT8", "8-bit unsigned integer number")
uint16 = NkiDtype("uint16", "UINT16", "16-bit unsigned integer number")
uint32 = NkiDtype("uint32", "UINT32", "32-bit unsigned integer number")
float16 = NkiDtype("float16", "FP16", "16-bit floating-point number")
float32 = NkiDtype("float32", "FP32", "32-bit floating-point number")
bfloat16 = NkiDtype("bfloat16", "BF16", "16-bit floating-point number (1S,8E,7M)")
tfloat32 = NkiDtype("tfloat32", None, "32-bit floating-point number (1S,8E,10M): no gpsimd dtype")
float8_e4m3 = NkiDtype("float8_e4m3", "FP8_E4", "8-bit floating-point number (1S,4E,3M)")
float8_e5m2 = NkiDtype("float8_e5m2", "FP8_E5", "8-bit floating-point number (1S,5E,2M)")
float8_e4m3fn = NkiDtype("float8_e4m3fn", None, "OCP FP8 (1S,4E,3M), no inf: no gpsimd dtype")
float8_e5m2_x4 = NkiDtype("float8_e5m2_x4", None, "4x packed float8_e5m2: no gpsimd dtype")
float8_e4m3fn_x4 = NkiDtype("float8_e4m3fn_x4", None, "4x packed float8_e4m3fn: no gpsimd dtype")
float4_e2m1fn_x4 = NkiDtype("float4_e2m1fn_x4", None, "4x packed float4_e2m1fn: no gpsimd dtype")

_DTYPES = {str(d): d for d in (bool_, int8, int16, int32, uint8, uint16, uint32, float16,
                               float32, bfloat16, tfloat32, float8_e4m3, float8_e5m2,
                               float8_e4m3fn, float8_e5m2_x4, float8_e4m3fn_x4,
                               float4_e2m1fn_x4)}


def _dtype(call: str, dtype: Any) -> NkiDtype:
    """Return the NKI dtype of a dtype argument (an NKI dtype, its name, a NumPy type)."""
    if isinstance(dtype, NkiDtype):
        d = dtype
    elif isinstance(dtype, str) and dtype in _DTYPES:
        d = _DTYPES[dtype]
    else:
        try:
            d = _DTYPES.get(np.dtype(dtype).name)
        except TypeError:
            d = None
        if d is None:
            raise _error(call, "dtype", f"{dtype!r} is not an NKI dtype (nl.float32, "
                         "nl.bfloat16, nl.int32, ...)")
    if d.gpsimd_dtype is None:
        raise NotImplementedError(f"{call}: dtype nl.{d}: gpsimd has no such dtype (SPEC §3.3 "
                                  "models INT8..UINT32, BF16, FP16, FP32, FP8_E3/E4/E5)")
    return d


class MemoryRegion:
    """An NKI memory buffer: ``nl.sbuf``, ``nl.psum`` (on chip: a tile of the program's
    machine) or ``nl.hbm``, ``nl.shared_hbm``, ``nl.private_hbm`` (a NumPy array)."""

    def __init__(self, name: str, space: str | None) -> None:
        self.name = name
        self.space = space

    def __repr__(self) -> str:
        return f"nl.{self.name}"


sbuf = MemoryRegion("sbuf", "sbuf")
psum = MemoryRegion("psum", "psum")
hbm = MemoryRegion("hbm", None)
shared_hbm = MemoryRegion("shared_hbm", None)
private_hbm = MemoryRegion("private_hbm", None)


def _buffer(call: str, buffer: Any) -> MemoryRegion:
    if isinstance(buffer, MemoryRegion):
        return buffer
    raise _error(call, "buffer", f"{buffer!r} is not an NKI buffer (nl.sbuf, nl.psum, nl.hbm, "
                 "nl.shared_hbm); string buffer names are not accepted, as in NKI 0.3.0")


def ndarray(shape: Any, dtype: Any, buffer: Any = sbuf, name: str = "",
            address: Any = None) -> Any:
    """Create a new tensor of given shape and dtype on the specified buffer.

    On ``nl.sbuf`` or ``nl.psum`` it is a :class:`Tile` of the program being built:
    ``shape[0]`` (at most 128) partitions from partition 0, the rest dense in C order at
    the next free 64-byte boundary of each partition (or at ``address``, a
    ``(partition_offset, free_offset)`` pair). Its bytes start as the machine's: zero in
    a fresh program. On an HBM buffer it is a NumPy array of zeros (of the NumPy dtype
    of the same name: ``bfloat16`` is the one the extension registers).

    >>> import gpsimd.nki as nki, gpsimd.nki.language as nl
    >>> with nki.Program():
    ...     a = nl.ndarray((4, 2, 8), dtype=nl.float32, name="a")
    ...     b = nl.ndarray((4, 3), dtype=nl.bfloat16, buffer=nl.psum)
    >>> a.region(), b.region()
    ('sbuf[p=0..3, off=0x0]', 'psum[p=0..3, off=0x0]')
    >>> nl.ndarray((2, 3), dtype=nl.bfloat16, buffer=nl.shared_hbm)
    HbmTensor([[0.0, 0.0, 0.0],
               [0.0, 0.0, 0.0]], dtype=bfloat16)
    """
    call = "nl.ndarray"
    d = _dtype(call, dtype)
    region = _buffer(call, buffer)
    try:
        shape = tuple(int(n) for n in shape)
    except TypeError:
        shape = (int(shape),)
    if region.space is None:
        return _hbm_tensor(shape, d, region)
    return current(call)._allocate(call, shape, d, region.space, name, address)


def _hbm_tensor(shape: tuple[int, ...], d: NkiDtype, region: MemoryRegion) -> Any:
    """A new HBM tensor; in an SPMD launch (:func:`gpsimd.nki.jit`), the n-th one on
    ``nl.shared_hbm`` or ``nl.hbm`` of every program instance is the same array."""
    stack = _stack()
    p = stack[-1] if stack else None
    if p is None or region is private_hbm:
        return np.zeros(shape, dtype=d.numpy).view(HbmTensor)
    n, p._hbm_next = p._hbm_next, p._hbm_next + 1
    if n < len(p._shared_hbm):
        t = p._shared_hbm[n]
        if t.shape != shape or t.dtype != d.numpy:
            raise _error("nl.ndarray", "shape", f"{shape} {d} on {region}: the program "
                         f"instance before made this shared HBM tensor {t.shape} {t.dtype}; "
                         "every instance of an SPMD launch allocates the same tensors")
        return t
    t = np.zeros(shape, dtype=d.numpy).view(HbmTensor)
    p._shared_hbm.append(t)
    return t


def zeros(shape: Any, dtype: Any, buffer: Any = sbuf, name: str = "") -> Any:
    """A new tensor filled with zeros (NKI's ``memset`` of 0): on chip, zeros written as
    the program's initial state (a fresh tile's bytes, which no instruction has
    touched).

    >>> import gpsimd.nki as nki, gpsimd.nki.language as nl
    >>> with nki.Program():
    ...     print(nl.zeros((2, 3), dtype=nl.int32).numpy())
    [[0 0 0]
     [0 0 0]]
    """
    return full(shape, 0, dtype, buffer, name)


def ones(shape: Any, dtype: Any, buffer: Any = sbuf, name: str = "") -> Any:
    """A new tensor filled with ones (see :func:`full`).

    >>> import gpsimd.nki as nki, gpsimd.nki.language as nl
    >>> with nki.Program():
    ...     print(nl.ones((1, 3), dtype=nl.float32).numpy())
    [[1. 1. 1.]]
    """
    return full(shape, 1, dtype, buffer, name)


def full(shape: Any, fill_value: Any, dtype: Any, buffer: Any = sbuf, name: str = "") -> Any:
    """A new tensor filled with ``fill_value``, converted to the dtype as gpsimd
    converts a number (SPEC §5: floats round to nearest even; integers must fit). On
    chip the values are the program's initial state, as a ``dma_copy`` is.

    >>> import gpsimd.nki as nki, gpsimd.nki.language as nl
    >>> with nki.Program():
    ...     print(nl.full((1, 2), -1.5, dtype=nl.bfloat16).numpy())   # bits of -1.5
    [[49088 49088]]
    """
    call = "nl.full"
    d = _dtype(call, dtype)
    t = ndarray(shape, d, buffer, name)
    value = np.asarray(scalar_bits(call, "fill_value", fill_value,
                                   d.gpsimd_dtype)).view(d.storage)
    if isinstance(t, np.ndarray):
        bits(t)[...] = value
        return t
    t.program._initial(call, t, np.broadcast_to(value, t.shape))
    return t


def empty_like(x: Any, dtype: Any = None, buffer: Any = None, name: str = "") -> Any:
    """A new tensor of ``x``'s shape (and dtype and buffer unless given).

    >>> import gpsimd.nki as nki, gpsimd.nki.language as nl
    >>> with nki.Program():
    ...     a = nl.ndarray((2, 4), dtype=nl.int16)
    ...     print(nl.empty_like(a).shape, nl.empty_like(a, dtype=nl.float32).dtype)
    (2, 4) float32
    """
    return ndarray(*_like(x, dtype, buffer), name)


def _like(x: Any, dtype: Any, buffer: Any) -> tuple[Any, Any, Any]:
    """The shape, dtype and buffer of a tensor like ``x`` (dtype and buffer unless given;
    an HBM ``x``'s buffer is ``nl.shared_hbm``)."""
    if not isinstance(x, Tile):
        x = np.asarray(x)
    home = x.buffer if isinstance(x, Tile) else shared_hbm
    return x.shape, x.dtype if dtype is None else dtype, home if buffer is None else buffer


# ---- operators -----------------------------------------------------------------------------


class _Operator:
    """An NKI operator (``nl.equal``, ``nl.maximum``, ...): what it is as the ALU_OP of an
    instruction (SPEC §3.8), as RangeSelect's comparison (``alu_op``) and as AffineSelect's
    fill_mode (``affine_cmp``). Called on tiles (``nl.add(x, y)``) it computes a new tile
    by TensorTensor or TensorScalar (SPEC §4.14-§4.15)."""

    is_nki_op = True

    def __init__(self, name: str, alu: str | None, compare: bool = False,
                 affine: str | None = None) -> None:
        self.__name__ = name
        self.tensor_op = alu  # the ALU_OP of TensorTensor/TensorScalar
        self.alu_op = alu if compare else None  # RangeSelect's comp_op / reduce_op
        self.affine_cmp = affine
        self.__doc__ = (f"NKI's nl.{name}: an operator argument of nisa calls"
                        + (f" (ALU_OP {alu})" if alu else "") + ".")

    def __call__(self, x: Any, y: Any = None, dtype: Any = None, mask: Any = None,
                 **kwargs: Any) -> Any:
        """``nl.add(x, y)`` and the other binary operators on tiles: a new SBUF tile,
        computed by the instruction NKI's compiler uses — ``nisa.tensor_tensor`` for two
        tiles of the same shape, ``nisa.tensor_scalar`` for a tile and a number or a
        ``(P, 1)`` float32 tile (broadcast along the free dimensions). The result has
        ``dtype``, or the tile's dtype (of two tiles of different dtypes, float32 if
        either is float32). ``mask=`` narrows the operands and the result."""
        return _elementwise(self, x, y, dtype, mask, kwargs)

    def __repr__(self) -> str:
        return f"nl.{self.__name__}"


equal = _Operator("equal", "IS_EQ", True, "EQ")
not_equal = _Operator("not_equal", "IS_NE", False, "NE")
greater = _Operator("greater", "IS_GT", True, "GT")
greater_equal = _Operator("greater_equal", "IS_GE", True, "GE")
less = _Operator("less", "IS_LT", True)
less_equal = _Operator("less_equal", "IS_LE", True)
maximum = _Operator("maximum", "MAX", True)
minimum = _Operator("minimum", "MIN")
add = _Operator("add", "ADD")
subtract = _Operator("subtract", "SUBTRACT")
multiply = _Operator("multiply", "MULT")
divide = _Operator("divide", "DIVIDE")
abs = _Operator("abs", "ABSOLUTE_VALUE")  # noqa: A001 - NKI's name
bitwise_and = _Operator("bitwise_and", "BITWISE_AND")
bitwise_or = _Operator("bitwise_or", "BITWISE_OR")
bitwise_xor = _Operator("bitwise_xor", "BITWISE_XOR")
invert = _Operator("invert", "BITWISE_NOT")
left_shift = _Operator("left_shift", "LOGICAL_SHIFT_LEFT")
right_shift = _Operator("right_shift", "LOGICAL_SHIFT_RIGHT")
logical_and = _Operator("logical_and", "LOGICAL_AND")
logical_or = _Operator("logical_or", "LOGICAL_OR")
logical_xor = _Operator("logical_xor", "LOGICAL_XOR")
logical_not = _Operator("logical_not", None)
power = _Operator("power", "POW")
bypass = _Operator("bypass", "BYPASS")
copy = _Operator("copy", "BYPASS")


class _FloatLimits:
    def __init__(self, name: str, dtype: Any) -> None:
        info = np.finfo(dtype)
        self.name = name
        self.min = float(info.min)
        self.max = float(info.max)

    def __repr__(self) -> str:
        return f"nl.{self.name}(min={self.min!r}, max={self.max!r})"


#: ``nl.fp32.min`` is ``-FLT_MAX`` (-3.4028235e+38), RangeSelect's only fill value.
fp32 = _FloatLimits("fp32", np.float32)


class tile_size:
    """Tile size constants: ``pmax`` (128 partitions)."""

    pmax = 128


def affine_range(start: int, stop: int | None = None, step: int = 1) -> range:
    """NKI's parallel loop iterator; here a Python ``range``.

    >>> import gpsimd.nki.language as nl
    >>> list(nl.affine_range(3))
    [0, 1, 2]
    """
    return range(start) if stop is None else range(start, stop, step)


def static_range(start: int, stop: int | None = None, step: int = 1) -> range:
    """NKI's unrolled loop iterator; here a Python ``range``.

    >>> import gpsimd.nki.language as nl
    >>> list(nl.static_range(1, 4))
    [1, 2, 3]
    """
    return range(start) if stop is None else range(start, stop, step)


def sequential_range(start: int, stop: int | None = None, step: int = 1) -> range:
    """NKI's sequential loop iterator; here a Python ``range``.

    >>> import gpsimd.nki.language as nl
    >>> list(nl.sequential_range(0, 6, 2))
    [0, 2, 4]
    """
    return range(start) if stop is None else range(start, stop, step)


# ---- element-wise calls on tiles ------------------------------------------------------------


def _result_dtype(call: str, dtype: Any, tiles: list[Tile]) -> "NkiDtype":
    if dtype is not None:
        return _dtype(call, dtype)
    kinds = {t.dtype for t in tiles}
    if len(kinds) == 1:
        return tiles[0].dtype
    if float32 in kinds:
        return float32
    raise _error(call, "dtype", f"the tiles are {' and '.join(sorted(kinds))}: give the "
                 "result's dtype= (gpsimd.nki does not guess a promotion)")


def _elementwise(op: "_Operator", x: Any, y: Any, dtype: Any, mask: Any,
                 extra: dict[str, Any]) -> Tile:
    from . import isa

    call = f"nl.{op.__name__}"
    if extra:
        raise TypeError(f"{call}() got unexpected keyword arguments {sorted(extra)}")
    if y is None:
        raise NotImplementedError(f"{call} of one tile is not modelled yet (the binary "
                                  "operators on tiles are: nl.add(x, y), ...)")
    xt, yt = isinstance(x, Tile), isinstance(y, Tile)
    if not (xt or yt):
        raise _error(call, "x", f"expected a tile (an nl.ndarray in SBUF/PSUM, nl.load's "
                     f"result), got {type(x).__name__} and {type(y).__name__}")
    if xt and yt and x.shape != y.shape and not (
            x.partitions == y.partitions and 1 in (x._free_count(), y._free_count())):
        if x.partitions == y.partitions and x.size == y.size:
            pass  # the same elements per partition, each walked in its own order
        else:
            raise NotImplementedError(
                f"{call}: shapes {x.shape} and {y.shape}: broadcasting along the partition "
                "dimension is not modelled yet (TensorTensor and TensorScalar read each "
                "partition's own elements); broadcasting along the free dimensions is: a "
                "(P, 1) operand")
    if xt and yt and (x.shape == y.shape or x._free_count() == y._free_count()):
        d = _result_dtype(call, dtype, [x, y])
        dst = ndarray(x.shape, d, sbuf)
        isa.tensor_tensor(_narrow(call, dst, mask), _narrow(call, x, mask),
                          _narrow(call, y, mask), op)
        return dst
    if xt and (not yt or y._free_count() == 1):
        data, operand, reverse = x, y, False
    else:
        data, operand, reverse = y, x, True
    d = _result_dtype(call, dtype, [data])
    dst = ndarray(data.shape, d, sbuf)
    if isinstance(operand, Tile):
        operand = _narrow(call, operand, mask)
    isa.tensor_scalar(_narrow(call, dst, mask), _narrow(call, data, mask), op, operand,
                      reverse0=reverse)
    return dst


# ---- loads and stores: the DMA between HBM (NumPy) and SBUF -----------------------------


def load(src: Any, dtype: Any = None, mask: Any = None, **kwargs: Any) -> Tile:
    """Load a tensor from HBM (a NumPy array, or an index of one: ``in_tensor[i_p,
    i_f]``, ``in_tensor[:, nl.ds(0, 512)]``) into a new SBUF tile of its shape and
    dtype: a DMA, which gpsimd.nki writes as the program's initial state, as
    ``nisa.dma_copy``. ``mask=`` loads the part it keeps. ``dtype=`` other than the
    tensor's makes a tile of that dtype, the DMA converting every element by SPEC §5.1
    through FP32 (SPEC §4.23).

    >>> import numpy as np, gpsimd.nki as nki, gpsimd.nki.language as nl
    >>> @nki.jit
    ... def double(a):
    ...     out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    ...     i_p, i_f = nl.mgrid[0:2, 0:3]
    ...     t = nl.load(a[i_p, i_f])
    ...     nl.store(out[i_p, i_f], nl.add(t, t))
    ...     return out
    >>> double(np.arange(6, dtype=np.float32).reshape(2, 3))
    array([[ 0.,  2.,  4.],
           [ 6.,  8., 10.]], dtype=float32)
    """
    from . import isa

    call = "nl.load"
    if kwargs:
        raise TypeError(f"{call}() got unexpected keyword arguments {sorted(kwargs)}")
    src = _narrow(call, src, mask)
    if isinstance(src, Tile):
        raise _error(call, "src", f"{src._expr} is on chip; nl.load reads HBM (a NumPy array)")
    if not isinstance(src, np.ndarray):
        raise _error(call, "src", f"expected an HBM tensor (a NumPy array), got "
                     f"{type(src).__name__}")
    d = _dtype(call, src.dtype if dtype is None else dtype)
    shape = src.shape if src.ndim >= 1 else (1,)
    t = ndarray(shape, d, sbuf)
    isa.dma_copy(dst=t, src=src)
    t._loaded = True
    return t


def store(dst: Any, value: Any, mask: Any = None, **kwargs: Any) -> None:
    """Store an SBUF tile (or a number, every element) into HBM (a NumPy array or an
    index of one): a DMA, which copies the tile's contents now, as ``nisa.dma_copy``.
    ``mask=`` stores the part it keeps. A tile of another dtype than the tensor's is
    converted element by element by SPEC §5.1 through FP32, as a DMA does (SPEC §4.23):
    an int32 tile stored into a float32 tensor holds its values as float32.

    >>> import numpy as np, gpsimd.nki as nki, gpsimd.nki.language as nl
    >>> @nki.jit
    ... def corner(a):
    ...     out = nl.ndarray((2, 2), dtype=a.dtype, buffer=nl.shared_hbm)
    ...     i_p, i_f = nl.arange(4)[:, None], nl.arange(4)[None, :]
    ...     t = nl.load(a[i_p, i_f])
    ...     nl.store(out[i_p, i_f], t[i_p, i_f], mask=(i_p < 2) & (i_f < 2))
    ...     return out
    >>> corner(np.arange(16, dtype=np.int32).reshape(4, 4))
    array([[0, 1],
           [4, 5]], dtype=int32)
    """
    from . import isa

    call = "nl.store"
    if kwargs:
        raise TypeError(f"{call}() got unexpected keyword arguments {sorted(kwargs)}")
    dst = _narrow(call, dst, mask)
    if not isinstance(dst, np.ndarray):
        raise _error(call, "dst", f"expected an HBM tensor (a NumPy array), got "
                     f"{type(dst).__name__}")
    if isinstance(value, Tile):
        isa.dma_copy(dst=dst, src=_narrow(call, value, mask))
        return None
    if isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool):
        d = _dtype(call, dst.dtype)
        value_bits = scalar_bits(call, "value", value, d.gpsimd_dtype)
        bits(dst)[...] = np.asarray(value_bits).view(d.storage)
        return None
    raise _error(call, "value", f"expected an SBUF tile or a number, got {type(value).__name__}")


def zeros_like(x: Any, dtype: Any = None, buffer: Any = None, name: str = "") -> Any:
    """A new tensor of ``x``'s shape (and dtype and buffer unless given) filled with
    zeros (see :func:`zeros`).

    >>> import gpsimd.nki as nki, gpsimd.nki.language as nl
    >>> with nki.Program():
    ...     print(nl.zeros_like(nl.ndarray((1, 3), dtype=nl.int16)).numpy())
    [[0 0 0]]
    """
    return zeros(*_like(x, dtype, buffer), name)


class NKIObject:
    """Base class for NKI kernel dataclasses and configuration objects (keyword
    arguments become attributes)."""

    def __init__(self, **kwargs: Any) -> None:
        for k, v in kwargs.items():
            setattr(self, k, v)


# ---- calls gpsimd.nki does not run ----------------------------------------------------------


class _Unrun:
    """An ``nl`` function gpsimd.nki cannot or does not yet run: it exists as a name (an
    ``op=`` argument, an import) and calling it raises NotImplementedError saying why."""

    def __init__(self, name: str, reason: str) -> None:
        self.__name__ = name
        self.reason = reason
        self.__doc__ = f"NKI's nl.{name}: {reason}."

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f"nl.{self.__name__}: {self.reason}")

    def __repr__(self) -> str:
        return f"nl.{self.__name__}"


_ACT = ("runs on the Scalar (ACT) engine's activation function tables, which are not "
        "public: gpsimd would need the table contents and interpolation of this function "
        "to be bit-exact, so it is out of scope (never approximated)")
_ACTIVATIONS = ("exp", "log", "sqrt", "rsqrt", "tanh", "sigmoid", "relu", "gelu",
                "gelu_apprx_sigmoid", "gelu_apprx_tanh", "gelu_dx", "gelu_apprx_sigmoid_dx",
                "silu", "silu_dx", "softplus", "mish", "erf", "erf_dx", "sin", "cos", "tan",
                "arctan", "softmax", "rms_norm")
for _name in _ACTIVATIONS:
    globals()[_name] = _Unrun(_name, _ACT)

class _Reduction:
    """NKI's ``nl.sum``, ``nl.max``, ``nl.min``, ``nl.prod``: a reduction of a tile along
    its last free dimensions, the one instruction NKI's compiler emits for it —
    ``nisa.tensor_reduce`` (TensorReduceArith, SPEC §4.19) on the Vector engine."""

    # NKI also takes nl.max / nl.min ... where an operator goes (select_reduce's
    # reduce_op=nl.max, tensor_scalar_cumulative's op1=nl.max): the ALU_OP of its fold.
    is_nki_op = True

    def __init__(self, name: str, op: "_Operator") -> None:
        self.__name__ = name
        self.op = op
        self.tensor_op = op.tensor_op
        self.alu_op = op.alu_op
        self.affine_cmp = op.affine_cmp
        self.__doc__ = (f"NKI's nl.{name}(x, axis, dtype=None, mask=None, keepdims=False): "
                        f"x reduced along `axis` (the last free dimensions) by "
                        f"nisa.tensor_reduce with op nl.{op.__name__} (SPEC §4.19)."
                        + (" An FP32 sum or product folds in SPEC's [model] order "
                           "(reduce-order: left to right in walk order), which hardware "
                           "may not share." if name in ("sum", "prod") else ""))

    def __call__(self, x: Any, axis: Any, dtype: Any = None, mask: Any = None,
                 keepdims: bool = False, **kwargs: Any) -> Tile:
        from . import isa

        call = f"nl.{self.__name__}"
        if kwargs:
            raise TypeError(f"{call}() got unexpected keyword arguments {sorted(kwargs)}")
        if not isinstance(x, Tile):
            raise _error(call, "x", f"expected a tile (an nl.ndarray in SBUF/PSUM, nl.load's "
                         f"result), got {type(x).__name__}")
        d = _result_dtype(call, dtype, [x])
        dst = ndarray(isa._reduced_shape(call, axis, x, keepdims), d, sbuf)
        isa.tensor_reduce(_narrow(call, dst, mask), self.op, _narrow(call, x, mask),
                          axis=axis, keepdims=keepdims)
        return dst

    def __repr__(self) -> str:
        return f"nl.{self.__name__}"


sum = _Reduction("sum", add)  # noqa: A001 - NKI's name
max = _Reduction("max", maximum)  # noqa: A001 - NKI's name
min = _Reduction("min", minimum)  # noqa: A001 - NKI's name
prod = _Reduction("prod", multiply)

_REDUCE = ("the instructions NKI's compiler emits for it (a reduction and more) are not "
           "established here: write it from nl.sum / nl.max / nl.min and the operators")
for _name in ("mean", "var", "all"):
    globals()[_name] = _Unrun(_name, _REDUCE)

_NOT_YET = {
    "rand": "random numbers come from the hardware's generator (XORWOW), whose state at "
            "the start of a kernel and mapping of bits to numbers are not public (NumPy's "
            "numbers would be a stand-in): load random NumPy data with nl.load instead",
    "square": "the instruction NKI's compiler emits for it is not established here: write "
              "nl.multiply(x, x) (TensorTensor) if that is what you mean",
    "reciprocal": "not modelled yet (nisa.reciprocal is a Vector Engine instruction gpsimd "
                  "does not model)",
    "broadcast_to": "a partition broadcast is not modelled yet",
    "transpose": "a transpose (Tensor Engine or Vector Engine) is not modelled",
    "matmul": "a Tensor Engine matrix multiply is not modelled",
    "where": "not modelled yet",
}
for _name, _why in _NOT_YET.items():
    globals()[_name] = _Unrun(_name, _why)
del _name, _why



# ---- SPMD: where a program instance is (gpsimd.nki.jit runs the launch grid) ----------------


def _spmd(call: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return current(call).spmd


def program_ndim() -> int:
    """Number of dimensions in the SPMD launch grid (0 if no grid).

    >>> import gpsimd.nki as nki, gpsimd.nki.language as nl
    >>> @nki.jit
    ... def where():
    ...     return nl.program_ndim(), nl.num_programs(), nl.program_id(0)
    >>> where[2, 3](), where()
    ((2, 6, 1), (0, 1, 0))
    """
    return len(_spmd("nl.program_ndim")[0])


def program_id(axis: int = 0) -> int:
    """Index of the current SPMD program along the given axis in the launch grid (0
    without a grid, as on an axis of size 1).

    >>> import gpsimd.nki as nki, gpsimd.nki.language as nl
    >>> @nki.jit
    ... def ids():
    ...     return nl.program_id(0), nl.program_id(1)
    >>> ids[2, 3]()                      # the last instance of the row-major order
    (1, 2)
    """
    grid, ids = _spmd("nl.program_id")
    axis = _axis("nl.program_id", axis, grid)
    return ids[axis] if axis < len(ids) else 0


def num_programs(axes: Any = None) -> int:
    """Number of SPMD programs along the given axes (an axis or a tuple of them) in the
    launch grid; ``axes=None``: along all of it (1 without a grid).

    >>> import gpsimd.nki as nki, gpsimd.nki.language as nl
    >>> @nki.jit
    ... def sizes():
    ...     return nl.num_programs(0), nl.num_programs((0, 1)), nl.num_programs()
    >>> sizes[nl.nc(2) * 2, 3]()
    (4, 12, 12)
    """
    grid, _ = _spmd("nl.num_programs")
    if axes is None:
        return int(np.prod(grid, dtype=np.int64))
    chosen = axes if isinstance(axes, (tuple, list)) else (axes,)
    n = 1
    for a in chosen:
        a = _axis("nl.num_programs", a, grid)
        n *= grid[a] if a < len(grid) else 1
    return n


def _axis(call: str, axis: Any, grid: tuple[int, ...]) -> int:
    a = int(axis)
    if a < 0 or (grid and a >= len(grid)) or (not grid and a > 0):
        raise IndexError(f"{call}: axis {axis} of a launch grid of {len(grid)} dimensions"
                         f"{' (no grid: axis 0 only)' if not grid else ''}")
    return a


class nc:
    """NKI's ``nl.nc(n)``: a grid dimension spread over ``n`` physical NeuronCores. On
    gpsimd every instance runs on the model in turn, so only its size counts (``nl.nc(2) *
    2`` is a dimension of 4)."""

    def __init__(self, n: int) -> None:
        self.size = int(n)

    def __index__(self) -> int:
        return self.size

    def __mul__(self, other: Any) -> "spmd_dim":
        return spmd_dim(self, other)

    def __rmul__(self, other: Any) -> "spmd_dim":
        return spmd_dim(other, self)

    def __repr__(self) -> str:
        return f"nl.nc({self.size})"


class spmd_dim:
    """NKI's ``nl.spmd_dim(*factors)``: a launch grid dimension of the product of its
    factors (integers or ``nl.nc``); how NKI places it on NeuronCores changes nothing
    here.

    >>> import gpsimd.nki.language as nl
    >>> int(nl.spmd_dim(nl.nc(2), 2)), (nl.nc(2) * 2).__index__(), (2 * nl.nc(2)).size
    (4, 4, 4)
    """

    def __init__(self, *factors: Any) -> None:
        self.factors = factors
        self.size = int(np.prod([int(f.__index__()) for f in factors], dtype=np.int64))

    def __index__(self) -> int:
        return self.size

    def __int__(self) -> int:
        return self.size

    def __mul__(self, other: Any) -> "spmd_dim":
        return spmd_dim(*self.factors, other)

    __rmul__ = __mul__

    def __repr__(self) -> str:
        return f"nl.spmd_dim({', '.join(map(repr, self.factors))})"


def device_print(print_prefix: str, tensor: Any) -> None:
    """Print ``print_prefix`` and the values of a tile or HBM tensor now (NKI's CPU
    simulation prints at once too); BF16/FP8 as their values.

    >>> import gpsimd.nki as nki, gpsimd.nki.language as nl
    >>> with nki.Program():
    ...     nl.device_print("y:", nl.full((1, 3), 1.5, dtype=nl.bfloat16))
    y: [[1.5 1.5 1.5]]
    """
    print(print_prefix, np.asarray(tensor))


from ._index import HbmTensor, arange, ds, mgrid  # noqa: E402
from ._index import narrow as _narrow  # noqa: E402

__all__ += ["load", "store", "zeros_like", "NKIObject", "arange", "mgrid", "ds", "HbmTensor",
            "program_id", "num_programs", "program_ndim", "spmd_dim", "nc", "device_print",
            *_ACTIVATIONS, "sum", "max", "min", "mean", "prod", "var", "all", *_NOT_YET]
