"""Frames: where the interpreter is in one running program.

A :class:`Frame` names the program it runs, its position ``pc`` and its
``locals``; the engine's state holds a list of them, so that a game can be
cloned or saved in the middle of an effect. Locals hold only plain values;
:func:`_jsonable` / :func:`_from_jsonable` are the tagged JSON encoding of
such values (tuples stay tuples), which the state uses for all of its data.
"""

from __future__ import annotations

# A frame's local set while a player takes actions without priority (an
# action window between its first action and its pass).
DECLARING = "_declaring"


class Frame:
    """Where the interpreter is in one running program, and its local values."""

    __slots__ = ("program", "pc", "locals")

    def __init__(self, program: str, pc: int = 0, locals: dict | None = None) -> None:
        self.program = program
        self.pc = pc
        self.locals = locals if locals is not None else {}

    def copy(self) -> "Frame":
        return Frame(self.program, self.pc, dict(self.locals))

    def to_json(self) -> list:
        return [self.program, self.pc, _jsonable(self.locals)]

    @classmethod
    def from_json(cls, data: list) -> "Frame":
        return cls(data[0], data[1], _from_jsonable(data[2]))


def cards_held(it) -> tuple:
    """The cards a local such as ``it`` holds (one card, several, or none)."""
    return () if it is None else it if isinstance(it, tuple) else (it,)


# values JSON keeps as they are (tested by type: the encoding is on the
# path of every state saved or checked, and most values are plain)
_PLAIN = frozenset((int, str, bool, float, type(None)))


def _jsonable(value):
    """Tuples become tagged lists so that JSON gives back the same values."""
    if type(value) in _PLAIN:
        return value
    if isinstance(value, tuple):
        return {"t": [v if type(v) in _PLAIN else _jsonable(v) for v in value]}
    if isinstance(value, list):
        return [v if type(v) in _PLAIN else _jsonable(v) for v in value]
    if isinstance(value, dict):
        return {"d": [[_jsonable(k), _jsonable(v)] for k, v in value.items()]}
    return value


def _from_jsonable(value):
    if type(value) in _PLAIN:
        return value
    if isinstance(value, dict):
        if "t" in value:
            return tuple([v if type(v) in _PLAIN else _from_jsonable(v) for v in value["t"]])
        return {_from_jsonable(k): _from_jsonable(v) for k, v in value["d"]}
    if isinstance(value, list):
        return [v if type(v) in _PLAIN else _from_jsonable(v) for v in value]
    return value


def did_all(f: Frame, cards: tuple) -> bool:
    """Whether a step on the cards it picked did what it asked ("If you
    do"): some cards, and not fewer than "exactly" asked ("Discard 2 cards"
    with one card in hand is not done; ``Decisions.pick`` marks it)."""
    return bool(cards) and not f.locals.pop("#short", False)
