"""Every public function and class of gpsimd has a docstring example, and it runs."""

import doctest
import inspect
import pathlib

import pytest

import gpsimd

MODULES = [gpsimd, gpsimd.codec, gpsimd.dtypes, gpsimd.errors, gpsimd.formats, gpsimd.machine,
           gpsimd.ops, gpsimd.predicates, gpsimd.search]


@pytest.mark.parametrize("module", MODULES, ids=[m.__name__ for m in MODULES])
def test_examples_run(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
    assert result.attempted > 0


def test_every_public_name_has_an_example():
    missing = []
    for name in gpsimd.__all__:
        obj = getattr(gpsimd, name)
        if not (inspect.isfunction(obj) or inspect.isclass(obj)):
            continue
        if obj is gpsimd.Diagnostic:
            continue  # a C++ class; validate()'s example shows it
        if ">>>" not in (obj.__doc__ or ""):
            missing.append(name)
        if obj is gpsimd.Machine:
            for attr, member in vars(obj).items():
                if inspect.isfunction(member) and not attr.startswith("_"):
                    if ">>>" not in (member.__doc__ or ""):
                        missing.append(f"Machine.{attr}")
    assert not missing, f"no runnable example: {missing}"


def test_the_python_page_examples_run():
    page = pathlib.Path(__file__).resolve().parents[2] / "docs" / "python.md"
    result = doctest.testfile(str(page), module_relative=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
    assert result.attempted >= 10
