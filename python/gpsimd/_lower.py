"""One lowering per instruction family: operands in, the instruction word(s) out.

Each function here takes an instruction's operands — tensor descriptors and pointers
(:func:`gpsimd.encode`'s dicts), dtype names, resolved ops, numbers — picks the opcode or
form (TensorTensorArith or TensorTensorBitvec, the pointer forms of TensorScalar, Copy
or Cast, an immediate or a pointer) and fills the fields by name. The NumPy face
(:mod:`gpsimd.alu`, :mod:`gpsimd.ops`, :mod:`gpsimd.search`, :mod:`gpsimd.predicates`)
and the NKI face (:mod:`gpsimd.nki.isa`) are adapters over these: they place the data
and make the descriptors, and this module makes the words.

Nothing here checks what the C++ validation checks (SPEC §6). Instead every word is a
:class:`Word`, which knows the argument of the call each of its fields comes from (the
family's table below, in NKI's argument names, renamed by ``names`` where a face's
argument is called otherwise, by the table's name or by field): a failing clause then
surfaces naming the caller's argument, its value and what is allowed
(:class:`gpsimd.InvalidInstruction`, :class:`gpsimd.NkiValidationError`).

>>> w = tensor_tensor(op="ADD", in_dtypes=("FP32", "FP32"), out_dtype="FP32", channels=1,
...                   data1={"offset": 0, "num": [4]}, data2={"offset": 64, "num": [4]},
...                   dst={"offset": 128, "num": [4]})
>>> w[0], w.arguments["src1_mem_pattern"]
(65, 'data2')
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._operands import NEG_FLT_MAX, is_bitvec_only
from .codec import encode
from .dtypes import dtype_size

__all__ = ["Word", "reversed_walk", "tensor_tensor", "tensor_scalar", "tensor_scalar_bitvec",
           "copy", "range_select", "read_accumulator", "affine_select", "iota", "max8",
           "match_value_load", "find_index8", "match_replace8", "nonzero_with_count",
           "copy_predicated_scalar", "sequence_bounds", "sort", "tensor_scalar_select",
           "memset", "tensor_reduce", "copy_predicated", "copy_predicated_reversed",
           "tensor_scalar_cumulative", "tensor_tensor_scan", "scalar_tensor_tensor",
           "select_reduce"]


class Word(bytes):
    """An instruction word: its 64 bytes, and ``arguments``, which maps each field to the
    argument of the call it comes from (a failing clause names that argument)."""

    arguments: dict[str, str]


def _word(mnemonic: str, arguments: dict[str, str], names: dict[str, str] | None,
          **fields: Any) -> Word:
    """Return the word of these fields, its ``arguments`` the family's table with the
    caller's ``names``: by the table's argument (``{"dst": "dtype"}``) or, where one
    argument of the table is two of the caller's, by field."""
    names = names or {}
    word = Word(encode(mnemonic, **fields))
    word.arguments = {f: names.get(f, names.get(a, a)) for f, a in arguments.items()}
    return word


def _source(value: Any) -> str:
    """The ``*_src`` of an operand: a pointer (a dict) or an instruction immediate."""
    return "POINTER_IMMEDIATE" if isinstance(value, dict) else "INSTRUCTION_IMMEDIATE"


def _int32_bits(value: Any) -> Any:
    """A 32-bit operand: a pointer (a dict) as it is, a number as its 32 bits."""
    return value if isinstance(value, dict) else int(value) & 0xFFFFFFFF


def reversed_walk(tensor: dict, dtype: str) -> dict:
    """Return a tensor descriptor that walks ``tensor``'s elements (of ``dtype``) last
    first: it starts at the last element and every step is negated.

    >>> reversed_walk({"space": "sbuf", "partition": 0, "offset": 64, "num": [8, 1],
    ...                "step": [1, 0]}, "FP32")["offset"]
    92
    """
    nums = tensor["num"]
    steps = tensor.get("step") or [int(np.prod(nums[:d])) for d in range(len(nums))]
    last = sum(s * (n - 1) for s, n in zip(steps, nums))
    return dict(tensor, offset=tensor["offset"] + last * dtype_size(dtype),
                step=[-s for s in steps])


# ---- the ALU: TensorTensor (SPEC §4.14), TensorScalar (§4.15) ------------------------------

TENSOR_TENSOR_ARGUMENTS = {
    "src0_mem_pattern": "data1", "src1_mem_pattern": "data2", "dst_mem_pattern": "dst",
    "in0_in1_dtype": "data1", "in0_in1_dtype (src0, low nibble)": "data1",
    "in0_in1_dtype (src1, high nibble)": "data2", "out_dtype": "dst", "op": "op",
    "num_active_channels": "dst"}


def tensor_tensor(*, op: str, in_dtypes: tuple, out_dtype: str, channels: int, data1: dict,
                  data2: dict, dst: dict, names: dict | None = None) -> Word:
    """TensorTensorBitvec (0x51) for an op of the bitvec class only, TensorTensorArith
    (0x41) for any other ALU_OP ``op``."""
    return _word("TensorTensorBitvec" if is_bitvec_only(op) else "TensorTensorArith",
                 TENSOR_TENSOR_ARGUMENTS, names, num_active_channels=channels,
                 in0_in1_dtype=tuple(in_dtypes), out_dtype=out_dtype, op=op,
                 src0_mem_pattern=data1, src1_mem_pattern=data2, dst_mem_pattern=dst)


TENSOR_SCALAR_ARGUMENTS = {
    "src_mem_pattern": "data", "in_dtype": "data", "out_dtype": "dst", "dst_mem_pattern": "dst",
    "num_active_channels": "dst", "op0": "op0", "op1": "op1", "reverse_operands": "reverse0",
    "imm0": "operand0", "imm0_src": "operand0", "imm1": "operand1", "imm1_src": "operand1"}


def tensor_scalar_bitvec(op0: str, op1: str) -> bool:
    """Return True when TensorScalar's ops make it the Bitvec opcode (0x53/0x54): one of
    them is of the bitvec class only. Its number operands are then integers of the data's
    dtype and its pointer operands hold the data's dtype; otherwise FP32."""
    return is_bitvec_only(op0) or is_bitvec_only(op1)


def tensor_scalar(*, op0: str, op1: str, in_dtype: str, out_dtype: str, channels: int,
                  data: dict, dst: dict, operand0: Any, operand1: Any, reverse0: bool = False,
                  reverse1: bool = False, names: dict | None = None) -> Word:
    """TensorScalarArith / TensorScalarBitvec (0x43 / 0x53) by :func:`tensor_scalar_bitvec`,
    or their pointer forms TensorScalarPtrArith / TensorScalarPtrBitvec (0x44 / 0x54) when
    both operands are pointers. An operand is the bits of an immediate (an int) or a
    pointer (a dict); ``op1`` BYPASS is one op."""
    pointers = isinstance(operand0, dict) and isinstance(operand1, dict)
    fields = {"imm0": operand0, "imm1": operand1}
    if not pointers:
        fields.update(imm0_src=_source(operand0), imm1_src=_source(operand1))
    mnemonic = ("TensorScalarPtr" if pointers else "TensorScalar") + (
        "Bitvec" if tensor_scalar_bitvec(op0, op1) else "Arith")
    return _word(mnemonic, TENSOR_SCALAR_ARGUMENTS, names, num_active_channels=channels,
                 in_dtype=in_dtype, out_dtype=out_dtype, op0=op0, op1=op1,
                 reverse_operands=int(bool(reverse0)) | 2 * int(bool(reverse1)),
                 src_mem_pattern=data, dst_mem_pattern=dst, **fields)


TENSOR_SCALAR_CUMULATIVE_ARGUMENTS = {
    "src_mem_pattern": "src", "in_dtype": "src", "out_dtype": "dst", "dst_mem_pattern": "dst",
    "num_active_channels": "dst", "op0": "op0", "op1": "op1", "reverse_operands": "op0",
    "accumulator_cmd": "reduce_cmd", "imm0": "imm0", "imm0_src": "imm0", "imm1": "imm1",
    "imm1_src": "imm1"}


def tensor_scalar_cumulative(*, op0: str, op1: str, in_dtype: str, out_dtype: str,
                             channels: int, src: dict, dst: dict, imm0: Any, imm1: Any,
                             reduce_cmd: str, names: dict | None = None) -> Word:
    """TensorScalarCacheCumulative (0xe6, SPEC §4.24): ``reg = op1(op0(x, imm0), reg)``
    written at every element. ``imm0`` is the bits of an FP32 (an instruction immediate)
    or a pointer; ``imm1``, the seed, is used only for ``reduce_cmd`` LOAD_ACCUMULATE:
    for the other commands its field and source are 0 whatever is given."""
    load = reduce_cmd == "LOAD_ACCUMULATE"
    return _word("TensorScalarCacheCumulative", TENSOR_SCALAR_CUMULATIVE_ARGUMENTS, names,
                 accumulator_cmd=reduce_cmd, src_mem_pattern=src, in_dtype=in_dtype,
                 out_dtype=out_dtype, num_active_channels=channels, imm0_src=_source(imm0),
                 op0=op0, op1=op1, reverse_operands=0,
                 imm1_src=_source(imm1) if load else "INSTRUCTION_IMMEDIATE",
                 imm0=imm0, imm1=imm1 if load else 0, dst_mem_pattern=dst)


# ---- CopyPredicated (SPEC §4.22) -------------------------------------------------------------

COPY_PREDICATED_ARGUMENTS = {
    "src0_mem_pattern": "predicate", "src1_mem_pattern": "src", "dst_mem_pattern": "dst",
    "in0_in1_dtype": "predicate",
    "in0_in1_dtype (src0, the predicate, low nibble)": "predicate",
    "in0_in1_dtype (src1, the data, high nibble)": "src", "out_dtype": "dst", "op": "src",
    "num_active_channels": "dst"}


def copy_predicated(*, pred_dtype: str, dtype: str, out_dtype: str, channels: int,
                    predicate: dict, src: dict, dst: dict, names: dict | None = None) -> Word:
    """CopyPredicated (0x72): ``dst = src`` where ``predicate`` is nonzero (any bit set),
    ``dst`` unchanged elsewhere; ``dtype`` is the data's, ``out_dtype`` the
    destination's (the instruction wants them equal)."""
    return _word("CopyPredicated", COPY_PREDICATED_ARGUMENTS, names,
                 in0_in1_dtype=(pred_dtype, dtype), out_dtype=out_dtype, op="BYPASS",
                 num_active_channels=channels, src0_mem_pattern=predicate,
                 src1_mem_pattern=src, dst_mem_pattern=dst)


def copy_predicated_reversed(*, pred_dtype: str, dtype: str, out_dtype: str, channels: int,
                             predicate: dict, src: dict, dst: dict, scratch: dict,
                             names: dict | None = None) -> list[Word]:
    """The two words of CopyPredicated with the predicate reversed (SPEC §4.22,
    ``reverse_pred=True`` [model]): TensorScalarArith IS_EQ +0.0 from ``predicate`` into
    ``scratch`` (the predicate's dtype, shape and channels: 1 where it is zero, else 0),
    then CopyPredicated under ``scratch``. Both run on the Vector engine, in order."""
    arguments = {"src_mem_pattern": "predicate", "in_dtype": "predicate",
                 "out_dtype": "predicate", "dst_mem_pattern": "predicate",
                 "num_active_channels": "dst"}
    negate = _word("TensorScalarArith", arguments, names, num_active_channels=channels,
                   in_dtype=pred_dtype, out_dtype=pred_dtype, op0="IS_EQ", op1="BYPASS",
                   reverse_operands=0, imm0_src="INSTRUCTION_IMMEDIATE",
                   imm1_src="INSTRUCTION_IMMEDIATE", imm0=0, imm1=0, src_mem_pattern=predicate,
                   dst_mem_pattern=scratch)
    return [negate, copy_predicated(pred_dtype=pred_dtype, dtype=dtype, out_dtype=out_dtype,
                                    channels=channels, predicate=scratch, src=src, dst=dst,
                                    names=names)]


# ---- Copy (SPEC §4.16) and Cast (§4.17) ------------------------------------------------------

COPY_ARGUMENTS = {"src_mem_pattern": "src", "in_dtype": "src", "out_dtype": "dst",
                  "dst_mem_pattern": "dst", "num_active_channels": "dst"}


def copy(*, in_dtype: str, out_dtype: str, channels: int, src: dict, dst: dict,
         cast: bool = False, names: dict | None = None) -> Word:
    """Copy (0x46) for equal dtypes, Cast (0x47) for different ones or with ``cast``."""
    return _word("Cast" if cast or in_dtype != out_dtype else "Copy", COPY_ARGUMENTS, names,
                 src_mem_pattern=src, in_dtype=in_dtype, out_dtype=out_dtype,
                 num_active_channels=channels, dst_mem_pattern=dst)


# ---- Memset (SPEC §4.18) and TensorReduce (§4.19) ------------------------------------------

MEMSET_ARGUMENTS = {"dst_mem_pattern": "dst", "dtype": "dst", "dst_element_count": "dst",
                    "num_active_channels": "dst", "set_value": "value"}


def memset(*, dtype: str, channels: int, dst: dict, set_value: int,
           names: dict | None = None) -> Word:
    """Memset (0x49): ``set_value`` is the bits of a value of ``dtype`` (its low bytes);
    ``dst_element_count`` is the destination's element count."""
    return _word("Memset", MEMSET_ARGUMENTS, names, dtype=dtype, num_active_channels=channels,
                 dst_element_count=int(np.prod(dst["num"])), set_value=int(set_value),
                 dst_mem_pattern=dst)


TENSOR_REDUCE_ARGUMENTS = {
    "src_mem_pattern": "data", "in_dtype": "data", "out_dtype": "dst", "dst_mem_pattern": "dst",
    "num_active_channels": "dst", "op": "op", "op_dim": "axis", "negated": "negate"}

#: TENSOR_SUBDIM of k reduced innermost dims (SPEC §4.19): X, XY, XYZ, XYZW.
REDUCE_SUBDIM = {1: 0x2, 2: 0x3, 3: 0x4, 4: 0x5}


def tensor_reduce(*, op: str, in_dtype: str, out_dtype: str, channels: int, data: dict,
                  dst: dict, dims: int, negate: bool = False, names: dict | None = None) -> Word:
    """TensorReduceBitvec (0x52) for an op of the bitvec class only, TensorReduceArith
    (0x42) for any other ALU_OP ``op``; ``dims`` (1..4) innermost dims of ``data`` are
    reduced (``op_dim`` X .. XYZW)."""
    bitvec = is_bitvec_only(op)
    return _word("TensorReduceBitvec" if bitvec else "TensorReduceArith",
                 TENSOR_REDUCE_ARGUMENTS, names, src_mem_pattern=data, in_dtype=in_dtype,
                 out_dtype=out_dtype, num_active_channels=channels, op=op,
                 op_dim=REDUCE_SUBDIM.get(dims, 0), negated=0 if bitvec else int(bool(negate)),
                 dst_mem_pattern=dst)


# ---- RangeSelect (SPEC §4.1) and its accumulators (DveReadAccumulator, §4.13) ----------------

RANGE_SELECT_ARGUMENTS = {
    "src_mem_pattern": "on_true_tile", "dst_mem_pattern": "dst",
    "in_out_dtype": "on_true_tile/dst", "reduce_cmd": "reduce_cmd", "reduce_op": "reduce_op",
    "base": "range_start", "fill_val": "on_false_value", "comp_op0": "comp_op0",
    "comp_op1": "comp_op1", "bound0": "bound0", "bound1": "bound1", "bound0_src": "bound0",
    "bound1_src": "bound1", "num_active_channels": "dst"}


def range_select(*, in_dtype: str, out_dtype: str, channels: int, src: dict, dst: dict,
                 comp_op0: Any, comp_op1: Any, bound0: Any, bound1: Any, range_start: Any,
                 reduce_cmd: str, reduce_op: str = "MAX", fill: Any = NEG_FLT_MAX,
                 names: dict | None = None) -> Word:
    """RangeSelect (0xbc): a bound is a number (an FP32 instruction immediate) or a
    pointer (a dict); ``range_start`` and ``fill`` are FP32 (a ``numpy.float32`` keeps
    its bits)."""
    return _word("RangeSelect", RANGE_SELECT_ARGUMENTS, names, num_active_channels=channels,
                 in_out_dtype=(in_dtype, out_dtype), reduce_cmd=reduce_cmd,
                 reduce_op=reduce_op, base=range_start, fill_val=fill, src_mem_pattern=src,
                 comp_op0=comp_op0, comp_op1=comp_op1, bound0_src=_source(bound0),
                 bound1_src=_source(bound1),
                 bound0=bound0 if isinstance(bound0, dict) else np.float32(bound0),
                 bound1=bound1 if isinstance(bound1, dict) else np.float32(bound1),
                 dst_mem_pattern=dst)


READ_ACCUMULATOR_ARGUMENTS = {"dtype": "reduce_res", "dst_mem_pattern": "reduce_res",
                              "num_active_channels": "reduce_res", "negated": "negated"}


def read_accumulator(*, dtype: str, channels: int, dst: dict, negated: bool = False,
                     names: dict | None = None) -> Word:
    """DveReadAccumulator (0x9b): each channel's accumulator, as ``dtype``, to one
    element of ``dst`` (the tail of a reducing RangeSelect)."""
    return _word("DveReadAccumulator", READ_ACCUMULATOR_ARGUMENTS, names, dst_element_count=1,
                 dtype=dtype, negated=int(bool(negated)), num_active_channels=channels,
                 dst_mem_pattern=dst)


# ---- AffineSelect (SPEC §4.5) and Iota (§4.6): the ramp of §3.7 ------------------------------

AFFINE_SELECT_ARGUMENTS = {
    "mask_pattern": "pattern", "src_mem_pattern": "on_true_tile", "dst_mem_pattern": "dst",
    "in_out_dtype": "on_true_tile/dst", "fill_mode": "cmp_op", "fill_reg": "on_false_value",
    "num_active_channels": "dst", "channel_multiplier": "channel_multiplier"}


def affine_select(*, in_dtype: str, out_dtype: str, channels: int, src: dict, dst: dict,
                  pattern: dict, channel_multiplier: int, cmp_op: Any, fill_reg: int,
                  names: dict | None = None) -> Word:
    """AffineSelect (0x92): ``pattern`` is the DATA4D ramp (its base the offset), the
    fill value in register ``fill_reg``."""
    return _word("AffineSelect", AFFINE_SELECT_ARGUMENTS, names, num_active_channels=channels,
                 in_out_dtype=(in_dtype, out_dtype), fill_mode=cmp_op, fill_reg=fill_reg,
                 mask_pattern=pattern, src_mem_pattern=src, dst_mem_pattern=dst,
                 channel_multiplier=channel_multiplier)


IOTA_ARGUMENTS = {"src_data_pattern": "pattern", "dst_mem_pattern": "dst", "out_dtype": "dst",
                  "num_active_channels": "dst", "channel_multiplier": "channel_multiplier"}


def iota(*, out_dtype: str, channels: int, pattern: dict, channel_multiplier: int, dst: dict,
         names: dict | None = None) -> Word:
    """Iota (0x7e): ``pattern`` is the DATA4D ramp (its base the offset)."""
    return _word("Iota", IOTA_ARGUMENTS, names, src_data_pattern=pattern, out_dtype=out_dtype,
                 num_active_channels=channels, channel_multiplier=channel_multiplier,
                 dst_mem_pattern=dst)


# ---- the search instructions (SPEC §4.7-§4.10) -----------------------------------------------

MAX8_ARGUMENTS = {"src_mem_pattern": "src", "dst_mem_pattern": "dst", "in_dtype": "src",
                  "out_dtype": "dst", "num_active_channels": "dst"}


def max8(*, in_dtype: str, out_dtype: str, channels: int, src: dict, dst: dict,
         names: dict | None = None) -> Word:
    """Max8 (0x6c), its destination walked last element first, so that the smallest-first
    values land largest first, as NKI's compiler emits it."""
    return _word("Max8", MAX8_ARGUMENTS, names, src_mem_pattern=src, in_dtype=in_dtype,
                 out_dtype=out_dtype, num_active_channels=channels,
                 dst_mem_pattern=reversed_walk(dst, out_dtype))


MATCH_VALUE_LOAD_ARGUMENTS = {"src_mem_pattern": "vals", "dtype": "vals",
                              "num_active_channels": "vals"}


def match_value_load(*, dtype: str, channels: int, vals: dict, reverse: bool,
                     names: dict | None = None) -> Word:
    """MatchValueLoad (0x6d) of the 8 values ``vals``: walked last first (``reverse``,
    ``mv[n] = vals[n]``) or first first (``mv[7 - k] = vals[k]``)."""
    return _word("MatchValueLoad", MATCH_VALUE_LOAD_ARGUMENTS, names,
                 src_mem_pattern=reversed_walk(vals, dtype) if reverse else vals, dtype=dtype,
                 num_active_channels=channels)


FIND_INDEX8_ARGUMENTS = {"src_mem_pattern": "data", "in_dtype": "data", "out_dtype": "dst",
                         "dst_mem_pattern": "dst", "num_active_channels": "dst"}


def find_index8(*, vals_dtype: str, in_dtype: str, out_dtype: str, channels: int, vals: dict,
                data: dict, dst: dict, names: dict | None = None) -> list[Word]:
    """MatchValueLoad of ``vals`` walked last first (``mv[n] = vals[n]``), then FindIndex8
    (0x6e): column ``n`` of ``dst`` is the position of ``vals[n]``."""
    return [match_value_load(dtype=vals_dtype, channels=channels, vals=vals, reverse=True,
                             names=names),
            _word("FindIndex8", FIND_INDEX8_ARGUMENTS, names, src_mem_pattern=data,
                  in_dtype=in_dtype, out_dtype=out_dtype, num_active_channels=channels,
                  dst_mem_pattern=dst)]


MATCH_REPLACE8_ARGUMENTS = dict(FIND_INDEX8_ARGUMENTS, immediate="imm")

# The FindIndex8 that writes the matched positions: every field comes from dst_idx (its
# source is the NaN scratch the caller placed for it).
READ_INDICES_ARGUMENTS = {"src_mem_pattern": "dst_idx", "in_dtype": "dst_idx",
                          "out_dtype": "dst_idx", "dst_mem_pattern": "dst_idx",
                          "num_active_channels": "dst_idx"}


def match_replace8(*, vals_dtype: str, in_dtype: str, out_dtype: str, channels: int,
                   vals: dict, data: dict, dst: dict, imm: Any, reverse_vals: bool = False,
                   dst_idx: dict | None = None, idx_dtype: str = "UINT32",
                   nan: dict | None = None, names: dict | None = None) -> list[Word]:
    """MatchValueLoad of ``vals`` (first first, ``mv[7 - k] = vals[k]``, as NKI's
    nc_match_replace8; last first with ``reverse_vals``), then MatchReplace8 (0x6f)
    writing ``imm`` (an FP32; a ``numpy.float32`` keeps its bits, NaN payloads too).

    With ``dst_idx`` (8 elements of ``idx_dtype``, UINT32 or UINT16, per lane), a
    FindIndex8 (0x6e) over ``nan`` (8 FP32 NaNs per lane, at the data's partitions)
    follows: a NaN matches no slot (SPEC §4.9), so it writes every slot's ``idx`` as
    MatchReplace8 left it, ``dst_idx`` walked last first (``dst_idx[k] = idx[7 - k]``,
    the all-ones sentinel where a value was not found)."""
    words = [match_value_load(dtype=vals_dtype, channels=channels, vals=vals,
                              reverse=reverse_vals, names=names),
             _word("MatchReplace8", MATCH_REPLACE8_ARGUMENTS, names, src_mem_pattern=data,
                   in_dtype=in_dtype, out_dtype=out_dtype, num_active_channels=channels,
                   immediate=np.float32(imm), dst_mem_pattern=dst)]
    if dst_idx is not None:
        if nan is None:
            raise ValueError("match_replace8: dst_idx needs the nan operand")
        words.append(_word("FindIndex8", READ_INDICES_ARGUMENTS, names, src_mem_pattern=nan,
                           in_dtype="FP32", out_dtype=idx_dtype, num_active_channels=channels,
                           dst_mem_pattern=reversed_walk(dst_idx, idx_dtype)))
    return words


# ---- NonzeroWithCount (SPEC §4.11), CopyPredicatedScalar (§4.12) -----------------------------

NONZERO_WITH_COUNT_ARGUMENTS = {
    "src_mem_pattern": "src", "dst_mem_pattern": "dst", "in_dtype": "src", "out_dtype": "dst",
    "index_offset": "index_offset", "index_offset_src": "index_offset",
    "padding_val": "padding_val", "padding_val_src": "padding_val", "num_active_channels": "dst"}


def nonzero_with_count(*, in_dtype: str, out_dtype: str, channels: int, src: dict, dst: dict,
                       index_offset: Any, padding_val: Any, names: dict | None = None) -> Word:
    """NonzeroWithCount (0xf2): ``index_offset`` and ``padding_val`` are int32 numbers
    (instruction immediates) or pointers (dicts)."""
    return _word("NonzeroWithCount", NONZERO_WITH_COUNT_ARGUMENTS, names,
                 num_active_channels=channels, in_dtype=in_dtype, out_dtype=out_dtype,
                 index_offset_src=_source(index_offset), src_mem_pattern=src,
                 index_offset=_int32_bits(index_offset), padding_val_src=_source(padding_val),
                 padding_val=_int32_bits(padding_val), dst_mem_pattern=dst)


COPY_PREDICATED_SCALAR_ARGUMENTS = {
    "pred_mem_pattern": "predicate", "pred_dtype": "predicate", "dst_mem_pattern": "dst",
    "in_dtype": "dst", "out_dtype": "dst", "src0_imm": "src", "src0_imm_src": "src",
    "reversed_pred": "reverse_pred", "num_active_channels": "dst"}


def copy_predicated_scalar(*, dtype: str, pred_dtype: str, channels: int, predicate: dict,
                           dst: dict, src: Any, reverse_pred: bool = False,
                           names: dict | None = None) -> Word:
    """CopyPredicatedScalar (0xe8): ``src`` is the bits of a value of ``dtype`` (an
    instruction immediate) or a pointer; NKI's ``reverse_pred=False`` is the
    instruction's ``reversed_pred = 1``."""
    return _word("CopyPredicatedScalar", COPY_PREDICATED_SCALAR_ARGUMENTS, names,
                 pred_mem_pattern=predicate, pred_dtype=pred_dtype,
                 reversed_pred=0 if reverse_pred else 1, num_active_channels=channels,
                 in_dtype=dtype, out_dtype=dtype, src0_imm_src=_source(src),
                 src0_imm=src if isinstance(src, dict) else int(src), dst_mem_pattern=dst)


# ---- GetSequenceBounds (SPEC §4.3), Sort (§4.4), TensorScalarSelect (§4.2) -------------------

SEQUENCE_BOUNDS_ARGUMENTS = {"src_mem_pattern": "segment_ids", "in_dtype": "segment_ids",
                             "out_dtype": "dst", "dst_mem_pattern": "dst",
                             "num_active_channels": "segment_ids"}


def sequence_bounds(*, in_dtype: str, out_dtype: str, channels: int, src: dict, dst: dict,
                    names: dict | None = None) -> Word:
    """GetSequenceBounds (0xbe)."""
    return _word("GetSequenceBounds", SEQUENCE_BOUNDS_ARGUMENTS, names,
                 num_active_channels=channels, in_dtype=in_dtype, out_dtype=out_dtype,
                 src_mem_pattern=src, dst_mem_pattern=dst)


SORT_ARGUMENTS = {"src_mem_pattern": "x", "dst_mem_pattern": "k", "in_out_dtype": "x",
                  "comparison": "descending", "stable": "stable", "index_offset": "index_offset",
                  "index_offset_src": "index_offset", "num_active_channels": "x"}


def sort(*, dtype: str, channels: int, src: dict, dst: dict, descending: bool, stable: bool,
         index_offset: Any, names: dict | None = None) -> Word:
    """Sort (0x96), IS_GT for ``descending``; ``index_offset`` a uint32 number or a
    pointer."""
    return _word("Sort", SORT_ARGUMENTS, names, num_active_channels=channels,
                 index_offset_src=_source(index_offset), in_out_dtype=(dtype, dtype),
                 comparison="IS_GT" if descending else "IS_LT", src_mem_pattern=src,
                 dst_mem_pattern=dst, index_offset=_int32_bits(index_offset),
                 stable=int(bool(stable)))


TENSOR_SCALAR_SELECT_ARGUMENTS = {
    "src0_mem_pattern": "tile", "dst_mem_pattern": "tile", "dtype": "tile",
    "reversed_pred": "reversed", "pred_imm_dtype": "predicate", "src1_imm_src": "scalar",
    "src1_imm": "scalar", "pred_imm_src": "predicate", "pred_imm": "predicate",
    "num_active_channels": "tile"}


def tensor_scalar_select(*, dtype: str, pred_dtype: str, channels: int, src: dict, dst: dict,
                         scalar: Any, predicate: Any, reversed: bool = False,  # noqa: A002
                         names: dict | None = None) -> Word:
    """TensorScalarSelect (0x98): ``scalar`` and ``predicate`` are bits (instruction
    immediates) or pointers."""
    return _word("TensorScalarSelect", TENSOR_SCALAR_SELECT_ARGUMENTS, names,
                 src0_mem_pattern=src, reversed_pred=int(bool(reversed)),
                 num_active_channels=channels, dtype=dtype, pred_imm_dtype=pred_dtype,
                 src1_imm_src=_source(scalar), pred_imm_src=_source(predicate),
                 src1_imm=scalar if isinstance(scalar, dict) else int(scalar),
                 pred_imm=predicate if isinstance(predicate, dict) else int(predicate),
                 dst_mem_pattern=dst)


# ---- S2S2D2_STT: TensorTensorScan (SPEC §4.20), ScalarTensorTensor (§4.21), SelectReduce
# (§4.25) ---------------------------------------------------------------------------------------


def _imm0(value: Any, dtype: str) -> dict:
    """imm0's fields: a pointer (a dict) to values of ``dtype``, or an FP32 instruction
    immediate (a ``numpy.float32`` keeps its bits)."""
    if isinstance(value, dict):
        return {"imm0_src": "POINTER_IMMEDIATE", "imm0": value, "imm0_dtype": dtype}
    return {"imm0_src": "INSTRUCTION_IMMEDIATE", "imm0": np.float32(value), "imm0_dtype": "FP32"}


def _stt_arguments(src0: str, src1: str, imm0: str, cmd: str, reverse: str) -> dict[str, str]:
    return {"src0_mem_pattern": src0, "src1_mem_pattern": src1, "dst_mem_pattern": "dst",
            "in0_in1_dtype": src0, "in0_in1_dtype (src0, low nibble)": src0,
            "in0_in1_dtype (src1, high nibble)": src1, "out_dtype": "dst", "op0": "op0",
            "op1": "op1", "reverse_operands": reverse, "imm0": imm0, "imm0_src": imm0,
            "imm0_dtype": imm0, "accumulator_cmd": cmd, "num_active_channels": "dst"}


TENSOR_TENSOR_SCAN_ARGUMENTS = _stt_arguments("data0", "data1", "initial", "accumulator_cmd",
                                              "reverse0")
SCALAR_TENSOR_TENSOR_ARGUMENTS = _stt_arguments("data", "operand1", "operand0",
                                                "accumulator_cmd", "reverse0")
SELECT_REDUCE_ARGUMENTS = dict(_stt_arguments("predicate", "on_true", "on_false", "reduce_cmd",
                                              "reverse_pred"), op1="reduce_op")


def tensor_tensor_scan(*, op0: str, op1: str, in_dtypes: tuple, out_dtype: str, channels: int,
                       data0: dict, data1: dict, dst: dict, initial: Any,
                       initial_dtype: str = "FP32", reverse0: bool = False,
                       reverse1: bool = False, names: dict | None = None) -> Word:
    """TensorTensorScan (0xe5): ``initial`` a number (an FP32 instruction immediate) or a
    pointer (a dict) to one ``initial_dtype`` value per channel."""
    return _word("TensorTensorScan", TENSOR_TENSOR_SCAN_ARGUMENTS, names,
                 src0_mem_pattern=data0, src1_mem_pattern=data1, op0=op0, op1=op1,
                 reverse_operands=int(bool(reverse0)) | 2 * int(bool(reverse1)),
                 in0_in1_dtype=tuple(in_dtypes), out_dtype=out_dtype,
                 num_active_channels=channels, accumulator_cmd="IDLE", dst_mem_pattern=dst,
                 **_imm0(initial, initial_dtype))


def scalar_tensor_tensor(*, op0: str, op1: str, in_dtypes: tuple, out_dtype: str, channels: int,
                         data: dict, operand1: dict, dst: dict, operand0: Any,
                         operand0_dtype: str = "FP32", reverse0: bool = False,
                         reverse1: bool = False, accumulator_cmd: str = "IDLE",
                         names: dict | None = None) -> Word:
    """ScalarTensorTensorBitvec (0x9e) for an op of the bitvec class only (its words
    validate, then fault unsupported-op), ScalarTensorTensorArith (0x9d) otherwise:
    ``(data op0 operand0) op1 operand1``, ``operand0`` a number (FP32) or a pointer."""
    bitvec = is_bitvec_only(op0) or is_bitvec_only(op1)
    return _word("ScalarTensorTensorBitvec" if bitvec else "ScalarTensorTensorArith",
                 SCALAR_TENSOR_TENSOR_ARGUMENTS, names, src0_mem_pattern=data,
                 src1_mem_pattern=operand1, op0=op0, op1=op1,
                 reverse_operands=int(bool(reverse0)) | 2 * int(bool(reverse1)),
                 in0_in1_dtype=tuple(in_dtypes), out_dtype=out_dtype,
                 num_active_channels=channels, accumulator_cmd=accumulator_cmd,
                 dst_mem_pattern=dst, **_imm0(operand0, operand0_dtype))


def select_reduce(*, pred_dtype: str, in_dtype: str, out_dtype: str, channels: int,
                  predicate: dict, on_true: dict, dst: dict, on_false: Any,
                  on_false_dtype: str = "FP32", reverse_pred: bool = False,
                  reduce_cmd: str = "IDLE", reduce_op: str = "MAX",
                  names: dict | None = None) -> Word:
    """SelectReduce (0xea): ``on_false`` a number (FP32) or a pointer to one
    ``on_false_dtype`` value per channel; ``reverse_pred`` is reverse_operands FIRST."""
    return _word("SelectReduce", SELECT_REDUCE_ARGUMENTS, names, src0_mem_pattern=predicate,
                 src1_mem_pattern=on_true, op0="BYPASS", op1=reduce_op,
                 reverse_operands=int(bool(reverse_pred)), in0_in1_dtype=(pred_dtype, in_dtype),
                 out_dtype=out_dtype, num_active_channels=channels, accumulator_cmd=reduce_cmd,
                 dst_mem_pattern=dst, **_imm0(on_false, on_false_dtype))
