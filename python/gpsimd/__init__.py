"""gpsimd: a bit-exact model of NeuronCore GPSIMD/Vector instructions, in Python.

Low level: :class:`Machine` (SBUF, PSUM, registers, semaphores and accumulators as
zero-copy NumPy views; ``run`` executes words or assembly text), :func:`encode`,
:func:`decode`, :func:`validate`, :func:`assemble`, :func:`disassemble`.

High level, NumPy in and out, each running the real instruction on a scratch machine:
:func:`tensor_tensor`, :func:`tensor_scalar` (the ALU, on the engine given),
:func:`tensor_scalar_cumulative`,
:func:`range_select`, :func:`tensor_scalar_select`, :func:`sequence_bounds`, :func:`sort`,
:func:`affine_select` (and :func:`causal_mask`), :func:`iota`, :func:`nonzero_with_count`, :func:`tensor_copy_predicated`, :func:`dve_read_accumulator`,
:func:`max8`, :func:`nc_find_index8`, :func:`nc_match_replace8`, :func:`topk`;
number formats: :func:`to_bf16`, :func:`from_bf16`, :func:`to_fp8_e4`, ...
``return_words=True`` gives the :class:`Words` that replay the call on one fresh machine.

NKI kernels: :mod:`gpsimd.nki` (``import gpsimd.nki.isa as nisa``, ``import
gpsimd.nki.language as nl``): NKI's own calls, bit-exact, building one program.

>>> import gpsimd
>>> import numpy as np
>>> values, indices = gpsimd.sort(np.array([3, 1, 2], dtype=np.int32))
>>> values, indices
(array([1, 2, 3], dtype=int32), array([1, 2, 0], dtype=uint32))
>>> gpsimd.__version__ == gpsimd._core.__version__
True
"""

try:
    from . import _core  # noqa: F401 - imported first for the message below
except ImportError as e:  # pragma: no cover - the source tree's package, unbuilt
    raise ImportError(
        "gpsimd's extension (gpsimd._core) is missing. Build the project with CMake and put "
        "<build>/python first on PYTHONPATH (docs/python.md); the python/ folder of the "
        f"source tree holds only the pure-Python half. ({e})"
    ) from e

from .codec import (
    Diagnostic,
    address,
    assemble,
    decode,
    describe_address,
    disassemble,
    encode,
    instructions,
    order_rule,
    validate,
    word_bytes,
)
from .dtypes import FLOAT_DTYPES, dtype_name, dtype_size, storage_dtype
from ._program import Words
from .errors import (AssemblyError, Fault, GpsimdError, InvalidInstruction, NkiValidationError,
                     ProgramError)
from .formats import (
    from_bf16,
    from_fp8_e3,
    from_fp8_e4,
    from_fp8_e5,
    from_fp16,
    narrow,
    to_bf16,
    to_fp8_e3,
    to_fp8_e4,
    to_fp8_e5,
    to_fp16,
    widen,
)
from .alu import (scalar_tensor_tensor, tensor_scalar, tensor_scalar_cumulative, tensor_tensor,
                  tensor_tensor_scan)
from .machine import Machine
from .queues import ProgramRun
from .ops import (
    affine_select,
    cast,
    causal_mask,
    iota,
    memset,
    range_select,
    select_reduce,
    sequence_bounds,
    sort,
    tensor_copy,
    tensor_reduce,
    tensor_scalar_select,
)
from .predicates import dve_read_accumulator, nonzero_with_count, tensor_copy_predicated
from .search import max8, nc_find_index8, nc_match_replace8, topk

#: The project's version (CMake's project version), the one ``gpsimd --version`` prints.
__version__: str = _core.__version__

__all__ = [
    "Machine",
    "ProgramRun",
    "Diagnostic",
    "encode",
    "decode",
    "validate",
    "order_rule",
    "assemble",
    "disassemble",
    "instructions",
    "address",
    "describe_address",
    "word_bytes",
    "tensor_tensor",
    "tensor_scalar",
    "tensor_scalar_cumulative",
    "tensor_tensor_scan",
    "scalar_tensor_tensor",
    "range_select",
    "select_reduce",
    "tensor_scalar_select",
    "sequence_bounds",
    "sort",
    "affine_select",
    "causal_mask",
    "iota",
    "tensor_copy",
    "cast",
    "memset",
    "tensor_reduce",
    "nonzero_with_count",
    "tensor_copy_predicated",
    "dve_read_accumulator",
    "max8",
    "nc_find_index8",
    "nc_match_replace8",
    "topk",
    "narrow",
    "widen",
    "to_bf16",
    "from_bf16",
    "to_fp16",
    "from_fp16",
    "to_fp8_e3",
    "from_fp8_e3",
    "to_fp8_e4",
    "from_fp8_e4",
    "to_fp8_e5",
    "from_fp8_e5",
    "dtype_name",
    "dtype_size",
    "storage_dtype",
    "FLOAT_DTYPES",
    "GpsimdError",
    "InvalidInstruction",
    "Fault",
    "AssemblyError",
    "ProgramError",
    "NkiValidationError",
    "Words",
]
