"""How well each player stands in an unfinished game, read from its rules.

:func:`position_value` is the search agent's evaluation of a position: what
the rules declare about winning and losing (life-like counters, counters a
player wins at, tracks, zones a player loses by emptying, rules of the game
that end it by the cards in a zone: :func:`card_count_goals`) and material
(the cards each player controls in play, each worth more while it has health
left against a stat that damage destroys it at, and the cards in hand).
Nothing here knows a game by its name: :class:`Reading` gathers, once per
compiled game, what the evaluation needs from the rules model.
"""

from __future__ import annotations

import math

from interpreter.engine import Machine
from interpreter.errors import CardrulesError
from interpreter.language.game_rules import parse_ability

# What a card in play and a card in hand are worth next to a whole declared
# goal (a life total from full to nothing is 1): a card in play weighs more
# with its health left (measured in the game's typical health, so that the
# weight is the same in a game of 2-toughness and one of 120-HP creatures).
IN_PLAY_WORTH = 0.12
HEALTH_WORTH = 0.08
HAND_WORTH = 0.04
# rewards stay below a win's 1
SQUASH = 0.9


class Reading:
    """What the evaluation reads from one compiled game's rules, once: the
    zones in play, the hand zones, the stats damage destroys a card at with
    their typical (mean printed) value, and the card-count goals."""

    __slots__ = ("game", "in_play", "hands", "lethal", "goals")

    def __init__(self, game):
        rules = game.rules
        self.game = game
        self.in_play = frozenset(n for n, d in rules.zones.items() if "in play" in d.roles)
        self.hands = frozenset(n for n, d in rules.zones.items() if "hand" in d.roles)
        lethal = []
        for stat in rules.stats.values():
            if not stat.lethal_damage:
                continue
            values = [v for v in (c.stat(stat.name) for c in game.cards.values())
                      if isinstance(v, int) and not isinstance(v, bool) and v > 0]
            lethal.append((stat.name, sum(values) / len(values) if values else 1.0))
        self.lethal = tuple(lethal)
        self.goals = card_count_goals(game)


_READINGS: dict = {}


def reading(game) -> Reading:
    """The :class:`Reading` of a compiled game (kept while the game is)."""
    known = _READINGS.get(id(game))
    if known is None or known.game is not game:
        known = _READINGS[id(game)] = Reading(game)
    return known


def position_value(match) -> list[float]:
    """How well each player stands, in (-1, 1), in an unfinished game, from
    what its rules declare about winning and losing, never from its name:
    a counter a player loses at ("a player with 0 Life loses": how far above
    that they are, from where they started), a counter a player wins at (how
    far toward it), a position on a track (how far along), a zone a player
    with no cards in loses (how many are left), the rules of the game that
    end it by the cards in a zone (:func:`card_count_goals`), and material:
    the cards each controls in play (more with health left) and holds in
    hand. Each player's standing against the mean of the others, squashed."""
    scores = standings(match)
    out = []
    for player, score in enumerate(scores):
        others = [s for p, s in enumerate(scores) if p != player]
        edge = score - sum(others) / max(len(others), 1)
        out.append(SQUASH * math.tanh(2 * edge))
    return out


def standings(match) -> list[float]:
    """Each player's standing, unsquashed (see :func:`position_value`)."""
    state = match.state
    rules = match.game.rules
    read = reading(match.game)
    scores = [goal_progress(match, read, player) for player in range(state.players)]
    machine = Machine(match.game, state) if read.lethal else None
    for (zone, owner), pile in state.zones.items():
        if zone in read.in_play:
            for c in pile:
                card = state.cards[c]
                worth = IN_PLAY_WORTH
                if machine is not None:
                    damage = card.counter("damage")
                    for stat, typical in read.lethal:
                        left = machine.stat(c, stat) - damage
                        if left > 0:
                            worth += HEALTH_WORTH * min(left / typical, 3.0)
                scores[card.controller] += worth
        elif zone in read.hands and 0 <= owner < state.players:
            scores[owner] += HAND_WORTH * len(pile)
        decl = rules.zones.get(zone)
        if decl is not None and decl.none_loses and 0 <= owner < state.players:
            scores[owner] += len(pile) / (decl.slots or 5)
    return scores


def goal_progress(match, read: Reading, player: int) -> float:
    """How far ``player`` is from losing and toward winning by the game's
    declared counters and card-count goals."""
    state = match.state
    counters = state.player_counters[player]
    score = 0.0
    for name, decl in match.game.rules.counters.items():
        if decl.scope != "player" or name not in counters:
            continue
        value = counters[name]
        if decl.loses_at is not None and decl.start is not None and \
                decl.start > decl.loses_at:
            score += min((value - decl.loses_at) / (decl.start - decl.loses_at), 2.0)
        if decl.wins_at is not None and decl.wins_at > 0:
            score += min(value / decl.wins_at, 1.0)
        if decl.track is not None:
            track = state.zones.get((decl.track, -1)) or state.zones.get(
                (decl.track, player)) or ()
            score += min(value / max(len(track), 1), 1.5)
    for zone, at_least, wins in read.goals:
        held = len(state.zones.get((zone, player), ()))
        if at_least:      # "N or more cards in their ZONE": toward N
            progress = min(held / at_least, 1.0)
        else:             # "no cards in their ZONE": fewer is closer
            total = sum(len(state.zones.get((zone, p), ())) for p in range(state.players))
            progress = 1.0 - held / max(total, 1)
        score += progress if wins else -progress
    return score


# the goals read from a game's rules: (rules file, text) -> (game, goals)
_GOALS: dict = {}


def card_count_goals(game) -> tuple:
    """The rules of the game (``rule "NAME": ...``) that make a player win or
    lose by the cards in one of their zones ("If a player has 3 or more cards
    in their Trophies, they win the game", "... no cards in their Reserve,
    they win the game"), read from the text as the card grammar parses it:
    (zone, N or 0 for "no cards", wins?) each."""
    key = (game.rules.path, tuple(r.text.text for r in game.rules.game_rules))
    known = _GOALS.get(key)
    if known is not None and known[0] is game:
        return known[1]
    goals = []
    for rule in game.rules.game_rules:
        try:
            tree = parse_ability(game.rules, rule.text.text)
        except CardrulesError:
            continue                  # (the game's check reports it)
        counts = list(_nodes(tree, "has_cards"))
        outcomes = {n.args[2].form for n in _nodes(tree, "act")
                    if len(n.args) > 2 and hasattr(n.args[2], "form")}
        if len(counts) != 1 or not outcomes & {"win", "lose_game"}:
            continue
        quantity = next(_nodes(counts[0], "no_count", "at_least_count"), None)
        zone = next(_nodes(counts[0], "zone_ref"), None)
        if quantity is None or zone is None or not isinstance(zone.args[-1], str):
            continue
        at_least = quantity.args[0] if quantity.form == "at_least_count" else 0
        goals.append((zone.args[-1], at_least, "win" in outcomes))
    _GOALS[key] = (game, tuple(goals))
    return tuple(goals)


def _nodes(tree, *forms):
    """The nodes of a parsed text of the given forms, depth first."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, (tuple, list)):
            stack.extend(reversed(node))
            continue
        form = getattr(node, "form", None)
        if form is None:
            continue
        if form in forms:
            yield node
        stack.extend(reversed(getattr(node, "args", ())))


