"""How well each player stands in an unfinished game, read from its rules.

:func:`position_value` is the search agent's evaluation of a position: what
the rules declare about winning and losing (life-like counters, counters a
player wins at, tracks, zones a player loses by emptying, rules of the game
that end it by the cards in a zone: :func:`card_count_goals`), the race to
run out of a zone a player loses by emptying (:func:`empty_losses`: a deck
drawn from), resources that pay off on a later turn (:func:`ready_attackers`:
cards in play whose attack's cost is payable) and material (the cards each
player controls in play, each worth more while it has health left against a
stat that damage destroys it at, and the cards in hand).
Nothing here knows a game by its name: :class:`Reading` gathers, once per
compiled game, what the evaluation needs from the rules model.
"""

from __future__ import annotations

import math

from interpreter.engine import Machine
from interpreter.engine.state import Frame
from interpreter.errors import CardrulesError
from interpreter.language.game_rules import parse_ability

# What a card in play and a card in hand are worth next to a whole declared
# goal (a life total from full to nothing is 1): a card in play weighs more
# with its health left (measured in the game's typical health, so that the
# weight is the same in a game of 2-toughness and one of 120-HP creatures).
IN_PLAY_WORTH = 0.12
HEALTH_WORTH = 0.08
HAND_WORTH = 0.04
# A card in play whose attack has a cost (energy attached, tokens...) and
# that could pay it now: what the resources put into it are worth before
# the attack they enable happens, on a later turn the rollouts do not reach.
READY_WORTH = 0.06
# A zone a player loses by emptying (a deck they draw from): nothing while
# it holds many cards, more and more as it runs out, a whole goal's half
# when it is empty: who runs out first loses the race.
EMPTY_WORTH = 0.5
EMPTY_SCALE = 3.0
# ... and each card in it, a resource (a draw, a cost paid from the top)
EMPTY_CARD_WORTH = 0.01
# rewards stay below a win's 1
SQUASH = 0.9


class Reading:
    """What the evaluation reads from one compiled game's rules, once: the
    zones in play, the hand zones, the stats damage destroys a card at with
    their typical (mean printed) value, the card-count goals, the zones a
    player loses by emptying, and the attacks that have a cost."""

    __slots__ = ("game", "in_play", "hands", "lethal", "goals", "costly_attacks", "emptied")

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
        self.emptied = empty_losses(game)
        self.costly_attacks = tuple(
            game.actions[index] for index, declared in enumerate(rules.actions)
            if declared.cost is not None and declared.choose is not None and
            (declared.name.lower().startswith("attack") or declared.role == "attacker"))


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
    end it by the cards in a zone (:func:`card_count_goals`), a zone a
    player loses by running out of (:func:`empty_losses`: each card a little,
    and a growing loss as it empties), the cards in play ready to attack
    where attacking has a cost (:func:`ready_attackers`), and material: the
    cards each controls in play (more with health left) and holds in hand. Each player's standing against the mean of the others, squashed."""
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
    machine = Machine(match.game, state) if read.lethal or read.costly_attacks else None
    for player in range(state.players):
        if read.costly_attacks:
            scores[player] += READY_WORTH * len(ready_attackers(machine, read, player))
        for zone in read.emptied:
            held = len(state.zones.get((zone, player), ()))
            scores[player] += EMPTY_CARD_WORTH * held - EMPTY_WORTH * math.exp(-held / EMPTY_SCALE)
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


def ready_attackers(machine, read: Reading, player: int) -> set:
    """The cards ``player`` controls in play that could pay the cost of one
    of the game's attacks with a cost now, whatever the phase and however
    many attacks were made this turn: the resources attached to or spent on
    a card count only where they make its attack payable."""
    state = machine.state
    mine = [c for (zone, _owner), pile in state.zones.items() if zone in read.in_play
            for c in pile if state.cards[c].controller == player]
    ready = set()
    probe = Frame("probe", 0, {"you": player})
    for plan in read.costly_attacks:
        candidates = None
        for card in mine:
            if card in ready:
                continue
            if plan.choose.test is not None:
                if not plan.choose.test(machine, probe, card):
                    continue
            else:
                if candidates is None:
                    candidates = set(plan.choose.candidates(machine, probe))
                if card not in candidates:
                    continue
            probe.locals["it"] = probe.locals["this"] = card
            if plan.can_pay(machine, probe):
                ready.add(card)
    return ready


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


def empty_losses(game) -> tuple:
    """The zones a player loses by running out of: declared so ("a player
    who needs a card from it when it is empty loses"), or named by a rule of
    the game or a verb that says so ("Draw for the turn": "If your deck has
    no cards, you lose the game. Otherwise, draw a card.")."""
    rules = game.rules
    zones = [name for name, decl in rules.zones.items() if decl.empty_loses]
    texts = [rule.text.text for rule in rules.game_rules]
    texts.extend(verb.definition for verb in rules.verbs if verb.definition)
    for text in texts:
        if "lose" not in text:
            continue
        try:
            tree = parse_ability(rules, text)
        except CardrulesError:
            continue
        if not any(step.args[2].form == "lose_game" for step in _nodes(tree, "act")
                   if len(step.args) > 2 and hasattr(step.args[2], "form")):
            continue
        for test in _nodes(tree, "zone_has"):
            quantity = next(_nodes(test, "no_count"), None)
            zone = next(_nodes(test, "zone_ref"), None)
            if quantity is not None and zone is not None and \
                    isinstance(zone.args[-1], str) and zone.args[-1] not in zones:
                zones.append(zone.args[-1])
    return tuple(zones)


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


