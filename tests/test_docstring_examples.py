"""The examples in the core's docstrings run and say what they print (a wrong example misleads
more than none)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest
import rerank_plus

MODULES = sorted(
    info.name
    for info in pkgutil.walk_packages(rerank_plus.__path__, prefix="rerank_plus.")
    if not info.name.endswith("__main__")
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_hold(name: str) -> None:
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for test in finder.find(module, name):
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} docstring example(s) of {name} failed (see above)"
