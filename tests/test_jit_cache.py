"""The JIT cache folder follows the engines' source code; LLVM options set at import."""

import os
import subprocess
import sys
from pathlib import Path

import numba

from simulator.compiling import jit


def make_tree(root, text):
    for package in ("simulator", "policies"):
        (root / package / "game").mkdir(parents=True)
        (root / package / "game" / "engine.py").write_text(text)


def test_digest_changes_with_any_source_file(tmp_path):
    make_tree(tmp_path / "a", "x = 1\n")
    make_tree(tmp_path / "b", "x = 1\n")
    assert jit.source_digest(tmp_path / "a") == jit.source_digest(tmp_path / "b")
    (tmp_path / "b" / "policies" / "game" / "engine.py").write_text("x = 2\n")
    assert jit.source_digest(tmp_path / "a") != jit.source_digest(tmp_path / "b")


def test_numba_uses_the_folder_for_the_current_sources(tmp_path, monkeypatch):
    monkeypatch.setenv("BALANCE_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("NUMBA_CACHE_DIR", numba.config.CACHE_DIR or "")  # restored afterwards
    old = numba.config.CACHE_DIR
    try:
        folder = jit.configure_cache()
        assert folder.parent == tmp_path and folder.is_dir()
        assert folder.name == "numba-" + jit.source_digest(jit.Path(jit.__file__).parents[2])
        assert numba.config.CACHE_DIR == str(folder)
    finally:
        numba.config.CACHE_DIR = old


@numba.njit
def _store(a, i, v):
    a[i] = v


@numba.njit
def _calls_with_constants(a, x):
    _store(a, 0, 0)
    _store(a, 1, -1)
    _store(a, 2, x)
    _store(a, 0, 1 if x > 2 else 0)


def test_constant_arguments_share_one_specialisation():
    # simulator/__init__ (imported by conftest) types calls between non-numba functions by plain
    # types: four call sites with different constants compile _store once, not four times.
    import numpy as np

    a = np.zeros(3, dtype=np.int64)
    _calls_with_constants(a, 5)
    assert list(a) == [1, -1, 5]
    assert len(_store.signatures) == 1
    assert "Literal" not in str(_store.signatures[0])


_UNSWITCH_PROBE = """
import simulator
import numpy as np
from numba import njit

@njit
def f(a, kind, flag):
    x = 0
    for i in range(a.shape[0]):
        if kind == 1:
            x += a[i] * a[i]
        elif kind == 2:
            x -= a[i] ^ 3
        if flag:
            x += a[i] >> 2
    return x

f(np.arange(10), 1, True)
print(len(next(iter(f.inspect_llvm().values()))))
"""


def test_loops_are_not_copied_per_invariant_branch():
    """LLVM's own threshold copies the loop for each branch fixed inside it (one engine's
    compile took eight times as long); the project's threshold keeps one loop."""
    root = Path(__file__).resolve().parents[1]

    def ir_size(threshold: str) -> int:
        env = {**os.environ, "BALANCE_UNSWITCH_THRESHOLD": threshold, "PYTHONPATH": str(root)}
        out = subprocess.run(
            [sys.executable, "-c", _UNSWITCH_PROBE], env=env, capture_output=True, text=True
        )
        assert out.returncode == 0, out.stderr
        return int(out.stdout.split()[-1])

    assert ir_size("1") < 0.7 * ir_size("llvm")


# A module of cached functions, `inner` called by `outer` and by `twice`, in a folder of its own.
_ENTRY_MODULE = """
import numpy as np
from numba import njit


@njit(cache=True)
def inner(a, i):
    return a[i] * 2


@njit(cache=True)
def outer(a):
    return inner(a, 0) + inner(a, 1)


@njit(cache=True)
def twice(a):
    return 2 * inner(a, 1)


@njit(cache=True)
def checked(a, i):
    if i >= len(a):
        raise ValueError("no such index:", i)  # a message made at run time
    return a[i]


@njit(cache=True)
def read(a, i):
    return checked(a, i)
"""

# Runs the calls named on its command line in order, then prints how each of `inner`'s
# signatures stands: offered to Python or kept for compiled callers only.
_ENTRY_PROBE = """
import json, sys
import numpy as np
import simulator  # installs the project's compile settings
import probe_entry as m

a = np.array([3, 4], dtype=np.int64)
calls = {"outer": lambda: m.outer(a), "twice": lambda: m.twice(a), "inner": lambda: m.inner(a, 1)}


def read_past_the_end():
    try:
        m.read(a, 5)
    except ValueError as error:
        return str(error)


calls["read"] = read_past_the_end
got = [calls[call]() for call in sys.argv[1:]]
print(json.dumps({
    "got": [x if isinstance(x, str) else int(x) for x in got],
    "without_entry": len(m.inner.__dict__.get("_balance_without_entry", ())),
    "signatures": len(m.inner.signatures),
    "cache_hits": sum(m.inner.stats.cache_hits.values()),
    "machine_code": sum(
        bool(c.library.get_pointer_to_function(c.fndesc.mangled_name))
        for c in m.inner.overloads.values()
    ),
}))
"""


def _entry_probe(folder: Path, cache: Path, *calls: str) -> dict:
    import json

    root = Path(__file__).resolve().parents[1]
    (folder / "probe_entry.py").write_text(_ENTRY_MODULE)
    env = {**os.environ, "PYTHONPATH": f"{root}{os.pathsep}{folder}", "NUMBA_CACHE_DIR": ""}
    env["BALANCE_CACHE_DIR"] = str(cache)
    out = subprocess.run(
        [sys.executable, "-c", _ENTRY_PROBE, *calls], env=env, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr  # a call through a missing entry would crash
    return json.loads(out.stdout.splitlines()[-1])


def test_a_function_called_only_from_compiled_code_has_no_python_entry(tmp_path):
    """Compiled for a compiled caller, ``inner`` gets no Python entry (a third of a cold
    compile); a later call from Python compiles it again with one and gets the right answer."""
    got = _entry_probe(tmp_path, tmp_path / "cache", "outer")
    assert got == {
        "got": [14], "without_entry": 1, "signatures": 1, "cache_hits": 0, "machine_code": 0
    }  # fmt: skip
    got = _entry_probe(tmp_path, tmp_path / "cache2", "outer", "inner", "outer")
    assert got["got"] == [14, 8, 14]
    assert got["without_entry"] == 0 and got["signatures"] == 1 and got["machine_code"] == 1


def test_an_error_raised_in_a_callee_without_machine_code_keeps_its_message(tmp_path):
    """A callee without machine code of its own runs inside its caller, whose environment
    table must reach the callee's code: a message made at run time needs it, compiled afresh
    and loaded from the cache alike."""
    for _ in range(2):  # compiled, then loaded
        got = _entry_probe(tmp_path, tmp_path / "cache", "read")
        assert got["got"] == ["('no such index:', 5)"]


def test_the_two_versions_are_cached_apart(tmp_path):
    """A cached wrapper-less ``inner`` is loaded for a compiled caller, never for Python."""
    cache = tmp_path / "cache"
    _entry_probe(tmp_path, cache, "outer")  # caches inner for compiled callers (and outer)
    got = _entry_probe(tmp_path, cache, "inner")  # Python: not that version, compiled
    assert got == {
        "got": [8], "without_entry": 0, "signatures": 1, "cache_hits": 0, "machine_code": 1
    }  # fmt: skip
    got = _entry_probe(tmp_path, cache, "twice")  # a new caller: inner's version for it loaded
    assert got == {
        "got": [16], "without_entry": 1, "signatures": 1, "cache_hits": 1, "machine_code": 0
    }  # fmt: skip
    got = _entry_probe(tmp_path, cache, "inner")  # Python's version, cached by the second run
    assert got == {
        "got": [8], "without_entry": 0, "signatures": 1, "cache_hits": 1, "machine_code": 1
    }  # fmt: skip
