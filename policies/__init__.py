"""Each game's policies: ``policies/<game>.py`` declares them
(``simulator.contract.policy.PolicyDef``) with the compiled decision functions the game's engine
calls."""
