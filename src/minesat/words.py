"""Counts in messages read as English: ``1 mine``, ``2 mines``, ``1 try``, ``3 tries``.

Below every other module (it imports none of them), so a file reader's error and a
report's caption count alike.

>>> plural(1, "mine"), plural(2, "mine"), plural(1, "try"), plural(0, "guess"), plural(12345, "game", ",")
('1 mine', '2 mines', '1 try', '0 guesses', '12,345 games')
>>> f"{plural(1, 'mine')} {agree(1, 'does', 'do')} not fit"
'1 mine does not fit'
"""

from __future__ import annotations

__all__ = ["agree", "plural"]


def plural(count: int, noun: str, spec: str = "") -> str:
    """``count`` and ``noun``, the noun plural unless the count is 1; ``spec`` formats the count (``","``).

    Only the last word of ``noun`` changes: ``plural(2, "start class")`` is ``'2 start classes'``.

    >>> plural(2, "start class"), plural(2, "byte"), plural(1, "byte"), plural(2, "day")
    ('2 start classes', '2 bytes', '1 byte', '2 days')
    """
    text = format(count, spec)
    if count == 1:
        return f"{text} {noun}"
    if noun.endswith(("s", "sh", "ch", "x")):
        return f"{text} {noun}es"
    if noun.endswith("y") and noun[-2:-1] not in ("a", "e", "i", "o", "u"):
        return f"{text} {noun[:-1]}ies"
    return f"{text} {noun}s"


def agree(count: int, singular: str, plural_form: str) -> str:
    """The verb (or any word) that goes with ``count``: ``singular`` for 1, else ``plural_form``.

    >>> agree(1, "is", "are"), agree(3, "is", "are")
    ('is', 'are')
    """
    return singular if count == 1 else plural_form
