"""The `chaosgames` command (Typer + Rich)."""
