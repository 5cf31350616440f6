"""Determinizing: one possible world consistent with what a player sees.

:func:`determinize` copies a game and deals again, at random, everything
``viewer`` cannot see: which cards sit where among the hidden places (the
other players' hands and the order of every deck, face-down cards the viewer
does not control), the secret numbers others have set and not revealed, and
the generator of the game's future randomness. Search agents (information
set Monte Carlo tree search) play on such copies so that they never read what
their player could not know.
"""

from __future__ import annotations

from interpreter.compiler.compiled import RULES_ZONE
from interpreter.engine.events import CounterChanged, ValueRevealed
from interpreter.engine.narration import two_faced
from interpreter.engine.rng import Random
from interpreter.engine.state import GameState


def hidden_cards(game, state: GameState, viewer: int) -> list[int]:
    """The cards ``viewer`` cannot identify now, in a fixed order: every card
    of a hidden zone, of another player's private zone, and each face-down
    card of a public zone the viewer does not control (unless two-faced: its
    back tells what it is). The same rule as ``Match.observation``."""
    rules = game.rules
    unseen = []
    for (name, owner), pile in state.zones.items():
        if name == RULES_ZONE:
            continue
        decl = rules.zones.get(name)
        if decl is None:
            continue
        if decl.visibility == "hidden" or (decl.visibility == "private" and owner != viewer):
            unseen.extend(pile)
            continue
        for c in pile:
            card = state.cards[c]
            if not card.face_up and card.controller != viewer and \
                    not two_faced(card.name, rules, game.cards):
                unseen.append(c)
    return unseen


def determinize(game, state: GameState, viewer: int, rng: Random) -> GameState:
    """A copy of ``state`` in which what ``viewer`` cannot see is dealt again
    with ``rng``: the names of the hidden cards are shuffled among the hidden
    places their owner's cards occupy (a card never changes owner, so the
    other player's hand is drawn from the rest of their own cards), another
    player's secret counter not yet revealed takes a value in its declared
    range (or keeps its value when it declares none), and the game's own
    generator is reseeded (its future shuffles and coin flips are not known
    either). What the viewer sees is unchanged, card for card. The same
    state, viewer and generator state give the same copy."""
    twin = state.clone()
    by_owner: dict[int, list[int]] = {}
    for c in hidden_cards(game, twin, viewer):
        by_owner.setdefault(twin.cards[c].owner, []).append(c)
    for owner in sorted(by_owner):
        ids = by_owner[owner]
        names = [twin.cards[c].name for c in ids]
        rng.shuffle(names)
        for c, name in zip(ids, names):
            twin.cards[c].name = name
    for player in range(twin.players):
        if player == viewer:
            continue
        for name, decl in game.rules.counters.items():
            if not decl.secret or name not in twin.player_counters[player]:
                continue
            if decl.minimum is not None and decl.maximum is not None and \
                    unrevealed(twin, player, name):
                twin.player_counters[player][name] = decl.minimum + rng.below(
                    decl.maximum - decl.minimum + 1)
    twin.rng = Random(rng.next64())
    return twin


def unrevealed(state: GameState, player: int, name: str) -> bool:
    """Whether ``player`` has set their secret counter ``name`` and not
    revealed it since: the other players do not know its value."""
    for event in reversed(state.log):
        if isinstance(event, ValueRevealed) and (event.player, event.name) == (player, name):
            return False
        if isinstance(event, CounterChanged) and (event.player, event.name) == (player, name):
            return True
    return False
