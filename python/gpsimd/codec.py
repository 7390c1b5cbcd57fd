"""Instruction words: encode, decode, validate, assemble and disassemble.

A word is 64 bytes (``bytes``). Functions that take a word also accept a ``bytearray``,
a ``memoryview``, a NumPy ``uint8`` array of 64 elements or a string of 128 hex digits.
Field names, enumeration names and clause names are exactly those of SPEC.md.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, Union

import numpy as np

from . import _core
from .errors import AssemblyError

__all__ = [
    "Diagnostic",
    "encode",
    "decode",
    "validate",
    "order_rule",
    "instructions",
    "address",
    "describe_address",
    "word_bytes",
    "assemble",
    "disassemble",
]

#: One failing validity clause (attributes ``instruction``, ``clause``, ``field``,
#: ``value``, ``allowed``, ``message``; ``as_dict()``).
Diagnostic = _core.Diagnostic

#: A word: 64 bytes (bytes, bytearray, memoryview), a uint8 array of 64, or 128 hex digits.
WordLike = Union[bytes, bytearray, memoryview, np.ndarray, str]


def word_bytes(word: WordLike) -> bytes:
    """Return the 64 bytes of a word given as bytes-like, NumPy uint8 array or hex text.

    >>> word_bytes("96" + "10" + "00" * 62)[:2]
    b'\\x96\\x10'
    """
    if isinstance(word, str):
        try:
            b = bytes.fromhex(word)
        except ValueError as e:
            raise ValueError(f"word: not hex text ({e})") from None
    elif isinstance(word, np.ndarray):
        if word.dtype != np.uint8:
            raise TypeError(f"word: a NumPy word must be uint8, got {word.dtype}")
        b = word.tobytes()
    elif isinstance(word, (bytes, bytearray, memoryview)):
        b = bytes(word)
    else:
        raise TypeError(f"word: expected 64 bytes, a uint8 array or hex text, got {type(word)}")
    if len(b) != 64:
        raise ValueError(f"word: an instruction word is 64 bytes, got {len(b)}")
    return b


def encode(instruction: str | int | None = None, **fields: Any) -> bytes:
    """Return the 64-byte word of an instruction built from its fields.

    ``instruction`` is a mnemonic (any case) or an opcode. Fields are named as in SPEC §4;
    fields not given are zero, except the header (opcode, length 0x10). Values:

    - enumerations (DTYPE, ALU_OP, ACCUM_CMD, IMM_SRC, AFFINE_SELECT_CMP,
      TENS_SCALAR_REV_OPS): a name such as ``"FP32"``, ``"IS_LT"``, ``"GE"``, ``"FIRST"``,
      or the number;
    - ``channel_multiplier`` (int32): a signed integer (or the 32 bits, unsigned);
    - ``in_out_dtype`` (DTYPE_PAIR): ``("FP32", "BF16")``, ``{"in": ..., "out": ...}`` or
      the raw byte;
    - FP32 fields (``base``, ``fill_val``): a number (rounded to FP32) or a
      ``numpy.float32`` (its exact bits);
    - immediates (``bound0``, ``src1_imm``, ``index_offset``, ...): the raw 32-bit
      value, a float (stored as its FP32 bits) or a pointer
      ``{"space": "sbuf", "partition": p, "offset": o}``;
    - tensors (``*_mem_pattern``): ``{"space", "partition", "offset"}`` or ``{"addr"}``
      or ``{"register": r}``, plus ``"num"`` (up to the tensor's dimensions; missing
      ones are 1) and ``"step"`` (in elements; dense when omitted);
    - ramps (DATA4D: ``mask_pattern``, ``src_data_pattern``): ``{"base", "num", "step"}``,
      ``base`` an int32, ``num`` and ``step`` as for a tensor (innermost first);
    - ``events``: ``{"wait_mode", "wait_idx", "update_mode", "update_idx", "value"}``;
    - reserved fields: bytes.

    ``encode(**decode(word)) == word`` for every word of a known opcode.

    >>> w = encode("Sort", num_active_channels=1, in_out_dtype=("FP32", "FP32"),
    ...            comparison="IS_LT", stable=1,
    ...            src_mem_pattern={"space": "sbuf", "partition": 0, "offset": 0, "num": [6]},
    ...            dst_mem_pattern={"space": "sbuf", "partition": 0, "offset": 64, "num": [2, 6]})
    >>> len(w), hex(w[0]), validate(w, "v3")
    (64, '0x96', [])
    """
    if instruction is None:
        raise TypeError("encode: name the instruction, e.g. encode('Sort', ...)")
    return _core.encode(instruction, fields)


def decode(word: WordLike) -> dict[str, Any]:
    """Return a word's fields as a dict: ``"instruction"`` and every field by SPEC name.

    Enumerations come back as names (numbers when unknown), FP32 fields as
    ``numpy.float32`` (exact bits), tensors as dicts with ``addr`` plus the decoded
    location, DATA4D ramps as dicts with ``base``, ``step`` and ``num``. Raises ValueError (``has_known_opcode``) for an unknown opcode.

    >>> f = decode(encode("RangeSelect", comp_op0="IS_GE", base=16.0))
    >>> f["instruction"], f["comp_op0"], f["base"], f["in_out_dtype"]
    ('RangeSelect', 'IS_GE', 16.0, {'in': 'INVALID', 'out': 'INVALID'})
    >>> f["src_mem_pattern"]
    {'addr': 0, 'space': 'sbuf', 'partition': 0, 'offset': 0, 'step': [0, 0], 'num': [0, 0]}
    """
    return _core.decode(word_bytes(word))


def _engine_name(engine: Any) -> Any:
    """Return an NKI engine enum (``gpsimd.nki.isa.engine.vector``, ...) as its name
    (``engine.unknown``, NKI's "not chosen", as None); anything else as it is, for the
    extension's engine parser."""
    if isinstance(engine, Enum):
        return None if engine.name == "unknown" else engine.name
    return engine


def validate(word: WordLike, generation: str | int, strict: bool = False,
             engine: Any = None) -> list[Diagnostic]:
    """Return every failing validity clause of a word on a generation (empty if valid).

    ``strict`` adds the vendor validator's rejection of Sort top-K (SPEC §4.4).
    ``engine`` is the engine the word is validated for (SPEC §3.9: ``'dve'``, ``'pool'``
    or ``'act'``, any case, or NKI's ``'vector'``, ``'gpsimd'``, ``'scalar'``, or
    ``gpsimd.nki.isa.engine.vector``, ...; ``None``: the opcode's default); only the
    instructions that take an engine input use it (TensorTensor, TensorScalar, Copy, Cast:
    POOL may not touch PSUM).

    >>> for d in validate(encode("RangeSelect", num_active_channels=1), "v3"):
    ...     if d.clause == "is_valid_fill_val":
    ...         print(d.message)
    RangeSelect: is_valid_fill_val: fill_val = 0x00000000, must be 0xff7fffff (-FLT_MAX)
    """
    return _core.validate(word_bytes(word), generation, strict, _engine_name(engine))


def order_rule(word: WordLike) -> str | None:
    """Return the name of the [model] order rule a word's result rests on, or None when
    its result is the same in every order (SPEC §7 "model_rules"): ``"reduce-order"`` for a
    TensorReduceArith sum, difference or product of groups of two or more,
    ``"accumulate-order"`` for a ScalarTensorTensorArith that accumulates,
    ``"cumulative-order"`` for a running TensorScalarCacheCumulative ADD, SUBTRACT or MULT.
    The hardware's order is not public; gpsimd folds left to right in walk order, one FP32
    rounding per step, so such a result can differ from hardware's in its last bits.

    >>> w = assemble("TensorReduceArith num_active_channels=1, in_dtype=FP32, "
    ...              "out_dtype=FP32, op=ADD, op_dim=2, "
    ...              "src_mem_pattern=sbuf[p=0, off=0x0] num=[8,1,1,1], "
    ...              "dst_mem_pattern=sbuf[p=0, off=0x40] num=[1,1,1,1]")[0]
    >>> order_rule(w)
    'reduce-order'
    >>> order_rule(encode(**{**decode(w), "op": "MAX"})) is None
    True
    """
    return _core.order_rule(word_bytes(word))


def instructions() -> list[dict[str, Any]]:
    """Return the instruction table: one dict per instruction, with its field rows.

    >>> [(i["mnemonic"], hex(i["opcode"])) for i in instructions()][:6]
    [('RangeSelect', '0xbc'), ('TensorScalarSelect', '0x98'),
     ('GetSequenceBounds', '0xbe'), ('Sort', '0x96'), ('AffineSelect', '0x92'),
     ('Iota', '0x7e')]
    """
    return _core.instructions()


def address(space: str, partition: int, offset: int) -> int:
    """Return the static ADDR4 of a location (SPEC §3.4).

    >>> hex(address("sbuf", 2, 64)), hex(address("psum", 1, 8))
    ('0x80040', '0x2008008')
    """
    return _core.address(space, partition, offset)


def describe_address(addr: int) -> dict[str, Any]:
    """Return what an ADDR4 names: its space, partition and offset, or its register.

    >>> describe_address(0x80040)
    {'addr': 524352, 'space': 'sbuf', 'partition': 2, 'offset': 64}
    >>> describe_address(0x80000005)
    {'addr': 2147483653, 'register': 5}
    """
    return _core.describe_address(addr)


def assemble(text: str, file: str = "<input>") -> list[bytes]:
    """Return the words of assembly text (docs/assembly.md), as a list of bytes.

    A statement of 128 hex digits (with or without 0x, spaces between bytes allowed) is
    the word they spell, as ``.word 0x...`` is. Raises :class:`gpsimd.AssemblyError`
    with every error of the text (``errors``), each naming the file, line and column.

    >>> words = assemble(disassemble(encode("Sort", stable=1)))
    >>> words == [encode("Sort", stable=1)]
    True
    """
    words, errors = _core.assemble(text, file)
    if errors is not None:
        raise AssemblyError._from_report(errors)
    return words


def disassemble(word: WordLike) -> str:
    """Return the text of a word as ``gpsimd dis`` prints it, on one line: the canonical
    assembly text of a known opcode, else ``.word 0x...  # unknown opcode 0xNN``.

    ``assemble(disassemble(w)) == [w]`` for every word, invalid ones included.

    >>> disassemble(encode("Sort", stable=1)).split()[0]
    'Sort'
    >>> text = disassemble(b"\\xff" * 64)
    >>> text.startswith(".word 0x" + "ff" * 64), text.endswith("  # unknown opcode 0xff")
    (True, True)
    """
    return _core.disassemble(word_bytes(word))
