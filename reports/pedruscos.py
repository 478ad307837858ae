"""Pedruscos del Espacio's own report sections: branch payback and the station table."""

from __future__ import annotations

from analyses.pedruscos import branch_payback, station_table
from analyses.runs import Run
from reports.document import Section, Table

MAX_RUNS = 3  # a sweep would otherwise repeat the sections for every point


def _pm(e: dict[str, float], digits: int = 2) -> str:
    return f"{e['value']:.{digits}f} ({e['lo']:.{digits}f} - {e['hi']:.{digits}f})"


def _pct(e: dict[str, float]) -> str:
    return f"{100 * e['value']:.1f}% ({100 * e['lo']:.1f} - {100 * e['hi']:.1f})"


def sections(runs: list[Run]) -> list[Section]:
    out = []
    for run in runs[:MAX_RUNS]:
        suffix = f" ({run.label})" if len(runs) > 1 else ""
        pay = branch_payback(run)
        sec = Section(
            "Branch payback" + suffix,
            [
                f"A branch costs {pay['branch_cost']} points. 'Harvest points' is the value, when "
                "shipped, of the cards harvests brought in (before shipping costs); payback is "
                "that over the points paid, among seats that built. Means per seat and game, "
                "95% intervals."
            ],
        )
        sec.add(
            Table(
                ["policy", "seats", "branches", "paid", "harvest points", "net", "payback"],
                [
                    [
                        r["policy"],
                        f"{r['seats']:,}",
                        _pm(r["branches"]),
                        _pm(r["paid"]),
                        _pm(r["harvest_points"]),
                        _pm(r["net"]),
                        f"{r['payback']:.2f}",
                    ]
                    for r in pay["by_policy"]
                ],
            )
        )
        sec.add(
            Table(
                ["branches built (4 = 4 or more)", "seats", "win rate"],
                [
                    [str(r["branches"]), f"{r['seats']:,}", _pct(r["win"])]
                    for r in pay["by_branches"]
                ],
                "Win rate of a seat by the branches it built.",
            )
        )
        out.append(sec)
        tab = station_table(run)
        sec = Section(
            "Station table" + suffix,
            [
                f"{tab['rolls']:,} rolls in {tab['games']:,} games. Each roll's share against the "
                "2d6 probability of its row, and how often each result came up in a game."
            ],
        )
        sec.add(
            Table(
                ["2d6", "result", "per game", "share", "2d6"],
                [
                    [
                        r["roll"],
                        r["result"],
                        _pm(r["per_game"]),
                        _pct(r["share"]),
                        f"{100 * r['expected_share']:.1f}%",
                    ]
                    for r in tab["results"]
                ],
            )
        )
        sec.add(
            Table(
                ["cards lost to pirates", "seats", "win rate"],
                [[r["cards_lost"], f"{r['seats']:,}", _pct(r["win"])] for r in tab["pirates"]],
                "Win rate of a seat by the cards pirates took from it in the game.",
            )
        )
        out.append(sec)
    return out
