"""The harmony counter: the real openai-harmony renders a bundled surface as gpt-oss models are shown it, offline
from the o200k_base file toolsurface ships; its figures are pinned, so a change of the rendering shows here."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.conftest import run_cli
from toolsurface.harness.counters import make_counters, parse_counters
from toolsurface.harness.counters._harmony import ENCODINGS_ENV, render, rendered_text
from toolsurface.harness.measure import listed, measure
from toolsurface.harness.surface import resolve
from toolsurface.surfaces.conderis import SURFACES as BUNDLED_ORDER


def _harmony() -> list:  # type: ignore[type-arg]
    return make_counters(parse_counters("harmony"))


def test_the_v2_surface_rendered_for_gpt_oss_has_its_pinned_figures() -> None:
    """Pinned from openai-harmony 0.0.8: a change of its rendering (or of v2's texts) changes these."""
    m = measure([resolve("v2")], counters=_harmony())
    v2 = m.surfaces[0]
    (figures,) = v2.counts
    assert figures.counter == "harmony" and m.encoding == "harmony"
    assert (figures.tokens, figures.framing) == (1226, 54)
    assert [(t.name, t.tokens, t.marginal_tokens) for t in figures.per_tool] == [
        ("recall", 116, 89),
        ("project_get", 103, 76),
        ("project_store", 86, 59),
        ("item_get", 185, 158),
        ("item_list", 241, 214),
        ("item_store", 342, 315),
        ("item_action", 222, 195),
        ("item_delete", 120, 93),
    ]
    assert figures.ratio is not None and round(figures.ratio, 4) == round(1226 / 1525, 4)
    # The first counter's figures are the measurement's tokens, so budgets and diffs read them as ever.
    assert v2.tokens == 1226 and v2.per_tool[0].marginal_tokens == 89


def test_harmony_shows_a_tool_as_a_typescript_like_function_in_the_developer_message() -> None:
    (tools,) = (wire.tools for wire in listed([resolve("v2")]))
    text = rendered_text([t for t in tools if t["name"] == "item_delete"])
    assert text.startswith("<|start|>system<|message|>You are ChatGPT")
    assert "Calls to these tools must go to the commentary channel: 'functions'." in text
    assert "<|start|>developer<|message|># Tools\n\n## functions\n\nnamespace functions {\n\n" in text
    assert "type item_delete = (_: {\n" in text and text.endswith("} // namespace functions<|end|>")
    # Only name, description and inputSchema are shown: an outputSchema or annotations cost nothing here.
    assert "outputSchema" not in text and "annotations" not in text


def test_a_marginal_is_what_leaving_the_tool_out_of_the_rendering_saves() -> None:
    (tools,) = (wire.tools for wire in listed([resolve("before-v2")]))
    m = measure([resolve("before-v2")], growth=False, counters=_harmony())
    whole = len(render(tools))
    for index, tool in enumerate(m.surfaces[0].counts[0].per_tool):
        assert tool.marginal_tokens == whole - len(render(tools[:index] + tools[index + 1 :]))
        assert tool.tokens == len(render([tools[index]])) - len(render([]))


def test_counting_with_harmony_leaves_tiktoken_encodings_base_as_it_was(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv(ENCODINGS_ENV, raising=False)
    measure([resolve("v2")], growth=False, counters=_harmony())
    assert ENCODINGS_ENV not in os.environ
    monkeypatch.setenv(ENCODINGS_ENV, "/the/users/own")
    measure([resolve("v2-first")], growth=False, counters=_harmony())
    assert os.environ[ENCODINGS_ENV] == "/the/users/own"


def _offline(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """A fresh process with no network at all (its own network namespace) and empty caches."""
    env = {k: v for k, v in os.environ.items() if k not in (ENCODINGS_ENV, "TIKTOKEN_CACHE_DIR")}
    env |= {"XDG_CACHE_HOME": str(tmp_path / "cache"), "TIKTOKEN_RS_CACHE_DIR": str(tmp_path / "rs-cache")}
    unshare = shutil.which("unshare")
    assert unshare is not None, "unshare (util-linux) runs the process with its network off"
    return subprocess.run(
        [unshare, "--net", sys.executable, *args], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120
    )


def test_harmony_counts_with_the_network_off_from_the_shipped_file(tmp_path: Path) -> None:
    done = _offline(tmp_path, "-m", "toolsurface", "measure", "v2", "--tokens", "harmony", "--format", "json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["encoding"] == "harmony" and data["surfaces"][0]["tokens"] == 1226
    assert (tmp_path / "cache" / "toolsurface" / "encodings" / "o200k_base.tiktoken").is_file()
    assert not (tmp_path / "rs-cache").exists()  # openai-harmony never tried its own download cache


def test_without_the_shipped_file_openai_harmony_would_need_the_network(tmp_path: Path) -> None:
    """What the counter's seeding saves: openai-harmony on its own downloads the file, and offline it fails."""
    code = (
        "import openai_harmony as h\n"
        "try:\n    h.load_harmony_encoding(h.HarmonyEncodingName.HARMONY_GPT_OSS)\n"
        "except Exception as e:\n    print(type(e).__name__, e)\nelse:\n    print('loaded')\n"
    )
    done = _offline(tmp_path, "-c", code)
    assert done.returncode == 0, done.stderr
    assert "loaded" not in done.stdout and "download" in done.stdout.lower()


def test_measure_prints_o200k_and_harmony_side_by_side_for_the_bundled_surfaces() -> None:
    run = run_cli("measure", "--tokens", "o200k,harmony", "--format", "markdown")
    assert run.returncode == 0, run.stderr
    table = run.stdout.split("Tokens by counter", 1)[1]
    assert "| Surface | o200k | harmony | ÷ o200k |" in table
    assert "| v2, final design | 1,525 | 1,226 | 0.80 |" in table
    assert "| framing (the request without the list) | - | 54 | - |" in table
    assert table.count("\n| ") == 2 + len(BUNDLED_ORDER) + 1
    assert "- `harmony`: the tools as gpt-oss models are shown them" in table
    assert "openai-harmony 0.0.8" in table


def test_the_harmony_rank_file_is_the_verified_o200k_file(tmp_path: Path) -> None:
    import gzip

    from toolsurface.harness.measure import rank_file

    _offline(tmp_path, "-m", "toolsurface", "measure", "v2-first", "--no-growth", "--tokens", "harmony")
    written = (tmp_path / "cache" / "toolsurface" / "encodings" / "o200k_base.tiktoken").read_bytes()
    assert written == gzip.decompress(rank_file().read_bytes())


def test_every_format_names_the_counter_of_each_token_figure(tmp_path: Path) -> None:
    table = run_cli("measure", "v2", "--tokens", "harmony,o200k", env={"COLUMNS": "200"})
    assert table.returncode == 0, table.stderr
    assert "List size (protocol 2025-11-25, harmony)" in table.stdout and "Tokens by counter" in table.stdout
    csv = run_cli("measure", "v2", "--tokens", "harmony,o200k", "--format", "csv")
    header, row = csv.stdout.splitlines()[:2]
    assert header.endswith(
        ",counter,tokens (harmony),framing (harmony),ratio to o200k (harmony),tokens (o200k),framing (o200k),"
        "ratio to o200k (o200k)"
    )
    assert row.endswith(",harmony,1226,54,0.80,1525,,")
    per_tool = run_cli("measure", "v2", "--tokens", "harmony,o200k", "--format", "csv", "--per-tool")
    assert per_tool.stdout.splitlines()[1] == "v2,recall,574,116,89,harmony,116,89,126,125"
    out = tmp_path / "out"
    assert run_cli("measure", "v2", "--tokens", "harmony", "--out", str(out)).returncode == 0
    assert (out / "counters.csv").read_text(encoding="utf-8").splitlines() == [
        "surface,counter,source,tokens,framing,ratio_to_o200k,growth_tokens",
        'v2,harmony,"offline, openai-harmony 0.0.8",1226,54,0.80,33',
    ]


def test_the_budget_log_names_a_counter_other_than_o200k(tmp_path: Path) -> None:
    (tmp_path / "toolsurface.toml").write_text(
        'surface = "v2"\nmax-chars = 7000\nmax-tokens = 1300\ntokens = ["harmony"]\n', encoding="utf-8"
    )
    run = run_cli("budget", "--update", "--reason", "shorter texts", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    (entry,) = (json.loads(line) for line in (tmp_path / "toolsurface-budget.log").read_text().splitlines())
    assert entry["counter"] == "harmony" and entry["tokens"] == 1226
    assert entry["max_tokens"] == {"old": 1300, "new": 1226}
    assert "max-tokens = 1226" in (tmp_path / "toolsurface.toml").read_text(encoding="utf-8")


def test_the_readme_s_counters_table_is_what_measure_prints() -> None:
    from tests.helpers.readme import doc_text

    run = run_cli("measure", "--tokens", "o200k,harmony", "--format", "markdown")
    printed = [line for line in run.stdout.split("Tokens by counter", 1)[1].splitlines() if line.startswith("|")]
    text = doc_text("docs/measure.md")
    at = text.index("## Tokens as each model family counts them")
    shown = text[at:].split("| Surface | o200k | harmony | ÷ o200k |", 1)[1].split("\n\n", 1)[0]
    assert ["| Surface | o200k | harmony | ÷ o200k |", *shown.strip().splitlines()] == printed
