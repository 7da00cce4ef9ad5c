"""Refresh the corpus of public MCP servers' tool lists that the package ships (toolsurface/corpus/).

    python -m benchmarks.corpus [--only NAME...] [--dry-run] [--newest] [--jobs N]

Each server of benchmarks/corpus_servers.toml is installed into a folder of its own (npm: `npm install --prefix`,
scripts off; PyPI: a venv) at its pinned version (`--newest`: the newest, and the pin is rewritten), then listed by
`toolsurface snapshot -o FILE --name NAME -- COMMAND`, started in a network namespace of its own that has no
network at all (`unshare -rn`): nothing a server does at start can reach beyond this machine. The command is its
launcher's bare name, found first on PATH, with an empty folder as its working directory, an empty HOME and
PYTHONHASHSEED=0, so the sidecar records nothing of this machine and a list comes out the same every time. npm
servers run on Node.js 22 (benchmarks.snapshot.find_node22).

A list `snapshot` refuses as it stands (a tool no client accepts unrepaired, as server-gitlab's tool without
`"type": "object"`) is listed again over the MCP SDK's stdio transport, each answer kept as sent (the SDK's
ClientSession refuses such a list too), and its entry marked malformed with snapshot's reason.
A server that fails to install or list is reported and keeps its last entry; the index is rewritten with the rest.
Beside the index it writes each server's figures (figures.json: tools, chars, o200k tokens, tokens a tool, the
largest tool), counted by `measure` from the snapshot written, which `measure` ranks a list among without counting
the corpus again; `--figures` counts them again from the snapshots alone, installing and starting nothing.
Never run at test time: the tests read what this wrote.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolsurface.harness.corpus import (
    FIGURES_NAME,
    INDEX_NAME,
    REGISTRIES,
    CorpusEntry,
    CorpusError,
    ServerFigures,
    corpus_figures,
    corpus_index_text,
    corpus_root,
    figures_text,
    file_sha256,
    listed_date,
    load_corpus,
    tools_sha256,
)

__all__ = ["SERVERS", "ServerSpec", "count_figures", "main", "read_servers", "snapshot_figures"]

SMOKE = ["--dry-run"]

HERE = Path(__file__).resolve().parent
SERVERS = HERE / "corpus_servers.toml"
DEFAULT_TIMEOUT = 60.0
INSTALL_TIMEOUT = 1200
ISOLATE = ("unshare", "-rn")


@dataclass(frozen=True)
class ServerSpec:
    """One server of the data file: what to install, how to start it, and why it is in the corpus (or, `dropped`,
    why it is left out: not tried unless named with --only)."""

    name: str
    registry: str
    package: str
    version: str
    command: tuple[str, ...]
    why: str
    env: Mapping[str, str] = field(default_factory=dict)
    capabilities: tuple[str, ...] = ()
    timeout: float = DEFAULT_TIMEOUT
    # PyPI: the Python its venv is made with ("3.12": python3.12 on PATH; default: this one), and requirements
    # installed beside the package (an old server's SDK pin its own metadata lacks).
    python: str | None = None
    install_with: tuple[str, ...] = ()
    dropped: str | None = None


@dataclass(frozen=True)
class Outcome:
    name: str
    entry: CorpusEntry | None
    message: str
    files: tuple[tuple[Path, bytes], ...] = ()
    figures: ServerFigures | None = None


def snapshot_figures(path: Path) -> ServerFigures:
    """A snapshot's figures as the corpus keeps them, counted by `measure` (o200k_base, as listed)."""
    from toolsurface.harness.measure import measure, server_figures
    from toolsurface.harness.surface import load_snapshot

    measured = measure([load_snapshot(path)], growth=False)
    return server_figures(measured, measured.surfaces[0])


def count_figures(root: Path) -> list[ServerFigures]:
    """Every server's figures, counted from its snapshot (each checked against its sha256 first)."""
    corpus = load_corpus(root)
    return [snapshot_figures(corpus.snapshot_path(entry)) for entry in corpus.entries]


def _index_files(
    root: Path, entries: Mapping[str, CorpusEntry], figures: Mapping[str, ServerFigures]
) -> list[tuple[Path, str]]:
    """The index of `entries` and the figures counted for it, written together."""
    from toolsurface.harness.measure import ENCODING_NAME

    index = corpus_index_text(list(entries.values()))
    counted = [figures[name] for name in entries]
    figures_file = figures_text(ENCODING_NAME, listed_date(list(entries.values())), index, counted)
    return [(root / INDEX_NAME, index), (root / FIGURES_NAME, figures_file)]


def read_servers(path: Path = SERVERS) -> list[ServerSpec]:
    with path.open("rb") as source:
        data = tomllib.load(source)
    specs: list[ServerSpec] = []
    for item in data.get("server", []):
        spec = ServerSpec(
            name=item["name"],
            registry=item["registry"],
            package=item["package"],
            version=str(item["version"]),
            command=tuple(item["command"]),
            why=item["why"],
            env={str(k): str(v) for k, v in item.get("env", {}).items()},
            capabilities=tuple(item.get("capabilities", ())),
            timeout=float(item.get("timeout", DEFAULT_TIMEOUT)),
            python=item.get("python"),
            install_with=tuple(item.get("install_with", ())),
            dropped=item.get("dropped"),
        )
        if spec.registry not in REGISTRIES:
            raise SystemExit(f"{path}: {spec.name}: registry {spec.registry!r} is not one of {', '.join(REGISTRIES)}")
        specs.append(spec)
    names = [spec.name for spec in specs]
    if len(set(names)) != len(names):
        raise SystemExit(f"{path}: a server's name is given twice")
    return specs


def _run(argv: Sequence[str], env: Mapping[str, str] | None = None, timeout: float = INSTALL_TIMEOUT, **kw: Any) -> str:
    """Run a step; its last lines of output in a RuntimeError when it fails."""
    try:
        done = subprocess.run(
            list(argv),
            capture_output=True,
            text=True,
            timeout=timeout,
            env=dict(env) if env else None,
            check=False,
            **kw,
        )
    except subprocess.TimeoutExpired:
        raise RuntimeError(f"{shlex.join(argv[:4])}...: no end in {timeout:.0f} s") from None
    if done.returncode != 0:
        tail = " | ".join((done.stderr or done.stdout).strip().splitlines()[-3:])
        raise RuntimeError(f"{Path(argv[0]).name} exited {done.returncode}: {tail}")
    return str(done.stdout)


def _install(spec: ServerSpec, work: Path, newest: bool, node_dir: str | None) -> tuple[Path, str]:
    """Install the server; its launchers' folder and the version installed."""
    if spec.registry == "npm":
        npm = shutil.which("npm")
        if npm is None:
            raise RuntimeError("npm is not on PATH")
        prefix = work / "prefix"
        prefix.mkdir()
        target = spec.package if newest else f"{spec.package}@{spec.version}"
        path = f"{node_dir}{os.pathsep}{os.environ.get('PATH', '')}" if node_dir else os.environ.get("PATH", "")
        _run(
            [
                npm,
                "install",
                "--prefix",
                str(prefix),
                "--no-audit",
                "--no-fund",
                "--ignore-scripts",
                "--loglevel=error",
                target,
            ],
            {**os.environ, "PATH": path, "PUPPETEER_SKIP_DOWNLOAD": "1"},
        )
        import json

        manifest = prefix / "node_modules" / spec.package / "package.json"
        version = json.loads(manifest.read_text(encoding="utf-8"))["version"]
        return prefix / "node_modules" / ".bin", str(version)
    venv = work / "venv"
    _run([_python(spec), "-m", "venv", str(venv)])
    target = spec.package if newest else f"{spec.package}=={spec.version}"
    python = venv / "bin" / "python"
    _run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", target, *spec.install_with])
    version = _run([str(python), "-c", f"import importlib.metadata as m; print(m.version({spec.package!r}))"])
    return venv / "bin", version.strip()


def _python(spec: ServerSpec) -> str:
    """The Python the server's venv is made with: PATH's python3.X, or pyenv's build of it."""
    if spec.python is None:
        return sys.executable
    wanted = f"python{spec.python}"
    found = [shutil.which(wanted)]
    pyenv = shutil.which("pyenv")
    if pyenv is not None:
        with contextlib.suppress(RuntimeError):
            root = Path(_run([pyenv, "root"]).strip())
            found += [str(path) for path in sorted(root.glob(f"versions/{spec.python}*/bin/{wanted}"), reverse=True)]
    for candidate in filter(None, found):
        with contextlib.suppress(RuntimeError, OSError):
            _run([candidate, "-V"])
            return candidate
    raise RuntimeError(f"no {wanted} that runs, on PATH or in pyenv")


def _server_env(bin_dir: Path, node_dir: str | None, work: Path) -> dict[str, str]:
    """The environment the snapshot (and so the server) starts in: its launchers first on PATH, a HOME and a
    temporary folder of its own, and nothing of this session's."""
    home, tmp = work / "home", work / "tmp"
    home.mkdir(exist_ok=True)
    tmp.mkdir(exist_ok=True)
    path = [str(bin_dir), *([node_dir] if node_dir else []), "/usr/local/bin", "/usr/bin", "/bin"]
    # A fixed hash seed: a Python server that builds a default from a set (mcp-atlassian) lists it in one order.
    fixed = {"LANG": "C.UTF-8", "PYTHONHASHSEED": "0"}
    return {"PATH": os.pathsep.join(path), "HOME": str(home), "TMPDIR": str(tmp), **fixed}


def _snapshot(spec: ServerSpec, out: Path, env: Mapping[str, str], cwd: Path) -> None:
    argv = [*ISOLATE, sys.executable, "-m", "toolsurface", "snapshot", "-o", str(out), "--name", spec.name]
    argv += ["--timeout", str(spec.timeout), *(f"--env={key}={value}" for key, value in spec.env.items())]
    if spec.capabilities:
        argv += ["--client-capabilities", ",".join(spec.capabilities)]
    _run([*argv, "--", *spec.command], env, timeout=spec.timeout + 60, cwd=cwd)


def _raw_listing(spec: ServerSpec, out: Path, env: Mapping[str, str], cwd: Path) -> str:
    """List the server again with the SDK's client, as sent (in this module's `--raw-list` form, started in its
    own network namespace), and say why snapshot refused it; RuntimeError when the list is not malformed."""
    argv = [*ISOLATE, sys.executable, "-m", "benchmarks.corpus", "--raw-list", str(out), "--name", spec.name]
    argv += [*(f"--env={key}={value}" for key, value in spec.env.items()), "--", *spec.command]
    _run(argv, env, timeout=spec.timeout + 60, cwd=cwd)
    from toolsurface.harness.errors import InvalidToolList
    from toolsurface.harness.files import read_json
    from toolsurface.harness.surface import validate_wire_tools

    try:
        validate_wire_tools(read_json(out)["tools"], spec.name)
    except InvalidToolList as problem:
        return str(problem).removeprefix(f"{spec.name}: ")
    raise RuntimeError("listed as sent, its list is valid: snapshot failed for another reason")


async def _list_as_sent(argv: Sequence[str], env: Mapping[str, str]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The handshake and tools/list over the SDK's stdio transport, each answer taken as sent: the SDK's
    ClientSession checks a tools/list result against its Tool model, which refuses the very lists kept here."""
    import anyio
    import mcp.types as types
    from mcp import StdioServerParameters, stdio_client
    from mcp.shared.message import SessionMessage

    from toolsurface import __version__

    params = StdioServerParameters(command=argv[0], args=list(argv[1:]), env=dict(env))
    with anyio.fail_after(DEFAULT_TIMEOUT):
        async with stdio_client(params) as (read, write):

            async def ask(number: int, method: str, params: dict[str, Any] | None) -> dict[str, Any]:
                # A request without params has no "params" key at all, as ClientSession sends it.
                fields: dict[str, Any] = {"params": params} if params is not None else {}
                request = types.JSONRPCRequest(jsonrpc="2.0", id=number, method=method, **fields)
                await write.send(SessionMessage(request))
                async for item in read:
                    if isinstance(item, Exception):
                        raise RuntimeError(f"{method}: {item}")
                    message = item.message
                    if isinstance(message, types.JSONRPCResponse) and message.id == number:
                        return dict(message.result)
                    if isinstance(message, types.JSONRPCError) and message.id == number:
                        raise RuntimeError(f"{method}: error {message.error.code}: {message.error.message}")
                raise RuntimeError(f"{method}: the server ended without answering")

            hello = {"protocolVersion": "2025-11-25", "capabilities": {}}
            init = await ask(1, "initialize", {**hello, "clientInfo": {"name": "toolsurface", "version": __version__}})
            await write.send(
                SessionMessage(types.JSONRPCNotification(jsonrpc="2.0", method="notifications/initialized"))
            )
            tools: list[dict[str, Any]] = []
            cursor: str | None = None
            for number in range(2, 10_000):
                page = await ask(number, "tools/list", {"cursor": cursor} if cursor else None)
                tools += page["tools"]
                cursor = page.get("nextCursor")
                if not cursor:
                    break
            return tools, init


def _write_raw(out: Path, name: str, env: Mapping[str, str], argv: Sequence[str]) -> None:
    from datetime import UTC, datetime

    from toolsurface import __version__
    from toolsurface.harness.surface import SnapshotMeta, write_snapshot

    tools, init = asyncio.run(_list_as_sent(argv, {**os.environ, **env}))
    info = init.get("serverInfo") or {}
    meta = SnapshotMeta(
        server={"name": info.get("name"), "version": info.get("version")},
        protocol_version=str(init.get("protocolVersion")),
        client_capabilities=[],
        time=datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z"),
        tool_count=len(tools),
        source={"kind": "command", "argv": list(argv), "cwd": None, "env": sorted(env)},
        toolsurface=__version__,
        name=name,
    )
    write_snapshot(out, tools, meta)


def _refresh_one(spec: ServerSpec, root: Path, newest: bool, node: tuple[str, str] | None) -> Outcome:
    from toolsurface.harness.files import read_json
    from toolsurface.harness.surface import meta_path, read_snapshot_meta

    with tempfile.TemporaryDirectory(prefix=f"corpus-{spec.name}-") as folder:
        work = Path(folder)
        node_dir = str(Path(node[0]).parent) if node and spec.registry == "npm" else None
        try:
            bin_dir, version = _install(spec, work, newest, node_dir)
        except (RuntimeError, OSError, KeyError, ValueError) as problem:
            return Outcome(spec.name, None, f"install failed: {problem}")
        env = _server_env(bin_dir, node_dir, work)
        cwd = work / "cwd"
        cwd.mkdir()
        out = work / "out" / f"{spec.name}.json"
        out.parent.mkdir()
        reason: str | None = None
        try:
            _snapshot(spec, out, env, cwd)
        except RuntimeError as problem:
            try:
                reason = _raw_listing(spec, out, env, cwd)
            except RuntimeError as again:
                return Outcome(spec.name, None, f"{version}: snapshot failed: {problem} (as sent: {again})")
        sidecar = meta_path(out)
        meta = read_snapshot_meta(sidecar)
        tools = read_json(out)["tools"]
        text = out.read_bytes()
        leaks = [str(place) for place in (work, Path.home()) if str(place).encode() in text]
        if leaks:
            return Outcome(spec.name, None, f"{version}: its list names this machine's folder {leaks[0]}")
        runtime = (
            f"node {node[1]}"
            if node and spec.registry == "npm"
            else f"python {_run([str(bin_dir / 'python'), '-V']).split()[1]}"
        )
        entry = CorpusEntry(
            name=spec.name,
            registry=spec.registry,
            package=spec.package,
            version=version,
            command=spec.command,
            env=dict(spec.env),
            client_capabilities=spec.capabilities,
            protocol_version=meta.protocol_version or "",
            listed=meta.time,
            tools=len(tools),
            runtime=runtime,
            snapshot=f"servers/{spec.name}.json",
            meta=f"servers/{spec.name}.meta.json",
            sha256=file_sha256(out),
            meta_sha256=file_sha256(sidecar),
            tools_sha256=tools_sha256(tools),
            why=spec.why,
            malformed=reason is not None,
            malformed_reason=reason,
        )
        files = ((root / entry.snapshot, text), (root / entry.meta, sidecar.read_bytes()))
        said = f" (malformed: {reason})" if reason else ""
        return Outcome(spec.name, entry, f"{version}: {len(tools)} tools{said}", files, snapshot_figures(out))


def _pin(path: Path, versions: Mapping[str, str]) -> None:
    """Rewrite the data file's pins to the versions installed, its comments and layout kept."""
    import tomlkit

    document = tomlkit.parse(path.read_text(encoding="utf-8"))
    for item in document["server"]:
        if item["name"] in versions:
            item["version"] = versions[item["name"]]
    path.write_text(tomlkit.dumps(document), encoding="utf-8")


def _plan_line(spec: ServerSpec, newest: bool) -> str:
    version = "newest" if newest else spec.version
    install = (
        f"npm install {spec.package}@{version}"
        if spec.registry == "npm"
        else shlex.join(["pip", "install", f"{spec.package}=={version}", *spec.install_with])
    )
    env = " ".join(f"{key}={shlex.quote(value)}" for key, value in spec.env.items())
    return f"{spec.name}: {install}; then {(env + ' ') if env else ''}{shlex.join(spec.command)}"


def _isolation_problem() -> str | None:
    try:
        done = subprocess.run([*ISOLATE, "true"], capture_output=True, text=True, timeout=30, check=False)
    except OSError as error:
        return str(error)
    return None if done.returncode == 0 else (done.stderr.strip() or f"exit {done.returncode}")


def _previous(root: Path) -> dict[str, CorpusEntry]:
    if not (root / INDEX_NAME).exists():
        return {}
    try:
        return {entry.name: entry for entry in load_corpus(root).entries}
    except CorpusError as problem:
        print(f"the last index is not kept: {problem}", file=sys.stderr)
        return {}


def _previous_figures(root: Path, entries: Mapping[str, CorpusEntry]) -> dict[str, ServerFigures]:
    """The figures of the entries kept: as the figures file gives them, or counted again where it cannot be read
    or is of other lists."""
    if not entries:
        return {}
    try:
        return {figures.name: figures for figures in corpus_figures(root).servers}
    except CorpusError as problem:
        print(f"the last figures are counted again: {problem}", file=sys.stderr)
        return {figures.name: figures for figures in count_figures(root)}


def write_figures(root: Path) -> int:
    """figures.json counted again from the snapshots alone (the index is written again as it reads)."""
    from toolsurface.harness.files import write_atomic_all

    entries = {entry.name: entry for entry in load_corpus(root).entries}
    counted = {figures.name: figures for figures in count_figures(root)}
    write_atomic_all(_index_files(root, entries, counted))
    print(f"{len(counted)} servers' figures in {root / FIGURES_NAME}")
    return 0


def refresh(specs: Sequence[ServerSpec], root: Path, newest: bool, jobs: int) -> int:
    from benchmarks.snapshot import find_node22

    node: tuple[str, str] | None = None
    if any(spec.registry == "npm" for spec in specs):
        found = find_node22()
        if found is None:
            print("no Node.js 22 to run the npm servers with", file=sys.stderr)
            return 2
        node = (found, _run([found, "--version"]).strip().lstrip("v"))
    entries = _previous(root)
    figures = _previous_figures(root, entries)
    from toolsurface.harness.files import write_atomic_all

    (root / "servers").mkdir(parents=True, exist_ok=True)
    outcomes: list[Outcome] = []
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for future in as_completed([pool.submit(_refresh_one, spec, root, newest, node) for spec in specs]):
            outcome = future.result()
            outcomes.append(outcome)
            if outcome.entry is None:
                kept = "kept its last entry" if outcome.name in entries else "not in the corpus"
                print(f"FAILED {outcome.name}: {outcome.message} ({kept})", flush=True)
                continue
            assert outcome.figures is not None
            entries[outcome.name] = outcome.entry
            figures[outcome.name] = outcome.figures
            # The index and the figures with each server's files, so a refresh stopped halfway leaves a corpus
            # that loads.
            write_atomic_all([*outcome.files, *_index_files(root, entries, figures)])
            print(f"kept   {outcome.name} {outcome.message}", flush=True)
    failed = sum(outcome.entry is None for outcome in outcomes)
    write_atomic_all(_index_files(root, entries, figures))
    if newest:
        _pin(SERVERS, {o.name: o.entry.version for o in outcomes if o.entry is not None})
    print(f"{len(entries)} servers in {root / INDEX_NAME}; {failed} failed")
    return 1 if failed else 0


def _prune(specs: Sequence[ServerSpec], root: Path) -> None:
    """On a whole refresh: entries (and their files) of servers the data file no longer keeps."""
    wanted = {spec.name for spec in specs if spec.dropped is None}
    entries = _previous(root)
    figures = _previous_figures(root, entries)
    gone = [name for name in entries if name not in wanted]
    for name in gone:
        for relative in (entries[name].snapshot, entries[name].meta):
            (root / relative).unlink(missing_ok=True)
        del entries[name]
        figures.pop(name, None)
    if gone:
        from toolsurface.harness.files import write_atomic_all

        write_atomic_all(_index_files(root, entries, figures))
        print(f"removed {', '.join(sorted(gone))}: no longer in {SERVERS.name}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.corpus", description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", metavar="NAME", help="Only these servers (a dropped one too).")
    parser.add_argument("--dry-run", action="store_true", help="Print what would be installed and run.")
    parser.add_argument("--newest", action="store_true", help="The newest versions, and rewrite the pins.")
    parser.add_argument("--jobs", type=int, default=1, help="Servers at a time (default 1).")
    parser.add_argument("--root", type=Path, default=None, help="The corpus folder (default: the package's).")
    parser.add_argument(
        "--figures", action="store_true", help="Count each server's figures again from its snapshot; list nothing."
    )
    parser.add_argument("--raw-list", type=Path, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--name", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--env", action="append", default=[], help=argparse.SUPPRESS)
    parser.add_argument("command", nargs="*", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.raw_list is not None:
        _write_raw(args.raw_list, args.name, dict(item.split("=", 1) for item in args.env), args.command)
        return 0
    if args.figures:
        return write_figures(args.root or corpus_root())
    specs = read_servers()
    if args.only:
        unknown = sorted(set(args.only) - {spec.name for spec in specs})
        if unknown:
            print(f"not in {SERVERS.name}: {', '.join(unknown)}", file=sys.stderr)
            return 2
        chosen = [spec for spec in specs if spec.name in args.only]
    else:
        chosen = [spec for spec in specs if spec.dropped is None]
    if args.dry_run:
        for spec in chosen:
            print(_plan_line(spec, args.newest))
        return 0
    problem = _isolation_problem()
    if problem is not None:
        print(f"cannot start servers without the network ({shlex.join(ISOLATE)}): {problem}", file=sys.stderr)
        return 2
    root = args.root or corpus_root()
    if not args.only:
        _prune(specs, root)
    return refresh(chosen, root, args.newest, max(1, args.jobs))


if __name__ == "__main__":
    sys.exit(main())
