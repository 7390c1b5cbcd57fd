"""A recorded program: the machine's initial state, the instruction words run on it in
order, and where the results are, for replaying the words on one fresh machine.

Two things record programs: a high-level function called with ``return_words=True``
(its :class:`Words` carry the recording) and a :class:`gpsimd.nki.Program`. Data that
NumPy hands in (a function's inputs, NKI's ``dma_copy`` from HBM) is not an instruction
of the model, so it is the program's *initial state*: ``.data`` / ``.load`` directives
of the program text, applied before the first word (docs/assembly.md).
"""

from __future__ import annotations

import os
import pathlib
from dataclasses import dataclass, field
from typing import Any, Iterable

import numpy as np

from . import _core
from .codec import disassemble
from .dtypes import storage_dtype

__all__ = ["Load", "Dump", "Recording", "Words"]


@dataclass
class Load:
    """Bytes of the initial state: ``data[i]`` goes to partition ``first + i`` at
    ``offset`` of ``space`` (``data`` is a uint8 array [partitions, bytes])."""

    space: str
    first: int
    offset: int
    data: np.ndarray
    name: str = ""

    def region(self) -> str:
        last = self.first + self.data.shape[0] - 1
        parts = f"p={self.first}" if last == self.first else f"p={self.first}..{last}"
        return f"{self.space}[{parts}, off={self.offset:#x}]"


@dataclass
class Dump:
    """A result in memory: ``count`` elements of ``dtype`` per partition, ``step``
    elements apart, in partitions ``first .. first + rows - 1`` from ``offset``; or, with
    ``space == "acc"``, the accumulators of those partitions, or with ``space ==
    "match"`` their search lanes."""

    name: str
    space: str
    first: int
    rows: int
    offset: int = 0
    dtype: str = "UINT8"
    count: int = 0
    step: int = 1
    # Where it goes in a result of the recording (Recording.shapes): (result, index).
    into: tuple | None = None

    def region(self) -> str:
        last = self.first + self.rows - 1
        parts = f"p={self.first}" if last == self.first else f"p={self.first}..{last}"
        if self.space in ("acc", "match"):
            return f"{self.space}[{parts}]"
        return f"{self.space}[{parts}, off={self.offset:#x}]"

    def directive(self, path: str | None) -> str:
        text = f".dump {self.region()}"
        if self.space not in ("acc", "match"):
            text += f" {self.dtype} [{self.count}]"
            if self.step != 1:
                text += f" step={self.step}"
        return text + (f" -> {path}" if path else "")

    def read(self, machine: Any) -> np.ndarray:
        """Return what ``gpsimd run`` writes for this dump, read from a machine."""
        rows = slice(self.first, self.first + self.rows)
        if self.space == "acc":
            return np.array(machine.accumulators[rows]).view(np.float32)
        if self.space == "match":
            m = machine
            return np.concatenate([np.array(m.match_values[rows]),
                                   np.array(m.matched[rows], dtype=np.uint32)[:, None],
                                   np.array(m.match_indices[rows])], axis=1)
        dt = storage_dtype(self.dtype)
        space = machine.sbuf if self.space == "sbuf" else machine.psum
        nbytes = ((self.count - 1) * self.step + 1) * dt.itemsize if self.count else 0
        raw = np.array(space[rows, self.offset : self.offset + nbytes])
        return raw.view(dt)[:, :: self.step].copy()


def _default_engine(word: bytes) -> str | None:
    """Return the default engine ('dve', 'pool', 'act') of a word's opcode (SPEC §3.9),
    None for an unknown opcode."""
    for row in _core.instructions():
        if row["opcode"] == word[0]:
            return row["engine"].lower()
    return None


def _values_text(data: np.ndarray, offset: int) -> tuple[str, str]:
    """Return (dtype, rows text) of bytes for a ``.data`` directive: 0x bit patterns of
    the widest unsigned type the offset and length allow."""
    n = data.shape[1]
    for width, name in ((4, "UINT32"), (2, "UINT16"), (1, "UINT8")):
        if offset % width == 0 and n % width == 0:
            break
    vals = np.ascontiguousarray(data).view(f"<u{width}")
    digits = 2 * width
    rows = ", ".join("[" + ", ".join(f"0x{int(v):0{digits}x}" for v in row) + "]"
                     for row in vals)
    return name, rows


@dataclass
class Recording:
    """The parts of a program: the initial state (``loads``, ``registers``,
    ``accumulators``), the words in order (with a note each: the call that made it),
    and the results in memory (``dumps``)."""

    generation: str
    title: str = ""
    loads: list[Load] = field(default_factory=list)
    registers: dict[int, int] = field(default_factory=dict)
    accumulators: dict[int, int] = field(default_factory=dict)
    words: list[bytes] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # The engine input (SPEC §3.9) each word runs with: None (its instruction's default),
    # 'dve', 'pool' or 'act'.
    engines: list[str | None] = field(default_factory=list)
    dumps: list[Dump] = field(default_factory=list)
    # The results the dumps make up: name -> (shape, NumPy dtype).
    shapes: dict[str, tuple] = field(default_factory=dict)

    def add_words(self, words: Iterable[bytes], note: str = "", engine: str | None = None) -> None:
        for w in words:
            self.words.append(bytes(w))
            self.notes.append(note)
            self.engines.append(engine)
            note = ""  # the note goes with the first word of a call

    def text(self, words: Iterable[bytes] | None = None, load_names: dict[int, str] | None = None,
             dump_names: dict[int, str] | None = None, inline_limit: int | None = None) -> str:
        """Return the program as assembly text for ``gpsimd run``: ``.nc``, the initial
        state (``.reg``, ``.acc``, then ``.load`` of the files named in ``load_names``
        by load index, ``.data`` for the others), the words (disassembled, each call's
        note as a comment) and a ``.dump`` per result. With ``inline_limit``, data of
        more bytes than that are only named in a comment (for reading; ``save`` writes
        them as files)."""
        lines = [f"# {self.title}" if self.title else "# a program recorded by gpsimd",
                 f".nc {self.generation}"]
        for r in sorted(self.registers):
            lines.append(f".reg {r} = {self.registers[r]:#010x}")
        for p in sorted(self.accumulators):
            lines.append(f".acc {p} = {self.accumulators[p]:#010x}")
        load_names = load_names or {}
        for i, ld in enumerate(self.loads):
            if i in load_names:
                lines.append(f".load {ld.region()} <- {load_names[i]}")
            elif inline_limit is not None and ld.data.size > inline_limit:
                rows, n = ld.data.shape
                lines.append(f"# .load {ld.region()} <- {rows} x {n} bytes of "
                             f"{ld.name or 'data'} (save() writes them to a .npy file)")
            else:
                dtype, rows = _values_text(ld.data, ld.offset)
                lines.append(f".data {ld.region()} {dtype} = [{rows}]")
        words = self.words if words is None else [bytes(w) for w in words]
        own = words == self.words  # the notes and engines belong to these words
        current = None  # the engine the last .engine named (None: none yet)
        for i, w in enumerate(words):
            if own and self.notes[i]:
                lines.append(f"# {self.notes[i]}")
            engine = self.engines[i] if own else None
            if engine is None and current is not None:
                engine = _default_engine(w)  # .engine has no "default": name the opcode's
            if engine is not None and engine != current:
                lines.append(f".engine {engine}")
                current = engine
            lines.append(disassemble(w))
        dump_names = dump_names or {}
        for i, d in enumerate(self.dumps):
            lines.append(d.directive(dump_names.get(i)))
        return "\n".join(lines) + "\n"

    def save(self, path: str | os.PathLike, words: Iterable[bytes] | None = None) -> pathlib.Path:
        """Write the program text to ``path`` and its initial memory as ``.npy`` files
        next to it (``<stem>.in<i>.npy``, read by ``.load``); its ``.dump`` directives
        write ``<stem>.<name>.npy`` (relative to ``gpsimd run --out-dir``). Returns the
        path."""
        path = pathlib.Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        stem = path.stem
        load_names = {}
        for i, ld in enumerate(self.loads):
            name = f"{stem}.in{i}.npy"
            np.save(path.parent / name, np.ascontiguousarray(ld.data, dtype=np.uint8))
            load_names[i] = name
        dump_names = {i: self.dump_file(stem, i) for i in range(len(self.dumps))}
        path.write_text(self.text(words, load_names, dump_names))
        return path

    def dump_file(self, stem: str, i: int) -> str:
        """Return the file ``save`` names for dump ``i``: ``<stem>.<name>.npy``, with the
        dump's index added when several dumps share a name (one a block of rows)."""
        name = self.dumps[i].name or f"out{i}"
        shared = sum(d.name == self.dumps[i].name for d in self.dumps) > 1
        return f"{stem}.{name}.{i}.npy" if shared else f"{stem}.{name}.npy"

    def fresh_machine(self) -> Any:
        """Return a new machine with this program's initial state applied."""
        from .machine import Machine

        m = Machine(self.generation)
        for ld in self.loads:
            space = m.sbuf if ld.space == "sbuf" else m.psum
            rows, n = ld.data.shape
            space[ld.first : ld.first + rows, ld.offset : ld.offset + n] = ld.data
        for r, v in self.registers.items():
            m.registers[r] = v
        for p, v in self.accumulators.items():
            m.accumulators[p] = v
        return m

    def replay(self, words: Iterable[bytes] | None = None, **run_options: Any) -> Any:
        """Run the words in order on one fresh machine with the initial state applied;
        return the machine (``Machine.run``'s options apply; ``engine`` defaults to the
        recording's)."""
        m = self.fresh_machine()
        words = self.words if words is None else [bytes(w) for w in words]
        own = words == self.words  # the engines belong to these words
        engines = self.engines if own else [None] * len(words)
        if "engine" in run_options:  # one engine for every word
            engines = [run_options.pop("engine")] * len(words)
        # Consecutive words of one engine run as one Machine.run; a trace's indices stay
        # the words' positions in the whole program.
        trace = run_options.pop("trace", None)
        i = 0
        while i < len(words):
            j = i
            while j < len(words) and engines[j] == engines[i]:
                j += 1
            first = i
            shifted = None if trace is None else (
                lambda e, first=first: trace({**e, "index": e["index"] + first}))
            m.run(list(words[i:j]), engine=engines[i], trace=shifted, **run_options)
            i = j
        return m

    def results(self, machine: Any) -> dict[str, np.ndarray]:
        """Return the results read from a machine, by name: each result of ``shapes``
        put together from its dumps, and every other dump as it reads."""
        out = {name: np.zeros(shape, dtype) for name, (shape, dtype) in self.shapes.items()}
        for d in self.dumps:
            data = d.read(machine)
            if d.into is not None and d.into[0] in out:
                name, index = d.into
                target = out[name]
                target[index] = data.reshape(target[index].shape)
            else:
                out[d.name] = data
        return out


class Words(np.ndarray):
    """The instruction words of a call or program: a uint8 array ``(n, 64)``, one word a
    row, that also knows the program they belong to — the initial state they read and
    where the results are — so that they can be replayed on one fresh machine.

    - ``assembly()``: the program as text for ``gpsimd run`` (inputs as ``.data``);
    - ``save(path)``: the text, with the inputs as ``.npy`` files for ``.load``;
    - ``replay()``: a fresh machine after the words ran on the inputs;
    - ``results(machine)``: the results read from a machine, by name;
    - ``recording``: the :class:`Recording` (``loads``, ``registers``, ``dumps``, ...).

    >>> import numpy as np, gpsimd
    >>> (v, i), words = gpsimd.sort(np.array([3, 1, 2], np.float32), return_words=True)
    >>> words.shape, words.dtype
    ((1, 64), dtype('uint8'))
    >>> m = words.replay()
    >>> words.results(m)["indices"].tolist()
    [[1, 2, 0]]
    """

    recording: Recording | None

    def __new__(cls, words: Iterable[bytes], recording: Recording | None = None) -> "Words":
        data = b"".join(bytes(w) for w in words)
        arr = np.frombuffer(data, dtype=np.uint8).reshape(-1, 64).copy().view(cls)
        arr.recording = recording
        return arr

    def __array_finalize__(self, obj: Any) -> None:
        self.recording = getattr(obj, "recording", None)

    def _rec(self) -> Recording:
        if self.recording is None:
            raise ValueError("these words carry no recording of their program")
        return self.recording

    def _rows(self) -> list[bytes]:
        a = np.asarray(self).reshape(-1, 64)
        return [a[i].tobytes() for i in range(a.shape[0])]

    def assembly(self) -> str:
        """Return the program text: initial state as ``.data``, the words, ``.dump``s."""
        return self._rec().text(self._rows())

    def save(self, path: str | os.PathLike) -> pathlib.Path:
        """Write the program for ``gpsimd run`` (see :meth:`Recording.save`)."""
        return self._rec().save(path, self._rows())

    def replay(self, **run_options: Any) -> Any:
        """Return a fresh machine after these words ran in order on the inputs."""
        return self._rec().replay(self._rows(), **run_options)

    def results(self, machine: Any) -> dict[str, np.ndarray]:
        """Return the results (the ``.dump`` regions) read from a machine, by name."""
        return self._rec().results(machine)


def words_of(recording: Recording) -> Words:
    """Return a recording's words as :class:`Words`."""
    return Words(recording.words, recording)


# The extension's dirty-range tracker, re-exported for the scratch machines of _api.
DirtyRanges = _core.DirtyRanges
