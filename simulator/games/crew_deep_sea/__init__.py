"""The Crew: Mission Deep Sea (Kosmos 2021): cooperative trick-taking, one logbook mission per
simulated game (docs/rules/crew-deep-sea.md). ``spec`` declares the game to the toolkit.
"""
