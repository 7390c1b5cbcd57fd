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
bit patterns are given as unsigned integers with ``in_dtype`` naming them. ``dtype=`` is
the result's dtype (Max8's and MatchReplace8's ``out_dtype``, FindIndex8's index dtype).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from . import _lower as lower
from ._api import ArrayResult, PairResult, Runner, data_array, in_out, integer, number, same_dtype
from .dtypes import dtype_size, storage_dtype
from .ops import _ALIGN, _PARTITIONS, _RESULT, VALID_DTYPES, DtypeLike, _as_bits, _ceil, _parts

__all__ = ["max8", "nc_find_index8", "nc_match_replace8", "topk"]

_MATCH_REPLACE_DTYPES = ("FP16", "BF16", "UINT8", "UINT16", "UINT32", "FP32", "INT32")
# topk's knock-out: Max8 leaves NaNs out, FindIndex8 never matches one.
_NAN = np.uint32(0x7FC00000).view(np.float32)
# topk's words name its tile; the keys and indices between its words are its own.
_TOPK = {"src": "tile", "data": "tile", "dst": "k", "vals": "k", "imm": "k"}


def _rows_of(what, a, arg):
    """Return (a 2-D [rows, T], one_d) of a search input, checking its shape (how many
    elements a row may have is the instructions' validation, SPEC §4.8-§4.10)."""
    if a.ndim not in (1, 2) or a.size == 0:
        raise ValueError(f"{what}: {arg} must be a non-empty 1-D or [rows, T] array, got shape "
                         f"{a.shape}")
    one_d = a.ndim == 1
    return (a.reshape(1, -1) if one_d else a), one_d


def _tensor(offset, num, dims=4):
    return {"space": "sbuf", "partition": 0, "offset": offset, "num": [num] + [1] * (dims - 1),
            "step": [1] + [0] * (dims - 1)}


def _vals_for(vals, rows, name, what):
    """Return the 8 values per row as bits of data's dtype, by the dtype rule with data's
    dtype named (its storage type, or a Python list converted to it)."""
    v, _ = data_array(what, "vals", vals, (name,), name)
    if v.shape == (8,):
        v = np.broadcast_to(v, (rows, 8))
    if v.shape != (rows, 8):
        raise ValueError(f"{what}: vals must be 8 values, or [rows, 8] ({rows} rows), got shape "
                         f"{v.shape}")
    return _as_bits(np.ascontiguousarray(v), name)


def max8(src: ArrayLike, *, dtype: DtypeLike = None, in_dtype: DtypeLike = None,
         generation: str = "v3", strict: bool = False,
         return_words: bool = False) -> ArrayResult:
    """Return NKI's ``max8``: the 8 largest values of each row, largest first.

    SPEC §4.8: values compare as FP32 (integers rounded to nearest even, so INT32
    16777217 counts as 16777216), NaNs are left out, -0.0 ranks below +0.0, duplicates
    are kept, and a row with fewer than 8 numbers is filled with -inf. Max8 writes the
    8 smallest first; the destination walks down from slot 7, as NKI's compiler emits it.

    - ``src``: ``[rows, T]`` (8 <= T <= 16384; more than 128 rows become several
      instructions) or 1-D. BF16/FP8 bit patterns need ``in_dtype``.
    - ``dtype``: the result's dtype (Max8's ``out_dtype``: any valid dtype, FP32R
      included), default the input's; the values go through FP32 to it (§5).

    >>> import numpy as np, gpsimd
    >>> gpsimd.max8(np.array([5, -1, 9, 3, np.nan, 0.5, 100, -7, 2, 8], dtype=np.float32))
    array([100. ,   9. ,   8. ,   5. ,   3. ,   2. ,   0.5,  -1. ], dtype=float32)
    >>> gpsimd.max8(np.arange(10, dtype=np.int32), dtype="FP32")
    array([9., 8., 7., 6., 5., 4., 3., 2.], dtype=float32)
    """
    fn = "max8"
    a, name, out = in_out(fn, "src", src, VALID_DTYPES, in_dtype, dtype)
    a2, one_d = _rows_of(fn, a, "src")
    bits = _as_bits(a2, name)
    rows, t = bits.shape
    size, osz = dtype_size(name), dtype_size(out)
    result = np.zeros((rows, 8), dtype=storage_dtype(out))
    with Runner(fn, generation, strict, return_words) as run:
        blocks = -(-rows // _PARTITIONS)
        fits = run.layout(blocks * (_ceil(t * size) + _ALIGN))
        run.result_shape("values", (rows, 8), result.dtype)
        for r0 in range(0, rows, _PARTITIONS):
            r = min(_PARTITIONS, rows - r0)
            if fits or r0 == 0:
                src_off, dst_off = run.block(t * size, 8 * osz)
            run.load(0, src_off, bits[r0 : r0 + r], name="src")
            run.run(lower.max8(in_dtype=name, out_dtype=out, channels=r,
                               src=_tensor(src_off, t), dst=_tensor(dst_off, 8, 2),
                               names=_RESULT))
            result[r0 : r0 + r] = run.read(0, r, dst_off, 8, out, "values",
                                           into=("values", _parts(r0, r)))
        return run.result(result[0] if one_d else result)


def nc_find_index8(data: ArrayLike, vals: ArrayLike, *, dtype: DtypeLike = "UINT32",
                   in_dtype: DtypeLike = None, generation: str = "v3", strict: bool = False,
                   return_words: bool = False) -> ArrayResult:
    """Return NKI's ``nc_find_index8``: per row, the position of each of the 8 ``vals``
    in ``data`` (0xFFFFFFFF, or 0xFFFF for UINT16, where a value is not found).

    SPEC §4.9: MatchValueLoad with a negated step (``mv[n] = vals[n]``) then FindIndex8.
    Each element is taken by the lowest slot whose value equals it (FP32 equality: NaN
    finds nothing, -0.0 finds +0.0) and is consumed, so duplicate vals take ascending
    positions in ascending columns.

    - ``data``: ``[rows, T]`` (8 <= T <= 16384) or 1-D; BF16/FP8 bits need ``in_dtype``.
    - ``vals``: 8 values, or ``[rows, 8]``, of data's dtype.
    - ``dtype``: the result's (index) dtype, UINT32 (NKI's default) or UINT16.

    >>> import numpy as np, gpsimd
    >>> data = np.array([1, 2, 3, 4, 8, 8, 8, 8, 8, 8, 8], dtype=np.float32)
    >>> gpsimd.nc_find_index8(data, np.array([3, 8, 8, 8, 8, 8, 8, 8], dtype=np.float32))
    array([ 2,  4,  5,  6,  7,  8,  9, 10], dtype=uint32)
    """
    fn = "nc_find_index8"
    a, name, out = in_out(fn, "data", data, VALID_DTYPES, in_dtype, dtype)
    a2, one_d = _rows_of(fn, a, "data")
    bits = _as_bits(a2, name)
    rows, t = bits.shape
    v = _vals_for(vals, rows, name, fn)
    size, osz = dtype_size(name), dtype_size(out)
    result = np.zeros((rows, 8), dtype=storage_dtype(out))
    with Runner(fn, generation, strict, return_words) as run:
        blocks = -(-rows // _PARTITIONS)
        fits = run.layout(blocks * (_ceil(t * size) + 2 * _ALIGN))
        run.result_shape("indices", (rows, 8), result.dtype)
        for r0 in range(0, rows, _PARTITIONS):
            r = min(_PARTITIONS, rows - r0)
            if fits or r0 == 0:
                src_off, val_off, dst_off = run.block(t * size, 8 * size, 8 * osz)
            run.load(0, src_off, bits[r0 : r0 + r], name="data")
            run.load(0, val_off, v[r0 : r0 + r], name="vals")
            run.run(lower.find_index8(vals_dtype=name, in_dtype=name, out_dtype=out, channels=r,
                                      vals=_tensor(val_off, 8, 2), data=_tensor(src_off, t),
                                      dst=_tensor(dst_off, 8, 2), names=_RESULT))
            result[r0 : r0 + r] = run.read(0, r, dst_off, 8, out, "indices",
                                           into=("indices", _parts(r0, r)))
        return run.result(result[0] if one_d else result)


def nc_match_replace8(data: ArrayLike, vals: ArrayLike, imm: float, *, dtype: DtypeLike = None,
                      in_dtype: DtypeLike = None, generation: str = "v3", strict: bool = False,
                      return_words: bool = False) -> PairResult:
    """Return NKI's ``nc_match_replace8`` as ``(dst, dst_idx)``: ``data`` with the first
    unconsumed match of each of the 8 ``vals`` replaced by ``imm``, and the positions.

    SPEC §4.10: MatchValueLoad with a positive step (``mv[7 - k] = vals[k]``) then
    MatchReplace8, then a FindIndex8 over NaNs (which match no slot, SPEC §4.9) that
    writes the lanes' matched positions: ``dst_idx[k]`` is the lane's ``idx[7 - k]``
    (0xFFFFFFFF: not found) — the words ``gpsimd.nki.isa.nc_match_replace8(...,
    dst_idx=)`` emits. Every element passes through FP32 (a BF16 signalling NaN comes
    back quiet).

    - ``data``: ``[rows, T]`` or 1-D of FP16, BF16, UINT8, UINT16, UINT32, FP32 or INT32
      (BF16 bits need ``in_dtype``).
    - ``vals``: 8 values or ``[rows, 8]``; ``imm``: a float (FP32).
    - ``dtype``: the result's dtype (MatchReplace8's ``out_dtype``), default the input's.

    >>> import numpy as np, gpsimd
    >>> data = np.array([1, 2, 3, 4, 8, 8, 8, 8, 8, 8, 8], dtype=np.float32)
    >>> dst, idx = gpsimd.nc_match_replace8(data, np.array([3, 8, 8, 8, 8, 8, 8, 8],
    ...                                     dtype=np.float32), imm=-1.0)
    >>> dst
    array([ 1.,  2., -1.,  4., -1., -1., -1., -1., -1., -1., -1.], dtype=float32)
    >>> idx
    array([ 2, 10,  9,  8,  7,  6,  5,  4], dtype=uint32)
    """
    fn = "nc_match_replace8"
    a, name, out = in_out(fn, "data", data, _MATCH_REPLACE_DTYPES, in_dtype, dtype)
    a2, one_d = _rows_of(fn, a, "data")
    bits = _as_bits(a2, name)
    rows, t = bits.shape
    v = _vals_for(vals, rows, name, fn)
    size, osz = dtype_size(name), dtype_size(out)
    imm = np.array(number(fn, "imm", imm), dtype=np.float32)[()]  # its bits, NaN payloads too
    result = np.zeros((rows, t), dtype=storage_dtype(out))
    idx = np.zeros((rows, 8), dtype=np.uint32)
    blocks = -(-rows // _PARTITIONS)
    nan = np.full((_PARTITIONS, 8), _NAN, np.float32)  # FindIndex8's source: matches nothing
    with Runner(fn, generation, strict, return_words) as run:
        fits = run.layout(blocks * (_ceil(t * size) + 3 * _ALIGN + _ceil(t * osz)))
        run.result_shape("dst", (rows, t), result.dtype)
        run.result_shape("dst_idx", (rows, 8), idx.dtype)
        for r0 in range(0, rows, _PARTITIONS):
            r = min(_PARTITIONS, rows - r0)
            if fits or r0 == 0:
                src_off, val_off, dst_off, nan_off, idx_off = run.block(
                    t * size, 8 * size, t * osz, 32, 32)
                run.load(0, nan_off, nan[:r], name="nan")
            run.load(0, src_off, bits[r0 : r0 + r], name="data")
            run.load(0, val_off, v[r0 : r0 + r], name="vals")
            run.run(lower.match_replace8(vals_dtype=name, in_dtype=name, out_dtype=out,
                                         channels=r, vals=_tensor(val_off, 8, 2),
                                         data=_tensor(src_off, t), dst=_tensor(dst_off, t),
                                         imm=imm, dst_idx=_tensor(idx_off, 8, 2),
                                         nan=_tensor(nan_off, 8), names=_RESULT))
            result[r0 : r0 + r] = run.read(0, r, dst_off, t, out, "dst",
                                           into=("dst", _parts(r0, r)))
            idx[r0 : r0 + r] = run.read(0, r, idx_off, 8, "UINT32", "dst_idx",
                                        into=("dst_idx", _parts(r0, r)))
        return run.result((result[0], idx[0]) if one_d else (result, idx))


def topk(tile: ArrayLike, k: int, *, dtype: DtypeLike = None, in_dtype: DtypeLike = None,
         generation: str = "v3", strict: bool = False, return_words: bool = False) -> PairResult:
    """Return ``(values, indices)``: the k largest values of each row, largest first, and
    their positions (uint32), built as NKI kernels build a top-k from the search
    instructions, all on one machine.

    Each round of 8 runs Max8 (the next 8 largest, as FP32 keys), a MatchValueLoad of
    them and FindIndex8 for their positions on the row as that round sees it, then
    (unless it is the last round) another MatchValueLoad and MatchReplace8, which writes
    the row as FP32 with the found elements knocked out as NaN: Max8 leaves NaNs out and
    FindIndex8 never matches one, so a knocked-out element, like a NaN of the data, is
    never taken again, and no value of the data can be mistaken for the knock-out.

    - **Values are the row's elements at the indices**, bit for bit (``tile[r,
      indices[r]]``): value and index always agree. (Max8's keys are the same numbers,
      except that FP32 equality finds a -0.0 for a +0.0 key, and that integers beyond
      2^24 compare rounded.)
    - **Order**: by value, largest first, comparing as FP32; equal values (+0.0 and -0.0
      included) in ascending position order, within a round and across rounds. This is
      NumPy's ``argsort(-x, kind="stable")`` with NaNs left out.
    - **-inf** is a value like any other.
    - **NaN is never selected.** A row with fewer than k non-NaN values fills its last
      columns with ``indices = 0xFFFFFFFF`` and ``values = -inf`` (the lowest value of
      an integer dtype), Max8's fill.

    - ``tile``: ``[rows, T]`` (1 <= k <= T <= 16384) or 1-D, of a MatchReplace8 input
      dtype: FP32, FP16, BF16 (bits with ``in_dtype``), INT32, UINT32, UINT16, UINT8.
    - ``dtype``: the values' dtype, which is the input's (naming it like ``in_dtype``).
    - ``return_words=True``: the words, run in order on one fresh machine holding the
      tile, leave the indices (result ``indices``) and Max8's keys (``keys``, FP32) in
      SBUF; the values are the tile at those indices.

    >>> import numpy as np, gpsimd
    >>> logits = np.array([0.1, 2.5, -1.0, 2.5, 7.0, 0.3, 4.0, 1.0, 3.0, 2.5], np.float32)
    >>> values, indices = gpsimd.topk(logits, 4)
    >>> values, indices
    (array([7. , 4. , 3. , 2.5], dtype=float32), array([4, 6, 8, 1], dtype=uint32))
    """
    fn = "topk"
    a, name = data_array(fn, "tile", tile, _MATCH_REPLACE_DTYPES, same_dtype(fn, dtype, in_dtype))
    a2, one_d = _rows_of(fn, a, "tile")
    bits = _as_bits(a2, name)
    rows, t = bits.shape
    k = integer(fn, "k", k, 1, t)
    size = dtype_size(name)
    rounds = -(-k // 8)
    keys = np.zeros((rows, 8 * rounds), dtype=np.float32)
    found = np.zeros((rows, 8 * rounds), dtype=np.uint32)
    with Runner(fn, generation, strict, return_words) as run:
        pbytes = run.partition_bytes()
        blocks = -(-rows // _PARTITIONS)
        results = 2 * _ceil(32 * rounds)  # the keys and the indices of every round
        work = 0 if rounds == 1 else _ceil(4 * t)
        # The input, two FP32 working copies (ping-pong) or one (knocked out in place).
        two = _ceil(t * size) + 2 * work + results <= pbytes
        per_block = _ceil(t * size) + (2 if two else 1) * work + results
        fits = run.layout(blocks * per_block)
        run.result_shape("keys", (rows, 8 * rounds), np.float32)
        run.result_shape("indices", (rows, 8 * rounds), np.uint32)
        for r0 in range(0, rows, _PARTITIONS):
            r = min(_PARTITIONS, rows - r0)
            if fits or r0 == 0:
                src_off, keys_off, idx_off, w0, w1 = run.block(
                    t * size, 32 * rounds, 32 * rounds, work, work if two else 0)
                if not two:
                    w1 = w0
            run.load(0, src_off, bits[r0 : r0 + r], name="tile")
            cur, cur_dtype = src_off, name
            words = []
            for i in range(rounds):
                kv, ix = keys_off + 32 * i, idx_off + 32 * i
                round_keys = _tensor(kv, 8, 2)
                words.append(lower.max8(in_dtype=cur_dtype, out_dtype="FP32", channels=r,
                                        src=_tensor(cur, t), dst=round_keys, names=_TOPK))
                # mv[n] = key n, then the keys' positions on the row as it now is.
                words += lower.find_index8(vals_dtype="FP32", in_dtype=cur_dtype,
                                           out_dtype="UINT32", channels=r, vals=round_keys,
                                           data=_tensor(cur, t), dst=_tensor(ix, 8, 2),
                                           names=_TOPK)
                if i + 1 < rounds:
                    nxt = w0 if (i % 2 == 0) else w1
                    # The slots re-armed as FindIndex8 had them, the found elements knocked out.
                    words += lower.match_replace8(vals_dtype="FP32", in_dtype=cur_dtype,
                                                  out_dtype="FP32", channels=r, vals=round_keys,
                                                  data=_tensor(cur, t), dst=_tensor(nxt, t),
                                                  imm=_NAN, reverse_vals=True, names=_TOPK)
                    cur, cur_dtype = nxt, "FP32"
            run.run(words)
            part = _parts(r0, r)
            keys[r0 : r0 + r] = run.read(0, r, keys_off, 8 * rounds, "FP32", "keys",
                                         into=("keys", part))
            found[r0 : r0 + r] = run.read(0, r, idx_off, 8 * rounds, "UINT32", "indices",
                                          into=("indices", part))
        # Max8 writes smallest first; its destination walks down from slot 7, so each
        # round's 8 keys sit largest first, as its FindIndex8 columns do (mv[n] = key n).
        idx = found[:, :k]
        valid = idx != 0xFFFFFFFF
        st = storage_dtype(name)
        if st.kind == "f":
            fill = np.array(-np.inf, dtype=st)
        elif name == "BF16":
            fill = np.array(0xFF80, dtype=st)
        else:
            fill = np.array(np.iinfo(st).min, dtype=st)
        vals = np.where(valid, np.take_along_axis(bits, np.where(valid, idx, 0).astype(np.intp),
                                                  axis=1), fill).astype(st)
        vals = vals.view(storage_dtype(name))
        result = (vals[0], idx[0]) if one_d else (vals, idx)
        return run.result(result)
