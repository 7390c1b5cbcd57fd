"""encode / decode / validate against SPEC §3-§4's byte layouts."""

import struct

import numpy as np
import pytest

import gpsimd

MNEMONICS = ["RangeSelect", "TensorScalarSelect", "GetSequenceBounds", "Sort"]
OPCODES = {"RangeSelect": 0xBC, "TensorScalarSelect": 0x98, "GetSequenceBounds": 0xBE,
           "Sort": 0x96}


@pytest.mark.parametrize("mnemonic", MNEMONICS)
def test_decode_then_encode_gives_back_every_word(mnemonic):
    rng = np.random.default_rng(OPCODES[mnemonic])
    for _ in range(400):
        w = bytearray(rng.integers(0, 256, 64, dtype=np.uint64).astype(np.uint8).tobytes())
        w[0] = OPCODES[mnemonic]
        if rng.random() < 0.5:
            w[1:4] = b"\x10\x00\x00"
        fields = gpsimd.decode(bytes(w))
        assert fields["instruction"] == mnemonic
        assert gpsimd.encode(**fields) == bytes(w)


def test_field_names_are_the_tables():
    for row in gpsimd.instructions():
        fields = gpsimd.decode(gpsimd.encode(row["mnemonic"]))
        assert list(fields) == ["instruction"] + [f["name"] for f in row["fields"]]


def test_sort_layout_matches_spec():
    # SPEC §4.4 offsets: 12 channels, 13 index_offset_src, 14 in_out_dtype, 15 comparison,
    # 16 src TENSOR1D, 24 dst TENSOR2D, 36 index_offset, 40 stable.
    w = gpsimd.encode("Sort", num_active_channels=3, index_offset_src="POINTER_IMMEDIATE",
                      in_out_dtype={"in": "BF16", "out": "FP32"}, comparison="IS_GT",
                      src_mem_pattern={"space": "sbuf", "partition": 2, "offset": 64,
                                       "step": [-1], "num": [5]},
                      dst_mem_pattern={"addr": 0x1234, "step": [1, 2], "num": [2, 5]},
                      index_offset={"space": "sbuf", "partition": 1, "offset": 8}, stable=1,
                      events={"wait_mode": "GE", "wait_idx": 7, "update_mode": "DEC",
                              "update_idx": 9, "value": 0xDEADBEEF})
    want = bytearray(64)
    want[0:4] = bytes([0x96, 0x10, 0, 0])
    want[4:12] = struct.pack("<BBBBI", 1, 7, 3, 9, 0xDEADBEEF)
    want[12:16] = bytes([3, 1, 0xA6, 0x13])
    want[16:24] = struct.pack("<IhH", (2 << 18) | 64, -1, 5)
    want[24:36] = struct.pack("<IhhHH", 0x1234, 1, 2, 2, 5)
    want[36:40] = struct.pack("<I", (1 << 18) | 8)
    want[40] = 1
    assert w == bytes(want)


def test_range_select_fp32_fields_and_psum_addresses():
    w = gpsimd.encode("RangeSelect", base=16.0, fill_val=np.float32(-3.4028235e38),
                      bound0=2.5, bound1=7, reduce_cmd=3, in_out_dtype=0x6A,
                      src_mem_pattern={"space": "psum", "partition": 3, "offset": 12,
                                       "num": [4, 2]})
    assert w[16:20] == struct.pack("<f", 16.0)
    assert w[20:24] == bytes.fromhex("ffff7fff")
    assert w[40:48] == struct.pack("<fI", 2.5, 7)
    assert w[13:15] == bytes([0x6A, 3])
    assert w[24:36] == struct.pack("<IhhHH", 0x2000000 + (3 << 15) + 12, 1, 4, 4, 2)
    f = gpsimd.decode(w)
    assert f["in_out_dtype"] == {"in": "FP32", "out": "BF16"}
    assert f["reduce_cmd"] == "ZERO_ACCUMULATE"
    assert f["src_mem_pattern"]["space"] == "psum" and f["src_mem_pattern"]["partition"] == 3
    # FP32 fields decode as numpy.float32 with their exact bits, signalling NaNs too.
    w2 = bytearray(w)
    w2[16:20] = struct.pack("<I", 0x7F800001)
    base = gpsimd.decode(bytes(w2))["base"]
    assert isinstance(base, np.float32) and base.view(np.uint32) == 0x7F800001
    assert gpsimd.encode(**gpsimd.decode(bytes(w2))) == bytes(w2)


def test_words_in_other_forms():
    w = gpsimd.encode("Sort", stable=1)
    for form in (bytearray(w), memoryview(w), np.frombuffer(w, dtype=np.uint8), w.hex(),
                 " ".join(w.hex()[i:i + 8] for i in range(0, 128, 8))):
        assert gpsimd.decode(form)["stable"] == 1
    with pytest.raises(ValueError, match="64 bytes"):
        gpsimd.decode(w[:63])


def test_encode_errors_are_clear():
    with pytest.raises(ValueError, match="no field 'stabel'.*stable"):
        gpsimd.encode("Sort", stabel=1)
    with pytest.raises(ValueError, match="'IS_LTE' is not a name of ALU_OP.*IS_LT"):
        gpsimd.encode("Sort", comparison="IS_LTE")
    with pytest.raises(ValueError, match="not a name of DTYPE"):
        gpsimd.encode("TensorScalarSelect", dtype="FLOAT32")
    with pytest.raises(ValueError, match=r"stable: 256 is outside \[0, 255\]"):
        gpsimd.encode("Sort", stable=256)
    with pytest.raises(ValueError, match="num has 3 entries"):
        gpsimd.encode("Sort", src_mem_pattern={"num": [1, 2, 3]})
    with pytest.raises(ValueError, match="disagrees"):
        gpsimd.encode("Sort", src_mem_pattern={"addr": 5, "partition": 1, "num": [1]})
    with pytest.raises(ValueError, match="unknown key 'stride'"):
        gpsimd.encode("Sort", src_mem_pattern={"num": [1], "stride": [1]})
    with pytest.raises(ValueError, match="not one of"):
        gpsimd.encode("SortMerge")
    with pytest.raises(ValueError, match="has_known_opcode"):
        gpsimd.decode(bytes([0x97, 0x10]) + bytes(62))


def test_validate_reports_every_clause():
    assert gpsimd.validate(bytes([0x97, 0x10]) + bytes(62), "v3")[0].clause == "has_known_opcode"
    w = gpsimd.encode("GetSequenceBounds", num_active_channels=2, in_dtype="INT16",
                      reserved1=bytes([1] + [0] * 15))
    clauses = {d.clause for d in gpsimd.validate(w, "v2")}
    assert {"has_valid_nc_get_sequence_bounds", "has_valid_s3d3_seq_bounds_channels",
            "has_valid_seq_bounds_dtype", "s3d3_seq_bounds_reserved_zero"} <= clauses
    d = gpsimd.validate(w, 3)[0]
    assert str(d) == d.message and d.message.startswith("GetSequenceBounds: ")


def test_addresses():
    assert gpsimd.address("sbuf", 127, 229375) == (127 << 18) | 229375
    assert gpsimd.address("PSUM", 127, 16383) == 0x2000000 + (127 << 15) + 16383
    assert gpsimd.describe_address(0x2000000 + (5 << 15) + 4) == {
        "addr": 0x2000000 + (5 << 15) + 4, "space": "psum", "partition": 5, "offset": 4}
    with pytest.raises(ValueError, match="partition"):
        gpsimd.address("sbuf", 128, 0)
