"""TensorScalar (SPEC §4.15) words through the Python API: Machine.run and validate with the
engine input of SPEC §3.9, and the TENS_SCALAR_REV_OPS names."""

import numpy as np
import pytest

import gpsimd


def one_minus(n=4, **extra):
    """1.0 - x (op0 SUBTRACT, imm0 1.0, reverse FIRST) on n FP32 elements of partition 0."""
    fields = dict(num_active_channels=1, in_dtype="FP32", out_dtype="FP32", op0="SUBTRACT",
                  imm0=1.0, reverse_operands="FIRST",
                  src_mem_pattern={"offset": 0, "num": [n]},
                  dst_mem_pattern={"offset": 256, "num": [n]})
    fields.update(extra)
    return gpsimd.encode("TensorScalarArith", **fields)


def test_one_minus_x_is_numpys():
    m = gpsimd.Machine("v3")
    x = np.array([3.0, 0.25, -2.0, 1.0], dtype=np.float32)
    m.sbuf[0, :16] = x.view(np.uint8)
    assert m.run(one_minus()) == 1
    got = m.sbuf[0, 256:272].copy().view(np.float32)
    np.testing.assert_array_equal(got.view(np.uint32), (np.float32(1.0) - x).view(np.uint32))


def test_reverse_operands_is_named():
    d = gpsimd.decode(one_minus())
    assert d["reverse_operands"] == "FIRST" and d["op1"] == "BYPASS"
    assert gpsimd.encode("TensorScalarArith", reverse_operands=3)[38] == 3


@pytest.mark.parametrize("engine", ["pool", "act", "gpsimd", "scalar", "POOL"])
def test_other_engines_fault_unsupported_op(engine):
    m = gpsimd.Machine("v3")
    before = m.copy()
    with pytest.raises(gpsimd.Fault) as e:
        m.run(one_minus(), engine=engine)
    assert e.value.kind == "unsupported-op"
    assert m == before


@pytest.mark.parametrize("engine", [None, "dve", "vector", "Vector"])
def test_dve_runs_it(engine):
    assert gpsimd.Machine("v4").run(one_minus(), engine=engine) == 1


def test_the_psum_rule_follows_the_engine():
    word = one_minus(src_mem_pattern={"space": "psum", "partition": 0, "offset": 0, "num": [4]})
    assert gpsimd.validate(word, "v3") == []
    assert gpsimd.validate(word, "v3", engine="act") == []
    assert [d.clause for d in gpsimd.validate(word, "v3", engine="pool")] == ["mem3d_valid"]


def test_a_bad_engine_names_the_allowed_ones():
    with pytest.raises(ValueError, match="Machine.run: engine 'tpu' must be dve, pool or act"):
        gpsimd.Machine().run(one_minus(), engine="tpu")
    with pytest.raises(TypeError, match=r"validate: engine must be a string \(dve, pool or act.*got 3"):
        gpsimd.validate(one_minus(), "v3", engine=3)
