"""The game contract: what a game is, declares and gives back (rules, policies, boards, data files,
recordings, outcomes), and the registry of games."""
