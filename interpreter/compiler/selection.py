"""What a compiled selector is (:class:`Selection`): the cards it may
pick as the game runs, and how many. ``selectors`` compiles selectors into
it; the machine's decisions pick from it."""

from __future__ import annotations

from typing import Callable

import attrs


@attrs.frozen
class Selection:
    """Which cards a selector may pick, and how many.

    ``candidates(machine, frame)`` lists card ids; ``how`` is "all" (every
    candidate), "one", ("exactly", n) or ("up to", n) — the player picks;
    n is a number, or a function of (machine, frame) for a number read as
    the step runs ("Exert X ready cards", X named by the sentence: see
    :meth:`count`). ``given`` is set when the selector names cards already
    known (this, it).
    """

    candidates: Callable
    how: object
    given: bool = False
    plural: bool = False
    test: Callable | None = None   # (machine, frame, card) -> whether it fits
    # "with a total cost of 4": (stat, amount function); cards are
    # picked while the total stays within it, never two of one unique title
    budget: tuple | None = None
    # (machine, frame, n[, also]) -> whether there are n candidates or more
    # (that pass the test ``also`` too, if given), looking no further than
    # the n-th ("If you have a card in your deck", checked after every step
    # by a state rule, stops at the first card)
    at_least: Callable | None = None
    # (machine, frame, n[, also]) -> the first n candidates (fewer if there
    # are fewer), looking no further: what a cost's step would use
    first: Callable | None = None

    def count(self, m, f) -> int:
        """The n of ("exactly", n) / ("up to", n) ..., read now."""
        n = self.how[1]
        return n(m, f) if callable(n) else n
