"""A study's plan: each surface resolved, built and served once, one record per surface that every run, the stub
starter and the fork server take as it is, and the scripts its runs play."""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest

from tests.conftest import ROOT, Run, run_cli, run_cli_process
from toolsurface.harness.scenario import load_scenario, script_path
from toolsurface.harness.session.plan import StudyConfig, plan_matrix
from toolsurface.harness.session.study import agent_choices
from toolsurface.harness.surface import Kind, Surface, SurfaceDefinition, resolve


@pytest.mark.parametrize("how", ["fork", "spawn"])
def test_a_study_resolves_and_builds_each_surface_once_in_the_process_that_plans_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    import toolsurface.harness.surface as surface_face

    built: Counter[str] = Counter()
    resolved: Counter[str] = Counter()
    build, resolve = SurfaceDefinition.build_surface, surface_face.resolve

    def counted_build(self: SurfaceDefinition, kinds: Sequence[Kind] | None = None) -> Surface:
        built[self.name] += 1
        return build(self, kinds)

    def counted_resolve(spec: str) -> object:
        resolved[spec] += 1
        return resolve(spec)

    monkeypatch.setattr(SurfaceDefinition, "build_surface", counted_build)
    monkeypatch.setattr(surface_face, "resolve", counted_resolve)
    out = tmp_path / "study"
    run = run_cli(
        "session", "run", "--agent", "script", "--surface", "v2", "--surface", "before-v2", "--runs", "2",
        "--jobs", "2", "--stub-start", how, "--out", str(out), timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    specs = [json.loads(p.read_text(encoding="utf-8")) for p in out.rglob("spec.json")]
    assert len(specs) == 4 and {s["stub_start"] for s in specs} == {how}
    assert built == resolved == {"v2": 1, "before-v2": 1}


def test_a_surface_module_is_imported_by_the_study_and_its_fork_server_once_each_and_never_by_a_forked_stub(
    tmp_path: Path,
) -> None:
    imports = tmp_path / "imports.txt"
    module = tmp_path / "counted.py"
    module.write_text(
        "import dataclasses, os\n"
        "from toolsurface.surfaces.conderis.v2 import SURFACE as V2\n"
        f"with open({str(imports)!r}, 'a', encoding='utf-8') as log:\n"
        "    log.write(f'{os.getpid()}\\n')\n"
        "SURFACE = dataclasses.replace(V2, name='counted')\n",
        encoding="utf-8",
    )
    script = ROOT / "toolsurface" / "sessions" / "scripts" / "six-tasks" / "v2.json"
    out = tmp_path / "study"
    run = run_cli(
        "session", "run", "--agent", "script", "--surface", str(module), "--script", str(script), "--runs", "3",
        "--stub-start", "fork", "--out", str(out), timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    results = [json.loads(p.read_text(encoding="utf-8")) for p in out.rglob("result.json")]
    assert len(results) == 3 and all(r["calls"] == 14 for r in results)
    assert all(json.loads(p.read_text(encoding="utf-8"))["stub_start"] == "fork" for p in out.rglob("spec.json"))
    importers = imports.read_text(encoding="utf-8").split()
    assert len(importers) == len(set(importers)) == 2 and str(os.getpid()) in importers


def test_every_run_of_a_surface_takes_the_one_record_its_study_planned(tmp_path: Path) -> None:
    config = StudyConfig(
        surfaces=["v2", "before-v2"],
        agents=agent_choices(["script"]),
        scenario=load_scenario("six-tasks"),
        runs=2,
        out=tmp_path,
    )
    matrix = plan_matrix(config)
    assert [s.name for s in matrix.surfaces] == ["v2", "before-v2"]
    for surface in matrix.surfaces:
        runs = [run for run in matrix.runs if run.surface is surface]
        assert [run.index for run in runs] == [0, 1]
        assert all(run.script == script_path("six-tasks", surface.name) for run in runs)
        assert surface.scripts == (script_path("six-tasks", surface.name),) * 2
    served = resolve("v2").build_surface().tools
    assert len(matrix.runs) == 4 and matrix.surfaces[0].tools == tuple(tool.name for tool in served)


def test_a_scenario_with_a_script_per_recorded_run_gives_each_run_its_own(tmp_path: Path) -> None:
    config = StudyConfig(
        surfaces=["v2"],
        agents=agent_choices(["script"]),
        scenario=load_scenario("six-tasks-seed"),
        runs=3,
        out=tmp_path,
    )
    [surface] = plan_matrix(config).surfaces
    assert surface.scripts == tuple(script_path("six-tasks-seed", "v2", n) for n in range(3))
    assert all(path.is_file() and path.name == f"r{n + 1}.json" for n, path in enumerate(surface.scripts))


DRIFTING = """
import dataclasses, pathlib
from toolsurface.surfaces.conderis.v2 import SURFACE as V2
counter = pathlib.Path(__file__).with_name("builds.txt")
n = int(counter.read_text(encoding="utf-8")) if counter.exists() else 0
counter.write_text(str(n + 1), encoding="utf-8")


def build(kinds):
    tools = list(V2.build(kinds))
    tools[0] = {**tools[0], "description": tools[0]["description"] + f" Build {n}."}
    return tools


SURFACE = dataclasses.replace(V2, name="drifting", build=build)
"""


def drifting_study(tmp_path: Path, how: str) -> tuple[Run, Path]:
    """A study of a surface whose first tool's description changes each time a process imports its module."""
    module = tmp_path / "drifting.py"
    module.write_text(DRIFTING, encoding="utf-8")
    script = ROOT / "toolsurface" / "sessions" / "scripts" / "six-tasks" / "v2.json"
    out = tmp_path / "study"
    run = run_cli_process(
        "session", "run", "--agent", "script", "--surface", str(module), "--script", str(script), "--runs", "1",
        "--stub-start", how, "--out", str(out), timeout=300,
    )  # fmt: skip
    return run, out


CHANGED = re.compile(
    r"surface 'drifting' builds differently from the one planned \(its tools' sha256 [0-9a-f]{12}, planned"
    r" [0-9a-f]{12}\): it changed after planning; plan the run again"
)


def test_a_fork_server_refuses_a_surface_that_builds_differently_from_the_planned_one_in_one_line(
    tmp_path: Path,
) -> None:
    run, _ = drifting_study(tmp_path, "fork")
    assert run.returncode == 2
    [line] = run.stderr.splitlines()
    assert line.startswith("toolsurface: ") and CHANGED.search(line), line


def test_a_spawned_stub_of_a_surface_that_builds_differently_refuses_and_its_run_says_why(tmp_path: Path) -> None:
    run, out = drifting_study(tmp_path, "spawn")
    assert run.returncode == 1, run.stderr
    [result] = [json.loads(p.read_text(encoding="utf-8")) for p in out.rglob("result.json")]
    assert result["status"] == "error" and result["calls"] == 0
    assert CHANGED.fullmatch(result["error"]), result["error"]


@pytest.mark.parametrize(
    "spec", ["v2", "before-v2", "helpdesk-tools", str(ROOT / "toolsurface" / "surfaces" / "answer_probe.py")]
)
def test_a_planned_surfaces_digest_is_the_one_its_stub_lists_itself(spec: str) -> None:
    from toolsurface.harness.session.plan import plan_surface
    from toolsurface.stubs.digest import served_digest
    from toolsurface.stubs.serve import surface_to_serve

    planned = plan_surface(spec)
    assert served_digest(surface_to_serve(planned.spec)) == planned.sha256
    assert planned.serve_args()[:4] == ["serve", planned.spec, "--surface-sha256", planned.sha256]


def test_serve_refuses_a_digest_its_surface_does_not_list_to_in_one_line(tmp_path: Path) -> None:
    from toolsurface.harness.session.plan import plan_surface

    run = run_cli_process("serve", "v2", "--surface-sha256", "0" * 64, "--log", str(tmp_path / "calls.jsonl"))
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.splitlines() == [
        f"toolsurface: surface 'v2' builds differently from the one planned (its tools' sha256"
        f" {plan_surface('v2').sha256[:12]}, planned 000000000000): it changed after planning; plan the run again"
    ]
    assert not (tmp_path / "calls.jsonl").exists()
