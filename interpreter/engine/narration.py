"""Readable narration of a game's log, rendered only when someone reads it.

The engine logs events (``interpreter.engine.events``); this module
turns them into lines such as ``Player 2 draws Knight.``. Hidden information
is narrated from one player's point of view when ``viewer`` is given: a card
moving between hidden zones stays "a card".
"""

from __future__ import annotations

import re
from typing import Iterable, Iterator

from interpreter.compiler.compiled import COMBAT_DAMAGE_REDUCED, OUTSIDE_ZONE
from interpreter.compiler.modifiers import ALL_DAMAGE
from interpreter.language.render_selectors import _fill
from interpreter.engine.events import (
    AbilityUsed, ActionTaken, Attached, CardCounterChanged, Chose, Compared, ControlChanged,
    CounterChanged, EffectCopied, EntryFizzled, EntryNullified, EntryResolved, EntryWaits,
    Flipped, GainWaits, GameEnded, Kept,
    Modified, Moved, Note, Passed, PeriodEdge, PlaceReached, PlayerOut, Prevented, Replaced,
    Related, ReplacedForPlayer, Revealed, SetUp, Shuffled, Started, StatusChanged, Taken, TurnStarted,
    ValueRevealed, ZoneFull)

# " #12": the number of a card instance in an option's label
_INSTANCE = re.compile(r" #\d+\b")


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
    """The sentence an event reads as, or None for an event told by another
    (an ``Occurred`` by its move or action) or never told (``Marked``)."""
    names = state.cards
    match event:
        case Started(players=players, seed=seed, first=first):
            if first is None:      # a player chooses who goes first (see the setup)
                return f"A game of {rules.title} for {players} players (seed {seed})."
            return f"A game of {rules.title} for {players} players (seed {seed}); " \
                   f"{_player(first)} goes first."
        case SetUp():
            return f"A game of {rules.title} set up at turn {event.turn} " \
                   f"({_player(event.player)}), {event.phase} (seed {event.seed})."
        case TurnStarted():
            return f"-- Turn {event.number}: {_player(event.player)}"
        case PeriodEdge(what=what, name=name, edge=edge):
            if edge == "start" and what in ("phase", "step") and name in _taken(rules):
                return None   # narrated with the player taking it (the Taken event)
            if what == "phase" and edge == "start":
                return f"   {name}"
            if what == "step" and edge == "start":
                return f"    {name} (step)"
            return None
        case Moved(card=card, source=source, destination=target):
            c = names[card]
            if source[0] == OUTSIDE_ZONE:
                return f'     A "{c.name}" token is created in {_zone(target, rules)}.'
            if target[0] == OUTSIDE_ZONE:
                return f"     {c.name} ceases to exist."
            shown = c.name if (_visible(c, source, rules, viewer, True, cards) or
                               _visible(c, target, rules, viewer, event.face_up, cards)) \
                else "A card"
            return f"     {shown} moves from {_zone(source, rules)} to {_zone(target, rules)}."
        case Taken(player=player, name=name):
            # a phase or step "taken by each player in turn": whose it is now
            if name in _taken_steps(rules):
                return f"    {name} (step): {_player(player)}"
            return f"   {name}: {_player(player)}"
        case Shuffled():
            return f"     {_zone(event.zone, rules)} is shuffled."
        case CounterChanged(player=player, name=name, old=old, new=new):
            decl = rules.counters.get(name)
            if old == new or (decl is not None and decl.value):
                # set to what it was ("gains Position equal to" 0), or a value
                # (the game's own reckoning, told only when revealed): nothing to read
                return None
            who = "The game" if player < 0 else _player(player)
            return f"     {who}: {name} {old} -> {new}."
        case PlaceReached():     # a loop over places reaches this one
            return f"    At {names[event.place].name}:"
        case GainWaits(player=player, name=name, place=place, amount=amount):
            if place is None:
                return f"     {_player(player)}: {amount} {name} is lost (no place to keep it)."
            return f"     {_player(player)}: {amount} {name} waits at {names[place].name}."
        case CardCounterChanged(card=card, name=name, old=old, new=new):
            if name == "slot":      # which slot of its zone a card holds: shown by the move
                return f"     {names[card].name} takes slot {new} of its zone."
            return f"     {names[card].name}: {name} {old} -> {new}."
        case ZoneFull():
            return f"     {_zone(event.zone, rules)} is full: " \
                   f"{names[event.card].name} does not go there."
        case Kept():
            return f"     {names[event.card].name} stays in {_zone(event.zone, rules)}: " \
                   "cards never leave it."
        case StatusChanged(card=card, status=status, on=on):
            article = rules.status_articles.get(status) if rules is not None else None
            shown = f"{article} {status}" if article else status
            return f"     {names[card].name} is {'' if on else 'no longer '}{shown}."
        case Related(card=card, relation=relation, other=other, on=on):
            return f"     {names[card].name} is {'' if on else 'no longer '}{relation} " \
                   f"{names[other].name}."
        case Flipped():
            return f"     {names[event.card].name} is flipped face " \
                   f"{'up' if event.face_up else 'down'}."
        case Revealed(card=card, to_player=to):
            if viewer is not None and to >= 0 and to != viewer:
                return f"     {_player(to)} looks at a card."
            if to >= 0:
                # shown to one player only ("Look at the top 3 cards")
                return f"     {_player(to)} looks at {names[card].name}."
            return f"     {names[card].name} is revealed."
        case ActionTaken(player=player, name=name, card=card):
            # to the others, the card is shown by its move (if they may see it)
            what = "" if card is None or viewer not in (None, player) \
                else f" {names[card].name}"
            return f"   {_player(player)}: {name}{what}."
        case Prevented(card=card):
            # (a player, -1 - player: "Player 2 can't advance.")
            return f"   {_player(-1 - card) if card < 0 else names[card].name} can't {event.what}."
        case ReplacedForPlayer(what=what, amount=amount):
            if what.startswith("pay more "):
                happening = f"would pay {amount} {what[len('pay more '):]}, more than they have"
            elif what.startswith("verb "):
                # "would Advance 1": the game verb, with its number
                happening = "would " + _fill(what[len("verb "):], (amount,))
            elif what == "draw a card":
                happening = "would draw a card"
            elif what.startswith("add "):
                happening = f"would add {amount} {what[len('add '):]}"
            else:
                happening = "would be " + what.replace("damage", f"{amount} damage")
            return (f"   {_player(event.player)} {happening}; "
                    f"{_effect_of(names[event.source].name)} happens instead.")
        case Replaced(what=what, card=card, again=again):
            name = names[card].name
            if what.startswith("enters "):
                # "enters graveyard from battlefield": a move
                happening = f"{name} would be put into the " + \
                    what[len("enters "):].replace(" from ", " from the ")
            else:
                happening = f"{name} is {what} again" if again else f"{name} would be {what}"
            return f"   {happening}; {_effect_of(names[event.source].name)} happens instead."
        case AbilityUsed():
            return f"   {_player(event.player)} uses {names[event.card].name}'s " \
                   f"{event.label} ability."
        case ValueRevealed():
            return f"   {_player(event.player)} reveals their {event.name}: {event.value}."
        case Passed():
            return f"   {_player(event.player)} passes."
        case Compared(stat=stat):
            unit = f" {stat}" if stat else ""
            return (f"     {names[event.one].name} ({event.first}{unit}) against "
                    f"{names[event.other].name} ({event.second}{unit}).")
        case ControlChanged(card=card, player=player):
            return f"     {names[card].name} is now controlled by {_player(player)}."
        case Attached(card=card, host=host, face_up=face_up):
            c = names[card]
            shown = c.name if _visible(c, c.zone, rules, viewer, face_up, cards) else "A card"
            return f"     {shown} is attached to {names[host].name}."
        case Chose(player=player, what=what, prompt=prompt, label=label):
            if what in ("action", "respond"):
                return None  # narrated by the action, response or pass that follows
            if what == "secret" and viewer != player:
                # "choose your Bid": the number is told when it is revealed
                return f"   {_player(player)} chooses their {prompt.split(' ', 2)[2]} in secret."
            # a card's number tells apart the options of a decision, not cards a
            # reader knows: the log reads "chooses Knight", not "Knight #3"
            return (f"   {_player(player)} chooses {_INSTANCE.sub('', label)} "
                    f"({_INSTANCE.sub('', prompt)}).")
        case PlayerOut():
            return f"{_player(event.player)} is out ({event.reason})."
        case GameEnded(outcome=outcome, player=player, reason=reason):
            if outcome == "win":
                return f"== {_player(player)} wins: {reason}."
            return f"== Draw: {reason}."
        case Modified(target=card, what=what, name=name, amount=amount):
            if what == "control":      # told by the change of control itself
                return None
            if card < 0 and what == "reduce":   # "Prevent all damage ... to you"
                if name == COMBAT_DAMAGE_REDUCED:
                    # "Prevent all combat damage that would be dealt this turn"
                    return (f"     {_player(-1 - card)}: combat damage to them and their "
                            "cards is prevented.")
                return f"     {_player(-1 - card)}: damage to them is prevented."
            if card < 0 and what in ("next time", "next trigger", "replacement",
                                     "next effect"):
                return f"     {_player(-1 - card)}: {name[:1].upper()}{name[1:]}."
            if card < 0:  # a modifier on a player (see compile.player_target)
                verb = "can't" if what == "cannot" else what
                return f"     {_player(-1 - card)} {verb} {name}."
            if what == "cannot":
                return f"     {names[card].name}: can't {name}."
            if what == "copy":
                return f"     {names[card].name} becomes a copy of {name}."
            if what == "cost":
                return f"     {names[card].name} costs {abs(amount)} " \
                       f"{'less' if amount < 0 else 'more'} {name}."
            shown = names[card].name
            if what == "status":        # "it is fresh this turn"
                article = rules.status_articles.get(name) if rules is not None else None
                return f"     {shown} is {article + ' ' if article else ''}{name}."
            if what in ("keyword", "lost keyword"):
                return f"     {shown} {'has' if what == 'keyword' else 'loses'} {name}."
            if what == "value":         # "it counts as red"
                return f"     {shown} counts as {name}."
            if what in ("can", "must"):
                return f"     {shown}: {what} {name}."
            if what == "reduce":
                return f"     Damage dealt to {shown} is " + (
                    "prevented." if amount >= ALL_DAMAGE else f"reduced by {amount}.")
            return f"     {shown}: {name} {amount:+d}."
        case EntryWaits():
            return (f"   [{event.height}] {names[event.source].name}'s effect waits to "
                    f"resolve ({_player(event.controller)}).")
        case EntryResolved():
            return f"   {names[event.source].name}'s effect resolves."
        case EntryNullified():
            return f"   {names[event.source].name}'s effect is nullified."
        case EffectCopied():
            return (f"   {_player(event.player)} copies {names[event.source].name}'s effect; "
                    "the copy resolves.")
        case EntryFizzled():
            return f"   {names[event.source].name}'s effect does not resolve: {event.reason}."
        case Note():
            return "     " + event.text
    return None


def board_summary(state, game) -> list[str]:
    """The board in a few lines, as `cardrules play` shows it when a turn's
    first decision comes: each player's counters, hand size and the cards
    in the zones in play (with their statuses and counters)."""
    lines = [f"   Board, turn {state.turn}:"]
    for player in range(state.players):
        counters = ", ".join(f"{name} {value}" for name, value
                             in state.player_counters[player].items()
                             if isinstance(value, int) and not isinstance(value, bool))
        hand = len(state.zones.get((game.hand, player), ())) if game.hand else 0
        parts = [counters] if counters else []
        parts.append(f"{hand} card{'s' if hand != 1 else ''} in hand")
        for zone in game.in_play:
            cards = state.zones.get((zone, player), ())
            if cards:
                parts.append(f"{zone}: " + ", ".join(_in_play(state.cards[c]) for c in cards))
        lines.append(f"     {_player(player)}: " + "; ".join(parts) + ".")
    return lines


def _in_play(card) -> str:
    """A card in play as the board shows it: "Knight (exhausted, 2 damage)"."""
    marks = ([] if card.face_up else ["face down"]) + list(card.statuses)
    marks += [f"{n} {name}" for name, n in card.counters if name != "slot" and n]
    return f"{card.name} ({', '.join(marks)})" if marks else card.name
