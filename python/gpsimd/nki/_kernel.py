"""The program a gpsimd.nki kernel builds, and the tiles it lives in.

A :class:`Program` is one machine and one stream of instruction words: every
``nki.isa`` call appends its word(s) and runs them at once, so a tile's contents are
there to read (``tile.numpy()``) after each call. Tiles are partition-major regions of
the machine's SBUF or PSUM; slicing a tile gives a view, which is what an instruction's
tensor descriptor (SPEC §3.5) describes. Data from NumPy (HBM) is not an instruction:
``dma_copy`` into a tile becomes the program's initial state, which is only possible
while no instruction has touched those bytes.
"""

from __future__ import annotations

import functools
import itertools
import operator
import os
import pathlib
import re
import threading
from enum import Enum
from typing import Any, Callable

import numpy as np

from .._program import Dump, Load, Recording, Words
from ..codec import decode, disassemble, validate
from ..dtypes import dtype_name, dtype_size, numpy_dtype, storage_dtype
from ..errors import NkiValidationError
from ..machine import Machine
from ._index import IndexExpr, as_slice, dim_vars, hbm, order_vars, plain

__all__ = ["Program", "Tile", "NkiInstruction", "dependency", "current", "jit", "Kernel",
           "simulate", "simulate_kernel", "baremetal"]

_ALIGN = 64  # tiles start on 64-byte boundaries of their partitions
_PARTITIONS = 128

# The programs being built in each thread, innermost last (``with Program():`` and
# ``@jit`` push one).
_LOCAL = threading.local()


def _stack() -> list["Program"]:
    stack = getattr(_LOCAL, "stack", None)
    if stack is None:
        stack = _LOCAL.stack = []
    return stack


def current(call: str = "gpsimd.nki") -> "Program":
    """Return the program being built, or raise naming the call that needs one.

    >>> import gpsimd.nki as nki
    >>> with nki.Program("v2") as p:
    ...     nki.current() is p
    True
    >>> nki.current()
    Traceback (most recent call last):
    ...
    RuntimeError: gpsimd.nki: no gpsimd.nki program is being built; call it inside a kernel decorated with @gpsimd.nki.jit, or inside `with gpsimd.nki.Program():`
    """
    stack = _stack()
    if not stack:
        raise RuntimeError(
            f"{call}: no gpsimd.nki program is being built; call it inside a kernel decorated "
            "with @gpsimd.nki.jit, or inside `with gpsimd.nki.Program():`")
    return stack[-1]


def _index_is_tile(k: Any) -> bool:
    return isinstance(k, Tile)


def _error(call: str, argument: str | None, reason: str) -> NkiValidationError:
    return NkiValidationError(call, argument, reason)


class Tile:
    """An SBUF or PSUM tile of a :class:`Program` (NKI's ``NkiTensor`` on chip), or a view
    of one: partitions ``[start_partition, start_partition + shape[0])`` and, within each
    of them, the elements of a strided pattern from a byte offset.

    ``shape``, ``dtype`` (an NKI dtype, e.g. ``nl.bfloat16``), ``buffer`` (``nl.sbuf`` or
    ``nl.psum``); ``t[a:b, ...]`` is a view (the partition dimension takes a slice of
    step 1; free dimensions take integers and slices, negative steps included);
    ``t.numpy()`` copies its contents out (BF16 and FP8 as bit patterns: ``uint16``,
    ``uint8``). ``repr`` shows where it lives and its values, elided like NumPy.

    >>> import gpsimd.nki as nki, gpsimd.nki.language as nl, gpsimd.nki.isa as nisa
    >>> with nki.Program():
    ...     t = nl.ndarray((2, 4), dtype=nl.int32, name="ramp")
    ...     nisa.iota(t, [[1, 4]], 10, channel_multiplier=100)
    ...     print(t[:, 1:3])
    NkiInstruction(#0 nisa.iota: Iota, word 0)
    ramp[0:2, 1:3]: int32 (2, 2) in sbuf[p=0..1, off=0x4] step [1]
    [[ 11  12]
     [111 112]]
    """

    def __init__(self, program: "Program", space: str, dtype: Any, start_partition: int,
                 partitions: int, offset: int, dims: list[tuple[int, int]], name: str,
                 root: "Tile | None" = None, expr: str | None = None) -> None:
        self.program = program
        self.space = space
        self.dtype = dtype
        self.gpsimd_dtype = dtype_name(dtype)
        self.elem = dtype_size(self.gpsimd_dtype)
        self.start_partition = start_partition
        self.partitions = partitions
        self.offset = offset
        self.dims = list(dims)  # free dimensions, outermost first: (step in elements, num)
        self.name = name
        self.root = root or self
        self._expr = expr or name

    # -- NKI's tensor attributes ------------------------------------------------------

    @property
    def shape(self) -> tuple[int, ...]:
        return (self.partitions,) + tuple(n for _, n in self.dims)

    @property
    def ndim(self) -> int:
        return 1 + len(self.dims)

    @property
    def buffer(self) -> Any:
        from . import language

        return language.sbuf if self.space == "sbuf" else language.psum

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))

    def _free_count(self) -> int:
        """The number of elements per partition."""
        return int(np.prod([n for _, n in self.dims])) if self.dims else 1

    def __getitem__(self, key: Any) -> "Tile":
        call = f"{self._expr}[...]"
        if not isinstance(key, tuple):
            key = (key,)
        vars_: list[Any] | None = None
        if any(isinstance(k, IndexExpr) for k in key) or any(_index_is_tile(k) for k in key):
            order_vars(call, key)
            vars_ = dim_vars(key)
            key = tuple(as_slice(call, k, self.shape[i] if i < self.ndim else 0)
                        for i, k in enumerate(key))
        if any(k is Ellipsis for k in key):
            i = next(i for i, k in enumerate(key) if k is Ellipsis)
            fill = self.ndim - (len(key) - 1)
            key = key[:i] + (slice(None),) * fill + key[i + 1:]
        if len(key) > self.ndim:
            raise IndexError(f"{call}: {len(key)} indices for a tile of {self.ndim} dimensions")
        key = key + (slice(None),) * (self.ndim - len(key))
        texts = []
        pk = key[0]
        if isinstance(pk, (int, np.integer)) and not isinstance(pk, (bool, np.bool_)):
            # An integer partition index keeps a partition dimension of one: NKI's t[0, :].
            i = int(pk) + self.partitions if int(pk) < 0 else int(pk)
            if not 0 <= i < self.partitions:
                raise IndexError(f"{call}: partition index {int(pk)} is out of "
                                 f"{self.partitions} partitions")
            pk = slice(i, i + 1)
        if not isinstance(pk, slice):
            raise IndexError(f"{call}: the partition dimension takes an integer or a slice, "
                             f"got {pk!r}")
        p_lo, p_hi, p_step = pk.indices(self.partitions)
        if p_step != 1 or p_hi <= p_lo:
            raise IndexError(f"{call}: the partition slice must be non-empty with step 1, "
                             f"got {pk}")
        texts.append(f"{p_lo}:{p_hi}")
        offset = self.offset
        dims = []
        for k, (step, num) in zip(key[1:], self.dims):
            if isinstance(k, slice):
                lo, hi, st = k.indices(num)
                n = len(range(lo, hi, st))
                if n == 0:
                    raise IndexError(f"{call}: the slice {k} of a dimension of {num} is empty")
                offset += lo * step * self.elem
                dims.append((step * st, n))
                texts.append(f"{lo}:{hi}" + (f":{st}" if st != 1 else ""))
            elif isinstance(k, (int, np.integer)):
                i = int(k) + num if int(k) < 0 else int(k)
                if not 0 <= i < num:
                    raise IndexError(f"{call}: index {int(k)} is out of a dimension of {num}")
                offset += i * step * self.elem
                texts.append(str(i))
            else:
                raise IndexError(f"{call}: free dimensions take integers and slices, got {k!r}")
        view = Tile(self.program, self.space, self.dtype, self.start_partition + p_lo,
                    p_hi - p_lo, offset, dims, self.name, self.root,
                    f"{self.root.name}[{', '.join(texts)}]")
        if vars_ is not None and len(vars_) == view.ndim:
            view._dim_vars = vars_
        return view

    def __setitem__(self, key: Any, value: Any) -> None:
        """``t[...] = value``: NKI's assignment into a view of a tile.

        - a tile that ``nl.load`` (a DMA) filled and no instruction has touched, into
          bytes no instruction has touched: the DMA's data, written as initial state;
        - any other tile (the result of a value-returning call, ``nl.add(...)``, ...):
          ``nisa.tensor_copy`` — Copy, or Cast between dtypes — into the view;
        - a number, into bytes no instruction has touched: initial state, as
          ``nl.full``.
        """
        call = f"{self._expr}[...] ="
        dst = self[key]
        if isinstance(value, Tile):
            src = value
            if src.size != dst.size:
                raise IndexError(f"{call}: {src._expr} has {src.size} elements, the view "
                                 f"{dst._expr} {dst.size}")
            if (getattr(src.root, "_loaded", False) and src.dtype == dst.dtype
                    and not self.program._touched_by(src._box())
                    and not self.program._touched_by(dst._box())):
                self.program._initial(call, dst, src.numpy().reshape(dst.shape))
                dst.root._loaded = True
                return
            from . import isa

            isa.tensor_copy(dst, src)
            return
        if isinstance(value, np.ndarray):
            raise TypeError(f"{call}: a NumPy array is HBM: nl.load it (or nisa.dma_copy it) "
                            "into the tile")
        from .._operands import scalar_bits

        bits = scalar_bits(call, "value", value, self.gpsimd_dtype)
        self.program._initial(call, dst, np.broadcast_to(
            np.asarray(bits).view(storage_dtype(self.gpsimd_dtype)), dst.shape))

    # -- where it is ------------------------------------------------------------------

    def _extent(self) -> tuple[int, int]:
        """Return the lowest and one-past-highest byte any element touches (per partition)."""
        lo = hi = 0
        for step, num in self.dims:
            if step < 0:
                lo += step * (num - 1)
            else:
                hi += step * (num - 1)
        return self.offset + lo * self.elem, self.offset + hi * self.elem + self.elem

    def _box(self) -> tuple[str, int, int, int, int]:
        lo, hi = self._extent()
        return (self.space, self.start_partition, self.start_partition + self.partitions, lo, hi)

    def region(self) -> str:
        """Return where the view starts, as assembly writes a region.

        >>> import gpsimd.nki as nki, gpsimd.nki.language as nl
        >>> with nki.Program():
        ...     t = nl.ndarray((8, 16), dtype=nl.int16)
        >>> t[2:4, 4:].region()
        'sbuf[p=2..3, off=0x8]'
        """
        last = self.start_partition + self.partitions - 1
        parts = f"p={self.start_partition}" if last == self.start_partition else \
            f"p={self.start_partition}..{last}"
        return f"{self.space}[{parts}, off={self.offset:#x}]"

    def _descriptor(self, call: str, arg: str, dims: int,
                    shape: list[int] | None = None) -> dict[str, Any]:
        """Return the tensor descriptor (an encode() dict) of a TENSOR{dims}D that walks
        this view in its element order, merging contiguous dimensions; ``shape``
        (innermost first) forces the nums."""
        free = [(s, n) for s, n in self.dims if n != 1]
        merged: list[tuple[int, int]] = []
        for step, num in free:  # outermost first
            if merged and merged[-1][0] == step * num:
                outer_step, outer_num = merged.pop()
                merged.append((step, outer_num * num))
            else:
                merged.append((step, num))
        inner = merged[::-1] or [(1, 1)]  # innermost first
        if shape is not None:
            inner = _reshape(inner, shape)
            if inner is None:
                raise _error(call, arg, f"{self._expr} (shape {self.shape}) cannot be walked as "
                             f"the {len(shape)}-D pattern {shape[::-1]} the instruction needs")
        if len(inner) > dims:
            raise _error(call, arg, f"{self._expr} has {len(inner)} free dimensions that do not "
                         f"merge (shape {self.shape}); the instruction's operand is a "
                         f"TENSOR{dims}D, which walks at most {dims}")
        offset = self.offset
        for step, num in inner:
            if not -32768 <= step <= 32767:
                raise _error(call, arg, f"{self._expr}: a step of {step} elements does not fit "
                             "a descriptor's int16 step_elem")
            if num > 65535:
                raise _error(call, arg, f"{self._expr}: {num} elements in one dimension do not "
                             "fit a descriptor's uint16 num_elem (at most 65535)")
        inner = inner + [(0, 1)] * (dims - len(inner))
        return {"space": self.space, "partition": self.start_partition, "offset": offset,
                "step": [s if n != 1 else 0 for s, n in inner], "num": [n for _, n in inner]}

    def _address(self) -> dict[str, Any]:
        """The static address of the view's first element (a pointer immediate)."""
        return {"space": self.space, "partition": self.start_partition, "offset": self.offset}

    # -- contents ---------------------------------------------------------------------

    def _view(self) -> np.ndarray:
        m = self.program.machine
        mem = m.sbuf if self.space == "sbuf" else m.psum
        st = storage_dtype(self.gpsimd_dtype)
        typed = mem.view(st)
        row = typed.strides[0]
        start = typed[self.start_partition:, self.offset // self.elem:]
        return np.lib.stride_tricks.as_strided(
            start, shape=self.shape, strides=(row,) + tuple(s * self.elem for s, _ in self.dims),
            writeable=True)

    def numpy(self) -> np.ndarray:
        """Return a copy of the contents, ``shape`` shaped, in the dtype's NumPy storage
        (BF16 and FP8 as bit patterns, ``uint16`` / ``uint8``).

        >>> import numpy as np, gpsimd, gpsimd.nki as nki, gpsimd.nki.language as nl
        >>> with nki.Program():
        ...     t = nl.full((2, 3), 1.5, dtype=nl.bfloat16)
        ...     bits = t.numpy()
        >>> bits.dtype, gpsimd.from_bf16(bits)[0]
        (dtype('uint16'), array([1.5, 1.5, 1.5], dtype=float32))
        """
        return np.array(self._view())

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        # The values: BF16 and FP8 in the NumPy dtypes gpsimd registers for them.
        a = self.numpy().view(numpy_dtype(self.gpsimd_dtype))
        return a if dtype is None else a.astype(dtype)

    def __repr__(self) -> str:
        steps = [s for s, _ in self.dims]
        head = (f"{self._expr}: {self.dtype} {self.shape} in {self.region()}"
                + (f" step {steps}" if self.dims and self is not self.root else ""))
        return head + "\n" + np.array2string(self.numpy(), threshold=256, edgeitems=3)

    def _repr_html_(self) -> str:
        return ("<pre>" + repr(self).replace("&", "&amp;").replace("<", "&lt;")
                .replace(">", "&gt;") + "</pre>")


def _reshape(inner: list[tuple[int, int]], shape: list[int]) -> list[tuple[int, int]] | None:
    """Return the walk `inner` (innermost first) as dimensions of the nums `shape`
    (innermost first), when each new dimension lies within one old one; else None."""
    dims = iter([(s, n) for s, n in inner if n != 1])
    cur = next(dims, None)
    out = []
    for want in shape:
        if want == 1:
            out.append((0, 1))
            continue
        if cur is None or cur[1] % want:
            return None
        step, left = cur
        out.append((step, want))
        cur = (step * want, left // want) if left // want > 1 else next(dims, None)
    return out if cur is None else None


def _note_arg(value: Any) -> str:
    if isinstance(value, Tile):
        return value._expr
    if isinstance(value, np.ndarray) and value.ndim > 0:
        return f"hbm{list(value.shape)} {value.dtype}"
    if value is Ellipsis:
        return "..."
    if isinstance(value, Enum):
        return f"nisa.{type(value).__name__}.{value.name}"
    if callable(value) and hasattr(value, "__name__"):
        mod = "nl." if getattr(value, "is_nki_op", False) else ""
        return mod + value.__name__
    return repr(value)


class Program:
    """One machine and the program NKI calls build on it.

    Every ``gpsimd.nki.isa`` call inside ``with Program():`` (or inside a kernel
    decorated with :func:`jit`) validates its word(s) (an invalid one raises
    :class:`gpsimd.nki.isa.NkiValidationError`, and nothing runs), runs them on
    ``machine`` and appends them to the program. ``nl.ndarray`` allocates tiles in its
    SBUF and PSUM, and ``nisa.dma_copy`` of NumPy data into a tile becomes the program's
    initial state.

    - ``words``: the words as :class:`gpsimd.Words` (their ``replay()`` runs them on a
      fresh machine from the initial state);
    - ``assembly()`` / ``print(program)``: the program as assembly text, each call's
      words under a comment naming it;
    - ``save(path)``: the text (initial data as ``.npy`` files, a ``.dump`` of every
      tile) for ``gpsimd run``, which reproduces the final state;
    - ``replay()``: a fresh machine after the program ran from its initial state; it
      equals ``machine`` (``program.replay() == program.machine``);
    - ``trace()``: the trace events of a replay; ``explain()``: each word in words.

    >>> import numpy as np, gpsimd.nki as nki, gpsimd.nki.language as nl
    >>> import gpsimd.nki.isa as nisa
    >>> with nki.Program("v3") as p:
    ...     x = nl.ndarray((2, 8), dtype=nl.float32, name="x")
    ...     nisa.dma_copy(dst=x, src=np.arange(16, dtype=np.float32).reshape(2, 8))
    ...     top = nl.ndarray((2, 8), dtype=nl.float32, name="top")
    ...     nisa.max8(dst=top, src=x)
    NkiInstruction(#0 nisa.dma_copy: host DMA, no words)
    NkiInstruction(#1 nisa.max8: Max8, word 0)
    >>> top.numpy()[:, :3]
    array([[ 7.,  6.,  5.],
           [15., 14., 13.]], dtype=float32)
    >>> p.words.shape, p.replay() == p.machine
    ((1, 64), True)
    >>> print(p.assembly().splitlines()[3])
    # nisa.max8(dst=top, src=x)
    """

    def __init__(self, generation: str | int = "v3", *, strict: bool = False,
                 name: str = "kernel") -> None:
        self.machine = Machine(generation)
        self.generation = self.machine.generation
        self.strict = bool(strict)
        self.name = name
        self.recording = Recording(self.generation, title=f"gpsimd.nki program {name}")
        self.tiles: list[Tile] = []
        self._top = {"sbuf": 0, "psum": 0}
        self._touched: list[tuple[str, int, int, int, int]] = []
        self._fill_registers: dict[int, int] = {}
        self._nan8: Tile | None = None  # nc_match_replace8's dst_idx source, made once
        # The SPMD launch: (grid sizes, this instance's ids); the HBM tensors its
        # instances share (nl.ndarray on shared HBM, in call order) and the next one's.
        self.spmd: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
        self._shared_hbm: list[np.ndarray] = []
        self._hbm_next = 0
        self._names: set[str] = set()
        self.instructions: list[NkiInstruction] = []

    def __enter__(self) -> "Program":
        _stack().append(self)
        return self

    def __exit__(self, *exc: Any) -> bool:
        _stack().remove(self)
        return False

    # -- allocation -------------------------------------------------------------------

    def _unique(self, name: str) -> str:
        base = re.sub(r"[^A-Za-z0-9_]", "_", name) or "t"
        if base[0].isdigit():
            base = "t" + base
        candidate, i = base, 1
        while candidate in self._names:
            candidate, i = f"{base}_{i}", i + 1
        self._names.add(candidate)
        return candidate

    def _allocate(self, call: str, shape: tuple[int, ...], dtype: Any, space: str, name: str,
                 address: Any = None) -> Tile:
        """Return a new tile: ``shape[0]`` partitions from partition 0 (or ``address``'s
        first), the rest dense in C order from the next free 64-byte boundary (or
        ``address``'s second)."""
        shape = tuple(int(n) for n in shape)
        if len(shape) < 1 or any(n < 1 for n in shape):
            raise _error(call, "shape", f"{shape}: an on-chip tile has a partition dimension "
                         "and every dimension at least 1")
        if shape[0] > _PARTITIONS:
            raise _error(call, "shape", f"{shape}: the partition dimension (first) is at most "
                         f"{_PARTITIONS}")
        elem = dtype_size(dtype_name(dtype))
        per_partition = int(np.prod(shape[1:], dtype=np.int64)) * elem
        pbytes = self.machine.partition_bytes(space)
        if address is None:
            first = 0
            offset = -(-self._top[space] // _ALIGN) * _ALIGN
        else:
            try:
                first, offset = (int(v) for v in address)
            except (TypeError, ValueError):
                raise _error(call, "address", f"{address!r}: expected (partition_offset, "
                             "free_offset)") from None
            if not 0 <= first <= _PARTITIONS - shape[0] or offset < 0 or offset % elem:
                raise _error(call, "address", f"{address!r}: the partitions must fit 0..127 and "
                             f"the offset be a non-negative multiple of {elem}")
        if offset + per_partition > pbytes:
            raise _error(call, "shape", f"{shape} needs {per_partition} bytes of each "
                         f"partition at offset {offset:#x}; a {space.upper()} partition of "
                         f"{self.generation} has {pbytes}")
        if address is None:
            self._top[space] = offset + per_partition
        dims = []
        step = 1
        for n in reversed(shape[1:]):
            dims.append((step, n))
            step *= n
        tile = Tile(self, space, dtype, first, shape[0], offset, dims[::-1],
                    self._unique(name or f"t{len(self.tiles)}"))
        self.tiles.append(tile)
        return tile

    # -- the initial state ------------------------------------------------------------

    def _touched_by(self, box: tuple[str, int, int, int, int]) -> bool:
        s, p0, p1, lo, hi = box
        return any(s == t[0] and p0 < t[2] and t[1] < p1 and lo < t[4] and t[3] < hi
                   for t in self._touched)

    def _initial(self, call: str, tile: Tile, data: np.ndarray) -> None:
        """Write ``data`` (the tile's shape, its storage dtype) into a tile as initial
        state: refused once an instruction of the program has touched those bytes."""
        if self._touched_by(tile._box()):
            raise NotImplementedError(
                f"{call}: {tile._expr} shares bytes with an operand of an instruction this "
                "program already ran; a DMA transfer is not an instruction of the model, so "
                "gpsimd.nki writes it as the program's initial state, which can only hold "
                "bytes no instruction has touched yet: write into a fresh tile")
        view = tile._view()
        view[...] = data
        lo, hi = tile._extent()
        # The bytes of the view's partitions and extent, as they now are.
        mem = self.machine.sbuf if tile.space == "sbuf" else self.machine.psum
        p0, p1 = tile.start_partition, tile.start_partition + tile.partitions
        raw = np.array(mem[p0:p1, lo:hi])
        self.recording.loads.append(Load(tile.space, p0, lo, raw, tile.root.name))

    def _fill_register(self, bits: int) -> int:
        """Return a register holding these 32 bits from the start (AffineSelect's fill)."""
        bits = int(bits) & 0xFFFFFFFF
        if bits not in self._fill_registers:
            r = len(self._fill_registers)
            if r >= 64:
                raise _error("nisa.affine_select", "on_false_value",
                             "a program holds at most 64 different fill values (one register "
                             "each, set in its initial state)")
            self._fill_registers[bits] = r
            self.machine.registers[r] = bits
            self.recording.registers[r] = bits
        return self._fill_registers[bits]

    # -- running ----------------------------------------------------------------------

    def _emit(self, call: str, words: list[bytes], reads: list[Tile], writes: list[Tile],
              note: str, engine: str | None = None) -> "NkiInstruction":
        """Validate, run and record the words of one call, all or nothing, and return
        its :class:`NkiInstruction`.

        The words are :mod:`gpsimd._lower`'s, whose ``arguments`` name the NKI argument
        each field comes from, for the errors; ``reads`` and ``writes`` are the call's
        operands; ``engine`` the engine input of its words (SPEC §3.9: 'dve', 'pool',
        'act'; None: each instruction's default)."""
        for w in words:
            diags = validate(w, self.generation, self.strict, engine)
            if diags:
                raise NkiValidationError._of_word(call, diags, getattr(w, "arguments", {}))
        # All or nothing, as a word is: the runner undoes the call's earlier words when a
        # later one faults (its undo journal).
        self.machine._run_words(words, strict=self.strict, atomic=True, engine=engine)
        first = len(self.recording.words)
        self.recording.add_words(words, note, engine)
        for t in list(reads) + list(writes):
            self._touched.append(t._box())
        handle = NkiInstruction(self, note, range(first, len(self.recording.words)))
        self.instructions.append(handle)
        return handle

    def _record(self, note: str) -> "NkiInstruction":
        """Return the handle of a call that emits no words (a host-side DMA)."""
        n = len(self.recording.words)
        handle = NkiInstruction(self, note, range(n, n))
        self.instructions.append(handle)
        return handle

    # -- the program ------------------------------------------------------------------

    def _dumps(self) -> list[Dump]:
        dumps = []
        for t in self.tiles:
            lo, hi = t._extent()
            dumps.append(Dump(t.name, t.space, t.start_partition, t.partitions, lo, "UINT8",
                              hi - lo))
        return dumps

    def _recording(self) -> Recording:
        self.recording.dumps = self._dumps()
        return self.recording

    @property
    def words(self) -> Words:
        """The words so far, as :class:`gpsimd.Words` that know the initial state and
        dump every tile."""
        rec = self._recording()
        return Words(rec.words, rec)

    def assembly(self, inline_limit: int | None = None) -> str:
        """Return the program as assembly text: ``.nc``, the initial state (``.reg``,
        ``.data``), the words under comments naming their calls, a ``.dump`` per tile.
        With ``inline_limit``, initial data of more bytes than that are named in a
        comment only (``save`` writes them to files); without it the text is complete.

        >>> import gpsimd, gpsimd.nki as nki, gpsimd.nki.language as nl
        >>> import gpsimd.nki.isa as nisa
        >>> with nki.Program() as p:
        ...     nisa.iota(nl.ndarray((1, 4), dtype=nl.int32, name="r"), [[1, 4]], 7)
        NkiInstruction(#0 nisa.iota: Iota, word 0)
        >>> print(p.assembly())
        # gpsimd.nki program kernel
        .nc v3
        # nisa.iota(dst=r, pattern=[[1, 4]], offset=7, channel_multiplier=0)
        Iota src_data_pattern=7 step=[1,0,0,0] num=[4,1,1,1], out_dtype=INT32, ...
        .dump sbuf[p=0, off=0x0] UINT8 [16]
        >>> gpsimd.Machine().run(p.assembly())
        1
        """
        return self._recording().text(inline_limit=inline_limit)

    def __str__(self) -> str:
        return self.assembly(inline_limit=256)

    def save(self, path: str | os.PathLike) -> pathlib.Path:
        """Write the program for ``gpsimd run``: the text at ``path``, the initial data
        as ``.npy`` files next to it (``.load``), and a ``.dump`` of each tile's bytes to
        ``<stem>.<tile>.npy``. Returns the path.

        >>> import tempfile, pathlib, gpsimd.nki as nki, gpsimd.nki.language as nl
        >>> import gpsimd.nki.isa as nisa
        >>> with nki.Program() as p:
        ...     nisa.iota(nl.ndarray((4, 8), dtype=nl.int32, name="r"), [[1, 8]], 0, 1)
        NkiInstruction(#0 nisa.iota: Iota, word 0)
        >>> d = tempfile.mkdtemp()
        >>> p.save(pathlib.Path(d) / "k.gpsimd").read_text().splitlines()[-1]
        '.dump sbuf[p=0..3, off=0x0] UINT8 [32] -> k.r.npy'
        """
        return self._recording().save(path)

    def replay(self, **run_options: Any) -> Machine:
        """Return a fresh machine after the program's words ran on its initial state
        (``Machine.run``'s options apply): it equals ``machine``.

        >>> import numpy as np, gpsimd.nki as nki, gpsimd.nki.language as nl
        >>> import gpsimd.nki.isa as nisa
        >>> with nki.Program() as p:
        ...     x = nl.ndarray((1, 8), dtype=nl.float32)
        ...     nisa.dma_copy(dst=x, src=np.arange(8, dtype=np.float32)[None])
        ...     nisa.max8(dst=nl.ndarray((1, 8), dtype=nl.float32), src=x)
        NkiInstruction(#0 nisa.dma_copy: host DMA, no words)
        NkiInstruction(#1 nisa.max8: Max8, word 0)
        >>> p.replay() == p.machine
        True
        """
        return self._recording().replay(**run_options)

    def trace(self) -> list[dict[str, Any]]:
        """Return the trace events (``Machine.run(trace=...)``) of a replay.

        >>> import gpsimd.nki as nki, gpsimd.nki.language as nl, gpsimd.nki.isa as nisa
        >>> with nki.Program() as p:
        ...     nisa.iota(nl.ndarray((2, 4), dtype=nl.int32), [[1, 4]], 0)
        NkiInstruction(#0 nisa.iota: Iota, word 0)
        >>> [(e["kind"], e.get("partition")) for e in p.trace()]
        [('retire', None), ('memory', 0), ('memory', 1)]
        """
        events: list[dict[str, Any]] = []
        self._recording().replay(trace=events.append)
        return events

    def explain(self) -> str:
        """Return, for every call, the call, then each of its words: the instruction,
        its operands (memory region, element counts) and its assembly text. (``gpsimd
        explain`` on the saved program says more, word by word.)

        >>> import gpsimd.nki as nki, gpsimd.nki.language as nl, gpsimd.nki.isa as nisa
        >>> with nki.Program() as p:
        ...     nisa.iota(nl.ndarray((2, 4), dtype=nl.int32, name="r"), [[1, 4]], 0)
        NkiInstruction(#0 nisa.iota: Iota, word 0)
        >>> print(p.explain())
        nisa.iota(dst=r, pattern=[[1, 4]], offset=0, channel_multiplier=0)
          word 0: Iota
            dst_mem_pattern: sbuf partition 0 offset 0x0, num [4, 1, 1, 1] step [1, 0, 0, 0] (4 elements a channel)
            Iota src_data_pattern=0 ...
        """
        lines = []
        rec = self.recording
        for i, w in enumerate(rec.words):
            if rec.notes[i]:
                lines.append(rec.notes[i])
            f = decode(w)
            lines.append(f"  word {i}: {f['instruction']}")
            for key, v in f.items():
                if isinstance(v, dict) and "num" in v and "space" in v:
                    count = int(np.prod(v["num"]))
                    lines.append(f"    {key}: {v['space']} partition {v['partition']} offset "
                                 f"{v['offset']:#x}, num {v['num']} step {v['step']} "
                                 f"({count} elements a channel)")
            lines.append("    " + disassemble(w).replace("\n", "\n    "))
        return "\n".join(lines)

    def __repr__(self) -> str:
        names = ", ".join(f"{t.name} {t.dtype}{list(t.shape)}" for t in self.tiles[:8])
        more = f", ... ({len(self.tiles) - 8} more)" if len(self.tiles) > 8 else ""
        return (f"gpsimd.nki.Program({self.generation!r}, name={self.name!r}): "
                f"{len(self.recording.words)} words, tiles: {names or 'none'}{more}")


class dependency(Enum):
    """Instruction dependency kind (NKI 0.8's ``nki.isa.dependency``), for
    :meth:`NkiInstruction.depends_on`: ``runtime`` (a hardware semaphore wait that orders
    the pair across engines) or ``schedule`` (an ordering constraint for the compiler's
    schedulers, no synchronization)."""

    runtime = 1
    schedule = 2


class NkiInstruction:
    """The handle of one ``nki.isa`` call of a program (NKI 0.8's ``NkiInstruction``),
    which every ``nisa`` call returns: ``index`` (its place in ``program.instructions``,
    call order), the call (``note``, as the program text names it) and the indices of
    its words in the program (``words``; none for a ``dma_copy``, which is no
    instruction of the model).

    ``depends_on(*producers, kind=nisa.dependency.runtime)`` records that it runs after
    each producer (``dependencies``: ``(producer, kind)`` pairs) and returns the handle,
    as NKI 0.8 defines it: a producer is a handle of the same program and comes earlier
    in program order; ``kind`` omitted is ``runtime`` (NKI's deprecated default). On
    gpsimd.nki's one machine every call has already run in program order, so a
    dependency changes nothing yet.

    >>> import gpsimd.nki as nki, gpsimd.nki.isa as nisa, gpsimd.nki.language as nl
    >>> with nki.Program() as p:
    ...     a = nisa.iota(nl.ndarray((1, 8), dtype=nl.int32), [[1, 8]], 0)
    ...     b = nisa.iota(nl.ndarray((1, 8), dtype=nl.int32), [[2, 8]], 0)
    >>> b
    NkiInstruction(#1 nisa.iota: Iota, word 1)
    >>> b.depends_on(a, kind=nisa.dependency.schedule) is b, b.dependencies
    (True, [(NkiInstruction(#0 nisa.iota: Iota, word 0), <dependency.schedule: 2>)])
    >>> a.depends_on(b)
    Traceback (most recent call last):
    ...
    ValueError: depends_on: NkiInstruction(#1 nisa.iota: Iota, word 1) comes after NkiInstruction(#0 nisa.iota: Iota, word 0) in program order; a producer must come before
    """

    def __init__(self, program: "Program", note: str, words: range) -> None:
        self.program = program
        self.note = note
        self.words = words
        self.index = len(program.instructions)
        self.dependencies: list[tuple[NkiInstruction, dependency]] = []

    def depends_on(self, *producers: "NkiInstruction",
                   kind: dependency | None = None) -> "NkiInstruction":
        if kind is None:
            kind = dependency.runtime
        elif not isinstance(kind, dependency):
            raise TypeError(f"depends_on: kind={kind!r}: expected nisa.dependency.runtime or "
                            "nisa.dependency.schedule")
        for p in producers:
            if not isinstance(p, NkiInstruction):
                raise TypeError(f"depends_on: expected the NkiInstruction an nki.isa call "
                                f"returned, got {type(p).__name__}")
            if p.program is not self.program:
                raise ValueError(f"depends_on: {p!r} is an instruction of another program")
            if p.index >= self.index:
                raise ValueError(f"depends_on: {p!r} comes after {self!r} in program order; "
                                 "a producer must come before")
        self.dependencies += [(p, kind) for p in producers]
        return self

    def __repr__(self) -> str:
        call = self.note.split("(", 1)[0]
        if not self.words:
            return f"NkiInstruction(#{self.index} {call}: host DMA, no words)"
        rec = self.program.recording
        names = " + ".join(decode(rec.words[i])["instruction"] for i in self.words)
        first, last = self.words[0], self.words[-1]
        where = f"word {first}" if first == last else f"words {first}..{last}"
        return f"NkiInstruction(#{self.index} {call}: {names}, {where})"


def _grid(grid: Any) -> tuple[int, ...]:
    """Return a launch grid (``kernel[4, 2]``, ``kernel[8]``, ``nl.nc(2) * 2``) as its
    sizes."""
    dims = grid if isinstance(grid, tuple) else (grid,)
    sizes = []
    for d in dims:
        try:
            n = operator.index(d)
        except TypeError:
            raise TypeError(f"kernel[...]: a launch grid dimension is a positive integer (or "
                            f"nl.spmd_dim / nl.nc), got {d!r}") from None
        if n < 1:
            raise ValueError(f"kernel[...]: a launch grid dimension must be at least 1, got {n}")
        sizes.append(n)
    return tuple(sizes)


class Kernel:
    """An NKI kernel decorated with :func:`jit`. Calling it runs the kernel once (a
    launch grid of no dimensions); ``kernel[grid](...)`` runs an SPMD launch (see
    :func:`jit`). ``program`` is the last program run, ``programs`` every program of
    the last call (one per program instance)."""

    def __init__(self, fn: Callable[..., Any], generation: str, strict: bool,
                 options: dict[str, Any]) -> None:
        functools.update_wrapper(self, fn)
        self.generation = generation
        self.strict = strict
        self.options = options
        self.program: Program | None = None
        self.programs: list[Program] = []

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._launch((), args, kwargs)

    def __getitem__(self, grid: Any) -> "Launch":
        return Launch(self, _grid(grid))

    def _launch(self, grid: tuple[int, ...], args: tuple, kwargs: dict) -> Any:
        """Run every program instance of the grid in row-major order, each in a fresh
        Program, the HBM tensors shared; return the last instance's result."""
        args = tuple(hbm(a) for a in args)
        kwargs = {k: hbm(v) for k, v in kwargs.items()}
        shared: list[np.ndarray] = []
        self.programs = []
        result = None
        for ids in itertools.product(*(range(n) for n in grid)):
            with Program(self.generation, strict=self.strict, name=self.__name__) as p:
                p.spmd = (grid, ids)
                p._shared_hbm = shared
                self.program = p
                self.programs.append(p)
                result = self.__wrapped__(*args, **kwargs)
        return plain(result)

    def __repr__(self) -> str:
        return f"<gpsimd.nki kernel {self.__name__} ({self.generation})>"


class Launch:
    """``kernel[grid]``: calling it runs the kernel's SPMD launch of that grid."""

    def __init__(self, kernel: Kernel, grid: tuple[int, ...]) -> None:
        self.kernel = kernel
        self.grid = grid

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.kernel._launch(self.grid, args, kwargs)

    def __repr__(self) -> str:
        return f"{self.kernel!r}[{', '.join(map(str, self.grid))}]"


# NKI's jit platform_target: the NeuronCore generation gpsimd runs it on.
_PLATFORM = {"trn1": "v2", "inf2": "v2", "trn2": "v3", "trn3": "v4"}


def jit(kernel: Callable[..., Any] | None = None, *, generation: str | int | None = None,
        strict: bool = False, **nki_options: Any) -> Any:
    """Decorate an NKI kernel: each call builds a fresh :class:`Program` (on
    ``generation``; else NKI's ``platform_target``: ``'trn1'``/``'inf2'`` v2,
    ``'trn2'`` v3, ``'trn3'`` v4; else v3), runs the kernel in it and returns the
    kernel's result; the program of the last call is ``kernel.program``. NumPy
    arguments are the kernel's HBM tensors: they reach the kernel as
    :class:`gpsimd.nki.HbmTensor` views (no copy: a store into an argument writes the
    caller's array, as on a device), and arrays it returns come back as plain NumPy
    arrays. NKI's other ``jit`` options (``mode``, ...) are accepted and change
    nothing here; ``jit`` of a kernel already decorated decorates its function anew.

    **SPMD launch.** ``kernel[4, 2](a)`` (a launch grid: integers, or ``nl.spmd_dim`` /
    ``nl.nc(2) * 2``, of which only the sizes matter) runs the program instances one
    after another, in row-major order of their ids (the last grid axis fastest: (0, 0),
    (0, 1), (1, 0), ...). Each runs in its own fresh :class:`Program` — its own machine,
    SBUF and PSUM fresh, as a NeuronCore running that instance — where
    ``nl.program_id(axis)``, ``nl.num_programs(axes)`` and ``nl.program_ndim()`` say
    where it is; ``kernel.programs`` lists the programs of the launch and
    ``kernel.program`` is the last. The HBM tensors are shared: the arguments, and each
    ``nl.ndarray(..., buffer=nl.shared_hbm)`` (or ``nl.hbm``), which is the same array
    in every instance (the n-th such call of each instance gets the n-th array;
    ``nl.private_hbm`` is the instance's own). The launch returns the last instance's
    result. A call without a grid is a grid of no dimensions: one instance, program id
    0, ``program_ndim()`` 0.

    >>> import numpy as np, gpsimd.nki as nki, gpsimd.nki.language as nl
    >>> import gpsimd.nki.isa as nisa
    >>> @nki.jit
    ... def ramp(n):
    ...     t = nl.ndarray((1, n), dtype=nl.int32)
    ...     nisa.iota(t, [[1, n]], offset=0)
    ...     out = nl.ndarray((1, n), dtype=nl.int32, buffer=nl.shared_hbm)
    ...     nisa.dma_copy(dst=out, src=t)
    ...     return out
    >>> ramp(5)
    array([[0, 1, 2, 3, 4]], dtype=int32)
    >>> len(ramp.program.words)
    1
    >>> @nki.jit
    ... def rows(n):                       # instance i writes row i: 10 * i + [0..n)
    ...     out = nl.ndarray((nl.num_programs(0), n), dtype=nl.int32, buffer=nl.shared_hbm)
    ...     t = nl.ndarray((1, n), dtype=nl.int32)
    ...     nisa.iota(t, [[1, n]], offset=10 * nl.program_id(0))
    ...     nisa.dma_copy(dst=out[nl.program_id(0)], src=t)
    ...     return out
    >>> rows[3](4)
    array([[ 0,  1,  2,  3],
           [10, 11, 12, 13],
           [20, 21, 22, 23]], dtype=int32)
    >>> [p.spmd for p in rows.programs]
    [((3,), (0,)), ((3,), (1,)), ((3,), (2,))]
    """
    if kernel is None:
        return functools.partial(jit, generation=generation, strict=strict, **nki_options)
    if isinstance(kernel, Kernel):  # jit of a decorated kernel: its function, anew
        kernel = kernel.__wrapped__

    target = nki_options.get("platform_target")
    if generation is None:
        if target is not None and target not in _PLATFORM:
            raise ValueError(f"nki.jit: platform_target {target!r}: expected one of "
                             f"{sorted(_PLATFORM)}")
        generation = _PLATFORM.get(target, "v3")
    return Kernel(kernel, str(generation), strict, nki_options)


def simulate_kernel(kernel: Any, *args: Any, **kwargs: Any) -> Any:
    """Run an NKI kernel on the model and return its result (NKI's
    ``nki.simulate_kernel``, the CPU run): a :func:`jit` kernel, a launch
    (``kernel[grid]``) or a plain function (decorated first).

    >>> import numpy as np, gpsimd.nki as nki, gpsimd.nki.language as nl
    >>> def copy(a):
    ...     b = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.hbm)
    ...     nl.store(b, nl.load(a))
    ...     return b
    >>> nki.simulate_kernel(copy, np.eye(2, dtype=np.float32))
    array([[1., 0.],
           [0., 1.]], dtype=float32)
    """
    return simulate(kernel)(*args, **kwargs)


def simulate(kernel: Any) -> Callable[..., Any]:
    """Return a callable that runs ``kernel`` on the model (NKI 0.3's ``nki.simulate``:
    ``nki.simulate(kernel)(a, b)``, ``nki.simulate(kernel[2])(a, b)``); a plain
    function is decorated with :func:`jit` first. gpsimd.nki always runs on the model,
    so this is the kernel itself.

    >>> import numpy as np, gpsimd.nki as nki, gpsimd.nki.language as nl
    >>> @nki.jit
    ... def twice(a):
    ...     b = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.hbm)
    ...     t = nl.load(a)
    ...     nl.store(b, nl.add(t, t))
    ...     return b
    >>> nki.simulate(twice)(np.float32([[1, 2]])), nki.simulate(twice[2])(np.float32([[3]]))
    (array([[2., 4.]], dtype=float32), array([[6.]], dtype=float32))
    """
    if isinstance(kernel, (Kernel, Launch)):
        return kernel
    if callable(kernel):
        return jit(kernel)
    raise TypeError(f"nki.simulate: expected an NKI kernel, got {type(kernel).__name__}")


def baremetal(kernel: Any = None, **options: Any) -> Any:
    """NKI's ``nki.baremetal`` (run a kernel on a NeuronCore), as gpsimd has it: the
    run on the model, as :func:`simulate`; as a decorator with or without NKI's options
    (``@nki.baremetal(save_neff_name=...)``), which change nothing here.

    >>> import numpy as np, gpsimd.nki as nki, gpsimd.nki.language as nl
    >>> @nki.baremetal(artifacts_dir="unused")
    ... def neg(a):
    ...     b = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.hbm)
    ...     nl.store(b, nl.multiply(nl.load(a), -1.0))
    ...     return b
    >>> neg(np.float32([[1, -2]]))
    array([[-1.,  2.]], dtype=float32)
    """
    if kernel is None:
        return functools.partial(baremetal, **options)
    return simulate(kernel)
