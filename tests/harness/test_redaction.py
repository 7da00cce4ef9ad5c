"""One list of the forms a secret takes on a server's command line or in a message (harness.redact), shared by
every writer: the snapshot sidecar, the job summary, JUnit and error lines each show none of them."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import run_cli
from toolsurface.harness.redact import REDACTED, is_secret_name, redacted_argv, redacted_text

PY = sys.executable
# A stub that ignores its own arguments, so any command line can be listed.
SERVER = [
    PY,
    "-c",
    "import runpy, sys; sys.argv = ['t', 'serve', 'v2']; runpy.run_module('toolsurface', run_name='__main__')",
]


@pytest.mark.parametrize(
    ("argv", "shown"),
    [
        (["--header", "Authorization: Bearer S-1a"], ["--header", f"Authorization: {REDACTED}"]),
        (["--pass", "S-2b"], ["--pass", REDACTED]),
        (["--passphrase", "S-3c"], ["--passphrase", REDACTED]),
        (["--jwt", "S-4d"], ["--jwt", REDACTED]),
        (["-p", "S-5e"], ["-p", REDACTED]),
        (["https://h.example/mcp?sig=S-6f&v=1"], [f"https://h.example/mcp?sig={REDACTED}&v=1"]),
        (["--token", "-S-7g"], ["--token", REDACTED]),
        (["--token", "S-8h"], ["--token", REDACTED]),
        (["--api-key=S-9i"], [f"--api-key={REDACTED}"]),
        (["API_KEY=S-10j"], [f"API_KEY={REDACTED}"]),
        (["https://user:S-11k@h.example/mcp"], [f"https://{REDACTED}@h.example/mcp"]),
        (["--header=X-Api-Key: S-12l"], [f"--header=X-Api-Key: {REDACTED}"]),
    ],
    ids=[
        "header-authorization", "pass", "passphrase", "jwt", "p", "url-sig", "token-dash", "token", "api-key=",
        "variable", "url-password", "header=",
    ],
)  # fmt: skip
def test_each_form_of_a_secret_on_a_command_line_is_redacted(argv: list[str], shown: list[str]) -> None:
    assert redacted_argv(["server", *argv]) == ["server", *shown]


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("failed: Authorization: Bearer S-1a", f"failed: Authorization: {REDACTED}"),
        ("GET https://h.example/x?X-Amz-Signature=S-2b&a=1", f"GET https://h.example/x?X-Amz-Signature={REDACTED}&a=1"),
        ("sent Bearer S-3c-long to it", f"sent Bearer {REDACTED} to it"),
        ("at https://u:S-4d@h.example/", f"at https://{REDACTED}@h.example/"),
        ("--base-url 'http://h/v1?sig=S-5e': no", f"--base-url 'http://h/v1?sig={REDACTED}': no"),
    ],
    ids=["header", "query", "bearer", "url-password", "quoted-url"],
)
def test_each_form_of_a_secret_in_a_message_is_redacted(text: str, shown: str) -> None:
    assert redacted_text(text) == shown


def test_ordinary_arguments_and_messages_are_kept() -> None:
    argv = ["--port", "8080", "--header", "Content-Type: application/json", "https://h.example/mcp?v=1", "-v"]
    assert redacted_argv(argv) == argv
    text = (
        "v2: 8 tools, 6,767 chars: over budget; Token counts by o200k; Basic usage; Bearer tokens expire; "
        "tool.toolsurface.headers.Authorization: environment variable NO_SUCH_TOKEN_VAR is not set"
    )
    assert redacted_text(text) == text


PLANTED = {
    "--header": "PLANTED-header-1a",
    "--pass": "PLANTED-pass-2b",
    "--passphrase": "PLANTED-phrase-3c",
    "--jwt": "PLANTED-jwt-4d",
    "-p": "PLANTED-p-5e",
    "?sig=": "PLANTED-sig-6f",
    "--token": "-PLANTED-token-7g",
}


def planted_arguments() -> list[str]:
    return [
        "--header", f"Authorization: Bearer {PLANTED['--header']}",
        "--pass", PLANTED["--pass"],
        "--passphrase", PLANTED["--passphrase"],
        "--jwt", PLANTED["--jwt"],
        "-p", PLANTED["-p"],
        f"https://h.example/mcp?sig={PLANTED['?sig=']}&v=1",
        "--token", PLANTED["--token"],
    ]  # fmt: skip


def leaked(text: str) -> list[str]:
    return [form for form, secret in PLANTED.items() if secret.lstrip("-") in text]


def test_no_writer_shows_a_secret_of_the_server_command_line(tmp_path: Path) -> None:
    command = [*SERVER, *planted_arguments()]
    snapshot = tmp_path / "tools.json"
    taken = run_cli("snapshot", "-o", str(snapshot), "--", *command, timeout=120)
    assert taken.returncode == 0, taken.stderr
    sidecar = snapshot.with_suffix(".meta.json").read_text(encoding="utf-8")
    assert json.loads(sidecar)["source"]["argv"][len(SERVER) :] == redacted_argv(planted_arguments())
    summary = tmp_path / "summary.md"
    github = run_cli(
        "budget", "--max-chars", "10", "--format", "github", "--", *command,
        env={"GITHUB_STEP_SUMMARY": str(summary)}, timeout=120,
    )  # fmt: skip
    assert github.returncode == 1 and "source: `" in summary.read_text(encoding="utf-8")
    junit = run_cli("budget", "--max-chars", "10", "--format", "junit", "--", *command, timeout=120)
    assert junit.returncode == 1 and "<testsuites" in junit.stdout
    failed = run_cli("snapshot", "--", PY, "-c", "raise SystemExit(3)", *planted_arguments(), timeout=120)
    assert failed.returncode == 2
    written = {
        "sidecar": sidecar,
        "summary": summary.read_text(encoding="utf-8"),
        "junit": junit.stdout,
        "errors": taken.stderr + github.stderr + junit.stderr + failed.stderr,
    }
    assert {writer: leaked(text) for writer, text in written.items()} == {writer: [] for writer in written}


def test_a_secret_passed_as_a_server_argument_is_written_nowhere(tmp_path: Path) -> None:
    planted = ["sk-PLANTED-option", "PLANTED-separate", "PLANTED-variable", "PLANTED-url-password"]
    server = (
        "import runpy, sys; sys.argv = ['mcp-server-time']; runpy.run_module('mcp_server_time', run_name='__main__')"
    )
    arguments = [f"--api-key={planted[0]}", "--token", planted[1], f"API_KEY={planted[2]}"]
    arguments.append(f"https://user:{planted[3]}@example.org/mcp")
    output = tmp_path / "tools.json"
    taken = run_cli("snapshot", "-o", str(output), "--", PY, "-c", server, *arguments, timeout=120)
    assert taken.returncode == 0, taken.stderr
    failed = run_cli("snapshot", "--", PY, "-c", "raise SystemExit(3)", *arguments, timeout=120)
    assert failed.returncode == 2
    sidecar = json.loads(output.with_suffix(".meta.json").read_text(encoding="utf-8"))
    assert sidecar["source"]["argv"][3:] == [
        "--api-key=[redacted]",
        "--token",
        "[redacted]",
        "API_KEY=[redacted]",
        "https://[redacted]@example.org/mcp",
    ]
    written = "".join(p.read_text(encoding="utf-8") for p in tmp_path.iterdir())
    for secret in planted:
        assert secret not in written + taken.stdout + taken.stderr + failed.stderr


def test_a_base_url_with_a_query_is_refused_shown_whole_without_its_query(tmp_path: Path) -> None:
    run = run_cli(
        "session", "run", "--agent", "openai", "--base-url", "http://h.example/v1?sig=S-6f", "--model", "m",
        "--surface", "v2", "--out", str(tmp_path / "o"), env={"OPENAI_API_KEY": "placeholder"},
    )  # fmt: skip
    assert run.returncode == 2 and len(run.stderr.splitlines()) == 1, run.stderr
    assert "--base-url 'http://h.example/v1': expected no query or fragment" in run.stderr
    assert "S-6f" not in run.stderr and "sig" not in run.stderr


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("key sk-ant-api03-S1aBcDeFgHiJkLmNoP-x_y", f"key {REDACTED}"),
        ("sk-proj-S2aBcDeFgHiJ and more", f"{REDACTED} and more"),
        ("OPENAI=sk-S3aBcDeFgHiJkLmNoPqRsTu", f"OPENAI={REDACTED}"),
        ("pushed with ghp_S4aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789", f"pushed with {REDACTED}"),
        ("github_pat_11S5aBcDeFgHiJkLmNoPqRs_TuVwXyZ0123456789abcd", REDACTED),
        ('"xoxb-S6-123456-abcdef" in the log', f'"{REDACTED}" in the log'),
        ("id AKIAS7ABCDEFGHIJKLMN", f"id {REDACTED}"),
        ("AIzaS8aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456", REDACTED),
        ("glpat-S9aBcDeFgHiJkLmNoPqR", REDACTED),
        ("call with token=S10k and limit=5", f"call with token={REDACTED} and limit=5"),
        ("key=S11l; password=S12m, --api-key=S13n", f"key={REDACTED}; password={REDACTED}, --api-key={REDACTED}"),
        ("X-Api-Key: S14o-1", f"X-Api-Key: {REDACTED}"),
    ],
    ids=[
        "sk-ant", "sk-proj", "sk", "ghp", "github_pat", "xoxb", "AKIA", "AIza", "glpat", "token=", "pairs",
        "x-api-key",
    ],
)  # fmt: skip
def test_a_key_by_its_shape_and_a_secret_pair_in_free_text_are_redacted(text: str, shown: str) -> None:
    assert redacted_text(text) == shown


def test_a_name_is_secret_by_a_word_of_it_not_by_letters_inside_another_word() -> None:
    secret = ["api_key", "apiKey", "X-API-KEY", "API_KEYS", "apikey", "GITHUB_TOKEN", "Authorization", "SESSION_ID"]
    plain = ["author", "AUTHOR", "keyword", "KEYWORD", "monkey", "Keyboard", "max_tokens", "MAX_TOKENS", "sessions"]
    assert [name for name in secret if not is_secret_name(name)] == []
    assert [name for name in plain if is_secret_name(name)] == []
    assert redacted_argv(["--keyword", "map", "--max-tokens", "4096", "--author", "me"]) == [
        "--keyword", "map", "--max-tokens", "4096", "--author", "me",
    ]  # fmt: skip


def test_ordinary_words_and_pairs_are_kept() -> None:
    text = (
        "Ask sk-learn users; a task-force of 12 risk-takers; max_tokens=4096 tokens=1,200 author=alice keyword=map "
        "monkey=3 limit=50; the key is the item's id; sessions: 4; Session 2 (token counts); ghost_town; "
        "AKIA is no key; skeleton-key-words-and-more-words-here; https://h.example/x?page=2&sort=name"
    )
    assert redacted_text(text) == text


SECRETS_IN = "see https://u:S-1a@h.example/x?token=S-2b&v=1, Authorization: Bearer S-3c, sk-ant-api03-S4dS4dS4d; "
SECRETS_OUT = f"see https://{REDACTED}@h.example/x?token={REDACTED}&v=1, Authorization: {REDACTED}, {REDACTED}; "
# A megabyte of each shape a pattern could backtrack over, and what each reads redacted.
MEGABYTES = {
    "letters": ("a" * 2**20, "a" * 2**20),
    "sentences": ("Find the things a user asked for. " * 30_000,) * 2,
    "run-then-scheme": ("x" * 2**20 + "://u@h", "x" * 2**20 + f"://{REDACTED}@h"),
    "run-then-no-scheme": ("x" * 2**20 + "@ ://",) * 2,
    "schemes": ("a://" * 2**18,) * 2,
    "questions": ("?" * 2**20,) * 2,
    "x-": ("x-" * 2**19,) * 2,
    "cookie": ("cookie:" * 150_000,) * 2,
    "bearer": ("Bearer " * 150_000,) * 2,
    "equals": ("w=" * 2**19,) * 2,
    "sk-": ("sk-" * 350_000,) * 2,
    "spaces": (" \t" * 2**19,) * 2,
    "pairs": ("--token=" * 2**17, f"--token={REDACTED}"),
    "secrets": (SECRETS_IN * 10_000, SECRETS_OUT * 10_000),
}


def test_a_megabyte_of_any_text_is_redacted_in_one_pass_over_it() -> None:
    # A pattern that backtracks over a run it did not start took minutes on one of these (a quadratic path);
    # the child's timeout fails the test then, never a figure.
    script = (
        "import hashlib, json, sys; from toolsurface.harness.redact import redacted_text; "
        "print(json.dumps([hashlib.sha256(redacted_text(t).encode()).hexdigest() for t in json.load(sys.stdin)]))"
    )
    texts = [text for text, _ in MEGABYTES.values()]
    done = subprocess.run(
        [PY, "-c", script], input=json.dumps(texts), capture_output=True, text=True, timeout=60, check=True
    )
    got = dict(zip(MEGABYTES, json.loads(done.stdout), strict=True))
    assert got == {name: hashlib.sha256(shown.encode()).hexdigest() for name, (_, shown) in MEGABYTES.items()}


CONFIGURED = {
    "--api-key": "sk-ant-api03-PLANTED1aaaa",
    "--token=": "PLANTED2tok",
    "bare": "sk-proj-PLANTED3bbbbbbbb",
    "url-password": "PLANTED4pw",
    "pair": "PLANTED5pair",
    "env": "PLANTED6env",
    "url": "PLANTED7pw",
    "query": "PLANTED8qt",
    "header": "PLANTED9hdr",
    "not-http": "PLANTED10ftp",
}
TIME_SERVER = (
    "import runpy, sys; sys.argv = ['mcp-server-time']; runpy.run_module('mcp_server_time', run_name='__main__')"
)


@pytest.fixture
def configured(tmp_path: Path) -> Path:
    """A client's configuration whose servers carry a secret in each form: in the command's arguments, the
    environment, a URL's user and query, a header, and a URL that is not HTTP."""
    planted = CONFIGURED
    arguments = [
        "-c", TIME_SERVER, "--api-key", planted["--api-key"], f"--token={planted['--token=']}", planted["bare"],
        f"https://user:{planted['url-password']}@example.org/x", f"token={planted['pair']}",
    ]  # fmt: skip
    servers = {
        "time": {"command": PY, "args": arguments, "env": {"API_KEY": planted["env"]}},
        "remote": {
            "url": f"https://u:{planted['url']}@127.0.0.1:9/mcp?access_token={planted['query']}",
            "headers": {"Authorization": f"Bearer {planted['header']}"},
        },
        "odd": {"url": f"ftp://u:{planted['not-http']}@h.example/x"},
    }
    config = tmp_path / ".mcp.json"
    config.write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")
    return config


@pytest.mark.parametrize(
    "command",
    [
        *(["measure", "--format", fmt] for fmt in ("json", "csv", "markdown", "table")),
        *(["budget", "--max-chars", "10", "--format", fmt] for fmt in ("json", "csv", "github", "junit")),
        *(["lint", "--format", fmt] for fmt in ("json", "sarif")),
        ["snapshot", "--out", "snapshots"],
        ["report", "--out", "report", "--html"],
    ],
    ids=lambda command: "-".join(part for part in command if not part.startswith("-") and part != "10"),
)
def test_no_writer_shows_a_secret_of_a_configured_servers_command_or_url(configured: Path, command: list[str]) -> None:
    summary = configured.parent / "summary.md"
    done = run_cli(
        *command, "--mcp-config", str(configured), "--timeout", "30",
        env={"GITHUB_STEP_SUMMARY": str(summary)}, cwd=configured.parent, timeout=300,
    )  # fmt: skip
    assert done.returncode in (0, 1, 2), done.stderr
    written = done.stdout + done.stderr
    written += "".join(
        p.read_text(encoding="utf-8", errors="replace")
        for p in configured.parent.rglob("*")
        if p.is_file() and p != configured
    )
    assert [form for form, secret in CONFIGURED.items() if secret in written] == []
    if command[0] == "measure" and command[2] == "json":
        [time] = [s for s in done.json()["mcp_config"]["servers"] if s["name"] == "time"]
        assert time["command"][3:] == [
            "--api-key", REDACTED, f"--token={REDACTED}", REDACTED, f"https://{REDACTED}@example.org/x",
            f"token={REDACTED}",
        ]  # fmt: skip
