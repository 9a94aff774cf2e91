"""``python3 -m minesat`` and the ``minesat`` command (:func:`main`)."""

from __future__ import annotations

import sys

__all__ = ["main"]


def main() -> None:
    """Load the command line and run it; Ctrl-C while it loads is said as in any command."""
    try:
        from minesat.cli import main as command_line
    except KeyboardInterrupt:
        sys.stderr.write("minesat: interrupted\n")
        raise SystemExit(130) from None
    command_line()


if __name__ == "__main__":
    main()
