"""The JIT cache folder follows the engines' source code; LLVM options set at import."""

import os
import subprocess
import sys
from pathlib import Path

import numba

from simulator import jit


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
        assert folder.name == "numba-" + jit.source_digest(jit.Path(jit.__file__).parents[1])
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
