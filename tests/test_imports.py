"""The project's modules form no import cycle, and shared code names no game.

Every import statement counts, at the top of a module or inside a function: a lazy import that
only hides a cycle is still a cycle. Importing ``a.b.c`` runs ``a`` and ``a.b`` first, so a module
depends on every package above what it imports (except its own packages, already running).
The registry's ``importlib.import_module`` of a game's spec is the one dynamic edge, and it
points from shared code to games only.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("simulator", "policies", "analyses", "reports")
GAME_WORDS = re.compile(r"caza|tesoros|crew|deep.sea|pirateer|pedruscos|cape.horn|cape_horn", re.I)


def _modules() -> dict[str, Path]:
    out = {"cli": ROOT / "cli.py"}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            out[name] = path
    return out


def _statements(name: str, path: Path) -> list[tuple[str, list[str]]]:
    """Every import statement of a module as (the module imported from, the names imported),
    relative imports resolved: ``import a.b`` is ``("a.b", [])``."""
    is_package = path.name == "__init__.py"
    here = name if is_package else name.rpartition(".")[0]
    out: list[tuple[str, list[str]]] = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out += [(a.name, []) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = here.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            out.append((base, [a.name for a in node.names]))
    return out


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    found: set[str] = set()
    for base, names in _statements(name, path):
        for target in [base] + [f"{base}.{n}" for n in names]:
            parts = target.split(".")
            for i in range(1, len(parts) + 1):
                prefix = ".".join(parts[:i])
                # A module's own packages ran before it: importing a sibling adds no edge to them.
                if prefix in known and prefix != name and not name.startswith(prefix + "."):
                    found.add(prefix)
    return found


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    known = set(modules)
    return {name: _imports(name, path, known) for name, path in modules.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in graph:
        if v not in index:
            visit(v)
    return out


def test_no_import_cycles():
    assert _cycles(_graph()) == []


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_module_getattr_to_defer_imports():
    for name, path in _modules().items():
        tree = ast.parse(path.read_text())
        top = [n.name for n in tree.body if isinstance(n, ast.FunctionDef)]
        assert "__getattr__" not in top, name


def _shared(name: str) -> bool:
    """Shared code: not a game's package or policies, not a module named after a game, not the
    registry (whose one line per game is the point)."""
    parts = name.split(".")
    if name == "simulator.contract.registry":
        return False
    if parts[:2] == ["simulator", "games"] and len(parts) >= 3 and GAME_WORDS.search(parts[2]):
        return False  # a game's own package (simulator/games/<game>/)
    if parts[0] == "policies" and len(parts) >= 2 and GAME_WORDS.search(parts[1]):
        return False  # its policies (policies/<game>/)
    return not GAME_WORDS.search(parts[-1])


def test_shared_code_names_no_game():
    offenders = []
    for name, path in _modules().items():
        if not _shared(name):
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            code = line.split("#", 1)[0]
            if GAME_WORDS.search(code):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert offenders == []


# -- layers ------------------------------------------------------------------------------------
# Lowest first (docs/architecture.md, "Layers"): a module imports its own layer and those below.
LAYERS = ("contract", "games", "runs", "analyses", "reports", "studies", "cli")
# Each part of the project sits in one layer, the deepest part naming a module deciding: the
# search's evaluations are fitted on games played for them, so they sit with the runs.
PARTS = {
    "simulator.contract": "contract", "simulator.folders": "contract",
    "simulator.games": "games", "simulator.search": "games", "policies": "games",
    "simulator.runs": "runs", "simulator.compiling": "runs", "simulator.search.evaluation": "runs",
    "analyses": "analyses", "reports": "reports",
    "simulator.studies": "studies", "simulator.cli": "cli", "cli": "cli",
}  # fmt: skip
# Analyses and reports read run folders; they never play games nor run a study.
PLAYS_GAMES = {
    "simulator.runs.runner", "simulator.runs.cluster", "simulator.compiling.warmup",
    "simulator.search.evaluation", "simulator.compiling.interpreted_start",
    "simulator.compiling.compile_job", "simulator.compiling.background_compile",
}  # fmt: skip


def layer(name: str) -> str:
    """The layer of module ``name``; a module no rule places fails the test (place it)."""
    if name == "simulator":  # the Python API, mirroring the commands' runs
        return "runs"
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        place = PARTS.get(".".join(parts[:end]))
        if place is not None:
            return place
    raise AssertionError(f"{name} sits in no layer: add it to one in tests/test_imports.py")


def _named_imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules the import statements name (the longest known prefix of each name): a
    package run only because a module under it is imported is Python's doing, not a choice."""
    found: set[str] = set()
    for base, names in _statements(name, path):
        for target in [f"{base}.{n}" for n in names] or [base]:
            parts = target.split(".")
            prefixes = [".".join(parts[:i]) for i in range(len(parts), 0, -1)]
            hit = next((p for p in prefixes if p in known), None)
            if hit is not None and hit != name:
                found.add(hit)
    return found


def _named_graph() -> dict[str, set[str]]:
    modules = _modules()
    known = set(modules)
    return {name: _named_imports(name, path, known) for name, path in modules.items()}


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    """Every import that runs up a layer (or from analyses/reports to what plays games)."""
    out = []
    for name, targets in graph.items():
        mine = LAYERS.index(layer(name))
        for target in sorted(targets):
            theirs = LAYERS.index(layer(target))
            pure = layer(name) in ("analyses", "reports") and target in PLAYS_GAMES
            if theirs > mine or pure:
                out.append(f"{name} ({layer(name)}) imports {target} ({layer(target)})")
    return out


def test_layers_only_point_down():
    assert upward_imports(_named_graph()) == []


def test_an_import_up_a_layer_is_found():
    graph = {
        "simulator.games.pirateer.state": {"simulator.contract.rules", "reports.build"},
        "analyses.seats": {"simulator.folders.run_folder", "simulator.runs.runner"},
        "reports.grouping": {"analyses.runs", "simulator.studies.compare"},
        "simulator.runs.verify": {"simulator.folders.study_folders"},
        "cli": {"simulator.studies.design", "reports.build"},
    }
    assert upward_imports(graph) == [
        "simulator.games.pirateer.state (games) imports reports.build (reports)",
        "analyses.seats (analyses) imports simulator.runs.runner (runs)",
        "reports.grouping (reports) imports simulator.studies.compare (studies)",
    ]


def test_every_module_sits_in_a_layer():
    for name in _modules():
        assert layer(name) in LAYERS
