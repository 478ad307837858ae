"""Caza-Tesoros (Yuyu, 2012): treasure hunting on an 18 x 18 hex sea, as a compiled simulator.

Rules as implemented: docs/rules/caza-tesoros.md. ``spec`` declares the game to the toolkit.
"""
