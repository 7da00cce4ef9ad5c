"""The suite's Debian installs (tests/helpers/debian.py; Chromium here) read apt-get's own simulation first: no
recommended package, nothing installed upgraded or removed (a plan that would is refused, naming what it would change), and it says
what it installs. apt-get runs for real here, simulating only, against a dpkg status file of the test's own
in which one of Chromium's dependencies is installed at an old version."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.helpers.debian import APT_FLAGS, apt_plan, refuse_changes


@pytest.fixture(scope="module", autouse=True)
def debian_apt() -> None:
    """Debian's apt-get, with package lists that name chromium: asked when the first test here runs, not while
    every worker collects."""
    if shutil.which("apt-get") is None or apt_plan(["chromium"]) is None:
        pytest.skip("Debian's apt-get, with package lists that name chromium")


STATUS = """Package: chromium-common
Status: install ok installed
Priority: optional
Section: web
Maintainer: nobody <nobody@example.invalid>
Architecture: amd64
Version: 0.1
Description: an old chromium-common, as this test's status file says
"""


def test_a_plan_that_would_upgrade_an_installed_package_is_refused_naming_it(tmp_path: Path) -> None:
    status = tmp_path / "status"
    status.write_text(STATUS, encoding="utf-8")
    plan = apt_plan(["chromium"], "-o", f"Dir::State::status={status}")
    assert plan is not None and "chromium" in plan.installs
    assert plan.upgrades == ("chromium-common",)
    with pytest.raises(RuntimeError, match=r"would upgrade or remove 1 installed packages \(chromium-common\)"):
        refuse_changes(plan, "chromium")


def test_the_plan_holds_no_recommended_package(tmp_path: Path) -> None:
    # Whether chromium itself recommends anything differs between Debian's package lists; its dependencies do, so
    # the same simulation with recommends turned back on (a later -o wins) must install more.
    status = tmp_path / "status"
    status.write_text(STATUS, encoding="utf-8")
    plan = apt_plan(["chromium"], "-o", f"Dir::State::status={status}")
    with_recommends = apt_plan(["chromium"], "-o", f"Dir::State::status={status}", "-o", "APT::Install-Recommends=true")
    assert plan is not None and with_recommends is not None and "--no-install-recommends" in APT_FLAGS
    assert set(plan.installs) < set(with_recommends.installs)
