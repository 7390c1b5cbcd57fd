"""``python -m gpsimd.nki``: run NKI code unchanged on gpsimd.nki, its imports
(``neuronxcc.nki``, ``nki``) resolved by :func:`gpsimd.nki.install_aliases`.

- ``python -m gpsimd.nki run FILE [ARGS...]``: run a script as ``__main__``;
- ``python -m gpsimd.nki test FILE... [PYTEST OPTIONS]``: run test files with pytest.
"""

from __future__ import annotations

import runpy
import sys

from . import install_aliases

USAGE = ("usage: python -m gpsimd.nki run FILE [ARGS...]\n"
         "       python -m gpsimd.nki test FILE... [PYTEST OPTIONS]")


def main(argv: list[str]) -> int:
    if len(argv) < 2 or argv[0] not in ("run", "test"):
        print(USAGE, file=sys.stderr)
        return 2
    install_aliases()
    if argv[0] == "run":
        sys.argv = argv[1:]
        runpy.run_path(argv[1], run_name="__main__")
        return 0
    import pytest

    return int(pytest.main(argv[1:]))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
