"""nisa.tensor_tensor and nisa.tensor_scalar on gpsimd.nki tiles: NKI's documented
examples written as NKI code, results against an independent NumPy computation (SPEC
§3.8's FP32 and native paths restated in spec_reference), the words they build, the engine
choice and the errors."""

import numpy as np
import pytest

import gpsimd
import gpsimd.nki as nki
import gpsimd.nki.isa as nisa
import gpsimd.nki.language as nl
from spec_reference import bits_op, fp32_op, native_op


def load(t, data):
    nisa.dma_copy(dst=t, src=data)
    return t


def tile(data, dtype=nl.float32, buffer=nl.sbuf):
    return load(nl.ndarray(data.shape, dtype=dtype, buffer=buffer), data)


def f32(bits):
    return np.asarray(bits, dtype=np.uint32).view(np.float32)


# ---- tensor_tensor --------------------------------------------------------------------------


def test_tensor_tensor_nki_example_add_128x512():
    # NKI's nki.isa.tensor_tensor example: c = a + b on (128, 512) tiles, nl.add.
    rng = np.random.default_rng(1)
    a = rng.standard_normal((128, 512)).astype(np.float32)
    b = rng.standard_normal((128, 512)).astype(np.float32)

    @nki.jit
    def kernel(a_in, b_in):
        x, y = tile(a_in), tile(b_in)
        c = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.sbuf)
        nisa.tensor_tensor(dst=c, data1=x, data2=y, op=nl.add)
        out = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.shared_hbm)
        nisa.dma_copy(dst=out, src=c)
        return out

    out = kernel(a, b)
    np.testing.assert_array_equal(out.view(np.uint32), fp32_op("ADD", a, b))
    words = kernel.program.words
    assert len(words) == 1
    fields = gpsimd.decode(words[0])
    assert fields["instruction"] == "TensorTensorArith" and fields["op"] == "ADD"
    assert words[0][0] == 0x41
    assert fields["num_active_channels"] == 128


@pytest.mark.parametrize("op, name", [(nl.subtract, "SUBTRACT"), (np.multiply, "MULT"),
                                      ("max", "MAX"), (nl.less, "IS_LT"),
                                      ("ABSOLUTE_DIFF", "ABSOLUTE_DIFF")])
def test_tensor_tensor_arith_ops_through_fp32(op, name):
    a = np.float32([[1.5, -2.0, np.nan, 0.0], [3.0, -0.0, 7.25, -1e30]])
    b = np.float32([[0.5, 4.0, 1.0, -0.0], [3.0, 2.5, np.inf, 1e30]])
    with nki.Program():
        c = nl.ndarray((2, 4), dtype=nl.float32)
        nisa.tensor_tensor(c, tile(a), tile(b), op)
        np.testing.assert_array_equal(c.numpy().view(np.uint32), fp32_op(name, a, b))


def test_tensor_tensor_strided_views_and_a_cast_result():
    a = np.arange(32, dtype=np.float32).reshape(4, 8) * 0.75
    b = np.float32(3.0) - np.arange(16, dtype=np.float32).reshape(4, 4)
    with nki.Program():
        x, y = tile(a), tile(b)
        c = nl.ndarray((4, 4), dtype=nl.bfloat16)
        nisa.tensor_tensor(c, x[:, ::2], y, nl.multiply)
        prod = f32(fp32_op("MULT", a[:, ::2], b))
        np.testing.assert_array_equal(gpsimd.from_bf16(c.numpy()),
                                      gpsimd.from_bf16(gpsimd.to_bf16(prod)))


def test_tensor_tensor_int32_exact_on_pool_rounded_on_dve():
    # SPEC §4.14's example: INT32 0x7FFFFFFF * 0xD251 saturates through FP32 on dve and
    # wraps natively on pool; 16777217 + 0 is rounded on dve, exact on pool.
    a = np.int32([[0x7FFFFFFF, 16777217, -5]])
    b = np.int32([[0xD251, 0, 7]])
    with nki.Program() as p:
        x, y = tile(a, nl.int32), tile(b, nl.int32)
        on_pool = nl.ndarray((1, 3), dtype=nl.int32)
        nisa.tensor_tensor(on_pool, x, y, nl.multiply, engine=nisa.gpsimd_engine)
        np.testing.assert_array_equal(on_pool.numpy(), native_op("MULT", a, b, "INT32"))
        added = nl.ndarray((1, 3), dtype=nl.int32)
        nisa.tensor_tensor(added, x, y, np.add, engine=nisa.gpsimd_engine)
        np.testing.assert_array_equal(added.numpy(), native_op("ADD", a, b, "INT32"))
        on_dve = nl.ndarray((1, 3), dtype=nl.int32)
        nisa.tensor_tensor(on_dve, x, y, np.add)  # unknown_engine: the default, Vector
        assert on_dve.numpy()[0, 1] == 16777216
        assert added.numpy()[0, 1] == 16777217
        assert len(p.words) == 3
    # The words keep their engine: a replay from the initial state gives the same machine.
    assert p.replay() == p.machine


def test_tensor_tensor_bitvec_is_0x51_on_the_bits():
    a = np.uint16([[0x1234, 0xFFFF, 0x8001]])
    b = np.uint16([[0x0FF0, 0x00FF, 0x8000]])
    with nki.Program() as p:
        c = nl.ndarray((1, 3), dtype=nl.uint16)
        nisa.tensor_tensor(c, tile(a, nl.uint16), tile(b, nl.uint16), nl.bitwise_xor)
        np.testing.assert_array_equal(c.numpy(),
                                      np.reshape(bits_op("BITWISE_XOR", a, b, 16), a.shape))
        assert p.words[0][0] == 0x51


def test_tensor_tensor_psum_operand_and_engine_choice():
    a = np.float32([[1, 2], [3, 4]])
    b = np.float32([[10, 20], [30, 40]])
    with nki.Program() as p:
        acc = tile(a, buffer=nl.psum)
        y = tile(b)
        c = nl.ndarray((2, 2), dtype=nl.float32)
        nisa.tensor_tensor(c, acc, y, nl.add)  # unknown_engine: Vector, which reads PSUM
        np.testing.assert_array_equal(c.numpy().view(np.uint32), fp32_op("ADD", a, b))
        d = nl.ndarray((2, 2), dtype=nl.float32, buffer=nl.psum)
        nisa.tensor_tensor(d, y, y, nl.subtract, engine=nisa.vector_engine)
        np.testing.assert_array_equal(d.numpy(), np.zeros((2, 2), np.float32))
        n = len(p.words)
        # GpSimd cannot access PSUM: the word is invalid, nothing runs.
        before = c.numpy().copy()
        with pytest.raises(nisa.NkiValidationError, match=r"nisa.tensor_tensor.*data1"):
            nisa.tensor_tensor(c, acc, y, nl.multiply, engine=nisa.gpsimd_engine)
        # Both sources in PSUM: tensor_tensor_src_psum_check.
        with pytest.raises(nisa.NkiValidationError, match="tensor_tensor_src_psum_check"):
            nisa.tensor_tensor(c, acc, acc, nl.add)
        assert len(p.words) == n
        np.testing.assert_array_equal(c.numpy(), before)


def test_tensor_tensor_errors():
    with nki.Program() as p:
        x = tile(np.ones((2, 4), np.float32))
        y = tile(np.ones((2, 3), np.float32))
        z = tile(np.ones((3, 4), np.float32))
        c = nl.ndarray((2, 4), dtype=nl.float32)
        with pytest.raises(TypeError, match=r"nisa.tensor_tensor: op: numpy.sin is no ALU op; "
                           r"op takes an ALU_OP name"):
            nisa.tensor_tensor(c, x, x, np.sin)
        with pytest.raises(TypeError, match=r"'fmod' is no ALU op"):
            nisa.tensor_tensor(c, x, x, "fmod")
        # An op TensorTensor does not take, and the element counts: its clauses (SPEC §4.14).
        with pytest.raises(nisa.NkiValidationError) as e:
            nisa.tensor_tensor(c, x, x, nl.divide)
        assert (e.value.argument, e.value.clauses) == ("op", ["s3s3d3_tt_valid_op"])
        with pytest.raises(nisa.NkiValidationError) as e:
            nisa.tensor_tensor(c, x, y, nl.add)
        assert (e.value.argument, e.value.clauses) == ("data2",
                                                       ["s3s3d3_tt_src_element_cnt_check"])
        assert str(e.value) == (
            "nisa.tensor_tensor: data2: the TensorTensorArith word is invalid: data2 "
            "(src1_mem_pattern): s3s3d3_tt_src_element_cnt_check: src1_mem_pattern = "
            "count(src1) = 3, count(src0) = 4, count(src0) must equal count(src1)")
        with pytest.raises(nisa.NkiValidationError, match=r"^nisa.tensor_tensor: dst: .*"
                           r"s3s3d3_tt_dst_element_cnt_check"):
            nisa.tensor_tensor(nl.ndarray((2, 3), dtype=nl.float32), x, x, nl.add)
        with pytest.raises(nisa.NkiValidationError, match=r"3 partitions"):
            nisa.tensor_tensor(c, x, z, nl.add)
        with pytest.raises(nisa.NkiValidationError, match=r"NumPy array is HBM"):
            nisa.tensor_tensor(c, x, np.ones((2, 4), np.float32), nl.add)
        with pytest.raises(nisa.NkiValidationError, match=r"engine"):
            nisa.tensor_tensor(c, x, x, nl.add, engine=nisa.tensor_engine)
        assert len(p.words) == 0


# ---- tensor_scalar --------------------------------------------------------------------------


def _ts_reference(x, op0, s0, rev0, op1, s1, rev1):
    """(x op0 s0) op1 s1 through FP32 by SPEC §4.15, from spec_reference's fp32_op."""
    s0 = np.broadcast_to(np.float32(s0), x.shape)
    t = f32(fp32_op(op0, s0, x) if rev0 else fp32_op(op0, x, s0))
    if op1 == "BYPASS":
        return t.view(np.uint32)
    s1 = np.broadcast_to(np.float32(s1), x.shape)
    return fp32_op(op1, s1, t) if rev1 else fp32_op(op1, t, s1)


def test_tensor_scalar_nki_examples():
    # NKI's nki.isa.tensor_scalar examples: (a * 2.0) + 1.5 with two immediates, and
    # a per-partition (P, 1) operand with reverse0 (operand0 - a).
    rng = np.random.default_rng(7)
    a = rng.standard_normal((128, 64)).astype(np.float32)
    col = rng.standard_normal((128, 1)).astype(np.float32)

    @nki.jit
    def kernel(a_in, col_in):
        x, s = tile(a_in), tile(col_in)
        c = nl.ndarray(x.shape, dtype=nl.float32)
        nisa.tensor_scalar(dst=c, data=x, op0=nl.multiply, operand0=2.0, op1=nl.add,
                           operand1=1.5)
        d = nl.ndarray(x.shape, dtype=nl.float32)
        nisa.tensor_scalar(dst=d, data=x, op0=nl.subtract, operand0=s, reverse0=True)
        return c.numpy(), d.numpy()

    c, d = kernel(a, col)
    np.testing.assert_array_equal(c.view(np.uint32),
                                  _ts_reference(a, "MULT", 2.0, False, "ADD", 1.5, False))
    np.testing.assert_array_equal(d.view(np.uint32),
                                  _ts_reference(a, "SUBTRACT", col, True, "BYPASS", 0, False))
    w = [gpsimd.decode(x) for x in kernel.program.words]
    assert [x["instruction"] for x in w] == ["TensorScalarArith"] * 2
    assert [x[0] for x in kernel.program.words] == [0x43, 0x43]
    assert (w[0]["op0"], w[0]["op1"]) == ("MULT", "ADD")
    assert w[1]["imm0_src"] == "POINTER_IMMEDIATE" and w[1]["op1"] == "BYPASS"


@pytest.mark.parametrize("rev0, rev1", [(False, False), (True, False), (False, True),
                                        (True, True)])
def test_tensor_scalar_two_pointer_operands_is_0x44(rev0, rev1):
    a = np.float32([[1.0, -2.0, 8.0], [0.25, 3.0, -0.0], [5.0, 6.0, 7.0]])
    s0 = np.float32([[2.0], [-1.0], [0.5]])
    s1 = np.float32([[10.0], [100.0], [-3.0]])
    with nki.Program() as p:
        x, p0 = tile(a), tile(s0, buffer=nl.psum)  # a PSUM operand, read on Vector
        p1 = tile(s1)
        c = nl.ndarray((3, 3), dtype=nl.float32)
        nisa.tensor_scalar(c, x, np.subtract, p0, rev0, nl.maximum,
                           p1, rev1)
        np.testing.assert_array_equal(c.numpy().view(np.uint32),
                                      _ts_reference(a, "SUBTRACT", s0, rev0, "MAX", s1, rev1))
        assert p.words[0][0] == 0x44


def test_tensor_scalar_bitvec_on_int32():
    a = np.int32([[0x1234, -1, 0x7F00FF00]])
    with nki.Program() as p:
        c = nl.ndarray((1, 3), dtype=nl.int32)
        nisa.tensor_scalar(c, tile(a, nl.int32), nl.bitwise_and, 0xFF0, op1=np.left_shift,
                           operand1=4)
        want = bits_op("LOGICAL_SHIFT_LEFT", bits_op("BITWISE_AND", a, [0xFF0] * 3, 32),
                       [4] * 3, 32)
        np.testing.assert_array_equal(c.numpy().view(np.uint32), np.uint32(want).reshape(a.shape))
        assert p.words[0][0] == 0x53


def test_tensor_scalar_bitvec_pointer_operands_is_0x54():
    a = np.uint16([[0x1234, 0xFFFF], [0x00F0, 0x8001]])
    m = np.uint16([[0x00FF], [0xF0F0]])
    k = np.uint16([[0x1000], [0x0001]])
    with nki.Program() as p:
        c = nl.ndarray((2, 2), dtype=nl.uint16)
        nisa.tensor_scalar(c, tile(a, nl.uint16), nl.bitwise_and, tile(m, nl.uint16),
                           op1=nl.bitwise_or, operand1=tile(k, nl.uint16))
        t = bits_op("BITWISE_AND", a, np.repeat(m, 2, axis=1), 16)
        want = bits_op("BITWISE_OR", t, np.repeat(k, 2, axis=1).ravel(), 16)
        np.testing.assert_array_equal(c.numpy(), np.uint16(want).reshape(a.shape))
        assert p.words[0][0] == 0x54
        with pytest.raises(nisa.NkiValidationError, match=r"operand0.*UINT16"):
            nisa.tensor_scalar(c, tile(a, nl.uint16), nl.bitwise_and,
                               tile(np.float32([[1], [2]])))
    assert p.replay() == p.machine


def test_tensor_scalar_engine_choice():
    a = np.float32([[1.0, 2.0]])
    with nki.Program() as p:
        x = tile(a)
        c = nl.ndarray((1, 2), dtype=nl.float32)
        nisa.tensor_scalar(c, x, nl.add, 1.0, engine=nisa.vector_engine)
        np.testing.assert_array_equal(c.numpy(), np.float32([[2.0, 3.0]]))
        # Only the Vector engine runs TensorScalar (SPEC §3.9): unsupported-op, nothing kept.
        with pytest.raises(gpsimd.Fault, match="unsupported-op"):
            nisa.tensor_scalar(c, x, nl.add, 5.0, engine=nisa.gpsimd_engine)
        np.testing.assert_array_equal(c.numpy(), np.float32([[2.0, 3.0]]))
        assert len(p.words) == 1


def test_tensor_scalar_errors():
    with nki.Program() as p:
        x = tile(np.ones((2, 4), np.float32))
        i = tile(np.ones((2, 4), np.int32), nl.int32)
        c = nl.ndarray((2, 4), dtype=nl.float32)
        with pytest.raises(TypeError, match=r"nisa.tensor_scalar: op0: numpy.sin is no ALU "
                           r"op; op0 takes an ALU_OP name"):
            nisa.tensor_scalar(c, x, np.sin, 1.0)
        # Which ops TensorScalar takes is its clause tensor_scalar_valid_ops (SPEC §4.15).
        with pytest.raises(nisa.NkiValidationError, match=r"^nisa.tensor_scalar: op1: the "
                           r"TensorScalarArith word is invalid: op1: tensor_scalar_valid_ops: "
                           r"op1 = DIVIDE \(0x07\), op0 is ADD \(0x04\), op0 and op1 must not "
                           "be DIVIDE, POW or MOD"):
            nisa.tensor_scalar(c, x, nl.add, 1.0, op1=np.divide, operand1=2.0)
        with pytest.raises(nisa.NkiValidationError, match=r"^nisa.tensor_scalar: op0: the "
                           r"TensorScalarBitvec word is invalid: op0: tensor_scalar_valid_ops: "
                           r"op0 = ADD \(0x04\), op1 is BITWISE_AND \(0x0a\), both ops must "
                           "be bitvec ops"):
            nisa.tensor_scalar(i, i, nl.add, 1, op1=nl.bitwise_and, operand1=1)
        with pytest.raises(nisa.NkiValidationError, match=r"operand1.*op1 is None"):
            nisa.tensor_scalar(c, x, nl.add, 1.0, operand1=2.0)
        with pytest.raises(nisa.NkiValidationError, match=r"operand1: is None but op1"):
            nisa.tensor_scalar(c, x, nl.add, 1.0, op1=nl.add)
        with pytest.raises(nisa.NkiValidationError, match=r"operand0.*not exact in FP32"):
            nisa.tensor_scalar(c, x, nl.add, 16777217)
        with pytest.raises(nisa.NkiValidationError, match=r"operand0.*one element in each of "
                           "the 2 partitions"):
            nisa.tensor_scalar(c, x, nl.add, x)
        with pytest.raises(nisa.NkiValidationError, match=r"^nisa.tensor_scalar: dst: .*"
                           r"tensor_scalar_tensor_chk: dst_mem_pattern = 8 elements "
                           r"\(src_mem_pattern has 4\)"):
            nisa.tensor_scalar(nl.ndarray((2, 8), dtype=nl.float32), x, nl.add, 1.0)
        assert len(p.words) == 0
