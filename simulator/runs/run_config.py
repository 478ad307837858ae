"""A run's validated configuration: everything that decides its results
(:func:`simulator.runs.plan.plan_run` makes one)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from simulator.compiling.jit import engine_source
from simulator.contract.policy import SeatPolicy
from simulator.contract.registry import GameSpec
from simulator.contract.rules import RuleSet
from simulator.folders.run_folder import FORMAT
from simulator.search.evaluation import Evaluation, wants_evaluation

from .policy_file import PolicyFile


@dataclass(frozen=True)
class RunConfig:
    """Everything that decides a run's results, validated."""

    spec: GameSpec
    rules: RuleSet
    variant: str
    seats: tuple[SeatPolicy, ...]
    seed: int
    games: int
    chunk_size: int
    policy_file: PolicyFile | None = None  # travels with the run (Dask workers compile it)
    # The search player's fitted evaluation (its coefficients are in the seats' rows already).
    evaluation: Evaluation | None = None

    @property
    def n_players(self) -> int:
        return len(self.seats)

    @property
    def unfitted(self) -> bool:
        """Planned with ``fit=False``, its evaluation not yet given (:func:`with_evaluations`)."""
        return self.evaluation is None and wants_evaluation(self.spec, self.seats)

    @property
    def policy_labels(self) -> list[str]:
        return [s.label for s in self.seats]

    def chunks(self) -> list[tuple[int, int, int]]:
        """(chunk index, first game index, games in chunk) for every chunk."""
        return [
            (i, first, min(self.chunk_size, self.games - first))
            for i, first in enumerate(range(0, self.games, self.chunk_size))
        ]

    def manifest(self) -> dict[str, Any]:
        from importlib.metadata import PackageNotFoundError, version

        try:
            pkg_version = version("balance")
        except PackageNotFoundError:
            pkg_version = "unknown"
        return {
            "format": FORMAT,
            "config": {
                "game": self.spec.id,
                "variant": self.variant,
                "rules": self.rules.to_dict(),
                "n_players": self.n_players,
                "policies": self.policy_labels,
                "seed": self.seed,
                "games": self.games,
                "chunk_size": self.chunk_size,
                # Games played by other engine code must not be mixed into this run on resume.
                "engine_source": engine_source(),
                **self.spec.fingerprint(),
                # Resuming with an edited policy file would mix two different policies.
                **({"policy_file": self.policy_file.sha256} if self.policy_file else {}),
                # A resume must score positions with the same fitted evaluation.
                **({"evaluation": self.evaluation.key} if self.evaluation else {}),
                # ... and play to the end when that fit did not earn its place.
                **(
                    {"evaluation_fallback": "full playouts"}
                    if self.evaluation and not self.evaluation.used
                    else {}
                ),
                # Likewise a replaced data file (its text is kept below, outside the config).
                **(
                    {"data": {s.name: s.sha256 for s in self.rules.data}} if self.rules.data else {}
                ),
            },
            "rules_changed": self.rules.changed(),
            "cooperative": self.spec.cooperative,
            "length_unit": self.spec.unit(self.rules),
            "end_reasons": list(self.spec.end_reasons),
            "columns": self.spec.columns,
            "version": pkg_version,
            **self.spec.kept(),
            # The file itself, so `balance verify --repair` can replay the run without it.
            **(
                {"policy_file": {"path": self.policy_file.path, "source": self.policy_file.source}}
                if self.policy_file
                else {}
            ),
            **(
                {"data": {s.name: s.as_manifest() for s in self.rules.data}}
                if self.rules.data
                else {}
            ),
            **({"evaluation": self.evaluation.manifest()} if self.evaluation else {}),
        }
