"""Primitive operations: the only way a game state changes.

Each operation changes :class:`~interpreter.engine.state.GameState` and appends one
event to its log (the classes of ``interpreter.engine.events``). Events
drive triggers and state rules and they *are* the game's log. Turning them
into sentences is ``interpreter.engine.narration``'s job, done only when
someone reads the log, never here.
"""

from __future__ import annotations

from interpreter.compiler.compiled import is_next_in_turn_of
from interpreter.engine.events import (
    CardCounterChanged, ControlChanged, CounterChanged, Created, Expired, Flipped, GameEnded, Marked, Modified,
    Moved, Note, PeriodEdge, Related, Revealed, Shuffled, StatusChanged, TurnStarted)
from interpreter.engine.state import CardState, GameState, Modifier, ZoneKey


def move(state: GameState, card_id: int, to: ZoneKey, *, top: bool = True,
         face_up: bool | None = None, new_object: bool = True) -> None:
    """Move a card. A card that changes zones is a new object: its statuses
    and counters go, and so do the modifiers that applied to it — unless
    ``new_object`` is false (a move from one zone in play to another: the
    same card, still in play, keeps what was given to it)."""
    card = state.cards[card_id]
    source = card.zone
    pile = state.zones.get(source)
    if pile is not None and card_id in pile:
        pile.remove(card_id)
    destination = state.zones.setdefault(to, [])
    if top:
        destination.append(card_id)
    else:
        destination.insert(0, card_id)
    card.zone = to
    if face_up is not None:
        card.face_up = face_up
    card.statuses = ()
    card.counters = ()
    if card.relations:
        # its relations end with the object it was (as its statuses do)
        _end_relations(state, card_id)
    card.entered = len(state.log)
    if new_object and any(m.target == card_id for m in state.modifiers):
        state.modifiers = [m for m in state.modifiers if m.target != card_id]
    state.log.append(Moved(card_id, source, to, card.face_up))


def change_control(state: GameState, card_id: int, player: int) -> None:
    """A card (and the cards attached to it) goes under ``player``'s control:
    from its zone to the same zone of theirs, as it is (not a new object:
    its statuses, counters and modifiers stay)."""
    card = state.cards[card_id]
    if card.controller == player:
        return
    name, seat = card.zone
    riders = [c for c in state.cards if c.attached_to == card_id and c.zone == card.zone]
    for moved in [card] + riders:
        if seat >= 0:
            pile = state.zones.get(moved.zone)
            if pile is not None and moved.id in pile:
                pile.remove(moved.id)
            moved.zone = (name, player)
            state.zones.setdefault(moved.zone, []).append(moved.id)
        moved.controller = player
    state.log.append(ControlChanged(card_id, player))


def create_card(state: GameState, name: str, owner: int, outside: ZoneKey) -> int:
    """A new card (a token) of this name, owned by ``owner``, outside the game
    (``outside``) until it is moved in; its id is the next free one."""
    card = CardState(len(state.cards), name, owner, outside, face_up=True)
    state.cards.append(card)
    state.zones.setdefault(outside, []).append(card.id)
    state.log.append(Created(card.id, name, owner))
    return card.id


def shuffle(state: GameState, zone: ZoneKey) -> None:
    pile = state.zones.get(zone)
    if pile:
        state.rng.shuffle(pile)
    state.log.append(Shuffled(zone))


def set_counter(state: GameState, player: int, name: str, value: int) -> None:
    """A player's counter (player -1: a game-wide counter)."""
    table = state.counters if player < 0 else state.player_counters[player]
    old = table.get(name, 0)
    if old == value and name in table:
        return          # no change, no event (as a status or a face already there)
    table[name] = value
    state.log.append(CounterChanged(player, name, old, value))


def set_card_counter(state: GameState, card_id: int, name: str, value: int) -> None:
    card = state.cards[card_id]
    old = card.counter(name)
    if old == value:
        return      # nothing changes: no event ("damage 0 -> 0" told nothing)
    others = tuple(c for c in card.counters if c[0] != name)
    card.counters = others + ((name, value),) if value else others
    state.log.append(CardCounterChanged(card_id, name, old, value))


def set_status(state: GameState, card_id: int, status: str, on: bool) -> None:
    card = state.cards[card_id]
    has = status in card.statuses
    if has == on:
        return
    card.statuses = (card.statuses + (status,)) if on else tuple(
        s for s in card.statuses if s != status)
    state.log.append(StatusChanged(card_id, status, on))


def relate(state: GameState, card_id: int, relation: str, other: int, on: bool) -> None:
    """``card_id`` begins (or stops) holding ``relation`` toward ``other``
    ("X is blocking Y"). Both cards keep the pair, so that either leaving
    its zone ends it."""
    card, to = state.cards[card_id], state.cards[other]
    held = (relation, other, True)
    if (held in card.relations) == on or card_id == other:
        return
    back = (relation, card_id, False)
    if on:
        card.relations += (held,)
        to.relations += (back,)
    else:
        card.relations = tuple(r for r in card.relations if r != held)
        to.relations = tuple(r for r in to.relations if r != back)
    state.log.append(Related(card_id, relation, other, on))


def _end_relations(state: GameState, card_id: int) -> None:
    card = state.cards[card_id]
    for relation, other, holds in card.relations:
        state.cards[other].relations = tuple(
            r for r in state.cards[other].relations
            if r != (relation, card_id, not holds))
    card.relations = ()


def flip(state: GameState, card_id: int, face_up: bool) -> None:
    card = state.cards[card_id]
    if card.face_up == face_up:
        return
    card.face_up = face_up
    state.log.append(Flipped(card_id, face_up))


def reveal(state: GameState, card_id: int, to_player: int = -1) -> None:
    state.log.append(Revealed(card_id, to_player))


def add_modifier(state: GameState, modifier: Modifier) -> None:
    state.modifiers = state.modifiers + [modifier]
    state.log.append(Modified(modifier.target, modifier.kind, modifier.name,
                               modifier.amount))


def expire_modifiers(state: GameState, period: str, number: int, edge: str = "end") -> None:
    """End the modifiers that last until this edge ("start" or "end") of this
    period (its ``number``-th occurrence)."""
    if not state.modifiers:
        return
    until = (period, number, edge)
    turn_player = state.turn_player

    def ends(m_until) -> bool:
        # exactly this occurrence, or "the next Upkeep of player 2" (negative)
        return m_until == until or (m_until[1] < 0 and m_until[0] == period and
                                    m_until[2] == edge and
                                    is_next_in_turn_of(m_until[1], turn_player, number))
    kept = [m for m in state.modifiers if not ends(m.until)]
    if len(kept) != len(state.modifiers):
        ended = [m for m in state.modifiers if ends(m.until)]
        state.modifiers = kept
        for modifier in ended:
            # control gained for a while goes back (if the card is still
            # where it was taken to)
            if modifier.kind == "control" and \
                    state.cards[modifier.target].controller == modifier.amount:
                change_control(state, modifier.target, int(modifier.name))
        state.log.append(Expired(period, number, edge))
        # a status given for a while that the card no longer has is told
        # ("Puddlepup is no longer paralysed."), as its start was
        told = {(m.target, m.name) for m in kept if m.kind == "status"}
        for modifier in ended:
            key = (modifier.target, modifier.name)
            if modifier.kind != "status" or key in told or modifier.target < 0 or \
                    modifier.name in state.cards[modifier.target].statuses:
                continue
            told.add(key)
            state.log.append(StatusChanged(modifier.target, modifier.name, False))


def period(state: GameState, kind: str, name: str, edge: str) -> None:
    if edge == "start":
        state.period[kind] = name
        if kind == "phase":
            state.period.pop("step", None)
        state.period_counts[name] = state.period_counts.get(name, 0) + 1
    state.log.append(PeriodEdge(kind, name, state.period_counts.get(name, 0), edge))
    if edge == "start":
        expire_modifiers(state, name, state.period_counts[name], "start")
        if state.limits:
            forget_past_uses(state, name, state.period_counts[name])


def forget_past_uses(state: GameState, period: str, count: int) -> None:
    """A per-period limit counts the uses of the current occurrence of its
    period only (its key ends with the period and which one of it), so when
    a new occurrence begins the uses of the past ones are dropped: the state
    would otherwise grow all game, and every clone copy them."""
    stale = [key for key in state.limits if key.period == period and key.count < count]
    for key in stale:
        del state.limits[key]


def begin_turn(state: GameState, player: int) -> None:
    state.turn += 1
    state.turn_player = player
    state.log.append(TurnStarted(state.turn, player))


def mark(state: GameState, what: str) -> None:
    """A milestone the log keeps for the engine's invariants, never narrated
    ("setup": the game's setup began)."""
    state.log.append(Marked(what))


def note(state: GameState, text: str) -> None:
    state.log.append(Note(text))


def end_game(state: GameState, result: tuple) -> None:
    if state.result is None:
        state.result = result
        state.decision = None
        outcome, *rest = result     # ("win", player, reason) or ("draw", reason)
        state.log.append(GameEnded(outcome, rest[0] if outcome == "win" else None, rest[-1]))
