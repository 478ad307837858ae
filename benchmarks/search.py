"""What the search player costs: decisions and simulations per second, and a simulation's cost
against the same stretch of an ordinary game.

    .venv/bin/python benchmarks/search.py                  # every game with `mcts` (make bench)
    .venv/bin/python benchmarks/search.py --game pirateer --games 40
    .venv/bin/python benchmarks/search.py --agreement --json   # does its answer settle?
    .venv/bin/python benchmarks/search.py --agreement --against-playouts  # vs playing out

For each game that declares `mcts`, in a fresh process (the engine compiled or loaded first, not
timed): ``--games`` 2-player games of `mcts` at its default budget against the game's strongest
hand-written policy, both seat orders, with the search's tally (simulations, and the length units,
turns or rounds or days, they played between the decision and the end of the game); then games
with the search's rollout policy in every seat, the ordinary game a simulation imitates.

- decisions/s and simulations/s: searched decisions (simulations / budget) and simulations per
  second of the `mcts` games' wall time (the opponent's own decisions included: a lower bound);
- ordinary units/s: length units per second of the rollout games;
- overhead: seconds per length unit inside the search over seconds per unit of the ordinary game
  (1.0: a simulation costs what the same stretch of an ordinary game costs; copying the position,
  the tree and the guide policy's choices are the excess);
- interpreted: the same `mcts` games under ``NUMBA_DISABLE_JIT=1`` (two games, a tenth of the
  budget, or a larger share where a tenth does not search at all) in simulations/s, and the
  compiled figure's ratio to it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
import agreement  # noqa: E402  (beside this file)


def measure(game: str, games: int, budget_share: float) -> dict:
    """Run in this process: the figures of one game (see the module docstring)."""
    sys.path.insert(0, str(ROOT))
    import numpy as np

    from simulator.contract.policy import engine_arrays
    from simulator.contract.registry import get_game
    from simulator.runs.plan import chunk_seeds, plan_run

    spec = get_game(game)
    mcts = spec.policies["mcts"]
    defaults = {p.name: p for p in mcts.params}
    budget = max(1, round(defaults["playouts"].default * budget_share))
    rollout = defaults["rollout"].choices[int(defaults["rollout"].default)]
    seat = f"mcts:playouts={budget}"

    def play(seats: list[str], seeds, tally=None) -> tuple[float, int]:
        config = plan_run(game, len(seeds), players=2, policies=seats)
        ids, params = engine_arrays(list(config.seats))
        extra = {} if tally is None else {"tally": tally}
        start = time.perf_counter()
        out = spec.play_chunk(config.rules, 2, ids, params, seeds, **extra)
        return time.perf_counter() - start, int(np.asarray(out["length"]).sum())

    warm = chunk_seeds(99, 0, 1)
    play([seat, spec.best_heuristic], warm, np.zeros(2, dtype=np.int64))  # compile or load
    play([rollout], warm)
    tally = np.zeros(2, dtype=np.int64)
    seconds = 0.0
    half = max(1, games // 2)
    for k, seats in enumerate(([seat, spec.best_heuristic], [spec.best_heuristic, seat])):
        spent, _ = play(seats, chunk_seeds(7, k, half), tally)
        seconds += spent
    simulations, units = int(tally[0]), int(tally[1])
    n_rollout = max(20, games * 5)
    spent, ordinary_units = play([rollout], chunk_seeds(8, 0, n_rollout))
    return {
        "game": game,
        "budget": budget,
        "rollout": rollout,
        "opponent": spec.best_heuristic,
        "games": 2 * half,
        "seconds": seconds,
        "seconds_per_game": seconds / (2 * half),
        "decisions_per_s": simulations / budget / seconds,
        "simulations_per_s": simulations / seconds,
        "units_per_simulation": units / max(simulations, 1),
        "search_s_per_unit": seconds / max(units, 1),
        "ordinary_s_per_unit": spent / max(ordinary_units, 1),
        "length_unit": spec.length_unit,
    }


def _child(args: list[str], env: dict[str, str] | None = None) -> dict:
    done = subprocess.run(
        [sys.executable, __file__, *args],
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=3600,
    )
    if done.returncode != 0:
        raise SystemExit(f"measurement {args} failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _interpreted(game: str) -> dict:
    """The search games under ``NUMBA_DISABLE_JIT=1`` at a tenth of the budget, or at the
    smallest larger share where the search simulates at all: at a tenth, a root that admits
    ``1 + widen * sqrt(playouts)`` options may hold only the guide's move (Pirateer's at 30)."""
    for share in (0.1, 0.25, 0.5, 1.0):
        row = _child(
            ["--measure", game, "--games", "2", "--budget-share", str(share)],
            {"NUMBA_DISABLE_JIT": "1"},
        )
        if row["simulations_per_s"] > 0:
            break
    return row


def table(rows: list[dict]) -> str:
    head = (
        "| game | budget | rollout | vs | games | s/game | decisions/s | simulations/s "
        "| units/simulation | ordinary units/s | overhead | interpreted sim/s | compiled / "
        "interpreted |"
    )
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for r in rows:
        i = r["interpreted"]
        lines.append(
            f"| {r['game']} | {r['budget']} | {r['rollout']} | {r['opponent']} | {r['games']} | "
            f"{r['seconds_per_game']:.2f} | {r['decisions_per_s']:,.1f} | "
            f"{r['simulations_per_s']:,.0f} | {r['units_per_simulation']:.1f} "
            f"{r['length_unit']} | {1 / r['ordinary_s_per_unit']:,.0f} | "
            f"{r['search_s_per_unit'] / r['ordinary_s_per_unit']:.2f} | "
            f"{i['simulations_per_s']:,.1f} (budget {i['budget']}) | "
            f"{r['simulations_per_s'] / max(i['simulations_per_s'], 1e-9):,.0f} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", action="append", help="game id (repeat; default: every game)")
    parser.add_argument("--games", type=int, default=20, help="mcts games per game (compiled)")
    parser.add_argument(
        "--json",
        nargs="?",
        const="-",
        help="the figures as JSON: to this file, or alone on standard output without a file",
    )
    parser.add_argument(
        "--agreement",
        action="store_true",
        help="how often two searches from one position agree (benchmarks/agreement.py)",
    )
    parser.add_argument(
        "--players", type=int, action="append", help="--agreement: player counts (default 2, 4)"
    )
    parser.add_argument(
        "--positions", type=int, default=100, help="--agreement: positions per game and count"
    )
    parser.add_argument(
        "--against-playouts",
        action="store_true",
        help="--agreement: the evaluation's root choice against full playouts' instead",
    )
    parser.add_argument(
        "--scale",
        type=float,
        default=4.0,
        help="--against-playouts: both searches' playouts as a multiple of the default",
    )
    parser.add_argument("--measure", metavar="GAME", help=argparse.SUPPRESS)
    parser.add_argument("--budget-share", type=float, default=1.0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.measure and args.agreement:
        if args.against_playouts:
            figures = agreement.against_playouts(
                args.measure, args.players[0], args.positions, args.scale
            )
        else:
            figures = agreement.measure(args.measure, args.players[0], args.positions)
        print(json.dumps(figures))
        return
    if args.measure:
        print(json.dumps(measure(args.measure, args.games, args.budget_share)))
        return

    sys.path.insert(0, str(ROOT))
    from simulator.contract.registry import available, get_game

    quiet = args.json == "-"
    say = (lambda *a, **k: print(*a, file=sys.stderr, **k)) if quiet else print
    if args.agreement:
        games = args.game or [g for g in available() if get_game(g).search_hooks is not None]
        rows = []
        extra = ["--against-playouts", "--scale", str(args.scale)] if args.against_playouts else []
        key = "playout_agreement" if args.against_playouts else "agreement"
        for game in games:
            for players in args.players or [2, 4]:
                rows.append(
                    _child(
                        [
                            "--agreement",
                            "--measure",
                            game,
                            "--players",
                            str(players),
                            "--positions",
                            str(args.positions),
                            *extra,
                        ]
                    )
                )
                share = rows[-1].get(key, {}).get("value")
                say(f"  {game}, {players} players: " + ("-" if share is None else f"{share:.0%}"))
        shown = agreement.playouts_table if args.against_playouts else agreement.table
        _write(rows, args.json, shown(rows))
        return

    games = args.game or [g for g in available() if get_game(g).searches]
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    say(f"{os.cpu_count()} cores, load average {load} at start", flush=True)
    rows = []
    for game in games:
        row = _child(["--measure", game, "--games", str(args.games)])
        row["interpreted"] = _interpreted(game)
        rows.append(row)
        say(f"  {game}: {row['seconds']:.0f} s of search games", flush=True)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    _write(rows, args.json, table(rows) + f"\nload average {load} at end")


def _write(rows: list[dict], where: str | None, text: str) -> None:
    """The table on standard output; with ``--json``, the rows as JSON instead (``-``) or also
    to a file."""
    if where == "-":
        print(json.dumps(rows, indent=2))
        return
    print(text)
    if where:
        Path(where).write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    main()
