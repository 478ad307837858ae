"""The search for a game file against OpenSpiel's standard searches, at the same number of
simulations a decision (OpenSpiel is an optional extra, never a dependency: install it apart).

    pip install --no-deps --target /tmp/ospkg open_spiel
    PYTHONPATH=/tmp/ospkg .venv/bin/python benchmarks/own_game_openspiel.py --simulations 200

- Noughts and crosses (examples/noughts.py against OpenSpiel's tic_tac_toe): our search (random
  rollouts) against OpenSpiel's MCTS (UCT, c = 2, one random rollout a leaf), seats swapped
  every game: wins, draws and losses.
- Kuhn poker (examples/kuhn.py played for chips against OpenSpiel's kuhn_poker): our search
  against OpenSpiel's information-set MCTS, seats swapped every game: our chips a hand.

The two games are played side by side, each move applied to both, so each search reads its own
library's state.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def interval(xs: list[float]) -> str:
    n = len(xs)
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    return f"{m:+.3f} [{m - 1.96 * sd / math.sqrt(n):+.3f}, {m + 1.96 * sd / math.sqrt(n):+.3f}]"


def noughts(simulations: int, games: int) -> None:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts

    from simulator.games.own_game import search
    from simulator.games.own_game.loader import load

    ours = load(ROOT / "examples" / "noughts.py")
    theirs = pyspiel.load_game("tic_tac_toe")
    tally = {"won": 0, "drawn": 0, "lost": 0}
    for g in range(games):
        seat = g % 2  # our seat
        rng = np.random.default_rng(g)
        bot = mcts.MCTSBot(
            theirs,
            uct_c=2.0,
            max_simulations=simulations,
            evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(g)),
            random_state=np.random.RandomState(g + 10_000),
        )
        state, spiel = ours.start(2, {"first_centre": True}), theirs.new_initial_state()
        while (mover := ours.to_move(state)) is not None:
            if mover == seat:
                action = search.choose(ours, state, seat, ours.legal_actions(state), rng,
                                       playouts=simulations, moves=0)  # fmt: skip
            else:
                action = bot.step(spiel)
            state = ours.apply(state, action)
            spiel.apply_action(action)
        won = ours.winners(state)
        tally["won" if won == [seat] else "drawn" if not won else "lost"] += 1
    print(f"noughts and crosses, {simulations} simulations a decision, {games} games: {tally}")


def kuhn(simulations: int, games: int) -> None:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    from simulator.games.own_game import search
    from simulator.games.own_game.loader import from_source

    source = (ROOT / "examples" / "kuhn.py").read_text()
    ours = from_source("kuhn_chips.py", source + '\nobjective = "return"\n')
    theirs = pyspiel.load_game("kuhn_poker")
    chips = []
    for g in range(games):
        seat = g % 2
        rng = np.random.default_rng(g)
        bot = ismcts.ISMCTSBot(
            theirs,
            mcts.RandomRolloutEvaluator(1, np.random.RandomState(g)),
            uct_c=2.0,
            max_simulations=simulations,
            random_state=np.random.RandomState(g + 10_000),
        )
        deal = tuple(int(c) for c in rng.permutation(3)[:2])
        state, spiel = ours.start(2, {"ante": 1, "bet": 1}), theirs.new_initial_state()
        state = ours.apply(state, deal)
        spiel.apply_action(deal[0])
        spiel.apply_action(deal[1])
        while (mover := ours.to_move(state)) is not None:
            facing = state["history"].endswith("b")
            if mover == seat:
                action = search.choose(ours, state, seat, ours.legal_actions(state), rng,
                                       playouts=simulations, moves=0)  # fmt: skip
                spiel_action = 0 if action in ("c", "f") and not (facing and action == "c") else 1
            else:
                spiel_action = bot.step(spiel)
                action = ("c" if spiel_action == 1 else "f") if facing else "cb"[spiel_action]
            state = ours.apply(state, action)
            spiel.apply_action(spiel_action)
        assert spiel.is_terminal(), state
        assert abs(spiel.returns()[seat] - ours.returns(state)[seat]) < 1e-9
        chips.append(ours.returns(state)[seat])
    print(f"Kuhn poker, {simulations} simulations a decision, {games} hands: our chips a hand "
          f"{interval(chips)}")  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--simulations", type=int, default=200)
    ap.add_argument("--games", type=int, default=200)
    args = ap.parse_args()
    started = time.perf_counter()
    noughts(args.simulations, args.games)
    kuhn(args.simulations, args.games * 5)
    print(f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
