"""How the rules engines say things to players."""

from __future__ import annotations


def count_of(n: int, thing: str) -> str:
    """``n`` things, said as a player would ("1 caddie card", "3 caddie cards", "0 points").

    >>> count_of(1, "caddie card"), count_of(3, "caddie card"), count_of(0, "point")
    ('1 caddie card', '3 caddie cards', '0 points')
    """
    return f"{n} {thing}" if n == 1 else f"{n} {thing}s"
