"""Rulings about decks and matches: the parts of a ``.ruling`` file that are
not one scripted game (interpreter/rulings.py owns that game, reading the
file and the other expect lines).

This module owns:

* the ``decks:`` block: decks written inside a ruling in the syntax of a
  deck file, read against the game's deck parts when the game is known, each
  accepted or refused with the game's own deck problems (``E6xx``);
* which decks sit in the seats (``decks: A, B``), the ruling's or the game's;
* ``match: best of N``: a match played by seeded random agents
  (interpreter/series.py), its trace and what it must match in the game;
* the expect lines about decks (``deck "X" is accepted``, ``deck "X" is
  refused: E605 "text"``) and matches (``player 1 won 2 games``, ``the match
  winner is player 1``, ``the match is a draw``), and which expect lines a
  ruling of each shape may hold.
"""

from __future__ import annotations

import re

import attrs

from interpreter.errors import Problem, did_you_mean, listing
from interpreter.language.decks import Deck, _read_deck, check_deck
from interpreter.language.syntax import OutlineLine, problem_at
from interpreter.series import MatchResult, play_match
from interpreter.source import SourceText, Span

DECK_KINDS = frozenset({"deck_accepted", "deck_refused"})
MATCH_KINDS = frozenset({"games_won", "match_winner", "match_draw"})
# what a match ruling may expect: what the match did, never one game's state
_MATCH_MAY_EXPECT = MATCH_KINDS | DECK_KINDS | {"trace", "trace_lacks"}
_QUOTES = '"\u201c\u201d'
# a deck problem that says the ruling is mistyped, not that the game's deck
# rules refuse the deck: an unknown card
_NOT_A_DECK_RULE = {"E305"}


# ---------------------------------------------------------------- reading


def read_decks_block(line: OutlineLine, problem) -> list[OutlineLine]:
    """The decks written under ``decks:``; their parts are read once the
    game (its deck parts) is known."""
    decks: list[OutlineLine] = []
    names: dict[str, Span] = {}
    for child in line.children:
        words = [w.lower() for w in child.words]
        if words[:1] != ["deck"] or len(child.head) != 2 or not child.head[1].quoted:
            problem(child.span, "E723", 'a deck in a ruling starts with deck "Name", as in '
                    "a deck file", ('deck "Name"',), did_you_mean(child.words[0], ["deck"])
                    if child.words else None)
            continue
        name = child.head[1].text
        if name in names:
            problem(child.head[1].span, "E726", f'a second deck named "{name}" (the first is '
                    f"at line {names[name].line})", ("a name of its own for each deck",))
            continue
        names[name] = child.span
        decks.append(child)
    return decks


_MATCH = re.compile(r"best\s+of\s+(\d+)", re.IGNORECASE)


def read_match(value: str, span: Span, problem) -> int | None:
    """``match: best of N``: the number of games, as the rules file says."""
    found = _MATCH.fullmatch(value.strip().rstrip("."))
    if found is None or int(found.group(1)) < 1:
        problem(span, "E724", f'unknown match "{value}"',
                ("best of N, as the game's rules file declares its match",))
        return None
    return int(found.group(1))


def check_shape(ruling, problem) -> None:
    """A match is played by random agents from the setup, so nothing
    scripts it and no expect line reads one of its games; a ruling that
    plays no match expects none."""
    if "match" in ruling.field_spans:
        for key, what in (("position", "position"), ("play", "play steps"),
                          ("stop", "stop")):
            if key in ruling.field_spans:
                problem(ruling.field_spans[key], "E725",
                        f"a match is played from the game's setup by seeded random "
                        f"agents: it takes no {what}",
                        ("match:, decks:, seed: and expect: lines about the match",),
                        f"drop {key}:, or drop match: to play one scripted game")
    for expectation in ruling.expectations:
        kind = expectation.tree.data
        if "match" not in ruling.field_spans and kind in MATCH_KINDS:
            problem(expectation.span, "E725", "this ruling plays no match, so it has no "
                    "games won and no match winner",
                    ("a match: best of N line in the ruling (the game's match)",))
        elif "match" in ruling.field_spans and kind not in _MATCH_MAY_EXPECT:
            problem(expectation.span, "E725", "a match ruling expects what the match did, "
                    "not the state of one of its games",
                    ("player N won K games", "the match winner is player N",
                     "the match is a draw", 'the trace has "..."',
                     'deck "Name" is accepted'))


def plays_no_game(ruling) -> bool:
    """A ruling whose expect lines are all about decks, with nothing that
    sets up or scripts play, only checks decks."""
    return bool(ruling.expectations) and all(
        e.tree.data in DECK_KINDS for e in ruling.expectations) and not any(
        key in ruling.field_spans for key in ("position", "play", "stop", "match"))


# ---------------------------------------------------------------- the decks


@attrs.define
class DeckBook:
    """Every deck a ruling may name: the game's own (checked when the game
    was loaded, so accepted) and the ruling's, with what refuses them."""

    decks: dict[str, Deck]
    refusals: dict[str, list[Problem]]      # the ruling's decks; [] when accepted
    written: list[str]                      # the ruling's decks, in order


def deck_book(ruling, game, source: SourceText, failures: list[Problem]) -> DeckBook:
    book = DeckBook({deck.name: deck for deck in game.decks}, {}, [])
    for line in ruling.deck_lines:
        name = line.head[1].text
        if name in book.decks:
            failures.append(problem_at(
                source, line.head[1].span, "E726",
                f'{game.game_id} already has a deck named "{name}"',
                ("a name of its own for the ruling's deck",)))
            continue
        read: list[Problem] = []
        deck = _read_deck(source, line, game.rules, read)
        problems = check_deck(deck, game.rules, game.cards, source)
        failures.extend(read)
        failures.extend(p for p in problems if p.code in _NOT_A_DECK_RULE)
        book.decks[name] = deck
        book.refusals[name] = [p for p in problems if p.code not in _NOT_A_DECK_RULE]
        book.written.append(name)
    return book


def deck_trace(book: DeckBook) -> list[str]:
    """The verdict on each of the ruling's decks (without line numbers, so
    that the snapshot does not change when lines move)."""
    lines = []
    for name in book.written:
        refusals = book.refusals[name]
        if not refusals:
            lines.append(f'Deck "{name}" is accepted.')
            continue
        lines.append(f'Deck "{name}" is refused:')
        lines.extend(f"  {p.code} {p.message}" for p in refusals)
    return lines


def seat_decks(ruling, game, book: DeckBook, players: int, source: SourceText,
               failures: list[Problem]) -> list[Deck] | None:
    """One deck per seat: those ``decks:`` names (the last one fills the
    seats left), else the game's first deck in every seat."""
    span = ruling.decks_span or ruling.span
    names = ruling.decks or [deck.name for deck in game.decks[:1]]
    if not names:
        failures.append(problem_at(source, span, "E709", f"{game.game_id} has no deck to "
                                   "play with", ("decks: NAME, ... naming a deck of the "
                                                 "ruling's decks: block",)))
        return None
    decks = []
    for name in names:
        deck = book.decks.get(name)
        if deck is None:
            failures.append(problem_at(source, span, "E709", f'unknown deck "{name}"',
                                       (listing(book.decks),), did_you_mean(name, book.decks)))
            return None
        if book.refusals.get(name):
            refusals = book.refusals[name]
            failures.append(problem_at(
                source, span, "E727", f'deck "{name}" is refused by the deck rules of '
                f"{game.game_id}, so no game is played with it",
                ("a deck the game's deck rules accept, in every seat",),
                "it is refused for " + "; ".join(map(_reason, refusals)) +
                f'; a ruling expects that with: deck "{name}" is refused: '
                f"{refusals[0].code}"))
            return None
        decks.append(deck)
    while len(decks) < players:
        decks.append(decks[-1])
    return decks


def _reason(problem: Problem) -> str:
    return f"{problem.code} {problem.message} (line {problem.span.line})"


def check_deck_expectation(expectation, book: DeckBook, source: SourceText) -> Problem | None:
    """``deck "X" is accepted`` / ``deck "X" is refused: CODE "part of its
    message"`` (the message compared without case)."""
    tree = expectation.tree
    token = tree.children[0]
    name = str(token).strip(_QUOTES)
    if name not in book.decks:
        column = expectation.span.column + token.column - 1
        at = Span(source.path, expectation.span.line, column, expectation.span.line,
                  column + len(token))
        return problem_at(source, at, "E709", f'unknown deck "{name}"',
                          (listing(book.decks),), did_you_mean(name, book.decks))
    refusals = book.refusals.get(name, [])

    def fail(expected: str, actual: str) -> Problem:
        return problem_at(source, expectation.span, "E720", f"expected {expected}, but {actual}")

    if tree.data == "deck_accepted":
        if refusals:
            return fail(f'deck "{name}" to be accepted',
                        "it is refused: " + "; ".join(map(_reason, refusals)))
        return None
    code = str(tree.children[1]).upper()
    text = str(tree.children[2]).strip(_QUOTES) if len(tree.children) > 2 else None
    wanted = f'deck "{name}" to be refused with {code}' + (f' "{text}"' if text else "")
    if not refusals:
        return fail(wanted, "it is accepted")
    same = [p for p in refusals if p.code == code]
    if not same:
        return fail(wanted, "it is refused with " + "; ".join(map(_reason, refusals)))
    if text and not any(text.lower() in p.message.lower() for p in same):
        return fail(wanted, f"its {code} says: " + "; ".join(p.message for p in same))
    return None


# ---------------------------------------------------------------- the match


def play_ruling_match(ruling, game, compiled, decks: list[Deck], source: SourceText,
                      failures: list[Problem]) -> tuple[list[str], MatchResult | None]:
    """Play the match the ruling names, if it is the game's: (its trace,
    its result)."""
    rules = compiled.rules
    span = ruling.match_span or ruling.span
    if not rules.match_games:
        failures.append(problem_at(source, span, "E724", f"{game.game_id} declares no match",
                                   ('a "match: best of N" line in the game block of '
                                    "the game's rules file",)))
        return [], None
    if ruling.match_games != rules.match_games:
        failures.append(problem_at(source, span, "E724",
                                   f"{game.game_id} plays the best of {rules.match_games} "
                                   f"games, not of {ruling.match_games}",
                                   (f"match: best of {rules.match_games}",)))
        return [], None
    result = play_match(compiled, game, decks, ruling.seed)
    lines = [f"A match of {rules.title}: the best of {rules.match_games} games."]
    for record in result.games:
        lines.append(f"==== Game {record.number} (seed {record.seed}): " + ", ".join(
            f"Player {p + 1} plays {name}" for p, name in enumerate(record.decks)))
        lines.extend(f"  {line}" for line in record.swaps)
        lines.extend(record.narration)
    lines.append(f"==== {_outcome(result)}.")
    return lines, result


def _score(result: MatchResult) -> str:
    return "-".join(map(str, result.wins))


def _outcome(result: MatchResult) -> str:
    if result.winner is None:
        return f"The match is a draw ({_score(result)})"
    return f"Player {result.winner + 1} wins the match {_score(result)}"


def check_match_expectation(expectation, result: MatchResult,
                            source: SourceText) -> Problem | None:
    tree = expectation.tree

    def fail(expected: str) -> Problem:
        return problem_at(source, expectation.span, "E720",
                          f"expected {expected}, but {_outcome(result).lower()}")

    if tree.data == "games_won":
        player, wanted = int(tree.children[0].children[0]) - 1, int(tree.children[1])
        if result.wins[player] != wanted:
            return fail(f"player {player + 1} to win {wanted} "
                        f"game{'' if wanted == 1 else 's'} (they won {result.wins[player]})")
        return None
    if tree.data == "match_winner":
        player = int(tree.children[0].children[0]) - 1
        if result.winner != player:
            return fail(f"player {player + 1} to win the match")
        return None
    if result.winner is not None:
        return fail("the match to be a draw")
    return None
