"""The shared search the compiled games play with (tree.py) and the evaluations it reads, fitted on
recorded positions (evaluation.py)."""
