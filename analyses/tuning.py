"""A finished tune read back: its candidates, and whether its best setting dominates.

Everything here reads ``tune.json`` and the tune's run folders (see
:mod:`simulator.studies.tuning`). Two questions make the dominant-strategy verdict:
- against the field: on the fresh seeds of the check, does the best setting win more than a fair
  share (1 / players) in every seat against every policy of the field? (interval above it);
- against the alternatives tried: on the search seeds, paired game by game, is the best setting
  ahead of every other fully played candidate in every seating (intervals corrected for the
  number of alternatives)? Those seeds chose the best, so they flatter it; an alternative it
  does not beat significantly is a close rival.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from simulator.contract.errors import BalanceError
from simulator.contract.outcomes import RETURNS, share, with_outcome_columns
from simulator.folders.run_folder import RunFolder
from simulator.folders.study_folders import Seating

from .stats import family_confidence, paired_interval, share_change


def _won(
    folder: Path, seat: int | None, cooperative: bool, by_return: bool = False
) -> pl.DataFrame:
    """Per game, whether the players succeeded (1 or 0), the seat's share of the win (1/k a
    k-way shared win), or its return where the tune maximised the return;
    :func:`analyses.stats.share_change` reads whole shares as yes/no wins and any other
    numbers with a paired t interval."""
    run = RunFolder.open(folder)
    frame = run.scan()
    if cooperative:
        won = pl.col("success").fill_null(False).cast(pl.Float64)
    elif by_return:
        won = pl.col(RETURNS).list.get(seat).cast(pl.Float64)
    else:
        frame = with_outcome_columns(frame, int(run.read_manifest()["config"]["n_players"]))
        won = share(seat)
    return frame.select("game_index", won.alias("won")).collect()


def alternatives(path: str | Path, data: dict[str, Any]) -> list[dict[str, Any]]:
    """For each seating: the best candidate against every other complete one on the search
    seeds (paired difference with its interval)."""
    path = Path(path)
    plan = data["plan"]
    cooperative = data["measure"] == "success rate"
    by_return = data.get("objective") == "return"
    seatings = data["check"]["by_seating"]
    best = data["best_trial"]
    others = [t for t in data["trials"] if t["state"] == "complete" and t["number"] != best]
    # "Ahead of every alternative" is one claim over all of them: intervals corrected for it.
    confidence = family_confidence(len(others))
    out = []
    for k, s in enumerate(seatings):
        folder = _seating_folder(plan, k)
        mine = _won(path / "trials" / f"{best:03d}" / folder, s["seat"], cooperative, by_return)
        rows = []
        for t in others:
            theirs = _won(
                path / "trials" / f"{t['number']:03d}" / folder, s["seat"], cooperative, by_return
            )
            joined = mine.join(theirs, on="game_index", suffix="_o")
            d = share_change(joined["won_o"].to_numpy(), joined["won"].to_numpy(), True, confidence)
            rows.append({"trial": t["number"], "params": t["params"], **d.as_dict()})
        diffs = np.array([r["change"]["value"] for r in rows]) if rows else np.zeros(0)
        out.append(
            {
                "seating": s["seating"],
                "alternatives": len(rows),
                "ahead": int(np.sum(diffs > 0)),
                "tied": int(np.sum(diffs == 0)),
                "behind": int(np.sum(diffs < 0)),
                "significantly_ahead": sum(1 for r in rows if r["change"]["lo"] > 0),
                "significantly_behind": sum(1 for r in rows if r["change"]["hi"] < 0),
                "closest": min(rows, key=lambda r: r["change"]["value"]) if rows else None,
                "confidence": confidence,
            }
        )
    return out


def _seating_folder(plan: dict[str, Any], k: int) -> str:
    """The folder name of seating ``k`` (the same rule as the tune used to write it)."""
    return Seating.from_label(plan["seatings"][k]).folder


def dominance(path: str | Path, data: dict[str, Any]) -> dict[str, Any]:
    """The dominant-strategy verdict: against the field (fresh seeds) and against the
    alternatives tried (search seeds)."""
    check = data["check"]
    fair = check["fair_share"]
    field_rows = check["by_seating"]
    alt = alternatives(path, data)
    above_fair = None
    if fair is not None:
        above_fair = all(r["best"]["lo"] > fair for r in field_rows)
    beats_all = all(a["ahead"] == a["alternatives"] for a in alt)
    beats_all_sig = all(a["significantly_ahead"] == a["alternatives"] for a in alt)
    never_beaten = all(a["behind"] == 0 for a in alt)
    never_beaten_sig = all(a["significantly_behind"] == 0 for a in alt)
    return {
        "fair_share": fair,
        "above_fair_share_everywhere": above_fair,
        "beats_every_alternative_everywhere": beats_all,
        "significantly_everywhere": beats_all_sig,
        "never_beaten": never_beaten,
        "never_significantly_beaten": never_beaten_sig,
        "alternatives": alt,
    }


def check_outcomes(path: str | Path, data: dict[str, Any], setting: str) -> pl.DataFrame:
    """Whether the tuned policy won (or the players succeeded) in each game of a tune's check
    under ``setting`` (``"defaults"`` or ``"best"``): columns ``seating``, ``game_index``,
    ``won``, every seating stacked."""
    path = Path(path)
    cooperative = data["measure"] == "success rate"
    # a check whose best setting is the defaults played them once, under check/defaults
    kind = setting if (path / "check" / setting).is_dir() else "defaults"
    frames = []
    for k, s in enumerate(data["check"]["by_seating"]):
        folder = path / "check" / kind / _seating_folder(data["plan"], k)
        won = _won(folder, s["seat"], cooperative, data.get("objective") == "return")
        frames.append(won.with_columns(seating=pl.lit(k)))
    return pl.concat(frames).sort("seating", "game_index")


PLAYS = {"defaults": "default play", "best": "adapted play"}


def adapted_effects(
    base: tuple[Path, dict[str, Any]], variants: list[tuple[str, Path, dict[str, Any]]]
) -> list[dict[str, Any]]:
    """``compare --tune``: each variant's effect on the tuned policy's measure in the tunes'
    checks, with the policy at its defaults under every rule set (default play) and at each rule
    set's best setting (adapted play), and how much adapting changes the effect.

    The tunes of one comparison share their run seed, so their checks play the same fresh games
    and each game is paired with its twin under the default rules. The change between the two
    plays is a difference of paired differences; its interval is corrected for the number of
    variants, since "adapting changes the effect" is a claim about any of them."""
    confidence = family_confidence(len(variants))
    base_path, base_data = base
    out = []
    for label, path, data in variants:
        if data["check"]["seed"] != base_data["check"]["seed"]:
            raise BalanceError(f"the tunes of {label!r} and the default rules checked other games")
        diffs, per_game = {}, {}
        for setting, play in PLAYS.items():
            joined = check_outcomes(base_path, base_data, setting).join(
                check_outcomes(path, data, setting), on=["seating", "game_index"], suffix="_v"
            )
            b, v = joined["won"].to_numpy(), joined["won_v"].to_numpy()
            diffs[play] = share_change(b, v, True).as_dict()
            per_game[play] = v.astype(float) - b.astype(float)
        change = per_game["adapted play"] - per_game["default play"]
        lo, hi = paired_interval(change, confidence)
        out.append(
            {
                "variant": label,
                "games": int(len(change)),
                **diffs,
                "adapting_changes_effect": {
                    "change": {"value": float(change.mean()), "lo": lo, "hi": hi},
                    "confidence": confidence,
                },
            }
        )  # fmt: skip
    return out
