"""What every high-level function shares: the one dtype rule, Python lists, ``strict=``,
``return_words=``, errors that name the function and the argument; and the package's
``__version__``, ``Machine.run(trace=...)``, type hints."""

import inspect
import os
import pathlib
import subprocess
import typing

import numpy as np
import pytest

import gpsimd
import spec_reference as ref

F32 = np.array([[3.0, -1.0, 2.0, 7.0, 0.5, -4.0, 9.0, 1.0]], dtype=np.float32)

# One call of every high-level function on small float32 data (or its natural input).
CALLS = {
    "tensor_tensor": lambda **kw: gpsimd.tensor_tensor(F32, F32, "add", **kw),
    "tensor_scalar": lambda **kw: gpsimd.tensor_scalar(F32, "mult", 2.0, op1="add",
                                                       operand1=[[1.0]], **kw),
    "tensor_scalar_cumulative": lambda **kw: gpsimd.tensor_scalar_cumulative(F32, "mult", "add",
                                                                             2.0, **kw),
    "tensor_tensor_scan": lambda **kw: gpsimd.tensor_tensor_scan(F32, F32, 1.0, "mult", "add",
                                                                 **kw),
    "scalar_tensor_tensor": lambda **kw: gpsimd.scalar_tensor_tensor(F32, "mult", [[2.0]], "add",
                                                                     F32, **kw),
    "range_select": lambda **kw: gpsimd.range_select(F32, ">=", "<", 1, 5, **kw),
    "select_reduce": lambda **kw: gpsimd.select_reduce(F32 > 2, F32, -1.0, **kw),
    "tensor_scalar_select": lambda **kw: gpsimd.tensor_scalar_select(F32, -1.0, True, **kw),
    "sequence_bounds": lambda **kw: gpsimd.sequence_bounds(np.array([0, 1, 1, 2], np.int32), **kw),
    "sort": lambda **kw: gpsimd.sort(F32, descending=True, **kw),
    "affine_select": lambda **kw: gpsimd.affine_select([[-1, 8]], 1, F32, 0.0, **kw),
    "causal_mask": lambda **kw: gpsimd.causal_mask(F32, **kw),
    "iota": lambda **kw: gpsimd.iota([[1, 8]], **kw),
    "nonzero_with_count": lambda **kw: gpsimd.nonzero_with_count(F32, **kw),
    "tensor_copy_predicated": lambda **kw: gpsimd.tensor_copy_predicated(F32, 0.0, F32 > 2, **kw),
    "dve_read_accumulator": lambda **kw: gpsimd.dve_read_accumulator(F32[0], dtype="BF16", **kw),
    "max8": lambda **kw: gpsimd.max8(F32, **kw),
    "nc_find_index8": lambda **kw: gpsimd.nc_find_index8(F32, F32[0], **kw),
    "nc_match_replace8": lambda **kw: gpsimd.nc_match_replace8(F32, F32[0], -1.0, **kw),
    "topk": lambda **kw: gpsimd.topk(F32, 3, **kw),
    "tensor_copy": lambda **kw: gpsimd.tensor_copy(F32, dtype="BF16", engine="vector", **kw),
    "cast": lambda **kw: gpsimd.cast(F32, dtype=np.int32, **kw),
    "memset": lambda **kw: gpsimd.memset((2, 8), 0.5, dtype="BF16", **kw),
    "tensor_reduce": lambda **kw: gpsimd.tensor_reduce(F32.reshape(1, 2, 4), "ADD", **kw),
}

HIGH_LEVEL = sorted(CALLS)


def test_the_calls_cover_every_high_level_function():
    modules = (gpsimd.alu, gpsimd.ops, gpsimd.predicates, gpsimd.search)
    public = {name for m in modules for name in m.__all__} - {"alu_ops", "UFUNC_OPS"}
    assert public == set(CALLS)


def _same(a, b):
    if isinstance(a, tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if a is None or b is None:
        return a is b
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


# ---- strict= and return_words= ------------------------------------------------------------


@pytest.mark.parametrize("name", HIGH_LEVEL)
def test_every_function_takes_strict_and_return_words(name):
    params = inspect.signature(getattr(gpsimd, name)).parameters
    for arg in ("strict", "return_words", "generation"):
        assert params[arg].kind is inspect.Parameter.KEYWORD_ONLY, arg
        assert params[arg].default == {"generation": "v3"}.get(arg, False)


@pytest.mark.parametrize("name", HIGH_LEVEL)
def test_return_words_gives_the_words_that_ran(name):
    plain = CALLS[name]()
    result, words = CALLS[name](return_words=True)
    assert _same(result, plain)  # the result is unchanged
    assert isinstance(words, np.ndarray) and words.dtype == np.uint8
    assert words.ndim == 2 and words.shape[1] == 64 and words.shape[0] >= 1
    for w in words:
        # Every word decodes, disassembles and re-encodes to itself, and is valid.
        fields = gpsimd.decode(w)
        assert gpsimd.encode(**fields) == w.tobytes()
        assert gpsimd.assemble(gpsimd.disassemble(w)) == [w.tobytes()]
        assert gpsimd.validate(w, "v3") == []


def test_words_run_again_give_the_same_result():
    x = np.array([5, 1, 4, 2, 3], dtype=np.int32)
    (values, indices), words = gpsimd.sort(x, descending=True, return_words=True)
    fields = gpsimd.decode(words[0])
    assert fields["instruction"] == "Sort" and fields["comparison"] == "IS_GT"
    # The words read their operands from SBUF: put x where the word says, run them.
    m = gpsimd.Machine("v3")
    src, dst = fields["src_mem_pattern"], fields["dst_mem_pattern"]
    m.sbuf_view(np.int32, src["partition"], src["offset"], 5)[:] = x
    assert m.run(words) == 1
    pairs = m.sbuf_view(np.int32, dst["partition"], dst["offset"], 10).reshape(5, 2)
    np.testing.assert_array_equal(pairs[:, 0], values)
    np.testing.assert_array_equal(pairs[:, 1].view(np.uint32), indices)


def _cli():
    cli = os.environ.get("GPSIMD_CLI")
    if cli is None:  # the build tree's tool, next to the module
        cli = pathlib.Path(gpsimd.__file__).resolve().parents[2] / "tools" / "gpsimd"
    return str(cli)


def test_returned_words_go_to_the_command_line_tool(tmp_path):
    _, words = gpsimd.sort(np.array([2, 1], dtype=np.int32), return_words=True)
    words.tofile(tmp_path / "k.bin")
    out = subprocess.run([_cli(), "dis", str(tmp_path / "k.bin")], capture_output=True,
                         text=True, check=True)
    assert gpsimd.disassemble(words[0]) in out.stdout


def test_topk_returns_the_words_of_every_round():
    _, words = gpsimd.topk(np.arange(20, dtype=np.float32), 10, return_words=True)
    names = [gpsimd.decode(w)["instruction"] for w in words]
    # Round 1: Max8, FindIndex8 (after its MatchValueLoad), MatchReplace8; round 2 the first two.
    assert names == ["Max8", "MatchValueLoad", "FindIndex8", "MatchValueLoad", "MatchReplace8",
                     "Max8", "MatchValueLoad", "FindIndex8"]


def test_strict_is_the_vendor_validation():
    x = np.array([4, 1, 3], dtype=np.float32)
    values, _ = gpsimd.sort(x, k=2)  # top-K: the model accepts it by default
    np.testing.assert_array_equal(values, [1, 3])
    with pytest.raises(gpsimd.InvalidInstruction, match="sort_tensor_shapes_ok"):
        gpsimd.sort(x, k=2, strict=True)
    # A full sort is valid under the vendor's rules too.
    np.testing.assert_array_equal(gpsimd.sort(x, strict=True)[0], [1, 3, 4])


@pytest.mark.parametrize("name", HIGH_LEVEL)
def test_strict_runs_every_function(name):
    assert _same(CALLS[name](strict=True), CALLS[name]())


# ---- the one dtype rule --------------------------------------------------------------------

BF16_VALUES = np.array([-3.0, 1.0, -0.5, 2.0, 0.25], dtype=np.float32)


def test_uint16_is_uint16_everywhere_and_bf16_is_named():
    bits = ref.narrow_bits(BF16_VALUES.view(np.uint32), "BF16").astype(np.uint16)
    # Named: sorted by value, the most negative last when descending.
    values, _ = gpsimd.sort(bits, descending=True, dtype="BF16")
    np.testing.assert_array_equal(gpsimd.from_bf16(values), [2.0, 1.0, 0.25, -0.5, -3.0])
    # Not named: uint16 is UINT16 for every function that takes UINT16 (integers).
    values, _ = gpsimd.sort(bits, descending=True)
    np.testing.assert_array_equal(values, np.sort(bits)[::-1])
    np.testing.assert_array_equal(
        gpsimd.tensor_scalar_select(bits, 7, False), np.full(bits.shape, 7, np.uint16))
    # A function that cannot take UINT16 says so and how to name BF16 bits.
    with pytest.raises(TypeError, match=r"range_select: tile is uint16 \(UINT16\);.*pass "
                       r"in_dtype='BF16' if these are BF16 bits"):
        gpsimd.range_select(bits, ">=", "<", 0, 3)
    out, _ = gpsimd.range_select(bits, ">=", "<", 0, 3, in_dtype="BF16")
    np.testing.assert_array_equal(out[:3], bits[:3])


def test_uint8_must_name_its_fp8_format():
    bits = np.array([0x38, 0x40, 0xB8], dtype=np.uint8)
    with pytest.raises(TypeError, match=r"range_select: tile is uint8 \(UINT8\);.*pass "
                       r"in_dtype='FP8_E4' \(or 'FP8_E3', 'FP8_E5'\) if these are FP8 bits"):
        gpsimd.range_select(bits, ">=", "<", 0, 3)
    out, row_max = gpsimd.range_select(bits, ">=", "<", 0, 3, in_dtype="FP8_E4")
    np.testing.assert_array_equal(out, bits)
    assert row_max == 2.0


def test_a_named_dtype_must_match_the_array():
    with pytest.raises(TypeError, match=r"sort: x is float32, but dtype='BF16' needs uint16"):
        gpsimd.sort(np.ones(3, dtype=np.float32), dtype="BF16")
    with pytest.raises(TypeError, match=r"sort: dtype='INT8' is not a dtype sort takes; it "
                       "takes FP32, FP16, BF16, INT16, UINT16, INT32, UINT32"):
        gpsimd.sort(np.ones(3, dtype=np.int8), dtype="INT8")
    with pytest.raises(ValueError, match=r"max8: dtype='BF17' is not a gpsimd dtype"):
        gpsimd.max8(np.ones(8, dtype=np.uint16), dtype="BF17")


def test_accumulator_bits_are_named_by_a_view():
    bits = np.array([0x3F800000], dtype=np.uint32)
    with pytest.raises(TypeError, match=r"pass accumulators.view\(numpy.float32\) if these are "
                       "FP32 bits"):
        gpsimd.dve_read_accumulator(bits)
    assert gpsimd.dve_read_accumulator(bits.view(np.float32)).tolist() == [1.0]


def test_python_lists():
    # Python ints are int32, floats float32.
    values, indices = gpsimd.sort([3, 1, 2])
    assert values.dtype == np.int32 and values.tolist() == [1, 2, 3]
    assert indices.tolist() == [1, 2, 0]
    values, _ = gpsimd.sort([0.5, -1.5])
    assert values.dtype == np.float32 and values.tolist() == [-1.5, 0.5]
    # Where a function takes no INT32, Python ints are float32 when exact.
    out, row_max = gpsimd.range_select([[1, 7, 3]], ">=", "<", 0, 2)
    assert out.dtype == np.float32 and row_max.tolist() == [7.0]
    # With a dtype named, a list is that dtype's storage (BF16: bit patterns).
    values, _ = gpsimd.sort([0x4000, 0x3F80], dtype="BF16")
    assert values.dtype == np.uint16 and values.tolist() == [0x3F80, 0x4000]
    with pytest.raises(TypeError, match=r"sort: x: BF16 data are bit patterns \(uint16 integers\); "
                       r"convert values first, e.g. gpsimd.narrow\(x, 'BF16'\)"):
        gpsimd.sort([1.5, 2.5], dtype="BF16")
    with pytest.raises(TypeError, match=r"sort: x must be numbers .*got list of <U1"):
        gpsimd.sort(["a", "b"])
    with pytest.raises(ValueError, match=r"sort: x: values outside int32"):
        gpsimd.sort([1, 2**40])
    with pytest.raises(ValueError, match="range_select: tile: these integers are not exact in "
                       "float32"):
        gpsimd.range_select([2**24 + 1, 0], ">=", "<", 0, 2)


# ---- errors name the function and the argument ---------------------------------------------


@pytest.mark.parametrize("call,kind,message", [
    (lambda: gpsimd.range_select(F32, ">=", "<", [1, 2], 3), ValueError,
     "range_select: bound0: expected a scalar or one value per row (1), got shape (2,)"),
    (lambda: gpsimd.range_select(F32, ">=", "<", 0, 3, reduce=np.zeros(2, np.float32)),
     ValueError, "range_select: reduce: expected a scalar or one value per row (1), got shape "
     "(2,)"),
    # numpy.add is ALU_OP ADD, which RangeSelect's own clause refuses, naming the argument.
    (lambda: gpsimd.range_select(F32, np.add, "<", 0, 3), gpsimd.InvalidInstruction,
     "range_select: comp_op0: the RangeSelect word is invalid: comp_op0: is_valid_rs_comp_op: "
     "comp_op0 = 0x04, must be IS_EQ, IS_GT, IS_GE, IS_LE or IS_LT"),
    (lambda: gpsimd.range_select(F32, np.sin, "<", 0, 3), TypeError,
     "range_select: comp_op0: numpy.sin is no ALU op; comp_op0 takes an ALU_OP name (any "
     "case; gpsimd.alu.alu_ops() lists them), one of NKI's nl.* operators or its name, or a "
     "NumPy ufunc of gpsimd.alu.UFUNC_OPS"),
    (lambda: gpsimd.range_select(F32, ">=", "<", "x", 3), TypeError,
     "range_select: bound0: expected a number or one number per row (1), got 'x'"),
    (lambda: gpsimd.sort(F32, k=0), ValueError, "sort: k: 0 is outside [1, 8]"),
    (lambda: gpsimd.sort(F32, k=2.5), TypeError, "sort: k: expected an integer, got 2.5"),
    (lambda: gpsimd.sort(F32, index_offset=[1, 2]), ValueError,
     "sort: index_offset: expected a scalar or one value per row (1), got shape (2,)"),
    (lambda: gpsimd.tensor_scalar_select(F32, 1.0, [True, False]), ValueError,
     "tensor_scalar_select: predicate: expected a scalar or one value per row (1), got shape "
     "(2,)"),
    (lambda: gpsimd.sequence_bounds([0, 1], dtype="INT33"), ValueError,
     "sequence_bounds: dtype='INT33' is not a gpsimd dtype name (FP32, BF16, FP16, FP8_E4, "
     "INT32, ...) nor a NumPy type that stores one"),
    (lambda: gpsimd.iota([[1, 4]], dtype="FP9"), ValueError,
     "iota: dtype='FP9' is not a gpsimd dtype name (FP32, BF16, FP16, FP8_E4, INT32, ...) nor a "
     "NumPy type that stores one"),
    (lambda: gpsimd.nc_find_index8(F32, [1.0, 2.0]), ValueError,
     "nc_find_index8: vals must be 8 values, or [rows, 8] (1 rows), got shape (2,)"),
    (lambda: gpsimd.max8([[1, 2], [3]]), ValueError, None),
    (lambda: gpsimd.topk(F32, 2.0), TypeError, "topk: k: expected an integer, got 2.0"),
    (lambda: gpsimd.topk(F32, 9), ValueError, "topk: k: 9 is outside [1, 8]"),
    (lambda: gpsimd.affine_select([[-1, 8]], 1, F32, "x"), TypeError,
     "affine_select: on_false_value: expected a number, got 'x'"),
    (lambda: gpsimd.affine_select([[-1, 8]], 0.5, F32, 0.0), TypeError,
     "affine_select: channel_multiplier: expected an integer, got 0.5"),
    (lambda: gpsimd.causal_mask(F32, fill=None), TypeError,
     "causal_mask: fill: expected a number, got None"),
    (lambda: gpsimd.iota([[1, 4]], partitions="2"), TypeError,
     "iota: partitions: expected an integer, got '2'"),
    (lambda: gpsimd.nc_match_replace8(F32, F32[0], imm="0"), TypeError,
     "nc_match_replace8: imm: expected a number, got '0'"),
    (lambda: gpsimd.range_select(F32, ">=", "<", 0, 3, range_start=[1]), TypeError,
     "range_select: range_start: expected a number, got [1]"),
])
def test_argument_errors_name_the_function_and_argument(call, kind, message):
    with pytest.raises(kind) as info:
        call()
    text = str(info.value)
    if message is not None:
        assert text == message
    assert "broadcast" not in text and "operands could not" not in text
    assert text.split(":")[0] in CALLS


# ---- Machine.run(trace=...) ----------------------------------------------------------------

SORT_WORD = gpsimd.encode("Sort", num_active_channels=2, in_out_dtype=("FP32", "FP32"),
                          comparison="IS_LT", stable=1, index_offset=10,
                          src_mem_pattern={"offset": 0, "num": [3]},
                          dst_mem_pattern={"offset": 64, "num": [2, 3]},
                          events={"update_mode": "INC", "update_idx": 5})


def _sort_machine():
    m = gpsimd.Machine("v3")
    m.sbuf_view(np.float32, slice(0, 2), 0, 3)[:] = [[3, 1, 2], [0, -1, 5]]
    return m


def test_trace_reports_retire_memory_and_semaphore():
    events = []
    m = _sort_machine()
    assert m.run([SORT_WORD, SORT_WORD], trace=events.append) == 2
    kinds = [(e["kind"], e["index"]) for e in events]
    assert kinds == [("retire", 0), ("memory", 0), ("memory", 0), ("semaphore", 0),
                     ("retire", 1), ("memory", 1), ("memory", 1), ("semaphore", 1)]
    retire = events[0]
    assert retire["instruction"] == "Sort" and retire["word"] == SORT_WORD
    mem = events[1]
    assert (mem["space"], mem["partition"], mem["offset"]) == ("sbuf", 0, 64)
    assert mem["addr"] == gpsimd.address("sbuf", 0, 64)
    assert events[2]["addr"] == gpsimd.address("sbuf", 1, 64)
    assert isinstance(mem["data"], np.ndarray) and mem["data"].dtype == np.uint8
    pairs = mem["data"].view(np.uint32).reshape(3, 2)
    np.testing.assert_array_equal(pairs[:, 0].view(np.float32), [1, 2, 3])
    np.testing.assert_array_equal(pairs[:, 1], [11, 12, 10])
    np.testing.assert_array_equal(mem["data"], m.sbuf[0, 64:88])
    assert events[2]["partition"] == 1
    sem = events[3]
    assert (sem["semaphore"], sem["before"], sem["after"]) == (5, 0, 1)
    assert (events[7]["before"], events[7]["after"]) == (1, 2)


def test_trace_reports_accumulators_and_search_lanes():
    events = []
    x = np.array([[1, 5, 2, 8, 3, 7, 4, 6]], dtype=np.float32)
    _, words = gpsimd.range_select(x, ">=", "<", 0, 4, return_words=True)
    src = gpsimd.decode(words[0])["src_mem_pattern"]
    m = gpsimd.Machine("v3")
    m.sbuf_view(np.float32, src["partition"], src["offset"], 8)[:] = x[0]
    m.run(words, trace=events.append)
    acc = [e for e in events if e["kind"] == "accumulator"]
    assert len(acc) == 1 and acc[0]["accumulator"] == 0 and acc[0]["index"] == 0
    assert np.uint32(acc[0]["after"]).view(np.float32) == 8.0
    events.clear()
    _, words = gpsimd.nc_find_index8(F32, F32[0], return_words=True)
    m = gpsimd.Machine("v3")
    # On a fresh machine: MatchValueLoad loads eight +0.0 (no change: lanes start so), then
    # FindIndex8 over zeros finds them at positions 0..7.
    m.run(words, trace=events.append)
    lanes = [e for e in events if e["kind"] == "match_lane"]
    assert [(e["index"], e["lane"]) for e in lanes] == [(1, 0)]
    assert lanes[0]["before"]["matched"] == 0 and lanes[0]["after"]["matched"] == 0xFF
    assert lanes[0]["before"]["match_indices"].tolist() == [0xFFFFFFFF] * 8
    assert lanes[0]["after"]["match_indices"].tolist() == list(range(8))
    assert lanes[0]["after"]["match_values"].dtype == np.uint32


def test_trace_of_a_program_text():
    events = []
    m = gpsimd.Machine("v3")
    text = ".data sbuf[p=0, off=0x0] INT32 = [5, 2, 9]\n" \
           "Sort num_active_channels=1, in_out_dtype=(INT32, INT32), comparison=IS_LT, " \
           "stable=1, src_mem_pattern=sbuf[p=0, off=0x0] num=[3], " \
           "dst_mem_pattern=sbuf[p=0, off=0x40] num=[2,3]\n"
    assert m.run(text, trace=events.append) == 1
    assert [e["kind"] for e in events] == ["retire", "memory"]
    assert events[1]["data"].view(np.int32).tolist() == [2, 1, 5, 0, 9, 2]


def test_trace_callable_exceptions_propagate_and_atomic_runs_roll_back():
    class Stop(Exception):
        pass

    def stop(event):
        if event["kind"] == "memory":
            raise Stop("enough")

    m = _sort_machine()
    before = m.copy()
    with pytest.raises(Stop, match="enough"):
        m.run(SORT_WORD, trace=stop)
    assert m == before  # atomic: as it was before the call
    with pytest.raises(Stop):
        m.run(SORT_WORD, trace=stop, atomic=False)
    assert m != before  # not atomic: the word retired
    with pytest.raises(TypeError, match="Machine.run: trace must be a callable taking one event"):
        m.run(SORT_WORD, trace=3)


def test_trace_of_a_failing_program_reports_the_retired_words_then_raises():
    events = []
    m = _sort_machine()
    with pytest.raises(gpsimd.InvalidInstruction) as info:
        m.run([SORT_WORD, gpsimd.encode("Sort", stable=2)], trace=events.append)
    assert info.value.index == 1
    assert {e["index"] for e in events} == {0}


# ---- __version__, type hints ----------------------------------------------------------------


def test_version_is_the_projects():
    cmake = pathlib.Path(__file__).resolve().parents[2] / "CMakeLists.txt"
    line = next(x for x in cmake.read_text().splitlines() if x.startswith("project(gpsimd"))
    assert f"VERSION {gpsimd.__version__} " in line
    assert gpsimd.__version__ == gpsimd._core.__version__


def test_version_is_what_the_cli_prints():
    out = subprocess.run([_cli(), "--version"], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == f"gpsimd {gpsimd.__version__}"


def test_the_package_is_typed():
    pkg = pathlib.Path(gpsimd.__file__).parent
    assert (pkg / "py.typed").is_file()
    assert (pkg / "_core.pyi").is_file()
    for name in HIGH_LEVEL + ["Machine.run", "encode", "decode", "validate"]:
        obj = gpsimd
        for part in name.split("."):
            obj = getattr(obj, part)
        hints = inspect.signature(obj)
        assert hints.return_annotation is not inspect.Signature.empty, name
    # Every annotation of the public API resolves (no misspelt type names).
    for name in gpsimd.__all__:
        obj = getattr(gpsimd, name)
        if inspect.isfunction(obj):
            assert "return" in typing.get_type_hints(obj), name
    for name, member in vars(gpsimd.Machine).items():
        if inspect.isfunction(member):
            typing.get_type_hints(member)
