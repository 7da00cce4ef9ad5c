"""The layout holds: one package per concept, no import circle between concepts, and the stubs stand on the
surface model alone (and the foundations under it), never on the CLI, the session runner or a measurement."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import ROOT

# Modules that every layer may use: they import nothing of the project's own but each other.
FOUNDATIONS = {
    "toolsurface",
    "toolsurface.harness",
    "toolsurface.harness.errors",
    "toolsurface.harness.files",
    "toolsurface.harness.bounded_json",
    "toolsurface.harness.keyed_http",
    "toolsurface.harness.cache_files",
    "toolsurface.harness.notices",
    "toolsurface.harness.lazy_names",
    "toolsurface.harness.terminal",
    "toolsurface.harness.signals",
    "toolsurface.harness.process_tree",
    "toolsurface.harness.junit",
    "toolsurface.harness.output",
    "toolsurface.harness.protocol",
    "toolsurface.harness.fail_on",
    "toolsurface.harness.redact",
    "toolsurface.harness.jsonl",
    "toolsurface.harness.run_folder",
}
TOP = ("harness", "stubs", "surfaces")


def ours(module: str) -> bool:
    """Whether `module` is one of toolsurface's harness, stubs or surfaces (the layers this file checks)."""
    parts = module.split(".")
    return len(parts) > 1 and parts[0] == "toolsurface" and parts[1] in TOP


def modules() -> dict[str, Path]:
    found = {}
    for top in TOP:
        for path in (ROOT / "toolsurface" / top).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def imports(path: Path, name: str) -> Iterator[str]:
    """Every project module `path` imports, at its top or inside a function."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names if ours(alias.name))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(
                    package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else [])
                )
            if ours(base):
                yield base


def concept(module: str) -> str:
    """The concept a module belongs to: a foundation module itself, a package of harness, or stubs / surfaces."""
    if module in FOUNDATIONS:
        return module
    parts = module.split(".")
    if parts[1] != "harness":
        return ".".join(parts[:2])
    return ".".join(parts[:3])


def concept_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for name, path in modules().items():
        here = concept(name)
        for target in imports(path, name):
            there = concept(target)
            if there != here:
                graph.setdefault(here, set()).add(there)
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    found: list[list[str]] = []

    def visit(node: str, trail: list[str]) -> None:
        for nxt in sorted(graph.get(node, ())):
            if nxt in trail:
                cycle = trail[trail.index(nxt) :]
                if min(cycle) == cycle[0]:
                    found.append([*cycle, nxt])
            elif len(trail) < 20:
                visit(nxt, [*trail, nxt])

    for start in sorted(graph):
        visit(start, [start])
    return found


def test_no_two_concepts_import_each_other_even_through_others() -> None:
    assert circles(concept_graph()) == []


def imported_modules(path: Path, name: str, known: set[str]) -> Iterator[str]:
    """Every project module importing `name` runs: what it imports (`from P import M`, M a module, imports
    P.M), and each package above one of those that `name` is not itself inside (its face runs first)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(
                    package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else [])
                )
            targets = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        for target in targets:
            if target not in known:
                continue
            parts = target.split(".")
            for end in range(1, len(parts) + 1):
                above = ".".join(parts[:end])
                inside = name == above or name.startswith(above + ".")
                if above in known and above != name and (end == len(parts) or not inside):
                    yield above


def module_graph() -> dict[str, set[str]]:
    found = modules()
    known = set(found)
    return {name: set(imported_modules(path, name, known)) for name, path in found.items()}


def module_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that reach each other by imports (Tarjan's strongly connected components)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for start in sorted(graph):
        if start not in index:
            visit(start)
    return sorted(groups)


def test_no_two_modules_import_each_other_even_through_others_inside_a_package_too() -> None:
    assert module_circles(module_graph()) == []


def test_a_circle_of_modules_is_found_through_a_package_face() -> None:
    graph = {"p": {"p._a"}, "p._a": {"q._b"}, "q._b": {"p"}, "r": {"q._b"}}
    assert module_circles(graph) == [["p", "p._a", "q._b"]]


def test_the_stubs_stand_on_the_surface_model_and_its_foundations_alone() -> None:
    allowed = {"toolsurface.harness.surface", *FOUNDATIONS, "toolsurface.stubs", "toolsurface.surfaces"}
    assert concept_graph().get("toolsurface.stubs", set()) - allowed == set()


def reached(graph: dict[str, set[str]], start: str) -> set[str]:
    """Every concept `start` imports, directly or through others."""
    found: set[str] = set()
    todo = [start]
    while todo:
        for nxt in graph.get(todo.pop(), set()) - found:
            found.add(nxt)
            todo.append(nxt)
    return found


def test_a_surface_is_data_and_handlers_and_reaches_no_measurement_even_through_others() -> None:
    """What measures a surface, and the docs written from its measures (docs/conderis/), stand above it."""
    graph = concept_graph()
    assert "toolsurface.harness.measure" not in reached(graph, "toolsurface.surfaces"), graph["toolsurface.surfaces"]


def test_what_a_concept_reaches_is_found_through_others() -> None:
    graph = {"a": {"b"}, "b": {"c", "a"}, "d": {"a"}}
    assert reached(graph, "a") == {"a", "b", "c"}
    assert reached(graph, "c") == set()


def test_foundations_import_no_concept() -> None:
    graph = concept_graph()
    assert {f: graph[f] - FOUNDATIONS for f in FOUNDATIONS if graph.get(f, set()) - FOUNDATIONS} == {}


def test_no_module_lies_loose_in_harness_beyond_the_foundations() -> None:
    loose = {
        name
        for name, path in modules().items()
        if path.parent == ROOT / "toolsurface" / "harness" and path.name != "__init__.py"
    }
    assert loose - FOUNDATIONS == set()


LAUNCHER = "toolsurface.stubs.start.launch"
LAUNCH_LOADS = """
import sys
import toolsurface.stubs.start.launch
print(sorted(m for m in sys.modules if m.startswith("toolsurface.")))
"""


def test_the_stub_launcher_starts_without_importing_any_concept_nor_the_rest_of_its_package() -> None:
    """An agent starts the launcher once per stub: it and the faces above it import nothing else of ours."""
    launcher = modules()[LAUNCHER]
    assert {concept(m) for m in imports(launcher, LAUNCHER)} <= FOUNDATIONS
    done = subprocess.run([sys.executable, "-c", LAUNCH_LOADS], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == str(
        sorted(
            {
                "toolsurface.harness",
                "toolsurface.harness.lazy_names",
                "toolsurface.stubs",
                "toolsurface.stubs.refusal",
                "toolsurface.stubs.start",
                LAUNCHER,
            }
        )
    )


LOADED_AFTER = """
import json, sys
from toolsurface.harness.cli import main
try:
    main({args!r})
except SystemExit as done:
    assert not done.code, done.code
with open({out!r}, "w", encoding="utf-8") as out:
    json.dump(sorted(sys.modules), out)
"""


def loaded_after(args: list[str], folder: Path) -> tuple[list[str], subprocess.CompletedProcess[str]]:
    """The modules a fresh interpreter has imported once the CLI ran `args` and exited 0, and the run."""
    out = folder / "modules.json"
    done = subprocess.run(
        [sys.executable, "-c", LOADED_AFTER.format(args=args, out=str(out))],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(out.read_text(encoding="utf-8")), done


@pytest.mark.parametrize("args", [["list"], ["list", "--format", "json"], ["--help"]])
def test_listing_the_surfaces_and_the_help_import_no_mcp_sdk(args: list[str], tmp_path: Path) -> None:
    modules, done = loaded_after(args, tmp_path)
    assert {m.split(".")[0] for m in modules} & {"mcp", "mcp_types"} == set()
    assert done.stderr.strip() == ""


@pytest.mark.parametrize("args", [["--help"], ["budget", "v2", "--max-chars", "100000"]])
def test_the_help_and_budget_import_neither_the_embedding_model_nor_the_stop_words(
    args: list[str], tmp_path: Path
) -> None:
    """Findability's scorers load a model (a third of a second) and numpy: only where they rank."""
    modules, done = loaded_after(args, tmp_path)
    assert {m.split(".")[0] for m in modules} & {"wordllama", "numpy", "stopwords"} == set()
    ours = ("toolsurface.harness.analyze.findability", "toolsurface.harness.analyze._embed")
    assert [m for m in modules if m.startswith(ours)] == []
    assert done.stderr.strip() == ""


# The live client: what a command pays for only when it lists a live server.
LIVE_CLIENT = {
    "_connection",
    "_conversation",
    "_http",
    "_listing",
    "_servers",
    "_sse",
    "_state",
    "_stdio",
    "_streamable",
    "_wire_client",
}


@pytest.mark.parametrize("args", [["list"], ["budget", "v2", "--max-chars", "100000"], ["measure", "v2"]])
def test_a_command_that_lists_no_live_server_imports_none_of_the_live_client(args: list[str], tmp_path: Path) -> None:
    """The live package's names load when first used: its records and argument parsing, not the client (its
    connection, transports, listing and state)."""
    modules, _ = loaded_after(args, tmp_path)
    loaded = {m.rsplit(".", 1)[1] for m in modules if m.startswith("toolsurface.harness.live.")}
    assert loaded & LIVE_CLIENT == set()


def _cli_modules(modules: list[str]) -> list[str]:
    return [m for m in modules if m.startswith("toolsurface.harness.cli.")]


def test_the_groups_help_imports_no_verbs_module(tmp_path: Path) -> None:
    modules, _ = loaded_after(["--help"], tmp_path)
    # _glossary: the words the help's last line names (no verb's module).
    assert _cli_modules(modules) == [
        "toolsurface.harness.cli._glossary",
        "toolsurface.harness.cli._group",
        "toolsurface.harness.cli._verbs",
    ]


def test_list_imports_its_own_verbs_module_and_no_other(tmp_path: Path) -> None:
    """`list` is the lightest verb: it pays for no other verb's options (measure's counters, configurations, probe)."""
    modules, _ = loaded_after(["list", "--format", "json"], tmp_path)
    assert _cli_modules(modules) == [f"toolsurface.harness.cli.{m}" for m in ("_base", "_group", "_list", "_verbs")]


def test_each_verb_is_defined_where_its_entry_says_and_summarised_by_its_docstrings_first_sentence() -> None:
    from toolsurface.harness.cli import main
    from toolsurface.harness.cli._verbs import VERBS

    commands = main.every_command()
    assert sorted(commands) == sorted(VERBS)
    for name, command in commands.items():
        assert command.callback is not None
        assert command.callback.__module__ == f"toolsurface.harness.cli.{VERBS[name].module}", name
        assert command.get_short_help_str(10_000) == VERBS[name].summary, name


REPORT_FACE = """
import sys
import toolsurface.harness.report
before = set(sys.modules)
from toolsurface.harness.report import build_report, SeedRow
print(sorted({m for m in before if m.startswith("toolsurface.") and m != "toolsurface.harness.errors"} - {
    "toolsurface.harness", "toolsurface.harness.files", "toolsurface.harness.report",
    "toolsurface.harness.bounded_json", "toolsurface.harness.lazy_names"}))
print(sorted({m.split(".")[0] for m in sys.modules} & {"pandas", "matplotlib", "mcp", "tiktoken"}))
print(build_report.__module__, SeedRow.__module__)
missing = [name for name in toolsurface.harness.report.__all__ if not hasattr(toolsurface.harness.report, name)]
assert not missing, missing
"""


def test_the_reports_face_loads_its_names_when_they_are_used() -> None:
    """`toolsurface report` forks its chart process before the rest of the report is imported."""
    done = subprocess.run([sys.executable, "-c", REPORT_FACE], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "[]",
        "[]",
        "toolsurface.harness.report._build toolsurface.harness.report._bundle",
    ]


def private_owner(module: str) -> str | None:
    """The package whose private module (or private name) `module` is: the part before its first `_x`."""
    parts = module.split(".")
    for end, part in enumerate(parts):
        if part.startswith("_") and not part.startswith("__"):
            return ".".join(parts[:end])
    return None


def reaches_into_private(path: Path, name: str) -> Iterator[str]:
    """Every `from P._m import ...` (or `from P import _m`) in `path` whose package P does not hold `name`."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("toolsurface"):
            base = node.module or ""
            for target in (base, *(f"{base}.{alias.name}" for alias in node.names)):
                owner = private_owner(target)
                if owner is not None and not (package == owner or package.startswith(owner + ".")):
                    yield f"{name}: from {base} import {', '.join(a.name for a in node.names)}"
                    break
        elif isinstance(node, ast.Import):
            for alias in node.names:
                owner = private_owner(alias.name) if alias.name.startswith("toolsurface") else None
                if owner is not None and not (package == owner or package.startswith(owner + ".")):
                    yield f"{name}: import {alias.name}"


def test_no_module_imports_another_packages_private_module() -> None:
    found = {**modules(), "toolsurface.pytest_plugin": ROOT / "toolsurface" / "pytest_plugin.py"}
    assert [line for name, path in sorted(found.items()) for line in reaches_into_private(path, name)] == []


def test_a_reach_into_another_packages_private_module_is_found(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "from toolsurface.harness.measure._measure import Measurable\n"
        "from toolsurface.harness.agents import _cli\n"
        "from toolsurface.harness.clients._model import ClientRow\n",
        encoding="utf-8",
    )
    assert list(reaches_into_private(module, "toolsurface.harness.clients._render")) == [
        "toolsurface.harness.clients._render: from toolsurface.harness.measure._measure import Measurable",
        "toolsurface.harness.clients._render: from toolsurface.harness.agents import _cli",
    ]


UMBRELLAS = ("toolsurface.harness.session", "toolsurface.harness.analyze")


def test_a_package_of_subpackages_re_exports_none_of_their_names() -> None:
    """Each public name is written once in a face: `session` and `analyze` say what their subpackages are, and
    each subpackage's face says what it offers."""
    for umbrella in UMBRELLAS:
        face = ROOT / Path(*umbrella.split(".")) / "__init__.py"
        imported = [
            node.module
            for node in ast.walk(ast.parse(face.read_text(encoding="utf-8")))
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(umbrella + ".")
        ]
        assert [m for m in imported if private_owner(m) is None] == [], umbrella


@pytest.mark.parametrize("face", ["measure", "surface", "probe", "report", "budget"])
def test_every_name_a_lazy_face_offers_is_found_in_its_modules(face: str) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            f"import toolsurface.harness.{face} as face; print([n for n in face.__all__ if not hasattr(face, n)])",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_no_two_test_files_share_a_name() -> None:
    # pytest imports a test file by its bare name (rootdir import mode), so two files named alike in different
    # folders stop the whole run at collection.
    names: dict[str, list[str]] = {}
    for path in (ROOT / "tests").rglob("test_*.py"):
        names.setdefault(path.name, []).append(path.relative_to(ROOT).as_posix())
    assert {name: paths for name, paths in names.items() if len(paths) > 1} == {}


def test_the_rooms_issue_52_split_stay_small() -> None:
    # The budget CLI parses and renders (its work is harness.budget's); the live listing keeps its entry points
    # (each job of a listing has a module of its own).
    sizes = {
        path: len((ROOT / path).read_text(encoding="utf-8").splitlines())
        for path in ("toolsurface/harness/cli/_budget.py", "toolsurface/harness/live/_listing.py")
    }
    assert sizes["toolsurface/harness/cli/_budget.py"] < 200, sizes
    assert sizes["toolsurface/harness/live/_listing.py"] < 500, sizes
