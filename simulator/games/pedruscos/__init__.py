"""Pedruscos del Espacio (Wormy & Leechy, a rule set for the Trivio 1000 board), compiled.

Rules as implemented: docs/rules/pedruscos.md. Score for the drama analysis: points.
No imports here: policies import the state layout, so SPEC lives in ``spec``.
"""
