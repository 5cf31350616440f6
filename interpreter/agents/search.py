"""The search agent: information-set Monte Carlo tree search (ISMCTS).

:class:`SearchAgent` decides by playing the game forward many times from
the decision it faces. Each iteration deals again what its player cannot
see (``Match.determinized``: the other hands, the order of the decks,
face-down cards, secret numbers, the game's future randomness), walks down
one tree shared by all those worlds (single-observer ISMCTS: a node's
children are keyed by who decides and the option's text, chosen by UCB with
availability counts, one new node per iteration), then plays on with a fast
policy (:class:`~interpreter.agents.simple.GreedyAgent`'s ranking, random
among the best) for at most ``rollout`` decisions and scores the end:
:meth:`Match.returns` when the game is over, else :func:`position_value`.
It answers with the most visited option at the root.

Its budget is a number of iterations (deterministic: the same seed, game
and budget give the same choices) or a time per decision (not deterministic:
how many iterations fit depends on the machine). A decision with one legal
option is answered without searching.
"""

from __future__ import annotations

import math
import time

from interpreter.agents.simple import greedy_choices
from interpreter.engine.rng import Random
from interpreter.errors import CardrulesError
from interpreter.language.game_rules import parse_ability

# how far a rollout plays before the position is scored
ROLLOUT_DECISIONS = 24
DEFAULT_ITERATIONS = 30
# the exploration constant of UCB (rewards are in [-1, 1])
EXPLORATION = 0.9


class Node:
    """One option taken in the tree: its visits, the total reward of the
    player who took it, how often it was available when its parent was
    visited, and the nodes under it keyed by (player, option text)."""

    __slots__ = ("player", "visits", "total", "available", "children")

    def __init__(self, player: int):
        self.player = player
        self.visits = 0
        self.total = 0.0
        self.available = 0
        self.children: dict[tuple, Node] = {}

    def score(self) -> float:
        """UCB with availability counts (ISMCTS): the mean reward plus the
        exploration bonus for an option rarely tried where it was legal."""
        return self.total / self.visits + EXPLORATION * math.sqrt(
            math.log(max(self.available, 1)) / self.visits)


class SearchAgent:
    """ISMCTS with ``iterations`` per decision, or as many as fit in
    ``seconds`` (then not deterministic); see the module's docstring."""

    def __init__(self, seed: int = 0, iterations: int | None = None,
                 seconds: float | None = None, rollout: int = ROLLOUT_DECISIONS):
        self.rng = Random(seed)
        self.iterations = iterations if iterations is not None or seconds is not None \
            else DEFAULT_ITERATIONS
        self.seconds = seconds
        self.rollout = rollout
        self.searched = 0          # decisions searched (more than one option)

    def act(self, match) -> int:
        legal = match.legal_actions()
        if len(legal) == 1:
            return legal[0]
        self.searched += 1
        viewer = match.current_player()
        root = Node(viewer)
        deadline = None if self.seconds is None else time.monotonic() + self.seconds
        done = 0
        while (self.iterations is None or done < self.iterations) and (
                deadline is None or done == 0 or time.monotonic() < deadline):
            self._iterate(match.determinized(viewer, self.rng), root)
            done += 1
        labels = [match.action_to_string(a) for a in legal]
        visits = [root.children.get((viewer, label)) for label in labels]
        best = max(range(len(legal)), key=lambda i: (
            visits[i].visits if visits[i] else -1,
            visits[i].total if visits[i] else 0.0, -i))
        return legal[best]

    def _iterate(self, world, root: Node) -> None:
        """One iteration on one determinized world: select and expand, play
        on, score, and credit each node's player with their reward."""
        rng = self.rng
        node, path = root, []
        while not world.is_terminal():
            legal = world.legal_actions()
            if len(legal) == 1:
                world.apply_action(legal[0])
                continue
            player = world.current_player()
            keys = [(player, world.action_to_string(a)) for a in legal]
            untried = []
            for index, key in enumerate(keys):
                child = node.children.get(key)
                if child is None:
                    untried.append(index)
                else:
                    child.available += 1
            if untried:
                index = untried[rng.below(len(untried))]
                child = node.children[keys[index]] = Node(player)
                child.available += 1
                world.apply_action(legal[index])
                path.append(child)
                break
            index = max(range(len(legal)), key=lambda i: node.children[keys[i]].score())
            node = node.children[keys[index]]
            world.apply_action(legal[index])
            path.append(node)
        for _ in range(self.rollout):
            if world.is_terminal():
                break
            choices = greedy_choices(world)
            world.apply_action(choices[rng.below(len(choices))])
        rewards = world.returns() if world.is_terminal() else position_value(world)
        for visited in path:
            visited.visits += 1
            visited.total += rewards[visited.player]


def position_value(match) -> list[float]:
    """How well each player stands, in (-1, 1), in an unfinished game, from
    what its rules declare about winning and losing, never from its name:
    a counter a player loses at ("a player with 0 Life loses": how far above
    that they are, from where they started), a counter a player wins at (how
    far toward it), a position on a track (how far along), a zone a player
    with no cards in loses (how many are left), the rules of the game that
    end it by the cards in a zone (:func:`card_count_goals`), and, a little,
    the cards each controls in play and holds in hand. Each player's standing against the
    mean of the others, squashed."""
    state = match.state
    rules = match.game.rules
    scores = []
    for player in range(state.players):
        counters = state.player_counters[player]
        score = 0.0
        for name, decl in rules.counters.items():
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
        for zone, at_least, wins in card_count_goals(match.game):
            held = len(state.zones.get((zone, player), ()))
            if at_least:      # "N or more cards in their ZONE": toward N
                progress = min(held / at_least, 1.0)
            else:             # "no cards in their ZONE": fewer is closer
                total = sum(len(state.zones.get((zone, p), ())) for p in range(state.players))
                progress = 1.0 - held / max(total, 1)
            score += progress if wins else -progress
        in_play = in_hand = 0
        for (zone, owner), pile in state.zones.items():
            decl = rules.zones.get(zone)
            if decl is None:
                continue
            if decl.none_loses and owner == player:
                score += len(pile) / (decl.slots or 5)
            if "in play" in decl.roles:
                in_play += sum(1 for c in pile if state.cards[c].controller == player)
            elif "hand" in decl.roles and owner == player:
                in_hand += len(pile)
        score += 0.3 * in_play / (in_play + 4) + 0.15 * in_hand / (in_hand + 4)
        scores.append(score)
    out = []
    for player, score in enumerate(scores):
        others = [s for p, s in enumerate(scores) if p != player]
        edge = score - sum(others) / max(len(others), 1)
        out.append(0.9 * math.tanh(2 * edge))
    return out


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


def search_agent(seed: int, setting: str | None) -> SearchAgent:
    """``search`` (the default budget), ``search:ITERATIONS`` or
    ``search:SECONDSs``; the caller reports a setting that is neither."""
    if setting is None:
        return SearchAgent(seed)
    text = setting.strip().lower()
    if text.endswith("s"):
        seconds = float(text[:-1])
        if not (0 < seconds <= 600):
            raise ValueError(setting)
        return SearchAgent(seed, seconds=seconds)
    iterations = int(text)
    if iterations < 1:
        raise ValueError(setting)
    return SearchAgent(seed, iterations=iterations)
