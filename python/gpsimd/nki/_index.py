"""NKI's index expressions — ``nl.arange``, ``nl.mgrid``, ``nl.ds`` — and HBM tensors.

An index expression is affine in index variables: ``nl.arange(512)[None, :]`` is one
variable of 512 values placed on dimension 1 of a 2-D index grid, ``5 + 2 * i`` an
expression of it, ``ix, iy = nl.mgrid[0:128, 0:512]`` two variables on dimensions 0 and
1. Indexing a tile or an HBM tensor with expressions of one variable each (``t[ix, iy]``,
``t[i_p, 2 * i_f + 1]``) is a strided view, as a slice is; an expression of two
variables (``t[ix + iy]``) or a tile as an index (indirect access) is not a view and
raises NotImplementedError. A comparison of an expression with a number is a
predicate (``mask=(i_p < 64) & (i_f < 256)``), which narrows the variables' ranges;
``affine_select``'s ``pred=`` and ``iota``'s expression are affine values the
instruction computes itself.

HBM tensors are NumPy arrays (:class:`HbmTensor`, an ``ndarray`` that takes these
indices as views, so ``nl.store(out[i_p, i_f], t)`` writes ``out``).
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

__all__ = ["Var", "IndexExpr", "Predicate", "arange", "mgrid", "ds", "HbmTensor", "narrow"]

_IDS = itertools.count()


class Var:
    """One index variable: the values ``0 .. count-1``, on dimension ``dim`` of an index
    grid of ``ndim`` dimensions (None until placed by ``[None, :]`` or ``mgrid``)."""

    def __init__(self, count: int, dim: int | None = None, ndim: int | None = None) -> None:
        self.count = int(count)
        self.dim = dim
        self.ndim = ndim
        self.id = next(_IDS)

    def __repr__(self) -> str:
        return f"i{self.id}[0:{self.count}]"


def _is_int(x: Any) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


class IndexExpr:
    """``const + Σ coef * var``: an affine expression of index variables."""

    __array_priority__ = 100  # int * expr and np.int32 * expr come here

    def __init__(self, terms: dict[Var, int], const: int = 0) -> None:
        self.terms = {v: c for v, c in terms.items() if c != 0}
        self.const = int(const)

    # -- arithmetic ---------------------------------------------------------------------

    def _combine(self, other: Any, sign: int) -> "IndexExpr":
        if isinstance(other, IndexExpr):
            terms = dict(self.terms)
            for v, c in other.terms.items():
                terms[v] = terms.get(v, 0) + sign * c
            return IndexExpr(terms, self.const + sign * other.const)
        if _is_int(other):
            return IndexExpr(self.terms, self.const + sign * int(other))
        return NotImplemented

    def __add__(self, other: Any) -> "IndexExpr":
        return self._combine(other, 1)

    __radd__ = __add__

    def __sub__(self, other: Any) -> "IndexExpr":
        return self._combine(other, -1)

    def __rsub__(self, other: Any) -> "IndexExpr":
        return (-self)._combine(other, 1)

    def __neg__(self) -> "IndexExpr":
        return IndexExpr({v: -c for v, c in self.terms.items()}, -self.const)

    def __mul__(self, other: Any) -> "IndexExpr":
        if not _is_int(other):
            if isinstance(other, IndexExpr):
                raise TypeError("an index expression times an index expression is not affine")
            return NotImplemented
        k = int(other)
        return IndexExpr({v: c * k for v, c in self.terms.items()}, self.const * k)

    __rmul__ = __mul__

    # -- placing a 1-D arange on a grid dimension: arange(n)[None, :] ----------------------

    def __getitem__(self, key: Any) -> "IndexExpr":
        if not isinstance(key, tuple):
            key = (key,)
        (v,) = self.terms or (None,)
        if v is None or len(self.terms) != 1 or v.dim is not None:
            raise IndexError("only a 1-D nl.arange is placed on a grid by [None, :] / [:, None]")
        full = [i for i, k in enumerate(key) if isinstance(k, slice)]
        if len(full) != 1 or any(k is not None and not isinstance(k, slice) for k in key):
            raise IndexError(f"nl.arange(...)[{key}]: expected one ':' and Nones, e.g. [None, :]")
        placed = Var(v.count, full[0], len(key))
        return IndexExpr({placed: self.terms[v]}, self.const)

    # -- predicates -----------------------------------------------------------------------

    def _cmp(self, op: str, other: Any) -> "Predicate":
        rhs = other if isinstance(other, IndexExpr) else IndexExpr({}, int(other))
        return Predicate([(self - rhs, op)])

    def __lt__(self, other: Any) -> "Predicate":
        return self._cmp("<", other)

    def __le__(self, other: Any) -> "Predicate":
        return self._cmp("<=", other)

    def __gt__(self, other: Any) -> "Predicate":
        return self._cmp(">", other)

    def __ge__(self, other: Any) -> "Predicate":
        return self._cmp(">=", other)

    def __eq__(self, other: Any) -> "Predicate":  # type: ignore[override]
        return self._cmp("==", other)

    def __ne__(self, other: Any) -> "Predicate":  # type: ignore[override]
        return self._cmp("!=", other)

    __hash__ = object.__hash__

    # -- as an index --------------------------------------------------------------------

    def var(self) -> tuple[Var, int] | None:
        """Return (variable, coefficient) of an expression of one variable, else None."""
        if len(self.terms) != 1:
            return None
        ((v, c),) = self.terms.items()
        return v, c

    def values(self, shape_dims: int | None = None) -> np.ndarray:
        """The expression's values on its grid, as NumPy broadcasts them."""
        dims = [v for v in self.terms]
        ndim = max([v.ndim or 1 for v in dims] + [shape_dims or 1])
        out = np.full((1,) * ndim, self.const, dtype=np.int64)
        for v, c in self.terms.items():
            shape = [1] * ndim
            shape[v.dim if v.dim is not None else ndim - 1] = v.count
            out = out + c * np.arange(v.count, dtype=np.int64).reshape(shape)
        return out

    def __repr__(self) -> str:
        parts = [f"{c}*{v!r}" for v, c in self.terms.items()] + [str(self.const)]
        return " + ".join(parts)


class Predicate:
    """A conjunction of ``expr op 0`` (``op`` one of ``< <= > >= == !=``): a ``mask=`` or
    ``affine_select``'s ``pred=``. Combine with ``&`` (Python's ``and`` cannot be
    captured: it raises)."""

    def __init__(self, parts: list[tuple[IndexExpr, str]]) -> None:
        self.parts = parts

    def __and__(self, other: "Predicate") -> "Predicate":
        if not isinstance(other, Predicate):
            return NotImplemented
        return Predicate(self.parts + other.parts)

    def __bool__(self) -> bool:
        raise TypeError("an NKI predicate has no truth value: combine predicates with '&' "
                        "((i < a) & (j < b)), not 'and'")

    def ranges(self) -> dict[Var, tuple[int, int]]:
        """Return, for each variable, the range ``[lo, hi)`` of its values the predicate
        keeps; raise NotImplementedError when a part is not a bound on one variable."""
        out: dict[Var, tuple[int, int]] = {}
        for expr, op in self.parts:
            one = expr.var()
            if one is None or op in ("==", "!="):
                raise NotImplementedError(
                    f"mask: {expr!r} {op} 0 is not a bound on one index variable; gpsimd.nki "
                    "narrows a view by masks of the form (i < n) & (j >= m)")
            v, c = one
            lo, hi = out.get(v, (0, v.count))
            # c * x + k  op  0
            k = expr.const
            if op in ("<", "<="):
                # c*x < -k
                bound = -k - (1 if op == "<" else 0)  # c*x <= bound
                if c > 0:
                    hi = min(hi, bound // c + 1)
                else:
                    lo = max(lo, -(bound // -c))
            else:
                bound = -k + (1 if op == ">" else 0)  # c*x >= bound
                if c > 0:
                    lo = max(lo, -(-bound // c))
                else:
                    hi = min(hi, (-bound) // -c + 1)
            out[v] = (lo, max(lo, hi))
        return out

    def __repr__(self) -> str:
        return " & ".join(f"({e!r} {op} 0)" for e, op in self.parts)


def arange(start: int, stop: int | None = None, step: int = 1) -> IndexExpr:
    """NKI's ``nl.arange``: an index variable of ``len(range(start, stop, step))``
    values, as an expression ``start + step * i``; place it on a grid dimension with
    ``[None, :]`` (free) or ``[:, None]`` (partition).

    >>> import gpsimd.nki.language as nl
    >>> i_f = nl.arange(2, 10, 2)[None, :]
    >>> (3 * i_f + 1).values().tolist()
    [[7, 13, 19, 25]]
    """
    if stop is None:
        start, stop = 0, start
    n = len(range(int(start), int(stop), int(step)))
    return IndexExpr({Var(n): int(step)}, int(start))


class _Grid(tuple):
    """The expressions of ``nl.mgrid[...]``: unpack them (``ix, iy = nl.mgrid[...]``) or
    name them ``.p`` (dimension 0) and ``.x``, ``.y``, ``.z`` (dimensions 1, 2, 3)."""

    @property
    def p(self) -> IndexExpr:
        return self[0]

    @property
    def x(self) -> IndexExpr:
        return self[1]

    @property
    def y(self) -> IndexExpr:
        return self[2]

    @property
    def z(self) -> IndexExpr:
        return self[3]


class _MGrid:
    """``nl.mgrid[0:128, 0:512]``: one index variable per slice, each on its dimension.

    >>> import gpsimd.nki.language as nl
    >>> ix, iy = nl.mgrid[0:2, 0:3]
    >>> (ix * 3 + iy).values().tolist()
    [[0, 1, 2], [3, 4, 5]]
    """

    def __getitem__(self, key: Any) -> _Grid:
        if not isinstance(key, tuple):
            key = (key,)
        out = []
        for d, k in enumerate(key):
            if not isinstance(k, slice) or k.stop is None:
                raise IndexError(f"nl.mgrid[{key}]: each dimension is a slice start:stop[:step]")
            start, step = k.start or 0, k.step or 1
            n = len(range(start, k.stop, step))
            out.append(IndexExpr({Var(n, d, len(key)): step}, start))
        return _Grid(out)

    def __repr__(self) -> str:
        return "nl.mgrid"


mgrid = _MGrid()


def ds(start: int, size: int) -> slice:
    """NKI's dynamic slice ``nl.ds(start, size)``: the slice ``start:start + size``.

    >>> import gpsimd.nki.language as nl
    >>> nl.ds(512, 512)
    slice(512, 1024, None)
    """
    return slice(int(start), int(start) + int(size))


def as_slice(call: str, k: Any, length: int, ranges: dict[Var, tuple[int, int]] | None = None
             ) -> Any:
    """Return an index of a view as a slice or an int: an expression of one variable is
    the slice of its values (narrowed by ``ranges``, a mask's); a slice and an int pass."""
    if isinstance(k, IndexExpr):
        one = k.var()
        if one is None:
            if not k.terms:
                return k.const
            raise NotImplementedError(
                f"{call}: the index {k!r} depends on {len(k.terms)} index variables; a view "
                "indexes each dimension by one variable (t[ix, iy]), so this access pattern "
                "is not modelled yet")
        v, c = one
        lo, hi = (ranges or {}).get(v, (0, v.count))
        first = k.const + c * lo
        n = hi - lo
        if n <= 0:
            raise IndexError(f"{call}: the mask leaves no element of {k!r}")
        last = first + c * (n - 1)
        if not (0 <= first < length and 0 <= last < length):
            raise IndexError(f"{call}: the index {k!r} runs {first}..{last}, out of a "
                             f"dimension of {length}")
        stop = last + (1 if c > 0 else -1)
        return slice(first, None if stop < 0 else stop, c)
    if isinstance(k, slice) or k is None or k is Ellipsis or _is_int(k):
        return k
    if type(k).__name__ == "Tile":
        raise NotImplementedError(
            f"{call}: a tile as an index is an indirect access (DMA with a dynamic offset), "
            "which gpsimd.nki does not model yet")
    return k


def order_vars(call: str, key: tuple) -> None:
    """Refuse a key whose variables, by their grid dimension, are out of order (a
    transposing access pattern, not a view)."""
    dims = [one[0].dim for k in key if isinstance(k, IndexExpr) and (one := k.var())
            and one[0].dim is not None]
    if dims != sorted(dims):
        raise NotImplementedError(f"{call}: the index variables are out of their grid order "
                                  "(a transposed access), which is not modelled yet")


def dim_vars(key: tuple) -> list[Var | None]:
    """The index variable of each dimension a key leaves (ints drop their dimension)."""
    out: list[Var | None] = []
    for k in key:
        if isinstance(k, IndexExpr):
            one = k.var()
            if one is not None or k.terms:
                out.append(one[0] if one else None)
        elif isinstance(k, slice):
            out.append(None)
    return out


class PendingView:
    """An index of an HBM tensor that runs out of it until a ``mask=`` narrows it
    (``nl.store(out[i_p, i_f], t, mask=(i_p < 64))`` with ``out`` of 64 rows)."""

    def __init__(self, base: "HbmTensor", key: tuple, error: IndexError) -> None:
        self.base, self.key, self.error = base, key, error

    def narrow(self, call: str, ranges: dict[Var, tuple[int, int]]) -> Any:
        if not ranges:
            raise self.error
        return self.base._view(call, self.key, ranges)


class HbmTensor(np.ndarray):
    """An HBM tensor of a gpsimd.nki kernel: a NumPy array that also takes NKI's indices
    (``t[i_p, i_f]`` with ``nl.arange``/``nl.mgrid`` expressions, ``t[:, nl.ds(0, 512)]``)
    as views, so that a store writes into it. ``@nki.jit`` hands a kernel its NumPy
    arguments as HbmTensors (views, no copy) and returns plain arrays."""

    def __bool__(self) -> bool:
        """True, as NKI's tensor handles are (``x = nl.load(t) if t else None`` tests
        whether the kernel was given a tensor, not its values)."""
        return True

    def _view(self, call: str, key: tuple, ranges: dict[Var, tuple[int, int]] | None) -> Any:
        order_vars(call, key)
        real = [k for k in key if k is not None]
        np_key = tuple(as_slice(call, k, self.shape[i] if i < self.ndim else 0, ranges)
                       for i, k in enumerate(real))
        view = np.ndarray.__getitem__(self, np_key)
        if isinstance(view, HbmTensor):
            view._dim_vars = dim_vars(tuple(real))
        return view

    def __getitem__(self, key: Any) -> Any:
        tup = key if isinstance(key, tuple) else (key,)
        if any(type(k).__name__ == "Tile" for k in tup):
            as_slice("HBM tensor[...]", next(k for k in tup if type(k).__name__ == "Tile"), 0)
        if any(isinstance(k, IndexExpr) for k in tup):
            try:
                return self._view("HBM tensor[...]", tup, None)
            except IndexError as e:
                return PendingView(self, tup, e)
        return super().__getitem__(key)


def narrow(call: str, x: Any, mask: Any) -> Any:
    """Return the view ``x`` (a tile or an HBM view) narrowed by ``mask`` (a
    :class:`Predicate`, or None): each dimension indexed by a masked variable keeps the
    values the mask keeps; a dimension not indexed by a variable is narrowed by the
    masked variable of its grid dimension (``mask=(i_p < 64)`` on a 128-row tile)."""
    if mask is None:
        if isinstance(x, PendingView):
            raise x.error
        return x
    if not isinstance(mask, Predicate):
        raise TypeError(f"{call}: mask: expected a predicate of index variables "
                        f"((i_p < 64) & (i_f < 256)), got {mask!r}")
    ranges = mask.ranges()
    if isinstance(x, PendingView):
        return x.narrow(call, ranges)
    vars_ = getattr(x, "_dim_vars", None) or [None] * len(x.shape)
    key = []
    for d, v in enumerate(vars_):
        if v is None:
            v = next((u for u in ranges if u.dim == d and u.ndim == len(x.shape)
                      and u.count == x.shape[d]), None)
        if v is not None and v in ranges:
            lo, hi = ranges[v]
            if hi <= lo:
                raise IndexError(f"{call}: the mask leaves no element")
            key.append(slice(lo, hi))
        else:
            key.append(slice(None))
    return x[tuple(key)] if key else x


def hbm(a: Any) -> Any:
    """Return a NumPy array as an HbmTensor view (other values unchanged)."""
    if isinstance(a, np.ndarray) and not isinstance(a, HbmTensor):
        return a.view(HbmTensor)
    return a


def plain(a: Any) -> Any:
    """Return HbmTensors (in tuples, lists, dicts too) as plain NumPy arrays."""
    if isinstance(a, HbmTensor):
        return a.view(np.ndarray)
    if isinstance(a, tuple):
        return type(a)(plain(x) for x in a) if type(a) is tuple else tuple(plain(x) for x in a)
    if isinstance(a, list):
        return [plain(x) for x in a]
    if isinstance(a, dict):
        return {k: plain(v) for k, v in a.items()}
    return a
