"""Every game, each in its folder: the five shipped games and own_game, a designer's game in one
Python file."""
