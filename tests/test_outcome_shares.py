"""Every figure reads the win shares: a k-way shared win counts 1/k to each seat, never
"nobody won". Known answers: the share interval's coverage by simulation, and a dice game whose
exact shares come from enumerating its dice."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from analyses.drama import drama_summary
from analyses.ladder import _per_game_effects
from analyses.length import end_reasons
from analyses.overview import headline
from analyses.policies import policy_summary
from analyses.runs import Run
from analyses.seats import outcome_blocks, seat_counts, seat_summary
from analyses.skill import _pair_results, fit_ratings, ladder_figures
from analyses.stats import proportion, share_proportion
from analyses.summary import estimates, headline_rate_widths, run_summary
from analyses.variants import compare_runs
from analyses.watch import games_to_watch
from reports.run_sections import outcome_sections, run_headline
from reports.study_sections import pooled_seats, tournament_section
from reports.terminal import run_lines
from simulator.contract.outcomes import is_shared, share
from simulator.runs.runner import simulate

# Three seats, a known truth: each row an outcome (every seat's share) and its probability.
OUTCOMES = np.array(
    [
        [1, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
        [1 / 2, 1 / 2, 0],
        [1 / 2, 0, 1 / 2],
        [1 / 3, 1 / 3, 1 / 3],
        [0, 0, 0],
    ]
)


def draw_shares(rng: np.random.Generator, probabilities: list[float], games: int) -> np.ndarray:
    """``games`` games' shares (games x seats) drawn from the outcomes' probabilities."""
    return OUTCOMES[rng.choice(len(OUTCOMES), size=games, p=probabilities)]


@pytest.mark.parametrize(
    ("probabilities", "games", "widest"),
    [
        ((0.30, 0.25, 0.20, 0.10, 0.05, 0.05, 0.05), 300, 0.975),  # a few shared wins
        ((0.10, 0.05, 0.05, 0.35, 0.15, 0.30, 0.00), 300, 0.975),  # mostly shared
        ((0.02, 0.01, 0.01, 0.02, 0.01, 0.90, 0.03), 200, 0.985),  # near-certain three-way ties
        ((0.45, 0.30, 0.20, 0.02, 0.01, 0.01, 0.01), 60, 0.975),  # a small run
        ((0.02, 0.01, 0.01, 0.02, 0.01, 0.90, 0.03), 20, 1.0),  # tiny and mostly ties
    ],
)
def test_share_intervals_cover_the_true_share_about_95_percent_of_the_time(
    probabilities, games, widest
):
    """Drawn from a known truth 2,000 times: the mean share is unbiased and its 95% interval
    holds every seat's true share in about 95% of runs (never far below; above in tiny runs of
    mostly ties, where the pseudo-games keep it honest)."""
    rng = np.random.default_rng(61)
    truth = np.asarray(probabilities) @ OUTCOMES
    repeats = 2000
    estimates = np.zeros((repeats, 3))
    held = np.zeros((repeats, 3), bool)
    for r in range(repeats):
        shares = draw_shares(rng, list(probabilities), games)
        totals, squares = shares.sum(axis=0), (shares**2).sum(axis=0)
        for seat in range(3):
            est = share_proportion(float(totals[seat]), games, float(squares[seat]))
            estimates[r, seat] = est.value
            held[r, seat] = est.contains(truth[seat])
    bias = estimates.mean(axis=0) - truth
    standard_error = estimates.std(axis=0) / np.sqrt(repeats)
    assert np.all(np.abs(bias) < 4 * standard_error + 1e-12)
    coverage = held.mean(axis=0)
    print(f"{games} games, truth {np.round(truth, 4)}: bias {bias}, coverage {coverage}")
    assert np.all(coverage > 0.93), coverage  # as the whole-win Wilson test asks
    assert np.all(coverage <= widest), coverage


def test_whole_share_sums_give_exactly_the_wilson_interval_of_the_count():
    for k, n in ((0, 10), (30, 100), (555, 2000), (7, 7)):
        assert share_proportion(float(k), n) == proportion(k, n)
        assert share_proportion(float(k), n, float(k)) == proportion(k, n)
    half_shares = share_proportion(30.5, 100, 29.25)  # 29 wins and three two-way shares
    assert half_shares.lo < 0.305 < half_shares.hi
    assert proportion(30, 100).lo < half_shares.lo < proportion(31, 100).lo
    ties = share_proportion(100 / 3, 100, 100 / 9)  # every game a three-way tie
    assert ties.value == pytest.approx(1 / 3) and ties.width < half_shares.width / 2


def games_frame(shares: np.ndarray) -> pl.LazyFrame:
    return pl.LazyFrame(
        {"game_index": np.arange(len(shares)), "win_share": [list(map(float, s)) for s in shares]}
    )


def test_seat_counts_sum_the_shares_and_tell_shared_from_no_winner():
    shares = OUTCOMES[[0, 3, 5, 6, 1, 3]]
    counts = seat_counts(games_frame(shares), 3)
    assert counts["games"] == 6 and counts["shared"] == 3 and counts["no_winner"] == 1
    assert counts["wins"] == pytest.approx(
        [1 + 1 / 2 + 1 / 3 + 1 / 2, 1 / 2 + 1 / 3 + 1 + 1 / 2, 1 / 3]
    )
    assert counts["squares"][0, 1] == pytest.approx(1 + 0 + 0 + 0 + 1 + 0)
    blocks = outcome_blocks(games_frame(shares), 3)
    assert blocks.sum(axis=0) == pytest.approx([*counts["wins"], 1])
    assert blocks.sum() == pytest.approx(6)  # each game's shares and no-winner sum to one


def test_without_shared_wins_the_counts_stay_whole_numbers():
    counts = seat_counts(games_frame(OUTCOMES[[0, 1, 2, 6, 0]]), 3)
    assert counts["wins"] == [2, 1, 1] and all(isinstance(w, int) for w in counts["wins"])
    assert counts["squares"] is None and counts["shared"] == 0


def exact_dice_shares(players: int, rounds: int, faces: int) -> tuple[list[Fraction], Fraction]:
    """tests/shared_dice.py by enumeration: every seat's share of the win and the shared-win
    rate, exactly."""
    totals: dict[int, Fraction] = {}
    for dice in itertools.product(range(1, faces + 1), repeat=rounds):
        totals[sum(dice)] = totals.get(sum(dice), Fraction(0)) + Fraction(1, faces**rounds)
    shares, shared = [Fraction(0)] * players, Fraction(0)
    for seat_totals in itertools.product(totals, repeat=players):
        chance = Fraction(1)
        for t in seat_totals:
            chance *= totals[t]
        best = [s for s, t in enumerate(seat_totals) if t == max(seat_totals)]
        for s in best:
            shares[s] += chance / len(best)
        if len(best) > 1:
            shared += chance
    return shares, shared


SHARED_DICE = str(Path(__file__).with_name("shared_dice.py"))
DICE_GAMES = 1500


@pytest.fixture(scope="module")
def dice_run(tmp_path_factory) -> Run:
    out = tmp_path_factory.mktemp("dice") / "run"
    return Run.open(simulate(SHARED_DICE, DICE_GAMES, out, players=3, jobs=1, seed=5))


def test_a_dice_game_where_ties_share_gives_its_exact_shares(dice_run):
    """Three seats, two d6 each, ties share: every seat's share and the shared-win rate are
    known exactly; the run's intervals hold them, and the shares add up to every game."""
    exact, shared = exact_dice_shares(3, 2, 6)
    s = seat_summary(dice_run)
    for seat, truth in zip(s["seats"], exact, strict=True):
        assert seat["lo"] < float(truth) < seat["hi"]
    assert s["shared_win_rate"]["lo"] < float(shared) < s["shared_win_rate"]["hi"]
    assert s["no_winner_rate"]["value"] == 0  # a tie is a shared win, never "nobody won"
    assert sum(x["wins"] for x in s["seats"]) == pytest.approx(DICE_GAMES)
    assert s["fair_share"] == pytest.approx(1 / 3)
    assert s["balance"]["lo"] <= s["balance"]["value"] <= s["balance"]["hi"]
    widths = headline_rate_widths(dice_run)
    assert "shared" in widths and "no-winner" not in widths


def test_the_terminal_and_json_say_shared_wins_and_no_winner_apart(dice_run):
    h = headline(dice_run.path)
    assert h["shared_win_rate"] > 0.1 and h["no_winner_rate"] == 0
    assert set(h["estimates"]["shared_win_rate"]) == {"value", "lo", "hi"}
    assert sum(h["win_rate"]) == pytest.approx(1)
    line = run_lines(h)[1]
    assert "shared wins: " in line and "no winner: 0.0%" in line
    assert estimates(run_summary(dice_run))["shared"].value == h["shared_win_rate"]


def test_games_to_watch_names_the_seats_of_a_shared_game(dice_run):
    frame = dice_run.scan().select("game_index", "win_share").collect()
    first = next(r for r in frame.iter_rows(named=True) if sum(x > 0 for x in r["win_share"]) > 1)
    seats = [s + 1 for s, x in enumerate(first["win_share"]) if x > 0]
    picks = {g["what"]: g for g in games_to_watch(dice_run)}
    words = "seats " + ", ".join(map(str, seats[:-1])) + f" and {seats[-1]}"
    shared = picks[f"a game {words} shared"]
    assert shared["game_index"] == first["game_index"] and shared["end_reason"] == "won"
    assert picks["a game nobody won"]["game_index"] is None


def test_a_comeback_is_a_half_time_leader_without_a_share(dice_run):
    frame = dice_run.scan().select("half_leader", "win_share").collect()
    led = [r for r in frame.iter_rows(named=True) if r["half_leader"] >= 0]
    comebacks = sum(r["win_share"][r["half_leader"]] == 0 for r in led)
    d = drama_summary(dice_run)
    assert (d["games_with_half_leader"], d["comebacks"]) == (len(led), comebacks)


def test_compare_reads_the_shares_and_says_shared_wins_apart(dice_run, tmp_path):
    one_die = Run.open(
        simulate(
            SHARED_DICE, DICE_GAMES, tmp_path / "one", players=3, jobs=1, seed=5,
            sets={"rounds": 1},
        )
    )  # fmt: skip
    rows = {r["measure"]: r for r in compare_runs(dice_run, [one_die])}
    assert "no-winner rate" not in rows  # no game of either run lacks a winner
    shared = rows["shared-win rate"]
    assert shared["paired"] and shared["change"]["value"] > 0  # one die ties more often
    base = dice_run.scan().select("win_share").collect()["win_share"].list.get(0).to_numpy()
    other = one_die.scan().select("win_share").collect()["win_share"].list.get(0).to_numpy()
    seat = rows["seat 1 win rate"]
    assert seat["test"] == "paired t (shares)"
    assert seat["change"]["value"] == pytest.approx(other.mean() - base.mean())
    assert seat["change"]["lo"] < seat["change"]["value"] < seat["change"]["hi"]


def test_a_tournament_counts_a_shared_win_to_every_policy_sharing_it(tmp_path):
    seatings = (["greedy", "random", "random"], ["random", "greedy", "random"])
    runs = [
        Run.open(
            simulate(SHARED_DICE, 600, tmp_path / f"r{i}", players=3, jobs=1, seed=2, policies=p)
        )
        for i, p in enumerate(seatings)
    ]
    summary = policy_summary(runs)
    assert summary["fair_share"] == pytest.approx(1 / 3)  # every game has a winner
    assert sum(r["wins"] for r in summary["policies"]) == pytest.approx(1200)
    assert any(not float(r["wins"]).is_integer() for r in summary["policies"])
    pooled = pooled_seats(runs)
    assert sum(s["wins"] for s in pooled["seats"]) == pytest.approx(1200)
    assert pooled["shared_win_rate"]["value"] > 0.1
    for pair in summary["matrix"]:
        assert 0 <= pair["lo"] <= pair["value"] <= pair["hi"] <= 1
    table = tournament_section(summary, pooled).blocks[0]
    assert "counts 1/k" in table.caption and any("." in row[2] for row in table.rows)


def test_a_win_two_rungs_share_is_a_draw_half_a_win_to_each(tmp_path):
    rungs = ["random", "greedy"]
    runs = [
        Run.open(
            simulate(SHARED_DICE, 800, tmp_path / f"p{i}", players=2, jobs=1, seed=3,
                     policies=seating),
            params={"rungs": rungs},
        )
        for i, seating in enumerate((rungs, rungs[::-1]))
    ]  # fmt: skip
    wins = _pair_results(rungs, runs)
    ties = sum(r.scan().filter(is_shared()).select(pl.len()).collect().item() for r in runs)
    assert ties > 50 and wins[0, 1, 2] == wins[1, 0, 2] == ties
    assert wins[0, 1, 0] + wins[1, 0, 0] == pytest.approx(1600)  # every game decided
    assert wins[0, 1, 1] == 0
    figures = ladder_figures(wins, rungs)
    pair = figures["pairs"][0]
    assert pair["draws"] == ties and pair["decided"] == 1600
    assert pair["stronger_wins"] + pair["weaker_wins"] == pytest.approx(1600)
    assert pair["stronger_win_rate"]["lo"] < 0.5 < pair["stronger_win_rate"]["hi"]  # alike


def test_draws_rate_two_rungs_as_elo_scores_them():
    wins = np.zeros((2, 2, 3))
    wins[1, 0, 0], wins[0, 1, 0] = 20_000 + 5_000, 10_000 + 5_000  # 10,000 draws, half each
    wins[1, 0, 2] = wins[0, 1, 2] = 10_000
    rating = fit_ratings(wins, ["random", "good"])[1]["rating"]
    assert rating["value"] == pytest.approx(400 * math.log10(25 / 15), abs=1.0)
    pair = ladder_figures(wins, ["random", "good"])["pairs"][0]
    assert pair["stronger_win_rate"]["value"] == pytest.approx(25 / 40)
    # a draw's score (1/2) varies less than a win or loss: a narrower interval than 40,000
    # yes/no games would give
    assert pair["stronger_win_rate"]["hi"] - pair["stronger_win_rate"]["lo"] < (
        proportion(25_000, 40_000).width
    )


def test_the_ladder_reads_each_rungs_shares_and_shared_wins(dice_run, tmp_path):
    one_die = Run.open(
        simulate(
            SHARED_DICE, DICE_GAMES, tmp_path / "one", players=3, jobs=1, seed=5,
            sets={"rounds": 1},
        ),
        label="one die [random]",
    )  # fmt: skip
    unmeasured, effects = _per_game_effects("random", dice_run, [one_die])
    assert "one die: no-winner rate" in unmeasured  # every game has a winner, either way
    index, shared = effects["one die: shared-win rate"]
    assert len(index) == DICE_GAMES and set(np.unique(shared)) <= {-1.0, 0.0, 1.0}
    _, seat = effects["one die: seat 1 win rate"]
    assert not np.isin(seat, (-1.0, 0.0, 1.0)).all()  # halves and thirds: the shares


def test_scores_known_only_at_the_end_leave_drama_not_measured(tmp_path):
    late = tmp_path / "late_dice.py"
    late.write_text(Path(SHARED_DICE).read_text() + "\nscores_during_play = False\n")
    run = Run.open(simulate(str(late), 200, tmp_path / "late", players=3, jobs=1, seed=1))
    assert "lead_changes" not in run.columns() and drama_summary(run) is None
    summary = run_summary(run)
    assert "lead-changes" not in estimates(summary) and "comeback" not in estimates(summary)
    sections = outcome_sections([run], [summary])
    drama = next(s for s in sections if s.title.startswith("Drama"))
    assert drama.paragraphs[0].startswith("Not measured: this game's scores are known only")
    assert not any("lead changes" in line for line in run_headline(summary, label=False))


def test_where_the_lowest_score_wins_the_winners_never_won_on_a_worse_score(tmp_path):
    golf = str(Path(__file__).parents[1] / "examples" / "golf_dice.py")
    run = Run.open(simulate(golf, 300, tmp_path / "golf", jobs=1, seed=4))
    assert all(row["lower_score_wins"] == 0 for row in end_reasons(run))
    highest_won = (
        run.scan()
        .select((share(0) > 0) & (pl.col("scores").list.get(0) > pl.col("scores").list.min()))
        .collect()
        .to_series()
    )
    assert not highest_won.any()  # the fewest strokes hold every share of the win
