"""Each game's decisions for policies from a file (``--policy-file``): a built-in policy copied
into a file plays game for game as the built-in, the worked examples load and play, and The
Crew's outside policies see only their seat's view.

Slow: each game compiles its engine's path for outside policies once (then it is cached).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from simulator.runs.plan import plan_run, play_chunk
from simulator.runs.requests import PlayRequest

ROOT = Path(__file__).resolve().parents[1]
FILES = ROOT / "tests" / "policy_files"
EXAMPLES = ROOT / "docs" / "examples"

pytestmark = pytest.mark.slow


def _games(game, policies, n, policy_file=None, **kw):
    config = plan_run(game, n, policies=policies, seed=3, policy_file=policy_file, **kw)
    return play_chunk(config, 0, 0, n).drop("policies")


@pytest.mark.parametrize(
    ("game", "builtin", "copy", "file", "players"),
    [
        ("caza-tesoros", "greedy", "greedy_copy", "caza_greedy_copy.py", 4),
        ("pirateer", "runner", "runner_copy", "pirateer_runner_copy.py", 2),
        ("crew-deep-sea", "heuristic", "heuristic_view", "crew_heuristic_view.py", 4),
        ("crew-deep-sea", "heuristic", "heuristic_view", "crew_heuristic_view.py", 3),
        ("pedruscos", "lookahead", "lookahead_copy", "pedruscos_lookahead_copy.py", 3),
        ("cape-horn", "planner", "planner_copy", "cape_horn_planner_copy.py", 3),
    ],
)
def test_a_copied_builtin_plays_game_for_game_as_the_builtin(game, builtin, copy, file, players):
    """Mixed with a built-in seat too: each seat goes its own way through the engine."""
    n = 300
    a = _games(game, [builtin], n, players=players)
    for seats in ([copy], [builtin] + [copy] * (players - 1)):
        b = _games(game, seats, n, FILES / file, players=players)
        assert a.equals(b), (game, seats)


def test_a_cape_horn_policy_may_decline_a_station_token():
    """The token is the seat's choice ("el jugador puede tomar una ficha"). The planner
    declining every zone III token never holds one and never wins by three stations; the same
    games under the planner take zone III tokens."""
    file = FILES / "cape_horn_planner_copy.py"
    a = _games("cape-horn", ["planner"], 60, players=3)
    b = _games("cape-horn", ["planner_no_zone3"], 60, file, players=3)
    assert (a["cape_horn_token_zone3"].list.max() >= 0).any()
    assert (b["cape_horn_token_zone3"].list.max() == -1).all()
    assert "three_stations" in a["end_reason"].to_list()
    assert "three_stations" not in b["end_reason"].to_list()


def test_the_crew_outside_policies_see_no_hidden_card():
    """A policy that plays differently whenever its view shows a card of another hand that was
    never communicated plays exactly as the same policy without that test, with 3, 4 and 5
    members and with the 2-player dummy (whose face-down cards the captain must not see)."""
    for players in (2, 3, 4, 5):
        file = FILES / "crew_heuristic_view.py"
        a = _games("crew-deep-sea", ["heuristic_view"], 200, file, players=players)
        b = _games("crew-deep-sea", ["peeker"], 200, file, players=players)
        assert a.equals(b), players


def test_the_crew_seat_view_hides_other_hands_and_secret_predictions():
    from simulator.games.crew_deep_sea import state as S
    from simulator.games.crew_deep_sea.board import task_table
    from simulator.games.crew_deep_sea.outside import HIDDEN_OWNER, seat_view

    t = task_table()
    owners = np.arange(S.NC, dtype=np.int64) % 4
    s = S.new_state(4, owners, 0)
    s[S.O_COMMBY + 5] = 1  # seat 1 communicated card 5
    v = seat_view(s, 0, t.ctype, t.params)
    for c in range(S.NC):
        if owners[c] == 0 or c == 5:
            assert v[S.O_OWNER + c] == owners[c]
        else:
            assert v[S.O_OWNER + c] == HIDDEN_OWNER
    assert s[S.O_OWNER + 1] == 1  # the engine's state is untouched


@pytest.mark.parametrize(
    ("game", "policies", "players"),
    [
        ("caza-tesoros", ["robot_first", "fair_weather", "greedy"], 3),
        ("pirateer", ["safe_runner", "greedy_capture"], 2),
        ("pedruscos", ["branch_builder", "hauler"], 2),
        ("crew-deep-sea", ["silent", "dumper", "heuristic"], 3),
        ("cape-horn", ["hoarder", "planner"], 2),
    ],
)
def test_the_worked_examples_load_and_play(game, policies, players):
    example = EXAMPLES / f"{game.replace('-', '_')}_policy.py"
    games = _games(game, policies, 200, example, players=players)
    column = "success" if game == "crew-deep-sea" else "winner"
    assert games.height == 200 and games[column].n_unique() > 1


def test_a_parameter_from_the_file_changes_play():
    example = EXAMPLES / "pirateer_policy.py"
    calm = _games("pirateer", ["safe_runner:fear=0", "runner"], 200, example, players=2)
    afraid = _games("pirateer", ["safe_runner:fear=20", "runner"], 200, example, players=2)
    assert not calm["length"].equals(afraid["length"])


def test_a_run_with_a_policy_file_replays_game_for_game(tmp_path):
    """`balance replay RUN -i I` of a run with outside seats plays them from the file kept in the
    manifest (the file itself may be gone) and gives the run's row."""
    from simulator.runs.replay import replay_run, replay_seed
    from simulator.runs.runner import run

    source = tmp_path / "mine.py"
    source.write_text((FILES / "pirateer_runner_copy.py").read_text())
    out = tmp_path / "run"
    run(plan_run("pirateer", 20, policies=["runner_copy", "hunter"], seed=5,
                 policy_file=source, players=2), out, jobs=1)  # fmt: skip
    seed = None
    for i in (0, 7, 19):
        game = replay_run(out, i)  # refused if the replayed row differs from the run's
        assert game.events and game.row["game_index"][0] == i
        seed = int(game.row["seed"][0])
    source.unlink()
    assert replay_run(out, 19).row.equals(game.row)
    again = replay_seed(
        PlayRequest(
            "pirateer",
            seed=seed,
            players=2,
            policies=["runner_copy", "hunter"],
            policy_file=FILES / "pirateer_runner_copy.py",
        )
    )
    assert again.events == game.events
