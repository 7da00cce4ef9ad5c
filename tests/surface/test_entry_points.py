"""Surfaces registered by entry point are found as importlib.metadata finds them, without importing it where
the import path is plain folders (harness.surface._entry_points)."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

from toolsurface.harness.surface._entry_points import declared_entry_points


def theirs(group: str, path: list[str]) -> list[tuple[str, str, str]]:
    from importlib.metadata import distributions

    seen: set[str] = set()
    found = []
    for dist in distributions(path=path):
        name = dist._normalized_name  # type: ignore[attr-defined]
        if name in seen:
            continue
        seen.add(name)
        found += [(ep.name, ep.value, ep.module) for ep in dist.entry_points.select(group=group)]
    return found


def ours(group: str, path: list[str]) -> list[tuple[str, str, str]]:
    return [(ep.name, ep.value, ep.module) for ep in declared_entry_points(group, path)]


def dist(site: Path, folder: str, entry_points: str | None) -> None:
    (site / folder).mkdir(parents=True)
    name = folder.partition("-")[0]
    (site / folder / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1\n", encoding="utf-8")
    if entry_points is not None:
        (site / folder / "entry_points.txt").write_text(entry_points, encoding="utf-8")


def test_the_entry_points_of_this_interpreter_are_those_importlib_metadata_finds() -> None:
    for group in ("toolsurface.surfaces", "console_scripts", "pytest11"):
        assert ours(group, sys.path) == theirs(group, sys.path), group
    assert ours("toolsurface.surfaces", sys.path)


def test_duplicates_comments_other_groups_and_shadowed_distributions_are_read_as_importlib_metadata_reads_them(
    tmp_path: Path,
) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    dist(first, "alpha-1.0.dist-info", "# a comment\n[other]\nx = a:b\n\n[g]\n  one = pkg.mod:THING \ntwo=pkg\n")
    dist(first, "Beta_Pkg-2.0.dist-info", None)  # shadows beta.pkg below, which then declares nothing
    dist(first, "gamma-1.egg-info", "[g]\none = gamma.mod:attr.sub [extra]\n")
    dist(second, "beta.pkg-1.0.dist-info", "[g]\nthree = beta:X\n")
    dist(second, "alpha-0.9.dist-info", "[g]\nold = alpha:OLD\n")
    dist(second, "delta-1.dist-info", "[g]\nfour = delta:Y\n")
    path = [str(first), str(tmp_path / "missing"), str(second)]
    assert ours("g", path) == theirs("g", path)
    assert [name for name, _, _ in ours("g", path)] == ["one", "two", "one", "four"]


def test_an_import_path_holding_a_zip_file_is_left_to_importlib_metadata(tmp_path: Path) -> None:
    archive = tmp_path / "site.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        zipped.writestr("zipped-1.dist-info/METADATA", "Metadata-Version: 2.1\nName: zipped\nVersion: 1\n")
        zipped.writestr("zipped-1.dist-info/entry_points.txt", "[g]\nz = zipped:Z\n")
    assert ours("g", [str(archive)]) == theirs("g", [str(archive)]) == [("z", "zipped:Z", "zipped")]


def test_an_entry_point_loads_its_attribute_path() -> None:
    [found] = [ep for ep in declared_entry_points("toolsurface.surfaces") if ep.name == "v2"]
    from toolsurface.surfaces.conderis.v2 import SURFACE

    assert found.load() is SURFACE


def test_listing_the_surfaces_does_not_import_importlib_metadata() -> None:
    code = (
        "import sys\nfrom toolsurface.harness.cli import main\ntry:\n    main(['list'])\nexcept SystemExit as done:\n"
        "    assert not done.code\nprint('importlib.metadata' in sys.modules, file=sys.stderr)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == "False"
