"""The simple agents: whoever answers a game's decisions by a fixed rule.

* :class:`RandomAgent` picks uniformly with its own seeded generator (a
  rules file gives it no hints);
* :class:`GreedyAgent` prefers attacking, then playing a card from the hand,
  then any other action, and passes last (:func:`option_kind`);
* :class:`FirstLegalAgent` always takes the first legal action;
* :class:`ScriptedAgent` plays a list of choices given by label (as
  ``action_to_string`` reads them) and fails loudly on a decision its script
  does not cover or a choice that is not legal.

:func:`play_out` lets agents play a match to its end.
"""

from __future__ import annotations

from interpreter.engine import Machine
from interpreter.engine.rng import Random
from interpreter.errors import CardrulesError, Problem


class RandomAgent:
    """Picks uniformly among the legal actions, with its own seeded generator."""

    def __init__(self, seed: int = 0):
        self.rng = Random(seed)

    def act(self, match) -> int:
        return self.rng.choice(match.legal_actions())


# How :class:`GreedyAgent` ranks the options of a decision, best first.
OPTION_KINDS = ("attack", "exchange", "play", "other", "pass")
GREEDY_RANKS = {kind: rank for rank, kind in enumerate(OPTION_KINDS)}


def option_kind(match, index: int) -> str:
    """What option ``index`` of the open decision does, in words general to
    every game: "attack" (an action named by the language's verb "attack",
    as "can't attack" and "must attack" name them, or one whose card becomes
    the attacker), "exchange" (an action that pays counters for the reward a
    card prints, `exchange: STAT of this KIND`: what the resources gathered
    are for), "play" (an action or response about a card in its player's
    hand), "pass" (passing, or "done"), or "other"."""
    decision = match.state.decision
    option = decision.options[index]
    if option == ("pass",) or option == "done":
        return "pass"
    if decision.kind not in ("action", "respond"):
        return "other"
    game = match.game
    if isinstance(option, tuple) and option and isinstance(option[0], int) and \
            not isinstance(option[0], bool) and option[0] < len(game.rules.actions):
        declared = game.rules.actions[option[0]]
        if declared.name.lower().startswith("attack") or declared.role == "attacker":
            return "attack"
        if declared.exchange is not None:
            return "exchange"
    cards_of = Machine.CARD_AT.get(decision.kind)
    for card in cards_of(option) if cards_of else ():
        zone = match.state.cards[card].zone[0]
        decl = game.rules.zones.get(zone)
        if decl is not None and "hand" in decl.roles:
            return "play"
    return "other"


class GreedyAgent:
    """Prefers attacking, then playing a card from the hand, then any other
    action, and passes last (:func:`option_kind`); among options of the same
    kind, and in decisions that are not actions (targets, yes or no...),
    picks with its own seeded generator."""

    def __init__(self, seed: int = 0):
        self.rng = Random(seed)

    def act(self, match) -> int:
        return self.rng.choice(greedy_choices(match))


def greedy_choices(match, ranks=None) -> list[int]:
    """The legal actions of the best kind :func:`option_kind` finds (ranked
    by ``ranks``, a rank per kind: by default the order of OPTION_KINDS)."""
    legal = match.legal_actions()
    if len(legal) == 1 or match.state.decision.kind not in ("action", "respond"):
        return legal
    ranks = ranks or GREEDY_RANKS
    ranked = [(ranks[option_kind(match, a)], a) for a in legal]
    best = min(rank for rank, _ in ranked)
    return [a for rank, a in ranked if rank == best]


class FirstLegalAgent:
    def act(self, match) -> int:
        return match.legal_actions()[0]


class ScriptedAgent:
    """Plays scripted choices in order; each is an option's label."""

    def __init__(self, choices: list[str]):
        self.choices = list(choices)
        self.used = 0

    def act(self, match) -> int:
        decision = match.state.decision
        if self.used >= len(self.choices):
            raise CardrulesError(Problem(
                "E807", f"unscripted decision: player {decision.player + 1} must "
                f"{decision.prompt} ({', '.join(decision.labels)})"))
        wanted = self.choices[self.used]
        self.used += 1
        for action in match.legal_actions():
            if match.action_to_string(action) == wanted:
                return action
        raise CardrulesError(Problem(
            "E808", f'illegal scripted choice "{wanted}" (step {self.used}): player '
            f"{decision.player + 1} must {decision.prompt}: {', '.join(decision.labels)}"))


def play_out(match, agents, max_decisions: int = 100_000, each_turn=None) -> int:
    """Let the agents answer decisions until the game ends; returns how many.
    ``each_turn(match)`` is called at the first decision of every turn."""
    decisions = 0
    turn = None
    while not match.is_terminal():
        if decisions >= max_decisions:
            match.game_over_by_cap(f"more than {max_decisions} decisions")
            break
        if each_turn is not None and match.state.turn != turn:
            turn = match.state.turn
            each_turn(match)
        player = match.current_player()
        match.apply_action(agents[player].act(match))
        decisions += 1
    return decisions
