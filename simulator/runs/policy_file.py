"""A designer's own policies (``--policy-file FILE``), compiled and played like the built-in ones.

A policy file is plain Python. It may import the game's state constants and the built-in
policies' helpers, and lists its policies in ``POLICIES``::

    from simulator.contract.policy import PolicyParam
    from simulator.runs.policy_file import Policy

    def ship(prm, p, s, r, odds, tmean, pl, sh, cr, g): ...

    POLICIES = [Policy("robot_first", "buys the robot first", params=(...), ship=ship, ...)]

Each decision function is compiled by numba with the signature the game declares for that kind
of decision (``GameSpec.outside``). The engine holds, per kind of decision, a tuple of
``MAX_OUTSIDE`` compiled functions (numba first-class functions: one engine compilation serves
every file) and calls slot ``id - OUTSIDE`` for a seat whose policy id is ``OUTSIDE`` or more;
built-in policies keep their static dispatch on the id.

The file travels as text inside the run's configuration (:class:`PolicyFile`), so a Dask worker
on another machine compiles the very same code. Every process writes the text once into the JIT
cache folder under a name made of its content hash: numba's cache, keyed by the file's path and
timestamp, then finds the compiled functions again in the next process or run.
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import os
import re
import sys
import traceback
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from simulator.compiling.jit import cache_root
from simulator.contract.errors import BalanceError
from simulator.contract.policy import (
    MAX_OUTSIDE,
    MAX_PARAMS,
    OUTSIDE,
    SEARCH_POLICY,
    OutsideDecisions,
    PolicyDef,
    PolicyParam,
)
from simulator.search.evaluation import MARGIN

if TYPE_CHECKING:
    from simulator.contract.registry import GameSpec

_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
# numba calls tuples of compiled functions "experimental"; they are what this module is built on.
warnings.filterwarnings("ignore", message="First-class function type feature is experimental")


class Policy:
    """One outside policy: its name, what it does, its parameters and one function per decision.

    ``Policy("robot_first", "buys the robot first", params=(PolicyParam(...),), ship=f, ...)``:
    the keyword arguments after ``params`` name the game's decisions (``docs/policies.md``).
    """

    def __init__(
        self,
        name: str,
        doc: str = "",
        params: Sequence[PolicyParam] = (),
        **decisions: Callable[..., Any],
    ) -> None:
        self.name = name
        self.doc = doc
        self.params = params
        self.decisions = decisions
        # The line that declared it, for messages about it.
        self.line = next(
            (f.lineno for f in inspect.stack()[1:3] if f.filename.endswith(".py")), None
        )


@dataclass(frozen=True)
class PolicyFile:
    """A policy file as read: the path the designer gave (for messages) and its text."""

    path: str
    source: str

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.source.encode()).hexdigest()

    @property
    def module_name(self) -> str:
        return f"balance_policy_{self.sha256[:20]}"


def read_policy_file(path: str | Path) -> PolicyFile:
    """The file's text; a missing, unreadable or non-text file is one line naming it."""
    p = Path(path)
    if not p.exists():
        raise BalanceError(f"--policy-file {str(path)!r}: no such file")
    if p.is_dir():
        raise BalanceError(f"--policy-file {str(path)!r} is a folder, not a Python file")
    try:
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise BalanceError(f"--policy-file {str(path)!r} is not UTF-8 Python text") from None
    except OSError as exc:
        raise BalanceError(
            f"--policy-file {str(path)!r}: cannot read it ({exc.strerror})"
        ) from None
    return PolicyFile(str(path), text)


@dataclass(frozen=True)
class LoadedPolicies:
    """A policy file compiled for one game: definitions (ids ``OUTSIDE + i`` in file order) and
    the compiled decision functions of policy ``i``."""

    file: PolicyFile
    definitions: dict[str, PolicyDef]
    functions: tuple[dict[str, Any], ...]


_LOADED: dict[tuple[str, str], LoadedPolicies] = {}


def load_policies(spec: GameSpec, pfile: PolicyFile) -> LoadedPolicies:
    """Run, check and compile every policy of ``pfile`` for ``spec``'s game (once per process)."""
    key = (spec.id, pfile.sha256)
    if key not in _LOADED:
        if spec.outside is None:
            raise BalanceError(f"{spec.id} does not take policies from a --policy-file yet")
        _LOADED[key] = _load(spec, spec.outside, pfile)
    return _LOADED[key]


def describe_policies(spec: GameSpec, pfile: PolicyFile) -> dict[str, PolicyDef]:
    """The file's policies for ``spec``'s game, checked as a run checks them but not compiled
    (for listing them: names, what they do, parameters)."""
    if spec.outside is None:
        raise BalanceError(f"{spec.id} does not take policies from a --policy-file yet")
    return {d.name: d for d, _ in _definitions(spec, spec.outside, pfile)}


def policy_rows(spec: GameSpec, policy_file: str | Path | None = None) -> list[dict[str, Any]]:
    """``balance policies``: every policy of the game (and of ``policy_file``, after them) with
    what it does and its parameters (default, bounds, meaning, named values)."""
    defs = dict(spec.policies)
    if policy_file is not None:
        defs.update(describe_policies(spec, read_policy_file(policy_file)))
    return [
        {
            "policy": d.name,
            "default_policy": d.name == spec.default_policy,
            "source": d.source or "built-in",
            "doc": d.doc,
            "params": [
                {"name": p.name, "default": p.default, "lo": p.lo, "hi": p.hi, "doc": p.doc}
                | {"bounded": p.bounded}  # False: lo..hi is only where tune searches
                | ({"choices": list(p.choices)} if p.choices else {})
                for p in d.params
            ],
        }
        | ({"evaluation": evaluation_text(spec)} if d.name == SEARCH_POLICY else {})
        for d in defs.values()
    ]


def evaluation_text(spec: GameSpec) -> dict[str, Any] | None:
    """How the search player scores a position at its horizon (None: it plays to the end)."""
    hooks = spec.search_hooks
    if hooks is None:
        return None
    return {
        "model": "logistic regression of 'this seat wins' on the seat's features minus the "
        "mean of the other seats'; the seats' values are shared out to sum to 1",
        "features": list(hooks.features),
        "fitted_on": f"positions of {hooks.fit_games} self-play games of "
        f"{spec.best_heuristic} under the run's own rules and player count (fitted "
        "again for every rule variant, data file and player count, cached, recorded in the "
        "run's manifest with its held-out log loss and calibration); a fit whose held-out log "
        f"loss is not at least {MARGIN:.0%} below even shares' is not used: the search then "
        "plays every simulation to the end, and the run says so",
    }


def _load(spec: GameSpec, outside: OutsideDecisions, pfile: PolicyFile) -> LoadedPolicies:
    copy = _cache_copy(pfile)
    definitions: dict[str, PolicyDef] = {}
    functions = []
    for definition, entry in _definitions(spec, outside, pfile):
        definitions[definition.name] = definition
        at = f"{pfile.path}:{entry.line}" if entry.line else pfile.path
        functions.append(_compile(spec, outside, entry, at, pfile.path, copy))
    return LoadedPolicies(pfile, definitions, tuple(functions))


def _definitions(
    spec: GameSpec, outside: OutsideDecisions, pfile: PolicyFile
) -> list[tuple[PolicyDef, Policy]]:
    """Run the file and check each entry of its POLICIES, in file order (ids ``OUTSIDE + i``)."""
    where = pfile.path
    try:
        compile(pfile.source, where, "exec")
    except SyntaxError as exc:
        raise BalanceError(f"{where}:{exc.lineno}: syntax error: {exc.msg}") from None
    module = _import(pfile)
    entries = getattr(module, "POLICIES", None)
    if entries is None:
        raise BalanceError(
            f"{where}: defines no POLICIES (a list of Policy(...); see {outside.docs_section})"
        )
    if isinstance(entries, Policy):
        entries = [entries]
    if not isinstance(entries, list | tuple) or not all(isinstance(e, Policy) for e in entries):
        raise BalanceError(f"{where}: POLICIES must be a list of Policy(...)")
    if not entries:
        raise BalanceError(f"{where}: POLICIES is empty")
    checked: dict[str, PolicyDef] = {}
    out = []
    for i, entry in enumerate(entries):
        at = f"{where}:{entry.line}" if entry.line else where
        checked[entry.name] = _definition(spec, entry, OUTSIDE + i, at, where, checked)
        out.append((checked[entry.name], entry))
    return out


def _definition(
    spec: GameSpec, entry: Policy, pid: int, at: str, where: str, seen: Mapping[str, PolicyDef]
) -> PolicyDef:
    name = entry.name
    if not isinstance(name, str) or not _NAME.match(name):
        raise BalanceError(
            f"{at}: policy name {name!r} must be lower-case letters, digits and _, starting "
            "with a letter"
        )
    if name in spec.policies:
        raise BalanceError(
            f"{at}: policy '{name}' has the name of a built-in {spec.id} policy; rename it"
        )
    if name in seen:
        raise BalanceError(f"{at}: policy '{name}' is declared twice")
    params = tuple(entry.params)
    if not all(isinstance(p, PolicyParam) for p in params):
        raise BalanceError(f"{at}: policy '{name}': params must be PolicyParam(...) entries")
    if len(params) > MAX_PARAMS:
        raise BalanceError(f"{at}: policy '{name}' declares more than {MAX_PARAMS} parameters")
    for p in params:
        if not p.lo <= p.default <= p.hi:
            raise BalanceError(
                f"{at}: policy '{name}' parameter '{p.name}': default {p.default:g} is outside "
                f"its bounds {p.lo:g} to {p.hi:g}"
            )
    try:
        return PolicyDef(name, pid, str(entry.doc), params, source=where)
    except ValueError as exc:
        raise BalanceError(f"{at}: {exc}") from None


def _compile(
    spec: GameSpec, outside: OutsideDecisions, entry: Policy, at: str, where: str, copy: Path
) -> dict[str, Any]:
    from numba import njit

    known = [d.name for d in outside.decisions]
    unknown = [k for k in entry.decisions if k not in known]
    if unknown:
        raise BalanceError(
            f"{at}: policy '{entry.name}' gives unknown decision '{unknown[0]}'; a {spec.id} "
            f"policy decides: {', '.join(known)}"
        )
    compiled = {}
    for decision in outside.decisions:
        fn = entry.decisions.get(decision.name)
        if fn is None and decision.optional:
            fn = decision.fallback
        if fn is None:
            raise BalanceError(
                f"{at}: policy '{entry.name}' lacks decision '{decision.name}' (a {spec.id} "
                f"policy decides: {', '.join(known)})"
            )
        fn = getattr(fn, "py_func", fn)  # already decorated with @njit: compile the source
        if not inspect.isfunction(fn):
            raise BalanceError(
                f"{at}: policy '{entry.name}' decision '{decision.name}' is not a function"
            )
        line = f"{where}:{fn.__code__.co_firstlineno}" if _defined_in(fn, copy) else at
        wanted = f"({', '.join(decision.args)})"
        params = inspect.signature(fn).parameters.values()
        plain = all(
            p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty
            for p in params
        )
        if not plain or len(params) != len(decision.args):
            raise BalanceError(
                f"{line}: {fn.__name__}() takes ({', '.join(str(p) for p in params)}) but a "
                f"{spec.id} '{decision.name}' decision takes {len(decision.args)} arguments "
                f"{wanted}"
            )
        try:
            # error_model="numpy": a division by zero gives inf or nan, as in the built-ins,
            # instead of an exception that compiled code called by pointer could not report.
            compiled[decision.name] = njit(decision.signature, cache=True, error_model="numpy")(fn)
        except Exception as exc:  # numba's typing and lowering errors, of many classes
            reason = _numba_reason(exc)
            if "Untyped global name" in reason and "function" in reason:
                reason += " (a helper function of your own needs @njit from numba)"
            raise BalanceError(
                f"{_numba_line(exc, copy, where) or line}: {fn.__name__}() does not compile as "
                f"a {spec.id} '{decision.name}' decision {wanted}: {reason}"
            ) from None
    return compiled


def _defined_in(fn: Callable[..., Any], copy: Path) -> bool:
    return Path(fn.__code__.co_filename) == copy


def _numba_line(exc: Exception, copy: Path, where: str) -> str | None:
    """``FILE:LINE`` of the deepest place in the designer's file numba's message points at
    (numba names the file by a relative path, so it is matched by its name)."""
    lines = re.findall(rf'File "[^"]*{re.escape(copy.name)}", line (\d+)', str(exc))
    return f"{where}:{lines[-1]}" if lines else None


def _numba_reason(exc: Exception) -> str:
    """The first informative line of a numba error, without its colours and boilerplate."""
    text = re.sub(r"\x1b\[[0-9;]*m", "", str(exc))
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    skip = ("Failed in", "During:", "File ", "There are", "- Of which", "^", "<source")
    for i, line in enumerate(lines):
        if line.startswith(skip):
            continue
        if line.endswith(":") and i + 1 < len(lines):  # "... found for signature:" + the call
            line = f"{line} {lines[i + 1].lstrip('>').strip()}"
        return " ".join(line.split())[:300]
    return type(exc).__name__


def _cache_copy(pfile: PolicyFile) -> Path:
    """The file's text under the JIT cache folder, named by its hash (written once)."""
    base = Path(os.environ.get("NUMBA_CACHE_DIR") or cache_root())
    folder = base / "policy-files"
    path = folder / f"{pfile.module_name}.py"
    if not path.is_file() or path.read_text(encoding="utf-8") != pfile.source:
        folder.mkdir(parents=True, exist_ok=True)
        temporary = folder / f".{pfile.module_name}.{os.getpid()}.tmp"
        temporary.write_text(pfile.source, encoding="utf-8")
        os.replace(temporary, path)  # concurrent workers: each rename is whole
    return path


def _import(pfile: PolicyFile) -> Any:
    """Run the file as a module importable by its hashed name (numba's cache needs that)."""
    name = pfile.module_name
    if name in sys.modules:
        return sys.modules[name]
    copy = _cache_copy(pfile)
    spec = importlib.util.spec_from_file_location(name, copy)
    if spec is None or spec.loader is None:
        raise BalanceError(f"{pfile.path}: cannot be loaded as Python")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[name]
        frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == str(copy)]
        line = f":{frames[-1].lineno}" if frames else ""
        message = " ".join(str(exc).split()) or "failed"
        raise BalanceError(f"{pfile.path}{line}: {type(exc).__name__}: {message}") from None
    return module


_FALLBACKS: dict[str, dict[str, tuple[Any, Any]]] = {}


def _fallbacks(game_id: str, outside: OutsideDecisions) -> dict[str, tuple[Any, Any]]:
    """Two compiled copies of each decision's fallback: a tuple holding two distinct functions
    is typed as a tuple of first-class functions (one compiled engine for every run); a tuple
    of one function repeated would be typed by that function and compile the engine again."""
    if game_id not in _FALLBACKS:
        from numba import njit

        _FALLBACKS[game_id] = {
            d.name: (
                njit(d.signature, cache=True)(d.fallback),
                njit(d.signature, cache=True)(d.fallback),
            )
            for d in outside.decisions
        }
    return _FALLBACKS[game_id]


def engine_tuples(
    game_id: str, outside: OutsideDecisions, slots: Sequence[Mapping[str, Any]] = ()
) -> tuple[tuple[Any, ...], ...]:
    """The engine's ``outside`` argument: per decision, ``MAX_OUTSIDE`` compiled functions, slot
    ``k`` holding ``slots[k]``'s and the rest the fallbacks."""
    if len(slots) > MAX_OUTSIDE:
        raise BalanceError(f"at most {MAX_OUTSIDE} policies from a --policy-file in one run")
    fill = _fallbacks(game_id, outside)
    return tuple(
        tuple(
            slots[k][d.name] if k < len(slots) else fill[d.name][k % 2] for k in range(MAX_OUTSIDE)
        )
        for d in outside.decisions
    )


def seat_slots(ids: Any, loaded: LoadedPolicies) -> tuple[Any, list[dict[str, Any]]]:
    """Policy ids with every outside policy renumbered to its slot (in order of first seat), and
    the compiled functions of each slot."""
    ids = ids.copy()
    order: list[int] = []
    for seat, pid in enumerate(ids):
        if pid >= OUTSIDE:
            index = int(pid) - OUTSIDE
            if index not in order:
                order.append(index)
            ids[seat] = OUTSIDE + order.index(index)
    return ids, [loaded.functions[i] for i in order]
