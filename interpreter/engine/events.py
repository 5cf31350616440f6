"""The log's events: one class for each kind of thing that happens in a game.

The primitives (``interpreter.engine.operations`` and the machine's
windows) record every change of state, every choice and every pass as one
event in ``GameState.log``. Events drive triggers and state rules, and they
*are* the game's log: narration (``interpreter.engine.narration``) turns them
into sentences only when someone reads them.

An event is an immutable tuple: its kind (a short string, the class's
``KIND``) followed by its fields, which the class names: ``Moved(card,
source, destination, face_up)`` is read as ``event.card``,
``event.destination``. Being a tuple, an event is cheap to make, to copy with
the log and to compare, and it serializes as the plain values it holds; being
a class, it says what it carries. ``from_values`` rebuilds an event from its
values (a state read back from JSON).

Fields that name a card hold its id; a zone is ``(name, owner)`` (owner -1:
shared); a player is a seat index (0 is Player 1).
"""

from __future__ import annotations

from operator import itemgetter
from typing import ClassVar

EVENT_KINDS: dict[str, type["Event"]] = {}


class Event(tuple):
    """An event: ``(KIND, *fields)``. Subclasses set ``KIND`` and ``FIELDS``."""

    __slots__ = ()
    KIND: ClassVar[str] = ""
    FIELDS: ClassVar[tuple[str, ...]] = ()
    # whether what the event records changes what a condition can read (a
    # zone, a counter, a status, the period ...): state rules look again
    # only after such an event
    CHANGES_STATE: ClassVar[bool] = True
    ARITY: ClassVar[int] = 0
    kind = property(itemgetter(0), doc="the event's kind: its class's KIND")

    def __new__(cls, *values):
        if len(values) != cls.ARITY:
            raise TypeError(f"{cls.__name__} takes {len(cls.FIELDS)} values "
                            f"({', '.join(cls.FIELDS)}), not {len(values)}")
        return tuple.__new__(cls, (cls.KIND,) + values)

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        if cls.KIND in EVENT_KINDS:
            raise TypeError(f"two event classes for the kind {cls.KIND!r}")
        EVENT_KINDS[cls.KIND] = cls
        cls.ARITY = len(cls.FIELDS)
        for index, name in enumerate(cls.FIELDS, 1):
            setattr(cls, name, property(itemgetter(index)))

    def __getnewargs__(self):      # copy.copy makes an event again from its fields
        return tuple(self[1:])

    def __repr__(self) -> str:
        fields = ", ".join(f"{n}={v!r}" for n, v in zip(self.FIELDS, self[1:]))
        return f"{type(self).__name__}({fields})"


def from_values(values) -> Event:
    """The event these values are (its kind first), as read back from JSON."""
    kind, *rest = values
    return EVENT_KINDS[kind](*rest)


# ---- the game

class Started(Event):
    """A game begins; ``first`` is None when a player chooses who goes first."""
    KIND = "start"
    FIELDS = ("players", "seed", "first")


class SetUp(Event):
    """A game set up at a given position (a ruling's scenario)."""
    KIND = "position"
    FIELDS = ("players", "seed", "turn", "player", "phase")


class Marked(Event):
    """A milestone kept for the engine's invariants, never narrated ("setup")."""
    KIND = "mark"
    FIELDS = ("what",)
    CHANGES_STATE = False


class Note(Event):
    """A line the rules' procedures tell ("Player 2 goes first.")."""
    KIND = "note"
    FIELDS = ("text",)
    CHANGES_STATE = False


class PlayerOut(Event):
    """A player is out of the game (lost), for ``reason``."""
    KIND = "out"
    FIELDS = ("player", "reason")


class GameEnded(Event):
    """The game is over: ``outcome`` "win" (``player`` won) or "draw" (``player`` None)."""
    KIND = "end"
    FIELDS = ("outcome", "player", "reason")


# ---- turns and periods

class TurnStarted(Event):
    KIND = "turn"
    FIELDS = ("number", "player")


class PeriodEdge(Event):
    """A period (``what``: turn, round, phase, step, move ...) starts or ends:
    ``edge`` "start" or "end"; ``number`` counts the period's occurrences."""
    KIND = "period"
    FIELDS = ("what", "name", "number", "edge")


class Taken(Event):
    """A phase or step taken by each player in turn: whose it is now."""
    KIND = "taker"
    FIELDS = ("player", "name")


class Expired(Event):
    """Modifiers lasting until this edge of this period ended."""
    KIND = "expire"
    FIELDS = ("period", "number", "edge")


# ---- cards

class Moved(Event):
    """A card moved between zones (to the same zone: moved within it)."""
    KIND = "move"
    FIELDS = ("card", "source", "destination", "face_up")


class Created(Event):
    """A card (a token) was made, outside the game until it is moved in."""
    KIND = "create"
    FIELDS = ("card", "name", "owner")


class Shuffled(Event):
    KIND = "shuffle"
    FIELDS = ("zone",)


class StatusChanged(Event):
    """A card gained (``on``) or lost a status."""
    KIND = "status"
    FIELDS = ("card", "status", "on")


class Related(Event):
    """A card began (``on``) or stopped holding a relation toward another
    ("X is blocking Y")."""
    KIND = "relation"
    FIELDS = ("card", "relation", "other", "on")


class Flipped(Event):
    KIND = "flip"
    FIELDS = ("card", "face_up")


class Revealed(Event):
    """A card was revealed: to every player (``to_player`` -1) or shown to one."""
    KIND = "reveal"
    FIELDS = ("card", "to_player")
    CHANGES_STATE = False


class Attached(Event):
    """A card was attached to another (placed at a place: ``face_up`` as placed)."""
    KIND = "attach"
    FIELDS = ("card", "host", "face_up")


class ControlChanged(Event):
    """A card changed controller without leaving play: it went to the same
    zone of the new controller (its statuses, counters and modifiers kept)."""
    KIND = "control"
    FIELDS = ("card", "player")


class Kept(Event):
    """A card stayed in a zone whose cards never leave it."""
    KIND = "kept"
    FIELDS = ("card", "zone")


class ZoneFull(Event):
    """A card did not go to a zone whose every slot is taken."""
    KIND = "full"
    FIELDS = ("card", "zone")


class Prevented(Event):
    """Something a card can't do or undergo did not happen ("leave play"); or
    a game verb a player can't do (``card``: -1 - player)."""
    KIND = "prevented"
    FIELDS = ("what", "card")


class Replaced(Event):
    """A card would undergo ``what``; ``source``'s effect happens instead.
    ``again``: the card has the status it would get already."""
    KIND = "replace"
    FIELDS = ("what", "card", "source", "again")


class ReplacedForPlayer(Event):
    """A player would undergo ``what`` (``amount`` of it); ``source``'s effect
    happens instead."""
    KIND = "replace player"
    FIELDS = ("what", "player", "source", "amount")


class Compared(Event):
    """Two cards' numbers compared ("Compare X against Y by STAT")."""
    KIND = "compare"
    FIELDS = ("one", "first", "other", "second", "stat")
    CHANGES_STATE = False


# ---- counters, values and modifiers

class CounterChanged(Event):
    """A player's counter (``player`` -1: a game-wide counter) changed."""
    KIND = "counter"
    FIELDS = ("player", "name", "old", "new")


class CardCounterChanged(Event):
    """A counter on a card (damage, a slot ...) changed."""
    KIND = "card-counter"
    FIELDS = ("card", "name", "old", "new")


class ValueRevealed(Event):
    """A player reveals a secret value they chose."""
    KIND = "revealed value"
    FIELDS = ("player", "name", "value")
    CHANGES_STATE = False


class Modified(Event):
    """A modifier applies to ``target`` (a card, or -1 - player): ``what`` is
    its kind (stat, keyword, cannot, cost ...), ``name`` what it changes."""
    KIND = "modifier"
    FIELDS = ("target", "what", "name", "amount")


class PlaceReached(Event):
    """A loop over a row of places reaches this place."""
    KIND = "place"
    FIELDS = ("place",)


class GainWaits(Event):
    """An amount of a counter kept per place waits at ``place`` (None: lost)."""
    KIND = "waits"
    FIELDS = ("player", "name", "place", "amount")


# ---- decisions, actions and what triggers can name

class Chose(Event):
    """A player answered a decision (``what``: its kind) with ``label``."""
    KIND = "choice"
    FIELDS = ("player", "what", "prompt", "label")
    CHANGES_STATE = False


class Passed(Event):
    KIND = "pass"
    FIELDS = ("player",)
    CHANGES_STATE = False


class ActionTaken(Event):
    """A player takes an action of the rules (on ``card``, or None)."""
    KIND = "action"
    FIELDS = ("player", "name", "card")
    CHANGES_STATE = False


class AbilityUsed(Event):
    """A player uses a card's ability (its label, such as a timing word)."""
    KIND = "activate"
    FIELDS = ("player", "label", "card")
    CHANGES_STATE = False


class Occurred(Event):
    """An event cards and rules trigger on ("played", "deals damage to"):
    ``card`` (one, several as a tuple, or None), the ``player`` doing it, and
    what it was done to (``target``: a card, -1 - player, or None)."""
    KIND = "event"
    FIELDS = ("name", "card", "player", "target")
    CHANGES_STATE = False


# ---- waiting effects (the chain or stack)

class EntryWaits(Event):
    """An effect waits to resolve: entry ``entry`` at ``height``."""
    KIND = "entry"
    FIELDS = ("entry", "source", "controller", "height")
    CHANGES_STATE = False


class EntryResolved(Event):
    KIND = "resolve"
    FIELDS = ("entry", "source")
    CHANGES_STATE = False


class EntryNullified(Event):
    KIND = "nullify"
    FIELDS = ("entry", "source")
    CHANGES_STATE = False


class EffectCopied(Event):
    """An effect resolves again under ``player``'s control ("Copy that
    effect"): the effect of ``source``."""
    KIND = "copy effect"
    FIELDS = ("source", "player")
    CHANGES_STATE = False


class EntryFizzled(Event):
    """An effect does not resolve, for ``reason``."""
    KIND = "fizzle"
    FIELDS = ("entry", "source", "reason")
    CHANGES_STATE = False


# The events that can change where cards are, whose they are, their kinds
# (a copy, a face) and statuses: all a state rule that reads only places
# ("If a player controls no creatures", ``reads_only_places``) can see
# change. A turn's start is among them: the state rules look from the
# first turn on.
PLACE_EVENTS = frozenset({
    SetUp.KIND, PlayerOut.KIND, TurnStarted.KIND, Expired.KIND, Moved.KIND, Created.KIND,
    Shuffled.KIND, StatusChanged.KIND, Related.KIND, Flipped.KIND, Attached.KIND,
    ControlChanged.KIND, Modified.KIND,
})

# The events that do something to the card in their first field (Modified:
# its target, a card or -1 - player). A game verb that "counts as" an event
# logs it only for the cards its definition did one of these to: "Revive
# {card}" of a card that is no longer in the void does nothing and is no
# revival; an exile a replacement turned into something else is no exile.
_ACTS_ON_CARD = frozenset({
    Moved.KIND, Created.KIND, StatusChanged.KIND, Related.KIND, Flipped.KIND,
    Revealed.KIND, Attached.KIND, ControlChanged.KIND, CardCounterChanged.KIND,
    Modified.KIND,
})


def cards_acted_on(events) -> set[int]:
    """The cards these events did something to (``_ACTS_ON_CARD``)."""
    return {event[1] for event in events
            if event[0] in _ACTS_ON_CARD and event[1] is not None and event[1] >= 0}
