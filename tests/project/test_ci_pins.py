"""`.ci/pins`, what CI's cache key is made of: a changed pin, of a client's card (each module pyproject.toml's
`toolsurface.agents` entry points name) or of a package a test names, scoped or not, is a new key (a new cache
folder), and the repository's own pins are all in it."""

from __future__ import annotations

import subprocess
import tomllib
from pathlib import Path

from tests.conftest import ROOT
from tests.helpers.npm_packages import AGENT_CLIS


def pins(root: Path) -> list[str]:
    done = subprocess.run(
        ["bash", str(ROOT / ".ci" / "pins"), str(root)], capture_output=True, text=True, check=False, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_every_agent_cli_the_tests_install_is_in_the_cache_key() -> None:
    listed = pins(ROOT)
    for name, spec in AGENT_CLIS.items():
        package, version = spec.rsplit("@", 1)
        [line] = [line for line in listed if line.startswith(f"{name} ")]
        assert f"package={package!r}" in line and f"pinned={version!r}" in line, spec


def test_the_cache_key_reads_each_client_from_the_entry_points_pyproject_declares() -> None:
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    clients = declared["project"]["entry-points"]["toolsurface.agents"]
    listed = {line.split(" ", 1)[0] for line in pins(ROOT) if "package=" in line}
    assert listed == {name for name in clients if name in AGENT_CLIS} == set(AGENT_CLIS)


def test_a_changed_pin_scoped_or_not_changes_what_the_key_is_made_of(tmp_path: Path) -> None:
    project = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    project += '\n[project.entry-points."toolsurface.agents"]\nacme = "acme_client.card:AcmeAgent"\n'
    (tmp_path / "pyproject.toml").write_text(
        project.replace('[project.entry-points."toolsurface.agents"]', "[project.entry-points.before]", 1),
        encoding="utf-8",
    )
    (tmp_path / "tests").mkdir()
    module = tmp_path / "acme_client" / "card.py"
    module.parent.mkdir()
    module.write_text(
        "class AcmeAgent(CliAgent):\n"
        '    card = ClientCard(name="acme", package="acme-cli", pinned="3.0.65", newer=("3.1.0",), modes=("default",))\n',
        encoding="utf-8",
    )
    named = tmp_path / "tests" / "test_x.py"
    named.write_text('SERVERS = {"a": "opencode-ai@1.18.33", "b": "@scope/server@2.0.0"}\n', encoding="utf-8")
    before = pins(tmp_path)
    assert '"opencode-ai@1.18.33"' in before and '"@scope/server@2.0.0"' in before
    assert "acme newer=('3.1.0',) package='acme-cli' pinned='3.0.65'" in before
    changes = (
        (named, "1.18.33", "1.18.34"),
        (named, "2.0.0", "2.0.1"),
        (module, "3.0.65", "3.0.66"),
        (module, "3.1.0", "3.2.0"),
    )
    for path, old, new in changes:
        path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
        after = pins(tmp_path)
        assert after != before, (path.name, new)
        before = after
