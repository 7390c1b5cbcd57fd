"""gpsimd.nki.isa and gpsimd.nki.language have the names, argument order, keyword names
and defaults of the public NKI 0.3.0 API (aws-neuron-sdk nki/api/nki/isa/__init__.py,
Neuron SDK 2.29.0); the calls gpsimd does not model raise NotImplementedError naming
the instruction, never an approximation."""

import ast
import inspect
from enum import Enum

import numpy as np
import pytest

import gpsimd
import gpsimd.nki as nki
import gpsimd.nki.isa as nisa
import gpsimd.nki.language as nl

# The signatures of the nki.isa stub of NKI 0.3.0, in its order (its def lines).
STUB = """
def get_nc_version(): ...
def dma_copy(dst, src, priority=None, oob_mode=oob_mode.error, dge_mode=dge_mode.unknown, engine=engine.unknown, name=None): ...
def tensor_copy(dst, src, engine=engine.unknown, name=None): ...
def memset(dst, value, engine=engine.unknown, name=None): ...
def tensor_copy_predicated(dst, src, predicate, reverse_pred=False, name=None): ...
def nc_matmul(dst, stationary, moving, is_stationary_onezero=False, is_moving_onezero=False, is_transpose=False, accumulate=None, tile_position=(), tile_size=(), perf_mode=matmul_perf_mode.none, name=None): ...
def nc_matmul_mx(dst, stationary, moving, stationary_scale, moving_scale, tile_position=None, tile_size=None, accumulate=None, name=None): ...
def nc_transpose(dst, data, engine=engine.unknown, name=None): ...
def dma_transpose(dst, src, axes=None, priority=None, dge_mode=dge_mode.unknown, oob_mode=oob_mode.error, name=None): ...
def tensor_tensor(dst, data1, data2, op, engine=engine.unknown, name=None): ...
def tensor_scalar(dst, data, op0, operand0, reverse0=False, op1=None, operand1=None, reverse1=False, engine=engine.unknown, name=None): ...
def tensor_reduce(dst, op, data, axis, negate=False, keepdims=False, name=None): ...
def tensor_partition_reduce(dst, op, data, name=None): ...
def tensor_scalar_cumulative(dst, src, op0, op1, imm0, imm1=None, reduce_cmd=reduce_cmd.reset_reduce, name=None): ...
def activation(dst, op, data, bias=None, scale=1.0, reduce_op=None, reduce_res=None, reduce_cmd=reduce_cmd.idle, name=None): ...
def activation_reduce(dst, op, data, reduce_op, reduce_res, bias=None, scale=1.0, name=None): ...
def activate2(dst, op, data, imm0, imm1, op0, op1, relu_param=0.0, reverse0=False, reverse1=False, reduce_op=None, reduce_res=None, reduce_cmd=reduce_cmd.idle, name=None): ...
def iota(dst, pattern, offset=0, channel_multiplier=0, name=None): ...
def affine_select(dst, pattern, channel_multiplier, on_true_tile, on_false_value, cmp_op=equal, offset=0, name=None): ...
def local_gather(dst, src_buffer, index, num_elem_per_idx=1, num_valid_indices=None, name=None): ...
def nc_n_gather(dst, data, indices, name=None): ...
def bn_stats(dst, data, name=None): ...
def bn_aggr(dst, data, name=None): ...
def tensor_tensor_scan(dst, data0, data1, initial, op0, op1, reverse0=False, reverse1=False, name=None): ...
def nc_stream_shuffle(dst, src, shuffle_mask, name=None): ...
def rng(dst, engine=engine.unknown, name=None): ...
def dropout(dst, data, prob, name=None): ...
def set_rng_seed(src_seeds, name=None): ...
def rand_set_state(src_seeds, engine=engine.unknown, name=None): ...
def rand_get_state(dst, engine=engine.unknown, name=None): ...
def rand2(dst, min, max, name=None): ...
def exponential(dst, src, max_value=0.0, reduce_res=None, reduce_cmd: reduce_cmd=reduce_cmd.idle, reduce_init=0.0, name=None): ...
def reciprocal(dst, data, name=None): ...
def max8(dst, src, name=None): ...
def sequence_bounds(dst, segment_ids, name=None): ...
def scalar_tensor_tensor(dst, data, op0, operand0, op1, operand1, reverse0=False, reverse1=False, name=None): ...
def tensor_scalar_reduce(dst, data, op0, operand0, reduce_op, reduce_res, reverse0=False, reduce_cmd: reduce_cmd=reduce_cmd.reset_reduce, reduce_init=None, name=None): ...
def core_barrier(data, cores, engine=engine.gpsimd, name=None): ...
def dma_compute(dst, srcs, reduce_op, scales=None, unique_indices=True, oob_mode=oob_mode.error, name=None): ...
def quantize_mx(dst, src, dst_scale, name=None): ...
def range_select(dst, on_true_tile, comp_op0, comp_op1, bound0, bound1, reduce_cmd=reduce_cmd.reset_reduce, reduce_res=None, reduce_op=maximum, range_start=0, on_false_value=..., name=None): ...
def select_reduce(dst, predicate, on_true, on_false, reduce_res=None, reduce_cmd=reduce_cmd.idle, reduce_op=maximum, reverse_pred=False, name=None): ...
def sendrecv(src, dst, send_to_rank, recv_from_rank, pipe_id, dma_engine=dma_engine.dma, name=None): ...
def register_alloc(x: int | None=None): ...
def register_move(dst, src): ...
def register_load(dst, src): ...
def register_store(dst, src): ...
def nc_find_index8(dst, data, vals, name=None): ...
def nc_match_replace8(dst, data, vals, imm: float, dst_idx=None, name=None): ...
def nonzero_with_count(dst, src, index_offset=0, padding_val=-1, name=None): ...
"""

STUB_ENUMS = {
    "engine": ["tensor", "vector", "scalar", "gpsimd", "dma", "sync", "unknown"],
    "reduce_cmd": ["idle", "reset", "reduce", "reset_reduce", "load_reduce"],
    "dge_mode": ["unknown", "swdge", "hwdge", "none"],
    "oob_mode": ["error", "skip"],
    "matmul_perf_mode": ["none", "double_row"],
    "nc_version": ["gen2", "gen3", "gen4"],
    "dma_engine": ["dma", "gpsimd_dma"],
}

MODELLED = {"dma_copy", "tensor_copy_predicated", "iota", "affine_select", "max8",
            "sequence_bounds", "range_select", "nc_find_index8", "nc_match_replace8",
            "nonzero_with_count", "get_nc_version", "tensor_copy", "tensor_tensor",
            "tensor_scalar", "memset", "tensor_reduce", "tensor_scalar_cumulative",
            "tensor_tensor_scan", "scalar_tensor_tensor", "select_reduce"}


def stub_functions():
    return [node for node in ast.parse(STUB).body if isinstance(node, ast.FunctionDef)]


def _default_text(value):
    """A default as the stub's source writes it."""
    if value is Ellipsis:
        return "..."
    if isinstance(value, Enum):
        return f"{type(value).__name__}.{value.name}"
    if getattr(value, "is_nki_op", False):
        return value.__name__
    return repr(value)


def test_every_stub_function_is_in_gpsimd_nki_isa_in_order():
    names = [f.name for f in stub_functions()]
    ours = [n for n in nisa.__all__ if inspect.isfunction(getattr(nisa, n))]
    assert ours == names


@pytest.mark.parametrize("fn", stub_functions(), ids=lambda f: f.name)
def test_signature_is_the_stubs(fn):
    sig = inspect.signature(getattr(nisa, fn.name))
    params = list(sig.parameters.values())
    args = fn.args.args
    assert [p.name for p in params] == [a.arg for a in args]
    assert all(p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD for p in params)
    defaults = [None] * (len(args) - len(fn.args.defaults)) + list(fn.args.defaults)
    for p, d in zip(params, defaults):
        if d is None:
            assert p.default is inspect.Parameter.empty, p.name
        else:
            assert _default_text(p.default) == ast.unparse(d), p.name


def test_enums_and_engine_aliases_are_the_stubs():
    for name, members in STUB_ENUMS.items():
        assert [m.name for m in getattr(nisa, name)] == members
    assert nisa.tensor_engine is nisa.engine.tensor and nisa.gpsimd_engine is nisa.engine.gpsimd
    assert nisa.vector_engine is nisa.engine.vector and nisa.scalar_engine is nisa.engine.scalar
    assert nisa.unknown_engine is nisa.engine.unknown
    assert issubclass(nisa.NkiValidationError, Exception)
    assert nisa.NkiValidationError is gpsimd.NkiValidationError


def test_language_signatures_are_nki_030s():
    # nki.language.ndarray(shape, dtype, buffer=MemoryRegion.sbuf, name='', address=None)
    sig = inspect.signature(nl.ndarray)
    assert list(sig.parameters) == ["shape", "dtype", "buffer", "name", "address"]
    assert sig.parameters["buffer"].default is nl.sbuf
    assert sig.parameters["name"].default == "" and sig.parameters["address"].default is None
    assert list(inspect.signature(nl.zeros).parameters) == ["shape", "dtype", "buffer", "name"]
    assert list(inspect.signature(nl.full).parameters) == ["shape", "fill_value", "dtype",
                                                           "buffer", "name"]
    for name in ("bool_", "int8", "int16", "int32", "uint8", "uint16", "uint32", "float16",
                 "float32", "bfloat16", "tfloat32", "float8_e4m3", "float8_e5m2"):
        d = getattr(nl, name)
        assert isinstance(d, str) and d == ("bool" if name == "bool_" else name)
    assert nl.fp32.min == float(np.finfo(np.float32).min)
    assert nl.tile_size.pmax == 128


@pytest.mark.parametrize("fn", [f for f in stub_functions() if f.name not in MODELLED],
                         ids=lambda f: f.name)
def test_calls_gpsimd_does_not_model_raise_naming_the_instruction(fn):
    required = len(fn.args.args) - len(fn.args.defaults)
    with nki.Program() as p:
        with pytest.raises(NotImplementedError, match=rf"nisa\.{fn.name} is "):
            getattr(nisa, fn.name)(*[None] * required)
        assert len(p.words) == 0  # nothing ran, nothing was recorded


def test_operators_on_tiles_are_tensor_tensor_and_tensor_scalar():
    with nki.Program() as p:
        x = nl.full((2, 4), 3.0, dtype=nl.float32)
        assert nl.add(x, x).numpy().tolist() == [[6.0] * 4] * 2
        assert nl.equal(x, 3.0).numpy().tolist() == [[1.0] * 4] * 2
        with pytest.raises(nisa.NkiValidationError, match="nl.add: x: expected a tile"):
            nl.add(1, 2)
    assert [w[0] for w in p.words] == [0x41, 0x43]


def test_dtypes_gpsimd_has_none_for_are_refused():
    with nki.Program():
        for d in (nl.tfloat32, nl.float8_e4m3fn, nl.float4_e2m1fn_x4):
            with pytest.raises(NotImplementedError, match="gpsimd has no such dtype"):
                nl.ndarray((1, 4), dtype=d)
        # NumPy dtypes are NKI dtypes too.
        assert nl.ndarray((1, 4), dtype=np.float16).dtype == nl.float16


def test_calls_need_a_program():
    with pytest.raises(RuntimeError, match=r"nl.ndarray: no gpsimd.nki program is being built"):
        nl.ndarray((1, 4), dtype=nl.float32)
    assert isinstance(nl.ndarray((1, 4), dtype=nl.float32, buffer=nl.hbm), np.ndarray)
