"""The Crew's turn rules at every threshold: exactly at its value and one either side.

Each case cites the passage of the seed (`/work/shared/seeds/crew-deep-sea.txt`) or the task card
(`tasks.csv`) that fixes the threshold. Counters a verdict reads are set directly where playing
whole tricks would only hide the threshold.
"""

from __future__ import annotations

import numpy as np
import pytest

from policies.crew_deep_sea import HEURISTIC_P, could_hold, heuristic_params
from simulator.games.crew_deep_sea import engine as E
from simulator.games.crew_deep_sea import state as S
from simulator.games.crew_deep_sea import turn, verdicts
from simulator.games.crew_deep_sea.board import card, task_table
from simulator.games.crew_deep_sea.rules import Rules
from tests.crew_helpers import add_task, make_state, play_trick, seed_rng, task_state

T = task_table()
P, D, F = S.PENDING, S.DONE, S.FAILED
FOUR = [
    ["P1", "P2", "P5", "P7", "Y5", "G1", "G9", "B2", "B3", "S1"],
    ["P3", "P4", "Y1", "Y2", "Y3", "G2", "G3", "B4", "B5", "S2"],
    ["P6", "P8", "Y4", "Y6", "Y7", "G4", "G5", "B6", "B7", "S3"],
    ["P9", "Y8", "Y9", "G6", "G7", "G8", "B1", "B8", "B9", "S4"],
]


def won(s: np.ndarray, winners: list[int]) -> np.ndarray:
    """Trick ``t`` won by ``winners[t]``: the counters the trick-count verdicts read."""
    for t, w in enumerate(winners):
        s[S.O_TWINNER + t] = w
        s[S.O_TRICKS + w] += 1
    s[S.S_DONE] = len(winners)
    return s


def verdict_after(key: str, holder: int, winners: list[int], n_tricks: int | None = None) -> int:
    s = make_state(FOUR)
    if n_tricks is not None:
        s[S.S_NTRICKS] = n_tricks
    add_task(s, key, holder)
    won(s, winners)
    return task_state(s)


# -- communication -------------------------------------------------------------------------
@pytest.mark.parametrize(("tokens", "may"), [(0, False), (1, True), (2, True)])
def test_own_sonar_token(tokens, may):
    """Seed, Comunicación: "Una vez por misión" (one sonar token each)."""
    s = make_state(FOUR)
    s[S.O_SONAR + 1] = tokens
    assert turn.may_communicate(s, 1) == may


@pytest.mark.parametrize(("pool", "may"), [(0, False), (1, True), (2, True)])
def test_shared_tokens_until_the_last_is_used(pool, may):
    """Seed, Captura de las profundidades: "Una vez que se han utilizado todas las fichas de
    sonar, no se puede realizar ninguna otra comunicación"."""
    s = make_state(FOUR)
    s[S.S_COMM_MODE] = S.COMM_RAPTURE
    s[S.S_POOL] = pool
    assert turn.may_communicate(s, 0) == may


@pytest.mark.parametrize(("players", "pool"), [(3, 1), (4, 2), (5, 3)])
def test_rapture_puts_two_tokens_fewer_than_members(players, pool):
    """Seed, Captura de las profundidades: "coloca dos fichas de sonar menos en el centro de la
    mesa que miembros de la tripulación estén jugando" (mission 11)."""
    seed_rng(3)
    s, _ = E.setup_attempt(players, E.engine_inputs(Rules().with_values({"mission": 11}), players),
                           np.empty(S.MAX_TASKS, np.int64))  # fmt: skip
    assert s[S.S_COMM_MODE] == S.COMM_RAPTURE and s[S.S_POOL] == pool


@pytest.mark.parametrize(("pool", "several", "shown"), [(1, 1, 1), (2, 1, 2), (3, 1, 3), (3, 0, 1)])
def test_several_tokens_at_once_from_two_in_the_middle(pool, several, shown):
    """Seed, Captura de las profundidades: "Si hay dos o más fichas de sonar en el centro de la
    mesa, un miembro de la tripulación también puede comunicarse varias veces" (the rule
    ``rapture_several_per_phase``; off, one token per member and phase)."""
    s = make_state(FOUR)
    s[S.S_COMM_MODE] = S.COMM_RAPTURE
    s[S.S_POOL] = pool
    s[S.S_RAPTURE_SEVERAL] = several
    leader = int(s[S.S_LEADER])
    prm = np.array([heuristic_params(len(HEURISTIC_P)) for _ in range(4)])
    prm[:, HEURISTIC_P.comm_threshold] = 99.0
    prm[leader, HEURISTIC_P.comm_threshold] = 0.0  # only the leader wants to talk
    E.communication_phase(s, np.full(4, 1, np.int64), prm, T.ctype, T.params)
    assert sum(s[S.O_COMMBY + c] == leader for c in range(36)) == shown
    assert s[S.S_POOL] == pool - shown


def test_communication_only_at_the_start_of_a_trick():
    """Seed, Comunicación: "habrá una fase de comunicación al comienzo de cada baza"."""
    s = make_state(FOUR)
    assert turn.may_communicate(s, 1)
    turn.play_card(s, int(s[S.S_LEADER]), card("P9"))
    assert not turn.may_communicate(s, 1)


@pytest.mark.parametrize(("first", "trick", "may"), [(1, 0, False), (1, 1, True), (2, 1, False),
                                                     (2, 2, True), (2, 3, True)])  # fmt: skip
def test_no_communication_before_a_trick(first, trick, may):
    """Mission 23 (logbook): no communication before trick 2; the rule
    ``mission23_communication`` reads it as from the phase before trick 2 (index 1) or 3."""
    s = make_state(FOUR)
    s[S.S_COMM_FROM] = first
    s[S.S_DONE] = trick
    assert turn.may_communicate(s, 1) == may


@pytest.mark.parametrize(("until", "trick", "may"), [(1, 0, True), (1, 1, False), (2, 1, True)])
def test_communication_only_before_the_first_trick(until, trick, may):
    """Mission 10 given away by the captain (logbook): communication only before trick 1."""
    s = make_state(FOUR)
    s[S.S_COMM_UNTIL] = until
    s[S.S_DONE] = trick
    assert turn.may_communicate(s, 1) == may


@pytest.mark.parametrize(("trick", "may"), [(9, True), (10, False)])
def test_no_communication_once_every_trick_is_played(trick, may):
    """Seed: a phase opens each trick; 4 players play 10 tricks."""
    s = make_state(FOUR)
    s[S.S_DONE] = trick
    assert turn.may_communicate(s, 1) == may


def test_the_seed_example_of_what_may_be_declared():
    """Seed, Comunicación: "si ... tuvieras el 1, el 2, el 5 y el 7 de un palo determinado,
    sólo podrías comunicar el 1 (el más bajo) o el 7 (el más alto), pero no el 2 o el 5"."""
    s = make_state(FOUR)
    claims = [int(turn.comm_claims(s, 0, card(f"P{r}"))) for r in (1, 2, 5, 7)]
    assert claims == [1 << S.LOWEST, 0, 0, 1 << S.HIGHEST]


@pytest.mark.parametrize(
    ("claim", "below", "above"),
    [(S.HIGHEST, True, False), (S.LOWEST, False, True), (S.ONLY, False, False)],
)
def test_what_a_declaration_rules_out(claim, below, above):
    """Seed, Comunicación: "La carta más baja / La única / La más alta ... de un palo": a card
    shown as highest rules out every higher card of the suit in that hand, and only those."""
    c = card("Y5")
    assert (not turn.claim_excludes(claim, c, c - 1)) == below
    assert (not turn.claim_excludes(claim, c, c + 1)) == above
    s = make_state(FOUR)
    turn.communicate(s, 0, c, claim)
    assert could_hold(s, 0, c - 1) == below and could_hold(s, 0, c + 1) == above


# -- the trick -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("challenger", "best", "beats"),
    [("Y6", "Y5", True), ("Y5", "Y6", False), ("Y9", "Y5", True), ("P9", "Y5", False),
     ("S1", "Y9", True), ("S2", "S1", True), ("S1", "S2", False)],
)  # fmt: skip
def test_highest_card_of_the_led_suit_or_a_higher_submarine(challenger, best, beats):
    """Seed, Trabajo de toma: "La carta más alta gana" and "Los Submarinos son cartas de triunfo
    y sólo pueden ser derrotados por Submarinos de mayor valor" (trick led in yellow)."""
    assert turn.beats(card(challenger), card(best), S.suit_of(card("Y1"))) == beats


@pytest.mark.parametrize(
    ("hand", "legal"), [(["P1", "P2", "G1"], 3), (["Y1", "P2", "G1"], 1), (["Y1", "Y2", "G1"], 2)]
)
def test_follow_suit_unless_void(hand, legal):
    """Seed: "Un jugador debe seguir el palo a menos que no tenga cartas de ese palo" (yellow
    led; seat 1 holds none, one or two yellow cards)."""
    s = make_state([["Y5", "S4", "P9"], hand, ["B1", "B2", "B3"]], captain=0)
    turn.play_card(s, 0, card("Y5"))
    out = np.empty(40, np.int64)
    assert turn.legal_cards(s, 1, out) == legal


@pytest.mark.parametrize(("code", "may"), [("B9", True), ("S1", False)])
def test_submarines_are_never_passed(code, may):
    """Seed, señal de socorro: "Las cartas de submarino no se pueden pasar" (B9 is the last
    colour card, S1 the first submarine)."""
    s = make_state([["B9", "S1"], ["P1", "P2"], ["Y1", "S4"]], captain=2)
    assert turn.may_pass_card(s, 0, card(code)) == may
    assert not turn.may_pass_card(s, 1, card(code))  # never another's card


@pytest.mark.parametrize(
    ("deck", "target", "drawn"),
    [([2, 2], 5, -1), ([2, 3], 5, 2), ([4, 2, 1], 5, 2), ([3, 3], 5, -1)],
)
def test_tasks_sum_exactly_to_the_difficulty(deck, target, drawn):
    """Seed, Misiones: "tareas con una suma de dificultad exactamente igual a la especificada"
    (a card that would overshoot is skipped; a deck that cannot make it draws nothing)."""
    values = np.array(deck, np.int64)
    out = np.empty(8, np.int64)
    n = turn.draw_tasks(np.arange(len(deck)), values, target, out)
    assert n == drawn
    if n > 0:
        assert values[out[:n]].sum() == target


# -- task verdicts ---------------------------------------------------------------------------
@pytest.mark.parametrize(("tricks", "expected"), [(1, F), (2, D), (3, F)])
def test_exactly_n_tricks_at_the_end(tricks, expected):
    """Task card 'win exactly 2 tricks' (tasks.csv), judged after the last trick."""
    winners = [0] * tricks + [1] * (10 - tricks)
    assert verdict_after("win_exactly_2_tricks", 0, winners) == expected


@pytest.mark.parametrize(("tricks", "expected"), [(0, F), (1, P), (2, P), (3, F)])
def test_exactly_n_tricks_fails_once_out_of_reach(tricks, expected):
    """'win exactly 2 tricks' with one trick left: 0 won can no longer reach 2, 3 is over."""
    winners = [0] * tricks + [1] * (9 - tricks)
    assert verdict_after("win_exactly_2_tricks", 0, winners) == expected


@pytest.mark.parametrize(("won_at", "expected"), [(2, F), (3, D)])
def test_none_of_the_first_three_tricks(won_at, expected):
    """Task card 'win none of the first 3 tricks': trick index 2 is the third, 3 the fourth."""
    winners = [1] * 4
    winners[won_at] = 0
    assert verdict_after("win_none_first_3", 0, winners) == expected


@pytest.mark.parametrize(("last", "expected"), [(8, F), (9, D)])
def test_the_last_trick_is_the_tenth_of_four_players(last, expected):
    """Task card 'win the last trick' (order position: the last of 10 tricks)."""
    winners = [1] * 10
    winners[last] = 0
    assert verdict_after("win_last_trick", 0, winners) == expected


@pytest.mark.parametrize(("winners", "expected"), [([0, 1], F), ([0, 0], D), ([1], F)])
def test_the_first_two_tricks(winners, expected):
    """Task card 'win the first 2 tricks' (order positions 1 and 2)."""
    assert verdict_after("win_first_two_tricks", 0, winners) == expected


@pytest.mark.parametrize(("winners", "expected"), [([0, 1, 0], P), ([1, 0, 0], D),
                                                   ([0] * 1 + [1] * 9, F)])  # fmt: skip
def test_two_in_a_row(winners, expected):
    """Task card 'win 2 tricks in a row': one in a row is not yet, two is; none by the end
    fails."""
    assert verdict_after("win_2_in_a_row", 0, winners) == expected


@pytest.mark.parametrize(("winners", "expected"), [([0, 1, 0], P), ([1, 0, 0], F)])
def test_never_two_in_a_row(winners, expected):
    """Task card 'never win 2 tricks in a row'."""
    assert verdict_after("never_2_in_a_row", 0, winners) == expected


@pytest.mark.parametrize(("mine", "captain", "key", "expected"), [
    (4, 4, "more_tricks_than_captain", F), (5, 4, "more_tricks_than_captain", D),
    (4, 4, "fewer_tricks_than_captain", F), (3, 4, "fewer_tricks_than_captain", D),
    (3, 4, "as_many_tricks_as_captain", F), (4, 4, "as_many_tricks_as_captain", D),
])  # fmt: skip
def test_comparisons_with_the_captain(mine, captain, key, expected):
    """Task cards comparing tricks with the captain's, judged after the last trick."""
    s = make_state(FOUR)
    cap = int(s[S.S_CAPTAIN])
    me = (cap + 1) % 4
    rest = [w for w in range(4) if w not in (cap, me)][0]
    assert verdict_after(key, me, [me] * mine + [cap] * captain + [rest] * (10 - mine - captain)) \
        == expected  # fmt: skip


@pytest.mark.parametrize(("key", "rank", "won_rank", "left", "expected"), [
    ("win_at_least_2_sevens", 7, 1, 1, P), ("win_at_least_2_sevens", 7, 2, 1, D),
    ("win_at_least_2_sevens", 7, 1, 0, F), ("win_at_least_2_sevens", 7, 0, 2, P),
    ("win_at_least_2_sevens", 7, 0, 1, F),
    ("win_exactly_2_nines", 9, 1, 0, F), ("win_exactly_2_nines", 9, 2, 0, D),
    ("win_exactly_2_nines", 9, 3, 0, F), ("win_exactly_2_nines", 9, 2, 1, P),
    ("win_exactly_2_nines", 9, 3, 1, F),
])  # fmt: skip
def test_counts_of_a_rank_won(key, rank, won_rank, left, expected):
    """Task cards 'win at least 2 sevens' (done at 2, lost once the sevens still out cannot make
    it up) and 'win exactly 2 nines' (decided once no nine is left, failed at a third)."""
    s = make_state(FOUR)
    add_task(s, key, 0)
    s[S.O_WRANK + 0 * 10 + rank] = won_rank
    s[S.O_URANK + rank] = left
    s[S.S_DONE] = 1
    assert task_state(s) == expected


SUM_HANDS = {  # 4 players: seat 0 leads a yellow trick and wins it with its highest card
    29: [["Y9"], ["Y8"], ["Y7"], ["Y5"]],
    28: [["Y9"], ["Y8"], ["Y7"], ["Y4"]],
    12: [["Y8"], ["Y1"], ["Y2"], ["P1"]],
    11: [["Y7"], ["Y1"], ["Y2"], ["G1"]],
    22: [["Y9"], ["Y8"], ["Y1"], ["Y4"]],
    23: [["Y9"], ["Y8"], ["Y1"], ["Y5"]],
    21: [["Y9"], ["Y8"], ["Y1"], ["Y3"]],
    24: [["Y9"], ["Y8"], ["Y1"], ["Y6"]],
}


@pytest.mark.parametrize(("key", "total", "expected"), [
    ("trick_sum_above", 28, F), ("trick_sum_above", 29, D),
    ("trick_sum_below", 12, F), ("trick_sum_below", 11, D),
    ("trick_sum_22_or_23", 21, F), ("trick_sum_22_or_23", 22, D),
    ("trick_sum_22_or_23", 23, D), ("trick_sum_22_or_23", 24, F),
])  # fmt: skip
def test_trick_sums_at_their_bounds(key, total, expected):
    """Task cards on a trick's sum (4 players: above 28, below 12 by default; 22 or 23), won by
    the holder in the one trick of these hands."""
    s = make_state(SUM_HANDS[total], captain=0)
    add_task(s, key, 0)
    cards = [h[0] for h in SUM_HANDS[total]]
    assert play_trick(s, cards) == 0
    assert task_state(s) == expected


# -- mission rules and the end ---------------------------------------------------------------
@pytest.mark.parametrize(("ahead", "expected"), [(1, P), (2, F)])
def test_balanced_nines(ahead, expected):
    """Mission 8 (logbook): fails once a member has won 2 more nines than another."""
    s = make_state(FOUR)
    s[S.O_WRANK + 0 * 10 + 9] = ahead
    assert verdicts.eval_objective(s, S.OBJ_BALANCE9) == expected


@pytest.mark.parametrize(("first", "other", "expected"), [(1, 1, F), (2, 1, P)])
def test_first_winner_stays_strictly_ahead(first, other, expected):
    """Mission 23 (logbook): the first trick's winner must win more tricks than each other."""
    s = make_state(FOUR)
    won(s, [0] * first + [1] * other)
    assert verdicts.eval_objective(s, S.OBJ_FIRST_WINNER) == expected


def test_mission_complete_as_soon_as_every_task_is_done():
    """Seed: "A medida que se juega cada baza, si se completan todas las tareas ... la misión
    está completa"; "Si al ganar la carta no se ha cumplido alguna de las tareas ... la misión
    fracasa instantáneamente"."""
    s = make_state(FOUR)
    add_task(s, "win_first_trick", 0)
    assert verdicts.mission_end(s, T.ctype, T.params) == verdicts.ONGOING
    won(s, [0])
    assert verdicts.mission_end(s, T.ctype, T.params) == verdicts.END_SUCCESS
    f = make_state(FOUR)
    add_task(f, "win_first_trick", 0)
    won(f, [1])
    assert verdicts.mission_end(f, T.ctype, T.params) == verdicts.END_TASK_FAILED
    n = won(make_state(FOUR), [1] * 9)
    add_task(n, "win_last_trick", 0)
    assert verdicts.mission_end(n, T.ctype, T.params) == verdicts.ONGOING
    n[S.S_DONE] = 10  # the tenth trick played, its winner not recorded: nothing decided
    assert verdicts.mission_end(n, T.ctype, T.params) == verdicts.END_ALL_PLAYED
