"""The machine: SBUF, PSUM, registers, semaphores, accumulators and search lanes as NumPy
views."""

from __future__ import annotations

import os
from typing import Any, Callable, Sequence, Union

import numpy as np

from . import _core
from .codec import _engine_name, word_bytes
from .dtypes import storage_dtype
from .errors import AssemblyError, Fault, InvalidInstruction, ProgramError
from .queues import ENGINES, ProgramRun

__all__ = ["Machine"]

#: A program: assembly text, one word, a sequence of words, or a uint8 array of words.
Program = Union[str, bytes, bytearray, memoryview, np.ndarray, Sequence[Any]]


def _program_bytes(program):
    """Return a program (one word, or words) as concatenated words."""
    if isinstance(program, (bytes, bytearray, memoryview)):
        b = bytes(program)
    elif isinstance(program, np.ndarray):
        if program.dtype != np.uint8:
            raise TypeError(f"program: a NumPy program must be uint8, got {program.dtype}")
        b = program.tobytes()
    else:
        try:
            words = list(program)
        except TypeError:
            raise TypeError(
                f"program: expected assembly text, a word or a sequence of words, got "
                f"{type(program)}"
            ) from None
        return b"".join(word_bytes(w) for w in words)
    if len(b) == 0 or len(b) % 64 != 0:
        raise ValueError(f"program: a whole number of 64-byte words, got {len(b)} bytes")
    return b


class Machine(_core.Machine):
    """One NeuronCore's GPSIMD/Vector state (SPEC §2), for a generation 'v2'..'v5'.

    Its memory is exposed without copies: ``sbuf`` and ``psum`` are writable ``uint8``
    arrays of shape ``[128, partition bytes]``; ``registers`` (64), ``semaphores`` (256)
    and ``accumulators`` (128 FP32 bit patterns) are writable ``uint32`` arrays; so are the
    DVE search lanes (SPEC §2): ``match_values`` ([128, 8] FP32 bit patterns),
    ``matched`` ([128] ``uint8``, bit n = slot n) and ``match_indices`` ([128, 8]). A write
    through any of them is what the next instruction reads, and what an instruction
    writes shows in every view. The views keep the machine alive.

    A fresh machine has all memory, registers and semaphores zero, accumulators -inf and
    every search lane fresh: match values +0.0, no slot matched, indices 0xFFFFFFFF.

    The example runs SPEC §4.4's header example:

    >>> import gpsimd
    >>> m = gpsimd.Machine("v3")
    >>> m.sbuf.shape, m.psum.shape
    ((128, 229376), (128, 16384))
    >>> m.sbuf_view(np.float32, 0, 0, 6)[:] = [9, 3, 5, 1, 0, 0]
    >>> m.run(gpsimd.encode("Sort", num_active_channels=1, in_out_dtype=("FP32", "FP32"),
    ...                     comparison="IS_LT", index_offset=100, stable=1,
    ...                     src_mem_pattern={"offset": 0, "num": [6]},
    ...                     dst_mem_pattern={"offset": 64, "num": [2, 6]}))
    1
    >>> pairs = m.sbuf_view(np.uint32, 0, 64, 12).reshape(6, 2)
    >>> pairs[:, 0].view(np.float32), pairs[:, 1]
    (array([0., 0., 1., 3., 5., 9.], dtype=float32),
     array([104, 105, 103, 101, 102, 100], dtype=uint32))
    """

    def __init__(self, generation: str | int = "v3") -> None:
        super().__init__(generation)

    def __repr__(self) -> str:
        """A summary of the state, as the command-line tool's ``.dump`` would show it:
        which partitions and bytes of SBUF and PSUM hold nonzero bytes, the registers,
        semaphores, accumulators and search lanes that are not fresh (long lists are
        elided, as NumPy elides arrays).

        >>> m = Machine("v2")
        >>> print(m)
        gpsimd.Machine('v2'): fresh
        >>> m.sbuf_view("FP32", slice(0, 4), 64, 2)[:] = 1.0
        >>> m.registers[3] = 7
        >>> print(m)
        gpsimd.Machine('v2')
          sbuf          128 x 196608 bytes: nonzero in partitions 0..3, bytes 0x42..0x47
          psum          128 x 16384 bytes: zero
          registers     r3 = 0x00000007
          semaphores    zero
          accumulators  -inf
          search lanes  fresh
        """
        return "\n".join(_summary(self, html=False))

    def _repr_html_(self) -> str:
        rows = _summary(self, html=True)
        return f"<b>{rows[0]}</b>" + ("<table>" + "".join(rows[1:]) + "</table>" if rows[1:]
                                      else "")

    def run(self, program: Program, *, strict: bool = False, atomic: bool = True,
            fast: bool = True, file: str = "<input>", base_dir: str | os.PathLike | None = None,
            trace: Callable[[dict[str, Any]], Any] | None = None,
            engine: Any = None) -> int:
        """Execute a program; return the number of words that retired.

        ``program`` is one word (64 bytes), a sequence of words (each bytes-like, a
        ``uint8`` array or hex text), a NumPy ``uint8`` array of whole words, or assembly
        text (a ``str``, docs/assembly.md). For text, ``.nc`` must name this machine's
        generation and the setup directives (``.reg``, ``.sem``, ``.acc``, ``.data``,
        ``.load``; relative paths from ``base_dir``, default the current directory) are
        applied before the words run; ``.dump`` directives are not performed (read the
        views); ``file`` names the text in messages. The GIL is released while the
        instructions execute.

        Raises :class:`gpsimd.InvalidInstruction` (with every failing clause) or
        :class:`gpsimd.Fault` (with its kind), both carrying the failing word's
        ``index`` (and ``source`` line for text); :class:`gpsimd.AssemblyError` or
        :class:`gpsimd.ProgramError` for text that does not assemble or set up. With
        ``atomic`` (the default) the machine is then exactly as it was before the call;
        without it, the words before the failing one stay retired. ``strict`` is the
        vendor-strict validation of SPEC §4.4; ``fast=False`` runs the scalar reference
        instead of the fast kernels (same bits). ``engine`` is the engine input of SPEC
        §3.9 for the instructions that take one (TensorTensor, TensorScalar, Copy, Cast,
        §4.14-§4.17): ``'dve'``, ``'pool'`` or ``'act'`` (any case, or NKI's ``'vector'``,
        ``'gpsimd'``, ``'scalar'``, or ``gpsimd.nki.isa.engine.vector``, ...); ``None`` runs
        each word on its opcode's default engine (POOL for Copy and Cast). The other
        instructions ignore it.

        ``trace``, a callable, is called with one dict per architectural event of the
        words that retired, in order, after they have run: every event has ``kind`` and
        ``index`` (the word's position in the program); ``'retire'`` adds
        ``instruction`` and ``word`` (64 bytes) and comes before its word's writes;
        ``'memory'`` adds ``space``, ``partition``, ``offset``, ``addr`` (their static
        ADDR4) and ``data`` (a uint8 array of the bytes written, as they are after the
        write); ``'accumulator'`` and
        ``'semaphore'`` add their number and ``before`` / ``after`` (uint32 bits);
        ``'match_lane'`` adds ``lane`` and ``before`` / ``after`` (dicts of the lane's
        ``match_values``, ``matched`` and ``match_indices``). An exception raised by
        the callable stops the trace and propagates; with ``atomic`` the machine is
        then as it was before the call.

        >>> import gpsimd
        >>> m = gpsimd.Machine()
        >>> m.run([gpsimd.encode("Sort", stable=2)])
        Traceback (most recent call last):
        ...
        gpsimd.errors.InvalidInstruction: word 0 (Sort) is invalid on v3:
          Sort: sort_dtypes_ok: ...
        """
        lines = None
        engine = _engine_name(engine)
        if isinstance(program, str):
            base = os.getcwd() if base_dir is None else os.fspath(base_dir)
            asm_error, result, lines, words = _core._run_text(
                self, program, file, base, strict, atomic, fast, trace, engine
            )
            if asm_error is not None:
                raise AssemblyError._from_report(asm_error)
            retired, failed, status, diagnostics, kind, detail, setup_error = result
            if setup_error is not None:
                raise ProgramError(setup_error)
            word = None if failed is None else words[failed]
        else:
            data = _program_bytes(program)
            retired, failed, status, diagnostics, kind, detail, _ = self._run(
                data, strict, atomic, fast, trace, None, engine
            )
            word = None if failed is None else data[64 * failed : 64 * failed + 64]
        if failed is None:
            return retired
        source = None if lines is None else f"{file}:{lines[failed]}"
        self._raise_failure(status, diagnostics, kind, detail, failed, word, source)

    def run_program(self, program: str | dict[str, Program], *, strict: bool = False,
                    fast: bool = True, detect_races: bool = True, file: str = "<input>",
                    base_dir: str | os.PathLike | None = None) -> ProgramRun:
        """Run a program on several engine queues (SPEC §8); return a :class:`ProgramRun`.

        ``program`` is a dict of queues, ``{"dve": words, "pool": words, "act": words}``
        (a missing key is an empty queue; each value takes what :meth:`run` takes but
        text: one word, a sequence of words, a uint8 array of words), or assembly text
        with ``.queue`` directives (docs/assembly.md; its setup directives are applied
        first, as :meth:`run` does). The machine's state is the program's initial state.
        Every word is validated on its queue's engine before anything runs; then waits
        block and the words issue by the reference schedule. The end state is the
        result, not an exception: ``invalid`` leaves the machine untouched, ``ok``,
        ``deadlock`` and ``fault`` leave the final state of SPEC §8.4 (for a fault, the
        words retired before it stay). ``detect_races=False`` skips the race detector.
        The GIL is released while the words run. Raises :class:`gpsimd.AssemblyError`
        and :class:`gpsimd.ProgramError` for a text that does not assemble or set up
        (the machine untouched), ``ValueError`` / ``TypeError`` for a bad dict.

        >>> import gpsimd
        >>> m = gpsimd.Machine("v3")
        >>> iota = gpsimd.assemble(
        ...     "Iota num_active_channels=1, out_dtype=FP32, channel_multiplier=0, "
        ...     "src_data_pattern=0 num=[16,1,1,1], "
        ...     "dst_mem_pattern=sbuf[p=0, off=0x100] num=[16,1,1,1]")
        >>> max8 = gpsimd.assemble(
        ...     "Max8 num_active_channels=1, in_dtype=FP32, out_dtype=FP32, "
        ...     "src_mem_pattern=sbuf[p=0, off=0x100] num=[16,1,1,1], "
        ...     "dst_mem_pattern=sbuf[p=0, off=0x200] num=[8,1]")
        >>> r = m.run_program({"pool": iota, "dve": max8})
        >>> r.status, r.schedule
        ('ok', ['dve:0', 'pool:0'])
        >>> r.race["first"], r.race["second"]["access"], r.race["location"]
        ({'queue': 'dve', 'index': 0, 'access': 'read'}, 'write', {'space': 'sbuf', 'partition': 0, 'offset': 256})
        """
        if isinstance(program, str):
            base = os.getcwd() if base_dir is None else os.fspath(base_dir)
            asm_error, setup_error, result = _core._run_queue_text(
                self, program, file, base, strict, fast, detect_races
            )
            if asm_error is not None:
                raise AssemblyError._from_report(asm_error)
            if setup_error is not None:
                raise ProgramError(setup_error)
            return ProgramRun(**result)
        if not isinstance(program, dict):
            raise TypeError(
                f"Machine.run_program: expected a dict of queues ({{'dve': words, 'pool': "
                f"words, 'act': words}}) or assembly text with .queue, got {type(program)}"
            )
        queues = [[] for _ in ENGINES]
        for key, words in program.items():
            if key not in ENGINES:
                expected = ", ".join(repr(e) for e in ENGINES[:-1]) + f" or {ENGINES[-1]!r}"
                raise ValueError(
                    f"Machine.run_program: unknown queue {key!r}: expected {expected} (SPEC §8.1)"
                )
            if isinstance(words, (bytes, bytearray, memoryview, np.ndarray, list, tuple)) and \
                    len(words) == 0:
                continue  # an empty queue
            if isinstance(words, str):
                raise TypeError(
                    f"Machine.run_program: queue {key!r}: words, not text (give the whole "
                    f"program as text with .queue directives)"
                )
            try:
                data = _program_bytes(words)
            except (TypeError, ValueError) as e:
                raise type(e)(f"Machine.run_program: queue {key!r}: {e}") from None
            queues[ENGINES.index(key)] = [data[i : i + 64] for i in range(0, len(data), 64)]
        return ProgramRun(**_core._run_queues(self, queues, strict, fast, detect_races))

    def _raise_failure(self, status, diagnostics, kind, detail, failed, word, source=None):
        if status == "invalid":
            raise InvalidInstruction(diagnostics, failed, word, self.generation, source)
        instr = next(
            (i["mnemonic"] for i in _core.instructions() if i["opcode"] == word[0]), None
        )
        raise Fault(kind, detail, failed, word, instr, source)

    def _run_words(self, words: Sequence[bytes], *, strict: bool = False, atomic: bool = True,
                   dirty: Any = None, engine: str | None = None) -> int:
        # Machine.run for a list of 64-byte words, marking writes in `dirty` (the
        # high-level functions' and gpsimd.nki's path: no conversions, no trace).
        data = b"".join(words)
        retired, failed, status, diagnostics, kind, detail, _ = self._run(
            data, strict, atomic, True, None, dirty, engine
        )
        if failed is None:
            return retired
        word = data[64 * failed : 64 * failed + 64]
        self._raise_failure(status, diagnostics, kind, detail, failed, word)

    def view(self, space: str, dtype: Any, partition: int | slice | range, offset: int = 0,
             count: int | None = None) -> np.ndarray:
        """Return a writable typed view of memory, sharing the machine's bytes.

        ``space`` is 'sbuf' or 'psum'; ``dtype`` a gpsimd dtype name or NumPy type (BF16
        and FP8 view as their bit patterns); ``partition`` an int (a 1-D view) or a
        slice/range of partitions (a 2-D view, one row per partition); ``offset`` a byte
        offset aligned to the element size; ``count`` elements per partition (default:
        to the end of the partition).

        >>> m = Machine()
        >>> v = m.view("psum", "FP32", slice(0, 4), 16, 2)
        >>> v[:] = 1.5
        >>> v.shape, m.psum[3, 16:20].tobytes().hex()
        ((4, 2), '0000c03f')
        """
        space_array = self.sbuf if str(space).lower() == "sbuf" else None
        if space_array is None:
            if str(space).lower() != "psum":
                raise ValueError(f"space {space!r}: must be 'sbuf' or 'psum'")
            space_array = self.psum
        dt = storage_dtype(dtype)
        size = dt.itemsize
        pbytes = space_array.shape[1]
        if offset < 0 or offset > pbytes or offset % size:
            raise ValueError(
                f"offset {offset}: must be in [0, {pbytes}] and a multiple of {size} (the "
                f"element size)"
            )
        if count is None:
            count = (pbytes - offset) // size
        if count < 0 or offset + count * size > pbytes:
            raise ValueError(
                f"{count} elements of {size} bytes at offset {offset} run past the "
                f"{pbytes}-byte partition"
            )
        if isinstance(partition, range):
            partition = slice(partition.start, partition.stop, partition.step)
        raw = space_array[partition, offset : offset + count * size]
        return raw.view(dt)

    def sbuf_view(self, dtype: Any, partition: int | slice | range, offset: int = 0,
                  count: int | None = None) -> np.ndarray:
        """Return ``view('sbuf', ...)``: a writable typed view of SBUF.

        >>> m = Machine()
        >>> m.sbuf_view("BF16", 5, 0, 2)[:] = [0x3F80, 0x4000]   # 1.0, 2.0 as BF16 bits
        >>> m.sbuf[5, :4].tobytes().hex()
        '803f0040'
        """
        return self.view("sbuf", dtype, partition, offset, count)

    def psum_view(self, dtype: Any, partition: int | slice | range, offset: int = 0,
                  count: int | None = None) -> np.ndarray:
        """Return ``view('psum', ...)``: a writable typed view of PSUM.

        >>> m = Machine()
        >>> m.psum_view(np.int32, range(2), 0, 1).shape
        (2, 1)
        """
        return self.view("psum", dtype, partition, offset, count)

    @property
    def accumulator_values(self) -> np.ndarray:
        """The 128 accumulators as a writable float32 view (of ``accumulators``).

        >>> Machine().accumulator_values[:3]
        array([-inf, -inf, -inf], dtype=float32)
        """
        return self.accumulators.view(np.float32)

    def copy(self) -> Machine:
        """Return an independent machine with the same state.

        >>> m = Machine("v2"); m.registers[1] = 7
        >>> c = m.copy(); c.registers[1] = 8
        >>> int(m.registers[1]), c == m, c.generation
        (7, False, 'v2')
        """
        other = type(self)(self.generation)
        other.load_state(self)
        return other

    def __copy__(self) -> Machine:
        return self.copy()

    def __deepcopy__(self, memo: Any) -> Machine:
        return self.copy()


# Machines compare by state and are mutable, so they are not hashable.
Machine.__hash__ = None


def _ranges(idx: np.ndarray, edge: int = 3) -> str:
    """Return sorted indices as runs 'a..b, c', elided to `edge` runs each side."""
    runs = []
    start = prev = None
    for i in (int(v) for v in idx):
        if start is None:
            start = prev = i
        elif i == prev + 1:
            prev = i
        else:
            runs.append((start, prev))
            start = prev = i
    if start is not None:
        runs.append((start, prev))
    text = [f"{a}" if a == b else f"{a}..{b}" for a, b in runs]
    if len(text) > 2 * edge:
        text = text[:edge] + ["..."] + text[-edge:]
    return ", ".join(text)


def _listing(items: list[str], edge: int = 3) -> str:
    if len(items) > 2 * edge:
        items = items[:edge] + [f"... ({len(items) - 2 * edge} more)"] + items[-edge:]
    return ", ".join(items)


def _summary(m: Machine, html: bool) -> list[str]:
    """The lines of a machine's repr: a title, then one (label, text) row per part, or
    just the title with ': fresh' when nothing differs from a fresh machine."""
    rows = []
    for name in ("sbuf", "psum"):
        mem = getattr(m, name)
        nz_rows = np.flatnonzero(mem.any(axis=1))
        head = f"{mem.shape[0]} x {mem.shape[1]} bytes: "
        if nz_rows.size == 0:
            rows.append((name, head + "zero", False))
            continue
        cols = np.flatnonzero(mem[nz_rows].any(axis=0))
        rows.append((name, head + f"nonzero in partitions {_ranges(nz_rows)}, bytes "
                     f"{cols[0]:#x}..{cols[-1]:#x}", True))
    for name, arr, fmt in (("registers", m.registers, "r{} = {:#010x}"),
                           ("semaphores", m.semaphores, "s{} = {:#010x}")):
        nz = np.flatnonzero(arr)
        rows.append((name, _listing([fmt.format(int(i), int(arr[i])) for i in nz]) or "zero",
                     nz.size > 0))
    acc = np.asarray(m.accumulators)
    odd = np.flatnonzero(acc != 0xFF800000)
    vals = acc.view(np.float32)
    rows.append(("accumulators",
                 ("-inf but " if odd.size else "-inf")
                 + _listing([f"p{i} = {float(vals[i])!r} ({int(acc[i]):#010x})" for i in odd]),
                 odd.size > 0))
    fresh = ((np.asarray(m.match_values) == 0).all(axis=1) & (np.asarray(m.matched) == 0)
             & (np.asarray(m.match_indices) == 0xFFFFFFFF).all(axis=1))
    lanes = np.flatnonzero(~fresh)
    rows.append(("search lanes", f"fresh but lanes {_ranges(lanes)}" if lanes.size else "fresh",
                 lanes.size > 0))
    title = f"gpsimd.Machine({m.generation!r})"
    if not any(changed for _, _, changed in rows):
        return [title + ": fresh"]
    if html:
        return [title] + [f"<tr><td>{label}</td><td>{text}</td></tr>" for label, text, _ in rows]
    return [title] + [f"  {label:<13} {text}" for label, text, _ in rows]
