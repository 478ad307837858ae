"""`balance check-game FILE`: a designer's game file played at random with every check on."""

from __future__ import annotations

import sys
import time
from typing import Annotated, Any

import typer

from simulator.cli.options import CALL_LIMIT, CallLimitOpt, PlayersOpt, SetOpt, print_json
from simulator.contract.errors import BalanceError

POLICY_GAMES = 10  # games each of the file's own policies plays with the checks on
SPEED_SECONDS = 0.5  # the speed is measured for at least this long
PROGRESS_EVERY = 0.25  # seconds between progress lines on a terminal


class _Progress:
    """``checking pig.py: 57 of 200 games`` on stderr, rewritten in place, on a terminal only."""

    def __init__(self, file: str, total: int):
        self.file, self.total = file, total
        self.shown = sys.stderr.isatty()
        self.last = 0.0

    def say(self, what: str, done: int | None = None, total: int | None = None) -> None:
        """``what``, with ``done`` of ``total`` when given (at most every PROGRESS_EVERY s)."""
        if not self.shown or (done and time.monotonic() - self.last < PROGRESS_EVERY):
            return
        self.last = time.monotonic()
        count = f" {done:,} of {total:,}" if done is not None else ""
        sys.stderr.write(f"\rchecking {self.file}: {what}{count}\033[K")
        sys.stderr.flush()

    def done(self) -> None:
        if self.shown:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


def check_game(
    file: Annotated[str, typer.Argument(help="The game file (my_game.py).")],
    games: Annotated[
        int, typer.Option("--games", "-n", help="Random games to play with every check on.")
    ] = 200,
    players: PlayersOpt = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the first game.")] = 0,
    set_: SetOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
    call_limit: CallLimitOpt = CALL_LIMIT,
) -> None:
    """Check a game file's promises by playing it: random games with every check on.

    It fails in one line naming the function, the game's seed and the step: no legal action at
    a decision, actions that change order between calls, chance probabilities negative or not
    summing to 1, a seat outside the game, winners naming a seat twice or outside the game, a
    game not over within max_moves, the same seed giving another game, a sample_chance that
    ignores its rng, apply changing a copy of the state it was given (a list shared between
    states), determinize changing what the seat observes or never dealing anything anew,
    scores not one number per seat, measures that are not numbers, a policy answering an
    illegal action, a call or game running past --call-limit. Then each of the file's policies
    plays a few checked games, greedy and mcts one game each (with their time per decision),
    and the speed `simulate` reaches with one job is measured.

    Every other command runs the same checks on the first games it plays. Example:
    balance check-game examples/pig.py --games 500
    """
    from simulator.contract.policy import parse_policy
    from simulator.contract.registry import get_game, is_game_file
    from simulator.contract.rules import build_rules
    from simulator.games.own_game import fairness, watchdog
    from simulator.games.own_game.checks import check_games, policy_game
    from simulator.games.own_game.spec import policy_chooser, value_verdict

    if not is_game_file(file):
        raise BalanceError(f"check-game takes a game file (my_game.py), not {file!r}")
    if games < 1:
        raise BalanceError(f"--games must be at least 1, not {games}")
    spec = get_game(file)
    game = spec.game_file  # type: ignore[attr-defined]
    n = players if players is not None else spec.default_players
    spec.check_players(n)
    rules, _ = build_rules(spec.rules_class, None, set_)
    values = rules.to_dict()
    progress = _Progress(file, games)
    try:
        check_games(game, values, n, games, seed,
                    progress=lambda done: progress.say("random games", done, games))  # fmt: skip
        own = [p for p in spec.policies.values() if p.source]
        for p in own:
            chooser = policy_chooser(game, parse_policy(p.name, spec.policies, spec.id), n)
            check_games(game, values, n, POLICY_GAMES, seed, [chooser] * n,
                        progress=lambda done, name=p.name: progress.say(name, done, POLICY_GAMES),
                        )  # fmt: skip
        with watchdog.watching(game.path):
            unfair = fairness.determinize_deals_nothing(game, values, n)
        if unfair:
            raise BalanceError(unfair)
        played = {}
        for name in ("greedy", "mcts"):
            refusal = spec.refusal(name)
            if refusal:
                played[name] = {"refused": refusal}
                continue
            progress.say(f"one game of {name} at every seat")
            chooser = policy_chooser(game, parse_policy(name, spec.policies, spec.id), n, values)
            result = policy_game(game, values, n, name, chooser, seed)
            played[name] = {
                "decisions": result.decisions,
                "seconds_per_decision": result.seconds_per_decision,
                "finished": result.finished,
            }
            if name == "mcts" and (verdict := value_verdict(game, values, n)):
                played[name]["value"] = verdict
        progress.say("the speed of simulate")
        speed = _simulate_speed(file, n, set_)
    finally:
        progress.done()
    result = {
        "file": file,
        "game": spec.id,
        "players": n,
        "games": games,
        "seed": seed,
        "policies_checked": [p.name for p in own],
        "played": played,
        "games_per_second": round(speed["games_per_second"], 1),
        "speed_policy": speed["policy"],
    }
    if as_json:
        print_json(result)
        return
    typer.echo(
        f"{file}: {games:,} random games of {spec.title} ({n} players, seeds {seed} to "
        f"{seed + games - 1}) with every check on, each played twice: every promise kept."
    )
    if own:
        typer.echo(
            f"policies {', '.join(p.name for p in own)}: {POLICY_GAMES} checked games each, "
            "every answer legal."
        )
    for name, what in played.items():
        typer.echo(f"{name}: {_played_words(what, n)}.")
    typer.echo(
        f"speed: {speed['games_per_second']:,.0f} games/s with {speed['policy']} at every seat: "
        "what `simulate` reaches with one job."
    )


def _played_words(what: dict[str, Any], n_players: int) -> str:
    if "refused" in what:
        return f"refused: {what['refused']}"
    per = what["seconds_per_decision"]
    if per < 0.001:
        time_words = f"{per * 1e6:,.0f} µs"
    elif per < 1:
        time_words = f"{per * 1000:,.1f} ms"
    else:
        time_words = f"{per:,.1f} s"
    value = f"; its value {what['value']}" if "value" in what else ""
    if not what["finished"]:
        from simulator.games.own_game.checks import POLICY_GAME_SECONDS

        return (
            f"the first {what['decisions']:,} decisions of a checked game at all {n_players} "
            f"seats, {time_words} per decision (stopped there, after {POLICY_GAME_SECONDS:g} s)"
            + value
        )
    return (
        f"one checked game played at all {n_players} seats, {what['decisions']:,} decisions, "
        f"{time_words} per decision{value}"
    )


def _simulate_speed(file: str, n_players: int, sets: list[str] | None) -> dict[str, Any]:
    """Games per second through the path `simulate` takes with one job (its default seats, the
    chunk played and encoded as a part), for at least ``SPEED_SECONDS``."""
    from simulator.runs.plan import encoded_chunk, plan_run
    from simulator.runs.requests import PlayRequest

    config = plan_run(PlayRequest(file, 1, players=n_players, sets=sets))
    encoded_chunk(config, (0, 0, 1), "speed")  # the first call's one-off costs left out
    played, size, start = 0, 16, time.perf_counter()
    while time.perf_counter() - start < SPEED_SECONDS:
        encoded_chunk(config, (played // size + 1, played, size), "speed")
        played += size
        size = min(size * 2, 4096)
    return {
        "games_per_second": played / (time.perf_counter() - start),
        "policy": config.policy_labels[0],
    }
