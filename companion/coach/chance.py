"""Every outcome of a roll with its probability, and small helpers for seeded estimates.

Dice of the same kind are interchangeable for the games here, so a roll is enumerated as one
multiset of faces per kind, weighted by its multinomial count: four d6 give 126 outcomes instead
of 1296. The faces of a multiset go to that kind's slots in order.

>>> len(roll_outcomes((DieSpec("a", "d6"), DieSpec("b", "d6"))))
21
>>> round(sum(p for _, p in roll_outcomes((DieSpec("a", "d6"), DieSpec("b", "d6")))), 12)
1.0
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from functools import cache
from itertools import combinations_with_replacement, product

from companion.dice import die_kind
from companion.protocol import DieResult, DieSpec, Roll, Source


@cache
def multisets(kind: str, count: int) -> tuple[tuple[tuple[str, ...], float], ...]:
    """Each multiset of ``count`` faces of die ``kind`` with its probability."""
    labels = die_kind(kind).labels
    total = len(labels) ** count
    out = []
    for combo in combinations_with_replacement(labels, count):
        ways = math.factorial(count)
        for n in Counter(combo).values():
            ways //= math.factorial(n)
        out.append((combo, ways / total))
    return tuple(out)


@cache
def roll_outcomes(dice: tuple[DieSpec, ...]) -> tuple[tuple[Roll, float], ...]:
    """Every distinct roll of ``dice`` (up to interchanging dice of one kind) with its probability."""
    kinds: dict[str, list[str]] = {}
    for d in dice:
        kinds.setdefault(d.kind, []).append(d.slot)
    groups = [[(tuple(zip(slots, faces, strict=True)), p) for faces, p in multisets(kind, len(slots))]
              for kind, slots in kinds.items()]
    out = []
    for parts in product(*groups):
        prob = math.prod(p for _, p in parts)
        results = tuple(DieResult(s, f) for pairs, _ in parts for s, f in pairs)
        out.append((Roll(results, Source.SIMULATED), prob))
    return tuple(out)


def mean_and_error(values: Sequence[float]) -> tuple[float, float]:
    """The sample mean and its standard error."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0
    mean = sum(values) / n
    if n == 1:
        return mean, 0.0
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(var / n)
