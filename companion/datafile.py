"""The editable data files shipped in ``companion/data`` (TOML): reading them with errors that name
the file, so a player who edits one to match their copy of a game is told what is wrong and where.

>>> parse_toml("faces = [", "my.toml")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
companion.errors.DataError: my.toml: not valid TOML: ...
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any

from companion.errors import DataError


def parse_toml(text: str | bytes, origin: str) -> dict[str, Any]:
    """Parse TOML text (or UTF-8 bytes); :class:`DataError` names ``origin`` and the problem."""
    try:
        return tomllib.loads(text.decode("utf-8") if isinstance(text, bytes) else text)
    except UnicodeDecodeError as exc:
        raise DataError(f"{origin}: not UTF-8 text: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{origin}: not valid TOML: {exc}") from None


def check_keys(table: Mapping[str, Any], allowed: Sequence[str], where: str) -> None:
    """Refuse a key of ``table`` not in ``allowed``: ``WHERE has unknown keys [...]; allowed: ...``."""
    unknown = set(table) - set(allowed)
    if unknown:
        raise DataError(f"{where} has unknown keys {sorted(unknown)}; allowed: {', '.join(allowed)}")


def check_table(body: object, allowed: Sequence[str], where: str) -> Mapping[str, Any]:
    """``body`` as a table holding only ``allowed`` keys, else :class:`DataError` naming ``where``.

    >>> check_table({"name": "d6", "colour": "red"}, ("name", "faces"), "dice.toml: [d6]")
    Traceback (most recent call last):
    ...
    companion.errors.DataError: dice.toml: [d6] has unknown keys ['colour']; allowed: name, faces
    """
    if not isinstance(body, Mapping):
        raise DataError(f"{where} must be a table")
    check_keys(body, allowed, where)
    return body


def shipped_names() -> list[str]:
    """The names of the files in ``companion/data``, sorted."""
    return sorted(entry.name for entry in (resources.files("companion") / "data").iterdir())


def read_shipped(name: str) -> dict[str, Any]:
    """The parsed TOML of the shipped data file ``name``."""
    return parse_toml((resources.files("companion") / "data" / name).read_bytes(), name)
