"""The engine contract (simulator/contract/registry.py), checked for every registered game.

A game gets all of these by registering: its columns and dtypes, the prefix rule for its own
columns, end reasons in range, one game replayed alone from its seed, compiled equal to
interpreted, every rule default accepted by `--set`, every policy playing, the board export,
a report built from a small run, and its replay: every game of the run played again with
recording on equals its row, and its events decode, print and draw. A game that declares the
search player (`mcts`) gets the search's checks too: legal games with the search in every seat,
the same games from the same seed, replays, and compiled equal to interpreted.
"""

from __future__ import annotations

import importlib
import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from numba import njit

import tests.coop_game  # noqa: F401  (registers the cooperative test game)
from reports.build import write_report
from simulator.contract.boards import Board
from simulator.contract.policy import engine_arrays, parse_policy
from simulator.contract.registry import available, get_game
from simulator.runs.plan import chunk_seeds, plan_run
from simulator.runs.replay import replay_run, replay_seed, run_row
from simulator.runs.requests import PlayRequest
from simulator.runs.runner import run

GAMES = sorted(available())
ROOT = Path(__file__).resolve().parents[1]
COMMON = {
    "game": pl.String,
    "variant": pl.String,
    "seed": pl.Int64,
    "game_index": pl.Int64,
    "n_players": pl.Int8,
    "policies": pl.List(pl.String),
    "winner": pl.Int8,
    "success": pl.Boolean,
    "length": pl.Int64,
    "end_reason": pl.String,
    "scores": pl.List,
    "win_share": pl.List,
}
OUTCOME = {"place", "returns"}  # the outcome model's columns a game has only where they apply
N = 6  # games per check: enough to cover a few end reasons, cheap for the slowest engine
SEARCH_PLAYOUTS = 4  # the search player's budget in these checks
# Games whose engines do not record yet (`balance replay`); a game leaves this set when its
# `GameSpec.replay` is declared, and then every registered game must be replayable.
NOT_YET_REPLAYED: set[str] = set()


def _prefixes(game: str) -> tuple[str, ...]:
    """caza-tesoros: caza_ or caza_tesoros_ (a column is prefixed with the id's leading words)."""
    words = game.split("-")
    return tuple("_".join(words[:i]) + "_" for i in range(1, len(words) + 1))


def _cheap(spec, name: str) -> str:
    """A policy at a test's budget: the search player with a handful of simulations."""
    params = {p.name for p in spec.policies[name].params}
    return f"{name}:playouts={SEARCH_PLAYOUTS}" if "playouts" in params else name


def _raw(
    game: str,
    seeds: np.ndarray,
    players: int | None = None,
    policies: list[str] | None = None,
    sets: dict[str, str] | None = None,
) -> dict[str, np.ndarray]:
    config = plan_run(game, len(seeds), players=players, policies=policies, sets=sets)
    ids, params = engine_arrays(list(config.seats))
    return config.spec.play_chunk(config.rules, config.n_players, ids, params, seeds)


@pytest.fixture(scope="module", params=GAMES)
def played(request, tmp_path_factory):
    """A small run of each game with its defaults, and the engine's raw columns."""
    game = request.param
    folder = run(plan_run(game, N, seed=3), tmp_path_factory.mktemp(game) / "run", jobs=1)
    return game, folder, folder.scan().collect()


def test_common_columns_and_dtypes(played):
    game, _, table = played
    spec = get_game(game)
    assert table.height == N
    for name, dtype in COMMON.items():
        assert name in table.columns, f"{game}: column {name} missing"
        if dtype is pl.List:
            assert isinstance(table.schema[name], pl.List)
        else:
            assert table.schema[name] == dtype, f"{game}: {name} is {table.schema[name]}"
    assert table["end_reason"].is_in(list(spec.end_reasons)).all()
    assert (table["length"] >= 0).all()
    assert table["scores"].list.len().eq(table["n_players"].cast(pl.UInt32)).all()
    if spec.cooperative:
        assert table["success"].null_count() == 0
    else:
        assert table["winner"].drop_nulls().is_between(0, table["n_players"].max() - 1).all()


def test_every_seat_ending_agrees_with_the_winner_column(played):
    """The outcome model (``simulator.contract.outcomes``): a sole winner holds the whole win and
    first place, a game nobody won gives nobody a share, places run from 1 to the seats; a
    cooperative success is every seat's win and has no places."""
    game, _, table = played
    spec = get_game(game)
    for row in table.iter_rows(named=True):
        shares, n = row["win_share"], row["n_players"]
        assert len(shares) == n
        if spec.cooperative:
            assert shares == [1.0 if row["success"] else 0.0] * n
            assert "place" not in table.columns
            continue
        if row["winner"] is not None:
            assert shares[row["winner"]] == 1.0 and sum(shares) == 1.0
            assert row["place"][row["winner"]] == 1
        else:
            # nobody won (no share) or seats shared the win (shares of 1/k summing to 1)
            assert sum(shares) == 0.0 or (abs(sum(shares) - 1.0) < 1e-9 and max(shares) < 1.0)
        assert all(1 <= p <= n for p in row["place"])
        assert min(row["place"]) == 1
    assert ("returns" in table.columns) == spec.has_returns


def test_own_columns_carry_the_game_prefix_and_are_declared(played):
    game, _, table = played
    spec = get_game(game)
    own = [c for c in table.columns if c not in COMMON and c not in OUTCOME]
    drama = {"lead_changes", "half_leader"}
    for name in own:
        assert name in drama or name.startswith(_prefixes(game)), f"{game}: column {name}"
    for name in spec.columns:
        assert name in table.columns, f"{game}: declared column {name} not returned"
    for name in spec.heatmaps:
        assert name in table.columns, f"{game}: heatmap column {name} not returned"


def test_raw_columns_have_one_entry_per_game(played):
    game, _, _ = played
    spec = get_game(game)
    seeds = chunk_seeds(5, 0, N)
    raw = _raw(game, seeds)
    for name, values in raw.items():
        if isinstance(values, pl.Series):
            assert len(values) == N, name
        else:
            assert np.asarray(values).shape[0] == N, name
    reasons = np.asarray(raw["end_reason"])
    assert reasons.dtype.kind == "i" and ((reasons >= 0) & (reasons < len(spec.end_reasons))).all()
    assert np.asarray(raw["length"]).dtype.kind == "i"
    assert np.asarray(raw["winner"]).dtype.kind == "i"


def test_one_game_replays_alone_from_its_seed(played):
    game, _, _ = played
    seeds = chunk_seeds(11, 0, N)
    whole = _raw(game, seeds)
    alone = _raw(game, seeds[3:4])
    for name in ("winner", "length", "end_reason", "scores"):
        assert np.array_equal(np.asarray(whole[name])[3], np.asarray(alone[name])[0]), name


def test_compiled_equals_interpreted(played, tmp_path):
    """The same few games under NUMBA_DISABLE_JIT=1 (a separate process) give the same rows."""
    game, _, _ = played
    seeds = chunk_seeds(17, 0, 3)
    compiled = _raw(game, seeds)
    (interpreted,) = _interpreted(tmp_path, [(game, seeds, {})])
    for name, values in compiled.items():
        if not hasattr(values, "to_list"):  # the engine's arrays (not columns built in Python)
            assert _rows(values) == interpreted[name], name


def _rows(values) -> list:
    """A column as plain lists, one entry per game (list columns too)."""
    return [np.asarray(x).tolist() for x in values]


def _interpreted(tmp_path: Path, runs: list[tuple[str, np.ndarray, dict]]) -> list[dict]:
    """``_raw(game, seeds, **kwargs)`` of each run under NUMBA_DISABLE_JIT=1 (one separate
    process for them all), every column as ``_rows``."""
    out = tmp_path / "interpreted.pkl"
    calls = ", ".join(f"({g!r}, {s.tolist()}, {k!r})" for g, s, k in runs)
    code = (
        "import pickle, numpy as np\n"
        "import tests.conftest, tests.coop_game\n"
        "from tests.test_game_contract import _raw, _rows\n"
        f"runs = [{calls}]\n"
        "cols = [_raw(g, np.array(s, dtype=np.uint32), **k) for g, s, k in runs]\n"
        "rows = [{k: _rows(v) for k, v in c.items()} for c in cols]\n"
        f"pickle.dump(rows, open({str(out)!r}, 'wb'))\n"
    )
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "PYTHONPATH": str(ROOT)}
    subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd=ROOT, timeout=900)
    return pickle.loads(out.read_bytes())


def test_every_rule_default_is_accepted_by_set(played):
    game, _, _ = played
    rules_class = get_game(game).rules_class
    defaults = rules_class()
    for info in rules_class.options():
        value = info.default
        text = ",".join(map(str, value)) if isinstance(value, tuple) else str(value)
        assert defaults.with_values({info.name: text}) == defaults, info.name


def test_every_policy_plays(played):
    game, _, _ = played
    spec = get_game(game)
    for name in spec.policies:
        if spec.refusal(name):  # a policy this game cannot play is refused in one line
            assert "\n" not in spec.refusal(name)
            continue
        config = plan_run(game, 2, policies=[_cheap(spec, name)])
        ids, params = engine_arrays(list(config.seats))
        out = spec.play_chunk(config.rules, config.n_players, ids, params, chunk_seeds(2, 0, 2))
        assert np.asarray(out["length"]).shape == (2,), name


def test_board_export(played):
    game, _, table = played
    spec = get_game(game)
    if spec.board is None:
        assert not spec.heatmaps, f"{game} declares heatmaps but no board"
        return
    board = spec.board(spec.rules_class())
    assert isinstance(board, Board) and board.cells
    data = json.loads(json.dumps(board.as_json(game)))
    assert data["game"] == game and len(data["cells"]) == len(board.cells)
    assert all({"id", "kind", "x", "y", "neighbours"} <= set(c) for c in data["cells"])
    for name in spec.heatmaps:
        column = table[name]
        if name.endswith("_by_cell"):  # counts: one entry per cell
            assert column.list.len().eq(len(board.cells)).all(), name
        else:  # events: the cell of each event
            cells = column.explode().drop_nulls()
            assert cells.is_between(0, len(board.cells) - 1).all(), name


def test_a_report_is_built(played, tmp_path):
    game, folder, _ = played
    data = write_report([folder.path], tmp_path / "report.html")
    html = (tmp_path / "report.html").read_text()
    assert get_game(game).title in html
    assert data["headline"]
    assert "could not be built" not in html


def test_replay_is_declared(played):
    game, _, _ = played
    declared = get_game(game).replay is not None
    if game in NOT_YET_REPLAYED:
        assert not declared, f"{game} replays now: remove it from NOT_YET_REPLAYED"
    else:
        assert declared, f"{game} declares no GameSpec.replay"


def test_replay_equals_the_run_row(played):
    """Recording changes nothing: each game of the run, replayed alone, is the game of its row."""
    game, folder, table = played
    if get_game(game).replay is None:
        pytest.skip(f"{game} does not record yet")
    for i in range(N):
        replay = replay_run(folder.path, i)
        row = run_row(folder, i)
        assert replay.row.columns == row.columns
        assert replay.row.equals(row), f"{game}: game {i}"
        result = replay.result()
        assert result["length"] == row["length"][0]
        assert result["end_reason"] == row["end_reason"][0]
        assert result["scores"] == row["scores"].to_list()[0]
        who = "success" if get_game(game).cooperative else "winner"
        assert result[who] == row[who][0]


def test_replay_events_decode_print_and_draw(played):
    game, folder, table = played
    spec = get_game(game)
    if spec.replay is None:
        pytest.skip(f"{game} does not record yet")
    n_players = table["n_players"][0]
    for i in range(2):
        replay = replay_run(folder.path, i)
        rows, events = replay.rows, replay.events
        if spec.compiled:  # a compiled engine's event rows; a game file's are its moves
            assert rows.dtype == np.int64 and rows.ndim == 2 and 3 <= rows.shape[1] <= 12
        assert len(events) == len(rows) > 0
        for ev, raw in zip(events, rows, strict=True):
            assert list(ev)[:3] == ["step", "player", "kind"], ev
            if spec.compiled:
                assert (ev["step"], ev["player"]) == (raw[1], raw[2])
            assert isinstance(ev["kind"], str) and -1 <= ev["player"] < n_players
            line = spec.replay.text(ev)
            assert line and "\n" not in line
        json.dumps(replay.as_json())  # JSON values only
        assert replay.text().count("\n") == len(events) + 1
        if spec.replay.frames is not None:
            assert spec.board is not None, f"{game} draws frames but has no board"
            n_cells = len(spec.board(replay.rules).cells)
            frames = spec.replay.frames(replay.rules, n_players, rows, events)
            assert len(frames) == len(events) + 1
            for frame in frames:
                for piece in frame["pieces"]:
                    assert 0 <= piece["cell"] < n_cells and -1 <= piece["seat"] < n_players
                assert all(0 <= c < n_cells for c in frame["marks"])
        if spec.replay.table is not None:
            view = spec.replay.table(replay.rules, n_players, rows, events)
            assert len(view["rows"]) == len(view["event_of_row"])
            assert all(len(r) == len(view["columns"]) for r in view["rows"])
            assert all(0 <= e < len(events) for e in view["event_of_row"])
        assert spec.replay.frames is not None or spec.replay.table is not None


def test_replay_from_a_seed_is_the_game_of_that_seed(played):
    game, _, table = played
    if get_game(game).replay is None:
        pytest.skip(f"{game} does not record yet")
    seed = int(table["seed"][1])
    replay = replay_seed(PlayRequest(game, seed=seed))
    assert replay.row.drop("game_index").equals(table[1].drop("game_index"))


# -- the search player (every game that declares `mcts`) ------------------------------------------
SEARCHING = sorted(g for g in GAMES if get_game(g).searches)
# The compiled engines' own search checks (their checked single game, the `searching` switch).
COMPILED_SEARCHING = [g for g in SEARCHING if get_game(g).compiled]


def _search_seats(game: str, playouts: int = SEARCH_PLAYOUTS) -> list[str]:
    return [f"mcts:playouts={playouts}", get_game(game).best_heuristic]


SHORT = 5  # the run limits of a game played interpreted: a few turns, rounds or days


def _short(game: str) -> dict[str, str]:
    """The game's run limits (the `max_*` integer options `balance explore` does not screen: a
    safety cap on turns, rounds or days) at ``SHORT``, so that a game stops after a few of them."""
    return {
        info.name: str(max(SHORT, int(info.lo or 1)))
        for info in get_game(game).rules_class.options()
        if not info.screen and info.type == "int" and info.name.startswith("max_")
    }


@pytest.mark.parametrize("game", COMPILED_SEARCHING)
def test_search_player_plays_legal_games_in_every_seat(game):
    """The engine's checked single game (``play_one``: every invariant after every turn) finds
    nothing wrong whichever seat searches."""
    spec = get_game(game)
    engine = importlib.import_module(spec.play_chunk.__module__)
    search, other = _search_seats(game)
    for seed, seats in enumerate(([search, other], [other, search])):
        config = plan_run(game, 1, players=2, policies=seats)
        ids, params = engine_arrays(list(config.seats))
        out = engine.play_one(config.rules, 2, ids, params, seed)
        assert out["problems"] == 0, (seats, seed)
        assert 0 <= out["end_reason"] < len(spec.end_reasons)
        assert -1 <= out["winner"] < 2


def _same_columns(a: dict, b: dict, row: int | None = None) -> None:
    for name, values in a.items():
        left = _rows(values) if row is None else _rows(values)[row : row + 1]
        assert left == _rows(b[name]), name


@pytest.mark.parametrize("game", SEARCHING)
def test_search_player_is_reproducible_from_the_seed(game):
    """The search's simulations draw from the game's own randomness: the same seeds play the same
    games, and a game played alone is the game of its row in a chunk."""
    seats = _search_seats(game)
    seeds = chunk_seeds(5, 0, 3)
    whole = _raw(game, seeds, players=2, policies=seats)
    _same_columns(whole, _raw(game, seeds, players=2, policies=seats))
    _same_columns(whole, _raw(game, seeds[2:3], players=2, policies=seats), row=2)


@pytest.mark.parametrize("game", SEARCHING)
def test_search_player_replays_its_games(game, tmp_path):
    """`balance replay` plays a search player's game again, the game of its row."""
    config = plan_run(game, 2, players=2, policies=_search_seats(game), seed=4)
    folder = run(config, tmp_path / "run", jobs=1)
    for i in range(2):
        replay = replay_run(folder.path, i)
        assert replay.row.equals(run_row(folder, i)), f"{game}: game {i}"


@pytest.mark.slow
def test_search_player_compiled_equals_interpreted(tmp_path):
    """A short game (``_short``) of each searching game, a seat searching, under
    NUMBA_DISABLE_JIT=1 (one separate process for them all) is the same game."""
    seeds = chunk_seeds(9, 0, 1)
    runs = [
        (game, seeds, {"players": 2, "policies": _search_seats(game, 2), "sets": _short(game)})
        for game in COMPILED_SEARCHING
    ]
    for (game, _, kwargs), interpreted in zip(runs, _interpreted(tmp_path, runs), strict=True):
        compiled = _raw(game, seeds, **kwargs)
        assert compiled.keys() == interpreted.keys(), game
        for name, values in compiled.items():
            assert _rows(values) == interpreted[name], (game, name)


def _switch_signatures(runs: list[tuple[str, list[str]]], switch: str = "searching") -> dict:
    """In a fresh process: play one game of each (game, seats), then list, per compiled function
    with a ``switch`` argument (``searching``: the engines' switch for the search), the types it
    was compiled (or loaded from the JIT cache) with."""
    code = (
        "import inspect, json, sys\n"
        "from numba.core.dispatcher import Dispatcher\n"
        "from simulator.contract.registry import get_game\n"
        "from simulator.runs.plan import chunk_seeds, plan_run\n"
        "from simulator.contract.policy import engine_arrays\n"
        f"for game, seats in {runs!r}:\n"
        "    spec = get_game(game)\n"
        "    config = plan_run(game, 1, players=2, policies=seats)\n"
        "    ids, params = engine_arrays(list(config.seats))\n"
        "    spec.play_chunk(config.rules, 2, ids, params, chunk_seeds(1, 0, 1))\n"
        "found = {}\n"
        "for name, module in list(sys.modules.items()):\n"
        "    for fname, f in list(vars(module).items()):\n"
        "        if not isinstance(f, Dispatcher) or f.__module__ != name:\n"
        "            continue\n"
        "        args = list(inspect.signature(f.py_func).parameters)\n"
        f"        if {switch!r} in args:\n"
        f"            at = args.index({switch!r})\n"
        "            found[name + '.' + fname] = sorted(\n"
        "                {str(s[at]) if len(s) > at else 'omitted' for s in f.signatures})\n"
        "print(json.dumps(found))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True,
        timeout=900, check=True,
    )  # fmt: skip
    return json.loads(done.stdout.strip().splitlines()[-1])


def _switched_off(numba_type: str) -> bool:
    """``searching`` typed None, or left out (numba's ``omitted(default=None)``)."""
    return numba_type == "none" or numba_type.startswith("omitted")


def test_runs_without_the_search_never_compile_it():
    """A run with no `mcts` seat compiles its engine with the search switched off (``searching``
    typed None, so numba prunes the search away), and a run with one switches it on."""
    without = _switch_signatures([(g, [get_game(g).best_heuristic]) for g in COMPILED_SEARCHING])
    for game in COMPILED_SEARCHING:
        package = "simulator.games." + game.replace("-", "_") + "."
        engine = {k: v for k, v in without.items() if k.startswith(package) and v}
        assert engine, f"{game}: no compiled function takes the `searching` switch"
        for name, types_seen in engine.items():
            assert all(_switched_off(t) for t in types_seen), (name, types_seen)
    first = COMPILED_SEARCHING[0]
    with_search = _switch_signatures([(first, _search_seats(first))])
    switched = [v for v in with_search.values() if any(not _switched_off(t) for t in v)]
    assert switched, "a run with an mcts seat should switch the search on"


# -- the search's evaluation and self-play hooks (every game that declares them) -----------------
HOOKED = [g for g in COMPILED_SEARCHING if get_game(g).search_hooks is not None]


def _best_seats(game: str, players: int):
    spec = get_game(game)
    best = parse_policy(spec.best_heuristic, spec.policies, spec.id)
    return np.full(players, best.policy.id, dtype=np.int64), np.stack([best.row()] * players)


@pytest.mark.parametrize("game", HOOKED)
def test_recorded_positions_are_what_a_fit_needs(game):
    spec = get_game(game)
    hooks = spec.search_hooks
    ids, params = _best_seats(game, 3 if spec.max_players >= 3 else 2)
    feats, winner, index = hooks.record(spec.rules_class(), len(ids), ids, params, 6, 3)
    feats, winner, index = np.asarray(feats), np.asarray(winner), np.asarray(index)
    assert feats.ndim == 3 and feats.shape[1:] == (len(ids), len(hooks.features))
    assert len(winner) == len(index) == feats.shape[0] > 6
    assert np.isfinite(feats).all()
    assert ((winner >= -1) & (winner < len(ids))).all()
    assert set(index.tolist()) == set(range(6))  # every game gives positions
    assert (feats.std(axis=(0, 1)) > 0).sum() >= len(hooks.features) // 2  # features vary


@njit(cache=True)
def _next_game_draw() -> int:
    return np.random.randint(0, 2**31 - 1)


@pytest.mark.parametrize("game", HOOKED)
def test_the_search_leaves_the_game_stream_where_any_budget_would(game):
    """The search draws from a stream of its own: after a decision, the real game's next draw is
    the same at 4 and at 16 simulations; and a decision is the same from the same seed."""
    spec = get_game(game)
    hooks = spec.search_hooks
    ids, params = _best_seats(game, 2)
    rules = spec.rules_class()
    mcts = spec.policies["mcts"]
    row = parse_policy("mcts", spec.policies, spec.id).row()
    at = [p.name for p in mcts.params].index("playouts")
    for decision in hooks.bank(rules, 2, ids, params, 3, 8):
        after = set()
        for budget in (4, 16):
            row[at] = budget
            hooks.decide(rules, decision, mcts.id, row, 11)
            after.add(_next_game_draw())
        assert len(after) == 1, game
        assert hooks.decide(rules, decision, mcts.id, row, 5) == hooks.decide(
            rules, decision, mcts.id, row, 5
        )


@pytest.mark.parametrize("game", HOOKED)
def test_a_run_records_its_evaluation(game, tmp_path):
    """A search player with a horizon scores with the evaluation fitted to the run's rules; the
    run's manifest records it (coefficients, games, held-out quality) and its key."""
    seats = [f"mcts:playouts={SEARCH_PLAYOUTS},horizon=2", get_game(game).best_heuristic]
    config = plan_run(game, 1, players=2, policies=seats)
    folder = run(config, tmp_path / "run", jobs=1)
    manifest = json.loads((folder.path / "manifest.json").read_text())
    found = manifest["evaluation"]
    assert set(found["coefficients"]) == set(get_game(game).search_hooks.features)
    assert found["games"] > 0 and found["log_loss"] < found["constant_log_loss"]
    assert manifest["config"]["evaluation"] == found["key"]
