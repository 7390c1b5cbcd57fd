"""The engine input (SPEC §3.9) through Python: Machine.run(engine=...) and
gpsimd.validate(engine=...) on TensorTensorArith words, values worked out from SPEC §4.14."""

import numpy as np
import pytest

import gpsimd


def tt_word(lo, hi, out, op, src0=(0, 0), src1=(0, 0x40), dst=(0, 0x100), n=4, space0="sbuf"):
    def tensor(where, space="sbuf"):
        return {"space": space, "partition": where[0], "offset": where[1], "num": [n, 1, 1]}

    return gpsimd.encode("TensorTensorArith", num_active_channels=1, in0_in1_dtype=(lo, hi),
                         out_dtype=out, op=op, src0_mem_pattern=tensor(src0, space0),
                         src1_mem_pattern=tensor(src1), dst_mem_pattern=tensor(dst))


def run_add(engine, a, b):
    m = gpsimd.Machine("v3")
    m.view("sbuf", np.uint32, 0, 0, 1)[:] = a
    m.view("sbuf", np.uint32, 0, 0x40, 1)[:] = b
    m.run(tt_word("UINT32", "UINT32", "UINT32", "ADD", n=1), engine=engine)
    return int(m.view("sbuf", np.uint32, 0, 0x100, 1)[0])


def test_the_engine_changes_the_arithmetic():
    # SPEC §4.14: UINT32 16777217 + 0 is 16777216 through FP32 (dve, the default) and
    # 16777217 on pool's native integer path.
    assert run_add(None, 16777217, 0) == 16777216
    assert run_add("dve", 16777217, 0) == 16777216
    assert run_add("pool", 16777217, 0) == 16777217
    # NKI's names, any case.
    assert run_add("gpsimd", 16777217, 0) == 16777217
    assert run_add("Vector", 16777217, 0) == 16777216
    assert run_add("POOL", 16777217, 0) == 16777217


def test_act_faults_unsupported_op_and_changes_nothing():
    m = gpsimd.Machine("v3")
    m.view("sbuf", np.uint32, 0, 0, 1)[:] = 5
    before = m.state_hash()
    for engine in ("act", "scalar"):
        with pytest.raises(gpsimd.Fault) as e:
            m.run(tt_word("UINT32", "UINT32", "UINT32", "ADD", n=1), engine=engine)
        assert e.value.kind == "unsupported-op"
    assert m.state_hash() == before


def test_validate_takes_the_engine_for_the_psum_rule():
    w = tt_word("FP32", "FP32", "FP32", "ADD", space0="psum")
    assert gpsimd.validate(w, "v3") == []
    assert gpsimd.validate(w, "v3", engine="dve") == []
    assert gpsimd.validate(w, "v3", engine="act") == []
    diags = gpsimd.validate(w, "v3", engine="pool")
    assert [d.clause for d in diags] == ["tensor3d_valid"]
    assert diags[0].field == "src0_mem_pattern"
    assert [d.clause for d in gpsimd.validate(w, "v3", engine="gpsimd")] == ["tensor3d_valid"]


def test_bad_engines_are_errors_naming_the_call():
    w = tt_word("FP32", "FP32", "FP32", "ADD")
    m = gpsimd.Machine("v3")
    with pytest.raises(ValueError, match=r"Machine.run: engine 'gpu' must be dve, pool or act"):
        m.run(w, engine="gpu")
    with pytest.raises(TypeError, match=r"Machine.run: engine must be a string"):
        m.run(w, engine=1)
    with pytest.raises(ValueError, match=r"validate: engine 'tensor' must be"):
        gpsimd.validate(w, "v3", engine="tensor")
    with pytest.raises(ValueError, match=r"Machine.run: engine"):
        m.run(".nc v3\n", engine="nope")


def test_instructions_without_an_engine_input_ignore_it():
    # Sort runs on POOL whatever engine is given (SPEC §3.9).
    w = gpsimd.encode("Sort", num_active_channels=1, in_out_dtype=("FP32", "FP32"),
                      comparison="IS_LT", stable=1,
                      src_mem_pattern={"space": "sbuf", "partition": 0, "offset": 0, "num": [4]},
                      dst_mem_pattern={"space": "sbuf", "partition": 0, "offset": 64,
                                       "num": [2, 4]})
    for engine in ("dve", "act", None):
        m = gpsimd.Machine("v3")
        m.view("sbuf", np.float32, 0, 0, 4)[:] = [3, 1, 2, 0]
        assert m.run(w, engine=engine) == 1
        np.testing.assert_array_equal(m.view("sbuf", np.float32, 0, 64, 8)[::2], [0, 1, 2, 3])
