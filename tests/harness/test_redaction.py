"""One list of the forms a secret takes on a server's command line or in a message (harness.redact), shared by
every writer: the snapshot sidecar, the job summary, JUnit and error lines each show none of them."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.conftest import run_cli
from toolsurface.harness.redact import REDACTED, redacted_argv, redacted_text

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
