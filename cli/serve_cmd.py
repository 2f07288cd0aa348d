"""Commands (being written)."""

COMMANDS: list = []
