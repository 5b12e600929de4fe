"""Running the `chaosgames` command in this process: `cli("list")` -> Result."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class Result:
    """What a command did: its exit status and what it printed."""

    status: int
    out: str
    err: str

    def failed_with(self, status: int, message: str) -> bool:
        """Exit `status`, one line on stderr holding `message`, no traceback."""
        lines = self.err.strip().splitlines()
        return (
            self.status == status and len(lines) == 1 and message in lines[0] and "Traceback" not in self.err
        )


Run = Callable[..., Result]
