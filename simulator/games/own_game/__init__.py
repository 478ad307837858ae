"""A designer's own game in one plain-Python file (docs/own-game.md).

``loader`` reads and checks the file into a :class:`~.loader.GameFile`; ``play`` is the generic
chunk loop that plays it; ``search`` the search player for any such game (``fairness`` what it
refuses, ``value`` the value it may learn from the file's scores); ``watchdog`` the call limit;
``checks`` the promises of the protocol (``balance check-game``); ``spec`` builds the
:class:`GameSpec` that enters the registry like a shipped game's.
"""
