"""The games' own commands, one module per game that has any.

A game names its commands on its spec (``GameSpec.commands``, "module:function" like its report
sections) and the command line adds them. They sit here, at the top with ``cli.py``, because a
command plays runs, reads analyses and writes reports: a game's own package sits below all of
those and may import none of them.
"""
