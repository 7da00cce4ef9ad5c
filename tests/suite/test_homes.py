"""A test run leaves the user's home alone (tests/helpers/homes.py): every process it starts finds its home,
configuration, data, state and caches in a folder of the run's own, toolsurface's cache linked in where it was;
what the user's home holds near its top is compared before and after the run, the caches the README names aside,
and a change is said at the end (failing the run when TOOLSURFACE_STRICT_HOME is set, as .ci/run sets it), as is
whatever was installed on the machine for the tests."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.homes import HOMES, home_changes, home_look, homes_env, kept_caches
from tests.helpers.paths import ROOT


def test_this_test_runs_with_a_home_and_caches_of_the_test_runs_own() -> None:
    folder = Path(os.environ[HOMES])
    assert Path.home() == folder / "home"
    assert Path(os.environ["XDG_CACHE_HOME"]) == folder / "cache"
    assert (folder / "cache" / "toolsurface").is_symlink() and (folder / "cache" / "toolsurface").is_dir()
    assert not {"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "MPLCONFIGDIR"} & set(os.environ)
    assert Path(os.environ["npm_config_logs_dir"]).parent == folder  # noqa: SIM112 (npm spells it so)


def _user_env(user: Path) -> dict[str, str]:
    user.mkdir()
    return {"PATH": os.environ["PATH"], "HOME": str(user)}


@pytest.mark.skipif(shutil.which("npm") is None, reason="npm")
def test_npm_and_matplotlib_write_their_logs_configuration_and_caches_in_the_runs_folder(tmp_path: Path) -> None:
    user_env = _user_env(tmp_path / "user")
    env = homes_env(tmp_path / "run", tmp_path / "toolsurface-cache", user_env)
    npm = subprocess.run(["npm", "config", "get", "cache"], env=env, capture_output=True, text=True, timeout=60)
    assert npm.stdout.strip() == str(tmp_path / "user" / ".npm")
    show = "import matplotlib; print(matplotlib.get_configdir()); print(matplotlib.get_cachedir())"
    matplotlib = subprocess.run([sys.executable, "-c", show], env=env, capture_output=True, text=True, timeout=60)
    assert matplotlib.stdout.split() == [str(tmp_path / "run" / "home" / ".config" / "matplotlib"),
                                         str(tmp_path / "run" / "cache" / "matplotlib")]  # fmt: skip
    assert list((tmp_path / "run" / "npm-logs").glob("*-debug-0.log"))
    assert home_look(tmp_path / "user", kept_caches(user_env)) == {}
    assert (tmp_path / "run" / "cache" / "toolsurface").resolve() == tmp_path / "toolsurface-cache"


def test_node_keeps_the_code_it_compiled_in_toolsurfaces_cache_across_runs(tmp_path: Path) -> None:
    from benchmarks.snapshot import find_node22

    env = homes_env(tmp_path / "run", tmp_path / "toolsurface-cache", _user_env(tmp_path / "user"))
    kept = tmp_path / "toolsurface-cache" / "node-compile-cache"
    assert Path(env["NODE_COMPILE_CACHE"]).resolve() == kept
    node = find_node22()
    assert node is not None, "Node 22 from npm's registry (benchmarks.snapshot.find_node22)"
    script = tmp_path / "script.js"
    script.write_text("console.log(require('node:module').getCompileCacheDir());\n", encoding="utf-8")
    shown = subprocess.run([node, str(script)], env=env, capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0 and Path(shown.stdout.strip()).resolve().is_relative_to(kept), shown.stderr
    assert list(kept.rglob("*")), "nothing compiled was kept"


def test_a_look_at_a_home_sees_what_is_new_changed_or_gone_near_its_top_and_not_in_its_caches(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / ".config" / "app").mkdir(parents=True)
    (home / ".profile").write_text("old", encoding="utf-8")
    (home / ".old").write_text("", encoding="utf-8")
    kept = kept_caches({"HOME": str(home)})
    before = home_look(home, kept)
    (home / ".cache" / "toolsurface" / "agent-clis").mkdir(parents=True)
    (home / ".npm" / "_cacache").mkdir(parents=True)
    (home / ".npm" / "_logs").mkdir()
    (home / ".config" / "chromium").mkdir()
    (home / ".claude.json").write_text("{}", encoding="utf-8")
    (home / ".old").unlink()
    os.utime(home / ".profile", ns=(0, 0))
    assert home_changes(before, home_look(home, kept)) == [
        "~/.claude.json (new)",
        "~/.config/chromium (new)",
        "~/.npm/_logs (new)",
        "~/.old (gone)",
        "~/.profile (changed)",
    ]


LEAVES = """
import os
from pathlib import Path

from tests.helpers.homes import note_install


def test_leaves_a_file_in_the_users_home():
    note_install("tests/helpers/debian.py: installing nothing, for the guard's own test")
    Path(os.environ["THE_USERS_HOME"], ".left-behind").write_text("", encoding="utf-8")
    assert Path.home() != Path(os.environ["THE_USERS_HOME"])
"""


@pytest.mark.parametrize("strict", [True, False], ids=["ci", "local"])
def test_a_run_that_writes_in_the_users_home_says_so_at_its_end_and_fails_in_ci(tmp_path: Path, strict: bool) -> None:
    (tmp_path / "test_leaves.py").write_text(LEAVES, encoding="utf-8")
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    user = tmp_path / "user"
    user.mkdir()
    env = {k: v for k, v in os.environ.items() if k != HOMES and k != "TOOLSURFACE_STRICT_HOME"}
    env |= {"HOME": str(user), "THE_USERS_HOME": str(user), "PYTHONPATH": str(ROOT)}
    if strict:
        env["TOOLSURFACE_STRICT_HOME"] = "1"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tests.conftest", "-p", "no:cacheprovider", "-p", "no:xdist",
         "-c", str(tmp_path / "pytest.ini"), "--rootdir", str(tmp_path), str(tmp_path / "test_leaves.py")],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == (1 if strict else 0), done.stdout + done.stderr
    out = done.stdout
    assert "1 passed" in out
    installed = out.index("installed for the tests")
    assert "tests/helpers/debian.py: installing nothing, for the guard's own test" in out[installed:]
    said = out[out.index("the user's home changed during the tests") :]
    assert "holds 1 new or changed entries outside the caches the README names" in said
    assert "~/.left-behind (new)" in said
    assert ("(another program's, or a test's: .ci/run fails on them)" in said) is not strict
