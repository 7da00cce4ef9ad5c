"""The keyed counters (Anthropic, OpenAI, Gemini) against the scripted model endpoint on 127.0.0.1: the whole
list, the framing and each tool, the cache that makes a rerun send nothing, and every error a user can cause as
one line. The endpoint's count is its documented one, o200k_base of the request body without its model plus 3,
plus 20 when tools are offered; its figures are never labelled a provider's."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import run_cli
from toolsurface.harness.endpoint import ModelEndpoint, read_model_requests
from toolsurface.harness.measure import count_tokens, listed
from toolsurface.harness.output import compact_json
from toolsurface.harness.surface import resolve

KEYS = {
    "ANTHROPIC_API_KEY": "sk-ant-PLANTED-count-3c4d",
    "OPENAI_API_KEY": "sk-PLANTED-count-5e6f",
    "GEMINI_API_KEY": "PLANTED-count-gemini-7a8b",
}
PROMPT = "Hello."


@pytest.fixture
def endpoint(tmp_path: Path) -> Iterator[ModelEndpoint]:
    with ModelEndpoint(tmp_path / "model-requests.jsonl", steps=[]) as server:
        yield server


def _env(tmp_path: Path, **extra: str | None) -> dict[str, str | None]:
    return {**KEYS, "XDG_CACHE_HOME": str(tmp_path / "cache"), **extra}


def _counts(endpoint: ModelEndpoint) -> list[Any]:
    return [r for r in read_model_requests(endpoint.log.path) if r.purpose == "count"]


def _scripted(body: dict[str, Any]) -> int:
    """The endpoint's documented count, stated here apart from its code."""
    return (
        count_tokens(compact_json({k: v for k, v in body.items() if k != "model"})) + 3 + (20 if _offers(body) else 0)
    )


def _offers(body: dict[str, Any]) -> bool:
    inner = body.get("generateContentRequest", body)
    return bool(inner.get("tools"))


MINIMAL = [{"name": "a", "inputSchema": {"type": "object"}}, {"name": "b", "inputSchema": {"type": "object"}}]


def _framing(family: str, model: str) -> int:
    """The request with no tools; for Anthropic, whose API adds a tool-use prompt to any request with a tool, the
    request with one minimal tool less what a second one adds."""
    if family != "anthropic":
        return _scripted(_request(family, model, []))
    one, two = (_scripted(_request(family, model, MINIMAL[:n])) for n in (1, 2))
    return one - (two - one)


def _described(tool: dict[str, Any]) -> dict[str, Any]:
    return {"description": tool["description"]} if "description" in tool else {}


def _request(family: str, model: str, tools: list[dict[str, Any]]) -> dict[str, Any]:
    """Each provider's documented request for these MCP tools and one short user message."""
    if family == "anthropic":
        body: dict[str, Any] = {"model": model, "messages": [{"role": "user", "content": PROMPT}]}
        if tools:
            body["tools"] = [{"name": t["name"], **_described(t), "input_schema": t["inputSchema"]} for t in tools]
        return body
    if family == "openai":
        body = {"model": model, "input": PROMPT}
        if tools:
            body["tools"] = [
                {
                    "type": "function",
                    "name": t["name"],
                    "description": t["description"],
                    "parameters": t["inputSchema"],
                    "strict": False,
                }
                for t in tools
            ]
        return body
    request: dict[str, Any] = {
        "model": f"models/{model}",
        "contents": [{"role": "user", "parts": [{"text": PROMPT}]}],
    }
    if tools:
        request["tools"] = [
            {
                "functionDeclarations": [
                    {"name": t["name"], "description": t["description"], "parametersJsonSchema": t["inputSchema"]}
                    for t in tools
                ]
            }
        ]
    return {"generateContentRequest": request}


@pytest.mark.parametrize(
    ("family", "model", "path"),
    [
        ("anthropic", "claude-opus-5-5", "/v1/messages/count_tokens"),
        ("openai", "gpt-5-mini", "/v1/responses/input_tokens"),
        ("gemini", "gemini-2.5-pro", "/v1beta/models/gemini-2.5-pro:countTokens"),
    ],
)
def test_a_keyed_counter_counts_the_list_the_framing_and_each_tool_through_the_counting_endpoint(
    tmp_path: Path, endpoint: ModelEndpoint, family: str, model: str, path: str
) -> None:
    run = run_cli(
        "measure", "v2", "--no-growth", "--tokens", f"o200k,{family}:{model}", "--count-url", endpoint.url,
        "--format", "json", env=_env(tmp_path),
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    data = run.json()
    (tools,) = (wire.tools for wire in listed([resolve("v2")]))
    framing = _framing(family, model)
    whole = _scripted(_request(family, model, tools))
    o200k, counted = data["surfaces"][0]["counts"]
    assert o200k["counter"] == "o200k" and o200k["tokens"] == data["surfaces"][0]["tokens"]
    assert counted["framing"] == framing
    assert counted["tokens"] == whole - framing
    if family == "anthropic":  # its tool-use prompt is framing, shown apart
        assert counted["tool_prompt"] == framing - _scripted(_request(family, model, [])) > 20
    else:
        assert "tool_prompt" not in counted
    assert [t["marginal_tokens"] for t in counted["per_tool"]] == [
        whole - _scripted(_request(family, model, tools[:i] + tools[i + 1 :])) for i in range(len(tools))
    ]
    assert all(t["tokens"] is None for t in counted["per_tool"])  # a tool alone would be a request more each
    assert counted["ratio_to_o200k"] == round(counted["tokens"] / o200k["tokens"], 4)
    # The scripted endpoint's figures are labelled as its own, never as the provider's.
    assert counted["counter"] == f"{family}:{model} (scripted endpoint)"
    info = data["counters"][1]
    assert info["id"] == f"{family}:{model}" and info["name"] == counted["counter"]
    assert info["source"] == f"the scripted model endpoint at {endpoint.url}{path}"
    assert "not a figure of" in info["label"]
    sent = _counts(endpoint)
    assert {r.path for r in sent} == {path} and all(r.status == 200 for r in sent)
    # The framing (and for Anthropic one and two minimal tools), the list, and the list without each tool.
    assert len(sent) == 2 + len(tools) + (2 if family == "anthropic" else 0)


def test_a_rerun_answers_from_the_cache_and_sends_nothing(tmp_path: Path, endpoint: ModelEndpoint) -> None:
    args = ("measure", "--tokens", "anthropic,openai,gemini", "--count-url", endpoint.url, "--format", "json")
    first = run_cli(*args, env=_env(tmp_path))
    assert first.returncode == 0, first.stderr
    sent = len(_counts(endpoint))
    assert sent > 0
    again = run_cli(*args, env=_env(tmp_path))
    assert again.returncode == 0, again.stderr
    assert len(_counts(endpoint)) == sent
    assert again.json() == first.json()
    entries = list((tmp_path / "cache" / "toolsurface" / "counts").rglob("*.json"))
    assert len(entries) == sent
    entry = json.loads(entries[0].read_text(encoding="utf-8"))
    assert entry["format"] == "toolsurface-count/1" and entry["scripted"] is True
    assert entry["url"].startswith(endpoint.url)


def test_no_key_reaches_a_file_or_the_output(tmp_path: Path, endpoint: ModelEndpoint) -> None:
    run = run_cli(
        "measure", "v2", "--tokens", "anthropic,openai,gemini", "--count-url", endpoint.url,
        "--out", str(tmp_path / "out"), "--format", "json", env=_env(tmp_path),
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert len([p for p in files if p.suffix == ".json"]) > 10
    for secret in KEYS.values():
        assert secret not in run.stdout and secret not in run.stderr
        assert not [p for p in files if secret.encode() in p.read_bytes()], secret


@pytest.mark.parametrize(
    "url", ["http://user:PLANTED-password-9c0d@127.0.0.1:1", "http://127.0.0.1:1/v1?key=PLANTED-query-1e2f"]
)
def test_a_count_url_with_credentials_or_a_query_is_refused_without_showing_them(tmp_path: Path, url: str) -> None:
    run = run_cli("measure", "v2", "--tokens", "gemini", "--count-url", url, env=_env(tmp_path))
    assert run.returncode == 2 and run.stderr.count("\n") == 1
    assert "without credentials or a query string" in run.stderr
    assert "PLANTED" not in run.stderr


def test_a_missing_key_is_one_line_naming_the_variable_before_anything_is_measured(tmp_path: Path) -> None:
    out = tmp_path / "out"
    run = run_cli(
        "measure", "v2", "--tokens", "anthropic", "--out", str(out), env=_env(tmp_path, ANTHROPIC_API_KEY=None)
    )
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and "ANTHROPIC_API_KEY" in run.stderr and "Traceback" not in run.stderr
    assert not out.exists()


@pytest.mark.parametrize(
    ("tokens", "said"),
    [
        ("claude", "unknown counter 'claude'; choose from o200k, harmony, anthropic[:MODEL]"),
        ("o200k:gpt-4o", "counter o200k takes no model"),
        ("openai:gpt 5", "unknown model 'gpt 5' for counter openai"),
        ("", "no counter named"),
    ],
)
def test_an_unknown_counter_or_model_name_is_one_line(tmp_path: Path, tokens: str, said: str) -> None:
    run = run_cli("measure", "v2", "--tokens", tokens, env=_env(tmp_path))
    if tokens == "":
        # An empty --tokens is no counter asked for: o200k, as ever.
        assert run.returncode == 0, run.stderr
        return
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and said in run.stderr


@pytest.mark.parametrize("family", ["anthropic", "openai", "gemini"])
def test_a_model_the_provider_does_not_know_is_its_message_in_one_line(
    tmp_path: Path, endpoint: ModelEndpoint, family: str
) -> None:
    out = tmp_path / "out"
    run = run_cli(
        "measure", "v2", "--tokens", f"{family}:unknown-model", "--count-url", endpoint.url, "--out", str(out),
        env=_env(tmp_path),
    )  # fmt: skip
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1, run.stderr
    assert f"toolsurface: {family}:unknown-model: " in run.stderr and "HTTP 404" in run.stderr
    assert "model: unknown-model is not a model the scripted endpoint knows" in run.stderr
    assert f"check the model name ({family}:MODEL)" in run.stderr
    assert not out.exists()  # nothing written half-way
    assert not list((tmp_path / "cache").rglob("*.json"))  # a refusal is not cached


def test_a_rate_limit_is_retried_and_then_counted(tmp_path: Path) -> None:
    with ModelEndpoint(tmp_path / "requests.jsonl", steps=[], count_rate_limits=3) as server:
        run = run_cli(
            "measure", "v2-first", "--no-growth", "--tokens", "anthropic", "--count-url", server.url,
            "--format", "json", env=_env(tmp_path),
        )  # fmt: skip
        statuses = [r.status for r in _counts(server)]
    assert run.returncode == 0, run.stderr
    # The framing (with one and two minimal tools), the list, and the list without each of its 8 tools.
    assert statuses.count(429) == 3 and statuses.count(200) == 4 + 8
    assert run.json()["surfaces"][0]["counts"][0]["framing"] > 0


def test_a_rate_limit_that_lasts_is_one_line_after_the_retries(tmp_path: Path) -> None:
    with ModelEndpoint(tmp_path / "requests.jsonl", steps=[], count_rate_limits=10_000) as server:
        run = run_cli(
            "budget", "v2", "--max-chars", "10000", "--tokens", "openai", "--count-url", server.url,
            env=_env(tmp_path),
        )  # fmt: skip
        tries = len(_counts(server))
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1, run.stderr
    assert "openai:gpt-5: OpenAI rate-limited the request (HTTP 429 rate_limit_exceeded" in run.stderr
    assert "after 5 tries; wait a minute and run again" in run.stderr
    # One request tried 5 times; the 3 in flight with it stop retrying, and the rest are never
    # sent. Under load one freed worker per job has been seen to send a first try as the failure lands.
    assert 5 <= tries <= 5 + 3 * 5 + 4


def test_no_network_is_one_line_naming_the_provider_and_what_to_do(tmp_path: Path) -> None:
    import socket

    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    run = run_cli(
        "measure", "v2", "--tokens", "gemini", "--count-url", f"gemini=http://127.0.0.1:{port}", env=_env(tmp_path)
    )
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1
    assert f"gemini:gemini-2.5-pro: cannot reach http://127.0.0.1:{port}/v1beta/models/gemini-2.5-pro:countTokens" in (
        run.stderr
    )
    assert "check the network, or give the provider's URL (or a proxy's) with --count-url gemini=URL" in run.stderr


def test_a_count_url_for_an_unknown_family_or_without_a_keyed_counter_is_refused(tmp_path: Path) -> None:
    run = run_cli("measure", "v2", "--tokens", "anthropic", "--count-url", "harmony=http://x", env=_env(tmp_path))
    assert run.returncode == 2 and "harmony has no counting URL" in run.stderr
    run = run_cli("measure", "v2", "--tokens", "harmony", "--count-url", "http://127.0.0.1:1", env=_env(tmp_path))
    assert run.returncode == 2 and "--count-url goes with a keyed counter" in run.stderr


def test_a_token_budget_applies_to_the_first_counter_named(tmp_path: Path, endpoint: ModelEndpoint) -> None:
    args = ("budget", "v2", "--max-chars", "10000", "--tokens", "anthropic,o200k", "--count-url", endpoint.url)
    measured = run_cli("measure", "v2", "--no-growth", *args[4:], "--format", "json", env=_env(tmp_path)).json()
    tokens, o200k = (c["tokens"] for c in measured["surfaces"][0]["counts"])
    name = "anthropic:claude-opus-5-5 (scripted endpoint)"
    within = run_cli(*args, "--max-tokens", str(tokens), env=_env(tmp_path))
    assert within.returncode == 0, within.stderr
    assert within.stdout.strip() == (
        f"v2: 8 tools, 6,767 chars, {tokens:,} tokens ({name}), {o200k:,} tokens (o200k): within budget"
        f" (10,000 chars, {tokens:,} tokens ({name}))"
    )
    over = run_cli(*args, "--max-tokens", str(tokens - 1), env=_env(tmp_path))
    assert over.returncode == 1
    assert over.stdout.strip().splitlines()[-1].endswith(f"by 1 tokens ({name})")


def test_a_configured_target_counts_with_its_own_counters(tmp_path: Path) -> None:
    (tmp_path / "toolsurface.toml").write_text(
        'surface = "v2"\nmax-chars = 10000\nmax-tokens = 1226\ntokens = ["harmony", "o200k"]\n', encoding="utf-8"
    )
    run = run_cli("budget", cwd=tmp_path, env=_env(tmp_path))
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == (
        "v2: 8 tools, 6,767 chars, 1,226 tokens (harmony), 1,525 tokens (o200k): within budget"
        " (10,000 chars, 1,226 tokens (harmony))"
    )
    shown = run_cli("config", "--format", "json", cwd=tmp_path, env=_env(tmp_path))
    assert shown.json()["targets"][0]["tokens"] == ["harmony", "o200k"]
    assert "  tokens: harmony, o200k" in run_cli("config", cwd=tmp_path, env=_env(tmp_path)).stdout.splitlines()


def test_a_configured_counter_that_does_not_exist_names_the_key(tmp_path: Path) -> None:
    (tmp_path / "toolsurface.toml").write_text(
        'surface = "v2"\nmax-chars = 10000\ntokens = ["o200k", "llama"]\n', encoding="utf-8"
    )
    run = run_cli("budget", cwd=tmp_path, env=_env(tmp_path))
    assert run.returncode == 2
    assert run.stderr.strip() == (
        "toolsurface: toolsurface.toml: tokens: unknown counter 'llama'; choose from o200k, harmony,"
        " anthropic[:MODEL], openai[:MODEL], gemini[:MODEL]"
    )


def test_diff_counts_both_lists_and_each_changed_tool_with_the_first_counter(
    tmp_path: Path, endpoint: ModelEndpoint
) -> None:
    run = run_cli(
        "diff", "v2-first", "v2", "--tokens", "anthropic,o200k", "--count-url", endpoint.url, "--format", "json",
        env=_env(tmp_path),
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    data = run.json()
    before, after = (wire.tools for wire in listed([resolve("v2-first"), resolve("v2")]))
    framing = _framing("anthropic", "claude-opus-5-5")
    name = "anthropic:claude-opus-5-5 (scripted endpoint)"
    assert data["encoding"] == name
    assert data["tokens"]["before"] == _scripted(_request("anthropic", "claude-opus-5-5", before)) - framing
    assert data["tokens"]["after"] == _scripted(_request("anthropic", "claude-opus-5-5", after)) - framing
    assert [c["counter"] for c in data["counts"]] == [name, "o200k"]
    changed = {t["name"]: t["tokens"] for t in data["tools"]}
    item_list = next(t for t in after if t["name"] == "item_list")
    assert changed["item_list"]["after"] == _scripted(_request("anthropic", "claude-opus-5-5", [item_list])) - framing


def test_the_report_shows_each_counter_beside_o200k_with_its_ratio(tmp_path: Path, endpoint: ModelEndpoint) -> None:
    out = tmp_path / "report"
    run = run_cli(
        "report", "--surface", "v2", "--out", str(out), "--tokens", "harmony,openai", "--count-url", endpoint.url,
        env=_env(tmp_path), timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    table = json.loads((out / "tables" / "tokens_by_counter.json").read_text(encoding="utf-8"))
    v2, framing = table["rows"]
    assert v2["tokens (o200k)"] == 1525 and v2["tokens (harmony)"] == 1226
    assert v2["ratio to o200k (harmony)"] == 0.8
    assert "tokens (openai:gpt-5 (scripted endpoint))" in v2 and framing["tokens (harmony)"] == 54
    assert table["command"] == "toolsurface measure v2 --tokens o200k,harmony,openai:gpt-5 --format markdown"
    # The other tables stay o200k's, as the seed's figures are.
    size = json.loads((out / "tables" / "list_size.json").read_text(encoding="utf-8"))
    assert size["rows"][0]["tokens"] == 1525
