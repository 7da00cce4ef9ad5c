"""A live server that hangs before it answers is let go in every verb that lists it, by the listing's own bound:
`clients`, whose `--timeout` bounds each session, bounds the listing with `--list-timeout`."""

from __future__ import annotations

import sys

from tests.conftest import processes_with, run_cli
from tests.helpers.errors import assert_one_line_error
from tests.helpers.waiting import wait_until

HANGS = "import time; time.sleep(300)  # hangs-before-initialize"


def test_clients_bounds_a_server_that_hangs_before_initialize_by_its_list_timeout() -> None:
    from toolsurface.harness.cli._base import DEFAULT_LISTING_TIMEOUT_S
    from toolsurface.harness.live import DEFAULT_TIMEOUT_S

    assert DEFAULT_LISTING_TIMEOUT_S == DEFAULT_TIMEOUT_S
    run = run_cli("clients", "--list-timeout", "1", "--", sys.executable, "-c", HANGS, timeout=60)
    assert_one_line_error(run, "no answer to initialize within 1 s")
    wait_until(lambda: not processes_with("hangs-before-initialize"), 10, "the hanging server to be ended")


def test_list_timeout_goes_with_clients_only() -> None:
    run = run_cli("snapshot", "--list-timeout", "1", "--", sys.executable, "-c", HANGS)
    assert_one_line_error(run, "No such option '--list-timeout'", "'--timeout'")
