"""Placeholder: commands land here."""

from minesat.cli import app  # noqa: F401
