"""A command imports only what it uses: `--help` no numerical package, a game file's run no
compiler, statistics or plotting (benchmarks/startup.py times them); numba, once imported from
anywhere, is prepared as before."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("numpy", "polars", "pyarrow", "scipy", "numba", "matplotlib", "joblib", "dask", "optuna",
         "SALib")  # fmt: skip


def _imported_by(args: list[str]) -> tuple[set[str], str]:
    """The modules a fresh `balance ARGS` process imported (heavy packages and ours), and its
    standard output."""
    script = (
        "import json, runpy, sys\n"
        "sys.argv = ['balance', *sys.argv[1:]]\n"
        "try:\n"
        "    runpy.run_module('cli', run_name='__main__')\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(json.dumps(sorted(sys.modules)), file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, *args], cwd=ROOT, capture_output=True, text=True,
        check=True,
    )  # fmt: skip
    modules = set(json.loads(done.stderr.strip().splitlines()[-1]))
    return modules, done.stdout


def test_help_imports_no_numerical_package_nor_any_game():
    modules, out = _imported_by(["--help"])
    assert {m for m in HEAVY if m in modules} == set()
    assert not any(m.startswith("simulator.games.caza_tesoros.") for m in modules)  # nor its engine
    assert "search-odds" in out and "crew-audit" in out  # the games' commands, still listed


def test_a_game_files_run_imports_no_compiler_statistics_or_plots(tmp_path):
    modules, out = _imported_by(
        ["simulate", str(ROOT / "examples" / "pig.py"), "-n", "10", "--out", str(tmp_path / "r")]
    )
    assert "win rate" in out
    unused = ("numba", "scipy", "matplotlib", "joblib", "dask", "optuna", "SALib", "pyarrow")
    assert {m for m in unused if m in modules} == set()


def test_numba_imported_after_the_package_is_prepared_as_before():
    script = (
        "import simulator, sys\n"
        "assert 'numba' not in sys.modules\n"
        "from numba.core import config\n"
        "from numba.core.dispatcher import Dispatcher\n"
        "from simulator.compiling import jit\n"
        "assert config.CACHE_DIR == str(jit.cache_folder()), config.CACHE_DIR\n"
        "assert getattr(Dispatcher.get_call_template, '_balance_unliteral', False)\n"
    )
    subprocess.run([sys.executable, "-c", script], cwd=ROOT, check=True)


def test_wilson_interval_equals_scipys():
    from scipy import stats

    from analyses.stats import proportion

    for n in (1, 2, 3, 7, 10, 99, 1000, 123_457):
        for k in sorted({0, 1, n // 3, n // 2, n - 1, n}):
            ci = stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
            est = proportion(k, n)
            assert (est.lo, est.hi) == (pytest.approx(ci.low, abs=1e-12),
                                        pytest.approx(ci.high, abs=1e-12))  # fmt: skip
