"""Cards written inside a ruling: a ``cards:`` block of one ruling, in the
syntax of a card file, so that a rule can be tested with a card no shipped
set has (interpreter/rulings.py reads the rest of the ruling and plays it).

This module owns:

* the ``cards:`` block: its card lines, read and checked exactly as a card
  file of the ruling's game is (interpreter/language/cards.py), each mistake
  a positioned problem at its line of the ``.ruling`` file;
* the game that ruling plays: the game with those cards added (a name the
  game already has is refused, E412), compiled for that ruling only; the
  other rulings of the file play the game as it is.
"""

from __future__ import annotations

import attrs

from interpreter.engine import compile_game
from interpreter.errors import CardrulesError, Problem, did_you_mean
from interpreter.language.cards import CardFile, _CardReader
from interpreter.language.syntax import OutlineLine, problem_at
from interpreter.source import SourceText


def read_cards_block(line: OutlineLine, problem) -> list[OutlineLine]:
    """The cards written under ``cards:``; they are read once the game (its
    kinds, stats and card text) is known."""
    if line.value and line.value.strip():
        problem(line.value_span or line.span, "E730", "the cards of a ruling go on the "
                "lines below cards:, as in a card file", ('cards:\n    card "Name"',))
    if not line.children:
        problem(line.span, "E730", "cards: holds no card", ('card "Name", indented below',))
    return list(line.children)


def ruling_game(ruling, game, source: SourceText, failures: list[Problem]):
    """The game with the ruling's cards added (the game itself when the
    ruling writes none); None, and the problems in ``failures``, when a card
    of the ruling has a mistake."""
    if not ruling.card_lines:
        return game
    read = CardFile(source.path, [], [], [])
    reader = _CardReader(source, game.rules, read, ruling.card_lines)
    for line in ruling.card_lines:
        reader.card(line)
    problems = list(read.problems)
    cards = dict(game.cards)
    for card in read.cards:
        other = cards.get(card.name)
        if other is not None:
            where = "this ruling" if other.span.path == source.path else game.game_id
            problems.append(problem_at(
                source, card.span, "E412",
                f'{where} already has a card named "{card.name}" (defined at '
                f"{other.span.path}:{other.span.line})",
                ("a name of its own for the ruling's card",)))
            continue
        cards[card.name] = card
    for name, span in read.references:
        if name not in cards and span is not None and span.path == source.path:
            problems.append(problem_at(source, span, "E305", f'unknown card "{name}"',
                                       (), did_you_mean(name, cards)))
    if problems:
        failures.extend(problems)
        return None
    return attrs.evolve(game, cards=cards)


def compile_ruling_game(ruling, game, source: SourceText, failures: list[Problem]):
    """The compiled game a ruling plays. A ruling with cards of its own
    compiles a game of its own, and an ability of those cards the engine
    cannot run fails the ruling at its line; the game as shipped compiles as
    always (its problems are the game's, not the ruling's)."""
    if not ruling.card_lines:
        return compile_game(game)
    try:
        return compile_game(game)
    except CardrulesError as err:
        mine = [p for p in err.problems if p.span is not None and p.span.path == source.path]
        if not mine:
            raise
        failures.extend(mine)
        return None
