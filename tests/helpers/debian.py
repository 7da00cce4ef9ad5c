"""Debian packages the suite runs (Chromium for the page tests, strace for the network check): found, or installed
with apt-get when missing (root, or sudo without a password), without recommended packages and upgrading nothing
the machine has (apt-get's own simulation is read first, and a plan that would change an installed package is
refused), saying in one line what it installs and why (on stderr, and at the end of a test run:
tests/helpers/homes.py). Test runs and workers that find one missing at once take turns, the
first installs it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from tests.helpers.homes import note_install
from tests.helpers.npm_packages import cache_dir
from tests.helpers.shared import held

__all__ = ["APT_FLAGS", "AptPlan", "apt_plan", "debian_program", "refuse_changes"]

# No recommended packages (Chromium's pull about 100 more), and nothing installed upgraded.
APT_FLAGS = ["--no-install-recommends", "--no-upgrade"]
_INST = re.compile(r"^Inst (\S+)( \[[^\]]*\])?")
_REMV = re.compile(r"^Remv (\S+)")


@dataclass(frozen=True)
class AptPlan:
    """What `apt-get install` would do, from its own simulation: packages new to the machine, installed ones it
    would upgrade, and ones it would remove."""

    installs: tuple[str, ...]
    upgrades: tuple[str, ...]
    removals: tuple[str, ...]


def apt_plan(packages: list[str], *options: str) -> AptPlan | None:
    """The plan of installing `packages` with APT_FLAGS (`options` go to apt-get too), or None when apt-get
    cannot make one (a package it does not know of yet)."""
    done = subprocess.run(
        ["apt-get", "install", "-s", *APT_FLAGS, *options, *packages],
        capture_output=True, text=True, env={**os.environ, "LC_ALL": "C"}, timeout=300, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        return None
    installs, upgrades, removals = [], [], []
    for line in done.stdout.splitlines():
        if (found := _INST.match(line)) is not None:
            (upgrades if found.group(2) else installs).append(found.group(1))
        elif (found := _REMV.match(line)) is not None:
            removals.append(found.group(1))
    return AptPlan(tuple(installs), tuple(upgrades), tuple(removals))


def refuse_changes(plan: AptPlan, package: str) -> None:
    """Nothing the machine has is changed for a test: a plan that upgrades or removes a package is refused."""
    changed = [*plan.upgrades, *plan.removals]
    if changed:
        raise RuntimeError(
            f"installing Debian's {package} would upgrade or remove {len(changed)} installed packages"
            f" ({', '.join(changed[:10])}{', ...' if len(changed) > 10 else ''}); nothing was installed: install it"
            f" yourself (apt-get install {' '.join(APT_FLAGS)} {package})"
        )


def _found(program: Path) -> Path | None:
    if program.exists():
        return program
    found = shutil.which(program.name)
    return Path(found) if found else None


def debian_program(package: str, program: Path, why: str) -> Path:
    """`program`, from Debian's `package`: found, or installed here (after an update when the lists do not name
    the package yet), saying so and `why` in one line."""
    found = _found(program)
    if found:
        return found
    with held(cache_dir(f"{package}.lock")):
        return _found(program) or _install(package, program, why)


def _install(package: str, program: Path, why: str) -> Path:
    sudo = [] if os.geteuid() == 0 else ["sudo", "-n"]
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for refresh in (False, True):
        if refresh:  # the package lists may not name it yet
            subprocess.run([*sudo, "apt-get", "update", "-q"], capture_output=True, env=env, timeout=900, check=False)
        plan = apt_plan([package])
        if plan is None:
            continue
        refuse_changes(plan, package)
        note_install(
            f"tests/helpers/debian.py: installing Debian's {package} with apt-get ({' '.join(APT_FLAGS)}), {why}:"
            f" {len(plan.installs)} packages, {', '.join(plan.installs)}"
        )
        command = [*sudo, "apt-get", "install", "-y", "-q", *APT_FLAGS, package]
        subprocess.run(command, capture_output=True, env=env, timeout=900, check=False)
        found = _found(program)
        if found:
            return found
    raise RuntimeError(
        f"Debian's {package} is needed and could not be installed: run `apt-get install {' '.join(APT_FLAGS)} {package}`"
    )
