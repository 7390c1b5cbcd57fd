"""Builds and installs gpsimd's Python package with CMake:

    pip install --no-build-isolation .

The extension (gpsimd._core) is built by the project's CMake (Ninja), for the interpreter
that runs pip, and only that target; the pure-Python package comes from python/gpsimd.
The version is CMake's project version (CMakeLists.txt), the one `gpsimd --version`
prints. Everything is in Debian 12 (scripts/setup.sh): no network is needed.
"""

import os
import pathlib
import re
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent


def project_version():
    """Return the VERSION of CMakeLists.txt's project(gpsimd ...)."""
    text = (ROOT / "CMakeLists.txt").read_text()
    match = re.search(r"project\(gpsimd\s+VERSION\s+([0-9][0-9.]*)", text)
    if match is None:
        raise RuntimeError("setup.py: CMakeLists.txt has no project(gpsimd VERSION x.y.z)")
    return match.group(1)


class CMakeExtension(Extension):
    """An extension CMake builds (no sources for setuptools to compile)."""

    def __init__(self, name, target):
        super().__init__(name, sources=[])
        self.target = target


class CMakeBuild(build_ext):
    """Configures the project with only the Python module on and builds its target."""

    def build_extension(self, ext):
        dest = pathlib.Path(self.get_ext_fullpath(ext.name)).resolve()
        build = pathlib.Path(self.build_temp).resolve() / "cmake"
        configure = [
            "cmake", "-S", str(ROOT), "-B", str(build), "-G", "Ninja",
            "-DCMAKE_BUILD_TYPE=Release",
            f"-DPython_EXECUTABLE={sys.executable}",
            "-DGPSIMD_BUILD_PYTHON=ON",
            "-DGPSIMD_BUILD_TESTS=OFF",
            "-DGPSIMD_BUILD_TOOLS=OFF",
            "-DGPSIMD_BUILD_BENCH=OFF",
        ]
        # The presets' compiler (CMakePresets.json), unless CXX names another: the same
        # compiler and flags as a release build, whose objects ccache then supplies.
        if not os.environ.get("CXX"):
            configure.append("-DCMAKE_CXX_COMPILER=g++")
        jobs = str(os.cpu_count() or 1)
        subprocess.run(configure, check=True)
        subprocess.run(["cmake", "--build", str(build), "--target", ext.target, "-j", jobs],
                       check=True)
        suffix = os.path.splitext(dest.name)[1]
        built = sorted((build / "python" / "gpsimd").glob("_core*" + suffix))
        if len(built) != 1:
            raise RuntimeError(f"setup.py: expected one built _core module, found {built}")
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built[0], dest)


setup(
    version=project_version(),
    packages=["gpsimd", "gpsimd.nki"],
    package_dir={"": "python"},
    package_data={"gpsimd": ["py.typed", "*.pyi"]},
    ext_modules=[CMakeExtension("gpsimd._core", target="gpsimd_python")],
    cmdclass={"build_ext": CMakeBuild},
    zip_safe=False,
)
