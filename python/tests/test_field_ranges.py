"""A Python integer that goes into a word field is checked against the field's range and
never wraps: a ValueError names the function, the argument, the value and the range."""

import numpy as np
import pytest

import gpsimd

F32 = np.ones((2, 4), dtype=np.float32)
I32 = np.ones((2, 4), dtype=np.int32)

INT32 = "int32 [-2147483648, 2147483647]"


@pytest.mark.parametrize("call,message", [
    (lambda v: gpsimd.affine_select([[-1, 4]], v, F32, 0.0), "affine_select: channel_multiplier"),
    (lambda v: gpsimd.affine_select([[-1, 4]], 1, F32, 0.0, offset=v), "affine_select: offset"),
    (lambda v: gpsimd.iota([[1, 4]], channel_multiplier=v), "iota: channel_multiplier"),
    (lambda v: gpsimd.iota([[1, 4]], offset=v), "iota: offset"),
    (lambda v: gpsimd.nonzero_with_count(I32, index_offset=v), "nonzero_with_count: index_offset"),
    (lambda v: gpsimd.nonzero_with_count(I32, padding_val=v), "nonzero_with_count: padding_val"),
    (lambda v: gpsimd.nonzero_with_count(I32, index_offset=[0, v]),
     "nonzero_with_count: index_offset"),
])
@pytest.mark.parametrize("value", [2**31, 3000000000, 2**32 - 1, -2**31 - 1, 2**40])
def test_an_int32_argument_beyond_int32_is_refused(call, message, value):
    with pytest.raises(ValueError) as e:
        call(value)
    assert str(e.value) == f"{message}: {value} is outside {INT32}"


def test_the_int32_bounds_themselves_are_taken():
    # The ramp's arithmetic still wraps (SPEC §3.7); only the arguments are checked.
    top = gpsimd.iota([[1, 2]], offset=2**31 - 1)
    assert top.tolist() == [[2**31 - 1, -2**31]]
    bottom = gpsimd.iota([[1, 1]], offset=-2**31, channel_multiplier=-2**31, partitions=2)
    assert bottom.tolist() == [[-2**31], [0]]
    out = gpsimd.nonzero_with_count(np.array([0, 1], dtype=np.int32), index_offset=2**31 - 2,
                                    padding_val=-2**31)
    assert out.tolist() == [2**31 - 1, -2**31, 1]


@pytest.mark.parametrize("pattern,message", [
    ([[40000, 4]], "iota: pattern step: 40000 is outside int16 [-32768, 32767]"),
    ([[-32769, 4]], "iota: pattern step: -32769 is outside int16 [-32768, 32767]"),
    ([[1, 70000]], "iota: pattern num: 70000 is outside uint16 [0, 65535]"),
])
def test_ramp_steps_and_counts_are_checked(pattern, message):
    with pytest.raises(ValueError) as e:
        gpsimd.iota(pattern)
    assert str(e.value) == message


def test_a_float_is_not_truncated_into_a_field():
    with pytest.raises(TypeError, match="iota: pattern step: expected an integer, got 1.5"):
        gpsimd.iota([[1.5, 4]])
    with pytest.raises(TypeError, match="iota: offset: expected an integer, got 2.0"):
        gpsimd.iota([[1, 4]], offset=2.0)


def test_sort_index_offset_is_a_uint32():
    with pytest.raises(ValueError, match=r"sort: index_offset: 4294967296 is outside uint32"):
        gpsimd.sort(np.zeros(4, dtype=np.float32), index_offset=2**32)
    values, indices = gpsimd.sort(np.zeros(2, dtype=np.float32), index_offset=2**32 - 2)
    assert indices.tolist() == [2**32 - 2, 2**32 - 1]


def test_field_int():
    from gpsimd._api import FIELD_RANGES, field_int

    for name, (lo, hi) in FIELD_RANGES.items():
        assert field_int("f", "a", lo, name) == lo and field_int("f", "a", hi, name) == hi
        for bad in (lo - 1, hi + 1):
            with pytest.raises(ValueError, match=f"f: a: {bad} is outside {name}"):
                field_int("f", "a", bad, name)
    assert field_int("f", "a", np.int64(-3), "int32") == -3
    assert field_int("f", "a", [1, 2], "uint8").tolist() == [1, 2]
    with pytest.raises(ValueError, match="f: a: 256 is outside uint8"):
        field_int("f", "a", np.array([1, 256]), "uint8")
    for bad in (True, 1.0, "1", None):
        with pytest.raises(TypeError):
            field_int("f", "a", bad, "int32")
