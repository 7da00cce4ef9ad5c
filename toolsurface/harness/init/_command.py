"""The server's command as CI runs it. A command started here by a virtual environment's interpreter or one at an
absolute path (`.venv/bin/python server.py`, `/usr/bin/python3 server.py`) names something CI does not have:
it is written with the interpreter CI sets up (`python`, `node`), and what was replaced is said. The interpreter
that ran it here is kept, to find out which distributions the server's imports come from."""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["CiCommand", "ci_command", "in_virtual_environment", "is_python", "python_script"]

_PYTHON = re.compile(r"python(\d+(\.\d+)*)?")
# Interpreters CI sets up by their own name (actions/setup-node puts these on PATH).
_NODE = ("node", "npx", "bun", "deno", "tsx")
# Options of python that take a value, so the script is not mistaken for one.
_PYTHON_VALUED = ("-W", "-X", "--check-hash-based-pycs")


@dataclass(frozen=True)
class CiCommand:
    """`argv` as the configuration holds it; `given` as it was typed; `replaced`: the first argument as typed
    when it was rewritten, `why` it was; `python`: the interpreter that runs the server here (a Python), if any."""

    argv: tuple[str, ...]
    given: tuple[str, ...]
    replaced: str | None = None
    why: str | None = None
    python: Path | None = None
    # An absolute path CI will not have, kept as typed (not an interpreter toolsurface knows the CI name of).
    machine_path: str | None = None

    @property
    def interpreter(self) -> Path | None:
        """The Python the command itself is (`python server.py`), as found here; None for any other command."""
        return self.python if is_python(self.given[0]) else None


def is_python(command: str) -> bool:
    return _PYTHON.fullmatch(Path(command).name.removesuffix(".exe")) is not None


def in_virtual_environment(executable: Path) -> Path | None:
    """The virtual environment whose `bin/` (or `Scripts/`) holds `executable`, by its pyvenv.cfg; links are not
    followed (a venv's python is a link to the interpreter it was made from)."""
    folder = Path(os.path.abspath(executable)).parent.parent
    return folder if (folder / "pyvenv.cfg").is_file() else None


def _located(first: str, cwd: Path) -> Path | None:
    if os.sep in first or (os.altsep and os.altsep in first):
        return Path(os.path.abspath(cwd / first))
    found = shutil.which(first)
    return Path(found) if found is not None else None


def ci_command(argv: Sequence[str], cwd: Path) -> CiCommand:
    """The command as CI runs it, from `argv` as it ran in `cwd`."""
    given = tuple(argv)
    first = given[0]
    name = Path(first).name
    located = _located(first, cwd)
    venv = in_virtual_environment(located) if located is not None and os.sep in first else None
    python = located if is_python(first) else (venv / "bin" / "python" if venv is not None else None)
    if python is not None and not python.exists():
        python = None
    pathlike = os.path.isabs(first) or venv is not None or (is_python(first) and os.sep in first)
    if not pathlike:
        return CiCommand(given, given, python=python)
    where = "a virtual environment's" if venv is not None else "a path on this machine"
    if is_python(first):
        why = f"{first} is {where}, which CI does not have; there `python` is the one the workflow sets up"
        return CiCommand(("python", *given[1:]), given, first, why, python)
    if name in _NODE:
        why = f"{first} is {where}, which CI does not have; there `{name}` is the one the workflow sets up"
        return CiCommand((name, *given[1:]), given, first, why, python)
    if venv is not None:
        why = f"{first} is {where} script, which CI does not have; there the project's install puts `{name}` on PATH"
        return CiCommand((name, *given[1:]), given, first, why, python)
    return CiCommand(given, given, python=python, machine_path=first)


def python_script(argv: Sequence[str]) -> tuple[str, str] | None:
    """What a python command runs: ("script", PATH) or ("module", NAME); None for `-c` or no script."""
    rest = list(argv[1:])
    while rest:
        arg = rest.pop(0)
        if arg == "-m":
            return ("module", rest[0]) if rest else None
        if arg.startswith("-m") and len(arg) > 2:
            return "module", arg[2:]
        if arg == "-c" or arg.startswith("-c"):
            return None
        if arg in _PYTHON_VALUED:
            rest = rest[1:]
            continue
        if arg.startswith("-"):
            continue
        return "script", arg
    return None
