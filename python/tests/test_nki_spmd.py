"""SPMD launches (kernel[grid](...), nl.program_id / num_programs / program_ndim) and NKI's
ways of running a kernel (nki.simulate, nki.simulate_kernel, nki.baremetal), written as
kernel engineers write them: a kernel, NumPy inputs, a NumPy golden."""

import numpy as np
import pytest

import gpsimd.nki as nki
import gpsimd.nki.isa as nisa
import gpsimd.nki.language as nl


@nki.jit
def tiled_add(a, b):
    # NKI's tutorial shape: each program instance adds one (128, 512) tile of a 2-D grid.
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    i, j = nl.program_id(0), nl.program_id(1)
    rows, cols = a.shape[0] // nl.num_programs(0), a.shape[1] // nl.num_programs(1)
    x = nl.load(a[i * rows:(i + 1) * rows, j * cols:(j + 1) * cols])
    y = nl.load(b[i * rows:(i + 1) * rows, j * cols:(j + 1) * cols])
    nl.store(out[i * rows:(i + 1) * rows, j * cols:(j + 1) * cols], nl.add(x, y))
    return out


def test_grid_tiles_share_the_output():
    rng = np.random.default_rng(0)
    a = rng.standard_normal((256, 1024)).astype(np.float32)
    b = rng.standard_normal((256, 1024)).astype(np.float32)
    out = tiled_add[2, 2](a, b)
    assert np.array_equal(out, a + b)
    # Row-major order of the instances, each its own program (a fresh machine).
    assert [p.spmd[1] for p in tiled_add.programs] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert len({id(p.machine) for p in tiled_add.programs}) == 4
    assert tiled_add.program is tiled_add.programs[-1]
    assert all(len(p.words) == 1 for p in tiled_add.programs)  # one TensorTensor each


def test_grid_of_nc_annotations_and_one_dimension():
    a = np.arange(4 * 128 * 8, dtype=np.float32).reshape(512, 8)

    @nki.jit
    def negate(x):
        out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.hbm)
        k = nl.program_id(0)
        t = nl.load(x[k * 128:(k + 1) * 128, :])
        nl.store(out[k * 128:(k + 1) * 128, :], nl.multiply(t, -1.0))
        return out

    golden = -a
    assert np.array_equal(negate[4](a), golden)
    assert np.array_equal(negate[nl.nc(2) * 2](a), golden)
    assert np.array_equal(negate[nl.spmd_dim(2, nl.nc(2))](a), golden)


def test_private_hbm_is_each_instances_own():
    @nki.jit
    def kernel():
        scratch = nl.ndarray((1, 4), dtype=nl.int32, buffer=nl.private_hbm)
        out = nl.ndarray((nl.num_programs(), 4), dtype=nl.int32, buffer=nl.shared_hbm)
        t = nl.ndarray((1, 4), dtype=nl.int32)
        nisa.iota(t, [[1, 4]], offset=100 * nl.program_id(0))
        nisa.dma_copy(dst=scratch, src=t)
        assert scratch[0, 0] == 100 * nl.program_id(0)
        nl.store(out[nl.program_id(0)], nl.load(scratch))
        return out

    assert np.array_equal(kernel[3](), 100 * np.arange(3)[:, None] + np.arange(4))


def test_without_a_grid_and_errors():
    @nki.jit
    def where():
        return nl.program_ndim(), nl.program_id(0), nl.num_programs(0), nl.num_programs()

    assert where() == (0, 0, 1, 1)
    assert where[5]() == (1, 4, 5, 5)

    @nki.jit
    def bad_axis():
        return nl.program_id(2)

    with pytest.raises(IndexError, match="axis 2 of a launch grid of 2 dimensions"):
        bad_axis[2, 2]()
    with pytest.raises(ValueError, match="at least 1"):
        where[0]
    with pytest.raises(TypeError, match="launch grid"):
        where[1.5]

    @nki.jit
    def uneven():
        return nl.ndarray((nl.program_id(0) + 1, 2), dtype=nl.float32, buffer=nl.shared_hbm)

    with pytest.raises(nki.NkiValidationError, match="same tensors"):
        uneven[2]()


def test_simulate_simulate_kernel_baremetal_and_jit_of_a_kernel():
    def copy_kernel(a):
        b = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.hbm)
        nl.store(b, nl.load(a))
        return b

    a = np.random.default_rng(1).standard_normal((4, 8)).astype(np.float32)
    assert np.array_equal(nki.simulate_kernel(copy_kernel, a), a)
    assert np.array_equal(nki.simulate(copy_kernel)(a), a)
    jitted = nki.jit(copy_kernel)
    assert nki.simulate(jitted) is jitted
    assert np.array_equal(nki.simulate(jitted[2])(a), a)
    assert np.array_equal(nki.baremetal(copy_kernel)(a), a)
    assert np.array_equal(nki.baremetal(save_neff_name="x.neff")(copy_kernel)(a), a)
    # jit of a decorated kernel (AWS's SPMD test re-decorates with options): its function.
    v2 = nki.jit(jitted, platform_target="trn1")
    assert np.array_equal(v2(a), a) and v2.program.generation == "v2"
    assert isinstance(v2, nki.Kernel) and v2.__wrapped__ is copy_kernel
