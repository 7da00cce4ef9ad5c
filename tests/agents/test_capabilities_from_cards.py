"""A capability lives on the card that has it: which clients' own tool search toolsurface reads, what that search
answers, the choices and help of `findability --scorer` and `roundtrip --client`, are read from the registry; no
module but a client's own card module names it."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import ROOT, run_cli
from toolsurface.harness.agents import cli_clients, client_card, client_cards, search_clients
from toolsurface.harness.analyze.findability import SCORERS, all_scorers, client_scorers
from toolsurface.harness.errors import ToolsurfaceError
from toolsurface.harness.session.tool_search import tool_search_client
from toolsurface.harness.surface import default_surfaces

TRANSCRIPTS = ROOT / "tests" / "fixtures" / "transcripts"
# The names of model APIs and token counters, which a client may share (gemini): a quoted one is the API's.
APIS = {card.api for card in client_cards() if card.api} | {"anthropic", "openai", "gemini"}


def _quoting(name: str) -> list[str]:
    """Each line of the package's modules, outside the client's own card module, that quotes the client's name."""
    own = ROOT / "toolsurface" / "harness" / "agents" / f"{name}.py"
    quoted = re.compile(rf'"{re.escape(name)}"')
    return [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in sorted((ROOT / "toolsurface").rglob("*.py"))
        if path != own
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if quoted.search(line)
    ]


def test_no_module_but_a_clients_own_card_module_quotes_its_name() -> None:
    named = {name: _quoting(name) for name in cli_clients() if name not in APIS}
    assert "claude" in named
    assert {name: lines for name, lines in named.items() if lines} == {}


def test_the_clients_whose_search_is_read_are_those_whose_cards_read_it() -> None:
    reading = tuple(card.name for card in client_cards() if card.search_reading is not None)
    assert search_clients() == reading == client_scorers() == ("claude",)
    assert all_scorers() == (*SCORERS, *reading)
    # A card that reads its search has a mode that searches and a search tool.
    for name in reading:
        card = client_card(name)
        assert card.search_modes and card.search_tool


def test_a_card_reads_its_search_from_a_runs_transcript_in_order_with_what_it_referenced() -> None:
    card = client_card("claude")
    assert card.search_reading is not None
    made = card.search_reading.read(TRANSCRIPTS / "claude-2.1.197-v2-on-demand.jsonl", str(card.search_tool))
    assert [m.arguments.get("query") for m in made] == ["item list"]
    assert made[0].references[0] == "mcp__stub__item_list" and made[0].answer is None


def test_a_client_whose_search_toolsurface_does_not_read_is_refused_by_name() -> None:
    other = next(c for c in client_cards() if c.search_modes and c.search_reading is None)
    try:
        tool_search_client(other.name, {"PATH": ""})
    except ToolsurfaceError as error:
        assert str(error) == f"{other.name}: toolsurface does not read its tool search"
    else:
        raise AssertionError("refused")


def test_the_scorer_and_client_choices_are_the_registrys_and_another_is_one_line(tmp_path: Path) -> None:
    searching = search_clients()
    helped = run_cli("findability", "--help")
    assert f"[{'|'.join([*SCORERS, *searching, 'all'])}]" in helped.stdout
    assert f"--client [{'|'.join(searching)}]" in run_cli("roundtrip", "--help").stdout
    other = next(c.name for c in client_cards() if c.name not in searching)
    for args in (("findability", "--scorer", other), ("roundtrip", "--client", other)):
        refused = run_cli(*args, default_surfaces()[0], cwd=tmp_path)
        assert refused.returncode == 2 and len(refused.stderr.strip().splitlines()) == 1, refused.stderr
        assert other in refused.stderr


def test_max_results_without_a_clients_search_names_the_registrys_search_clients(tmp_path: Path) -> None:
    card = client_card(search_clients()[0])
    refused = run_cli("findability", default_surfaces()[0], "--max-results", "3", cwd=tmp_path)
    assert refused.returncode == 2
    assert f"--max-results is for {card.title}'s search: --scorer {card.name} or --scorer all" in refused.stderr
