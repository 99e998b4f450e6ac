"""Typed errors. Every refusal names the rule (rulebook section) and the reason in plain words."""

from __future__ import annotations


class CompanionError(Exception):
    """Base class of every error the core raises on purpose."""


class RuleError(CompanionError):
    """The table asked for something the rules do not allow; nothing was changed.

    >>> e = RuleError("Rollers §2 Opening", "the 4s need four dice showing 4")
    >>> str(e)
    'the 4s need four dice showing 4 (Rollers §2 Opening)'
    """

    def __init__(self, rule: str, reason: str) -> None:
        super().__init__(f"{reason} ({rule})")
        self.rule = rule
        self.reason = reason


class IllegalMove(RuleError):
    """A move the rules forbid in the current state."""


class OutOfTurn(IllegalMove):
    """A move by a player whose turn it is not, or at a time the table must do something else."""


class ImpossibleRoll(RuleError):
    """Dice results that cannot be: a face the die does not have, missing or extra dice."""


class DataError(CompanionError):
    """A data file (dice, cards, sheets, boards, courses) is invalid; the message names what and where."""


class RecordError(CompanionError):
    """A game record cannot be read. ``line`` is 1-based, or None when the whole record is at fault."""

    def __init__(self, problem: str, line: int | None = None) -> None:
        where = f"line {line}: " if line is not None else ""
        super().__init__(f"{where}{problem}")
        self.line = line
        self.problem = problem
