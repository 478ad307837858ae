"""Pirateer (Scott Peterson 1978, Mendocino Game Company 1995): 2d6 ship racing and capturing on
the real 232-space board, as a compiled simulator.

Rules as implemented: docs/rules/pirateer.md. ``SPEC`` is in :mod:`.spec`; this module imports
nothing, because the policies import the game's state.
"""
