"""Homes for what the tests start. A test run (and `python -m benchmarks.smoke`) gives every process it starts (the
agent CLIs, Chromium, the MCP servers, npm, pip, matplotlib, the tests themselves) a HOME of its own in a temporary
folder, with the configuration, data, state and cache folders that follow it, and npm's logs beside it: the user's
home gets nothing but the caches the README names, which stay where they are. Those are toolsurface's cache (linked
into the run's cache folder: the agent CLIs and npm servers the tests install, Copilot CLI's unpacked program, the
token counter's files) and npm's and pip's download caches (named by their own variables). The user's npm and pip
configuration files are named too, so a registry mirror or proxy set there still applies; nothing else of the
user's home is read (no git identity, no agent login).

A test run enters its homes once, before its workers start (`RunHomes.enter`, from tests/conftest.py), and looks at
what the user's home holds near its top before and after, the caches aside: a change is said at the end of the run,
and fails it where TOOLSURFACE_STRICT_HOME is set (.ci/run sets it; elsewhere the user's own programs write in their
home meanwhile)."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "HOMES",
    "STRICT_HOME",
    "RunHomes",
    "home_changes",
    "home_look",
    "homes_env",
    "kept_caches",
    "note_install",
    "own_homes",
    "user_cache",
]

# Set while a folder of homes is in place: pytest-xdist's workers and runs started inside a test keep it.
HOMES = "TOOLSURFACE_TEST_HOMES"
# In that folder: one line for each thing installed on the machine for the tests, printed at the run's end.
INSTALLED = "installed.txt"
STRICT_HOME = "TOOLSURFACE_STRICT_HOME"
# Left to follow HOME, as they do on a machine that sets none of them.
_FOLLOW_HOME = ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "MPLCONFIGDIR")


def user_cache(env: Mapping[str, str]) -> Path:
    """The user's cache folder: $XDG_CACHE_HOME, else ~/.cache."""
    return Path(env.get("XDG_CACHE_HOME") or Path(env.get("HOME") or Path.home()) / ".cache")


def _user_home(env: Mapping[str, str]) -> Path:
    return Path(env.get("HOME") or Path.home())


def kept_caches(env: Mapping[str, str]) -> list[Path]:
    """The caches a test run may write in the user's home: toolsurface's (or the tests' own, when
    TOOLSURFACE_TEST_CACHE names one), npm's and pip's."""
    kept = [user_cache(env) / "toolsurface", Path(env.get("npm_config_cache") or _user_home(env) / ".npm") / "_cacache"]
    kept.append(Path(env.get("PIP_CACHE_DIR") or user_cache(env) / "pip"))
    if env.get("TOOLSURFACE_TEST_CACHE"):
        kept.append(Path(env["TOOLSURFACE_TEST_CACHE"]))
    return kept


def own_homes(folder: Path, toolsurface_cache: Path, env: Mapping[str, str]) -> dict[str, str | None]:
    """What to change in the user's environment `env` so that a process finds its home, configuration and caches in
    `folder` (a None value removes the variable), with `toolsurface_cache` as toolsurface's cache."""
    user = _user_home(env)
    home, cache = folder / "home", folder / "cache"
    home.mkdir(parents=True, exist_ok=True)
    cache.mkdir(exist_ok=True)
    if not (cache / "toolsurface").exists():
        toolsurface_cache.mkdir(parents=True, exist_ok=True)
        (cache / "toolsurface").symlink_to(toolsurface_cache, target_is_directory=True)
    changes: dict[str, str | None] = dict.fromkeys(_FOLLOW_HOME)
    changes |= {
        HOMES: str(folder),
        "HOME": str(home),
        "XDG_CACHE_HOME": str(cache),
        "npm_config_cache": env.get("npm_config_cache") or str(user / ".npm"),
        "npm_config_logs_dir": str(folder / "npm-logs"),
        "npm_config_update_notifier": "false",
        # Node 22+ keeps the code it compiled for the JavaScript clients (Gemini CLI, Qwen Code, Copilot's loader)
        # here, read back by each later start: about a sixth of such a start's CPU. Older Node ignores it.
        "NODE_COMPILE_CACHE": env.get("NODE_COMPILE_CACHE") or str(cache / "toolsurface" / "node-compile-cache"),
        "PIP_CACHE_DIR": env.get("PIP_CACHE_DIR") or str(user_cache(env) / "pip"),
    }
    for variable, config in (("npm_config_userconfig", user / ".npmrc"), ("PIP_CONFIG_FILE", _pip_config(env))):
        if not env.get(variable) and config.is_file():
            changes[variable] = str(config)
    return changes


def note_install(line: str) -> None:
    """`line` on stderr, and, in a test run, in its list of what was installed, which pytest prints at its end
    (a test's stderr is shown only when it fails)."""
    print(line, file=sys.stderr)
    folder = os.environ.get(HOMES)
    if folder and Path(folder).is_dir():
        with (Path(folder) / INSTALLED).open("a", encoding="utf-8") as said:
            said.write(line + "\n")


def homes_env(folder: Path, toolsurface_cache: Path, env: Mapping[str, str]) -> dict[str, str]:
    """`env` with the changes `own_homes` makes."""
    changed = {**env, **own_homes(folder, toolsurface_cache, env)}
    return {name: value for name, value in changed.items() if value is not None}


def _pip_config(env: Mapping[str, str]) -> Path:
    return Path(env.get("XDG_CONFIG_HOME") or _user_home(env) / ".config") / "pip" / "pip.conf"


def home_look(home: Path, kept: Iterable[Path], depth: int = 2) -> dict[str, int]:
    """What `home` holds to `depth` levels: each entry's path (relative) and modification time, the `kept` folders
    inside it left out, and the folders that hold them (whose times change when a kept folder is made)."""
    home = home.resolve()
    kept_inside = {path for path in (Path(os.path.abspath(k)) for k in kept) if path.is_relative_to(home)}
    holders = {parent for path in kept_inside for parent in path.parents}
    found: dict[str, int] = {}

    def walk(folder: Path, level: int) -> None:
        try:
            entries = list(os.scandir(folder))
        except OSError:
            return
        for entry in entries:
            path = Path(entry.path)
            if path in kept_inside:
                continue
            try:
                if path not in holders:
                    found[str(path.relative_to(home))] = entry.stat(follow_symlinks=False).st_mtime_ns
                if level < depth and entry.is_dir(follow_symlinks=False):
                    walk(path, level + 1)
            except OSError:
                continue

    walk(home, 1)
    return found


def home_changes(before: Mapping[str, int], after: Mapping[str, int]) -> list[str]:
    """Entries new, changed or gone between two looks, each as `~/PATH (new|changed|gone)`; a folder that changed
    only by an entry new or gone in it is not said twice."""
    new = [path for path in after if path not in before]
    gone = [path for path in before if path not in after]
    explained = {str(Path(path).parent) for path in (*new, *gone)}
    changed = [path for path in after if path in before and before[path] != after[path] and path not in explained]
    said = [f"~/{path} (new)" for path in new] + [f"~/{path} (changed)" for path in changed]
    return sorted(said + [f"~/{path} (gone)" for path in gone])


def _set_env(changes: Mapping[str, str | None]) -> None:
    for name, value in changes.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


@dataclass(frozen=True)
class RunHomes:
    """A test run's folder of homes, and the user's environment and home as they were before it."""

    folder: Path
    user_env: dict[str, str]
    home: Path
    kept: list[Path]
    look: dict[str, int]

    @classmethod
    def enter(cls) -> RunHomes:
        """Look at the user's home, then give this process (and whatever it starts) homes of a new folder."""
        user_env = dict(os.environ)
        home, kept = _user_home(user_env), kept_caches(user_env)
        homes = cls(
            Path(tempfile.mkdtemp(prefix="toolsurface-test-homes-")), user_env, home, kept, home_look(home, kept)
        )
        _set_env(own_homes(homes.folder, user_cache(user_env) / "toolsurface", user_env))
        return homes

    @property
    def strict(self) -> bool:
        return bool(self.user_env.get(STRICT_HOME))

    def changes(self) -> list[str]:
        """What changed in the user's home since `enter`, the caches aside."""
        return home_changes(self.look, home_look(self.home, self.kept))

    def installed(self) -> list[str]:
        """What was installed on the machine for the run, a line each (`note_install`)."""
        said = self.folder / INSTALLED
        return said.read_text(encoding="utf-8").splitlines() if said.is_file() else []

    def leave(self) -> None:
        """The folder removed, and the user's environment back."""
        shutil.rmtree(self.folder, ignore_errors=True)
        _set_env({name: self.user_env.get(name) for name in {*os.environ, *self.user_env}})
