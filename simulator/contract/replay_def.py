"""A game's replay declaration (``GameSpec.replay``), apart from
:mod:`simulator.contract.recording`'s compiled buffer functions, so that the registry and a game
file's spec never import numba."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

    from .rules import RuleSet


@dataclass(frozen=True)
class ReplayDef:
    """How a game is replayed and shown (``GameSpec.replay``); see docs/architecture.md.

    - ``play(rules, n_players, policy_ids, policy_params, seed, **engine_args) -> (events,
      columns)``: one game played by the engine's chunk function with a recording buffer
      (``engine_args`` as a run passes them: ``outside``, the compiled policies of a policy file)
      (:func:`play_recorded`): the event rows (int64[E, W]) and the columns ``play_chunk``
      returns for ``seeds = [seed]`` (one entry each).
    - ``decode(rules, n_players, events) -> list[dict]``: one dict per event row, starting
      ``{"step", "player", "kind": "<name>", ...}``; board places are the game's own
      coordinates (e.g. ``[x, y]``), never internal ids; JSON values only.
    - ``text(event) -> str``: one line for a decoded event (the step is printed before it).
    - ``frames(rules, n_players, rows, events) -> list[dict]`` (games with a board; ``rows``
      the raw event rows, ``events`` their decoded dicts): the picture
      before the first event and after each one (``len(events) + 1`` frames), each
      ``{"pieces": [{"cell", "seat", "label"[, "carry"]}], "marks": [cell, ...]}``; ``cell``
      is a cell id of ``GameSpec.board(rules)``, ``seat`` -1 for a neutral piece, ``carry``
      a short word drawn on the piece (e.g. the treasure), ``marks`` the cells the event
      touched (drawn outlined).
    - ``table(rules, n_players, rows, events) -> dict`` (games without a board, or a second view):
      ``{"title", "columns": [...], "rows": [[...]], "event_of_row": [...]}``: the row shown
      up to event ``event_of_row[i]`` (e.g. one row per trick), the page shows rows up to the
      current step.
    - ``compiled_apart``: the engine compiles a recorded game as a variant of its own (a run
      passes no buffer, None, and numba leaves the recording out of the run's compile), so a
      replay's first compile is announced and marked apart from a run's.
    """

    play: Callable[..., tuple[np.ndarray, dict]]
    decode: Callable[[RuleSet, int, np.ndarray], list[dict[str, Any]]]
    text: Callable[[dict[str, Any]], str]
    frames: Callable[[RuleSet, int, np.ndarray, list[dict]], list[dict[str, Any]]] | None = None
    table: Callable[[RuleSet, int, np.ndarray, list[dict]], dict[str, Any]] | None = None
    # piece label (or a kind of labels, "1, 2, ...") -> what the piece is: the page's key
    pieces: dict[str, str] = field(default_factory=dict)
    compiled_apart: bool = False
