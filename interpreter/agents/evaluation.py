"""How well each player stands in an unfinished game, read from its rules.

:func:`position_value` is the search agent's evaluation of a position: what
the rules declare about winning and losing (life-like counters, counters a
player wins at, tracks, zones a player loses by emptying, rules of the game
that end it by the cards in a zone: :func:`card_count_goals`), the race to
run out of a zone a player loses by emptying (:func:`empty_losses`: a deck
drawn from, and who runs out first), resources that pay off on a later turn
(:func:`ready_attackers`: cards in play whose attack's cost is payable;
:func:`arming`: how far each card is toward paying it, by the stat the game
deals damage by) and material (the cards each player controls in play, each
worth more while it has health left against a stat that damage destroys it
at, and the cards in hand, each card more worth less).
Nothing here knows a game by its name: :class:`Reading` gathers, once per
compiled game, what the evaluation needs from the rules model.
"""

from __future__ import annotations

import math

from interpreter.compiler.costs import cost_progress
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
# ... the first cards in hand, that is: each card more is worth less (a
# hand of HAND_PLENTY cards is most of what a hand is worth), so that a
# player holding many cards plays them when doing so gains anything
HAND_PLENTY = 5.0
# A card in play whose attack has a cost (energy attached, tokens...) and
# that could pay it now: what the resources put into it are worth before
# the attack they enable happens, on a later turn the rollouts do not reach.
READY_WORTH = 0.06
# ... and each card that could make such an attack (a card of a kind that
# has the stats its cost reads), by how far toward payable its cost is
# (2 of the 4 Energy attached it needs: half): what the resources put into
# it are worth on the turns before it can attack, wherever it is in play.
ARMING_WORTH = 0.04
# ... the more for a card that the attack could choose now (the active
# creature, a card not tapped...) but for its cost
ARMING_CHOSEN_WORTH = 0.12
# A zone a player loses by emptying (a deck they draw from): nothing while
# it holds many cards, more and more as it runs out, a whole goal's half
# when it is empty: who runs out first loses the race.
EMPTY_WORTH = 0.5
EMPTY_SCALE = 3.0
# ... and who runs out first loses: the difference between the players'
# cards in it (in RACE_CARDS) weighs up to RACE_WORTH, more as the shorter
# of them runs out (RACE_SCALE cards)
RACE_WORTH = 1.0
RACE_CARDS = 3.0
RACE_SCALE = 10.0
# ... and each card in it, a resource (a draw, a cost paid from the top)
EMPTY_CARD_WORTH = 0.01
# rewards stay below a win's 1
SQUASH = 0.9


class Reading:
    """What the evaluation reads from one compiled game's rules, once: the
    zones in play, the hand zones, the stats damage destroys a card at with
    their typical (mean printed) value, the card-count goals, the zones a
    player loses by emptying, the attacks that have a cost, those whose cost
    reads their card's stats (:func:`arming_costs`) and the stats damage is
    dealt by, with their typical value (:func:`damage_stats`)."""

    __slots__ = ("game", "in_play", "hands", "lethal", "goals", "costly_attacks", "emptied",
                 "arming", "striking")

    def __init__(self, game):
        rules = game.rules
        self.game = game
        self.in_play = frozenset(n for n, d in rules.zones.items() if "in play" in d.roles)
        self.hands = frozenset(n for n, d in rules.zones.items() if "hand" in d.roles)
        self.lethal = tuple((stat.name, typical(game, stat.name))
                            for stat in rules.stats.values() if stat.lethal_damage)
        self.goals = card_count_goals(game)
        self.emptied = empty_losses(game)
        self.costly_attacks = tuple(
            game.actions[index] for index, declared in enumerate(rules.actions)
            if declared.cost is not None and declared.choose is not None and
            (declared.name.lower().startswith("attack") or declared.role == "attacker"))
        self.arming = tuple(arming_costs(game))
        self.striking = tuple((stat, typical(game, stat)) for stat in damage_stats(game)) \
            if self.arming else ()


# the readings of the games played lately (id of the compiled game ->
# Reading): a long-running process (the web table, a series of games)
# compiles games again and again, so the oldest are let go
_READINGS: dict = {}
READINGS_KEPT = 8


def typical(game, stat: str) -> float:
    """The mean positive printed value of ``stat`` over the game's cards."""
    values = [v for v in (c.stat(stat) for c in game.cards.values())
              if isinstance(v, int) and not isinstance(v, bool) and v > 0]
    return sum(values) / len(values) if values else 1.0


def damage_stats(game) -> list[str]:
    """The stats of the dealing card that the game's verbs and actions deal
    damage by ("deal damage equal to the power of the attacking creature
    ..."): what makes one attacker hit harder than another."""
    rules = game.rules
    texts = [verb.definition for verb in rules.verbs if verb.definition]
    texts.extend(a.effect.text for a in rules.actions if a.effect is not None)
    stats = []
    for tree in _parsed(rules, texts, "damage"):
        for deal in _nodes(tree, "deal_measured"):
            for measure in _nodes(deal.args[0], "stat_of", "its_stat"):
                name = measure.args[0]
                dealt_to = measure.args[1] if measure.form == "stat_of" else None
                if getattr(dealt_to, "form", None) != "the_defending" and \
                        isinstance(name, str) and name in rules.stats and name not in stats:
                    stats.append(name)
    return stats


def reading(game) -> Reading:
    """The :class:`Reading` of a compiled game (kept while the game is)."""
    known = _READINGS.get(id(game))
    if known is None or known.game is not game:
        known = Reading(game)
        _READINGS.pop(id(game), None)
        while len(_READINGS) >= READINGS_KEPT:
            del _READINGS[next(iter(_READINGS))]     # the oldest
        _READINGS[id(game)] = known
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
    a growing loss as it empties, and the difference from the others', more
    as the shorter runs out), the cards in play ready to attack where
    attacking has a cost (:func:`ready_attackers`) and how far each is
    toward paying it (:func:`arming`), and material: the cards each controls
    in play (more with health left) and holds in hand (:func:`hand_worth`).
    Each player's standing against the mean of the others, squashed."""
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
    machine = match.views() if read.lethal or read.costly_attacks or read.arming else None
    for player in range(state.players):
        if read.costly_attacks:
            scores[player] += READY_WORTH * len(ready_attackers(machine, read, player))
        if read.arming:
            scores[player] += arming(machine, read, player)
        for zone in read.emptied:
            held = len(state.zones.get((zone, player), ()))
            scores[player] += EMPTY_CARD_WORTH * held - EMPTY_WORTH * math.exp(-held / EMPTY_SCALE)
            if state.players > 1:
                others = min(len(state.zones.get((zone, p), ()))
                             for p in range(state.players) if p != player)
                scores[player] += RACE_WORTH * math.exp(-min(held, others) / RACE_SCALE) * \
                    math.tanh((held - others) / RACE_CARDS) / 2
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
            scores[owner] += hand_worth(len(pile))
        decl = rules.zones.get(zone)
        if decl is not None and decl.none_loses and 0 <= owner < state.players:
            scores[owner] += len(pile) / (decl.slots or 5)
    return scores


def hand_worth(held: int) -> float:
    """What ``held`` cards in hand are worth: :data:`HAND_WORTH` for the
    first, less and less for each more (:data:`HAND_PLENTY`)."""
    return HAND_WORTH * HAND_PLENTY * (1.0 - math.exp(-held / HAND_PLENTY))


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


def arming_costs(game):
    """(kinds, chooses, progress) for each of the game's attacks with a cost
    that reads stats of its card ("where X is its cost"): the kinds of card
    that have all those stats, the test of the card the attack chooses, and
    how far toward payable the cost is for a card
    (:func:`~interpreter.compiler.costs.cost_progress`)."""
    rules = game.rules
    for index, declared in enumerate(rules.actions):
        if declared.cost is None or declared.choose is None or not (
                declared.name.lower().startswith("attack") or declared.role == "attacker"):
            continue
        try:
            sentences = parse_ability(rules, declared.cost.text).resolution
            progress = cost_progress(sentences, rules)
        except CardrulesError:
            continue
        stats = {n.args[0] for n in _nodes(sentences, "its_stat")}
        kinds = frozenset(name for name, kind in rules.kinds.items()
                          if stats and stats <= set(kind.required) | set(kind.optional))
        if kinds:
            yield kinds, game.actions[index].choose.test, progress


def arming(machine, read: Reading, player: int) -> float:
    """How far the cards ``player`` controls in play (not attached to
    another) are toward paying the cost of one of the game's attacks
    (:func:`arming_costs`), weighted: :data:`ARMING_CHOSEN_WORTH` for a card
    the attack could choose now, :data:`ARMING_WORTH` for another."""
    state = machine.state
    probe = Frame("probe", 0, {"you": player})
    total = 0.0
    for (zone, _owner), pile in state.zones.items():
        if zone not in read.in_play:
            continue
        for c in pile:
            card = state.cards[c]
            if card.controller != player or card.attached_to is not None:
                continue
            best = 0.0
            for kinds, chooses, progress in read.arming:
                if any(machine.is_kind(c, kind) for kind in kinds):
                    probe.locals["it"] = probe.locals["this"] = c
                    worth = ARMING_CHOSEN_WORTH if chooses is not None and \
                        chooses(machine, probe, c) else ARMING_WORTH
                    best = max(best, worth * progress(machine, probe))
            if best and read.striking:
                best *= sum(min(max(machine.stat(c, stat), 0) / mean, 2.0)
                            for stat, mean in read.striking) / len(read.striking)
            total += best
    return total


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
    for tree in _parsed(rules, texts, "lose"):
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


def _parsed(rules, texts, word: str):
    """The parsed texts among ``texts`` that say ``word`` (those the card
    grammar cannot parse are passed over: the game's check reports them)."""
    for text in texts:
        if word in text:
            try:
                yield parse_ability(rules, text)
            except CardrulesError:
                continue


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


