"""`lint --judge ENDPOINT`: a model scores each tool on the package's rubric, through the project's scripted endpoint on
127.0.0.1 here (no network); answers are cached by the tool's definition; a judge that refuses, rate-limits, hangs,
cannot be reached or answers nonsense is a row that says so while the rest is judged."""

from __future__ import annotations

import json
import socket
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from tests.helpers.answering_http import answering, reply
from tests.helpers.errors import assert_one_line_error
from tests.helpers.openai_server import Fail, Sleep, Text, fake_openai
from tests.helpers.paths import ROOT
from toolsurface.harness.analyze.lint import example_tool
from toolsurface.harness.analyze.lint.judge import (
    GIVE_UP,
    Answered,
    Failed,
    judge_surfaces,
    parse_judge,
    read_verdict,
    rubric,
)
from toolsurface.harness.endpoint import ModelEndpoint

DESK = ROOT / "tests" / "fixtures" / "servers" / "ticket_desk.py"
CRITERIA = ("purpose", "usage", "behaviour", "parameters", "concision")


def verdict(score: int = 4) -> str:
    """A well-formed answer: every criterion `score`, with a reason."""
    scores = {key: {"score": score, "reason": f"{key}: cited"} for key in CRITERIA}
    return json.dumps({"scores": scores, "summary": "Say what comes back."})


@pytest.fixture(scope="module")
def desk(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("desk")
    run = run_cli("snapshot", "-o", str(folder / "desk.json"), "--", sys.executable, str(DESK), "--clean")
    assert run.returncode == 0, run.stderr
    return folder / "desk.json"


@pytest.fixture
def scripted(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """The project's scripted model endpoint on 127.0.0.1, and the file it records each request in."""
    log = tmp_path / "model-requests.jsonl"
    with ModelEndpoint(log, steps=[]) as server:
        yield server.url, log


def requests_in(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()] if log.exists() else []


def judged(desk: Path, judge: str, tmp_path: Path, *args: str, env: dict[str, str | None] | None = None) -> Any:
    run = run_cli(
        "lint", str(desk), "--judge", judge, "--format", "json", *args,
        env={"XDG_CACHE_HOME": str(tmp_path / "cache"), "OPENAI_API_KEY": None, "ANTHROPIC_API_KEY": None, **(env or {})},
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    return run.json()["surfaces"][0]


# ---------------------------------------------------------------------------------------------------------------
# The rubric and the prompt


def test_the_prompt_and_the_rubric_are_files_of_the_package_and_the_prompt_names_every_criterion() -> None:
    folder = ROOT / "toolsurface" / "harness" / "analyze" / "lint" / "judge"
    data = json.loads((folder / "rubric.json").read_text(encoding="utf-8"))
    assert tuple(c["key"] for c in data["criteria"]) == rubric().keys == CRITERIA
    for criterion in rubric().criteria:
        assert f"- {criterion.key} (weight {criterion.weight}): {criterion.question}" in rubric().prompt
    assert "{criteria}" in (folder / "prompt.md").read_text(encoding="utf-8")


def test_an_answer_off_the_scale_or_missing_a_criterion_is_nonsense() -> None:
    rules = rubric()
    five = read_verdict(verdict(5), rules)
    fenced = read_verdict("```json\n" + verdict(3) + "\n```", rules)
    assert isinstance(five, Answered) and five.scores["purpose"] == (5, "purpose: cited")
    assert isinstance(fenced, Answered) and fenced.scores["usage"][0] == 3
    six = json.loads(verdict())
    six["scores"]["purpose"]["score"] = 6
    missing = json.loads(verdict())
    del missing["scores"]["concision"]
    for text, said in (
        (json.dumps(six), "6 is not a score"),
        (json.dumps(missing), "concision"),
        ("banana", "not JSON"),
    ):
        found = read_verdict(text, rules)
        assert isinstance(found, Failed) and found.problem == "nonsense" and said in found.said


def test_a_tools_judged_score_weighs_its_criteria_and_the_server_is_60_mean_40_worst() -> None:
    rules = rubric()
    assert rules.score(dict.fromkeys(CRITERIA, 1)) == 0 and rules.score(dict.fromkeys(CRITERIA, 5)) == 100
    # purpose weighs 30 of 100: 5 there, 1 elsewhere.
    assert rules.score({**dict.fromkeys(CRITERIA, 1), "purpose": 5}) == 30


# ---------------------------------------------------------------------------------------------------------------
# The scripted endpoint on loopback


def test_every_tool_is_judged_through_the_scripted_endpoint(desk: Path, tmp_path: Path, scripted: Any) -> None:
    url, log = scripted
    surface = judged(desk, f"openai:{url}/v1", tmp_path)
    judge = surface["judge"]
    assert judge["model"] == "gpt-4o-mini" and judge["judged"] == 14 and len(judge["tools"]) == 14
    # The scripted model answers a structured request with the schema's least value: every criterion 1.
    assert {t["status"] for t in judge["tools"]} == {"judged"}
    assert all(t["scores"]["purpose"]["score"] == 1 and t["score"] == 0 for t in judge["tools"])
    sent = requests_in(log)
    assert len(sent) == 14 and {r["api"] for r in sent} == {"openai-chat"}


def test_the_anthropic_form_is_judged_through_the_messages_api(desk: Path, tmp_path: Path, scripted: Any) -> None:
    url, log = scripted
    judge = judged(desk, f"anthropic:{url}", tmp_path, "--judge-model", "claude-haiku-4-5")["judge"]
    assert judge["judged"] == 14 and judge["model"] == "claude-haiku-4-5"
    assert {r["api"] for r in requests_in(log)} == {"anthropic"}


def test_a_judged_answer_is_cached_by_the_tools_definition(desk: Path, tmp_path: Path, scripted: Any) -> None:
    url, log = scripted
    judged(desk, f"openai:{url}/v1", tmp_path)
    again = judged(desk, f"openai:{url}/v1", tmp_path)["judge"]
    assert {t["status"] for t in again["tools"]} == {"cached"} and len(requests_in(log)) == 14
    assert len(list((tmp_path / "cache" / "toolsurface" / "judge").glob("*.json"))) == 14
    # One description changed: that tool alone is asked again.
    data = json.loads(desk.read_text(encoding="utf-8"))
    data["tools"][0]["description"] += " Newest first."
    changed = tmp_path / "changed.json"
    changed.write_text(json.dumps(data), encoding="utf-8")
    statuses = [t["status"] for t in judged(changed, f"openai:{url}/v1", tmp_path)["judge"]["tools"]]
    assert statuses == ["judged"] + ["cached"] * 13 and len(requests_in(log)) == 15


def test_the_scripted_judge_is_a_dry_run_that_caches_nothing(desk: Path, tmp_path: Path) -> None:
    judge = judged(desk, "scripted", tmp_path)["judge"]
    assert judge["judge"] == "scripted" and judge["judged"] == 14
    assert not (tmp_path / "cache" / "toolsurface" / "judge").exists()


def test_the_judge_rows_come_in_every_format(desk: Path, tmp_path: Path) -> None:
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    table = run_cli("lint", str(desk), "--judge", "scripted", env={**env, "COLUMNS": "200"}).stdout
    assert "judged by the scripted model (a dry run" in table and "purpose" in table
    csv = run_cli("lint", str(desk), "--judge", "scripted", "--score", "--format", "csv", env=env).stdout.splitlines()
    assert csv[0] == (
        "surface,tool,score,rules,cost_tokens,judge_status,judge_score,judge_purpose,judge_usage,judge_behaviour,"
        "judge_parameters,judge_concision,judge_note"
    )
    assert csv[1].startswith("ticket-desk,ticket_search,90,TS205,30,judged,0,1,1,1,1,1,")
    markdown = run_cli("lint", str(desk), "--judge", "scripted", "--format", "markdown", env=env).stdout
    assert "| tool | status | score | purpose | usage |" in markdown
    sarif = run_cli("lint", str(desk), "--judge", "scripted", "--format", "sarif", env=env).json()
    assert sarif["runs"][0]["properties"]["descriptionQuality"]["ticket-desk"]["judge"]["model"] == "scripted"


# ---------------------------------------------------------------------------------------------------------------
# A judge that gives no verdict is a row that says so


def statuses(judge: dict[str, Any]) -> set[str]:
    return {t["status"] for t in judge["tools"]}


def test_a_judge_that_refuses_the_key_is_a_row_per_tool_that_says_so(desk: Path, tmp_path: Path) -> None:
    with fake_openai([Fail(401, {"error": {"message": "invalid api key"}})], repeat_last=True) as fake:
        surface = judged(desk, fake.base_url, tmp_path)
    assert statuses(surface["judge"]) == {"refused"}
    assert surface["judge"]["tools"][0]["problem"] == "HTTP 401: invalid api key"
    assert surface["judge"]["score"] is None and surface["findings"]


def test_a_model_that_declines_to_answer_is_a_refusal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    body = {"choices": [{"index": 0, "message": {"role": "assistant", "content": None, "refusal": "I can't help."}}]}

    def answer(received: Any, connection: socket.socket) -> None:
        connection.sendall(reply(200, json.dumps(body).encode(), {"Content-Type": "application/json"}))

    with answering(answer) as server:
        [surface] = judge_surfaces([("t", [example_tool("a_get", "Read an a.")])], parse_judge(f"openai:{server.url}"))
    [row] = surface.tools
    assert row.status == "refused" and "I can't help." in row.said


def test_a_judge_that_answers_429_is_a_row_that_says_so(desk: Path, tmp_path: Path) -> None:
    limited = {"error": {"message": "Rate limit reached", "type": "rate_limit_exceeded"}}
    with fake_openai([Fail(429, limited)], repeat_last=True) as fake:
        judge = judged(desk, fake.base_url, tmp_path)["judge"]
    assert statuses(judge) == {"rate-limited"} and judge["tools"][0]["problem"] == "HTTP 429: Rate limit reached"


def test_a_judge_that_hangs_is_let_go_after_its_timeout_and_then_asked_no_more(desk: Path, tmp_path: Path) -> None:
    with fake_openai([Sleep(2)], repeat_last=True) as fake:
        judge = judged(desk, fake.base_url, tmp_path, "--judge-timeout", "0.5")["judge"]
        asked = len(fake.received)
    assert statuses(judge) <= {"timed out", "not asked"} and "not asked" in statuses(judge)
    timed_out = [t for t in judge["tools"] if t["status"] == "timed out"]
    assert len(timed_out) >= GIVE_UP and timed_out[0]["problem"] == "no answer within 0.5 s"
    assert asked == len(timed_out) < 14


def test_a_judge_that_answers_nonsense_is_a_row_that_says_so(desk: Path, tmp_path: Path) -> None:
    with fake_openai([Text("Sure! The tool looks fine to me.")], repeat_last=True) as fake:
        judge = judged(desk, fake.base_url, tmp_path)["judge"]
    assert statuses(judge) == {"nonsense"}
    assert judge["tools"][0]["problem"] == "not JSON: 'Sure! The tool looks fine to me.'"


def test_a_judge_that_cannot_be_reached_is_a_row_that_says_so(desk: Path, tmp_path: Path) -> None:
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    judge = judged(desk, f"http://127.0.0.1:{port}/v1", tmp_path)["judge"]
    assert statuses(judge) <= {"unreachable", "not asked"} and "unreachable" in statuses(judge)


def test_the_rest_is_judged_around_the_tools_the_judge_failed_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    tools = [example_tool(f"note_{verb}", f"{verb.capitalize()} a note of the project.") for verb in "abcd"]
    script = [Text(verdict(4)), Fail(429), Text("banana"), Text(verdict(2))]
    with fake_openai(script) as fake:
        [surface] = judge_surfaces([("notes", tools)], parse_judge(f"openai:{fake.base_url}"), jobs=1)
    assert [t.status for t in surface.tools] == ["judged", "rate-limited", "nonsense", "judged"]
    assert [t.score for t in surface.tools] == [75, None, None, 25]
    assert surface.score == round(0.6 * 50 + 0.4 * 25)


def test_the_judge_sends_the_users_own_key_from_the_environment(desk: Path, tmp_path: Path) -> None:
    with fake_openai([Text(verdict())], repeat_last=True) as fake:
        judged(desk, fake.base_url, tmp_path, env={"OPENAI_API_KEY": "sk-users-own"})
        received = list(fake.received)
    assert {r.headers["authorization"] for r in received} == {"Bearer sk-users-own"}
    body = received[0].body
    assert body["response_format"]["type"] == "json_schema" and body["messages"][0]["content"] == rubric().prompt
    # Each tool's own definition, its siblings named after it.
    assert any('"name": "ticket_search"' in r.body["messages"][1]["content"] for r in received)
    assert all("The server's other tools: " in r.body["messages"][1]["content"] for r in received)


# ---------------------------------------------------------------------------------------------------------------
# What cannot be judged at all is one line


def test_a_remote_judge_without_the_users_key_is_one_line_before_anything_is_listed(desk: Path) -> None:
    env = {"OPENAI_API_KEY": None, "ANTHROPIC_API_KEY": None}
    assert_one_line_error(
        run_cli("lint", str(desk), "--judge", "https://api.openai.com/v1", env=env), "set OPENAI_API_KEY"
    )
    assert_one_line_error(
        run_cli("lint", str(desk), "--judge", "https://api.anthropic.com", env=env), "set ANTHROPIC_API_KEY"
    )


@pytest.mark.parametrize(
    ("judge", "said"),
    [
        ("ftp://example.net", "expected scripted, or an http(s) URL"),
        ("https://user:pw@example.net/v1", "no credentials, query or fragment"),
        ("http://127.0.0.1:99999/v1", "the port is not a valid number"),
    ],
)
def test_a_judge_endpoint_that_is_no_url_is_one_line(desk: Path, judge: str, said: str) -> None:
    assert_one_line_error(run_cli("lint", str(desk), "--judge", judge), "--judge", said)


def test_judge_model_without_judge_is_a_usage_error(desk: Path) -> None:
    run = run_cli("lint", str(desk), "--judge-model", "gpt-4o-mini")
    assert run.returncode == 2 and "--judge-model goes with --judge" in run.stderr


def test_the_judges_endpoint_forms_are_those_of_model_endpoint_and_the_two_apis() -> None:
    local = "http://127.0.0.1:9"
    assert str(parse_judge("scripted")) == "scripted"
    assert str(parse_judge(f"record:{local}/v1", environ={})) == f"openai:{local}/v1/chat/completions"
    assert str(parse_judge(f"{local}/v1/messages", environ={})) == f"anthropic:{local}/v1/messages"
    assert str(parse_judge(f"anthropic:{local}", environ={})) == f"anthropic:{local}/v1/messages"
    remote = parse_judge("https://api.anthropic.com", environ={"ANTHROPIC_API_KEY": "sk-ant-own"})
    assert (remote.api, remote.model, remote.key) == ("anthropic", "claude-haiku-4-5", "sk-ant-own")
