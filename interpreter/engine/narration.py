"""Readable narration of a game's log, rendered only when someone reads it.

The engine logs events as tuples (``interpreter.engine.operations``); this module
turns them into lines such as ``Player 2 draws Knight.``. Hidden information
is narrated from one player's point of view when ``viewer`` is given: a card
moving between hidden zones stays "a card".
"""

from __future__ import annotations

from typing import Iterable, Iterator

from interpreter.compiler.compiled import OUTSIDE_ZONE


def narrate(state, rules, viewer: int | None = None,
            events: Iterable[tuple] | None = None, cards: dict | None = None) -> Iterator[str]:
    """``cards`` (name -> definition) tells two-faced cards, whose face-down
    side is shown like any face; without it a face-down card in a public
    zone is hidden from the viewer who does not control it."""
    for event in (state.log if events is None else events):
        line = _line(event, state, rules, viewer, cards)
        if line:
            yield line


def _taken(rules) -> set:
    """The phases and steps each player takes in turn ("taken by")."""
    return {p.name for p in rules.phases if p.taken_by is not None} | _taken_steps(rules)


def _taken_steps(rules) -> set:
    return {s.name for p in rules.phases for s in p.steps if s.taken_by is not None}


def _player(index: int) -> str:
    return f"Player {index + 1}"


def _zone(key, rules) -> str:
    name, owner = key
    return name if owner < 0 else f"{_player(owner)}'s {name}"


def _visible(card, key, rules, viewer, face_up: bool = True, cards=None) -> bool:
    if viewer is None:
        return True
    decl = rules.zones.get(key[0])
    if decl is None or decl.visibility == "public":
        # a face-down card in a public zone: only its back (its controller
        # knows it), unless it is a two-faced card showing its other face
        return face_up or card.controller == viewer or two_faced(card.name, rules, cards)
    return decl.visibility == "private" and key[1] == viewer


def two_faced(name: str, rules, cards) -> bool:
    """Whether a card has two faces (face down is its other face, not its back)."""
    definition = cards.get(name) if cards else None
    if definition is None:
        return False
    kind = rules.kind(definition.kind)
    return bool(kind is not None and kind.faces) or bool(definition.faces)


def _effect_of(name: str) -> str:
    """A card's effect, or a rule of the game ("Fatigue (rule)"), as a line names it."""
    if name.endswith(" (rule)"):
        return f'the rule "{name.removesuffix(" (rule)")}"'
    return f"{name}'s effect"


def _line(event, state, rules, viewer, cards=None) -> str | None:
    kind = event[0]
    if kind == "start":
        _, players, seed, first = event
        if first is None:      # a player chooses who goes first (see the setup)
            return f"A game of {rules.title} for {players} players (seed {seed})."
        return f"A game of {rules.title} for {players} players (seed {seed}); " \
               f"{_player(first)} goes first."
    if kind == "position":
        _, players, seed, turn, player, phase = event
        return f"A game of {rules.title} set up at turn {turn} ({_player(player)}), " \
               f"{phase} (seed {seed})."
    if kind == "turn":
        _, number, player = event
        return f"-- Turn {number}: {_player(player)}"
    if kind == "period":
        _, what, name, number, edge = event
        if edge == "start" and what in ("phase", "step") and name in _taken(rules):
            return None   # narrated with the player taking it (the "taker" event)
        if what == "phase" and edge == "start":
            return f"   {name}"
        if what == "step" and edge == "start":
            return f"    {name} (step)"
        return None
    if kind == "move":
        _, card, source, target, face_up = event
        c = state.cards[card]
        if source[0] == OUTSIDE_ZONE:
            return f'     A "{c.name}" token is created in {_zone(target, rules)}.'
        if target[0] == OUTSIDE_ZONE:
            return f"     {c.name} ceases to exist."
        shown = c.name if (_visible(c, source, rules, viewer, True, cards) or
                           _visible(c, target, rules, viewer, face_up, cards)) else "a card"
        return f"     {shown} moves from {_zone(source, rules)} to {_zone(target, rules)}."
    if kind == "taker":
        # a phase or step "taken by each player in turn": whose it is now
        _, player, name = event
        if name in _taken_steps(rules):
            return f"    {name} (step): {_player(player)}"
        return f"   {name}: {_player(player)}"
    if kind == "shuffle":
        return f"     {_zone(event[1], rules)} is shuffled."
    if kind == "counter":
        _, player, name, old, new = event
        decl = rules.counters.get(name)
        if old == new or (decl is not None and decl.value):
            # set to what it was ("gains Position equal to" 0), or a value
            # (the game's own reckoning, told only when revealed): nothing to read
            return None
        who = "The game" if player < 0 else _player(player)
        return f"     {who}: {name} {old} -> {new}."
    if kind == "place":     # a loop over places reaches this one
        return f"    At {state.cards[event[1]].name}:"
    if kind == "waits":
        _, player, name, place, amount = event
        if place is None:
            return f"     {_player(player)}: {amount} {name} is lost (no place to keep it)."
        return f"     {_player(player)}: {amount} {name} waits at {state.cards[place].name}."
    if kind == "card-counter":
        _, card, name, old, new = event
        if name == "slot":      # which slot of its zone a card holds: shown by the move
            return f"     {state.cards[card].name} takes slot {new} of its zone."
        return f"     {state.cards[card].name}: {name} {old} -> {new}."
    if kind == "full":
        _, card, zone = event
        return f"     {_zone(zone, rules)} is full: {state.cards[card].name} does not go there."
    if kind == "kept":
        _, card, zone = event
        return f"     {state.cards[card].name} stays in {_zone(zone, rules)}: " \
               "cards never leave it."
    if kind == "status":
        _, card, status, on = event
        return f"     {state.cards[card].name} is {'' if on else 'no longer '}{status}."
    if kind == "flip":
        _, card, up = event
        return f"     {state.cards[card].name} is flipped face {'up' if up else 'down'}."
    if kind == "reveal":
        _, card, to = event
        if viewer is not None and to >= 0 and to != viewer:
            return f"     {_player(to)} looks at a card."
        return f"     {state.cards[card].name} is revealed."
    if kind == "action":
        _, player, name, card = event
        # to the others, the card is shown by its move (if they may see it)
        what = "" if card is None or viewer not in (None, player) \
            else f" {state.cards[card].name}"
        return f"   {_player(player)}: {name}{what}."
    if kind == "prevented":
        _, what, card = event
        return f"   {state.cards[card].name} can't {what}."
    if kind == "replace player":
        _, what, player, source, amount = event
        if what.startswith("pay more "):
            happening = f"would pay {amount} {what[len('pay more '):]}, more than they have"
        else:
            happening = "would be " + what.replace("damage", f"{amount} damage")
        return (f"   {_player(player)} {happening}; "
                f"{_effect_of(state.cards[source].name)} happens instead.")
    if kind == "replace":
        # (the last item: the card has the status it would get already)
        _, what, card, source, *again = event
        name = state.cards[card].name
        happening = f"{name} is {what} again" if again and again[0] else \
            f"{name} would be {what}"
        return f"   {happening}; {_effect_of(state.cards[source].name)} happens instead."
    if kind == "activate":
        _, player, label, card = event
        return f"   {_player(player)} uses {state.cards[card].name}'s {label} ability."
    if kind == "revealed value":
        _, player, name, value = event
        return f"   {_player(player)} reveals their {name}: {value}."
    if kind == "pass":
        return f"   {_player(event[1])} passes."
    if kind == "compare":
        _, one, first, other, second, stat = event
        unit = f" {stat}" if stat else ""
        return (f"     {state.cards[one].name} ({first}{unit}) against "
                f"{state.cards[other].name} ({second}{unit}).")
    if kind == "attach":
        card, host = event[1], event[2]
        c = state.cards[card]
        face_up = event[3] if len(event) > 3 else True
        shown = c.name if _visible(c, c.zone, rules, viewer, face_up, cards) else "A card"
        return f"     {shown} is attached to {state.cards[host].name}."
    if kind == "choice":
        _, player, what, prompt, label = event
        if what in ("action", "respond"):
            return None  # narrated by the action, response or pass that follows
        if what == "secret" and viewer != player:
            # "choose your Bid": the number is told when it is revealed
            return f"   {_player(player)} chooses their {prompt.split(' ', 2)[2]} in secret."
        return f"   {_player(player)} chooses {label} ({prompt})."
    if kind == "event":
        return None  # the move or action it belongs to is already narrated
    if kind == "out":
        return f"{_player(event[1])} is out ({event[2]})."
    if kind == "end":
        if event[1] == "win":
            return f"== {_player(event[2])} wins: {event[3]}."
        return f"== Draw: {event[2]}."
    if kind == "modifier":
        _, card, what, name, amount = event
        if card < 0:  # a modifier on a player (see compile.player_target)
            verb = "can't" if what == "cannot" else what
            return f"     {_player(-1 - card)} {verb} {name}."
        if what == "cannot":
            return f"     {state.cards[card].name}: can't {name}."
        if what == "cost":
            return f"     {state.cards[card].name} costs {abs(amount)} " \
                   f"{'less' if amount < 0 else 'more'} {name}."
        return f"     {state.cards[card].name}: {name} {amount:+d}."
    if kind == "expire":
        return None
    if kind == "entry":
        _, entry, source, controller, height = event
        return (f"   [{height}] {state.cards[source].name}'s effect waits to resolve "
                f"({_player(controller)}).")
    if kind == "resolve":
        return f"   {state.cards[event[2]].name}'s effect resolves."
    if kind == "nullify":
        return f"   {state.cards[event[2]].name}'s effect is nullified."
    if kind == "fizzle":
        return f"   {state.cards[event[2]].name}'s effect does not resolve: {event[3]}."
    if kind == "note":
        return "     " + " ".join(str(d) for d in event[1:])
    return None
