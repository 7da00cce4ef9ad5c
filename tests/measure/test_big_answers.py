"""A big answer is measured as a small one is, read where it lies: its text counted a piece at a time (each piece
cut where o200k_base's pre-tokenizer cuts, so the pieces' tokens are the whole's), its compact JSON measured
without being made, and an answer larger than 1 MiB sent as one SSE event (as the SDK's servers answer over
Streamable HTTP) measured, not taken for the server's error. benchmarks/big_answers.py measures time and memory."""

from __future__ import annotations

import base64
import hashlib
import json
import math
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import run_cli
from tests.helpers.live_servers import free_port, serving_http
from tests.helpers.probe_servers import recorded_server, write_calls
from toolsurface.harness.measure import claude_estimate, count_tokens
from toolsurface.harness.measure._tokens import PIECE_CHARS, encoding, token_pieces
from toolsurface.harness.output import SLICE_CHARS, compact_json, compact_json_length
from toolsurface.harness.probe import answer_texts, measure_answer

# What a pre-tokenizer's cut depends on: line breaks of every kind, spaces and other whitespace, "/" after a
# line break, contractions, letters of each case and script with marks, digits, punctuation, special tokens.
PIECES = [
    *"aZé日\u0301'sStT/ \n\r\t\x1c\u00a0\u2028\u3000.,!\"{}[]:0123456789+=-_<|>😀#",
    "<|endoftext|>",
    "'ll",
    "\r\n",
]


@settings(max_examples=3000, suppress_health_check=list(HealthCheck), deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=60).map("".join), st.integers(1, 12))
def test_a_text_cut_into_pieces_has_the_tokens_of_the_whole_text(text: str, size: int) -> None:
    pieces = list(token_pieces(text, size))
    assert "".join(pieces) == text
    made = encoding()
    assert [t for piece in pieces for t in made.encode(piece, disallowed_special=())] == made.encode(
        text, disallowed_special=()
    )


def _records(count: int) -> str:
    return "".join(
        json.dumps({"id": n, "title": f"Ticket {n}: printer jams", "body": "It's jammed again / and again.\n"}) + "\n"
        for n in range(count)
    )


def test_a_long_text_counts_as_many_tokens_as_tiktoken_gives_it_whole() -> None:
    for text in (
        _records(40_000),
        base64.b64encode(bytes(range(256)) * 12_000).decode(),
        "工单\uff0c卡纸\u3002 " * 400_000,
    ):
        assert len(text) > 2 * PIECE_CHARS
        assert len(list(token_pieces(text))) > 1
        assert count_tokens(text) == len(encoding().encode(text, disallowed_special=()))


LONG = ('"quoted" back\\slash \x00\x1f\x7f é 日 😀 \ud800 \n\t' * 60_000)[: 2 * SLICE_CHARS + 17]


VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
)


@settings(max_examples=300, suppress_health_check=list(HealthCheck), deadline=None)
@given(VALUES)
def test_the_compact_json_length_of_any_value_is_the_length_of_its_compact_json(value: Any) -> None:
    assert compact_json_length(value) == len(compact_json(value))


# Each example dumps two texts of 2 MiB whole to compare: fewer examples, the same values.
@settings(max_examples=30, suppress_health_check=list(HealthCheck), deadline=None)
@given(VALUES)
def test_the_compact_json_length_of_any_value_beside_texts_measured_a_slice_at_a_time_is_its_length(
    value: Any,
) -> None:
    beside = {"content": [{"type": "text", "text": LONG}, value], "more": [LONG, {"x": value}]}
    assert compact_json_length(beside) == len(compact_json(beside))


def _read(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


def _plain_figures(result: dict[str, Any]) -> dict[str, Any]:
    """The figures as written out the plain way: each text encoded whole, the whole answer dumped."""
    texts, images, _ = answer_texts(result)
    text = "".join(texts)
    structured = result.get("structuredContent")
    copies = [
        b["text"]
        for b in result["content"]
        if structured is not None and b.get("type") == "text" and _read(b["text"]) == structured
    ]
    return {
        "chars": len(text),
        "tokens": sum(len(encoding().encode(t, disallowed_special=())) for t in texts),
        "wire_chars": len(compact_json(result)),
        "structured_chars": len(compact_json(structured)) if structured is not None else None,
        "copy_chars": sum(len(c) for c in copies),
        "estimate": sum(math.floor(len(t.encode("utf-16-le", "surrogatepass")) // 2 / 4 + 0.5) for t in texts)
        + 1600 * images,
        "sha256": hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest(),
    }


def test_a_big_answer_has_the_figures_it_has_written_out_whole() -> None:
    tickets = {"tickets": [{"id": n, "title": f"Ticket {n} é", "tags": ["hw"]} for n in range(40_000)]}
    answers = [
        {"content": [{"type": "text", "text": _records(30_000) + "😀"}]},
        {"content": [{"type": "text", "text": compact_json(tickets)}], "structuredContent": tickets},
        {
            "content": [
                {"type": "text", "text": json.dumps(tickets, indent=2, ensure_ascii=False)},
                {"type": "text", "text": LONG},
                {"type": "image", "data": "aGk=", "mimeType": "image/png"},
                {"type": "resource", "resource": {"uri": "file:///r", "text": _records(5_000)}},
            ],
            "structuredContent": tickets,
            "isError": False,
        },
    ]
    for result in answers:
        figures = measure_answer(result, []).to_json()
        assert {key: figures[key] for key in _plain_figures(result)} == _plain_figures(result)
    assert measure_answer(answers[2], []).copy_chars == len(answers[2]["content"][0]["text"])
    assert claude_estimate([LONG]) == math.floor(len(LONG.encode("utf-16-le", "surrogatepass")) / 8 + 0.5)


REPORT_CHARS = 3_000_000


def test_an_answer_of_3_mb_is_measured_alike_over_stdio_and_as_one_sse_event_over_streamable_http(
    tmp_path: Path,
) -> None:
    """The SDK's server answers a call over Streamable HTTP as one SSE event, which the SDK's client holds to
    1 MiB unless told otherwise: probed, such an answer was an error answer of the server's."""
    calls = write_calls(tmp_path, [{"tool": "notes_report"}])
    port = free_port()
    server = recorded_server(tmp_path / "r.jsonl", "--report-chars", str(REPORT_CHARS))
    probe = ("probe", "--calls", str(calls), "--calls-only", "--format", "json")
    with serving_http([*server, "--http", str(port)], port) as url:
        over_http = run_cli(*probe, "--url", url, timeout=120)
    over_stdio = run_cli(*probe, "--", *server, timeout=120)
    for run in (over_http, over_stdio):
        assert run.returncode == 0, run.stderr
    (http_call,) = over_http.json()["calls"]
    (stdio_call,) = over_stdio.json()["calls"]
    assert http_call["error"] is None and not http_call["error_answer"]
    assert http_call["chars"] == stdio_call["chars"] == REPORT_CHARS
    assert http_call["tokens"] == stdio_call["tokens"] > REPORT_CHARS // 6
    assert http_call["sha256"] == stdio_call["sha256"]


def test_snapshot_probe_records_a_big_answer_within_the_limit_asked_for(tmp_path: Path) -> None:
    calls = write_calls(tmp_path, [{"tool": "notes_report"}])
    server = recorded_server(tmp_path / "r.jsonl", "--report-chars", str(20_000_000))
    out = tmp_path / "snap.json"
    args = ("snapshot", "--probe", "--calls", str(calls), "--calls-only", "-o", str(out))
    refused = run_cli(*args, "--", *server, timeout=120)
    assert refused.returncode == 2 and "larger than the answer limit, 16,777,216 bytes" in refused.stderr
    run = run_cli(*args, "--max-answer-bytes", "30000000", "--", *server, timeout=120)
    assert run.returncode == 0, run.stderr
    (answers,) = json.loads(out.read_text(encoding="utf-8"))["answers"]["tools"]
    assert answers["max_chars"] == 20_000_000 and answers["errors"] == 0
