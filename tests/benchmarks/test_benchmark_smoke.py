"""Every benchmark script declares its smallest run (benchmarks/smoke.py, which .ci/run runs after the tests), read
from its source without importing it; a script that declares nothing, or something else than a list of strings or
a reason, is named."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.smoke import Smoke, declared, main

SCRIPT = 'if __name__ == "__main__":\n    print(1)\n'


def test_every_benchmark_script_declares_its_smoke_run_or_why_it_has_none() -> None:
    smokes, missing = declared()
    assert missing == [], f"add SMOKE = [ARGS...] or SMOKE_SKIPPED = REASON to benchmarks/{missing[0]}.py"
    assert {"large_lists", "__main__"} <= {s.name for s in smokes}


def test_declarations_are_read_from_scripts_only_and_a_bad_one_is_named(tmp_path: Path) -> None:
    (tmp_path / "small.py").write_text(f'SMOKE = ["--runs", "1", "--out", "{{tmp}}"]\n{SCRIPT}', encoding="utf-8")
    (tmp_path / "big.py").write_text(f'import sys\nSMOKE_SKIPPED = "it needs a GPU"\n{SCRIPT}', encoding="utf-8")
    (tmp_path / "library.py").write_text("def helper() -> int:\n    return 1\n", encoding="utf-8")
    (tmp_path / "silent.py").write_text(SCRIPT, encoding="utf-8")
    (tmp_path / "computed.py").write_text(f"SMOKE = ['--runs', str(1)]\n{SCRIPT}", encoding="utf-8")
    (tmp_path / "both.py").write_text(f'SMOKE = []\nSMOKE_SKIPPED = "why"\n{SCRIPT}', encoding="utf-8")
    (tmp_path / "raises.py").write_text(f'raise SystemExit("imported")\nSMOKE = ["1"]\n{SCRIPT}', encoding="utf-8")
    smokes, missing = declared(tmp_path)
    assert smokes == [
        Smoke("big", None, "it needs a GPU"),
        Smoke("raises", ("1",), None),
        Smoke("small", ("--runs", "1", "--out", "{tmp}"), None),
    ]
    assert missing == ["both", "computed", "silent"]


def test_the_package_runs_as_python_m_benchmarks() -> None:
    assert Smoke("__main__", None, "why").module == "benchmarks"
    assert Smoke("large_lists", ("1",), None).module == "benchmarks.large_lists"


def test_listing_prints_each_scripts_command_and_runs_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--list", "large_lists", "__main__"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("== python -m benchmarks: skipped, ")
    assert out[1] == "== python -m benchmarks.large_lists --runs 1 --tools 200"


def test_an_unknown_script_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as ended:
        main(["nonesuch"])
    assert ended.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1].endswith("no benchmark script named nonesuch")
