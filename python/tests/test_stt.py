"""nisa.tensor_tensor_scan, nisa.scalar_tensor_tensor and nisa.select_reduce (SPEC §4.20,
§4.21, §4.25) against NumPy's float32 arithmetic, written from SPEC's examples."""

import numpy as np
import pytest

import gpsimd
import gpsimd.nki as nki
import gpsimd.nki.isa as nisa
import gpsimd.nki.language as nl
from gpsimd import _lower as lower


def tile(a, dtype=nl.float32):
    t = nl.ndarray(a.shape, dtype=dtype)
    nisa.dma_copy(dst=t, src=a)
    return t


def test_cumsum_is_numpy_cumsum_float32_bit_for_bit():
    rng = np.random.default_rng(1)
    x = (rng.standard_normal((8, 64)) * 10.0 ** rng.integers(-3, 4, (8, 64))).astype(np.float32)
    init = rng.standard_normal((8, 1)).astype(np.float32)
    with nki.Program() as p:
        ones = tile(np.ones((8, 64), np.float32))
        data = tile(x)
        s = tile(init)
        out = nl.ndarray((8, 64), dtype=nl.float32)
        nisa.tensor_tensor_scan(dst=out, data0=ones, data1=data, initial=s, op0=nl.multiply,
                                op1=nl.add)
        got = out.numpy()
    want = np.cumsum(np.concatenate([init, x], axis=1), axis=1, dtype=np.float32)[:, 1:]
    assert got.view(np.uint32).tolist() == want.view(np.uint32).tolist()
    assert p.words[0][0] == 0xE5 and p.words[0][39] == 1  # initial through a pointer


def test_scan_recurrence_and_reverse_both_example():
    a = np.float32([[0.5, 1.25, -0.75, 3.0, 0.1, -2.0]])
    b = np.float32([[1.0, -0.2, 7.0, 0.01, -5.0, 2.5]])
    with nki.Program():
        c = nl.ndarray((1, 6), dtype=nl.float32)
        nisa.tensor_tensor_scan(dst=c, data0=tile(a), data1=tile(b), initial=0.0,
                                op0=nl.multiply, op1=nl.add)
        got = c.numpy()
        d = nl.ndarray((1, 3), dtype=nl.float32)
        nisa.tensor_tensor_scan(dst=d, data0=tile(np.float32([[1, 2, 3]])),
                                data1=tile(np.float32([[10, 20, 30]])), initial=100,
                                op0=nl.subtract, op1=nl.subtract, reverse0=True, reverse1=True)
        assert d.numpy().tolist() == [[-89.0, 111.0, -78.0]]
    c_prev = np.float32(0)
    for i in range(6):
        c_prev = np.float32(a[0, i] * c_prev) + b[0, i]
        assert got[0, i].view(np.uint32) == np.float32(c_prev).view(np.uint32)


def test_scalar_tensor_tensor_rmsnorm_step_and_reverse_example():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((4, 16)).astype(np.float32)
    s = rng.standard_normal((4, 1)).astype(np.float32)
    gamma = rng.standard_normal((4, 16)).astype(np.float32)
    with nki.Program() as p:
        xt, st, gt = tile(x), tile(s), tile(gamma)
        nisa.scalar_tensor_tensor(dst=xt, data=xt, op0=nl.multiply, operand0=st,
                                  op1=nl.multiply, operand1=gt)
        got = xt.numpy()
        c = nl.ndarray((1, 2), dtype=nl.float32)
        nisa.scalar_tensor_tensor(dst=c, data=tile(np.float32([[2, -3]])), op0=nl.subtract,
                                  operand0=5.0, op1=nl.subtract,
                                  operand1=tile(np.float32([[10, 20]])), reverse0=True)
        assert c.numpy().tolist() == [[-7.0, -12.0]]
    want = (x * s) * gamma
    assert got.view(np.uint32).tolist() == want.view(np.uint32).tolist()
    assert p.words[0][0] == 0x9D and p.words[1][38] == 1


def test_select_reduce_where_and_max_with_reduce_res():
    rng = np.random.default_rng(0)
    on_true = rng.standard_normal((16, 32)).astype(np.float32) * 40
    on_false = rng.standard_normal((16, 1)).astype(np.float32) * 100
    pred = rng.random((16, 32)) < 0.5
    with nki.Program() as p:
        pt = tile(pred.astype(np.uint8), nl.uint8)
        ot, ft = tile(on_true), tile(on_false)
        dst = nl.ndarray((16, 32), dtype=nl.float32)
        res = nl.ndarray((16, 1), dtype=nl.float32)
        nisa.select_reduce(dst=dst, predicate=pt, on_true=ot, on_false=ft, reduce_res=res,
                           reduce_cmd=nisa.reduce_cmd.reset_reduce)
        got, got_max = dst.numpy(), res.numpy()
        rev = nl.ndarray((16, 32), dtype=nl.float32)
        nisa.select_reduce(dst=rev, predicate=pt, on_true=ot, on_false=-1.0, reverse_pred=True)
        got_rev = rev.numpy()
    want = np.where(pred, on_true, on_false)
    assert got.view(np.uint32).tolist() == want.view(np.uint32).tolist()
    assert got_max[:, 0].tolist() == np.max(want, axis=1).tolist()
    assert got_rev.tolist() == np.where(~pred, on_true, np.float32(-1.0)).tolist()
    assert [w[0] for w in p.words] == [0xEA, 0x9B, 0xEA]


def test_select_reduce_refuses_what_nki_refuses():
    with nki.Program():
        pt = nl.ndarray((2, 4), dtype=nl.uint8)
        ot = nl.ndarray((2, 4), dtype=nl.float32)
        dst = nl.ndarray((2, 4), dtype=nl.float32)
        with pytest.raises(gpsimd.NkiValidationError, match="reduce_cmd"):
            nisa.select_reduce(dst=dst, predicate=pt, on_true=ot, on_false=0.0,
                               reduce_cmd=nisa.reduce_cmd.reset)
        with pytest.raises(gpsimd.NkiValidationError, match="reduce_res"):
            nisa.select_reduce(dst=dst, predicate=pt, on_true=ot, on_false=0.0,
                               reduce_res=nl.ndarray((2, 2), dtype=nl.float32))


def test_lowering_fields():
    t = {"offset": 0, "num": [4]}
    w = lower.tensor_tensor_scan(op0="MULT", op1="ADD", in_dtypes=("FP32", "BF16"),
                                 out_dtype="FP32", channels=2, data0=t, data1=t, dst=t,
                                 initial=1.5, reverse1=True)
    assert (w[0], w[38], w[39], w[40], w[43]) == (0xE5, 2, 0, 0x6A, 0x0A)
    assert bytes(w[60:64]) == np.float32(1.5).tobytes()
    w = lower.scalar_tensor_tensor(op0="BITWISE_AND", op1="BITWISE_OR", in_dtypes=("INT32",) * 2,
                                   out_dtype="INT32", channels=1, data=t, operand1=t, dst=t,
                                   operand0={"partition": 0, "offset": 256},
                                   operand0_dtype="INT32")
    assert (w[0], w[39], w[43]) == (0x9E, 1, 0x08)
    w = lower.select_reduce(pred_dtype="UINT8", in_dtype="FP32", out_dtype="FP32", channels=1,
                            predicate=t, on_true=t, dst=t, on_false=-9984.0, reverse_pred=True,
                            reduce_cmd="ZERO_ACCUMULATE")
    assert (w[0], w[36], w[37], w[38], w[44]) == (0xEA, 0x00, 0x08, 1, 3)
    assert w.arguments["imm0"] == "on_false" and w.arguments["op1"] == "reduce_op"


def test_numpy_faces_over_several_blocks_of_rows():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((200, 40)).astype(np.float32)
    init = rng.standard_normal((200, 1)).astype(np.float32)
    got = gpsimd.tensor_tensor_scan(np.ones_like(x), x, init, np.multiply, np.add)
    want = np.cumsum(np.concatenate([init, x], axis=1), axis=1, dtype=np.float32)[:, 1:]
    assert got.view(np.uint32).tolist() == want.view(np.uint32).tolist()
    # A BF16 result: each FP32 prefix sum rounded once (the carry stays FP32).
    bf = gpsimd.tensor_tensor_scan(np.ones_like(x), x, 0.0, "mult", "add", dtype="BF16")
    want0 = np.cumsum(x, axis=1, dtype=np.float32)
    assert bf.view(np.uint16).tolist() == gpsimd.to_bf16(want0).tolist()
    g = rng.standard_normal((200, 40)).astype(np.float32)
    got = gpsimd.scalar_tensor_tensor(x, "mult", init, "mult", g)
    assert got.view(np.uint32).tolist() == ((x * init) * g).view(np.uint32).tolist()


def test_numpy_select_reduce_over_several_blocks_of_rows():
    rng = np.random.default_rng(4)
    x = rng.standard_normal((150, 24)).astype(np.float32)
    pred = rng.random((150, 24)) < 0.3
    f = rng.standard_normal((150, 1)).astype(np.float32)
    out, mx = gpsimd.select_reduce(pred, x, f)
    want = np.where(pred, x, f)
    assert out.view(np.uint32).tolist() == want.view(np.uint32).tolist()
    assert mx.tolist() == np.max(want, axis=1).tolist()
    out, mx = gpsimd.select_reduce(pred.astype(np.int16), x, -2.5, reduce=False,
                                   reverse_pred=True)
    assert mx is None and out.tolist() == np.where(~pred, x, np.float32(-2.5)).tolist()
    with pytest.raises(gpsimd.Fault, match="unsupported-op"):
        gpsimd.select_reduce(pred, x, 0.0, generation="v2")
