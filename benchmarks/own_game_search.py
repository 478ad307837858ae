"""Simulations per second of the search player on a designer's own game (plain Python).

    .venv/bin/python benchmarks/own_game_search.py                 # every example
    .venv/bin/python benchmarks/own_game_search.py --file examples/pig.py --playouts 500

For each file, at its default rules with two seats: decisions reached by uniformly random play
(a fixed seed), each searched with ``playouts`` simulations; the figure is the simulations the
searches played (``search.simulations``) over their time, on one core. Beside it, the bare
loop's moves per second from the same positions (random play to the end, a copy per game), so
the search's own cost per move shows: a simulation costs about what the same stretch of a game
costs.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

EXAMPLES = ("pig", "noughts", "kuhn", "swap")


def positions(game, rules, count, seed):
    """Decisions reached by random play: (state, mover, actions)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        state = game.start(2, dict(rules))
        while (mover := game.to_move(state)) is not None:
            if mover == "chance":
                state = game.apply(state, game.draw_chance(state, rng))
                continue
            actions = game.legal_actions(state)
            if len(actions) > 1:
                out.append((game.copy(state), mover, actions))
            state = game.apply(state, actions[int(rng.integers(len(actions)))])
    return out[:count]


def bare_moves_per_second(game, spots, repeats):
    """Moves/s of random play to the end from each position (what a simulation plays)."""
    import numpy as np

    rng = np.random.default_rng(0)
    moves = 0
    t0 = time.perf_counter()
    for _ in range(repeats):
        for state, _mover, _actions in spots:
            s = game.copy(state)
            while (m := game.to_move(s)) is not None:
                if m == "chance":
                    a = game.draw_chance(s, rng)
                else:
                    acts = game.legal_actions(s)
                    a = acts[int(rng.random() * len(acts))]
                s = game.apply(s, a)
                moves += 1
    return moves / (time.perf_counter() - t0)


def measure(path, playouts, count, seconds):
    import numpy as np

    from simulator.own_game import search
    from simulator.own_game.loader import load

    game = load(path)
    rules = {k: o["default"] for k, o in game.options.items()}
    spots = positions(game, rules, count, seed=1)
    sims = 0
    elapsed = 0.0
    rounds = 0
    while elapsed < seconds or rounds == 0:
        for i, (state, mover, actions) in enumerate(spots):
            rng = np.random.default_rng(i)
            t0 = time.perf_counter()
            search.choose(game, state, mover, actions, rng, playouts=playouts)
            elapsed += time.perf_counter() - t0
            sims += search.simulations(len(actions), playouts)
        rounds += 1
    bare = bare_moves_per_second(game, spots, max(1, rounds))
    return sims / elapsed, sims, elapsed, bare


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--file", action="append", help="a game file (default: every example)")
    ap.add_argument("--playouts", type=int, default=200)
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=3.0, help="at least this long per file")
    args = ap.parse_args()
    files = args.file or [str(ROOT / "examples" / f"{name}.py") for name in EXAMPLES]
    print(f"search: {args.playouts} playouts a decision, {args.positions} positions, one core")
    head = ("game", "simulations/s", "simulations", "seconds", "bare moves/s")
    print(f"{head[0]:<10} {head[1]:>14} {head[2]:>12} {head[3]:>8} {head[4]:>13}")
    for path in files:
        rate, sims, secs, bare = measure(path, args.playouts, args.positions, args.seconds)
        print(f"{Path(path).stem:<10} {rate:>14,.0f} {sims:>12,} {secs:>8.2f} {bare:>13,.0f}")


if __name__ == "__main__":
    main()
