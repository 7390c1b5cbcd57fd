"""The Python API's rows of the error-quality table (docs/robustness.md).

Each bad input must raise the exception type shown, with exactly the message shown: it
names the place (argument, field, file and line), the offending value and what is
allowed. The C++ rows are in tests/error_messages_test.cc.
"""

import numpy as np
import pytest

import gpsimd

SORT = ("Sort num_active_channels=1, in_out_dtype=(FP32, FP32), comparison=IS_LT{extra}, "
        "src_mem_pattern={src} num=[8], dst_mem_pattern=sbuf[p=0, off=0x100] num=[2,8]\n")


def sort_text(extra="", src="sbuf[p=0, off=0x0]"):
    return SORT.format(extra=extra, src=src)


CASES = [
    ("an unknown generation",
     lambda: gpsimd.Machine("v9"), ValueError,
     "generation 'v9': must be one of 'v2', 'v3', 'v4', 'v5' (or 2..5), or a name of one: 'trn1', 'inf2', "
     "'sunda' (v2), 'trn2', 'cayman' (v3), 'mariana' (v4), 'maverick' (v5)"),
    ("validate on an unknown generation",
     lambda: gpsimd.validate(bytes(64), "v7"), ValueError,
     "generation 'v7': must be one of 'v2', 'v3', 'v4', 'v5' (or 2..5), or a name of one: 'trn1', 'inf2', "
     "'sunda' (v2), 'trn2', 'cayman' (v3), 'mariana' (v4), 'maverick' (v5)"),
    ("encode of an unknown instruction",
     lambda: gpsimd.encode("Sortt"), ValueError,
     "instruction 'Sortt': not one of RangeSelect (0xbc), TensorScalarSelect (0x98), "
     "GetSequenceBounds (0xbe), Sort (0x96), AffineSelect (0x92), Iota (0x7e), "
     "MatchValueLoad (0x6d), Max8 (0x6c), FindIndex8 (0x6e), MatchReplace8 (0x6f), "
     "NonzeroWithCount (0xf2), CopyPredicatedScalar (0xe8), DveReadAccumulator (0x9b), "
     "TensorTensorArith (0x41), TensorTensorBitvec (0x51), TensorScalarArith (0x43), "
     "TensorScalarBitvec (0x53), TensorScalarPtrArith (0x44), TensorScalarPtrBitvec (0x54), "
     "Copy (0x46), Cast (0x47), Memset (0x49), TensorReduceArith (0x42), "
     "TensorReduceBitvec (0x52), TensorTensorScan (0xe5), ScalarTensorTensorArith (0x9d), "
     "ScalarTensorTensorBitvec (0x9e), CopyPredicated (0x72), TensorScalarCacheCumulative "
     "(0xe6), SelectReduce (0xea)"),
    ("encode of a value wider than its field",
     lambda: gpsimd.encode("Sort", stable=300), ValueError,
     "Sort.stable: 300 is outside [0, 255]"),
    ("encode of a field the instruction does not have",
     lambda: gpsimd.encode("Sort", colour=3), ValueError,
     "Sort has no field 'colour' (fields: header, events, num_active_channels, "
     "index_offset_src, in_out_dtype, comparison, src_mem_pattern, dst_mem_pattern, "
     "index_offset, stable, reserved1)"),
    ("encode of an unknown dtype name",
     lambda: gpsimd.encode("Sort", in_out_dtype=("FP33", "FP32")), ValueError,
     "Sort.in_out_dtype.in: 'FP33' is not a name of DTYPE (INVALID, UINT64, INT8, UINT8, "
     "INT16, UINT16, BF16, FP16, INT32, UINT32, FP32, FP32R, INT64, FP8_E3, FP8_E4, FP8_E5, "
     "FP4_E2, CPTC1, CPTC2, CPTC3, CPTC4, CPTC5, CPTC6, CPTC7) nor a number"),
    ("decode of a short word",
     lambda: gpsimd.decode(bytes(10)), ValueError,
     "word: an instruction word is 64 bytes, got 10"),
    ("an address in a partition that does not exist",
     lambda: gpsimd.address("sbuf", 200, 0), ValueError,
     "address.partition: 200 is outside [0, 127]"),
    ("an assembly error",
     lambda: gpsimd.assemble("Sort num_active_channels=300", file="a.gpsimd"),
     gpsimd.AssemblyError,
     "a.gpsimd:1:26: error: num_active_channels: 300 is out of range: expected 0..255 "
     "(at '300')\n"
     "  1 | Sort num_active_channels=300\n"
     "    |                          ^~~"),
    ("a program that is not whole words",
     lambda: gpsimd.Machine("v3").run(bytes(65)), ValueError,
     "program: a whole number of 64-byte words, got 65 bytes"),
    ("an invalid word names every failing clause",
     lambda: gpsimd.Machine("v3").run(sort_text(", stable=2"), file="s.gpsimd"),
     gpsimd.InvalidInstruction,
     "word 0 (Sort, s.gpsimd:1) is invalid on v3:\n"
     "  Sort: sort_valid_stable: stable = 0x02, must be 0 or 1"),
    ("a fault from a register address",
     lambda: gpsimd.Machine("v3").run(".reg 5 = 0x7fffffff\n" + sort_text(src="reg(5)"),
                                      file="f.gpsimd"),
     gpsimd.Fault,
     "word 0 (Sort, f.gpsimd:2) faults bad-address: src_mem_pattern: address 0x7fffffff "
     "(from register 5): ADDR4 mode bits 29-30 are 3, must be 0"),
    ("a wait that can never be satisfied",
     lambda: gpsimd.Machine("v3").run(sort_text(", wait_mode=GE, wait_idx=3, value=1"),
                                      file="w.gpsimd"),
     gpsimd.Fault,
     "word 0 (Sort, w.gpsimd:1) faults sync-would-block: waits for semaphore 3 >= 0x00000001, "
     "it holds 0x00000000 and nothing else runs"),
    ("a .load of a missing file",
     lambda: gpsimd.Machine("v3").run(".load sbuf[p=0, off=0x0] <- missing.npy\n",
                                      file="l.gpsimd", base_dir="no-such-dir"),
     gpsimd.ProgramError,
     "l.gpsimd:1: .load: no-such-dir/missing.npy: cannot open the file: No such file or directory"),
    ("a view in a space that does not exist",
     lambda: gpsimd.Machine("v3").view("dram", "FP32", 0), ValueError,
     "space 'dram': must be 'sbuf' or 'psum'"),
    ("a misaligned view",
     lambda: gpsimd.Machine("v3").view("sbuf", "FP32", 0, offset=2), ValueError,
     "offset 2: must be in [0, 229376] and a multiple of 4 (the element size)"),
    ("a sort longer than one instruction takes",
     lambda: gpsimd.sort(np.zeros(5000, dtype=np.float32)), gpsimd.InvalidInstruction,
     "sort: x: the Sort word is invalid: x (src_mem_pattern): sort_tensor_shapes_ok: "
     "src_mem_pattern = N = 5000 x 1 channels = 5000, N x channels must be <= 2048 for 4-byte "
     "dtypes"),
    ("an op the instruction does not take, from a high-level function",
     lambda: gpsimd.tensor_scalar(np.float32([1.0]), "add", 1.0, op1="divide", operand1=2.0),
     gpsimd.InvalidInstruction,
     "tensor_scalar: op1: the TensorScalarArith word is invalid: op1: tensor_scalar_valid_ops: "
     "op1 = DIVIDE (0x07), op0 is ADD (0x04), op0 and op1 must not be DIVIDE, POW or MOD; both "
     "ops must be general arithmetic ops (BYPASS, ADD, SUBTRACT, MULT, MAX, MIN, LOGICAL_AND, "
     "LOGICAL_OR, LOGICAL_XOR, IS_EQ, IS_GT, IS_GE, IS_LE, IS_LT, ABSOLUTE_DIFF, IS_NE, "
     "ABSOLUTE_VALUE), or op0 RSQRT with op1 BYPASS and imm0, imm1, imm0_src and imm1_src all 0"),
    ("a sort of a 3-D array",
     lambda: gpsimd.sort(np.zeros((2, 3, 4), dtype=np.float32)), ValueError,
     "sort: x must be 1-D or [rows, N], got shape (2, 3, 4)"),
    ("a sort with a negative index offset",
     lambda: gpsimd.sort(np.zeros(4, dtype=np.float32), index_offset=-1), ValueError,
     "sort: index_offset: -1 is outside uint32 [0, 4294967295]"),
    ("a NumPy dtype the machine has no dtype for",
     lambda: gpsimd.sort(np.zeros(5, dtype=np.float64)), TypeError,
     "sort: x is float64, which is no gpsimd dtype; sort takes float32 (FP32), float16 (FP16), "
     "int16 (INT16), uint16 (UINT16), int32 (INT32), uint32 (UINT32), BF16 as uint16 bits "
     "with dtype='BF16'; convert it, e.g. x.astype(numpy.float32)"),
    ("BF16 bits not named as BF16",
     lambda: gpsimd.range_select(np.zeros((1, 4), dtype=np.uint16), ">=", "<", 0, 2), TypeError,
     "range_select: tile is uint16 (UINT16); range_select takes float32 (FP32), float16 "
     "(FP16), BF16 as uint16 bits with in_dtype='BF16', FP8_E3/FP8_E4/FP8_E5 as uint8 bits "
     "with in_dtype='FP8_E4'; pass in_dtype='BF16' if these are BF16 bits"),
    ("a select scalar that does not fit the dtype",
     lambda: gpsimd.tensor_scalar_select(np.zeros(4, dtype=np.int8), 300, 1), ValueError,
     "tensor_scalar_select: scalar: 300 does not fit INT8 [-128, 127]"),
    ("a per-row argument of the wrong length",
     lambda: gpsimd.range_select(np.zeros((2, 4), np.float32), ">=", "<", 0, 2, reduce=[1, 2, 3]),
     ValueError,
     "range_select: reduce: expected a scalar or one value per row (2), got shape (3,)"),
    ("a machine generation that does not exist, from a high-level function",
     lambda: gpsimd.sort([3, 1, 2], generation="v9"), ValueError,
     "sort: generation 'v9': must be one of 'v2', 'v3', 'v4', 'v5' (or 2..5), or a name of one: 'trn1', 'inf2', "
     "'sunda' (v2), 'trn2', 'cayman' (v3), 'mariana' (v4), 'maverick' (v5)"),
]


@pytest.mark.parametrize("name,call,kind,message", CASES, ids=[c[0] for c in CASES])
def test_error_message(name, call, kind, message):
    with pytest.raises(kind) as info:
        call()
    assert str(info.value) == message
