"""A run folder as the analyses see it: its manifest's facts plus a lazy scan of its games."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from simulator.contract.outcomes import with_outcome_columns
from simulator.contract.registry import GameSpec, available, get_game
from simulator.folders.run_folder import RunFolder


@dataclass(frozen=True)
class Run:
    """One run folder. ``label`` names it in reports (a study's label, else its variant)."""

    path: Path
    manifest: dict[str, Any]
    label: str
    params: dict[str, Any] = field(default_factory=dict)  # sweep coordinates, when in a sweep

    @classmethod
    def open(
        cls,
        path: str | Path,
        label: str | None = None,
        params: dict[str, Any] | None = None,
        *,
        deep: bool = True,
    ) -> Run:
        """Open a run folder, refusing a damaged one in one line (not a Polars traceback later).
        ``deep=False`` skips hashing the parts (for a writer reading the parts it just wrote)."""
        folder = RunFolder.open(path)
        manifest = folder.read_manifest()
        folder.ensure_sound(deep)
        variant = manifest["config"].get("variant", "default")
        return cls(folder.path, manifest, label or variant, dict(params or {}))

    def scan(self) -> pl.LazyFrame:
        """The run's games (checked by ``open``), with ``win_share`` even in a run written
        before the outcome model (``simulator.contract.outcomes``)."""
        return with_outcome_columns(RunFolder(self.path).scan(check=False), self.n_players)

    @property
    def config(self) -> dict[str, Any]:
        return self.manifest["config"]

    @property
    def game(self) -> str:
        return self.config["game"]

    @property
    def variant(self) -> str:
        return self.config.get("variant", "default")

    @property
    def n_players(self) -> int:
        return int(self.config["n_players"])

    @property
    def policies(self) -> list[str]:
        return list(self.config["policies"])

    @property
    def seed(self) -> int:
        return int(self.config["seed"])

    @property
    def planned_games(self) -> int:
        return int(self.config["games"])

    @property
    def chunk_size(self) -> int:
        return int(self.config["chunk_size"])

    @property
    def rules(self) -> dict[str, Any]:
        return dict(self.config["rules"])

    @property
    def rules_changed(self) -> dict[str, Any]:
        return dict(self.manifest.get("rules_changed", {}))

    @property
    def cooperative(self) -> bool:
        return bool(self.manifest.get("cooperative", False))

    @property
    def length_unit(self) -> str:
        return self.manifest.get("length_unit", "turns")

    @property
    def end_reasons(self) -> list[str]:
        return list(self.manifest.get("end_reasons", []))

    @property
    def version(self) -> str:
        return str(self.manifest.get("version", "unknown"))

    def columns(self) -> list[str]:
        return self.scan().collect_schema().names()

    def own_figures(self) -> dict[str, pl.Expr]:
        """The game's own counts and measures as one number per game (what ``mean:COLUMN``
        targets measure): a column with a value per seat counts every seat together. Codes,
        seats and cell lists are not amounts and are left out; a column's "none" value (-1: does
        not apply) is left out too, and a game where nothing applies has no value (null)."""
        spec = self.spec
        if spec is None:
            return {}
        schema = self.scan().collect_schema()
        out = {}
        for c in spec.columns:
            dtype, kind = schema.get(c), spec.kind_of(c)
            if dtype is None or not kind.averaged:
                continue
            if dtype.is_numeric():
                value = pl.col(c).cast(pl.Float64)
                out[c] = value if kind.none is None else pl.when(value != kind.none).then(value)
            elif isinstance(dtype, pl.List) and dtype.inner.is_numeric():
                items = pl.col(c)
                if kind.none is not None:
                    items = items.list.eval(pl.element().filter(pl.element() != kind.none))
                total = items.list.sum().cast(pl.Float64)
                out[c] = pl.when(items.list.len() > 0).then(total)
        return out

    def games_played(self) -> int:
        return int(self.scan().select(pl.len()).collect().item())

    @property
    def spec(self) -> GameSpec | None:
        """The game's declaration, when the game is registered in this installation."""
        return get_game(self.game) if self.game in available() else None

    def describe(self) -> dict[str, Any]:
        """What was run, in the terms a report's reader needs."""
        return {
            "label": self.label,
            "path": str(self.path),
            "game": self.game,
            "variant": self.variant,
            "rules_changed": self.rules_changed,
            "n_players": self.n_players,
            "policies": self.policies,
            "seed": self.seed,
            "games": self.games_played(),
            "games_planned": self.planned_games,
            "cooperative": self.cooperative,
            "length_unit": self.length_unit,
            "success_subject": self.spec.success_subject if self.spec else "the team",
            "version": self.version,
            "params": self.params,
            # a search that played to the end (its fit did not earn its place), only then
            **({"evaluation_fallback": f} if (f := self.evaluation_fallback) else {}),
        }

    @property
    def evaluation_fallback(self) -> str | None:
        """Why the search played every simulation to the end, when its fitted evaluation did
        not earn its place (``simulator.search.evaluation``); None otherwise."""
        return evaluation_fallback(self.manifest)


def evaluation_fallback(manifest: dict[str, Any]) -> str | None:
    """The manifest's sentence on a search fallen back to full playouts (None: no fallback)."""
    found = manifest.get("evaluation")
    if not isinstance(found, dict) or found.get("used", True):
        return None
    return str(found.get("fallback") or "the search played every simulation to the end")


def paired(a: Run, b: Run) -> bool:
    """Whether two runs share game seeds index by index (common random numbers)."""
    return a.seed == b.seed and a.chunk_size == b.chunk_size and a.game == b.game
