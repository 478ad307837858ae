"""`balance check-game FILE`: a designer's game file played at random with every check on."""

from __future__ import annotations

from typing import Annotated

import typer

from simulator.cli_types import PlayersOpt, SetOpt, print_json
from simulator.errors import BalanceError

POLICY_GAMES = 10  # games each of the file's own policies plays with the checks on


def check_game(
    file: Annotated[str, typer.Argument(help="The game file (my_game.py).")],
    games: Annotated[
        int, typer.Option("--games", "-n", help="Random games to play with every check on.")
    ] = 200,
    players: PlayersOpt = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the first game.")] = 0,
    set_: SetOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> None:
    """Check a game file's promises by playing it: random games with every check on.

    It fails in one line naming the function, the game's seed and the step: no legal action at
    a decision, actions that change order between calls, chance probabilities negative or not
    summing to 1, a seat outside the game, winners naming a seat twice or outside the game, a
    game not over within max_moves, the same seed giving another game, apply changing a copy
    of the state it was given (a list shared between states), determinize changing what the
    seat observes, measures that are not numbers, a policy answering an illegal action. Then
    each of the file's policies plays a few checked games, and the file's speed is measured.

    Every other command runs the same checks on the first games it plays. Example:
    balance check-game examples/pig.py --games 500
    """
    from simulator.games import get_game, is_game_file
    from simulator.own_game.checks import check_game as check
    from simulator.own_game.checks import check_games
    from simulator.own_game.spec import policy_chooser
    from simulator.policy import parse_policy
    from simulator.rules import build_rules

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
    report = check(game, values, n, games, seed)
    own = [p for p in spec.policies.values() if p.source]
    for p in own:
        chooser = policy_chooser(game, parse_policy(p.name, spec.policies, spec.id), n)
        check_games(game, values, n, POLICY_GAMES, seed, [chooser] * n)
    search = spec.refusal("mcts") or "searches through the file's functions"
    greedy = "plays" if not spec.refusal("greedy") else "refused: the file has no scores(state)"
    result = {
        "file": file,
        "game": spec.id,
        "players": n,
        "games": report.games,
        "seed": seed,
        "policies_checked": [p.name for p in own],
        "games_per_second": round(report.games_per_second, 1),
        "mcts": search,
        "greedy": greedy,
    }
    if as_json:
        print_json(result)
        return
    typer.echo(
        f"{file}: {report.games:,} random games of {spec.title} ({n} players, seeds {seed} to "
        f"{seed + report.games - 1}) with every check on, each played twice: every promise kept."
    )
    if own:
        typer.echo(
            f"policies {', '.join(p.name for p in own)}: {POLICY_GAMES} checked games each, "
            "every answer legal."
        )
    typer.echo(f"greedy: {greedy}; mcts: {search}.")
    typer.echo(
        f"speed: {report.games_per_second:,.0f} games/s of random play on one core "
        "(plain Python, no checks)."
    )
