"""The command line's machinery: the Typer app, every option's declaration, the games' own
commands."""
