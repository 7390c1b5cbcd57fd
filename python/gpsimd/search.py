"""NumPy in, NumPy out: the DVE search instructions and a top-k built from them.

MatchValueLoad, Max8, FindIndex8 and MatchReplace8 (SPEC §4.7-§4.10). Each function
builds the real instruction words, runs them on a scratch :class:`gpsimd.Machine` and
reads the results back; rows are partitions (lanes). The names and arguments are NKI's
(``nki.isa.max8``, ``nki.isa.nc_find_index8``, ``nki.isa.nc_match_replace8``), and the
orders NKI returns come from the steps its compiler emits, reproduced here, not from
sorting afterwards:

- ``max8``: Max8 writes smallest first; the destination walks down from slot 7 (a
  negated step), so the row reads largest first.
- ``nc_find_index8``: MatchValueLoad with a negated step (``mv[n] = vals[n]``), then
  FindIndex8: column ``n`` is the position of ``vals[n]``.
- ``nc_match_replace8``: MatchValueLoad with a positive step (``mv[7 - k] = vals[k]``),
  then MatchReplace8; ``dst_idx[k]`` is the lane's ``idx[7 - k]``.

A NumPy dtype names the gpsimd dtype (float32 is FP32, int32 INT32, ...); BF16 and FP8
bit patterns are given as unsigned integers with an explicit ``dtype``.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._api import ArrayResult, PairResult, Runner, data_array, integer, number
from .codec import encode
from .dtypes import dtype_size, storage_dtype
from .ops import _ALIGN, _PARTITIONS, VALID_DTYPES, DtypeLike, _as_bits, _ceil

__all__ = ["max8", "nc_find_index8", "nc_match_replace8", "topk"]

#: SPEC §4.8-§4.10: a search source holds at most 16384 elements per row.
MAX_ELEMENTS = 16384

_MATCH_REPLACE_DTYPES = ("FP16", "BF16", "UINT8", "UINT16", "UINT32", "FP32", "INT32")


def _rows_of(x, what, dtype, arg, allowed=VALID_DTYPES):
    """Return (bits [rows, T] of the dtype's storage type, dtype name, one_d)."""
    a, name = data_array(what, arg, x, allowed, dtype)
    if a.ndim not in (1, 2) or a.size == 0:
        raise ValueError(f"{what}: {arg} must be a non-empty 1-D or [rows, T] array, got shape "
                         f"{a.shape}")
    one_d = a.ndim == 1
    a2 = a.reshape(1, -1) if one_d else a
    if a2.shape[1] > MAX_ELEMENTS:
        raise ValueError(f"{what}: {a2.shape[1]} elements per row; the search instructions "
                         f"read at most {MAX_ELEMENTS} (SPEC §4.8)")
    return _as_bits(a2, name), name, one_d


def _tensor(offset, num, step=1, dims=4):
    nums = [num] + [1] * (dims - 1)
    steps = [step] + [0] * (dims - 1)
    return {"space": "sbuf", "partition": 0, "offset": offset, "num": nums, "step": steps}


def _load_values(m, name, vals_bits, rows, offset, negated):
    """MatchValueLoad of 8 values per row from `offset`: negated walks vals[7 - k]."""
    size = dtype_size(name)
    m.sbuf[:rows, offset : offset + 8 * size] = np.ascontiguousarray(vals_bits).view(np.uint8)
    start = offset + 7 * size if negated else offset
    return encode("MatchValueLoad", src_mem_pattern=_tensor(start, 8, -1 if negated else 1, 2),
                  dtype=name, num_active_channels=rows)


def _vals_for(vals, bits, name, what):
    """Return the 8 values per row as bits of data's dtype, by the dtype rule with data's
    dtype named (its storage type, or a Python list converted to it)."""
    v, _ = data_array(what, "vals", vals, (name,), name)
    rows = bits.shape[0]
    if v.shape == (8,):
        v = np.broadcast_to(v, (rows, 8))
    if v.shape != (rows, 8):
        raise ValueError(f"{what}: vals must be 8 values, or [rows, 8] ({rows} rows), got shape "
                         f"{v.shape}")
    return _as_bits(np.ascontiguousarray(v), name)


def _match_rows(bits, name, v, negated, run, word, read):
    """Run MatchValueLoad of v (negated or positive step) then `word(r, dst_off)` on each
    block of up to 128 rows of `bits`; `read(m, r0, r, dst_off)` takes the results."""
    rows, t = bits.shape
    size = dtype_size(name)
    m = run.machine
    val_off = _ceil(t * size)
    dst_off = val_off + _ALIGN
    for r0 in range(0, rows, _PARTITIONS):
        r = min(_PARTITIONS, rows - r0)
        m.sbuf[:r, : t * size] = bits[r0 : r0 + r].view(np.uint8)
        load = _load_values(m, name, v[r0 : r0 + r], r, val_off, negated=negated)
        run.run([load, word(r, dst_off)])
        read(m, r0, r, dst_off)


def max8(src: ArrayLike, *, dtype: DtypeLike = None, generation: str = "v3",
         strict: bool = False, return_words: bool = False) -> ArrayResult:
    """Return NKI's ``max8``: the 8 largest values of each row, largest first.

    SPEC §4.8: values compare as FP32 (integers rounded to nearest even, so INT32
    16777217 counts as 16777216), NaNs are left out, -0.0 ranks below +0.0, duplicates
    are kept, and a row with fewer than 8 numbers is filled with -inf. Max8 writes the
    8 smallest first; the destination walks down from slot 7, as NKI's compiler emits it.

    - ``src``: ``[rows, T]`` (rows <= 128, 8 <= T <= 16384) or 1-D.
    - ``dtype``: needed for BF16/FP8 bit patterns given as unsigned integers.

    >>> import numpy as np, gpsimd
    >>> gpsimd.max8(np.array([5, -1, 9, 3, np.nan, 0.5, 100, -7, 2, 8], dtype=np.float32))
    array([100. ,   9. ,   8. ,   5. ,   3. ,   2. ,   0.5,  -1. ], dtype=float32)
    """
    bits, name, one_d = _rows_of(src, "max8", dtype, "src")
    rows, t = bits.shape
    if t < 8:
        raise ValueError(f"max8: a row needs at least 8 elements (s4d2_bn_src_element_cnt), "
                         f"got {t}")
    size = dtype_size(name)
    out = np.zeros((rows, 8), dtype=bits.dtype)
    run = Runner("max8", generation, strict)
    m = run.machine
    dst_off = _ceil(t * size)
    for r0 in range(0, rows, _PARTITIONS):
        r = min(_PARTITIONS, rows - r0)
        m.sbuf[:r, : t * size] = bits[r0 : r0 + r].view(np.uint8)
        run.run(encode("Max8", src_mem_pattern=_tensor(0, t), in_dtype=name, out_dtype=name,
                       num_active_channels=r,
                       dst_mem_pattern=_tensor(dst_off + 7 * size, 8, -1, 2)))
        out[r0 : r0 + r] = m.sbuf[:r, dst_off : dst_off + 8 * size].view(bits.dtype)
    out = out.view(storage_dtype(name))
    return run.result(out[0] if one_d else out, return_words)


def nc_find_index8(data: ArrayLike, vals: ArrayLike, *, dtype: DtypeLike = None,
                   generation: str = "v3", strict: bool = False,
                   return_words: bool = False) -> ArrayResult:
    """Return NKI's ``nc_find_index8``: per row, the position of each of the 8 ``vals``
    in ``data`` (uint32; 0xFFFFFFFF where a value is not found).

    SPEC §4.9: MatchValueLoad with a negated step (``mv[n] = vals[n]``) then FindIndex8.
    Each element is taken by the lowest slot whose value equals it (FP32 equality: NaN
    finds nothing, -0.0 finds +0.0) and is consumed, so duplicate vals take ascending
    positions in ascending columns.

    - ``data``: ``[rows, T]`` (rows <= 128, 8 <= T <= 16384) or 1-D.
    - ``vals``: 8 values, or ``[rows, 8]``, of data's dtype.

    >>> import numpy as np, gpsimd
    >>> data = np.array([1, 2, 3, 4, 8, 8, 8, 8, 8, 8, 8], dtype=np.float32)
    >>> gpsimd.nc_find_index8(data, np.array([3, 8, 8, 8, 8, 8, 8, 8], dtype=np.float32))
    array([ 2,  4,  5,  6,  7,  8,  9, 10], dtype=uint32)
    """
    bits, name, one_d = _rows_of(data, "nc_find_index8", dtype, "data")
    rows, t = bits.shape
    if t < 8:
        raise ValueError(f"nc_find_index8: a row needs at least 8 elements, got {t}")
    v = _vals_for(vals, bits, name, "nc_find_index8")
    out = np.zeros((rows, 8), dtype=np.uint32)

    def find(r, dst_off):
        return encode("FindIndex8", src_mem_pattern=_tensor(0, t), in_dtype=name,
                      out_dtype="UINT32", num_active_channels=r,
                      dst_mem_pattern=_tensor(dst_off, 8, 1, 2))

    def read(m, r0, r, dst_off):
        out[r0 : r0 + r] = m.sbuf[:r, dst_off : dst_off + 32].view("<u4")

    run = Runner("nc_find_index8", generation, strict)
    _match_rows(bits, name, v, True, run, find, read)
    return run.result(out[0] if one_d else out, return_words)


def nc_match_replace8(data: ArrayLike, vals: ArrayLike, imm: float, *, dtype: DtypeLike = None,
                      generation: str = "v3", strict: bool = False,
                      return_words: bool = False) -> PairResult:
    """Return NKI's ``nc_match_replace8`` as ``(dst, dst_idx)``: ``data`` with the first
    unconsumed match of each of the 8 ``vals`` replaced by ``imm``, and the positions.

    SPEC §4.10: MatchValueLoad with a positive step (``mv[7 - k] = vals[k]``) then
    MatchReplace8; ``dst_idx[k]`` is the lane's ``idx[7 - k]`` (0xFFFFFFFF: not found).
    Every element passes through FP32 (a BF16 signalling NaN comes back quiet).

    - ``data``: ``[rows, T]`` or 1-D of FP16, BF16, UINT8, UINT16, UINT32, FP32 or INT32.
    - ``vals``: 8 values or ``[rows, 8]``; ``imm``: a float (FP32).

    >>> import numpy as np, gpsimd
    >>> data = np.array([1, 2, 3, 4, 8, 8, 8, 8, 8, 8, 8], dtype=np.float32)
    >>> dst, idx = gpsimd.nc_match_replace8(data, np.array([3, 8, 8, 8, 8, 8, 8, 8],
    ...                                     dtype=np.float32), imm=-1.0)
    >>> dst
    array([ 1.,  2., -1.,  4., -1., -1., -1., -1., -1., -1., -1.], dtype=float32)
    >>> idx
    array([ 2, 10,  9,  8,  7,  6,  5,  4], dtype=uint32)
    """
    bits, name, one_d = _rows_of(data, "nc_match_replace8", dtype, "data", _MATCH_REPLACE_DTYPES)
    rows, t = bits.shape
    v = _vals_for(vals, bits, name, "nc_match_replace8")
    size = dtype_size(name)
    imm_bits = int(np.array(number("nc_match_replace8", "imm", imm), dtype=np.float32).view(
        np.uint32))
    out = np.zeros_like(bits)
    idx = np.zeros((rows, 8), dtype=np.uint32)

    def replace(r, dst_off):
        word = bytearray(encode("MatchReplace8", src_mem_pattern=_tensor(0, t), in_dtype=name,
                                out_dtype=name, num_active_channels=r, immediate=0.0,
                                dst_mem_pattern=_tensor(dst_off, t)))
        word[40:44] = imm_bits.to_bytes(4, "little")  # the FP32 bits, NaN payloads too
        return bytes(word)

    def read(m, r0, r, dst_off):
        out[r0 : r0 + r] = m.sbuf[:r, dst_off : dst_off + t * size].view(bits.dtype)
        idx[r0 : r0 + r] = m.match_indices[:r, ::-1]

    run = Runner("nc_match_replace8", generation, strict)
    _match_rows(bits, name, v, False, run, replace, read)
    out = out.view(storage_dtype(name))
    return run.result((out[0], idx[0]) if one_d else (out, idx), return_words)


def topk(tile: ArrayLike, k: int, *, dtype: DtypeLike = None, generation: str = "v3",
         strict: bool = False, return_words: bool = False) -> PairResult:
    """Return ``(values, indices)``: the k largest values of each row, largest first, and
    their positions, built as NKI kernels build a top-k from the search instructions.

    Each round of 8 runs Max8 (the next 8 largest), FindIndex8 for their positions on
    the row as that round sees it, and MatchReplace8 to replace them by -inf for the
    next round. Values follow Max8's rules (NaNs left out, -0.0 below +0.0, FP32
    comparison). **Ties:** equal values come in ascending position order, within a round
    and across rounds (earlier positions are replaced first). A row whose values run
    out (NaNs, or k beyond its numbers) gives -inf values; their indices are then those
    of the replaced elements or 0xFFFFFFFF, so keep k within a row's finite values.

    - ``tile``: ``[rows, T]`` or 1-D, of a MatchReplace8 dtype (float32 for instance).
    - ``k``: 1 <= k <= T.

    >>> import numpy as np, gpsimd
    >>> logits = np.array([0.1, 2.5, -1.0, 2.5, 7.0, 0.3, 4.0, 1.0, 3.0, 2.5], np.float32)
    >>> values, indices = gpsimd.topk(logits, 4)
    >>> values, indices
    (array([7. , 4. , 3. , 2.5], dtype=float32), array([4, 6, 8, 1], dtype=uint32))
    """
    bits, name, one_d = _rows_of(tile, "topk", dtype, "tile", _MATCH_REPLACE_DTYPES)
    rows, t = bits.shape
    k = integer("topk", "k", k, 1, t)
    st = storage_dtype(name)
    cur = bits.view(st)
    values, indices, words = [], [], []
    opts = {"dtype": name, "generation": generation, "strict": strict, "return_words": True}
    for r in range((k + 7) // 8):
        top, w = max8(cur, **opts)  # largest first
        values.append(top)
        words.append(w)
        found, w = nc_find_index8(cur, top, **opts)
        indices.append(found)
        words.append(w)
        if 8 * (r + 1) < k:
            (cur, _), w = nc_match_replace8(cur, top, float("-inf"), **opts)
            words.append(w)
    vals = np.concatenate(values, axis=1)[:, :k]
    idx = np.concatenate(indices, axis=1)[:, :k]
    result = (vals[0], idx[0]) if one_d else (vals, idx)
    if return_words:
        return result, np.concatenate(words)
    return result
