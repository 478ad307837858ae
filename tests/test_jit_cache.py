"""The JIT cache folder follows the engines' source code."""

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
