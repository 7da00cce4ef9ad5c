"""A test run's controller writes the checkout's bytecode once before its workers start (tests/helpers/bytecode.py):
Python's for every module, pytest's rewritten code for each test module and conftest, and again only for what
changed."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from _pytest.assertion import rewrite

from tests.helpers.bytecode import compile_ahead


def _rewritten(source: Path) -> Path:
    return rewrite.get_cache_dir(source) / (source.name[:-3] + rewrite.PYC_TAIL)


def test_every_module_gets_its_bytecode_and_each_test_module_its_rewritten_code_once(
    tmp_path: Path, pytestconfig: pytest.Config
) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    files = {name: package / name for name in ("__init__.py", "helper.py", "test_one.py", "conftest.py")}
    for name, path in files.items():
        path.write_text(f"def check() -> None:\n    assert {name!r}\n", encoding="utf-8")
    (package / "broken.py").write_text("def (\n", encoding="utf-8")

    compile_ahead(pytestconfig, tmp_path, ("pkg",))
    assert all(Path(importlib.util.cache_from_source(str(path))).is_file() for path in files.values())
    tests = [files["test_one.py"], files["conftest.py"]]
    assert all(rewrite._read_pyc(source, _rewritten(source)) is not None for source in tests)
    assert not _rewritten(files["helper.py"]).exists() and not _rewritten(package / "broken.py").exists()

    written = {source: _rewritten(source).stat().st_mtime_ns for source in tests}
    files["test_one.py"].write_text("def check() -> None:\n    assert 'changed'\n", encoding="utf-8")
    compile_ahead(pytestconfig, tmp_path, ("pkg",))
    assert _rewritten(files["test_one.py"]).stat().st_mtime_ns != written[files["test_one.py"]]
    assert _rewritten(files["conftest.py"]).stat().st_mtime_ns == written[files["conftest.py"]]
