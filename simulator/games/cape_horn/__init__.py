"""Cape Horn (Thorsten Gimmler, Kosmos 1999): the clipper race steered by wind cards the players
lay, as a compiled simulator. Rules as implemented: docs/rules/cape-horn.md; the game's
``SPEC`` is in :mod:`simulator.games.cape_horn.spec`.
"""
