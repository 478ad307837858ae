"""The search player on a designer's own game (plain Python): its speed, and its strength against
exact answers and against the policy it rolls out with.

    .venv/bin/python benchmarks/own_game_search.py                  # speed: every example
    .venv/bin/python benchmarks/own_game_search.py --file examples/pig.py --moves 5000
    .venv/bin/python benchmarks/own_game_search.py --strength       # the tables (an hour or so)
    .venv/bin/python benchmarks/own_game_search.py --strength --only pig --games 400 --goal 100

**Speed.** For each file, at its default rules with two seats (the fewest where more are
needed): decisions reached by uniformly random play (a fixed seed), each searched at the default
budget; the figure is the simulations and simulated moves the searches played over their time, on
one core. Beside it, the bare loop's moves per second from the same positions (random play to the
end, a copy per game): what a simulated move costs the search beyond the game's own functions.

**Strength**, at four budgets of simulated moves per decision (a sixteenth of the default, a
quarter, the default, four times it; the cap on simulations scaled with them), Kuhn poker at
25 to 1,250 moves, where it grows to its best response, with 95% Wilson intervals:

- every example: the search against its own rollout policy (the file's ``search_rollout``, else
  random), head to head, seats swapped every game;
- noughts and crosses: losses to perfect play (minimax, the best moves drawn at random) from
  either seat, with the rollouts random, ``tactics`` and always-the-first-action;
- Nim and 21 sticks: the share of random positions with a winning move where the search plays
  one (nim-sum; the table of lost heaps);
- Pig: wins against ``hold`` at 20 over both seats at the default budget, beside the best
  response's (value iteration); at every budget, the chance of winning its choices give up
  against the best response's in its games against ``hold``, summed over a game (exact, by
  value iteration): the best response's win rate less the search's, measured with far less
  noise than wins;
- Kuhn poker with chips: the search's plan exploiting uniform random play, read at every
  information set and valued exactly in chips a hand, beside the best response's (every pure
  plan enumerated), playing for chips and for the win.
"""

from __future__ import annotations

import argparse
import functools
import itertools
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

KUHN_BUDGETS = (25, 100, 300, 1250)  # Kuhn poker reaches its best response by 300 moves
EXAMPLES = ("pig", "noughts", "kuhn", "swap", "nim", "sticks", "next_card", "no_thanks")
Z = 1.96


def positions(game, rules, count, seed, players):
    """Decisions reached by random play: (state, mover, actions)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        state = game.start(players, dict(rules))
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


def measure(path, moves, count, seconds):
    import numpy as np

    from simulator.games.own_game import search
    from simulator.games.own_game.loader import load

    game = load(path)
    rules = {k: o["default"] for k, o in game.options.items()}
    players = max(game.players[0], min(2, game.players[1]))
    spots = positions(game, rules, count, 1, players)
    sims = simulated = 0
    elapsed = 0.0
    rounds = 0
    while elapsed < seconds or rounds == 0:
        for i, (state, mover, actions) in enumerate(spots):
            rng = np.random.default_rng(i)
            t0 = time.perf_counter()
            search.choose(game, state, mover, actions, rng, moves=moves, players=players)
            elapsed += time.perf_counter() - t0
            sims += search.effort["simulations"]
            simulated += search.effort["moves"]
        rounds += 1
    bare = bare_moves_per_second(game, spots, max(1, rounds))
    return sims / elapsed, simulated / elapsed, elapsed / (rounds * len(spots)), bare


def speed(args) -> None:
    from simulator.games.own_game.search import DEFAULT_MOVES

    moves = args.moves[0] if args.moves else DEFAULT_MOVES
    files = args.file or [str(ROOT / "examples" / f"{name}.py") for name in EXAMPLES]
    print(f"search: {moves:,} simulated moves a decision at most, {args.positions} positions")
    head = ("game", "simulations/s", "sim. moves/s", "ms/decision", "bare moves/s")
    print(f"{head[0]:<10} {head[1]:>14} {head[2]:>13} {head[3]:>12} {head[4]:>13}")
    for path in files:
        sims, simulated, per, bare = measure(path, moves, args.positions, args.seconds)
        print(
            f"{Path(path).stem:<10} {sims:>14,.0f} {simulated:>13,.0f} {per * 1000:>12.1f} "
            f"{bare:>13,.0f}"
        )


# -- strength ------------------------------------------------------------------------------------
def wilson(wins: float, n: int, z: float = Z) -> tuple[float, float]:
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return centre - half, centre + half


def share(wins: float, n: int) -> str:
    lo, hi = wilson(wins, n)
    return f"{wins / n:6.1%} [{lo:.1%}, {hi:.1%}] of {n}"


def mean_interval(xs: list[float]) -> str:
    n = len(xs)
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    return f"{m:+.3f} [{m - Z * sd / math.sqrt(n):+.3f}, {m + Z * sd / math.sqrt(n):+.3f}] of {n}"


def play(game, rules, choosers, seed):
    """One game: (the winners, the final state)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    state = game.start(len(choosers), dict(rules))
    while (mover := game.to_move(state)) is not None:
        if mover == "chance":
            action = game.draw_chance(state, rng)
        else:
            action = choosers[mover](state, mover, game.legal_actions(state), rng)
        state = game.apply(state, action)
    return list(game.winners(state)), state


def searcher(game, **kw):
    """The search at a budget of ``moves`` simulated moves, its simulations' cap scaled with it
    (5,000 at the default 20,000 moves): a budget is both caps, so four times the budget is four
    times the simulations where simulations are short."""
    from simulator.games.own_game import search

    if "moves" in kw and "playouts" not in kw:
        kw["playouts"] = max(1, search.DEFAULT_PLAYOUTS * kw["moves"] // search.DEFAULT_MOVES)
    return lambda state, seat, actions, rng: search.choose(game, state, seat, actions, rng, **kw)


def search_value(game):
    from simulator.games.own_game.spec import search_value as named

    return named(game)


def rollout_of(game):
    from simulator.games.own_game.spec import search_rollout

    name = search_rollout(game)
    if name == "random":
        return name, None
    return name, game.policies[name].function


def uniform(state, seat, actions, rng):
    return actions[int(rng.integers(len(actions)))]


def head_to_head(game, moves, games, seed0):
    """The search against its rollout policy, seats swapped every game (the other seats, where
    there are more, play the rollout): the search's share of the win."""
    name, policy = rollout_of(game)
    rules = {k: o["default"] for k, o in game.options.items()}
    players = max(game.players[0], min(2, game.players[1]))
    plain = policy or uniform
    won = 0.0
    for g in range(games):
        seat = g % players
        choosers = [plain] * players
        choosers[seat] = searcher(
            game,
            moves=moves,
            rollout=policy,
            players=players,
            value=search_value(game),
            rules=rules,
            rollout_key=name,
        )
        winners, _ = play(game, rules, choosers, seed0 + g)
        if seat in winners:
            won += 1.0 / len(winners)
    return name, players, won


@functools.cache
def minimax(cells: tuple, mover: int) -> int:
    lines = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
    for a, b, c in lines:
        if cells[a] >= 0 and cells[a] == cells[b] == cells[c]:
            return 1 if cells[a] == 0 else -1
    free = [i for i, x in enumerate(cells) if x < 0]
    if not free:
        return 0
    values = [minimax(cells[:i] + (mover,) + cells[i + 1 :], 1 - mover) for i in free]
    return max(values) if mover == 0 else min(values)


def perfect(state, seat, actions, rng):
    cells = tuple(state["cells"])
    values = [minimax(cells[:a] + (seat,) + cells[a + 1 :], 1 - seat) for a in actions]
    best = max(values) if seat == 0 else min(values)
    good = [a for a, v in zip(actions, values, strict=True) if v == best]
    return good[int(rng.integers(len(good)))]


def noughts_table(budgets, games):
    from simulator.games.own_game.loader import load

    game = load(ROOT / "examples" / "noughts.py")
    rollouts = {
        "random": None,
        "tactics": game.policies["tactics"].function,
        "first": lambda s, seat, actions, rng: actions[0],
    }
    print("\nnoughts and crosses: losses to perfect play (X = seat 1, O = seat 2)")
    for moves in budgets:
        for name, policy in rollouts.items():
            cells = []
            for seat in (0, 1):
                lost = 0
                for g in range(games):
                    choosers = [perfect, perfect]
                    choosers[seat] = searcher(game, moves=moves, rollout=policy)
                    winners, _ = play(game, {"first_centre": True}, choosers, 300 + g)
                    lost += winners == [1 - seat]
                cells.append(f"{'XO'[seat]} {share(lost, games)}")
            print(f"  moves {moves:>6,} rollout {name:<8} " + "   ".join(cells), flush=True)


def right_move_table(budgets, count):
    import numpy as np

    from simulator.games.own_game import search
    from simulator.games.own_game.loader import load

    @functools.cache
    def sticks_lost(left, most):
        if left == 0:
            return False
        return all(not sticks_lost(left - k, most) for k in range(1, min(most, left) + 1))

    def nim_right(s, a):
        piles = list(s["piles"])
        piles[a[0]] -= a[1]
        return functools.reduce(lambda x, y: x ^ y, piles) == 0

    print("\nthe right move from random positions with one (Nim: nim-sum; 21 sticks: the table)")
    for name in ("nim", "sticks"):
        game = load(ROOT / "examples" / f"{name}.py")
        right_of = nim_right if name == "nim" else (lambda s, a: sticks_lost(s["left"] - a, 3))
        rng = np.random.default_rng(23)
        spots = []
        while len(spots) < count:
            if name == "nim":
                piles = [int(rng.integers(0, 4 + i)) for i in range(3)]
                s = {"piles": piles, "mover": int(rng.integers(2)), "moves": 0}
            else:
                s = {"left": int(rng.integers(1, 22)), "most": 3, "mover": 0, "moves": 0}
            if game.to_move(s) is not None and any(right_of(s, a) for a in game.legal_actions(s)):
                spots.append(s)
        for moves in budgets:
            right = sum(
                right_of(
                    s,
                    search.choose(
                        game,
                        s,
                        s["mover"],
                        game.legal_actions(s),
                        np.random.default_rng(i),
                        moves=moves,
                    ),
                )  # fmt: skip
                for i, s in enumerate(spots)
            )
            print(f"  {name:<7} moves {moves:>6,}: {share(right, count)}", flush=True)


def pig_best_response(goal, faces, at):
    """Exact win probability of the best reply to ``hold`` at ``at`` (value iteration)."""
    mine: dict = {}
    theirs: dict = {}
    for i, j in itertools.product(range(goal), repeat=2):
        for t in range(goal - i + faces):
            mine[i, j, t] = 0.5
        for t in range(goal - j + faces):
            theirs[i, j, t] = 0.5
    while True:
        change = 0.0
        for (i, j, t), old in mine.items():
            hold = 1.0 if i + t >= goal else theirs[i + t, j, 0]
            roll = (
                theirs[i, j, 0] / faces
                + sum(1.0 if i + t + f >= goal else mine[i, j, t + f] for f in range(2, faces + 1))
                / faces
            )
            mine[i, j, t] = max(hold, roll)
            change = max(change, abs(mine[i, j, t] - old))
        for (i, j, t), old in theirs.items():
            if t >= at or j + t >= goal:
                new = 0.0 if j + t >= goal else mine[i, j + t, 0]
            else:
                new = (
                    mine[i, j, 0] / faces
                    + sum(
                        0.0 if j + t + f >= goal else theirs[i, j, t + f]
                        for f in range(2, faces + 1)
                    )
                    / faces
                )
            theirs[i, j, t] = new
            change = max(change, abs(new - old))
        if change < 1e-10:
            return (mine[0, 0, 0] + theirs[0, 0, 0]) / 2


def _turn(goal, faces, end, roll=None):
    """Within one turn of two-seat Pig: the mover's chance to win at (own banked a, rival's b,
    turn's points k), given ``end[a, b]``, its chance once its turn ends with a banked (the rival
    to move), playing the mask ``roll[a, b, k]`` (True: roll), or the best plan where None:
    (chances, the mask played)."""
    import numpy as np

    top = goal + faces + 1
    a = np.arange(goal)
    w = np.ones((goal, goal, top + faces))
    mask = np.zeros((goal, goal, top), bool)
    for k in range(top - 1, -1, -1):
        ok = a + k < goal
        held = np.ones((goal, goal))
        held[ok] = end[(a + k)[ok]]
        rolled = (end + w[:, :, k + 2 : k + faces + 1].sum(axis=2)) / faces
        r = rolled > held if roll is None else roll[:, :, k]
        w[:, :, k] = np.where(r, rolled, held)
        w[~ok, :, k] = 1.0
        mask[:, :, k] = r & ok[:, None]
    return w[:, :, :top], mask


def _hold_mask(goal, faces, at):
    import numpy as np

    k = np.arange(goal + faces + 1)
    return np.broadcast_to(
        (k < at) & (np.arange(goal)[:, None, None] + k < goal), (goal, goal, k.size)
    )


def _against_hold(goal, faces, at, mine):
    """Each seat's chance at its turn's start, the mask ``mine`` against ``hold`` at ``at``:
    (mine[a, b], hold's[b, a]), by value iteration."""
    import numpy as np

    theirs = _hold_mask(goal, faces, at)
    me, them = np.full((goal, goal), 0.5), np.full((goal, goal), 0.5)
    while True:
        new_me = _turn(goal, faces, 1.0 - them.T, mine)[0][:, :, 0]
        new_them = _turn(goal, faces, 1.0 - me.T, theirs)[0][:, :, 0]
        change = max(abs(new_me - me).max(), abs(new_them - them).max())
        me, them = new_me, new_them
        if change < 1e-12:
            return me, them


def pig_turn_plan(goal, faces, at, value):
    """The exact win rate over both seats against ``hold`` at ``at`` of the plan a turn-horizon
    search converges to: each turn played best against ``value(a, b)``, the chance the value
    gives a seat that banked a against b, the rival to move."""
    import numpy as np

    end = np.array([[value(i, j) for j in range(goal)] for i in range(goal)])
    me, them = _against_hold(goal, faces, at, _turn(goal, faces, end)[1])
    return (me[0, 0] + 1.0 - them[0, 0]) / 2


def pig_rollout_plan(goal, faces, at):
    """The exact win rate against ``hold`` at ``at`` of the plan a search converges to when
    ``hold`` plays every simulation to the end: roll or hold, whichever ``hold`` then does better
    with (the rollout algorithm)."""
    import numpy as np

    hold = _hold_mask(goal, faces, at)
    me, _ = _against_hold(goal, faces, at, hold)  # hold against itself
    end = 1.0 - me.T  # banked a against b, the rival to move
    w = _turn(goal, faces, end, hold)[0]
    k = np.arange(w.shape[2])
    a = np.arange(goal)[:, None, None]
    banked = np.minimum(a + k, goal - 1)
    held = np.where(a + k >= goal, 1.0, end[banked, np.arange(goal)[None, :, None]])
    padded = np.concatenate([w, np.ones((goal, goal, faces))], axis=2)
    rolled = (end[:, :, None] + sum(padded[:, :, k + f] for f in range(2, faces + 1))) / faces
    me, them = _against_hold(goal, faces, at, (rolled > held) & (a + k < goal))
    return (me[0, 0] + 1.0 - them[0, 0]) / 2


def pig_best_values(goal, faces, at):
    """The best response to ``hold`` at ``at``, by value iteration: (end, w), where ``end[a, b]``
    is its chance once its turn ends with a banked against b, and ``w[a, b, k]`` its chance
    mid-turn with k points at stake."""
    import numpy as np

    theirs = _hold_mask(goal, faces, at)
    me, them = np.full((goal, goal), 0.5), np.full((goal, goal), 0.5)
    while True:
        new_me = _turn(goal, faces, 1.0 - them.T)[0][:, :, 0]
        new_them = _turn(goal, faces, 1.0 - me.T, theirs)[0][:, :, 0]
        change = max(abs(new_me - me).max(), abs(new_them - them).max())
        me, them = new_me, new_them
        if change < 1e-12:
            end = 1.0 - them.T
            return end, _turn(goal, faces, end)[0]


def pig_given_up(goal, faces, at):
    """Against ``hold`` at ``at`` in two-seat Pig: (the best response's win rate over both
    seats, ``lost(state, action)``: the chance of winning ``action`` gives up at ``state``
    against the best response's choice there), by value iteration."""
    end, w = pig_best_values(goal, faces, at)

    def lost(state, action):
        m = state["seat"]
        a, b, k = state["scores"][m], state["scores"][1 - m], state["turn_total"]
        held = 1.0 if a + k >= goal else end[a + k, b]
        after = [1.0 if a + k + f >= goal else w[a, b, k + f] for f in range(2, faces + 1)]
        rolled = (end[a, b] + sum(after)) / faces
        return max(held, rolled) - (held if action == "hold" else rolled)

    return (w[0, 0, 0] + end[0, 0]) / 2, lost


def pig_regret_table(budgets, games, goal):
    """Skill by budget, measured exactly along the search's own games against ``hold`` at 20:
    at each of its decisions, the chance of winning its choice gives up against the best
    response's (value iteration). Summed over a game, that is the best response's win rate less
    the search's (the performance difference lemma), with far less noise than wins and losses."""
    import numpy as np

    from simulator.games.own_game.loader import load

    game = load(ROOT / "examples" / "pig.py")
    hold = game.policies["hold"].function
    rules = {"goal": goal, "faces": 6}
    best, lost = pig_given_up(goal, 6, 20)

    print(
        f"\nPig to {goal}: the chance of winning given up a game against the best response to "
        f"hold at 20 ({best:.1%}), summed over the search's choices in its games against hold "
        f"(exact, by value iteration), {games} games a budget"
    )

    for moves in [0, *budgets]:
        per_game = []
        won = 0
        for g in range(games):
            seat = g % 2
            given_up = [0.0]
            if moves:
                inner = searcher(
                    game, moves=moves, rollout=hold, value=search_value(game), rules=rules,
                    rollout_key="hold", players=2,
                )  # fmt: skip
            else:
                inner = hold

            def chooser(state, mover, actions, rng, inner=inner, given_up=given_up):
                action = inner(state, mover, actions, rng)
                given_up[0] += lost(state, action)
                return action

            choosers = [hold, hold]
            choosers[seat] = chooser
            winners, _ = play(game, rules, choosers, 9000 + g)
            won += winners == [seat]
            per_game.append(100 * given_up[0])
        m = float(np.mean(per_game))
        half = Z * float(np.std(per_game, ddof=1)) / math.sqrt(games)
        name = f"moves {moves:>6,}" if moves else "hold itself "
        print(
            f"  {name}: {m:.2f} [{m - half:.2f}, {m + half:.2f}] points a game, so it wins "
            f"{best - m / 100:.1%} [{best - (m + half) / 100:.1%}, {best - (m - half) / 100:.1%}]"
            f" (won {share(won, games).strip()})",
            flush=True,
        )


def pig_table(budgets, games, goal):
    from simulator.games.own_game.loader import load

    game = load(ROOT / "examples" / "pig.py")
    hold = game.policies["hold"].function
    best = pig_best_response(goal, 6, 20)
    rules = {"goal": goal, "faces": 6}
    print(f"\nPig to {goal} against hold at 20 (the best response wins {best:.1%} over both seats)")
    if search_value(game) == "scores":
        from simulator.games.own_game.spec import value_verdict
        from simulator.games.own_game.value import learned_value

        print(f"  its value {value_verdict(game, rules, 2)}")
        learned = learned_value(game, rules, 2, hold, "hold")
        limit = pig_turn_plan(goal, 6, 20, lambda i, j: learned.shares([i, j], 1)[0])
        print(f"  each turn played best against that value (the search's limit): {limit:.1%}")
    print(f"  hold's whole games judging roll against hold (the limit without it): "
          f"{pig_rollout_plan(goal, 6, 20):.1%}")  # fmt: skip
    for moves in budgets:
        won = 0
        for g in range(games):
            seat = g % 2
            choosers = [hold, hold]
            choosers[seat] = searcher(
                game,
                moves=moves,
                rollout=hold,
                value=search_value(game),
                rules=rules,
                rollout_key="hold",
            )
            winners, _ = play(game, rules, choosers, 9000 + g)
            won += winners == [seat]
        print(f"  moves {moves:>6,}: {share(won, games)}", flush=True)


def kuhn_value(game, state, seat, plan):
    """``seat``'s exact chips a hand when it plays ``plan`` ((card, history) -> the chance of
    each action) and the other seat plays uniformly at random."""
    mover = game.to_move(state)
    if mover is None:
        return game.returns(state)[seat]
    if mover == "chance":
        return sum(
            p * kuhn_value(game, game.apply(game.copy(state), o), seat, plan)
            for o, p in game.chance_outcomes(state)
        )
    actions = game.legal_actions(state)
    weights = (
        {a: 1 / len(actions) for a in actions}
        if mover != seat
        else plan[(state["cards"][seat], state["history"])]
    )
    return sum(
        w * kuhn_value(game, game.apply(game.copy(state), a), seat, plan)
        for a, w in weights.items()
        if w
    )


def kuhn_best(game, seat):
    """The best response to uniform random play, every pure plan enumerated."""
    sets = [(c, h) for c in range(3) for h in (("", "cb") if seat == 0 else ("c", "b"))]
    best = -math.inf
    for picks in itertools.product(*[game.legal_actions({"history": h}) for _, h in sets]):
        plan = {k: {a: 1.0} for k, a in zip(sets, picks, strict=True)}
        best = max(best, kuhn_value(game, game.start(2, {"ante": 1, "bet": 1}), seat, plan))
    return best


def kuhn_table(budgets, games):
    """The search's plan read at every information set (each read ``games`` // 10 times, with
    different seeds: how often it takes each action) and valued exactly: no hands dealt, so the
    figure moves only with the plan."""
    import numpy as np

    from simulator.games.own_game.loader import from_source

    source = (ROOT / "examples" / "kuhn.py").read_text()
    reads = max(1, games // 10)
    for objective in ("return", "win"):
        game = from_source(f"kuhn_{objective}.py", source + f"\nobjective = {objective!r}\n")
        best = sum(kuhn_best(game, seat) for seat in (0, 1)) / 2
        if objective == "return":
            print(f"\nKuhn poker: exact chips a hand against uniform random play, both seats, "
                  f"exploiting it (best response {best:+.3f}; the plan read {reads} times at "
                  "each of its 12 information sets)")  # fmt: skip
        for moves in budgets:
            total = 0.0
            for seat in (0, 1):
                plan = {}
                for card in range(3):
                    for history in ("", "cb") if seat == 0 else ("c", "b"):
                        other = (card + 1) % 3
                        state = game.start(2, {"ante": 1, "bet": 1})
                        game.apply(state, (card, other) if seat == 0 else (other, card))
                        for a in history:
                            game.apply(state, a)
                        actions = game.legal_actions(state)
                        choose = searcher(game, moves=moves, exploit=True)
                        picks = [
                            choose(game.copy(state), seat, actions, np.random.default_rng(r))
                            for r in range(reads)
                        ]
                        plan[(card, history)] = {a: picks.count(a) / reads for a in actions}
                start = game.start(2, {"ante": 1, "bet": 1})
                total += kuhn_value(game, start, seat, plan) / 2
            print(f"  playing for the {objective:<6} moves {moves:>6,}: {total:+.3f}", flush=True)


def rollout_table(budgets, games, only):
    from simulator.games.own_game.loader import load

    print("\nthe search against its own rollout policy, seats swapped every game (share of wins)")
    for name in only or ("noughts", "nim", "sticks", "kuhn", "swap", "pig", "no_thanks"):
        game = load(ROOT / "examples" / f"{name}.py")
        for moves in budgets:
            rollout, players, won = head_to_head(game, moves, games, 7000)
            print(
                f"  {name:<9} ({players} seats, rollout {rollout:<8}) moves {moves:>6,}: "
                f"{share(won, games)}",
                flush=True,
            )


def strength(args) -> None:
    from simulator.games.own_game.search import DEFAULT_MOVES

    budgets = args.moves or [DEFAULT_MOVES // k for k in (16, 4, 1)] + [DEFAULT_MOVES * 4]
    only = args.only
    started = time.perf_counter()
    if args.against_rollout:
        rollout_table(budgets, args.games, only)
        print(f"\n{time.perf_counter() - started:.0f} s")
        return
    if not only or "noughts" in only:
        noughts_table(budgets, args.games // 4)
    if not only or {"nim", "sticks"} & set(only):
        right_move_table(budgets, args.games)
    if not only or "kuhn" in only:
        kuhn_table(args.moves or KUHN_BUDGETS, args.games)
    if not only or "pig" in only:
        pig_table(args.moves or [DEFAULT_MOVES], args.games, args.goal)  # whole games: dear
        pig_regret_table(budgets, args.games, args.goal)
    rollout_table(budgets, args.games, [n for n in only or [] if n != "nim-sticks"])
    print(f"\n{time.perf_counter() - started:.0f} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--file", action="append", help="a game file (default: every example)")
    ap.add_argument(
        "--moves", type=int, action="append", help="simulated moves a decision (repeatable)"
    )
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=3.0, help="at least this long per file")
    ap.add_argument("--strength", action="store_true", help="the strength tables")
    ap.add_argument("--only", action="append", help="an example's tables only (repeatable)")
    ap.add_argument(
        "--against-rollout", action="store_true", help="only the search against its rollout"
    )
    ap.add_argument("--games", type=int, default=200, help="games (or positions) per figure")
    ap.add_argument("--goal", type=int, default=100, help="Pig's goal")
    args = ap.parse_args()
    if args.strength:
        strength(args)
    else:
        speed(args)


if __name__ == "__main__":
    main()
