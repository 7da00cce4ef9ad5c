"""The budget check: exit 0 within, 1 over (naming the largest tools), 2 when it cannot measure."""

from __future__ import annotations

from tests.conftest import run_cli
from toolsurface.harness.measure import check_budget
from toolsurface.harness.surface import resolve


def test_v2_is_over_6000_chars() -> None:
    run = run_cli("budget", "v2", "--max-chars", "6000")
    assert run.returncode == 1, run.stderr
    lines = run.stdout.strip().splitlines()
    assert lines[0].startswith("largest tools: item_store ")
    measured = check_budget(resolve("v2"), 6000)
    assert lines[-1] == (
        f"v2: 8 tools, {measured.chars:,} chars: over budget (6,000 chars) by {measured.chars - 6000:,} chars "
        f"({(measured.chars - 6000) / 6000:.1%})"
    )


def test_v2_is_within_7100_chars() -> None:
    run = run_cli("budget", "v2", "--max-chars", "7100")
    assert run.returncode == 0, run.stderr
    measured = check_budget(resolve("v2"), 7100)
    assert run.stdout.strip().splitlines()[-1] == f"v2: 8 tools, {measured.chars:,} chars: within budget (7,100 chars)"


def test_a_token_budget_is_checked_too() -> None:
    measured = check_budget(resolve("v2"), 10_000, 10_000)
    assert measured.tokens is not None and measured.within
    over = run_cli("budget", "v2", "--max-chars", "10000", "--max-tokens", str(measured.tokens - 1))
    assert over.returncode == 1
    assert over.stdout.strip().splitlines()[-1].endswith("by 1 tokens")
    exact = run_cli("budget", "v2", "--max-chars", str(measured.chars), "--max-tokens", str(measured.tokens))
    assert exact.returncode == 0 and f"{measured.tokens:,} tokens" in exact.stdout


def test_budget_without_a_token_budget_counts_no_tokens() -> None:
    assert check_budget(resolve("v2"), 7000).tokens is None


def test_unknown_surface_cannot_be_measured() -> None:
    run = run_cli("budget", "v3", "--max-chars", "7100")
    assert run.returncode == 2 and "unknown surface 'v3'" in run.stderr


def test_negative_budget_is_a_usage_error() -> None:
    run = run_cli("budget", "v2", "--max-chars", "-1")
    assert run.returncode == 2 and "Traceback" not in run.stderr
