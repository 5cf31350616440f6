"""One effect text compiled alone, as ``cardrules explain`` shows it: on
which kinds of card of a game it runs, and why it runs on none.

``check`` compiles every text on the card that carries it; a text explained
on the command line has no card, so it is compiled on a card of each kind the
game declares (a kind that cannot have its label is left out, as a card file
refuses it). What ``explain`` says runs is then what ``check`` accepts.
"""

from __future__ import annotations

import attrs

from interpreter.compiler.abilities import _compile_ability
from interpreter.compiler.compiled import RULE_KIND, CompiledGame
from interpreter.compiler.game import compile_game
from interpreter.errors import CardrulesError, Problem, listing
from interpreter.language import ast
from interpreter.language.cards import CardAbility, CardDefinition
from interpreter.language.game_rules import parse_ability
from interpreter.source import Span


@attrs.frozen
class Runs:
    """The kinds a text runs on, and what stops it on the others."""

    kinds: tuple[str, ...]
    refused: tuple[tuple[str, tuple[Problem, ...]], ...]   # (kind, problems)
    as_rule: bool = False       # on no card, but as a rule line of the rules file

    def problems(self) -> tuple[Problem, ...]:
        """Each distinct problem once, in the order of the kinds; what stops
        the text itself before what only says it is not that kind's (E821:
        a Creature's text needs a moment, a Sorcery's has one)."""
        seen: dict[tuple, Problem] = {}
        for _kind, problems in self.refused:
            for problem in problems:
                seen.setdefault((problem.code, problem.message, problem.span), problem)
        found = tuple(seen.values())
        return tuple(p for p in found if p.code != "E821") or found


def kinds_running(compiled: CompiledGame, ability: ast.Ability, text: str) -> Runs:
    """Compile ``ability`` (read from ``text``) on a card of each kind of the
    game. ``compiled`` is changed (the texts join its abilities): a game
    compiled for this question only."""
    rules = compiled.rules
    # the whole text, as a card file's ability is its line
    span = Span(ability.span.path if ability.span else "<text>", 1, 1, 1, len(text) + 1)
    label = getattr(ability, "label", None)
    kinds: list[str] = []
    refused: list[tuple[str, tuple[Problem, ...]]] = []

    def runs_as(kind: str, box: str) -> bool:
        card = CardDefinition(
            # (a name of its own each time: programs are named after cards)
            name=f"(text {len(compiled.cards)}, as {kind})", kind=kind, stats=(), faces=(),
            abilities=(CardAbility(box, ability, text, span),), path=span.path, span=span)
        compiled.cards[card.name] = card
        try:
            _compile_ability(compiled, card, 0, card.abilities[0])
        except CardrulesError as err:
            refused.append((kind, tuple(p if p.span is not None else attrs.evolve(p, span=span)
                                        for p in err.problems)))
            return False
        return True

    for kind in rules.kinds.values():
        if label and kind.timings and label not in kind.timings:
            continue
        if runs_as(kind.name, kind.boxes[0] if kind.boxes else "text"):
            kinds.append(kind.name)
    if not kinds and not label and runs_as(RULE_KIND, "text"):
        # "If a player controls no Creatures, they lose the game.": a rule
        # line of the rules file, not a card's text
        return Runs((), (), True)
    return Runs(tuple(kinds), tuple(refused))


def where_it_runs(game, text: str) -> str:
    """The line ``explain`` ends with: the kinds of card of a playable game
    the text runs on ("" for a game with no turn structure, which nothing
    runs); a CardrulesError with what stops it when it runs on none."""
    if not game.rules.phases:
        return ""
    ability = parse_ability(game.rules, text, path="<text>")
    runs = kinds_running(compile_game(game), ability, text)
    if runs.kinds:
        return f"runs on: {listing(runs.kinds)}"
    if runs.as_rule:
        return "runs as: a rule of the rules file (rule \"NAME\": TEXT), not on a card"
    problems = runs.problems()
    if not problems:
        label = getattr(ability, "label", "")
        problems = (Problem(
            "E304", f"no kind of card can have {label} abilities",
            Span("<text>", 1, 1, 1, len(label) + 1), None,
            tuple(dict.fromkeys(t for k in game.rules.kinds.values() for t in k.timings))),)
    raise CardrulesError([attrs.evolve(p, source_line=text)
                          if p.span is not None and p.span.path == "<text>" else p
                          for p in problems])
