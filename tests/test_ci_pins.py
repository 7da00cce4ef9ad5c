"""`.ci/pins`, what CI's cache key is made of: a changed pin, of an agent adapter or of a package a test names,
scoped or not, is a new key (a new cache folder), and the repository's own pins are all in it."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from tests.conftest import ROOT
from tests.npm_packages import AGENT_CLIS


def pins(root: Path) -> list[str]:
    done = subprocess.run(
        ["bash", str(ROOT / ".ci" / "pins"), str(root)], capture_output=True, text=True, check=False, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_every_agent_cli_the_tests_install_is_in_the_cache_key() -> None:
    listed = "\n".join(pins(ROOT))
    for spec in AGENT_CLIS.values():
        package, version = spec.rsplit("@", 1)
        assert f'package = "{package}"' in listed and f'"{version}"' in listed, spec


def test_a_changed_pin_scoped_or_not_changes_what_the_key_is_made_of(tmp_path: Path) -> None:
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / "tests").mkdir()
    agents = tmp_path / "toolsurface" / "harness" / "agents"
    agents.mkdir(parents=True)
    adapter = agents / "cline.py"
    adapter.write_text(
        'class ClineAgent:\n    package = "cline"\n    tested_versions = ("3.0.65",)\n', encoding="utf-8"
    )
    named = tmp_path / "tests" / "test_x.py"
    named.write_text('SERVERS = {"a": "opencode-ai@1.18.33", "b": "@scope/server@2.0.0"}\n', encoding="utf-8")
    before = pins(tmp_path)
    assert '"opencode-ai@1.18.33"' in before and '"@scope/server@2.0.0"' in before
    for path, old, new in ((named, "1.18.33", "1.18.34"), (named, "2.0.0", "2.0.1"), (adapter, "3.0.65", "3.0.66")):
        path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
        after = pins(tmp_path)
        assert after != before, (path.name, new)
        before = after
