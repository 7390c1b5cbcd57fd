"""The exceptions gpsimd raises.

Every one derives from :class:`GpsimdError`. An invalid instruction is also a
``ValueError`` and a fault also a ``RuntimeError``, so generic handlers catch them too.
"""

__all__ = ["GpsimdError", "InvalidInstruction", "Fault", "AssemblyError", "ProgramError",
           "NkiValidationError"]


def _where(index, name, source):
    if index is None:
        return name
    return f"word {index} ({name}{', ' + source if source else ''})"


def _argument(field, arguments):
    """Return the argument a diagnostic's field comes from: the field's own entry, else
    that of the field it is part of (``bound0`` of ``bound0.partition``, ``in0_in1_dtype``
    of ``in0_in1_dtype (src0, low nibble)``); None when the call has none."""
    if field in arguments:
        return arguments[field]
    return arguments.get(field.split(".")[0].split(" (")[0])


def _argued(diagnostics, arguments):
    """Return (the argument of the first clause that names one, the reason): every
    failing clause of a word, each with the call's argument its field comes from."""
    parts = []
    first = None
    for d in diagnostics:
        arg = _argument(d.field, arguments)
        if first is None and arg is not None:
            first = arg
        where = (arg if arg == d.field else f"{arg} ({d.field})") if arg else f"({d.field})"
        parts.append(f"{where}: {d.clause}: {d.message.split(': ', 2)[-1]}")
    name = diagnostics[0].instruction if diagnostics else "?"
    return first, f"the {name} word is invalid: " + "; ".join(parts)


class GpsimdError(Exception):
    """The base of every gpsimd exception.

    >>> issubclass(InvalidInstruction, GpsimdError) and issubclass(Fault, GpsimdError)
    True
    """


class InvalidInstruction(GpsimdError, ValueError):
    """A word failed validation (SPEC §6); the machine is unchanged.

    Attributes: ``diagnostics`` (every failing clause, as :class:`gpsimd.Diagnostic`),
    ``clauses`` (their clause names), ``index`` (the word's position in the program),
    ``word`` (its 64 bytes) and ``source`` ("file:line" for assembly text, else None).
    The message names every clause. A word a function built (``gpsimd.sort``, ...) is
    reported as a call's: ``call`` (``'sort'``) and ``argument`` (the argument the first
    clause's field comes from), each clause naming its argument; both are None for the
    words of a program.

    >>> import gpsimd
    >>> m = gpsimd.Machine("v3")
    >>> try:
    ...     m.run(gpsimd.encode("Sort", stable=7))
    ... except gpsimd.InvalidInstruction as e:
    ...     print("sort_valid_stable" in e.clauses, e.index)
    True 0
    """

    def __init__(self, diagnostics, index=None, word=None, generation=None, source=None,
                 call=None, arguments=None):
        self.diagnostics = list(diagnostics)
        self.index = index
        self.word = word
        self.generation = generation
        self.source = source
        self.call = call
        self.argument = None
        if call is not None:
            self.argument, reason = _argued(self.diagnostics, arguments or {})
            super().__init__(f"{call}: {self.argument + ': ' if self.argument else ''}{reason}")
            return
        name = self.diagnostics[0].instruction if self.diagnostics else "?"
        if name == "unknown" and word is not None:  # as gpsimd check names it
            name = f"opcode {bytes(word)[0]:#04x}"
        where = _where(index, name, source)
        on = f" on {generation}" if generation else ""
        lines = "\n  ".join(d.message for d in self.diagnostics)
        super().__init__(f"{where} is invalid{on}:\n  {lines}")

    @property
    def clauses(self):
        """The names of the failing clauses, in report order."""
        return [d.clause for d in self.diagnostics]


class Fault(GpsimdError, RuntimeError):
    """A valid word faulted at execution (SPEC §6); the machine is unchanged.

    Attributes: ``kind`` (``'bad-address'``, ``'shape-mismatch'``,
    ``'sync-would-block'``, ``'too-large'`` or ``'unsupported-op'``), ``detail``,
    ``index``, ``word`` and
    ``source`` ("file:line" for assembly text, else None).

    >>> import gpsimd
    >>> m = gpsimd.Machine("v3")
    >>> word = gpsimd.encode("Sort", num_active_channels=1, in_out_dtype=("FP32", "FP32"),
    ...                      comparison="IS_LT",
    ...                      events={"wait_mode": "GE", "wait_idx": 3, "value": 1},
    ...                      src_mem_pattern={"offset": 0, "num": [4]},
    ...                      dst_mem_pattern={"offset": 64, "num": [2, 4]})
    >>> try:
    ...     m.run(word)
    ... except gpsimd.Fault as e:
    ...     print(e.kind, e.index)
    sync-would-block 0
    """

    def __init__(self, kind, detail, index=None, word=None, instruction=None, source=None):
        self.kind = kind
        self.detail = detail
        self.index = index
        self.word = word
        self.source = source
        where = _where(index, instruction or "?", source)
        super().__init__(f"{where} faults {kind}: {detail}")


class AssemblyError(GpsimdError, ValueError):
    """Assembly text could not be assembled.

    The assembler reports every error of a text, like a compiler (each statement's first
    error; at most 20, then it stops). Attributes: ``errors`` (every error in source
    order, each an :class:`AssemblyError` of its own), ``truncated`` (True when it
    stopped after 20), and the first error's ``file``, ``line``, ``column`` (1-based),
    ``token`` and ``reason``. The message holds every error as ``gpsimd`` prints them:
    ``file:line:column: error: reason (at 'token')``, the source line and a caret under
    the token.

    >>> import gpsimd
    >>> try:
    ...     gpsimd.assemble("Maxx8 num_active_channels=1\\nSort stabel=1\\n", "k.s")
    ... except gpsimd.AssemblyError as e:
    ...     print(len(e.errors), e.errors[1].line, e.errors[1].token)
    ...     print(e.errors[0])
    2 2 stabel
    k.s:1:1: error: unknown instruction: did you mean Max8? (expected RangeSelect, ...) (at 'Maxx8')
      1 | Maxx8 num_active_channels=1
        | ^~~~~
    >>> e = AssemblyError("k.s", 3, 7, "FOO", "expected a mnemonic", "k.s:3:7: error: ...")
    >>> (e.file, e.line, e.column, e.token, len(e.errors))
    ('k.s', 3, 7, 'FOO', 1)
    """

    def __init__(self, file, line, column, token, reason, text, errors=None, truncated=False):
        self.file = file
        self.line = line
        self.column = column
        self.token = token
        self.reason = reason
        self.errors = [self] if errors is None else list(errors)
        self.truncated = bool(truncated)
        super().__init__(text)

    @classmethod
    def _from_report(cls, report):
        """Return the exception of the extension's report: (error tuples, truncated,
        the whole text)."""
        items, truncated, text = report
        errors = [cls(f, line, col, tok, reason, shown.rstrip("\n"))
                  for f, line, col, tok, reason, _one_line, shown in items]
        first = items[0]
        return cls(*first[:5], text.rstrip("\n"), errors=errors, truncated=truncated)


class ProgramError(GpsimdError, ValueError):
    """A program text's setup cannot be applied: a ``.nc`` that is not the machine's
    generation, a ``.data`` or ``.load`` region outside a partition, a missing file.
    The machine is unchanged; the message names the file, line and directive.

    >>> import gpsimd
    >>> try:
    ...     gpsimd.Machine("v3").run(".nc v5", file="k.s")
    ... except gpsimd.ProgramError as e:
    ...     print(e)
    k.s: the program is for v5 (.nc), the machine is v3
    """


class NkiValidationError(InvalidInstruction):
    """A :mod:`gpsimd.nki` call broke a rule: NKI's ``nki.isa.NkiValidationError``.

    Attributes: ``call`` (e.g. ``'nisa.max8'``), ``argument`` (the NKI argument, e.g.
    ``'src'``, or None), ``clauses`` and ``diagnostics`` (the vendor clauses gpsimd's
    validation reports, empty when the call was refused before building a word) and
    ``reason``. Nothing ran: the machine and the program are unchanged. It is also a
    :class:`InvalidInstruction` (and a ``ValueError``).

    >>> import gpsimd.nki.isa as nisa, gpsimd.nki.language as nl, gpsimd.nki as nki
    >>> with nki.Program():
    ...     t = nl.ndarray((1, 4), dtype=nl.float32)
    ...     d = nl.ndarray((1, 8), dtype=nl.float32)
    ...     try:
    ...         nisa.max8(dst=d, src=t)
    ...     except nisa.NkiValidationError as e:
    ...         print(e.call, e.argument, e.clauses)
    nisa.max8 src ['s4d2_bn_src_element_cnt']
    """

    def __init__(self, call, argument, reason, diagnostics=()):
        self.call = call
        self.argument = argument
        self.reason = reason
        self.diagnostics = list(diagnostics)
        self.index = None
        self.word = None
        self.generation = None
        self.source = None
        ValueError.__init__(self, f"{call}: {argument + ': ' if argument else ''}{reason}")

    @classmethod
    def _of_word(cls, call, diagnostics, arguments):
        """Return the error of a word of the call that failed validation: every clause
        with the NKI argument its field comes from (``arguments``: field -> argument)."""
        argument, reason = _argued(diagnostics, arguments)
        return cls(call, argument, reason, diagnostics)
