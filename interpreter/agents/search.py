"""The search agent: information-set Monte Carlo tree search (ISMCTS).

:class:`SearchAgent` decides by playing the game forward many times from
the decision it faces. Each iteration deals again what its player cannot
see (``Match.determinized``: the other hands, the order of the decks,
face-down cards, secret numbers, the game's future randomness), walks down
one tree shared by all those worlds (single-observer ISMCTS: a node's
children are keyed by who decides and the option's text, chosen by UCB with
availability counts, one new node per iteration), then plays on with a fast
policy (the turn player attacks where it can, else ends the turn:
:data:`TURN_RANKS`; the others answer with
:class:`~interpreter.agents.simple.GreedyAgent`'s ranking; random among the
best) to the end of the turn it started in, for at most
``rollout`` decisions, and scores the end: :meth:`Match.returns` when the
game is over, else :func:`~interpreter.agents.evaluation.position_value`
(the declared ways to win and lose, resources for later turns, and
material). It answers with the most visited option at the root.

Its budget is a number of iterations (deterministic: the same seed, game
and budget give the same choices; a decision with many options gets more,
:data:`WIDE_VISITS` per option up to :data:`WIDE_CAP`; the default budget
plays on until its iterations simulated :data:`DEFAULT_DECISIONS`
decisions, at most :data:`DEFAULT_CAP`) or a time per decision (not
deterministic: how many iterations fit depends on the machine). A decision
with one legal option is answered without searching.
"""

from __future__ import annotations

import math
import time

from interpreter.agents.evaluation import card_count_goals, position_value
from interpreter.agents.simple import greedy_choices
from interpreter.engine.rng import Random

__all__ = ["SearchAgent", "card_count_goals", "position_value", "search_agent"]

# How far a rollout plays before the position is scored: to the end of the
# turn it starts in, at most this many decisions. Measured (benchmarks/
# agents_strength.py): to the end of the turn is as strong against greedy as
# 12 or 24 decisions across turns, and five to ten times cheaper; a cap of 6
# left a game whose turn is long (cards placed, then resolved at the end of
# the turn) judged before anything it placed had paid off, and playing it
# to its cap of decisions; 16 reaches the end of such a turn.
ROLLOUT_DECISIONS = 16
DEFAULT_ITERATIONS = 16
# The default budget also plays on, past DEFAULT_ITERATIONS, until its
# iterations have simulated DEFAULT_DECISIONS decisions (counted, so that
# it stays deterministic), at most DEFAULT_CAP iterations: a game whose
# turns are a few decisions long gets more iterations for the same work
# than one whose rollouts pass priority through many steps.
DEFAULT_DECISIONS = 256
DEFAULT_CAP = 64
# A decision with many options (a number from 0 to 38, a card among 20)
# gets this many iterations per option, up to the cap, instead of trying
# a few of them once each and taking the luckiest
WIDE_VISITS = 2
WIDE_CAP = 64
# The rollout's policy for the player whose turn it is: attack where it
# can, else end the turn: each option of a decision is judged as "this,
# then the attacks of the turn", not buried under every other card the
# greedy ranking would play after it (a hand emptied, cards drawn, a
# retreat that discards what it had attached) whichever option came first;
# the next decision is searched in its turn. The other players answer as
# the greedy agent does (blocks, responses).
# An exchange (resources paid for a card's reward: an objective cleared
# with the moves gathered) ranks with an attack: ranked with the other
# actions, after passing, the rollouts never cashed in what the turn
# gathered, and the agent, seeing no gain in placing cards, played its
# games to the cap (docs/playtesting.md).
TURN_RANKS = {"attack": 0, "exchange": 0, "pass": 1, "play": 2, "other": 3}
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
                 seconds: float | None = None, rollout: int = ROLLOUT_DECISIONS,
                 to_turn_end: bool = True):
        self.rng = Random(seed)
        # the default budget: DEFAULT_ITERATIONS, then more while they
        # simulated fewer than DEFAULT_DECISIONS decisions
        self.by_decisions = iterations is None and seconds is None
        self.iterations = iterations if iterations is not None or seconds is not None \
            else DEFAULT_ITERATIONS
        self.seconds = seconds
        self.rollout = rollout
        self.to_turn_end = to_turn_end
        self.searched = 0          # decisions searched (more than one option)
        self.simulated = 0         # decisions simulated in this search

    def act(self, match) -> int:
        legal = match.legal_actions()
        if len(legal) == 1:
            return legal[0]
        self.searched += 1
        viewer = match.current_player()
        root = Node(viewer)
        deadline = None if self.seconds is None else time.monotonic() + self.seconds
        budget = self.iterations
        if budget is not None:
            budget = max(budget, min(WIDE_VISITS * len(legal), WIDE_CAP))
        done = 0
        self.simulated = 0
        while (budget is None or done < budget or self._more(done)) and (
                deadline is None or done == 0 or time.monotonic() < deadline):
            self._iterate(match.determinized(viewer, self.rng), root)
            done += 1
        labels = [match.action_to_string(a) for a in legal]
        visits = [root.children.get((viewer, label)) for label in labels]
        best = max(range(len(legal)), key=lambda i: (
            visits[i].visits if visits[i] else -1,
            visits[i].total if visits[i] else 0.0, -i))
        return legal[best]

    def _more(self, done: int) -> bool:
        """Whether the default budget plays another iteration past its
        iterations: while they simulated fewer than DEFAULT_DECISIONS."""
        return self.by_decisions and done < DEFAULT_CAP and \
            self.simulated < DEFAULT_DECISIONS

    def _iterate(self, world, root: Node) -> None:
        """One iteration on one determinized world: select and expand, play
        on, score, and credit each node's player with their reward."""
        rng = self.rng
        node, path = root, []
        while not world.is_terminal():
            legal = world.legal_actions()
            self.simulated += 1
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
        turn = world.state.turn
        for _ in range(self.rollout):
            if world.is_terminal() or (self.to_turn_end and world.state.turn != turn):
                break
            self.simulated += 1
            choices = greedy_choices(world, TURN_RANKS if world.current_player() ==
                                     world.state.turn_player else None)
            world.apply_action(choices[rng.below(len(choices))])
        rewards = world.returns() if world.is_terminal() else position_value(world)
        for visited in path:
            visited.visits += 1
            visited.total += rewards[visited.player]


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
