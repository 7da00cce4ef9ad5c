"""A client is one card, registered through the entry-point group `toolsurface.agents`: toolsurface's own clients
as an outside package's, every list of clients read from the registry, and a package installed beside
toolsurface adding a client of its own. What a package declares wrong is one line and exit 2 naming it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import zipfile
from importlib.metadata import distribution
from pathlib import Path

import pytest

from tests.conftest import ROOT, run_cli, run_cli_process
from tests.helpers.wheel import wheel_python
from toolsurface.harness.agents import (
    ENTRY_POINT_GROUP,
    CliAgent,
    check_server_name,
    cli_clients,
    client_card,
    client_cards,
    make_agent,
    registered_clients,
    server_prefixes,
)
from toolsurface.harness.errors import ToolsurfaceError

CLIS = ("claude", "codex", "gemini", "opencode", "copilot", "cline", "qwen", "droid", "kilo")
OWN = (*CLIS, "openai", "script")

# Who declares which client in an environment, by distribution.
DECLARED = """
import json
from importlib.metadata import entry_points
found = {}
for ep in entry_points(group="toolsurface.agents"):
    found.setdefault(ep.dist.name, []).append(ep.name)
print(json.dumps({k: sorted(v) for k, v in found.items()}))
"""

# An outside package's client: a CLI of its own (`acme-agent`), its card, and what a CLI adapter must say.
ACME = """
from toolsurface.harness.agents import AgentReport, CliAgent, ClientCard, ToolNaming
from toolsurface.harness.agents._cli import Invocation, agent_env


class AcmeAgent(CliAgent):
    card = ClientCard(
        name="acme",
        title="Acme CLI",
        package="acme-cli",
        executable="acme-agent",
        pinned="1.2.3",
        modes=("default",),
        naming=ToolNaming("Acme CLI", "{server}.{tool}"),
        api="openai-chat",
    )

    def missing_credentials(self, env):
        return None

    def command(self, ctx):
        env = agent_env(ctx)
        return Invocation((self.resolve(env), "--prompt", ctx.prompt), env)

    def read(self, records):
        return AgentReport(status="ok")
"""


def test_toolsurface_declares_every_client_of_its_own_in_the_entry_point_group() -> None:
    declared = distribution("toolsurface").entry_points.select(group=ENTRY_POINT_GROUP)
    assert sorted(ep.name for ep in declared) == sorted(OWN)
    assert [c.card.name for c in registered_clients()] == list(OWN)
    assert all(c.origin.startswith("toolsurface ") for c in registered_clients())
    assert cli_clients() == CLIS
    assert not client_card("script").calls_model and client_card("openai").harness_client


def test_every_cli_card_holds_its_package_versions_naming_and_api() -> None:
    for card in client_cards():
        assert card.problems() == [], card.name
        if card.is_cli:
            assert card.package and card.pinned and card.naming is not None and card.api is not None
            assert card.tested_versions[0] == card.pinned and card.min_version <= tuple(
                map(int, card.pinned.split("."))
            )
            assert card.sessions is not None and card.leaves


def test_a_clients_name_is_in_no_package_module_but_its_own() -> None:
    package = ROOT / "toolsurface"
    for name in ("opencode", "copilot", "cline", "qwen", "droid", "kilo"):
        found = subprocess.run(
            ["grep", "-rliw", name, str(package), "--include=*.py"], capture_output=True, text=True, check=False
        ).stdout.split()
        assert [Path(f).relative_to(package).as_posix() for f in found] == [f"harness/agents/{name}.py"], name


def test_an_alias_runs_the_mode_its_card_declares_and_any_other_mode_is_refused() -> None:
    agent = make_agent("opencode")
    assert isinstance(agent, CliAgent)
    assert agent.mode_named("full-list") == "default"
    with pytest.raises(ToolsurfaceError, match="no mode 'on-demand'; it runs in default; full-list runs default"):
        agent.check_mode("on-demand")


def test_the_prefixes_every_client_puts_before_a_servers_tools_come_from_the_cards() -> None:
    expected = {card.naming.prefix("acme") for card in client_cards() if card.naming is not None}
    assert set(server_prefixes("acme")) == expected and "mcp__acme__" in expected and "acme-" in expected


def test_a_server_name_no_client_takes_is_refused_naming_each_rule_and_its_package() -> None:
    check_server_name("acme", ["claude", "script"])
    with pytest.raises(ToolsurfaceError) as refused:
        check_server_name("a b", ["claude", "gemini"])
    said = str(refused.value)
    assert said.startswith(
        "--server-name 'a b': no client takes it as a server's name: Claude Code (claude, of toolsurface "
    )
    assert "gemini-cli (gemini, of toolsurface" in said and "\n" not in said


def test_help_texts_name_every_registered_client_and_its_modes() -> None:
    run = run_cli("session", "run", "--help")
    # Words joined again where the help wrapped them, a hyphenated one too.
    text = " ".join(run.stdout.split()).replace("- ", "-")
    assert all(name in text for name in OWN)
    assert (
        "claude and qwen: on-demand (the default) or full-list" in text
        and "full-list runs default" in text
        and "codex: default or direct (full-list runs direct)" in text
    )
    clients = " ".join(run_cli("clients", "--help").stdout.split())
    assert f"Only this client ({', '.join(CLIS)})" in clients


# An outside package


def _wheel(folder: Path, name: str, entry_points: dict[str, str], modules: dict[str, str]) -> Path:
    """A wheel of the distribution `name` 0.1.0: `modules` (module name: source) and `entry_points` of
    toolsurface.agents, its metadata as pip installs it."""
    dist = name.replace("-", "_")
    wheel = folder / f"{dist}-0.1.0-py3-none-any.whl"
    info = f"{dist}-0.1.0.dist-info"
    files = {f"{module}.py": source for module, source in modules.items()}
    files[f"{info}/METADATA"] = f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1.0\n"
    files[f"{info}/WHEEL"] = "Wheel-Version: 1.0\nGenerator: tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    files[f"{info}/entry_points.txt"] = f"[{ENTRY_POINT_GROUP}]\n" + "".join(
        f"{k} = {v}\n" for k, v in entry_points.items()
    )
    files[f"{info}/RECORD"] = "".join(f"{path},,\n" for path in [*files, f"{info}/RECORD"])
    with zipfile.ZipFile(wheel, "w") as archive:
        for path, text in files.items():
            archive.writestr(path, text)
    return wheel


def _cli(folder: Path, name: str, version: str) -> Path:
    """An executable `name` that prints its version."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(f"#!/bin/sh\necho '{name} {version}'\n", encoding="utf-8")
    path.chmod(0o755)
    return folder


def test_a_client_from_a_package_installed_beside_toolsurface_is_listed_by_agents(tmp_path: Path) -> None:
    base = wheel_python()
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    # The new environment sees the installed toolsurface wheel's environment, and gets the package of its own.
    site = subprocess.run(
        [str(base), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout.strip()
    own_site = Path(
        subprocess.run(
            [str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
            capture_output=True,
            text=True,
            check=True,
            timeout=120,
        ).stdout.strip()
    )
    (own_site / "toolsurface_wheel.pth").write_text(site + "\n", encoding="utf-8")
    wheel = _wheel(tmp_path, "acme-client", {"acme": "acme_client:AcmeAgent"}, {"acme_client": ACME})
    install = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", str(wheel)]
    subprocess.run(install, check=True, timeout=600, env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"})
    bin_dir = _cli(tmp_path / "bin", "acme-agent", "1.2.3")
    done = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "toolsurface", "agents", "--format", "json"],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"},
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    rows = {row["name"]: row for row in json.loads(done.stdout)}
    assert list(rows)[: len(CLIS)] == list(CLIS) and list(rows)[-1] == "acme"
    # The installed wheel declares every client of toolsurface's own, the acme package its one.
    declared = subprocess.run(
        [str(venv / "bin" / "python"), "-c", DECLARED], capture_output=True, text=True, check=True, timeout=120
    ).stdout
    assert json.loads(declared) == {"toolsurface": sorted(OWN), "acme-client": ["acme"]}
    acme = rows["acme"]
    assert (acme["version"], acme["supported"], acme["tested"]) == ("1.2.3", True, True)
    assert acme["origin"] == "acme-client 0.1.0 (acme_client:AcmeAgent)" and acme["package"] == "acme-cli"


# What a package declares wrong


def _site(root: Path, entry_points: dict[str, str], modules: dict[str, str]) -> dict[str, str]:
    """The environment of a process that finds the distribution acme-client (its modules and entry points) on its
    PYTHONPATH, as an installed one is found."""
    site = root / "site"
    info = site / "acme_client-0.1.0.dist-info"
    info.mkdir(parents=True)
    for module, source in modules.items():
        (site / f"{module}.py").write_text(textwrap.dedent(source), encoding="utf-8")
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: acme-client\nVersion: 0.1.0\n", encoding="utf-8")
    lines = "".join(f"{k} = {v}\n" for k, v in entry_points.items())
    (info / "entry_points.txt").write_text(f"[{ENTRY_POINT_GROUP}]\n{lines}", encoding="utf-8")
    return {"PYTHONPATH": str(site)}


@pytest.mark.parametrize(
    ("entry_points", "modules", "said"),
    [
        (
            {"acme": "acme_gone:AcmeAgent"},
            {},
            "client 'acme' of acme-client 0.1.0 (acme_gone:AcmeAgent): cannot be loaded: ModuleNotFoundError: No"
            " module named 'acme_gone'",
        ),
        (
            {"acme": "acme_client:Helper"},
            {"acme_client": "class Helper:\n    pass\n"},
            "client 'acme' of acme-client 0.1.0 (acme_client:Helper): names the class Helper, not a client",
        ),
        (
            {"claude": "acme_client:AcmeAgent"},
            {"acme_client": ACME},
            "two clients named 'claude': acme-client 0.1.0 (acme_client:AcmeAgent) and toolsurface ",
        ),
        (
            {"acme": "acme_client:AcmeAgent"},
            {"acme_client": ACME.replace('pinned="1.2.3"', 'pinned="1.2", newer=("next",)')},
            "client 'acme' of acme-client 0.1.0 (acme_client:AcmeAgent): its pinned version '1.2' does not parse"
            " (expected MAJOR.MINOR.PATCH); its newer version 'next' does not parse",
        ),
    ],
    ids=["missing module", "not a client", "two of one name", "versions that do not parse"],
)
def test_a_client_declared_wrong_is_one_line_naming_the_package(
    tmp_path: Path, entry_points: dict[str, str], modules: dict[str, str], said: str
) -> None:
    env = _site(tmp_path, entry_points, modules)
    for args in (("agents",), ("clients", "v2", "--client", "claude")):
        run = run_cli_process(*args, env=env, cwd=tmp_path)
        assert run.returncode == 2 and run.stdout == "", (args, run.stderr)
        [line] = run.stderr.splitlines()
        assert line.startswith(f"toolsurface: {said}"), line
        assert "acme-client 0.1.0" in line


@pytest.mark.parametrize(
    "args",
    [
        ("session", "run", "--surface", "v2", "--agent", "claude", "--model-endpoint", "scripted"),
        ("clients", "v2", "--client", "gemini"),
    ],
    ids=["session run", "clients"],
)
def test_a_server_name_the_clients_naming_rule_refuses_is_one_line(tmp_path: Path, args: tuple[str, ...]) -> None:
    run = run_cli(*args, "--server-name", "my server", cwd=tmp_path)
    assert run.returncode == 2
    [line] = run.stderr.splitlines()
    assert line.startswith("toolsurface: --server-name 'my server': no client takes it as a server's name: ")
    assert "of toolsurface " in line and not (tmp_path / "study").exists()
