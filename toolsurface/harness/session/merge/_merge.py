"""Shards of one study, run apart (a CI matrix: `session run --shard I/N`) and merged into one study folder.

Each `session run` writes `plan.json` beside its runs (harness.session.plan): what the study is and which shard
this folder holds. `merge_shards` refuses folders of different studies, naming the first difference, then copies every finished
run into one folder and scores them all into its study.json. A shard holding a symbolic link (a run's
transcript, a folder) is refused, naming the link: a copy would bring in whatever it points to."""

from __future__ import annotations

import os
import shutil
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.files import check_writable, read_text, write_atomic_all
from toolsurface.harness.output import json_document
from toolsurface.harness.run_folder import PLAN, RESULT, RUNS, SPEC, STUDY
from toolsurface.harness.session.plan import StudyPlan, read_plan, run_folder_name
from toolsurface.harness.session.record import RunRecord
from toolsurface.harness.session.score import Study, find_runs, score_study


@dataclass(frozen=True)
class MergeOutcome:
    study: Study
    path: Path
    runs: int
    shards: int


def _plan_of_runs(folder: Path, records: Sequence[RunRecord]) -> StudyPlan:
    """A folder written before plans were: its plan as its runs tell it (one scenario, model and version)."""
    first = records[0].spec
    for record in records[1:]:
        spec = record.spec
        for name, mine, theirs in (
            ("scenario", spec.scenario_sha256, first.scenario_sha256),
            ("model", spec.model, first.model),
            ("toolsurface version", spec.packages.get("toolsurface"), first.packages.get("toolsurface")),
        ):
            if mine != theirs:
                raise ToolsurfaceError(f"{folder}: its runs differ in {name}; it holds more than one study")
    return StudyPlan(
        scenario=first.scenario,
        scenario_sha256=first.scenario_sha256,
        surfaces={r.spec.surface: r.spec.surface_sha256 for r in records},
        agents=sorted({f"{r.spec.agent}-{r.spec.mode}" for r in records}),
        model=first.model,
        runs=max(r.spec.run_index for r in records) + 1,
        toolsurface=first.packages.get("toolsurface", "unknown"),
        shard=None,
        from_runs=True,
    )


def _check_runs(folder: Path, plan: StudyPlan, records: Sequence[RunRecord]) -> None:
    """Every run of a folder belongs to its plan."""
    for record in records:
        spec = record.spec
        where = f"{record.path}"
        if (spec.scenario, spec.scenario_sha256) != (plan.scenario, plan.scenario_sha256):
            raise ToolsurfaceError(f"{where}: its scenario differs from {folder}/plan.json ({plan.scenario})")
        if plan.surfaces.get(spec.surface) != spec.surface_sha256:
            raise ToolsurfaceError(f"{where}: its surface {spec.surface} differs from {folder}/plan.json")
        if spec.model != plan.model:
            raise ToolsurfaceError(f"{where}: its model differs from {folder}/plan.json")


def _difference(first: tuple[Path, StudyPlan], other: tuple[Path, StudyPlan]) -> str | None:
    (here, mine), (there, theirs) = first, other
    if mine.from_runs or theirs.from_runs:
        # Only what both folders ran can be compared: a surface's digest, the scenario, model and version.
        common = sorted(set(mine.surfaces) & set(theirs.surfaces))
        mine = StudyPlan(
            **{
                **asdict(mine),
                "surfaces": {n: mine.surfaces[n] for n in common},
                "agents": [],
                "runs": 0,
                "shard": None,
            }
        )
        theirs = StudyPlan(
            **{
                **asdict(theirs),
                "surfaces": {n: theirs.surfaces[n] for n in common},
                "agents": [],
                "runs": 0,
                "shard": None,
            }
        )
    for (name, ours), (_, other_value) in zip(mine.identity(), theirs.identity(), strict=True):
        if ours != other_value:
            return (
                f"{there} is not a shard of the study in {here}: they differ in {name}: {other_value} in {there},"
                f" {ours} in {here}"
            )
    return None


def merge_shards(folders: Sequence[Path], out: Path) -> MergeOutcome:
    """Copy every finished run of the shards into `out` (runs/SURFACE/RUN/, as one study run them) and write
    out/study.json and out/plan.json. Shards of different studies, a shard given twice or missing, or one run
    recorded differently in two shards are refused before anything is written."""
    if not folders:
        raise ToolsurfaceError("give the shards' folders to merge")
    out_resolved = out.resolve()
    shards: list[tuple[Path, StudyPlan, list[RunRecord]]] = []
    for folder in folders:
        if not folder.is_dir():
            raise ToolsurfaceError(f"{folder}: no such shard folder")
        if folder.resolve() == out_resolved:
            raise ToolsurfaceError(f"{folder}: a shard cannot be merged into itself; give another --out")
        _refuse_links(folder)
        plan = read_plan(folder)
        # A shard may hold no run (more shards than runs); its plan still says which study it belongs to.
        has_runs = any((folder / RUNS).rglob(SPEC)) if (folder / RUNS).is_dir() else False
        records = find_runs([folder]) if plan is None or has_runs else []
        plan = plan or _plan_of_runs(folder, records)
        _check_runs(folder, plan, records)
        shards.append((folder, plan, records))
    first = (shards[0][0], shards[0][1])
    for folder, plan, _ in shards[1:]:
        found = _difference(first, (folder, plan))
        if found:
            raise ToolsurfaceError(found)
    _check_shard_set(shards)
    copies = [(source, out / relative) for source, relative in _copies(shards)]
    for source, target in copies:
        if target.exists() and not _same_run(source, target):
            raise ToolsurfaceError(f"{target} is already in {out}, recorded differently from {source}")
    written = [out / PLAN, out / STUDY]
    for record in written:
        check_writable(record)
    for source, target in copies:
        if not target.exists():
            _copy_run(source, target)
    total = first[1].shard[1] if first[1].shard else 1
    surfaces = {name: digest for _, plan, _ in shards for name, digest in plan.surfaces.items()}
    plan = StudyPlan(**{**asdict(first[1]), "surfaces": surfaces, "shard": None})
    study = score_study(find_runs([out], list(plan.surfaces)))
    write_atomic_all(
        [
            (record, json_document(data))
            for record, data in zip(written, (plan.to_json(), study.to_json(out)), strict=True)
        ]
    )
    return MergeOutcome(study, written[1], len(copies), total)


def _copy_run(source: Path, target: Path) -> None:
    """A run copied whole or not at all: into a folder beside its place, then renamed into it."""
    staged = target.with_name(f".{target.name}.{os.getpid()}.partial")
    try:
        shutil.copytree(source, staged, symlinks=True)
        os.replace(staged, target)
    except (OSError, shutil.Error) as error:
        shutil.rmtree(staged, ignore_errors=True)
        raise ToolsurfaceError(
            f"cannot copy {source} to {target}: {getattr(error, 'strerror', None) or error}"
        ) from None


def _refuse_links(folder: Path) -> None:
    """No symbolic link in the shard's plan or anywhere under its runs: each would be copied as what it
    points to, which may be any file outside the shard."""
    if os.path.islink(folder / PLAN):
        raise ToolsurfaceError(f"{folder / PLAN}: a symbolic link; a shard is merged only from its own files")
    runs = folder / RUNS
    if os.path.islink(runs):
        raise ToolsurfaceError(f"{runs}: a symbolic link; a shard is merged only from its own files")
    for here, folders, files in os.walk(runs):
        for name in sorted(folders + files):
            if os.path.islink(os.path.join(here, name)):
                raise ToolsurfaceError(
                    f"{os.path.join(here, name)}: a symbolic link in a shard; merge copies only its own files and "
                    "folders, never what a link points to (replace the link by the file, or remove it)"
                )


def _check_shard_set(shards: Sequence[tuple[Path, StudyPlan, list[RunRecord]]]) -> None:
    seen: dict[int, Path] = {}
    planned = [plan.shard for _, plan, _ in shards if plan.shard is not None]
    if not planned:
        return
    total = planned[0][1]
    for folder, plan, _ in shards:
        if plan.shard is None:
            continue
        part = plan.shard[0]
        if part in seen:
            raise ToolsurfaceError(f"{folder} and {seen[part]} are both shard {part}/{total}")
        seen[part] = folder
    missing = [str(n) for n in range(1, total + 1) if n not in seen]
    if missing and len(planned) == len(shards):
        raise ToolsurfaceError(f"shard {', '.join(f'{m}/{total}' for m in missing)} missing: merge every shard")


def _copies(shards: Sequence[tuple[Path, StudyPlan, list[RunRecord]]]) -> list[tuple[Path, Path]]:
    """Where each run goes in the merged folder; one run found in two shards must be recorded alike."""
    placed: dict[Path, Path] = {}
    copies = []
    for _, _, records in shards:
        for record in records:
            relative = Path(RUNS) / run_folder_name(record.spec.surface) / record.path.name
            earlier = placed.get(relative)
            if earlier is not None:
                if not _same_run(earlier, record.path):
                    raise ToolsurfaceError(f"{record.path} and {earlier} are one run recorded differently")
                continue
            placed[relative] = record.path
            copies.append((record.path, relative))
    return copies


def _same_run(a: Path, b: Path) -> bool:
    def record(run: Path, name: str) -> str | None:
        try:
            return read_text(run / name, follow_links=False)
        except ToolsurfaceError:
            return None

    return all((found := record(a, name)) is not None and found == record(b, name) for name in (SPEC, RESULT))
