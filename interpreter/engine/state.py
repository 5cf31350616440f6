"""Game state as plain data: cards, zones, players, counters, the program
stack, the pending decision and the random generator.

Nothing here knows any game: zone, counter and status names are strings
from the rules file. Every container holds only ints, strings, tuples and
small slotted records, so that

* :meth:`GameState.clone` copies structure (no ``copy.deepcopy``), fast
  enough to clone at every decision of a search;
* :meth:`GameState.to_json` / :meth:`GameState.from_json` round-trip any
  state, mid-resolution included (no suspended generator holds state: the
  interpreter's position is the ``frames`` list).

State changes go through ``interpreter.engine.operations``; this module only holds
and copies data. A frame (:class:`~interpreter.compiler.frames.Frame`, the
position in a running program) is the compiler's; it is re-exported here
with the rest of the state's plain data.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from interpreter.compiler.frames import DECLARING, Frame, _from_jsonable, _jsonable
from interpreter.engine.events import Event, from_values
from interpreter.engine.rng import Random

ZoneKey = tuple  # (zone name, owner index or -1 for a shared zone)

__all__ = ["DECLARING", "AbilityUse", "ActionUse", "CardState", "Decision", "ExchangeUse", "Frame",
           "GameState", "Modifier", "TriggerUse", "ZoneKey"]


# ---- what a per-period limit counts (the keys of GameState.limits); each
# ends with the period and which one of it (its count when the use was made)

class AbilityUse(NamedTuple):
    """An ability's "once per PERIOD": per card name and ability, for the
    player using it (every card of theirs with that name shares it), or per
    card (its id) where the rules file says "once per: each card"."""
    card: str | int
    ability: str
    player: int
    period: str
    count: int


class TriggerUse(NamedTuple):
    """A triggered ability's (or a replacement's) "once per PERIOD", on the
    card that has it."""
    source: int
    program: str
    period: str
    count: int


class ActionUse(NamedTuple):
    """An action's limit: the action (its index, or the name it is shared
    as), its player, the card (for a limit per card, else None)."""
    action: Any
    player: int
    card: int | None
    period: str
    count: int


class ExchangeUse(NamedTuple):
    """An exchange stat of a card, made by a player in this step (the step's
    name is its period)."""
    player: int
    place: int
    stat: str
    period: str | None
    count: int


_LIMIT_KINDS = {kind.__name__: kind for kind in (AbilityUse, TriggerUse, ActionUse, ExchangeUse)}


class CardState:
    """One physical card in a game."""

    __slots__ = ("id", "name", "owner", "controller", "zone", "face_up",
                 "statuses", "counters", "attached_to", "entered", "relations")

    def __init__(self, id: int, name: str, owner: int, zone: ZoneKey,
                 face_up: bool = False) -> None:
        self.id = id
        self.name = name
        self.owner = owner
        self.controller = owner
        self.zone = zone
        self.face_up = face_up
        self.statuses: tuple[str, ...] = ()
        self.counters: tuple[tuple[str, int], ...] = ()
        self.attached_to: int | None = None
        self.entered = 0          # event number when it entered its zone
        # relations held toward other cards and by them toward this one:
        # (relation, other card, True when this card holds it), see
        # operations.relate ("X is blocking Y": X has ("blocking", Y, True),
        # Y has ("blocking", X, False))
        self.relations: tuple[tuple[str, int, bool], ...] = ()

    def copy(self) -> "CardState":
        twin = CardState.__new__(CardState)
        twin.id = self.id
        twin.name = self.name
        twin.owner = self.owner
        twin.controller = self.controller
        twin.zone = self.zone
        twin.face_up = self.face_up
        twin.statuses = self.statuses
        twin.counters = self.counters
        twin.attached_to = self.attached_to
        twin.entered = self.entered
        twin.relations = self.relations
        return twin

    def counter(self, name: str) -> int:
        for key, value in self.counters:
            if key == name:
                return value
        return 0

    def to_json(self) -> dict:
        """The card as JSON data, each field by its name (docs/api.md)."""
        return {"id": self.id, "name": self.name, "owner": self.owner,
                "controller": self.controller, "zone": list(self.zone),
                "face_up": self.face_up, "statuses": list(self.statuses),
                "counters": [list(c) for c in self.counters],
                "attached_to": self.attached_to, "entered": self.entered,
                "relations": [list(r) for r in self.relations]}

    @classmethod
    def from_json(cls, data: dict) -> "CardState":
        card = cls(data["id"], data["name"], data["owner"], tuple(data["zone"]),
                   data["face_up"])
        card.controller = data["controller"]
        card.statuses = tuple(data["statuses"])
        card.counters = tuple((k, v) for k, v in data["counters"])
        card.attached_to = data["attached_to"]
        card.entered = data["entered"]
        card.relations = tuple((name, other, holds) for name, other, holds
                               in data.get("relations", ()))
        return card


class Modifier:
    """A change in force for a while: +N to a stat, a keyword, a prohibition.

    ``until`` names when it ends (a period name and the number of that period
    in which it ends); ``source`` is the card that made it.
    """

    __slots__ = ("target", "kind", "name", "amount", "source", "until")

    def __init__(self, target: int, kind: str, name: str, amount: int,
                 source: int | None, until: tuple) -> None:
        self.target, self.kind, self.name = target, kind, name
        self.amount, self.source, self.until = amount, source, until

    def to_json(self) -> dict:
        return {"target": self.target, "kind": self.kind, "name": self.name,
                "amount": self.amount, "source": self.source, "until": list(self.until)}

    @classmethod
    def from_json(cls, data: dict) -> "Modifier":
        return cls(data["target"], data["kind"], data["name"], data["amount"],
                   data["source"], tuple(data["until"]))


class Decision:
    """A choice a player must make now, with every legal option listed."""

    __slots__ = ("player", "kind", "prompt", "options", "store", "labels")

    def __init__(self, player: int, kind: str, prompt: str, options: tuple,
                 store: str, labels: tuple = ()) -> None:
        self.player = player
        self.kind = kind          # "action", "target", "order", "yes-no", ...
        self.prompt = prompt
        self.options = options    # plain values (ints, strings, tuples)
        self.store = store        # the local the answer goes into
        self.labels = labels      # how each option reads (for people and logs)

    def to_json(self) -> dict:
        return {"player": self.player, "kind": self.kind, "prompt": self.prompt,
                "options": _jsonable(self.options), "store": self.store,
                "labels": list(self.labels)}

    @classmethod
    def from_json(cls, data: dict) -> "Decision":
        return cls(data["player"], data["kind"], data["prompt"],
                   _from_jsonable(data["options"]), data["store"], tuple(data["labels"]))


class GameState:
    """Everything that changes during one game."""

    __slots__ = ("cards", "zones", "counters", "player_counters", "players",
                 "turn", "turn_player", "period", "period_counts", "frames",
                 "decision", "rng", "log", "result", "modifiers", "limits",
                 "passes", "pending", "cursor", "out", "stack", "pending_replacements",
                 "first_player", "next_turn", "held", "waiting", "resolving", "no_moves", "delayed",
                 "entries")

    def __init__(self, players: int, seed: int) -> None:
        self.cards: list[CardState] = []
        self.zones: dict[ZoneKey, list[int]] = {}
        self.counters: dict[str, int] = {}
        self.player_counters: list[dict[str, int]] = [{} for _ in range(players)]
        self.players = players
        self.turn = 0
        self.turn_player = 0
        self.period: dict[str, str] = {}          # "phase" -> current phase name ...
        self.period_counts: dict[str, int] = {}   # how many of each period began
        self.frames: list[Frame] = []
        self.decision: Decision | None = None
        self.rng = Random(seed)
        self.log: list[Event] = []             # interpreter.engine.events
        self.result: tuple | None = None          # ("win", player, reason) / ("draw", reason)
        self.modifiers: list[Modifier] = []
        self.limits: dict[tuple, int] = {}        # uses counted by per-period limits
        self.passes: list[int] = [0] * players    # consecutive passes, per player
        self.pending: list[tuple] = []            # triggered abilities waiting
        self.cursor = 0                           # events already checked for triggers
        self.out: list[bool] = [False] * players  # players who have lost
        # Effects waiting to resolve, last in first out; each entry is
        # (id, program, source card, controller, source zone, locals as a
        # tuple of pairs, nullified, id of the entry it responds to or None).
        self.stack: list[tuple] = []
        self.pending_replacements: tuple = ()    # replacements to run next
        self.first_player: int | None = None     # who took the game's first turn
        self.next_turn: int | None = None        # a player who "takes the next turn"
        # triggered abilities held until a phase or step ends (None: none held)
        self.held: tuple | None = None
        # steps an effect left for later ("At the end of the turn, draw a
        # card"): ((period, occurrence, edge), program, you, this, it) each
        self.delayed: tuple = ()
        # amounts gained for a place the loop over places has not reached:
        # (player, counter, place, amount, ...) entries
        self.waiting: tuple = ()
        self.resolving: int | None = None        # the place the loop is at
        self.no_moves: tuple = ()                # players out of an alternating window
        self.entries = 0                         # effects put on the stack so far

    # ---- copying

    def clone(self) -> "GameState":
        twin = GameState.__new__(GameState)
        twin.cards = [c.copy() for c in self.cards]
        twin.zones = {k: v[:] for k, v in self.zones.items()}
        twin.counters = dict(self.counters)
        twin.player_counters = [dict(c) for c in self.player_counters]
        twin.players = self.players
        twin.turn = self.turn
        twin.turn_player = self.turn_player
        twin.period = dict(self.period)
        twin.period_counts = dict(self.period_counts)
        twin.frames = [f.copy() for f in self.frames]
        twin.decision = self.decision          # immutable once made
        twin.rng = self.rng.copy()
        twin.log = self.log[:]                 # events are immutable
        twin.result = self.result
        twin.modifiers = self.modifiers[:]     # modifiers are never changed in place
        twin.limits = dict(self.limits)
        twin.passes = self.passes[:]
        twin.pending = self.pending[:]
        twin.cursor = self.cursor
        twin.out = self.out[:]
        twin.stack = self.stack[:]
        twin.pending_replacements = self.pending_replacements
        twin.first_player = self.first_player
        twin.next_turn = self.next_turn
        twin.held = self.held
        twin.delayed = self.delayed
        twin.waiting = self.waiting
        twin.resolving = self.resolving
        twin.no_moves = self.no_moves
        twin.entries = self.entries
        return twin

    # ---- JSON

    def to_json(self, log: bool = True) -> dict[str, Any]:
        """The state as JSON data; ``log=False`` leaves the event log out
        (checks that compare the log directly need not serialize it)."""
        return {
            "cards": [c.to_json() for c in self.cards],
            "zones": [[list(k), v] for k, v in self.zones.items()],
            "counters": self.counters,
            "player_counters": self.player_counters,
            "players": self.players,
            "turn": self.turn,
            "turn_player": self.turn_player,
            "period": self.period,
            "period_counts": self.period_counts,
            "frames": [f.to_json() for f in self.frames],
            "decision": self.decision.to_json() if self.decision else None,
            "rng": self.rng.state,
            "log": [_jsonable(e) for e in self.log] if log else [],
            "result": _jsonable(self.result),
            "modifiers": [m.to_json() for m in self.modifiers],
            "limits": [[type(k).__name__, _jsonable(tuple(k)), v]
                       for k, v in self.limits.items()],
            "passes": self.passes,
            "pending": _jsonable(self.pending),
            "cursor": self.cursor,
            "out": self.out,
            "stack": _jsonable(self.stack),
            "pending_replacements": _jsonable(self.pending_replacements),
            "first_player": self.first_player,
            "next_turn": self.next_turn,
            "held": _jsonable(self.held),
            "delayed": _jsonable(self.delayed),
            "waiting": _jsonable(self.waiting),
            "resolving": self.resolving,
            "no_moves": list(self.no_moves),
            "entries": self.entries,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "GameState":
        state = cls(data["players"], 0)
        state.cards = [CardState.from_json(c) for c in data["cards"]]
        state.zones = {tuple(k): list(v) for k, v in data["zones"]}
        state.counters = dict(data["counters"])
        state.player_counters = [dict(c) for c in data["player_counters"]]
        state.turn = data["turn"]
        state.turn_player = data["turn_player"]
        state.period = dict(data["period"])
        state.period_counts = dict(data["period_counts"])
        state.frames = [Frame.from_json(f) for f in data["frames"]]
        state.decision = Decision.from_json(data["decision"]) if data["decision"] else None
        state.rng.state = data["rng"]
        state.log = [from_values(_from_jsonable(e)) for e in data["log"]]
        state.result = _from_jsonable(data["result"])
        state.modifiers = [Modifier.from_json(m) for m in data["modifiers"]]
        state.limits = {_LIMIT_KINDS[kind](*_from_jsonable(key)): value
                        for kind, key, value in data["limits"]}
        state.passes = list(data["passes"])
        state.pending = _from_jsonable(data["pending"])
        state.cursor = data["cursor"]
        state.out = list(data["out"])
        state.stack = _from_jsonable(data["stack"])
        state.pending_replacements = _from_jsonable(data["pending_replacements"])
        state.first_player = data["first_player"]
        state.next_turn = data["next_turn"]
        state.held = _from_jsonable(data["held"])
        state.delayed = _from_jsonable(data.get("delayed", {"t": []}))
        state.waiting = _from_jsonable(data["waiting"])
        state.resolving = data["resolving"]
        state.no_moves = tuple(data["no_moves"])
        state.entries = data["entries"]
        return state

    # ---- reading

    def zone(self, name: str, owner: int) -> list[int]:
        return self.zones.get((name, owner), [])

    def counter(self, player: int, name: str) -> int:
        return self.player_counters[player].get(name, 0)
