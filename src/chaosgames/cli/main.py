"""The `chaosgames` command's entry point and its error policy.

Every command either does what it was asked or prints one line on stderr and exits
non-zero, never with a traceback:

- 0: done;
- 1: the command was understood but failed (an unknown game, a bad option value, a
  record that cannot be read or does not replay, a file that cannot be written ...);
- 2: the command line cannot be read (an unknown command or flag, a missing argument,
  an option not written key=value ...);
- 130: stopped with Ctrl-C, at any moment (while starting too).

Set CHAOSGAMES_TRACEBACK=1 to see the traceback of an unexpected failure.
"""

from __future__ import annotations

import contextlib
import os
import sys


def main(argv: list[str] | None = None) -> int:
    """Run the `chaosgames` command with `argv` (default: the process's arguments)."""
    try:
        # Importing the commands (Typer, Rich, the lab) takes a moment: Ctrl-C during it
        # is an interruption like any other.
        from chaosgames.cli.app import run

        return run(argv)
    except KeyboardInterrupt:
        _say("Interrupted.")
        return 130
    except BrokenPipeError:
        # The reader of our output went away (`chaosgames list | head -1`): stop quietly.
        _silence_stdout()
        return 1
    except Exception as exc:
        if os.environ.get("CHAOSGAMES_TRACEBACK"):
            raise
        from chaosgames.core.errors import describe_exception

        _say(f"Error: unexpected {describe_exception(exc)} (this is a bug; please report it).")
        return 1


def _say(line: str) -> None:
    with contextlib.suppress(OSError, ValueError):
        print(line, file=sys.stderr, flush=True)


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":
    sys.exit(main())
