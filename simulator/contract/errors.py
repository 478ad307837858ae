"""The one exception type that means "the user asked for something we cannot do"."""


class BalanceError(Exception):
    """Bad input from a designer: the CLI prints the message on one line and exits with code 2.

    The message must name the problem and what is allowed, e.g.
    ``unknown rule 'foo' for GAME; known rules: a, b, c``.
    """
