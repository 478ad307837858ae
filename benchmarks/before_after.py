"""A fresh machine's first answer, a million games and a ladder: two versions of balance, one run.

    .venv/bin/python benchmarks/before_after.py                       # every figure, every game
    .venv/bin/python benchmarks/before_after.py --figure first --figure rate --game pirateer
    .venv/bin/python benchmarks/before_after.py --before HEAD~3 --rate-games 50000

The version "before" is a commit (``--before``, default the last one before the first-answer
work), checked out in a temporary git worktree; "after" is this checkout. Both run with this
checkout's virtual environment, each measurement a fresh ``balance`` process, one version then
the other for each game so that both see the same machine:

- ``first``: ``balance simulate GAME -n 1000 --jobs 2`` on an empty JIT cache (a new
  ``BALANCE_CACHE_DIR``), wall seconds from start to exit; a compile it leaves running in the
  background is stopped before the next measurement.
- ``search``: ``balance simulate GAME -n 4 --players 2 -p mcts -p BEST --jobs 2`` on an empty
  JIT cache and an empty evaluation folder (BEST the game's strongest hand-written policy), wall
  seconds: the first run with a search seat compiles the search engine and, where the search
  stops at a horizon, fits its evaluation. The cooperative game has no ``mcts`` seat.
- ``rate``: ``balance simulate GAME -n RATE_GAMES --jobs 2`` on a warm cache, games per second
  of the whole command (Parquet written), and the seconds a million games take at that rate.
- ``split``: where the time of a game goes, engine or policies: the same run with every seat
  ``random`` (the engine and a draw per decision) against the default seats, each as
  microseconds per unit of game length (a turn, a round, a trick, as the game counts it), one
  job, less a 10-game run's time (the command's start). Random seats play other games (longer,
  other moves), so the policies' share is an estimate.
- ``ladder``: ``balance skill GAME --players 2`` at its defaults on a warm cache (its search
  compiled and its evaluation fitted by a 2-game ladder first), wall seconds. Cooperative games
  have no 2-player ladder.

Prints one table per figure with both versions and their ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BEFORE = "df570be"  # the last commit before the first-answer work (background compiles, demo)
FIGURES = ("first", "search", "rate", "split", "ladder")
GAMES = ("caza-tesoros", "pirateer", "pedruscos", "crew-deep-sea", "cape-horn")
COOPERATIVE = ("crew-deep-sea",)
BEST = {"caza-tesoros": "planner", "pirateer": "lookahead", "pedruscos": "lookahead",
        "cape-horn": "planner"}  # fmt: skip
WARM_GAMES = 10  # a run that only compiles or loads the engine
BALANCE = "import sys; from cli import app; sys.argv[0] = 'balance'; app()"


class Version:
    """One version's checkout and the JIT cache its warm measurements share."""

    def __init__(self, label: str, root: Path, scratch: Path):
        self.label, self.root = label, root
        self.scratch = scratch / label
        self.warm_cache = self.scratch / "cache"
        self.warm_cache.mkdir(parents=True)
        self.runs = 0

    def balance(self, *args: str, cache: Path | None = None) -> tuple[float, str]:
        """Wall seconds of one ``balance`` command of this version, and its stdout."""
        env = dict(os.environ, PYTHONPATH=str(self.root))
        env["BALANCE_CACHE_DIR"] = str(cache or self.warm_cache)
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", BALANCE, *args],
            cwd=self.root, env=env, capture_output=True, text=True,
        )  # fmt: skip
        seconds = time.perf_counter() - start
        if done.returncode != 0:
            raise SystemExit(f"{self.label}: balance {' '.join(args)} failed:\n{done.stderr}")
        return seconds, done.stdout

    def out(self) -> str:
        self.runs += 1
        return str(self.scratch / f"run-{self.runs}")


def stop_background_compiles(cache: Path) -> None:
    """End the compiles a run left running in ``cache`` (each leads a session of its own)."""
    for pid_file in cache.glob("numba-*/compiling/*.pid"):
        try:
            os.killpg(int(pid_file.read_text()), signal.SIGKILL)
        except (OSError, ValueError):
            pass


def first(version: Version, game: str) -> dict:
    cache = version.scratch / f"cold-{game}"
    seconds, _ = version.balance(
        "simulate", game, "-n", "1000", "--jobs", "2", "--out", version.out(), "--json",
        cache=cache,
    )  # fmt: skip
    stop_background_compiles(cache)
    return {"first_s": seconds}


def first_search(version: Version, game: str) -> dict:
    if game not in BEST:
        return {}
    cache = version.scratch / f"cold-search-{game}"
    seconds, _ = version.balance(
        "simulate", game, "-n", "4", "--players", "2", "-p", "mcts", "-p", BEST[game],
        "--jobs", "2", "--out", version.out(), "--json",
        cache=cache,
    )  # fmt: skip
    stop_background_compiles(cache)
    return {"search_s": seconds}


def _warm(version: Version, game: str, *policy: str) -> None:
    version.balance(
        "simulate", game, "-n", str(WARM_GAMES), "--jobs", "1", "--out", version.out(), *policy
    )


def rate(version: Version, game: str, games: int) -> dict:
    _warm(version, game)
    seconds, _ = version.balance(
        "simulate", game, "-n", str(games), "--jobs", "2", "--out", version.out(), "--json"
    )
    per_s = games / seconds
    return {"games_per_s": per_s, "million_s": 1e6 / per_s}


def split(version: Version, game: str, games: int) -> dict:
    """Microseconds per unit of length with default seats and with random seats."""
    figures = {}
    for seats, policy in (("default", ()), ("random", ("-p", "random"))):
        _warm(version, game, *policy)

        def timed(n: int, policy: tuple[str, ...] = policy) -> tuple[float, dict]:
            seconds, stdout = version.balance(
                "simulate", game, "-n", str(n), "--jobs", "1", "--out", version.out(), "--json",
                *policy,
            )  # fmt: skip
            return seconds, json.loads(stdout)

        # The difference of two runs leaves out the command's start (imports, cache loading).
        small, _ = timed(WARM_GAMES)
        seconds, summary = timed(games)
        units = (games - WARM_GAMES) * summary["mean_length"]
        figures[f"{seats}_us"] = (seconds - small) * 1e6 / units
        figures["unit"] = summary["length_unit"]
    figures["policy_share"] = 1 - figures["random_us"] / figures["default_us"]
    return figures


def ladder(version: Version, game: str) -> dict:
    if game in COOPERATIVE:
        return {}
    version.balance("skill", game, "--players", "2", "-n", "2", "-o", version.out())
    seconds, _ = version.balance("skill", game, "--players", "2", "-o", version.out())
    return {"ladder_s": seconds}


def _row(game: str, before: dict, after: dict, key: str, fmt: str) -> str:
    if key not in before or key not in after:
        return f"| {game} | | | |"
    ratio = after[key] / before[key] if before[key] else float("nan")
    return f"| {game} | {before[key]:{fmt}} | {after[key]:{fmt}} | {ratio:.2f} |"


HEADER = "| game | before | after | after / before |\n|---|---|---|---|"
TABLES = {
    "first": ("first run on an empty cache, s", [("first_s", ".1f")]),
    "search": ("first run with a search seat on an empty cache, s", [("search_s", ".1f")]),
    "rate": (
        "games/s with 2 jobs (a million games, s)",
        [("games_per_s", ",.0f"), ("million_s", ".0f")],
    ),
    "split": (
        "microseconds per unit of length: default seats, random seats, policies' share",
        [("default_us", ".1f"), ("random_us", ".1f"), ("policy_share", ".0%")],
    ),
    "ladder": ("default 2-player ladder, s", [("ladder_s", ".0f")]),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default=BEFORE, help="the commit to compare with")
    parser.add_argument("--game", action="append", choices=GAMES, help="default: every game")
    parser.add_argument("--figure", action="append", choices=FIGURES, help="default: all")
    parser.add_argument("--rate-games", type=int, default=200_000)
    parser.add_argument("--split-games", type=int, default=20_000)
    args = parser.parse_args()
    games, figures = args.game or list(GAMES), args.figure or list(FIGURES)
    # A benchmark stopped with kill still removes its worktree (the finally below).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("stopped"))
    load = os.getloadavg()[0]
    print(f"{os.cpu_count()} cores, load average {load:.2f}; before = {args.before}", flush=True)
    with tempfile.TemporaryDirectory(prefix="balance-before-after-") as scratch:
        tree = Path(scratch) / "before-tree"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), args.before],
            check=True, capture_output=True,
        )  # fmt: skip
        try:
            versions = [
                Version("before", tree, Path(scratch)),
                Version("after", ROOT, Path(scratch)),
            ]
            results = {v.label: {g: {} for g in games} for v in versions}
            for game in games:
                for version in versions:
                    got = results[version.label][game]
                    if "first" in figures:
                        got |= first(version, game)
                    if "search" in figures:
                        got |= first_search(version, game)
                    if "rate" in figures:
                        got |= rate(version, game, args.rate_games)
                    if "split" in figures:
                        got |= split(version, game, args.split_games)
                    if "ladder" in figures:
                        got |= ladder(version, game)
                    print(f"{game} {version.label}: {json.dumps(got)}", flush=True)
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)],
                capture_output=True,
            )  # fmt: skip
    for figure in figures:
        title, columns = TABLES[figure]
        for key, fmt in columns:
            print(f"\n{title}: {key}\n\n{HEADER}")
            for game in games:
                print(_row(game, results["before"][game], results["after"][game], key, fmt))
    print(f"\nload average at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
