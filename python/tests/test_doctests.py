"""Every public function and class of gpsimd has a docstring example, and it runs."""

import doctest
import inspect
import pathlib

import pytest

import gpsimd

import gpsimd.nki  # noqa: E402 - the subpackage, with its modules
import gpsimd.nki.isa  # noqa: E402
import gpsimd.nki.language  # noqa: E402

MODULES = [gpsimd, gpsimd._api, gpsimd._lower, gpsimd._operands, gpsimd.alu, gpsimd.codec,
           gpsimd.dtypes, gpsimd.errors, gpsimd.formats, gpsimd.machine, gpsimd.ops,
           gpsimd.predicates, gpsimd.search, gpsimd._program, gpsimd.queues, gpsimd.nki,
           gpsimd.nki._kernel, gpsimd.nki.isa, gpsimd.nki.language]


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


@pytest.mark.parametrize("module", [gpsimd.nki, gpsimd.nki.isa, gpsimd.nki.language],
                         ids=lambda m: m.__name__)
def test_every_nki_function_has_an_example(module):
    missing = []
    for name in module.__all__:
        obj = getattr(module, name)
        if inspect.isfunction(obj) and ">>>" not in (obj.__doc__ or ""):
            missing.append(name)
        if inspect.isclass(obj) and obj.__module__.startswith("gpsimd"):
            for attr, member in vars(obj).items():
                if inspect.isfunction(member) and not attr.startswith("_") and \
                        obj.__name__ in ("Program", "Tile") and ">>>" not in (member.__doc__ or ""):
                    missing.append(f"{name}.{attr}")
    assert not missing, f"no runnable example: {missing}"


def test_the_python_page_examples_run():
    page = pathlib.Path(__file__).resolve().parents[2] / "docs" / "python.md"
    result = doctest.testfile(str(page), module_relative=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
    assert result.attempted >= 10
