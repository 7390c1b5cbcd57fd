"""``gpsimd.nki.isa``: NKI's ``nki.isa``, bit-exact on gpsimd's instructions.

Import it as NKI code does: ``import gpsimd.nki.isa as nisa``. Every function has the
name, argument order, keyword names and defaults of the public ``nki.isa`` of NKI 0.3.0
(the ``nki/api/nki/isa/__init__.py`` stubs of aws-neuron-sdk, Neuron SDK 2.29.0):
destination first, written in place (``nisa.max8(dst, src)``).

The calls gpsimd models build the instruction words NKI's compiler emits (SPEC §4),
validate them (an invalid word raises :class:`NkiValidationError` naming the call, the
argument and the vendor clause, and nothing runs), run them on the program's machine
and append them to the program (:class:`gpsimd.nki.Program`):

=========================  =====================================================
``iota``                   Iota (0x7e)
``affine_select``          AffineSelect (0x92), the fill in a register
``range_select``           RangeSelect (0xbc), then DveReadAccumulator (0x9b)
                           into ``reduce_res``
``max8``                   Max8 (0x6c), destination walked down from slot 7
``nc_find_index8``         MatchValueLoad (0x6d, negated step) + FindIndex8 (0x6e)
``nc_match_replace8``      MatchValueLoad (0x6d) + MatchReplace8 (0x6f), with
                           ``dst_idx`` + FindIndex8 (0x6e) over NaNs
``nonzero_with_count``     NonzeroWithCount (0xf2)
``tensor_copy_predicated`` CopyPredicatedScalar (0xe8), a scalar ``src``
``sequence_bounds``        GetSequenceBounds (0xbe)
``tensor_copy``            Copy (0x46) for equal dtypes, Cast (0x47) otherwise, on
                           the engine asked for (GpSimd by default, Vector for PSUM)
``tensor_tensor``          TensorTensorArith (0x41) / TensorTensorBitvec (0x51)
``tensor_scalar``          TensorScalarArith (0x43) / TensorScalarBitvec (0x53),
                           TensorScalarPtr* (0x44 / 0x54) for two tile operands
``tensor_tensor_scan``     TensorTensorScan (0xe5)
``scalar_tensor_tensor``   ScalarTensorTensorArith (0x9d)
``select_reduce``          SelectReduce (0xea), then DveReadAccumulator (0x9b)
                           into ``reduce_res``
``memset``                 Memset (0x49), the value as the tile dtype's bits
``tensor_reduce``          TensorReduceArith (0x42) / TensorReduceBitvec (0x52)
``dma_copy``               no instruction: NumPy (HBM) to a tile is initial state,
                           a tile to NumPy reads it (other dtypes: SPEC §5.1's cast)
=========================  =====================================================

Every other ``nki.isa`` call raises NotImplementedError naming the instruction it
would be. Nothing is ever approximated. Every call returns its
:class:`NkiInstruction` (NKI 0.8), with ``depends_on``.

>>> import numpy as np, gpsimd.nki as nki, gpsimd.nki.isa as nisa
>>> import gpsimd.nki.language as nl
>>> with nki.Program():
...     t = nl.ndarray((2, 4), dtype=nl.float32)
...     nisa.iota(t, [[1, 4]], 0, channel_multiplier=4)
...     print(t.numpy())
NkiInstruction(#0 nisa.iota: Iota, word 0)
[[0. 1. 2. 3.]
 [4. 5. 6. 7.]]
"""

from __future__ import annotations

import functools
import inspect
from enum import Enum
from typing import Any

import numpy as np

from .. import _core
from .. import _lower as lower
from .. import _operands
from .._api import field_int as _field_int
from .._api import integer as _integer
from ..dtypes import bits as _bits
from ..dtypes import dtype_name as _dtype_name
from ..dtypes import registered as _registered
from ..formats import cast_storage as _cast_storage
from ..errors import NkiValidationError
from . import language as nl
from ._index import narrow as _narrow
from ._kernel import (_PARTITIONS, NkiInstruction, Tile, _error, _note_arg, _stack, current,
                      dependency)
from .language import equal, maximum

__all__ = [
    "engine", "reduce_cmd", "dge_mode", "oob_mode", "matmul_perf_mode", "nc_version",
    "dma_engine", "NkiValidationError", "VirtualRegister", "tensor_engine", "vector_engine",
    "scalar_engine", "gpsimd_engine", "unknown_engine", "get_nc_version", "dma_copy",
    "tensor_copy", "memset", "tensor_copy_predicated", "nc_matmul", "nc_matmul_mx",
    "nc_transpose", "dma_transpose", "tensor_tensor", "tensor_scalar", "tensor_reduce",
    "tensor_partition_reduce", "tensor_scalar_cumulative", "activation", "activation_reduce",
    "activate2", "iota", "affine_select", "local_gather", "nc_n_gather", "bn_stats", "bn_aggr",
    "tensor_tensor_scan", "nc_stream_shuffle", "rng", "dropout", "set_rng_seed",
    "rand_set_state", "rand_get_state", "rand2", "exponential", "reciprocal", "max8",
    "sequence_bounds", "scalar_tensor_tensor", "tensor_scalar_reduce", "core_barrier",
    "dma_compute", "quantize_mx", "range_select", "select_reduce", "sendrecv",
    "register_alloc", "register_move", "register_load", "register_store", "nc_find_index8",
    "nc_match_replace8", "nonzero_with_count",
    # NKI 0.8: the handle every call returns, and its dependency kinds.
    "NkiInstruction", "dependency",
]


class engine(Enum):
    """Neuron Device engines."""

    tensor = 1
    vector = 5
    scalar = 2
    gpsimd = 3
    dma = 4
    sync = 6
    unknown = 0


class reduce_cmd(Enum):
    """Engine register reduce commands (gpsimd: RangeSelect's ACCUM_CMD, same numbers)."""

    idle = 0
    reset = 1
    reduce = 2
    reset_reduce = 3
    load_reduce = 4


class dge_mode(Enum):
    """Descriptor Generation Engine mode (no effect on a gpsimd dma_copy)."""

    unknown = 0
    swdge = 1
    hwdge = 2
    none = 3


class oob_mode(Enum):
    """Out-of-bounds access mode (gpsimd's dma_copy has no indirect access)."""

    error = 0
    skip = 1


class matmul_perf_mode(Enum):
    """Performance mode for matmul (not modelled)."""

    none = 0
    double_row = 1


class nc_version(Enum):
    """NeuronCore version: gen2 is gpsimd's v2, gen3 v3, gen4 v4."""

    gen2 = 2
    gen3 = 3
    gen4 = 4


class dma_engine(Enum):
    """DMA transfer engine (not modelled)."""

    dma = 0
    gpsimd_dma = 1


class VirtualRegister:
    """NKI's virtual register; gpsimd models no register instructions (register_alloc and
    the others raise NotImplementedError)."""

    def __init__(self, state: Any = None, frozen: bool = False) -> None:
        raise NotImplementedError("nisa.VirtualRegister: gpsimd.nki models no sequencer "
                                  "register instructions")


tensor_engine = engine.tensor
vector_engine = engine.vector
scalar_engine = engine.scalar
gpsimd_engine = engine.gpsimd
unknown_engine = engine.unknown

# The queue engine of each engine enum (SPEC §3.9), for the instructions that take one: the
# engines whose NKI name the engine table knows (vector: dve, gpsimd: pool, scalar: act).
_QUEUE = {e: q for e in engine if (q := _core.parse_engine(e.name)) is not None}


# ---- helpers ------------------------------------------------------------------------------


def _tile(call: str, arg: str, x: Any, program: Any) -> Tile:
    if isinstance(x, Tile):
        if x.program is not program:
            raise _error(call, arg, f"{x._expr} is a tile of another program")
        return x
    if isinstance(x, np.ndarray):
        raise _error(call, arg, "a NumPy array is HBM; the instruction reads SBUF/PSUM tiles: "
                     "nisa.dma_copy it into an nl.ndarray(..., buffer=nl.sbuf) first")
    raise _error(call, arg, f"expected a tile (nl.ndarray(..., buffer=nl.sbuf)), got "
                 f"{type(x).__name__}")


def _same_partitions(call: str, pairs: list[tuple[str, Tile]]) -> int:
    first_arg, first = pairs[0]
    for arg, t in pairs[1:]:
        if t.partitions != first.partitions:
            raise _error(call, arg, f"{t._expr} has {t.partitions} partitions, {first_arg} "
                         f"{first.partitions}: the partition dimensions must be the same size")
    return first.partitions


def _refused(call: str, arg: str, read: Any, *a: Any) -> Any:
    """Return ``read(call, arg, *a)`` (a reading of an argument shared with the NumPy
    face, :mod:`gpsimd._operands`); its TypeError or ValueError as NkiValidationError
    naming the argument."""
    try:
        return read(call, arg, *a)
    except (TypeError, ValueError) as e:
        text = str(e)
        for prefix in (f"{call}: {arg}: ", f"{call}: "):
            if text.startswith(prefix):
                text = text[len(prefix):]
                break
        raise _error(call, arg, text) from None


def _field(call: str, arg: str, value: Any, field: str) -> int:
    """Return an integer argument that goes into a word field of integer type ``field``
    (``'int32'``, ...: gpsimd's one range check, ``field_int``), or raise naming it."""
    return _refused(call, arg, lambda c, a, v: _field_int(c, a, _integer(c, a, v), field), value)


def _fp32(call: str, arg: str, value: Any) -> np.float32:
    if isinstance(value, np.float32):
        return value
    if isinstance(value, (bool, np.bool_)) or not isinstance(
            value, (int, float, np.integer, np.floating)):
        raise _error(call, arg, f"expected a number (an FP32 value), got {value!r}")
    return np.float32(value)


def _note(call: str, **args: Any) -> str:
    return f"{call}(" + ", ".join(f"{k}={_note_arg(v)}" for k, v in args.items()) + ")"


def _not_modelled(instruction: str) -> Any:
    """Make a stub's signature a call that raises NotImplementedError naming the
    instruction (after checking its arguments as the stub would), with its help."""

    def wrap(fn: Any) -> Any:
        sig = inspect.signature(fn)
        message = (f"nisa.{fn.__name__} is {instruction}, which gpsimd does not model "
                   "(SPEC §1 lists the modelled instructions)")
        required = [q for q in sig.parameters.values() if q.default is q.empty]

        @functools.wraps(fn)
        def raising(*args: Any, **kwargs: Any) -> Any:
            sig.bind(*args, **kwargs)  # a wrong call is a TypeError, as with NKI's stub
            raise NotImplementedError(message)

        raising.__doc__ = (
            f"NKI's ``nki.isa.{fn.__name__}``: {instruction}. gpsimd does not model it; the "
            "call raises NotImplementedError.\n\n"
            "    >>> import gpsimd.nki.isa as nisa\n"
            f"    >>> nisa.{fn.__name__}({', '.join('None' for _ in required)})\n"
            "    Traceback (most recent call last):\n    ...\n"
            f"    NotImplementedError: {message}\n")
        return raising

    return wrap


# ---- machine-wide ---------------------------------------------------------------------------


def get_nc_version():
    """Returns the nc_version of the current target context: the program's generation
    (v2 is gen2, v3 gen3, v4 gen4; None for v5, which NKI's nc_version has no member for).

    >>> import gpsimd.nki as nki, gpsimd.nki.isa as nisa
    >>> with nki.Program("v2"):
    ...     nisa.get_nc_version()
    <nc_version.gen2: 2>
    """
    gen = current("nisa.get_nc_version").generation
    return {"v2": nc_version.gen2, "v3": nc_version.gen3, "v4": nc_version.gen4}.get(gen)


# ---- data movement --------------------------------------------------------------------------


def dma_copy(dst, src, priority=None, oob_mode=oob_mode.error, dge_mode=dge_mode.unknown,
             engine=engine.unknown, name=None):
    """Copy data from ``src`` to ``dst``: NumPy arrays stand for HBM.

    - NumPy to a tile: the data become the program's **initial state** (a DMA transfer
      is no instruction of the model): written into the machine now, and into the
      program text as ``.data``/``.load``, so that a replay starts from them. Only bytes
      no instruction of the program has touched yet can be initial state, so a tile an
      instruction already read or wrote raises NotImplementedError (write a fresh tile).
    - A tile to NumPy: the tile's contents, copied into the array.
    - NumPy to NumPy: a copy. A tile to a tile (an on-chip DMA): the source's contents
      as they are, written into the destination as initial state (so only into bytes
      no instruction has touched).

    The element counts must match (the data are taken in C order). Dtypes as DmaMemcpy
    has them (SPEC §4.23): equal dtypes copy the bits, and so does an array whose NumPy
    storage is the tile's (``uint16`` bit patterns for a BF16 tile, ``uint8`` for FP8;
    arrays of the NumPy dtypes ``bfloat16``, ``float8_e4m3``, ``float8_e5m2`` are their
    bit patterns too); other dtypes convert every element by SPEC §5.1's ``cast``
    through FP32 (an int32 tile into a float32 array, a float32 array into a bf16
    tile: round to nearest even, integers saturate, NaN becomes 0 in an integer).
    ``priority``, ``oob_mode``, ``dge_mode`` and ``engine`` change nothing here.

    >>> import numpy as np, gpsimd, gpsimd.nki as nki, gpsimd.nki.isa as nisa
    >>> import gpsimd.nki.language as nl
    >>> with nki.Program() as p:
    ...     t = nl.ndarray((2, 3), dtype=nl.bfloat16)
    ...     nisa.dma_copy(dst=t, src=np.float32([[1, 2.5, 3], [1e-3, 300, -1]]))
    ...     out = nl.ndarray((2, 3), dtype=nl.int32, buffer=nl.shared_hbm)
    ...     nisa.dma_copy(dst=out, src=t)
    NkiInstruction(#0 nisa.dma_copy: host DMA, no words)
    NkiInstruction(#1 nisa.dma_copy: host DMA, no words)
    >>> out                                   # BF16 2.5 rounds to even; 1e-3 to 0
    HbmTensor([[  1,   2,   3],
               [  0, 300,  -1]], dtype=int32)
    >>> p.recording.loads[0].region()
    'sbuf[p=0..1, off=0x0]'
    """
    call = "nisa.dma_copy"
    dst, src = _narrow(call, dst, None), _narrow(call, src, None)
    if not isinstance(dst, (Tile, np.ndarray)):
        raise _error(call, "dst", f"expected a tile or a NumPy array, got {type(dst).__name__}")
    if isinstance(src, Tile):
        from_name, data = src.gpsimd_dtype, src.numpy()
    else:
        from_name, data = _hbm_dtype(call, "src", np.asarray(src))
    if isinstance(dst, Tile):
        to_name, store = dst.gpsimd_dtype, None
    else:
        to_name, store = _hbm_dtype(call, "dst", dst)
    what, other = ("src", dst) if isinstance(dst, Tile) else ("dst", src)
    if data.size != (dst.size if isinstance(dst, Tile) else store.size):
        raise _error(call, what, f"has {data.size if what == 'src' else store.size} elements, "
                     f"{_note_arg(other)} {dst.size if what == 'src' else data.size}: the "
                     "element counts must match")
    to_storage = dst.dtype.storage if isinstance(dst, Tile) else store.dtype
    if data.dtype.newbyteorder("=") != to_storage.newbyteorder("=") or (
            isinstance(src, Tile) and isinstance(dst, Tile) and from_name != to_name):
        data = _cast_storage(data, from_name, to_name)  # DmaMemcpy's cast, SPEC §4.23
    if isinstance(dst, Tile):
        dst.program._initial(call, dst, data.reshape(dst.shape))
    else:
        store[...] = data.reshape(store.shape)
    return _dma_handle(call, dst, src)


def _hbm_dtype(call: str, arg: str, a: np.ndarray) -> tuple[str, np.ndarray]:
    """Return (the gpsimd dtype, the storage view) of an HBM array: the registered
    bfloat16/float8 dtypes by name, a NumPy type by the dtype it stores natively."""
    if a.dtype == np.bool_:  # NKI's bool_: a byte, stored as UINT8 (nl.bool_)
        return "UINT8", a.view(np.uint8)
    try:
        name = _registered(a.dtype) or _dtype_name(a.dtype)
    except ValueError:
        raise _error(call, arg, f"is {a.dtype}, which is no NKI dtype (a DMA moves int8 .. "
                     "uint32, float16, bfloat16, float8, float32)") from None
    return name, _bits(a)


def _dma_handle(call: str, dst: Any, src: Any) -> NkiInstruction | None:
    """The handle of a dma_copy (no words): in the program of its tile, or the program
    being built; None outside any."""
    tile = dst if isinstance(dst, Tile) else src if isinstance(src, Tile) else None
    program = tile.program if tile is not None else (_stack() or [None])[-1]
    return None if program is None else program._record(_note(call, dst=dst, src=src))


def _copy_engine(call: str, eng: Any, tiles: list[Tile]) -> str | None:
    """Return the engine input (SPEC §3.9) of an NKI engine argument: vector_engine 'dve',
    gpsimd_engine 'pool', scalar_engine 'act'; unknown_engine the GpSimd engine (the
    instruction's default, None) unless a tile is in PSUM, which GpSimd cannot access:
    then the Vector engine."""
    if eng is engine.unknown:
        return "dve" if any(t.space == "psum" for t in tiles) else None
    if isinstance(eng, engine) and eng in _QUEUE:
        return _QUEUE[eng]
    raise _error(call, "engine", f"{_note_arg(eng)} does not run it; expected "
                 "nisa.vector_engine, nisa.gpsimd_engine, nisa.scalar_engine or "
                 "nisa.unknown_engine")


def tensor_copy(dst, src, engine=engine.unknown, name=None):
    """Copy ``src`` into ``dst`` on chip: Copy (0x46, SPEC §4.16) when their dtypes are
    equal, the bits unchanged, and Cast (0x47, §4.17) when they differ, every element
    converted by SPEC §5.1 (through FP32: round to nearest even, integers saturate, NaN
    becomes 0 in an integer, narrow floats overflow to ±inf).

    ``dst`` and ``src`` are SBUF or PSUM tiles with the same number of partitions and of
    elements per partition; their shapes may differ (each is walked in its own element
    order, pairing elements by position). ``engine``: ``nisa.vector_engine``,
    ``nisa.gpsimd_engine`` or ``nisa.scalar_engine``; ``nisa.unknown_engine`` (the
    default) runs on the GpSimd engine, or on the Vector engine when a tile is in PSUM,
    which GpSimd cannot access (NKI's compiler picks by workload; this is gpsimd's fixed
    choice). A PSUM ``dst`` needs a 4-byte dtype. On NeuronCore-v2 the Scalar engine
    takes every element through FP32, equal dtypes included (an int32 beyond 2^24 is
    rounded).

    NKI's test (``test_nki_isa_tensor_copy``): an (8, 8) float32 tile copied on the
    Vector engine equals ``np.copy`` of it.

    >>> import numpy as np, gpsimd.nki as nki, gpsimd.nki.isa as nisa
    >>> import gpsimd.nki.language as nl
    >>> np.random.seed(0)
    >>> a = np.random.random_sample([8, 8]).astype(np.float32) * 100
    >>> with nki.Program() as p:
    ...     src = nl.ndarray((8, 8), dtype=nl.float32)
    ...     nisa.dma_copy(dst=src, src=a)
    ...     dst = nl.ndarray((8, 8), dtype=nl.float32)
    ...     nisa.tensor_copy(dst, src, engine=nisa.vector_engine)
    ...     acc = nl.ndarray((8, 8), dtype=nl.float32, buffer=nl.psum)
    ...     nisa.tensor_copy(acc, src)                  # to PSUM: on the Vector engine
    ...     low = nl.ndarray((8, 8), dtype=nl.bfloat16)
    ...     nisa.tensor_copy(low, acc)                  # PSUM FP32 to SBUF BF16: Cast
    NkiInstruction(#0 nisa.dma_copy: host DMA, no words)
    NkiInstruction(#1 nisa.tensor_copy: Copy, word 0)
    NkiInstruction(#2 nisa.tensor_copy: Copy, word 1)
    NkiInstruction(#3 nisa.tensor_copy: Cast, word 2)
    >>> np.array_equal(dst.numpy(), np.copy(a)), np.array_equal(acc.numpy(), a)
    (True, True)
    >>> [w[0] for w in p.words]
    [70, 70, 71]
    """
    call = "nisa.tensor_copy"
    p = current(call)
    dst = _tile(call, "dst", dst, p)
    src = _tile(call, "src", src, p)
    channels = _same_partitions(call, [("dst", dst), ("src", src)])
    eng = _copy_engine(call, engine, [src, dst])
    word = lower.copy(in_dtype=src.gpsimd_dtype, out_dtype=dst.gpsimd_dtype, channels=channels,
                      src=src._descriptor(call, "src", 4), dst=dst._descriptor(call, "dst", 4))
    return p._emit(call, [word], [src], [dst], _note(call, dst=dst, src=src, engine=engine),
                   eng)


def memset(dst, value, engine=engine.unknown, name=None):
    """Fill ``dst`` with ``value``: Memset (0x49, SPEC §4.18). The word's ``set_value``
    is ``dst``'s dtype's bit pattern of ``value``: a Python ``int`` (or ``bool``) into an
    integer dtype is taken exactly and must fit; every other value is rounded to FP32
    (nearest even) and then converted as SPEC §5.1 says (300.0 into int8 is 127, NaN into
    an integer 0). ``dst`` is an SBUF or PSUM tile (PSUM with a 4-byte dtype); FP32R
    tiles are not fillable. ``engine``: ``nisa.vector_engine`` or ``nisa.gpsimd_engine``
    (no PSUM); ``nisa.unknown_engine`` (the default) is the Vector engine;
    ``nisa.scalar_engine`` faults (Memset does not run there).

    NKI's test (``test_nki_isa_memset``): a (128, 128) float32 tile filled with 0.2
    equals ``np.full([128, 128], 0.2).astype(np.float32)``.

    >>> import numpy as np, gpsimd.nki as nki, gpsimd.nki.isa as nisa
    >>> import gpsimd.nki.language as nl
    >>> with nki.Program() as p:
    ...     a = nl.ndarray((128, 128), dtype=nl.float32)
    ...     nisa.memset(a, 0.2)
    ...     b = nl.ndarray((2, 3), dtype=nl.int8)
    ...     nisa.memset(b, -1, engine=nisa.gpsimd_engine)
    NkiInstruction(#0 nisa.memset: Memset, word 0)
    NkiInstruction(#1 nisa.memset: Memset, word 1)
    >>> np.array_equal(a.numpy(), np.full([128, 128], 0.2).astype(np.float32))
    True
    >>> b.numpy()
    array([[-1, -1, -1],
           [-1, -1, -1]], dtype=int8)
    >>> hex(int.from_bytes(p.words[0][40:44], "little"))
    '0x3e4ccccd'
    """
    call = "nisa.memset"
    p = current(call)
    dst = _tile(call, "dst", dst, p)
    if dst.gpsimd_dtype == "FP32R":
        raise _error(call, "dst", "an FP32R tile is not fillable (memset_set_value_type has "
                     "no FP32R arm)")
    bits = _refused(call, "value", _operands.memset_bits, value, dst.gpsimd_dtype)
    eng = _alu_engine(call, engine)
    word = lower.memset(dtype=dst.gpsimd_dtype, channels=dst.partitions,
                        dst=dst._descriptor(call, "dst", 4), set_value=bits)
    return p._emit(call, [word], [], [dst], _note(call, dst=dst, value=value, engine=engine),
                   eng)


# ---- the modelled instructions --------------------------------------------------------------


def iota(dst, pattern, offset=0, channel_multiplier=0, name=None):
    """Generate a constant literal pattern into SBUF using GpSimd Engine: Iota (0x7e).

    ``dst[channel_id, w, z, y, x] = offset + channel_id * channel_multiplier + w * step_w +
    z * step_z + y * step_y + x * step_x`` in int32 (wrapping), converted to ``dst``'s
    dtype (SPEC §4.6: integers keep the low bits, floats round through FP32).
    ``pattern`` is ``[[step_w, num_w], ..., [step_x, num_x]]`` (up to four pairs,
    outermost first); its element count must be ``dst``'s per partition. ``dst`` must
    be in SBUF.

    >>> import gpsimd.nki as nki, gpsimd.nki.isa as nisa, gpsimd.nki.language as nl
    >>> with nki.Program():
    ...     d = nl.ndarray((3, 1), dtype=nl.int32)
    ...     nisa.iota(d, [[0, 1]], offset=5, channel_multiplier=2)
    ...     print(d.numpy().ravel())
    NkiInstruction(#0 nisa.iota: Iota, word 0)
    [5 7 9]
    """
    call = "nisa.iota"
    p = current(call)
    dst = _tile(call, "dst", dst, p)
    offset = _field(call, "offset", offset, "int32")
    cm = _field(call, "channel_multiplier", channel_multiplier, "int32")
    data, _ = _refused(call, "pattern", _operands.data4d, pattern, offset)
    word = lower.iota(out_dtype=dst.gpsimd_dtype, channels=dst.partitions, pattern=data,
                      channel_multiplier=cm, dst=dst._descriptor(call, "dst", 4))
    return p._emit(call, [word], [], [dst],
                   _note(call, dst=dst, pattern=pattern, offset=offset, channel_multiplier=cm))


def affine_select(dst, pattern, channel_multiplier, on_true_tile, on_false_value, cmp_op=equal,
                  offset=0, name=None):
    """Select between ``on_true_tile`` and ``on_false_value`` by an affine predicate:
    AffineSelect (0x92).

    ``affine_value = offset + channel_id * channel_multiplier + Σ i * step`` over the
    pattern (as :func:`iota`), ``dst = on_true_tile`` where ``cmp_op(affine_value, 0)``,
    else ``on_false_value`` (an FP32, held in a register of the program's initial
    state, converted to ``dst``'s dtype). ``cmp_op`` is ``nl.equal`` (the default),
    ``nl.not_equal``, ``nl.greater`` or ``nl.greater_equal`` (AffineSelect's fill_mode
    EQ, NE, GT, GE; ``nl.less`` has no fill mode: negate the pattern). A different input
    dtype converts through FP32 (SPEC §4.5). Both tiles must be in SBUF.

    >>> import numpy as np, gpsimd.nki as nki, gpsimd.nki.isa as nisa
    >>> import gpsimd.nki.language as nl
    >>> with nki.Program():
    ...     s = nl.ndarray((3, 3), dtype=nl.float32)
    ...     nisa.dma_copy(dst=s, src=np.ones((3, 3), np.float32))
    ...     m = nl.ndarray((3, 3), dtype=nl.float32)
    ...     # keep col <= row: affine value row - col >= 0
    ...     nisa.affine_select(m, [[-1, 3]], 1, s, -9984.0, cmp_op=nl.greater_equal)
    ...     print(m.numpy())
    NkiInstruction(#0 nisa.dma_copy: host DMA, no words)
    NkiInstruction(#1 nisa.affine_select: AffineSelect, word 0)
    [[ 1.000e+00 -9.984e+03 -9.984e+03]
     [ 1.000e+00  1.000e+00 -9.984e+03]
     [ 1.000e+00  1.000e+00  1.000e+00]]
    """
    call = "nisa.affine_select"
    p = current(call)
    dst = _tile(call, "dst", dst, p)
    src = _tile(call, "on_true_tile", on_true_tile, p)
    channels = _same_partitions(call, [("dst", dst), ("on_true_tile", src)])
    offset = _field(call, "offset", offset, "int32")
    cm = _field(call, "channel_multiplier", channel_multiplier, "int32")
    data, _ = _refused(call, "pattern", _operands.data4d, pattern, offset)
    cmp = _refused(call, "cmp_op", _operands.affine_cmp, cmp_op)
    fill = _fp32(call, "on_false_value", on_false_value)
    word = lower.affine_select(in_dtype=src.gpsimd_dtype, out_dtype=dst.gpsimd_dtype,
                               channels=channels, src=src._descriptor(call, "on_true_tile", 2),
                               dst=dst._descriptor(call, "dst", 2), pattern=data,
                               channel_multiplier=cm, cmp_op=cmp,
                               fill_reg=p._fill_register(int(fill.view(np.uint32))))
    return p._emit(call, [word], [src], [dst],
                   _note(call, dst=dst, pattern=pattern, channel_multiplier=cm, on_true_tile=src,
                         on_false_value=on_false_value, cmp_op=cmp_op, offset=offset))


_REDUCE_CMD = {reduce_cmd.idle: "IDLE", reduce_cmd.reset: "ZERO", reduce_cmd.reduce: "ACCUMULATE",
               reduce_cmd.reset_reduce: "ZERO_ACCUMULATE",
               reduce_cmd.load_reduce: "LOAD_ACCUMULATE"}


def _reduce_op(call: str, op: Any) -> str:
    if op in (np.max, np.amax, np.maximum):
        return "MAX"
    name = getattr(op, "tensor_op", None)
    if name is None:
        raise _error(call, "reduce_op", f"{op!r} is not an NKI operator (nl.maximum)")
    return name


def _bound(call: str, arg: str, value: Any, program: Any, channels: int):
    """Return (the bound, tile or None) of a bound: a number (an FP32 instruction
    immediate) or a [P, 1] FP32 tile (a pointer, its address: channel c reads partition
    start + c)."""
    if isinstance(value, Tile):
        t = _tile(call, arg, value, program)
        if t.partitions != channels or t._free_count() != 1:
            raise _error(call, arg, f"{t._expr} has shape {t.shape}; a bound tile has one "
                         f"element in each of the {channels} partitions")
        if t.dtype.gpsimd_dtype != "FP32":
            raise _error(call, arg, f"{t._expr} is {t.dtype}; bound tiles must be float32 "
                         "(the instruction reads them as FP32)")
        return t._address(), t
    return _fp32(call, arg, value), None


def range_select(dst, on_true_tile, comp_op0, comp_op1, bound0, bound1,
                 reduce_cmd=reduce_cmd.reset_reduce, reduce_res=None, reduce_op=maximum,
                 range_start=0, on_false_value=..., name=None):
    """Select elements by their free-dimension index and reduce with max: RangeSelect
    (0xbc, NeuronCore-v3 and newer).

    ``idx = range_start + j`` (FP32) passes when ``comp_op0(idx, bound0)`` and
    ``comp_op1(idx, bound1)``; ``dst[j]`` is then ``on_true_tile[j]``, else
    ``on_false_value``, which must be ``nl.fp32.min`` (the default ``...`` means it).
    The row maximum of the FP32 results goes to the accumulators by ``reduce_cmd``
    (``reset_reduce``: ZERO_ACCUMULATE, ``reduce``: ACCUMULATE, ``idle``: unchanged; the
    others are invalid), and, with ``reduce_res`` (a ``[P, 1]`` tile starting at
    ``on_true_tile``'s partition), a DveReadAccumulator writes them there in its dtype.
    The comparisons are ``nl.equal``, ``nl.greater``, ``nl.greater_equal``,
    ``nl.less``, ``nl.less_equal`` (or the NumPy ufuncs); ``reduce_op`` ``nl.maximum``;
    a bound is a number or a ``[P, 1]`` float32 tile.

    >>> import numpy as np, gpsimd.nki as nki, gpsimd.nki.isa as nisa
    >>> import gpsimd.nki.language as nl
    >>> with nki.Program():
    ...     x = nl.ndarray((1, 6), dtype=nl.float32)
    ...     nisa.dma_copy(dst=x, src=np.array([[5, 1, 4, 2, 3, 0]], np.float32))
    ...     y, mx = nl.ndarray((1, 6), dtype=nl.float32), nl.ndarray((1, 1), dtype=nl.float32)
    ...     nisa.range_select(dst=y, on_true_tile=x, comp_op0=nl.greater_equal,
    ...                       comp_op1=nl.less, bound0=1.0, bound1=4.0, reduce_res=mx)
    ...     print(y.numpy()[0, 1:4], mx.numpy())
    NkiInstruction(#0 nisa.dma_copy: host DMA, no words)
    NkiInstruction(#1 nisa.range_select: RangeSelect + DveReadAccumulator, words 0..1)
    [1. 4. 2.] [[4.]]
    """
    call = "nisa.range_select"
    p = current(call)
    dst = _tile(call, "dst", dst, p)
    src = _tile(call, "on_true_tile", on_true_tile, p)
    channels = _same_partitions(call, [("dst", dst), ("on_true_tile", src)])
    op0 = _refused(call, "comp_op0", _operands.comparison, comp_op0)
    op1 = _refused(call, "comp_op1", _operands.comparison, comp_op1)
    if reduce_cmd not in _REDUCE_CMD:
        raise _error(call, "reduce_cmd", f"{reduce_cmd!r} is not an nisa.reduce_cmd")
    fill = np.float32(nl.fp32.min) if on_false_value is ... else _fp32(call, "on_false_value",
                                                                     on_false_value)
    b0, t0 = _bound(call, "bound0", bound0, p, channels)
    b1, t1 = _bound(call, "bound1", bound1, p, channels)
    words = [lower.range_select(
        in_dtype=src.gpsimd_dtype, out_dtype=dst.gpsimd_dtype, channels=channels,
        src=src._descriptor(call, "on_true_tile", 2), dst=dst._descriptor(call, "dst", 2),
        comp_op0=op0, comp_op1=op1, bound0=b0, bound1=b1,
        range_start=_fp32(call, "range_start", range_start),
        reduce_cmd=_REDUCE_CMD[reduce_cmd], reduce_op=_reduce_op(call, reduce_op), fill=fill)]
    writes = [dst]
    if reduce_res is not None:
        res, word = _read_out(call, reduce_res, p, channels, src, "on_true_tile")
        words.append(word)
        writes.append(res)
    reads = [src] + [t for t in (t0, t1) if t is not None]
    return p._emit(call, words, reads, writes,
                   _note(call, dst=dst, on_true_tile=src, comp_op0=comp_op0,
                         comp_op1=comp_op1, bound0=bound0, bound1=bound1,
                         reduce_cmd=reduce_cmd, reduce_res=reduce_res, reduce_op=reduce_op,
                         range_start=range_start, on_false_value=on_false_value))


def max8(dst, src, name=None):
    """Find the 8 largest values in each partition of the source tile: Max8 (0x6c).

    Values compare as FP32 (NaNs left out, -0.0 below +0.0, a partition with fewer than
    8 numbers filled with -inf) and are written in descending order, converted to
    ``dst``'s dtype: Max8 writes smallest first, and ``dst`` is walked down from its
    last element, as NKI's compiler emits it (SPEC §4.8). ``src`` reads 8..16384
    elements per partition; ``dst`` is ``[P, 8]``.

    >>> import numpy as np, gpsimd.nki as nki, gpsimd.nki.isa as nisa
    >>> import gpsimd.nki.language as nl
    >>> with nki.Program():
    ...     x = nl.ndarray((1, 10), dtype=nl.float32)
    ...     nisa.dma_copy(dst=x, src=np.array([[5, -1, 9, 3, np.nan, .5, 100, -7, 2, 8]],
    ...                                       np.float32))
    ...     top = nl.ndarray((1, 8), dtype=nl.float32)
    ...     nisa.max8(dst=top, src=x)
    ...     print(top.numpy())
    NkiInstruction(#0 nisa.dma_copy: host DMA, no words)
    NkiInstruction(#1 nisa.max8: Max8, word 0)
    [[100.    9.    8.    5.    3.    2.    0.5  -1. ]]
    """
    call = "nisa.max8"
    p = current(call)
    dst = _tile(call, "dst", dst, p)
    src = _tile(call, "src", src, p)
    channels = _same_partitions(call, [("dst", dst), ("src", src)])
    word = lower.max8(in_dtype=src.gpsimd_dtype, out_dtype=dst.gpsimd_dtype, channels=channels,
                      src=src._descriptor(call, "src", 4), dst=dst._descriptor(call, "dst", 2))
    return p._emit(call, [word], [src], [dst], _note(call, dst=dst, src=src))


def _vals_tile(call: str, vals: Any, data: Tile, program: Any) -> Tile:
    v = _tile(call, "vals", vals, program)
    if v.partitions != data.partitions or v.start_partition != data.start_partition:
        raise _error(call, "vals", f"{v._expr} covers partitions {v.start_partition}.."
                     f"{v.start_partition + v.partitions - 1}, data "
                     f"{data.start_partition}..{data.start_partition + data.partitions - 1}: "
                     "each partition's search lane holds its own 8 values, so they must be "
                     "the same partitions")
    return v


def nc_find_index8(dst, data, vals, name=None):
    """Find indices of the 8 given vals in each partition of the data tensor:
    MatchValueLoad (0x6d) of ``vals`` walked from its last element (``mv[n] =
    vals[n]``), then FindIndex8 (0x6e) over ``data``.

    Column ``n`` of ``dst`` is the position of the first unconsumed element equal to
    ``vals[n]`` (FP32 equality: NaN matches nothing, -0.0 equals +0.0), so duplicate
    vals take ascending positions in ascending columns; a value not found gives the
    all-ones sentinel (0xFFFFFFFF, or 0xFFFF for a uint16 ``dst``). ``dst`` is uint32 or
    uint16, ``[P, 8]``; ``data`` holds 8..16384 elements per partition.

    >>> import numpy as np, gpsimd.nki as nki, gpsimd.nki.isa as nisa
    >>> import gpsimd.nki.language as nl
    >>> with nki.Program():
    ...     d = nl.ndarray((1, 11), dtype=nl.float32)
    ...     nisa.dma_copy(dst=d, src=np.array([[1, 2, 3, 4, 8, 8, 8, 8, 8, 8, 8]], np.float32))
    ...     v = nl.ndarray((1, 8), dtype=nl.float32)
    ...     nisa.dma_copy(dst=v, src=np.array([[3, 8, 8, 8, 8, 8, 8, 8]], np.float32))
    ...     idx = nl.ndarray((1, 8), dtype=nl.uint32)
    ...     nisa.nc_find_index8(dst=idx, data=d, vals=v)
    ...     print(idx.numpy())
    NkiInstruction(#0 nisa.dma_copy: host DMA, no words)
    NkiInstruction(#1 nisa.dma_copy: host DMA, no words)
    NkiInstruction(#2 nisa.nc_find_index8: MatchValueLoad + FindIndex8, words 0..1)
    [[ 2  4  5  6  7  8  9 10]]
    """
    call = "nisa.nc_find_index8"
    p = current(call)
    dst = _tile(call, "dst", dst, p)
    data = _tile(call, "data", data, p)
    channels = _same_partitions(call, [("dst", dst), ("data", data)])
    v = _vals_tile(call, vals, data, p)
    words = lower.find_index8(vals_dtype=v.gpsimd_dtype, in_dtype=data.gpsimd_dtype,
                              out_dtype=dst.gpsimd_dtype, channels=channels,
                              vals=v._descriptor(call, "vals", 2),
                              data=data._descriptor(call, "data", 4),
                              dst=dst._descriptor(call, "dst", 2))
    return p._emit(call, words, [data, v], [dst], _note(call, dst=dst, data=data, vals=v))


def _nan_lanes(call: str, program: Any, first: int, channels: int) -> Tile:
    """8 FP32 NaNs in each of the partitions ``first .. first + channels - 1``: the source
    of the FindIndex8 that writes ``dst_idx`` (a NaN matches no slot). The program makes
    the tile ``nan8`` once, as initial state."""
    if program._nan8 is None:
        t = program._allocate(call, (_PARTITIONS, 8), nl.float32, "sbuf", "nan8")
        program._initial(call, t, np.full((_PARTITIONS, 8), np.nan, np.float32))
        program._nan8 = t
    return program._nan8[first:first + channels]


def nc_match_replace8(dst, data, vals, imm: float, dst_idx=None, name=None):
    """Replace the first occurrence of each of the 8 vals with ``imm``: MatchValueLoad
    (0x6d) of ``vals`` (``mv[7 - k] = vals[k]``), then MatchReplace8 (0x6f).

    Every element passes through FP32 to ``dst``'s dtype (a BF16 signalling NaN comes
    back quiet); ``imm`` is an FP32 (any bits: a NaN payload too). The matched positions
    are the search lanes' ``idx`` state (SPEC §4.10); with ``dst_idx`` (a ``[P, 8]``
    uint32 or uint16 tile) they are written there, ``dst_idx[k] = idx[7 - k]`` (so
    duplicate vals take descending positions, the opposite of ``nc_find_index8``; the
    all-ones sentinel where a value was not found), by a third word: FindIndex8 (0x6e)
    over NaNs, which match no slot, so it writes each slot's ``idx`` as it is (SPEC
    §4.9). The NaNs are a tile ``nan8`` of the program's initial state; the instruction
    NKI's compiler uses to read the indices is not public.

    >>> import numpy as np, gpsimd, gpsimd.nki as nki, gpsimd.nki.isa as nisa
    >>> import gpsimd.nki.language as nl
    >>> with nki.Program() as p:
    ...     d = nl.ndarray((1, 11), dtype=nl.float32)
    ...     nisa.dma_copy(dst=d, src=np.array([[1, 2, 3, 4, 8, 8, 8, 8, 8, 8, 8]], np.float32))
    ...     v = nl.ndarray((1, 8), dtype=nl.float32)
    ...     nisa.dma_copy(dst=v, src=np.array([[3, 8, 8, 8, 8, 8, 8, 8]], np.float32))
    ...     out = nl.ndarray((1, 11), dtype=nl.float32)
    ...     idx = nl.ndarray((1, 8), dtype=nl.uint32)
    ...     nisa.nc_match_replace8(dst=out, data=d, vals=v, imm=-1.0, dst_idx=idx)
    ...     print(out.numpy(), idx.numpy())
    NkiInstruction(#0 nisa.dma_copy: host DMA, no words)
    NkiInstruction(#1 nisa.dma_copy: host DMA, no words)
    NkiInstruction(#2 nisa.nc_match_replace8: MatchValueLoad + MatchReplace8 + FindIndex8, words 0..2)
    [[ 1.  2. -1.  4. -1. -1. -1. -1. -1. -1. -1.]] [[ 2 10  9  8  7  6  5  4]]
    >>> [gpsimd.decode(w)["instruction"] for w in p.words]
    ['MatchValueLoad', 'MatchReplace8', 'FindIndex8']
    """
    call = "nisa.nc_match_replace8"
    p = current(call)
    dst = _tile(call, "dst", dst, p)
    data = _tile(call, "data", data, p)
    channels = _same_partitions(call, [("dst", dst), ("data", data)])
    v = _vals_tile(call, vals, data, p)
    reads, writes, extra = [data, v], [dst], {}
    if dst_idx is not None:
        idx = _tile(call, "dst_idx", dst_idx, p)
        _same_partitions(call, [("data", data), ("dst_idx", idx)])
        nan = _nan_lanes(call, p, data.start_partition, channels)
        extra = dict(dst_idx=idx._descriptor(call, "dst_idx", 2), idx_dtype=idx.gpsimd_dtype,
                     nan=nan._descriptor(call, "dst_idx", 4))
        reads.append(nan)
        writes.append(idx)
    words = lower.match_replace8(vals_dtype=v.gpsimd_dtype, in_dtype=data.gpsimd_dtype,
                                 out_dtype=dst.gpsimd_dtype, channels=channels,
                                 vals=v._descriptor(call, "vals", 2),
                                 data=data._descriptor(call, "data", 4),
                                 dst=dst._descriptor(call, "dst", 4),
                                 imm=_fp32(call, "imm", imm), **extra)
    note = dict(dst=dst, data=data, vals=v, imm=imm)
    if dst_idx is not None:
        note["dst_idx"] = writes[-1]
    return p._emit(call, words, reads, writes, _note(call, **note))


def _int32_operand(call: str, arg: str, value: Any, program: Any, channels: int):
    """Return (the operand, tile or None) of an INT32 operand: an integer (an instruction
    immediate) or a [P, 1] int32 tile (a pointer, its address)."""
    if isinstance(value, Tile):
        t = _tile(call, arg, value, program)
        if t.partitions != channels or t._free_count() != 1 or t.dtype.gpsimd_dtype != "INT32":
            raise _error(call, arg, f"{t._expr} ({t.dtype} {t.shape}) must be an int32 tile "
                         f"with one element in each of the {channels} partitions")
        return t._address(), t
    return _field(call, arg, value, "int32"), None


def nonzero_with_count(dst, src, index_offset=0, padding_val=-1, name=None):
    """Find the indices of the nonzero elements and their count: NonzeroWithCount (0xf2,
    NeuronCore-v3 and newer).

    Only partitions 0, 16, ..., 112 of the tiles are read and written (one per GpSimd
    core); the others of ``dst`` keep their bytes. A processed partition gets the
    positions of its nonzero elements plus ``index_offset``, then ``padding_val``, and
    the count in the last element (``dst`` has one element more than ``src``). ``src``
    is float32 (``x != 0``: -0.0 is zero, NaN is not) or int32; ``dst`` int32; both in
    SBUF. ``index_offset`` and ``padding_val`` are int32 numbers or ``[P, 1]`` int32
    tiles.

    >>> import numpy as np, gpsimd.nki as nki, gpsimd.nki.isa as nisa
    >>> import gpsimd.nki.language as nl
    >>> with nki.Program():
    ...     s = nl.ndarray((1, 8), dtype=nl.int32)
    ...     nisa.dma_copy(dst=s, src=np.array([[0, 1, 1, 0, 0, 1, 0, 0]], np.int32))
    ...     out = nl.ndarray((1, 9), dtype=nl.int32)
    ...     nisa.nonzero_with_count(dst=out, src=s, index_offset=16, padding_val=-1)
    ...     print(out.numpy())
    NkiInstruction(#0 nisa.dma_copy: host DMA, no words)
    NkiInstruction(#1 nisa.nonzero_with_count: NonzeroWithCount, word 0)
    [[17 18 21 -1 -1 -1 -1 -1  3]]
    """
    call = "nisa.nonzero_with_count"
    p = current(call)
    dst = _tile(call, "dst", dst, p)
    src = _tile(call, "src", src, p)
    channels = _same_partitions(call, [("dst", dst), ("src", src)])
    off, t_off = _int32_operand(call, "index_offset", index_offset, p, channels)
    pad, t_pad = _int32_operand(call, "padding_val", padding_val, p, channels)
    word = lower.nonzero_with_count(in_dtype=src.gpsimd_dtype, out_dtype=dst.gpsimd_dtype,
                                    channels=channels, src=src._descriptor(call, "src", 3),
                                    dst=dst._descriptor(call, "dst", 3), index_offset=off,
                                    padding_val=pad)
    reads = [src] + [t for t in (t_off, t_pad) if t is not None]
    return p._emit(call, [word], reads, [dst],
                   _note(call, dst=dst, src=src, index_offset=index_offset,
                         padding_val=padding_val))


def tensor_copy_predicated(dst, src, predicate, reverse_pred=False, name=None):
    """Copy ``src`` into ``dst`` where ``predicate`` is true (any bit set), keeping ``dst``
    elsewhere: CopyPredicated (0x72, SPEC §4.22) for a tile ``src``, CopyPredicatedScalar
    (0xe8, SPEC §4.12) for a number.

    A tile ``src`` has ``dst``'s dtype (NKI: "src and dst must share the same data type")
    and is copied bit for bit; ``src``, ``predicate`` and ``dst`` have the same partitions
    and number of elements per partition, in SBUF or PSUM (not ``src`` and ``predicate``
    both in PSUM; a PSUM ``dst`` needs a 4-byte dtype). ``reverse_pred=True`` copies where
    the predicate is zero: two words on the Vector engine, a TensorScalarArith (IS_EQ 0.0)
    of the predicate into a scratch tile, then CopyPredicated under it (SPEC §4.22), so the
    result is ``np.where(predicate, dst, src)``.

    A number ``src`` is converted to ``dst``'s dtype as gpsimd converts numbers (SPEC §5;
    a NumPy scalar of the dtype's storage is taken bit for bit) and written bit for bit;
    ``reverse_pred=True`` writes where the predicate is zero (NKI's ``reverse_pred=False``
    is the instruction's ``reversed_pred = 1``). ``predicate`` is an integer tile
    (uint8/16/32, int8/16/32; a boolean mask is uint8) of ``dst``'s shape.

    >>> import numpy as np, gpsimd.nki as nki, gpsimd.nki.isa as nisa
    >>> import gpsimd.nki.language as nl
    >>> with nki.Program():
    ...     d = nl.ndarray((1, 4), dtype=nl.float32)
    ...     nisa.dma_copy(dst=d, src=np.array([[0.5, 2.0, -1.0, 3.0]], np.float32))
    ...     pred = nl.ndarray((1, 4), dtype=nl.uint8)
    ...     nisa.dma_copy(dst=pred, src=np.array([[0, 0, 1, 0]], np.uint8))
    ...     nisa.tensor_copy_predicated(dst=d, src=-9984.0, predicate=pred)
    ...     a = nl.ndarray((1, 4), dtype=nl.float32)
    ...     nisa.dma_copy(dst=a, src=np.array([[7, 8, 9, 10]], np.float32))
    ...     nisa.tensor_copy_predicated(dst=d, src=a, predicate=pred, reverse_pred=True)
    ...     print(d.numpy())
    NkiInstruction(#0 nisa.dma_copy: host DMA, no words)
    NkiInstruction(#1 nisa.dma_copy: host DMA, no words)
    NkiInstruction(#2 nisa.tensor_copy_predicated: CopyPredicatedScalar, word 0)
    NkiInstruction(#3 nisa.dma_copy: host DMA, no words)
    NkiInstruction(#4 nisa.tensor_copy_predicated: TensorScalarArith + CopyPredicated, words 1..2)
    [[ 7.000e+00  8.000e+00 -9.984e+03  1.000e+01]]
    """
    call = "nisa.tensor_copy_predicated"
    p = current(call)
    dst = _tile(call, "dst", dst, p)
    if isinstance(src, np.ndarray) and np.ndim(src) > 0:
        raise _error(call, "src", "a NumPy array is HBM; a tensor src is an on-chip tile "
                     "(nisa.dma_copy it into one first), or pass a number")
    pred = _tile(call, "predicate", predicate, p)
    if isinstance(src, Tile):
        data = _tile(call, "src", src, p)
        channels = _same_partitions(call, [("dst", dst), ("src", data), ("predicate", pred)])
        operands = dict(pred_dtype=pred.gpsimd_dtype, dtype=data.gpsimd_dtype,
                        out_dtype=dst.gpsimd_dtype, channels=channels,
                        predicate=pred._descriptor(call, "predicate", 3),
                        src=data._descriptor(call, "src", 3), dst=dst._descriptor(call, "dst", 3))
        reads = [pred, data, dst]
        if reverse_pred:
            # The scratch tile of SPEC §4.22's two-word lowering: the predicate's dtype and
            # free shape, in SBUF from partition 0 (channel c pairs with channel c).
            scratch = p._allocate(call, (channels,) + tuple(pred.shape[1:]), pred.dtype, "sbuf",
                                  f"{pred.name}_reversed")
            words = lower.copy_predicated_reversed(
                scratch=scratch._descriptor(call, "predicate", 3), **operands)
            reads.append(scratch)
        else:
            words = [lower.copy_predicated(**operands)]
        return p._emit(call, words, reads, [dst] + reads[3:],
                       _note(call, dst=dst, src=data, predicate=pred, reverse_pred=reverse_pred))
    channels = _same_partitions(call, [("dst", dst), ("predicate", pred)])
    bits = _refused(call, "src", _operands.scalar_bits, src, dst.gpsimd_dtype, False)
    word = lower.copy_predicated_scalar(
        dtype=dst.gpsimd_dtype, pred_dtype=pred.gpsimd_dtype, channels=channels,
        predicate=pred._descriptor(call, "predicate", 3), dst=dst._descriptor(call, "dst", 3),
        src=int(bits), reverse_pred=reverse_pred)
    return p._emit(call, [word], [pred, dst], [dst],
                   _note(call, dst=dst, src=src, predicate=pred, reverse_pred=reverse_pred))


def sequence_bounds(dst, segment_ids, name=None):
    """Compute each element's segment ``[start, end)``: GetSequenceBounds (0xbe,
    NeuronCore-v3 and newer, one partition).

    Segments are maximal runs of equal adjacent ids; id 0 is padding (start n, end
    -1). ``segment_ids`` is ``(1, n)``; ``dst`` is ``(1, 2, n)``: the starts, then the
    ends. Both float32 or int32, in SBUF.

    >>> import numpy as np, gpsimd.nki as nki, gpsimd.nki.isa as nisa
    >>> import gpsimd.nki.language as nl
    >>> with nki.Program("v3"):
    ...     ids = nl.ndarray((1, 9), dtype=nl.int32)
    ...     nisa.dma_copy(dst=ids, src=np.array([[0, 1, 1, 2, 2, 2, 0, 3, 3]], np.int32))
    ...     b = nl.ndarray((1, 2, 9), dtype=nl.int32)
    ...     nisa.sequence_bounds(dst=b, segment_ids=ids)
    ...     print(b.numpy()[0])
    NkiInstruction(#0 nisa.dma_copy: host DMA, no words)
    NkiInstruction(#1 nisa.sequence_bounds: GetSequenceBounds, word 0)
    [[ 9  1  1  3  3  3  9  7  7]
     [-1  3  3  6  6  6 -1  9  9]]
    """
    call = "nisa.sequence_bounds"
    p = current(call)
    dst = _tile(call, "dst", dst, p)
    ids = _tile(call, "segment_ids", segment_ids, p)
    n = ids._free_count()
    try:
        dst_desc = dst._descriptor(call, "dst", 3, shape=[n, 1, 2])
    except NkiValidationError:
        dst_desc = dst._descriptor(call, "dst", 3)  # the validation reports the count
    word = lower.sequence_bounds(in_dtype=ids.gpsimd_dtype, out_dtype=dst.gpsimd_dtype,
                                 channels=ids.partitions,
                                 src=ids._descriptor(call, "segment_ids", 3), dst=dst_desc)
    return p._emit(call, [word], [ids], [dst], _note(call, dst=dst, segment_ids=ids))


# ---- the ALU instructions (SPEC §4.14-§4.15) ------------------------------------------------


def _alu_engine(call: str, eng: Any) -> str | None:
    """Return the engine input (SPEC §3.9) of TensorTensor's and TensorScalar's engine
    argument: unknown_engine the opcode's default (None: the Vector engine, which also
    reads PSUM); the others by :func:`_copy_engine`'s table."""
    return None if eng is engine.unknown else _copy_engine(call, eng, [])


def tensor_tensor(dst, data1, data2, op, engine=engine.unknown, name=None):
    """Element-wise ``dst = op(data1, data2)``: TensorTensorArith (0x41) for the arithmetic
    ops, TensorTensorBitvec (0x51) for the bitvec ones, SPEC §4.14.

    ``op``: an ALU op by NKI's operator (``nl.add``, ``nl.maximum``, ``nl.bitwise_and``,
    ...), its ALU_OP name (``'ADD'``) or a NumPy ufunc that is one (``np.add``), as
    :func:`gpsimd.tensor_tensor` takes it (an op the opcode does not take fails its clause
    ``s3s3d3_tt_valid_op``, which lists the ops it takes). Arithmetic
    runs through FP32 (SPEC §3.8.1), on the GpSimd engine natively for INT32/UINT32 data
    and result; bitvec ops work on the bits of one integer dtype. ``data1``, ``data2``
    and ``dst`` are SBUF or PSUM tiles (not both sources in PSUM) with the same number of
    partitions and of elements per partition; each is walked in its own element order.
    ``engine``: ``nisa.vector_engine``, ``nisa.gpsimd_engine`` (no PSUM) or
    ``nisa.scalar_engine``; ``nisa.unknown_engine`` (the default) is the opcode's default,
    the Vector engine. A PSUM ``dst`` needs a 4-byte dtype.

    NKI's example: ``c = a + b`` on (128, 512) tiles.

    >>> import numpy as np, gpsimd.nki as nki, gpsimd.nki.isa as nisa
    >>> import gpsimd.nki.language as nl
    >>> a = np.arange(6, dtype=np.float32).reshape(2, 3)
    >>> with nki.Program() as p:
    ...     x = nl.ndarray((2, 3), dtype=nl.float32)
    ...     nisa.dma_copy(dst=x, src=a)
    ...     y = nl.ndarray((2, 3), dtype=nl.float32)
    ...     nisa.dma_copy(dst=y, src=a * 10)
    ...     c = nl.ndarray((2, 3), dtype=nl.float32)
    ...     nisa.tensor_tensor(dst=c, data1=x, data2=y, op=nl.add)
    ...     print(c.numpy())
    NkiInstruction(#0 nisa.dma_copy: host DMA, no words)
    NkiInstruction(#1 nisa.dma_copy: host DMA, no words)
    NkiInstruction(#2 nisa.tensor_tensor: TensorTensorArith, word 0)
    [[ 0. 11. 22.]
     [33. 44. 55.]]
    >>> [w[0] for w in p.words]
    [65]
    """
    call = "nisa.tensor_tensor"
    p = current(call)
    dst = _tile(call, "dst", dst, p)
    data1 = _tile(call, "data1", data1, p)
    data2 = _tile(call, "data2", data2, p)
    channels = _same_partitions(call, [("dst", dst), ("data1", data1), ("data2", data2)])
    alu_op = _operands.alu_op(call, "op", op, data1.gpsimd_dtype)
    eng = _alu_engine(call, engine)
    word = lower.tensor_tensor(op=alu_op, in_dtypes=(data1.gpsimd_dtype, data2.gpsimd_dtype),
                               out_dtype=dst.gpsimd_dtype, channels=channels,
                               data1=data1._descriptor(call, "data1", 3),
                               data2=data2._descriptor(call, "data2", 3),
                               dst=dst._descriptor(call, "dst", 3))
    return p._emit(call, [word], [data1, data2], [dst],
                   _note(call, dst=dst, data1=data1, data2=data2, op=op, engine=engine), eng)


def _scalar_operand(call: str, arg: str, value: Any, data: Tile, bitvec: bool,
                    program: Any, channels: int):
    """Return (address, tile) of a [P, 1] operand tile (FP32 for the arithmetic opcodes,
    the data's dtype for the bitvec ones) or (bits, None) of a number."""
    if isinstance(value, Tile):
        t = _tile(call, arg, value, program)
        want = data.gpsimd_dtype if bitvec else "FP32"
        if t.partitions != channels or t._free_count() != 1 or t.gpsimd_dtype != want:
            raise _error(call, arg, f"{t._expr} ({t.dtype} {t.shape}) must be a "
                         f"{'data-dtype' if bitvec else 'float32'} ({want}) tile with one "
                         f"element in each of the {channels} partitions, or a number")
        return t._address(), t
    if isinstance(value, np.ndarray) and value.ndim > 0:
        raise _error(call, arg, "a NumPy array is HBM; one value per partition is a (P, 1) "
                     "tile (nisa.dma_copy it into one first), or pass a number")
    return _refused(call, arg, _operands.immediate, value, data.gpsimd_dtype, bitvec), None


def tensor_scalar(dst, data, op0, operand0, reverse0=False, op1=None, operand1=None,
                  reverse1=False, engine=engine.unknown, name=None):
    """``dst = (data op0 operand0) op1 operand1``: TensorScalarArith (0x43) /
    TensorScalarBitvec (0x53), or their pointer forms TensorScalarPtrArith (0x44) /
    TensorScalarPtrBitvec (0x54) when both operands are tiles, SPEC §4.15.

    ``op0``, ``op1``: ops as :func:`gpsimd.tensor_scalar` takes them, both arithmetic
    (FP32 arithmetic, whatever the dtypes) or both bitvec (the bits of the data's integer
    dtype, ``dst`` of the same dtype); ``op1=None`` with ``operand1=None`` is one op.
    ``operand0``, ``operand1``: a number (an instruction immediate: an FP32 for
    arithmetic, an integer of the data's dtype for bitvec) or a (P, 1) tile holding one
    value per partition (float32 for arithmetic, the data's dtype for bitvec), read
    through a pointer. ``reverse0``: ``operand0 op0 data``; ``reverse1``: ``operand1 op1
    t``. ``engine``: ``nisa.unknown_engine`` (the default) and ``nisa.vector_engine`` run
    it; the other engines fault ``unsupported-op`` (:class:`gpsimd.Fault`), SPEC §3.9.

    NKI's examples: ``c = a * 2.0 + 1.5`` (``op0=nl.multiply``, ``op1=nl.add``), and
    ``1.0 - a`` by ``reverse0=True`` with a (P, 1) operand.

    >>> import numpy as np, gpsimd.nki as nki, gpsimd.nki.isa as nisa
    >>> import gpsimd.nki.language as nl
    >>> with nki.Program() as p:
    ...     a = nl.ndarray((2, 3), dtype=nl.float32)
    ...     nisa.dma_copy(dst=a, src=np.float32([[1, 2, 3], [4, 5, 6]]))
    ...     c = nl.ndarray((2, 3), dtype=nl.float32)
    ...     nisa.tensor_scalar(dst=c, data=a, op0=nl.multiply, operand0=2.0, op1=nl.add,
    ...                        operand1=1.5)
    ...     s = nl.ndarray((2, 1), dtype=nl.float32)
    ...     nisa.dma_copy(dst=s, src=np.float32([[1], [10]]))
    ...     d = nl.ndarray((2, 3), dtype=nl.float32)
    ...     nisa.tensor_scalar(dst=d, data=a, op0=nl.subtract, operand0=s, reverse0=True)
    ...     print(c.numpy())
    ...     print(d.numpy())
    NkiInstruction(#0 nisa.dma_copy: host DMA, no words)
    NkiInstruction(#1 nisa.tensor_scalar: TensorScalarArith, word 0)
    NkiInstruction(#2 nisa.dma_copy: host DMA, no words)
    NkiInstruction(#3 nisa.tensor_scalar: TensorScalarArith, word 1)
    [[ 3.5  5.5  7.5]
     [ 9.5 11.5 13.5]]
    [[ 0. -1. -2.]
     [ 6.  5.  4.]]
    >>> [w[0] for w in p.words]
    [67, 67]
    """
    call = "nisa.tensor_scalar"
    p = current(call)
    dst = _tile(call, "dst", dst, p)
    data = _tile(call, "data", data, p)
    channels = _same_partitions(call, [("dst", dst), ("data", data)])
    if op1 is None and operand1 is not None:
        raise _error(call, "operand1", "is given but op1 is None; NKI's rule: op1 and "
                     "operand1 are both None when unused")
    if op1 is not None and operand1 is None:
        raise _error(call, "operand1", f"is None but op1 is {_note_arg(op1)}; give operand1 "
                     "(a number or a (P, 1) tile)")
    name0 = _operands.alu_op(call, "op0", op0, data.gpsimd_dtype)
    name1 = "BYPASS" if op1 is None else _operands.alu_op(call, "op1", op1, data.gpsimd_dtype)
    bitvec = lower.tensor_scalar_bitvec(name0, name1)
    eng = _alu_engine(call, engine)
    operands, reads = [], [data]
    for i, value in enumerate((operand0, 0 if operand1 is None else operand1)):
        v, t = _scalar_operand(call, f"operand{i}", value, data, bitvec, p, channels)
        operands.append(v)
        reads += [t] if t is not None else []
    word = lower.tensor_scalar(op0=name0, op1=name1, in_dtype=data.gpsimd_dtype,
                               out_dtype=dst.gpsimd_dtype, channels=channels,
                               data=data._descriptor(call, "data", 3),
                               dst=dst._descriptor(call, "dst", 3), operand0=operands[0],
                               operand1=operands[1], reverse0=reverse0, reverse1=reverse1)
    return p._emit(call, [word], reads, [dst],
                   _note(call, dst=dst, data=data, op0=op0, operand0=operand0, reverse0=reverse0,
                         op1=op1, operand1=operand1, reverse1=reverse1, engine=engine), eng)


def tensor_scalar_cumulative(dst, src, op0, op1, imm0, imm1=None,
                             reduce_cmd=reduce_cmd.reset_reduce, name=None):
    """The running value ``reg = op1(op0(src[i], imm0), reg)``, written at every element:
    TensorScalarCacheCumulative (0xe6, SPEC §4.24).

    Each partition runs over its elements in order (every dimension, no restart at a row),
    on the FP32 path (SPEC §3.8), the element on ``op1``'s left; ``dst[i]`` is ``reg``
    converted to ``dst``'s dtype, and the last ``reg`` (FP32, unrounded) stays in the
    partition's accumulator, where a later ``reduce_cmd.reduce`` continues.
    ``reduce_cmd``: ``reset_reduce`` (the default) starts from ``op1``'s identity (ADD,
    SUBTRACT 0.0; MULT 1.0; MAX -inf; MIN +inf), ``reduce`` from the accumulator,
    ``load_reduce`` from ``imm1``, which the other commands ignore. ``op0``: an arithmetic
    ALU op (``nl.add``, ``nl.multiply``, ``nl.maximum``, comparisons, ...); ``op1``:
    ``nl.add``, ``nl.subtract``, ``nl.multiply``, ``nl.maximum`` or ``nl.minimum``.
    ``imm0``, ``imm1``: a number (an FP32 immediate) or a (P, 1) float32 tile. ``src`` is
    not int32/uint32; an int32/uint32 ``dst`` faults unsupported-op. ADD, SUBTRACT and MULT
    round in element order (rule ``cumulative-order``, SPEC §4.24).

    NKI's examples: a cumulative sum of ones, and ``load_reduce`` from 2.0.

    >>> import numpy as np, gpsimd.nki as nki, gpsimd.nki.isa as nisa
    >>> import gpsimd.nki.language as nl
    >>> with nki.Program():
    ...     a = nl.ndarray((2, 4), dtype=nl.float32)
    ...     nisa.dma_copy(dst=a, src=np.ones((2, 4), np.float32))
    ...     c = nl.ndarray((2, 4), dtype=nl.float32)
    ...     nisa.tensor_scalar_cumulative(dst=c, src=a, op0=nl.add, op1=nl.add, imm0=0.0)
    ...     d = nl.ndarray((2, 4), dtype=nl.float32)
    ...     nisa.tensor_scalar_cumulative(dst=d, src=a, op0=nl.add, op1=nl.add, imm0=0.0,
    ...                                   imm1=2.0, reduce_cmd=nisa.reduce_cmd.load_reduce)
    ...     print(c.numpy())
    ...     print(d.numpy())
    NkiInstruction(#0 nisa.dma_copy: host DMA, no words)
    NkiInstruction(#1 nisa.tensor_scalar_cumulative: TensorScalarCacheCumulative, word 0)
    NkiInstruction(#2 nisa.tensor_scalar_cumulative: TensorScalarCacheCumulative, word 1)
    [[1. 2. 3. 4.]
     [1. 2. 3. 4.]]
    [[3. 4. 5. 6.]
     [3. 4. 5. 6.]]
    """
    call = "nisa.tensor_scalar_cumulative"
    p = current(call)
    dst = _tile(call, "dst", dst, p)
    src = _tile(call, "src", src, p)
    channels = _same_partitions(call, [("dst", dst), ("src", src)])
    if reduce_cmd not in _REDUCE_CMD:
        raise _error(call, "reduce_cmd", f"{reduce_cmd!r} is not an nisa.reduce_cmd")
    cmd = _REDUCE_CMD[reduce_cmd]
    name0 = _operands.alu_op(call, "op0", op0, src.gpsimd_dtype)
    name1 = _operands.alu_op(call, "op1", op1, src.gpsimd_dtype)
    reads = [src]
    v0, t0 = _scalar_operand(call, "imm0", imm0, src, False, p, channels)
    reads += [t0] if t0 is not None else []
    v1 = 0
    if cmd == "LOAD_ACCUMULATE":
        if imm1 is None:
            raise _error(call, "imm1", "is None but reduce_cmd is load_reduce, which starts "
                         "from imm1: give a number or a (P, 1) float32 tile")
        v1, t1 = _scalar_operand(call, "imm1", imm1, src, False, p, channels)
        reads += [t1] if t1 is not None else []
    word = lower.tensor_scalar_cumulative(
        op0=name0, op1=name1, in_dtype=src.gpsimd_dtype, out_dtype=dst.gpsimd_dtype,
        channels=channels, src=src._descriptor(call, "src", 3),
        dst=dst._descriptor(call, "dst", 3), imm0=v0, imm1=v1, reduce_cmd=cmd)
    return p._emit(call, [word], reads, [dst],
                   _note(call, dst=dst, src=src, op0=op0, op1=op1, imm0=imm0, imm1=imm1,
                         reduce_cmd=reduce_cmd))


# ---- S2S2D2_STT: TensorTensorScan, ScalarTensorTensor, SelectReduce (SPEC §4.20, §4.21,
# §4.25) ---------------------------------------------------------------------------------------


def _imm0_operand(call: str, arg: str, value: Any, program: Any, channels: int):
    """Return (value, dtype, tile or None) of an imm0 argument: a number (an FP32
    instruction immediate) or a ``(P, 1)`` tile of any dtype (a pointer: channel c reads
    partition start + c, widened to FP32)."""
    if isinstance(value, Tile):
        t = _tile(call, arg, value, program)
        if t.partitions != channels or t._free_count() != 1:
            raise _error(call, arg, f"{t._expr} has shape {t.shape}; it holds one element in "
                         f"each of the {channels} partitions, or pass a number")
        return t._address(), t.gpsimd_dtype, t
    if isinstance(value, np.ndarray) and value.ndim > 0:
        raise _error(call, arg, "a NumPy array is HBM; one value per partition is a (P, 1) "
                     "tile (nisa.dma_copy it into one first), or pass a number")
    return _fp32(call, arg, value), "FP32", None


def tensor_tensor_scan(dst, data0, data1, initial, op0, op1, reverse0=False, reverse1=False,
                       name=None):
    """A scan along the free dimension: ``dst[j] = (data0[j] op0 s) op1 data1[j]`` with
    ``s = initial`` at ``j = 0`` and the previous FP32 result after:
    TensorTensorScan (0xe5), SPEC §4.20.

    ``op0``, ``op1``: arithmetic ops (``nl.multiply``, ``nl.add``, ...) computed in FP32;
    ``initial`` a number or a ``(P, 1)`` tile (one value per partition, any dtype);
    ``reverse0`` makes ``data0`` the right operand of ``op0``, ``reverse1`` makes
    ``data1`` the left operand of ``op1``. The scan runs over each partition's whole
    walk (both free dimensions, in order); the carried value stays FP32 and each result
    is converted to ``dst``'s dtype.

    AWS's cumsum: ``data0`` ones, ``op0=nl.multiply``, ``op1=nl.add``.

    >>> import numpy as np, gpsimd.nki as nki, gpsimd.nki.isa as nisa
    >>> import gpsimd.nki.language as nl
    >>> with nki.Program():
    ...     ones = nl.ndarray((2, 4), dtype=nl.float32)
    ...     nisa.dma_copy(dst=ones, src=np.ones((2, 4), np.float32))
    ...     x = nl.ndarray((2, 4), dtype=nl.float32)
    ...     nisa.dma_copy(dst=x, src=np.float32([[1, 2, 3, 4], [10, 20, 30, 40]]))
    ...     c = nl.ndarray((2, 4), dtype=nl.float32)
    ...     nisa.tensor_tensor_scan(dst=c, data0=ones, data1=x, initial=0.0,
    ...                             op0=nl.multiply, op1=nl.add)
    ...     print(c.numpy())
    NkiInstruction(#0 nisa.dma_copy: host DMA, no words)
    NkiInstruction(#1 nisa.dma_copy: host DMA, no words)
    NkiInstruction(#2 nisa.tensor_tensor_scan: TensorTensorScan, word 0)
    [[  1.   3.   6.  10.]
     [ 10.  30.  60. 100.]]
    """
    call = "nisa.tensor_tensor_scan"
    p = current(call)
    dst = _tile(call, "dst", dst, p)
    data0 = _tile(call, "data0", data0, p)
    data1 = _tile(call, "data1", data1, p)
    channels = _same_partitions(call, [("dst", dst), ("data0", data0), ("data1", data1)])
    name0 = _operands.alu_op(call, "op0", op0, data0.gpsimd_dtype)
    name1 = _operands.alu_op(call, "op1", op1, data0.gpsimd_dtype)
    init, init_dtype, t = _imm0_operand(call, "initial", initial, p, channels)
    word = lower.tensor_tensor_scan(
        op0=name0, op1=name1, in_dtypes=(data0.gpsimd_dtype, data1.gpsimd_dtype),
        out_dtype=dst.gpsimd_dtype, channels=channels,
        data0=data0._descriptor(call, "data0", 2), data1=data1._descriptor(call, "data1", 2),
        dst=dst._descriptor(call, "dst", 2), initial=init, initial_dtype=init_dtype,
        reverse0=reverse0, reverse1=reverse1)
    reads = [data0, data1] + ([t] if t is not None else [])
    return p._emit(call, [word], reads, [dst],
                   _note(call, dst=dst, data0=data0, data1=data1, initial=initial, op0=op0,
                         op1=op1, reverse0=reverse0, reverse1=reverse1))


def scalar_tensor_tensor(dst, data, op0, operand0, op1, operand1, reverse0=False, reverse1=False,
                         name=None):
    """``dst = (data op0 operand0) op1 operand1``: ScalarTensorTensorArith (0x9d), SPEC
    §4.21 (two ops back to back, in FP32).

    ``operand0`` a number or a ``(P, 1)`` tile (one value per partition, any dtype);
    ``operand1`` a tile of ``data``'s shape (``data`` and ``operand1`` not both in PSUM);
    ``reverse0`` makes ``operand0`` the left operand of ``op0``, ``reverse1`` makes
    ``operand1`` the left operand of ``op1``. Bitvec ops are not supported (NKI): such a
    word (0x9e) validates and faults ``unsupported-op``.

    >>> import numpy as np, gpsimd.nki as nki, gpsimd.nki.isa as nisa
    >>> import gpsimd.nki.language as nl
    >>> with nki.Program():
    ...     x = nl.ndarray((1, 2), dtype=nl.float32)
    ...     nisa.dma_copy(dst=x, src=np.float32([[2, -3]]))
    ...     y = nl.ndarray((1, 2), dtype=nl.float32)
    ...     nisa.dma_copy(dst=y, src=np.float32([[10, 20]]))
    ...     c = nl.ndarray((1, 2), dtype=nl.float32)
    ...     nisa.scalar_tensor_tensor(dst=c, data=x, op0=nl.subtract, operand0=5.0,
    ...                               op1=nl.subtract, operand1=y, reverse0=True)
    ...     print(c.numpy())
    NkiInstruction(#0 nisa.dma_copy: host DMA, no words)
    NkiInstruction(#1 nisa.dma_copy: host DMA, no words)
    NkiInstruction(#2 nisa.scalar_tensor_tensor: ScalarTensorTensorArith, word 0)
    [[ -7. -12.]]
    """
    call = "nisa.scalar_tensor_tensor"
    p = current(call)
    dst = _tile(call, "dst", dst, p)
    data = _tile(call, "data", data, p)
    other = _tile(call, "operand1", operand1, p)
    channels = _same_partitions(call, [("dst", dst), ("data", data), ("operand1", other)])
    name0 = _operands.alu_op(call, "op0", op0, data.gpsimd_dtype)
    name1 = _operands.alu_op(call, "op1", op1, data.gpsimd_dtype)
    s, s_dtype, t = _imm0_operand(call, "operand0", operand0, p, channels)
    word = lower.scalar_tensor_tensor(
        op0=name0, op1=name1, in_dtypes=(data.gpsimd_dtype, other.gpsimd_dtype),
        out_dtype=dst.gpsimd_dtype, channels=channels, data=data._descriptor(call, "data", 2),
        operand1=other._descriptor(call, "operand1", 2), dst=dst._descriptor(call, "dst", 2),
        operand0=s, operand0_dtype=s_dtype, reverse0=reverse0, reverse1=reverse1)
    reads = [data, other] + ([t] if t is not None else [])
    return p._emit(call, [word], reads, [dst],
                   _note(call, dst=dst, data=data, op0=op0, operand0=operand0, op1=op1,
                         operand1=operand1, reverse0=reverse0, reverse1=reverse1))


def select_reduce(dst, predicate, on_true, on_false, reduce_res=None, reduce_cmd=reduce_cmd.idle,
                  reduce_op=maximum, reverse_pred=False, name=None):
    """``dst = predicate ? on_true : on_false`` with the row maximum into the accumulators:
    SelectReduce (0xea, NeuronCore-v3 and newer), then, with ``reduce_res``, a
    DveReadAccumulator (0x9b) writing them there. SPEC §4.25.

    ``predicate``: an integer tile (true where any bit is set; ``reverse_pred`` negates
    it); ``on_true``: a tile (not a 32-bit integer one; not in PSUM with ``predicate``);
    ``on_false``: a number or a ``(P, 1)`` tile. The maximum runs over the FP32 results,
    ``on_false`` values included, by ``reduce_cmd`` (``reset_reduce``: from -inf,
    ``reduce``: with the accumulator, ``idle``: unchanged; the others are invalid);
    ``reduce_op`` must be ``nl.maximum``. ``reduce_res``: a ``[P, 1]`` tile starting at
    ``on_true``'s partition.

    >>> import numpy as np, gpsimd.nki as nki, gpsimd.nki.isa as nisa
    >>> import gpsimd.nki.language as nl
    >>> with nki.Program():
    ...     pred = nl.ndarray((1, 4), dtype=nl.uint8)
    ...     nisa.dma_copy(dst=pred, src=np.uint8([[1, 0, 1, 0]]))
    ...     x = nl.ndarray((1, 4), dtype=nl.float32)
    ...     nisa.dma_copy(dst=x, src=np.float32([[5, 50, 7, -1]]))
    ...     y, mx = nl.ndarray((1, 4), dtype=nl.float32), nl.ndarray((1, 1), dtype=nl.float32)
    ...     nisa.select_reduce(dst=y, predicate=pred, on_true=x, on_false=-1.0,
    ...                        reduce_res=mx, reduce_cmd=nisa.reduce_cmd.reset_reduce)
    ...     print(y.numpy(), mx.numpy())
    NkiInstruction(#0 nisa.dma_copy: host DMA, no words)
    NkiInstruction(#1 nisa.dma_copy: host DMA, no words)
    NkiInstruction(#2 nisa.select_reduce: SelectReduce + DveReadAccumulator, words 0..1)
    [[ 5. -1.  7. -1.]] [[7.]]
    """
    call = "nisa.select_reduce"
    p = current(call)
    dst = _tile(call, "dst", dst, p)
    pred = _tile(call, "predicate", predicate, p)
    src = _tile(call, "on_true", on_true, p)
    channels = _same_partitions(call, [("dst", dst), ("predicate", pred), ("on_true", src)])
    if reduce_cmd not in _REDUCE_CMD:
        raise _error(call, "reduce_cmd", f"{reduce_cmd!r} is not an nisa.reduce_cmd")
    f, f_dtype, t = _imm0_operand(call, "on_false", on_false, p, channels)
    words = [lower.select_reduce(
        pred_dtype=pred.gpsimd_dtype, in_dtype=src.gpsimd_dtype, out_dtype=dst.gpsimd_dtype,
        channels=channels, predicate=pred._descriptor(call, "predicate", 2),
        on_true=src._descriptor(call, "on_true", 2), dst=dst._descriptor(call, "dst", 2),
        on_false=f, on_false_dtype=f_dtype, reverse_pred=reverse_pred,
        reduce_cmd=_REDUCE_CMD[reduce_cmd], reduce_op=_reduce_op(call, reduce_op))]
    writes = [dst]
    if reduce_res is not None:
        res, word = _read_out(call, reduce_res, p, channels, src, "on_true")
        words.append(word)
        writes.append(res)
    reads = [pred, src] + ([t] if t is not None else [])
    return p._emit(call, words, reads, writes,
                   _note(call, dst=dst, predicate=pred, on_true=src, on_false=on_false,
                         reduce_res=reduce_res, reduce_cmd=reduce_cmd, reduce_op=reduce_op,
                         reverse_pred=reverse_pred))


# ---- calls of instructions gpsimd does not model --------------------------------------------


@_not_modelled("a Tensor Engine matrix multiply (load stationary + multiply moving)")
def nc_matmul(dst, stationary, moving, is_stationary_onezero=False, is_moving_onezero=False,
              is_transpose=False, accumulate=None, tile_position=(), tile_size=(),
              perf_mode=matmul_perf_mode.none, name=None):
    ...


@_not_modelled("a Tensor Engine MXFP8/MXFP4 matrix multiply")
def nc_matmul_mx(dst, stationary, moving, stationary_scale, moving_scale, tile_position=None,
                 tile_size=None, accumulate=None, name=None):
    ...


@_not_modelled("a Tensor Engine or Vector Engine transpose")
def nc_transpose(dst, data, engine=engine.unknown, name=None):
    ...


@_not_modelled("a DMA transpose")
def dma_transpose(dst, src, axes=None, priority=None, dge_mode=dge_mode.unknown,
                  oob_mode=oob_mode.error, name=None):
    ...


def _read_out(call: str, reduce_res: Any, p: Any, channels: int, src: Tile,
              src_arg: str) -> tuple[Tile, bytes]:
    """Return (the tile, the DveReadAccumulator word, SPEC §4.13) of a ``reduce_res``
    argument: a (P, 1) tile on the data's partitions (the accumulators are per partition,
    SPEC §2), which the word writes with each partition's accumulator."""
    res = _tile(call, "reduce_res", reduce_res, p)
    if res.partitions != channels or res._free_count() != 1:
        raise _error(call, "reduce_res", f"{res._expr} has shape {res.shape}; it holds one "
                     f"element in each of the {channels} partitions")
    if res.start_partition != src.start_partition:
        raise _error(call, "reduce_res", f"{res._expr} starts at partition "
                     f"{res.start_partition}, {src_arg} at {src.start_partition}: the "
                     "accumulators are per partition, so they must start at the same one")
    return res, lower.read_accumulator(dtype=res.gpsimd_dtype, channels=channels,
                                       dst=res._descriptor(call, "reduce_res", 1))


def _reduce_axes(call: str, axis: Any, data: Tile) -> int:
    """Return how many innermost free dimensions ``axis`` reduces (1..4): NKI's axes must
    be the last contiguous free dimensions of ``data`` (an int or a list or tuple of ints,
    in any order, without repeats; the partition dimension is 0)."""
    axes = list(axis) if isinstance(axis, (list, tuple)) else [axis]
    ndim = len(data.shape)
    if not axes or any(isinstance(a, (bool, np.bool_)) or not isinstance(a, (int, np.integer))
                       for a in axes):
        raise _error(call, "axis", f"expected an int or a list of ints, got {axis!r}")
    axes = [int(a) for a in axes]
    if len(set(axes)) != len(axes):
        raise _error(call, "axis", f"{axis!r} names a dimension twice")
    if ndim - 1 > 4:
        raise _error(call, "axis", f"{data._expr} has {ndim - 1} free dimensions; the "
                     "reduction walks at most 4 (a TENSOR4D)")
    want = list(range(ndim - len(axes), ndim))
    if sorted(axes) != want or 0 in axes:
        raise _error(call, "axis", f"{axis!r} must be the last contiguous free dimensions of "
                     f"{data._expr} (shape {data.shape}): one of "
                     + ", ".join(str(tuple(range(k, ndim))) for k in range(ndim - 1, 0, -1)))
    return len(axes)


def _reduced_shape(call: str, axis: Any, data: Tile, keepdims: bool) -> tuple[int, ...]:
    """The NKI shape of ``data`` reduced along ``axis`` (:func:`_reduce_axes`): the reduced
    dimensions dropped, or kept as 1 with ``keepdims``; a tile keeps a free dimension, so a
    reduction of every free dimension without ``keepdims`` is ``(P, 1)``."""
    ndim = len(data.shape)
    first = ndim - _reduce_axes(call, axis, data)
    shape = tuple(1 if i >= first else n for i, n in enumerate(data.shape)
                  if keepdims or i < first)
    return shape if len(shape) > 1 else (shape[0], 1)


def tensor_reduce(dst, op, data, axis, negate=False, keepdims=False, name=None):
    """Reduce the last free dimensions of ``data`` with ``op`` into ``dst``:
    TensorReduceArith (0x42) for an arithmetic op, TensorReduceBitvec (0x52) for
    ``nl.bitwise_and/or/xor``, SPEC §4.19, on the Vector engine.

    ``op``: ``nl.add``, ``nl.subtract``, ``nl.multiply``, ``nl.maximum``, ``nl.minimum``,
    ``nl.logical_and/or/xor`` (in FP32: each element converted, the group folded left to
    right in element order, one FP32 rounding per step, the result converted to ``dst``'s
    dtype; a logical reduction gives 1 or 0) or ``nl.bitwise_and/or/xor`` (the raw bits of
    one integer dtype, ``dst``'s the same); an ALU_OP name or a NumPy ufunc that is one
    works too (another valid op faults). ``axis``: an int or a list of the last free
    dimensions (``(1, 2)`` of a (P, D1, D2) tile), at most four. ``negate``: multiply the
    result by -1.0 (arithmetic ops). ``keepdims``: only ``dst``'s shape (its element count
    is the product of the kept dimensions either way). ``dst`` and ``data`` are SBUF or
    PSUM tiles with the same partitions (a PSUM ``dst`` needs a 4-byte dtype).

    NKI's test (``test_nki_isa_reduce``): ``tensor_reduce(np.add, a, axis=[1])`` of a
    (128, 512) float32 tile into (128, 1) is each row's sum.

    >>> import numpy as np, gpsimd.nki as nki, gpsimd.nki.isa as nisa
    >>> import gpsimd.nki.language as nl
    >>> a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    >>> with nki.Program() as p:
    ...     x = nl.ndarray((2, 3, 4), dtype=nl.float32)
    ...     nisa.dma_copy(dst=x, src=a)
    ...     s = nl.ndarray((2, 3), dtype=nl.float32)
    ...     nisa.tensor_reduce(s, nl.add, x, axis=2)
    ...     m = nl.ndarray((2, 1), dtype=nl.float32)
    ...     nisa.tensor_reduce(m, np.maximum, x, axis=(1, 2), negate=True)
    NkiInstruction(#0 nisa.dma_copy: host DMA, no words)
    NkiInstruction(#1 nisa.tensor_reduce: TensorReduceArith, word 0)
    NkiInstruction(#2 nisa.tensor_reduce: TensorReduceArith, word 1)
    >>> s.numpy()
    array([[ 6., 22., 38.],
           [54., 70., 86.]], dtype=float32)
    >>> m.numpy()
    array([[-11.],
           [-23.]], dtype=float32)
    """
    call = "nisa.tensor_reduce"
    p = current(call)
    dst = _tile(call, "dst", dst, p)
    data = _tile(call, "data", data, p)
    channels = _same_partitions(call, [("dst", dst), ("data", data)])
    alu_op = _operands.alu_op(call, "op", op, data.gpsimd_dtype)
    k = _reduce_axes(call, axis, data)
    shape = [int(n) for n in data.shape[1:]][::-1] or [1]  # innermost first
    word = lower.tensor_reduce(op=alu_op, in_dtype=data.gpsimd_dtype,
                               out_dtype=dst.gpsimd_dtype, channels=channels,
                               data=data._descriptor(call, "data", 4, shape=shape),
                               dst=dst._descriptor(call, "dst", 4), dims=k,
                               negate=bool(negate))
    return p._emit(call, [word], [data], [dst],
                   _note(call, dst=dst, op=op, data=data, axis=axis, negate=negate,
                         keepdims=keepdims), "dve")


@_not_modelled("a GpSimd partition reduction")
def tensor_partition_reduce(dst, op, data, name=None):
    ...


@_not_modelled("a Scalar Engine activation")
def activation(dst, op, data, bias=None, scale=1.0, reduce_op=None, reduce_res=None,
               reduce_cmd=reduce_cmd.idle, name=None):
    ...


@_not_modelled("a Scalar Engine activation with reduction")
def activation_reduce(dst, op, data, reduce_op, reduce_res, bias=None, scale=1.0, name=None):
    ...


@_not_modelled("a Scalar Engine activation (activate2)")
def activate2(dst, op, data, imm0, imm1, op0, op1, relu_param=0.0, reverse0=False,
              reverse1=False, reduce_op=None, reduce_res=None, reduce_cmd=reduce_cmd.idle,
              name=None):
    ...


@_not_modelled("a GpSimd gather across partitions")
def local_gather(dst, src_buffer, index, num_elem_per_idx=1, num_valid_indices=None, name=None):
    ...


@_not_modelled("a GpSimd gather within partitions")
def nc_n_gather(dst, data, indices, name=None):
    ...


@_not_modelled("a Vector Engine BN_STATS")
def bn_stats(dst, data, name=None):
    ...


@_not_modelled("a Vector Engine BN_AGGR")
def bn_aggr(dst, data, name=None):
    ...




@_not_modelled("a Vector Engine stream shuffle")
def nc_stream_shuffle(dst, src, shuffle_mask, name=None):
    ...


@_not_modelled("a random-number instruction")
def rng(dst, engine=engine.unknown, name=None):
    ...


@_not_modelled("a Vector Engine dropout")
def dropout(dst, data, prob, name=None):
    ...


@_not_modelled("a PRNG seed instruction")
def set_rng_seed(src_seeds, name=None):
    ...


@_not_modelled("a PRNG state load")
def rand_set_state(src_seeds, engine=engine.unknown, name=None):
    ...


@_not_modelled("a PRNG state store")
def rand_get_state(dst, engine=engine.unknown, name=None):
    ...


@_not_modelled("a Vector Engine uniform random-number instruction")
def rand2(dst, min, max, name=None):  # noqa: A002 - NKI's names
    ...


@_not_modelled("a Vector Engine exponential")
def exponential(dst, src, max_value=0.0, reduce_res=None, reduce_cmd: reduce_cmd = reduce_cmd.idle,
                reduce_init=0.0, name=None):
    ...


@_not_modelled("a Vector Engine reciprocal")
def reciprocal(dst, data, name=None):
    ...




@_not_modelled("a Vector Engine tensor-scalar with reduction")
def tensor_scalar_reduce(dst, data, op0, operand0, reduce_op, reduce_res, reverse0=False,
                         reduce_cmd: reduce_cmd = reduce_cmd.reset_reduce, reduce_init=None,
                         name=None):
    ...


@_not_modelled("a barrier across NeuronCores")
def core_barrier(data, cores, engine=engine.gpsimd, name=None):
    ...


@_not_modelled("a DMA compute transfer")
def dma_compute(dst, srcs, reduce_op, scales=None, unique_indices=True, oob_mode=oob_mode.error,
                name=None):
    ...


@_not_modelled("a Vector Engine MX quantization")
def quantize_mx(dst, src, dst_scale, name=None):
    ...




@_not_modelled("a DMA exchange between NeuronCores")
def sendrecv(src, dst, send_to_rank, recv_from_rank, pipe_id, dma_engine=dma_engine.dma,
             name=None):
    ...


@_not_modelled("a sequencer register allocation")
def register_alloc(x: int | None = None):
    ...


@_not_modelled("a sequencer register move")
def register_move(dst, src):
    ...


@_not_modelled("a sequencer register load")
def register_load(dst, src):
    ...


@_not_modelled("a sequencer register store")
def register_store(dst, src):
    ...
