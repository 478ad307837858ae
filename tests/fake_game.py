"""A game whose answers are known, for testing the toolkit's machinery and statistics.

Each game, seat ``s`` wins with probability proportional to ``weight_s`` (rule ``bias`` adds to
seat 0's weight); with probability ``draw`` nobody wins. Length is 10 + a geometric number of
rounds with mean ``extra_length``.

Drama columns (drawn after the outcome, so they never change it): the half-time leader is the
winner except with probability ``COMEBACK`` (then another seat, uniformly), and -1 in drawn
games; ``lead_changes`` is a Poisson(1) count plus one when the half-time leader lost.

It also shows a board from its own files only: a 3 x 3 square board, and ``fake_win_cells``
(the winner's home cell, cell = seat) as a heatmap; and it can be replayed: the engine records
the length drawn, the half-time leader and the outcome (``EV_*``), and the replay puts a piece on
the winner's home cell.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from simulator.contract.boards import Board, Cell
from simulator.contract.policy import PolicyDef, PolicyParam
from simulator.contract.recording import ReplayDef, no_recording, record, replay_by_chunk
from simulator.contract.registry import GameSpec
from simulator.contract.rules import RuleSet, option
from simulator.folders.run_folder import events_column

COMEBACK = 0.25  # known answer of the comeback rate among decided games
# Recorded events: (kind, round, player, a); a is the length for EV_LENGTH, else 0.
EV_LENGTH, EV_HALF, EV_WIN, EV_DRAW = range(4)
EVENT_KINDS = ("length", "half_time_leader", "win", "draw")
EVENT_WIDTH = 4


@dataclass(frozen=True)
class FakeRules(RuleSet):
    game_id = "fake"
    bias: float = option(0.0, "extra weight of seat 0", "test", lo=0.0, hi=10.0)
    draw: float = option(0.0, "probability nobody wins", "test", lo=0.0, hi=1.0)
    extra_length: float = option(5.0, "mean extra rounds", "test", lo=0.0, hi=100.0)
    mode: str = option("plain", "a choice", "test", choices=("plain", "fancy"))
    cap: int = option(50, "an integer", "test", lo=1, hi=1000)


POLICIES = {
    "random": PolicyDef("random", 0, "weight 1"),
    "strong": PolicyDef(
        "strong", 1, "weight 1 + skill", (PolicyParam("skill", 1.0, 0.0, 10.0, "extra weight"),)
    ),
}


@njit(cache=True)
def _play(bias, draw, extra_length, comeback, n_players, policy_ids, policy_params, seeds, rec,
          rec_n):  # fmt: skip
    n = seeds.shape[0]
    winner = np.full(n, -1, np.int64)
    length = np.zeros(n, np.int64)
    reason = np.zeros(n, np.int64)
    scores = np.zeros((n, n_players), np.int64)
    lead_changes = np.zeros(n, np.int64)
    half_leader = np.full(n, -1, np.int64)
    weights = np.ones(n_players)
    for s in range(n_players):
        if policy_ids[s] == 1:
            weights[s] += policy_params[s, 0]
    weights[0] += bias
    cum = np.cumsum(weights / weights.sum())
    for g in range(n):
        np.random.seed(seeds[g])
        length[g] = 10 + np.random.geometric(1.0 / (1.0 + extra_length)) - 1
        record(rec, rec_n, EV_LENGTH, 0, -1, length[g])
        if np.random.random() < draw:
            reason[g] = 1
            lead_changes[g] = np.random.poisson(1.0)
            record(rec, rec_n, EV_DRAW, length[g], -1)
            continue
        u = np.random.random()
        w = 0
        while w < n_players - 1 and u > cum[w]:
            w += 1
        winner[g] = w
        scores[g, w] = 1
        half_leader[g] = w
        if np.random.random() < comeback:
            half_leader[g] = (w + 1 + np.random.randint(0, n_players - 1)) % n_players
        lead_changes[g] = np.random.poisson(1.0) + (half_leader[g] != w)
        record(rec, rec_n, EV_HALF, length[g] // 2, half_leader[g])
        record(rec, rec_n, EV_WIN, length[g], w)
    return winner, length, reason, scores, lead_changes, half_leader


def play_chunk(rules, n_players, policy_ids, policy_params, seeds, rec=None, rec_n=None):
    if rec is None:
        rec, rec_n = no_recording(EVENT_WIDTH)
    winner, length, reason, scores, lead_changes, half_leader = _play(
        rules.bias,
        rules.draw,
        rules.extra_length,
        COMEBACK,
        n_players,
        policy_ids,
        policy_params,
        np.asarray(seeds, dtype=np.int64),
        rec,
        rec_n,
    )
    won = winner >= 0
    return {
        "fake_win_cells": events_column(winner[won], won.astype(np.int64)),
        "winner": winner,
        "length": length,
        "end_reason": reason,
        "scores": scores,
        "fake_total": scores.sum(axis=1),
        "lead_changes": lead_changes,
        "half_leader": half_leader,
    }


def board(rules: FakeRules) -> Board:
    """3 x 3 squares; seat s's home is cell s."""
    cells = []
    for i in range(9):
        x, y = i % 3, i // 3
        near = [j for j in range(9) if abs(j % 3 - x) + abs(j // 3 - y) == 1]
        kind = "home" if i < 6 else "sea"
        cells.append(Cell(i, kind, float(x), float(y), tuple(near), f"({x},{y})"))
    return Board(tuple(cells), "square")


def decode(rules, n_players, rows):
    out = []
    for kind, step, player, a in rows.tolist():
        ev = {"step": step, "player": player, "kind": EVENT_KINDS[kind]}
        if kind == EV_LENGTH:
            ev["length"] = a
        out.append(ev)
    return out


def text(ev):
    if ev["kind"] == "length":
        return f"the game will last {ev['length']} rounds"
    if ev["kind"] == "draw":
        return "nobody wins"
    if ev["player"] < 0:
        return "no leader at half time"
    return f"seat {ev['player'] + 1} {'wins' if ev['kind'] == 'win' else 'leads at half time'}"


def frames(rules, n_players, rows, events):
    """Empty board; the winner's piece on its home cell (cell = seat) once the game is won."""
    out = [{"pieces": [], "marks": []}]
    for kind, _, player, _ in rows.tolist():
        if kind == EV_WIN:
            piece = {"cell": player, "seat": player, "label": "W"}
            out.append({"pieces": [piece], "marks": [player]})
        else:
            out.append({"pieces": list(out[-1]["pieces"]), "marks": []})
    return out


SPEC = GameSpec(
    id="fake",
    title="Known-answer test game",
    min_players=2,
    max_players=6,
    default_players=3,
    cooperative=False,
    length_unit="rounds",
    end_reasons=("won", "drawn"),
    rules_class=FakeRules,
    policies=POLICIES,
    default_policy="random",
    play_chunk=play_chunk,
    columns={
        "fake_total": "number of winners (0 or 1)",
        "fake_win_cells": "home cell of the winner (none in a drawn game)",
    },
    board=board,
    heatmaps={"fake_win_cells": "where winners start"},
    replay=ReplayDef(
        play=replay_by_chunk(play_chunk, EVENT_WIDTH), decode=decode, text=text, frames=frames
    ),
)
