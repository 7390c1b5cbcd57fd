"""Installs gpsimd with pip into a fresh virtual environment and uses it from outside
the source tree (registered in ctest as python_venv_install; docs/python.md).

    check_venv_install.py <source root> [<gpsimd CLI>]

The venv sees the system's site-packages (for NumPy, setuptools and wheel, all from
Debian); pip runs offline (--no-index) without build isolation, so the extension is
built by setup.py with CMake for the venv's interpreter. Exits non-zero on any failure.
"""

import os
import pathlib
import re
import subprocess
import sys
import tempfile

CHECK = r"""
import pathlib, sys
import numpy as np
import gpsimd

root, version = pathlib.Path(sys.argv[1]).resolve(), sys.argv[2]
where = pathlib.Path(gpsimd.__file__).resolve()
assert pathlib.Path(sys.prefix).resolve() in where.parents, f"imported from {where}"
assert root not in where.parents, f"imported from the source tree: {where}"
assert gpsimd.__version__ == version, (gpsimd.__version__, version)
assert (where.parent / "py.typed").is_file() and (where.parent / "_core.pyi").is_file()
values, indices = gpsimd.sort(np.array([[3, 1, 2]], dtype=np.float32), descending=True)
assert values.tolist() == [[3.0, 2.0, 1.0]] and indices.tolist() == [[0, 2, 1]]
import gpsimd.nki as nki, gpsimd.nki.isa as nisa, gpsimd.nki.language as nl
with nki.Program():
    t = nl.ndarray((1, 4), dtype=nl.int32)
    nisa.iota(t, [[1, 4]], 2)
    assert t.numpy().tolist() == [[2, 3, 4, 5]]
print(f"gpsimd {gpsimd.__version__} from {where.parent}: sort and gpsimd.nki ok")
"""


def run(cmd, **kw):
    print("+", " ".join(str(c) for c in cmd), flush=True)
    subprocess.run([str(c) for c in cmd], check=True, **kw)


def main():
    root = pathlib.Path(sys.argv[1]).resolve()
    text = (root / "CMakeLists.txt").read_text()
    version = re.search(r"project\(gpsimd\s+VERSION\s+([0-9.]+)", text).group(1)
    if len(sys.argv) > 2:
        cli = subprocess.run([sys.argv[2], "--version"], capture_output=True, text=True,
                             check=True).stdout.strip()
        if cli != f"gpsimd {version}":
            sys.exit(f"the CLI prints {cli!r}, the project version is {version}")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    with tempfile.TemporaryDirectory(prefix="gpsimd-venv-") as tmp:
        venv = pathlib.Path(tmp) / "venv"
        run([sys.executable, "-m", "venv", "--system-site-packages", venv], env=env)
        python = venv / "bin" / "python"
        run([python, "-m", "pip", "install", "--no-build-isolation", "--no-index",
             "--no-cache-dir", "--disable-pip-version-check", root], env=env)
        run([python, "-c", CHECK, root, version], env=env, cwd=tmp)


if __name__ == "__main__":
    main()
