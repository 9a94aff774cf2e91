"""``python3 -m minesat``: the same as the ``minesat`` command."""

from minesat.cli import main

if __name__ == "__main__":
    main()
