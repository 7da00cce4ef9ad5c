"""The report page in Debian's Chromium, driven by Playwright (the system browser, no download): sorting,
filtering, a tool's text, two surfaces side by side, transcripts, and nothing loaded from the network."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Dialog, Page, expect, sync_playwright

from tests.conftest import CONDERIS_OUT, ROOT, Run
from tests.helpers.browser import CHROMIUM_FLAGS, chromium
from toolsurface.harness.measure import Measurement, measure
from toolsurface.harness.report import BundleChart, ReportBundle, SeedRow, build_bundle, render_page
from toolsurface.harness.session.score import find_runs
from toolsurface.harness.surface import resolve_all

RUNS = ROOT / "toolsurface" / "sessions" / "runs" / "conderis-script"
AGENT_RUN = ROOT / "toolsurface" / "sessions" / "runs" / "conderis-agents" / "runs" / "v2" / "codex-direct-r001"
CHARTS = ROOT / "reports" / "conderis" / "charts"
WAIT_MS = 10_000
HOSTILE = "<script>alert(1)</script>\x1b[31m</pre><img src=x onerror=alert(2)>"
HOSTILE_NAME = "danger</script>"

SEED: list[SeedRow | dict[str, Any]] = [
    SeedRow("list_chars_v2", "list size of v2", "v2", None, "chars", 6386, 6731, 0.054, True, (201,)),
    # The seed-figures file's own names, read as seed, difference and within_band.
    {
        "id": "tool_chars_v2_item_action",
        "what": "item_action",
        "surface": "v2",
        "tool": "item_action",
        "unit": "chars",
        "value": 925,
        "ours": 1180,
        "deviation": 0.2757,
        "in_band": False,
        "seed_lines": [205, 408],
    },
]


@pytest.fixture(scope="session")
def chromium_path() -> Path:
    return chromium()


@pytest.fixture(scope="module")
def bundle(bundled: Measurement, tmp_path_factory: pytest.TempPathFactory) -> ReportBundle:
    """The bundled surfaces, the committed scripted study, and one real-CLI run whose result also records
    a call that never reached the stub (the committed runs have none)."""
    run = tmp_path_factory.mktemp("agent-study") / "runs" / "v2" / AGENT_RUN.name
    shutil.copytree(AGENT_RUN, run)
    result = json.loads((run / "result.json").read_text(encoding="utf-8"))
    result["undelivered"] = [
        {"tool": "item_delete", "reason": "unknown tool", "message": "No such tool available: item_delete"}
    ]
    (run / "result.json").write_text(json.dumps(result), encoding="utf-8")
    charts = [BundleChart(p.stem, f"chart {p.stem}", f"toolsurface report --out {p.stem}") for p in _charts()]
    return build_bundle(bundled, [RUNS, run.parent.parent.parent], seed=SEED, charts=charts, created="a test")


def _charts() -> list[Path]:
    return sorted(CHARTS.glob("*.png"))


@pytest.fixture(scope="module")
def page_file(bundle: ReportBundle, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("page") / "report.html"
    path.write_text(render_page(bundle, {p.stem: p.read_bytes() for p in _charts()}), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def hostile_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A page of one snapshot surface whose tool name, description and schema hold markup and a control
    character, with a seed row holding markup."""
    folder = tmp_path_factory.mktemp("hostile")
    snapshot = folder / "hostile.json"
    tool = {"name": HOSTILE_NAME, "description": HOSTILE, "inputSchema": {"type": "object", "title": "</script>"}}
    snapshot.write_text(json.dumps({"tools": [tool]}), encoding="utf-8")
    seed = [SeedRow("x", "<b>bold</b>", "hostile", None, "chars", 1, 2, 1.0, False)]
    path = folder / "page.html"
    path.write_text(render_page(build_bundle(measure(resolve_all([str(snapshot)])), seed=seed), {}), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def context(
    chromium_path: Path,
    page_file: Path,
    hostile_file: Path,
    conderis_report: tuple[Path, Run],
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[BrowserContext]:
    """Chromium, started once the pages are written: Playwright's sync API keeps an asyncio loop running
    in this thread while it is open, and measuring (anyio.run) needs a thread without one."""
    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch_persistent_context(
            profile, executable_path=chromium_path, headless=True, args=CHROMIUM_FLAGS, timeout=60_000
        )
        browser.set_default_timeout(WAIT_MS)
        yield browser
        browser.close()


@pytest.fixture
def page(context: BrowserContext, page_file: Path) -> Iterator[Page]:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(page_file.as_uri())
    page.wait_for_selector("body[data-ready]", state="attached")
    yield page
    page.close()
    assert not errors


def _column(page: Page, table: str, column: str) -> list[str]:
    """The data-value of one column, over the rows shown, in the order shown."""
    values: list[str] = page.eval_on_selector(
        f"#{table}",
        """(table, column) => {
            const heads = Array.from(table.tHead.rows[0].cells).map(th => th.dataset.column);
            const at = heads.indexOf(column);
            return Array.from(table.tBodies[0].rows).filter(r => !r.hidden).map(r => r.cells[at].dataset.value);
        }""",
        column,
    )
    return values


def _rows(bundle: ReportBundle) -> list[tuple[str, str, int]]:
    return [(s.name, t.name, t.chars) for s in bundle.surfaces for t in s.tool_list]


def test_clicking_a_column_header_sorts_the_rows_by_it_and_again_reverses_them(
    page: Page, bundle: ReportBundle
) -> None:
    rows = _rows(bundle)
    assert _column(page, "table-per-tool", "tool") == [tool for _, tool, _ in rows]
    header = page.locator('#table-per-tool th[data-column="chars"]')
    header.locator("button").click()
    expect(header).to_have_attribute("aria-sort", "ascending")
    ascending = sorted(chars for _, _, chars in rows)
    assert [int(v) for v in _column(page, "table-per-tool", "chars")] == ascending
    header.locator("button").click()
    expect(header).to_have_attribute("aria-sort", "descending")
    assert [int(v) for v in _column(page, "table-per-tool", "chars")] == ascending[::-1]
    largest = max(rows, key=lambda r: r[2])
    first = page.locator("#table-per-tool tbody tr").first
    expect(first).to_contain_text(largest[1])
    expect(first.locator("td.num").first).to_have_text(f"{largest[2]:,}")


def test_typing_in_a_filter_hides_the_rows_that_do_not_match(page: Page, bundle: ReportBundle) -> None:
    rows = _rows(bundle)
    matching = [r for r in rows if "item_action" in r[1]]
    assert 0 < len(matching) < len(rows)
    page.fill("#filter-table-per-tool", "item_action")
    expect(page.locator("#table-per-tool tbody tr:visible")).to_have_count(len(matching))
    expect(page.locator('[data-count-for="table-per-tool"]')).to_have_text(f"{len(matching)} of {len(rows)} rows")
    page.fill("#filter-table-per-tool", "")
    expect(page.locator("#table-per-tool tbody tr:visible")).to_have_count(len(rows))


def test_numbers_are_right_aligned_with_thousands_separators(page: Page, bundle: ReportBundle) -> None:
    before = bundle.surfaces[0]
    card = page.locator(f'.card[data-surface="{before.name}"]')
    expect(card.locator('[data-figure="chars"]')).to_have_text(f"{before.chars:,}")
    cell = page.locator("#table-surfaces tbody tr").first.locator("td.num").nth(1)
    expect(cell).to_have_text(f"{before.chars:,}")
    assert before.chars >= 1000
    assert cell.evaluate("td => getComputedStyle(td).textAlign") == "right"
    assert (
        page.locator("#table-surfaces tbody td.text").first.evaluate("td => getComputedStyle(td).textAlign") == "left"
    )


def test_a_tool_name_opens_its_description_and_schema(page: Page, bundle: ReportBundle) -> None:
    v2 = next(s for s in bundle.surfaces if s.name == "v2")
    tool = next(t for t in v2.tool_list if t.name == "item_list")
    dialog = page.locator("#tool-dialog")
    expect(dialog).to_be_hidden()
    page.locator('#table-per-tool button.tool-link[data-surface="v2"][data-tool="item_list"]').click()
    expect(dialog).to_be_visible()
    expect(page.locator("#tool-dialog-title")).to_have_text("v2: item_list")
    expect(page.locator("#tool-dialog-description")).to_have_text(tool.description or "")
    assert json.loads(page.locator("#tool-dialog-schema").inner_text()) == tool.input_schema
    expect(page.locator("#tool-dialog-sizes")).to_contain_text(f"{tool.chars:,} chars")
    page.click("#tool-dialog-close")
    expect(dialog).to_be_hidden()


def _diff(bundle: ReportBundle, a: str, b: str) -> dict[str, set[str]]:
    tools_a = {t.name: t.wire for t in next(s for s in bundle.surfaces if s.name == a).tool_list}
    tools_b = {t.name: t.wire for t in next(s for s in bundle.surfaces if s.name == b).tool_list}
    return {
        "added": set(tools_b) - set(tools_a),
        "removed": set(tools_a) - set(tools_b),
        "changed": {n for n in tools_a.keys() & tools_b.keys() if tools_a[n] != tools_b[n]},
    }


def test_switching_the_compared_surfaces_changes_the_per_tool_rows_and_the_diff(
    page: Page, bundle: ReportBundle
) -> None:
    last = bundle.surfaces[-1].name  # the page compares the first surface with the last
    expect(page.locator("#compare-a")).to_have_value("before-v2")
    expect(page.locator("#compare-b")).to_have_value(last)
    first = _diff(bundle, "before-v2", last)
    names = {t.name for s in bundle.surfaces if s.name in ("before-v2", last) for t in s.tool_list}
    expect(page.locator("#compare-tools tbody tr")).to_have_count(len(names))
    expect(page.locator('#compare-diff tbody tr[data-change="added"]')).to_have_count(len(first["added"]))
    expect(page.locator('#compare-diff tbody tr[data-change="removed"]')).to_have_count(len(first["removed"]))

    page.select_option("#compare-a", "v2-first")
    expect(page.locator("#compare")).to_have_attribute("data-a", "v2-first")
    second = _diff(bundle, "v2-first", last)
    assert not second["added"] and not second["removed"] and second["changed"]
    expect(page.locator("#compare-tools tbody tr")).to_have_count(8)
    changed = page.locator('#compare-diff tbody tr[data-change="changed"]')
    expect(changed).to_have_count(len(second["changed"]))
    assert set(changed.evaluate_all("rows => rows.map(r => r.dataset.tool)")) == second["changed"]
    counts = page.locator("#compare-counts")
    expect(counts).to_have_attribute("data-changed", str(len(second["changed"])))
    expect(counts).to_have_attribute("data-added", "0")
    sizes = {s.name: {t.name: t.chars for t in s.tool_list} for s in bundle.surfaces}
    row = page.locator('#compare-tools tbody tr[data-tool="item_action"] td')
    expect(row.nth(1)).to_have_text(f"{sizes['v2-first']['item_action']:,}")
    expect(row.nth(2)).to_have_text(f"{sizes[last]['item_action']:,}")
    expect(page.locator('#compare-tools th[data-column="chars A"]')).to_have_text("chars v2-first")


def test_a_transcript_shows_each_call_with_the_refusal_and_its_correction_marked(
    page: Page, bundle: ReportBundle
) -> None:
    run = next(r for r in bundle.runs if r.surface == "before-v2" and r.agent == "script")
    refusal = run.refusals[0]
    assert refusal.corrected_next
    transcript = page.locator(f"details#{run.id}")
    refused = transcript.locator(f'li.call[data-seq="{refusal.seq}"]')
    expect(refused).to_be_hidden()
    transcript.locator(":scope > summary").click()
    expect(transcript).to_have_attribute("open", "")
    calls = [c for c in run.calls if c.method == "tools/call"]
    expect(transcript.locator('li.call[data-outcome]:not([data-method="tools/list"])')).to_have_count(len(calls))
    expect(refused).to_be_visible()
    expect(refused).to_have_attribute("data-outcome", "refused")
    correction = transcript.locator(f'li.call[data-corrects="{refusal.seq}"]')
    expect(correction).to_have_count(1)
    after = refused.get_attribute("data-corrected-by")
    assert after is not None and int(after) > refusal.seq
    expect(refused).to_contain_text(f"refused, corrected by #{after}")
    expect(refused).to_contain_text(refusal.message)
    expect(correction).to_have_attribute("data-seq", after)
    expect(correction).to_contain_text(f"corrects #{refusal.seq}")
    expect(correction).to_contain_text(refusal.tool)
    expect(correction.locator(".arguments")).to_contain_text('"projectId"')


def test_a_transcript_marks_calls_that_never_reached_the_stub(page: Page, bundle: ReportBundle) -> None:
    run = next(r for r in bundle.runs if r.undelivered)
    transcript = page.locator(f"details#{run.id}")
    expect(transcript.locator(":scope > summary")).to_contain_text("1 undelivered")
    transcript.locator(":scope > summary").click()
    call = transcript.locator('li.undelivered-call[data-tool="item_delete"]')
    expect(call).to_be_visible()
    expect(call).to_contain_text("never reached the stub: unknown tool")
    expect(page.locator("#table-model-shown tbody tr")).to_have_count(len(bundle.shown))


def test_seed_rows_show_seed_ours_difference_and_whether_within_band(page: Page) -> None:
    within = page.locator("#seed-list_chars_v2")
    expect(within).to_have_attribute("data-within", "yes")
    expect(within).to_contain_text("6,386")
    expect(within).to_contain_text("+5.4%")
    outside = page.locator("#seed-tool_chars_v2_item_action")
    expect(outside).to_have_attribute("data-within", "no")
    expect(outside).to_contain_text("925")
    expect(outside).to_contain_text("1,180")
    expect(outside).to_contain_text("205, 408")


def test_the_page_loads_nothing_but_its_own_file(context: BrowserContext, page_file: Path) -> None:
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(page_file.as_uri())
    page.wait_for_function("document.body.dataset.charts !== undefined")
    page.locator("#table-per-tool button.tool-link").first.click()
    page.click("#tool-dialog-close")
    page.select_option("#compare-b", "consistent")
    page.locator("details.run summary").first.click()
    assert page.evaluate("document.body.dataset.charts") == f"{len(_charts())}/{len(_charts())}"
    policy = page.locator('meta[http-equiv="Content-Security-Policy"]').get_attribute("content")
    page.close()
    assert policy is not None and policy.startswith("default-src 'none'; img-src data:;")
    assert requests == [page_file.as_uri()]


def test_a_tool_description_holding_a_script_tag_renders_as_text(context: BrowserContext, hostile_file: Path) -> None:
    text = hostile_file.read_text(encoding="utf-8")
    assert "<script>alert" not in text and "<img src=x" not in text and "<b>bold" not in text
    page = context.new_page()
    alerts: list[str] = []

    def alert(dialog: Dialog) -> None:
        alerts.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", alert)
    page.goto(hostile_file.as_uri())
    page.wait_for_selector("body[data-ready]", state="attached")
    assert page.locator("script").count() == 2 and page.locator("main img").count() == 0
    page.locator("#table-per-tool button.tool-link").click()
    expect(page.locator("#tool-dialog-description")).to_have_text(HOSTILE.replace("\x1b", "\u241b"))
    expect(page.locator("#tool-dialog-title")).to_have_text(f"hostile: {HOSTILE_NAME}")
    expect(page.locator("#seed tbody")).to_contain_text("<b>bold</b>")
    page.close()
    assert not alerts


def test_the_report_command_writes_the_page_with_every_chart_and_no_console_error(
    context: BrowserContext, conderis_report: tuple[Path, Run]
) -> None:
    out, run = conderis_report
    page_file = out / "report.html"
    assert page_file.is_file() and run.stdout.rstrip().endswith(f"files to {CONDERIS_OUT}: report.md, report.html")
    page = context.new_page()
    console: list[str] = []
    requests: list[str] = []
    page.on("console", lambda message: console.append(f"{message.type}: {message.text}"))
    page.on("request", lambda request: requests.append(request.url))
    page.goto(page_file.as_uri())
    page.wait_for_function("document.body.dataset.charts !== undefined")
    assert page.evaluate("document.body.dataset.charts") == "5/5"
    assert page.evaluate("document.body.dataset.errors") == "0"
    for section in ("headline", "compare", "tools", "charts", "sessions", "tables"):
        expect(page.locator(f"section#{section}")).to_have_count(1)
    expect(page.locator("#section-findability h3")).to_contain_text("Findability")
    recorded = find_runs([ROOT / "toolsurface" / "sessions" / "runs" / "conderis-script"])
    expect(page.locator("details.run")).to_have_count(len(recorded))
    shot = page.screenshot(full_page=False)
    page.close()
    assert not [line for line in console if line.startswith("error")], console
    assert requests == [page_file.as_uri()]
    assert shot.startswith(b"\x89PNG") and len(shot) > 10_000
