"""Fuzzing whole files from the grammars (``hypothesis.extra.lark.from_lark``):

* rules, card, deck and ruling files generated from the outline grammar
  (grammar/outline.lark) that every file kind shares, their heads, names
  and values drawn from the shipped files of that kind (so that the loaders
  get past the outline into their own checks) or made up;
* expect lines generated from the ruling grammar (grammar/ruling.lark), run
  in a ruling of the Duel fixture game.

Whatever comes out, loading (and running a ruling) reports problems or
results, never raises anything but the project's own error, and every
problem points inside its input. tests/test_fuzz_files.py mutates the real
files; tests/test_properties.py generates card texts from the effect grammar.

Budget per kind and game: ``CARDRULES_FUZZ_EXAMPLES`` (default 30 here, 10
for the rules files; the full fuzz run is in docs/reliability.md).
"""

from __future__ import annotations

import functools
import os
import re
from pathlib import Path

import lark
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark

from errors_support import assert_inside_text
from interpreter.errors import CardrulesError
from interpreter.language.cards import load_cards
from interpreter.language.decks import load_decks
from interpreter.language.games import load_game, shipped_games
from interpreter.language.rules_file import load_rules
from interpreter.language.syntax import parse_outline
from interpreter.resources import read_grammar
from interpreter.rulings import load_rulings, run_ruling
from interpreter.source import SourceText

EXAMPLES = int(os.environ.get("CARDRULES_FUZZ_EXAMPLES", "30"))
HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DUEL_RULES = HERE / "fixtures" / "engine" / "rules" / "duel.rules"

SETTINGS = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                    suppress_health_check=list(HealthCheck))
# each rules file builds its game's grammar (about 0.4 s): 10 in CI
RULES_SETTINGS = settings(SETTINGS, max_examples=int(os.environ.get(
    "CARDRULES_FUZZ_EXAMPLES", "10")))

# from_lark draws the layout tokens as these marks; _layout turns them into
# newlines and indentation (the indenter, not the grammar, tracks the depth)
_NEWLINE, _INDENT, _DEDENT = "\ue000", "\ue001", "\ue002"


def _layout(drawn: str) -> str:
    out, depth, line_start = [], 0, True
    for piece in re.split(f"([{_NEWLINE}{_INDENT}{_DEDENT}])", drawn):
        if piece == _NEWLINE:
            out.append("\n")
            line_start = True
        elif piece == _INDENT:
            depth += 1
        elif piece == _DEDENT:
            depth = max(0, depth - 1)
        elif piece:
            out.append(("  " * depth + piece.lstrip()) if line_start else piece)
            line_start = False
    return "".join(out)


def _files(kind: str, game_id: str | None) -> list[Path]:
    if kind == "rules":
        return [ROOT / "rules" / f"{game_id}.rules"]
    if kind == "cards":
        return sorted((ROOT / "cards" / game_id).glob("*.cards"))
    if kind == "deck":
        return sorted((ROOT / "cards" / game_id / "decks").glob("*.deck"))
    return sorted((HERE / "rulings").glob("*/*.ruling"))


@functools.lru_cache(maxsize=None)
def _vocabulary(kind: str, game_id: str | None) -> tuple[list, list, list, list, str]:
    """The head words, quoted names and values of the shipped files of a
    kind, the lines their files start blocks with, and the first line."""
    words, names, values, tops, first = set(), set(), set(), set(), ""

    def walk(lines):
        for line in lines:
            for item in line.head:
                (names if item.quoted else words).add(item.text)
            if line.value:
                values.add(line.value)
            walk(line.children)
    for path in _files(kind, game_id):
        text = path.read_text(encoding="utf-8")
        lines, _problems = parse_outline(SourceText(str(path), text))
        walk(lines)
        for line in lines:
            top = text.split("\n")[line.span.line - 1]
            tops.add(top)
            # a ruling's fields: the game it names, the rest generated
            tops.update(f"{top}\n  game: {child.value.strip()}" for child in line.children
                        if child.key == "game" and child.value)
        first = first or text.split("\n")[lines[0].span.line - 1]
    return sorted(words), sorted(names), sorted(values), sorted(tops), first


_TEXT = st.text(st.characters(codec="utf-8", exclude_characters="\r\n\"\u201c\u201d:#"),
                min_size=1, max_size=12)


def _shipped_or_made_up(shipped: list, made_up):
    return st.one_of(st.sampled_from(shipped), made_up) if shipped else made_up


def outline_files(kind: str, game_id: str | None):
    words, names, values, tops, first = _vocabulary(kind, game_id)
    parser = lark.Lark(read_grammar("outline.lark"), parser="lalr", lexer="contextual")
    word = _shipped_or_made_up(words, _TEXT.map(lambda s: s.strip() or "x"))
    name = _shipped_or_made_up(names, _TEXT)
    value = _shipped_or_made_up(values, _TEXT.map(lambda s: s.strip() or "1"))
    explicit = {
        "_NL": st.just(_NEWLINE), "_INDENT": st.just(_INDENT), "_DEDENT": st.just(_DEDENT),
        "WORD": word.map(lambda w: " " + w.replace(" ", "").lstrip("#") if w.strip("#")
                         else " word"),
        "NAME": name.map(lambda n: f' "{n}"'),
        "VALUE": value.map(lambda v: " " + v),
        "COMMENT": st.just(" # a comment"),
    }
    for term in parser.terminals:
        if term.name.startswith("__IGNORE"):
            explicit[term.name] = st.just(" ")
    drawn = from_lark(parser, explicit=explicit).map(_layout)
    # as it comes, or as the block of a line the shipped files start blocks
    # with (a card, a deck, a ruling, a zone), after their first line: the
    # loaders then read the generated lines as fields
    nested = st.tuples(st.sampled_from(tops), drawn).map(
        lambda pair: pair[0] + "\n" + "\n".join("  " + line if line.strip() else line
                                                for line in pair[1].split("\n")))
    return st.one_of(drawn, nested, nested.map(lambda text: first + "\n" + text))


def assert_inside(problems, text: str):
    assert_inside_text(problems, text, ("fuzz.rules", "fuzz.cards", "fuzz.deck",
                                        str(_RULING_PATH)))


@pytest.mark.parametrize("game_id", shipped_games())
def test_rules_files_from_the_outline_grammar(game_id):
    @RULES_SETTINGS
    @given(outline_files("rules", game_id))
    def check(text):
        _rules, problems = load_rules(SourceText("fuzz.rules", text), game_id)
        assert_inside(problems, text)

    check()


@pytest.mark.parametrize("game_id", shipped_games())
def test_card_files_from_the_outline_grammar(game_id):
    rules = load_game(game_id).rules

    @SETTINGS
    @given(outline_files("cards", game_id))
    def check(text):
        assert_inside(load_cards(SourceText("fuzz.cards", text), rules).problems, text)

    check()


@pytest.mark.parametrize("game_id", shipped_games())
def test_deck_files_from_the_outline_grammar(game_id):
    game = load_game(game_id)

    @SETTINGS
    @given(outline_files("deck", game_id))
    def check(text):
        _decks, problems = load_decks(SourceText("fuzz.deck", text), game.rules, game.cards)
        assert_inside(problems, text)

    check()


# generated rulings sit beside the real ones, so that their "game:" paths resolve
_RULING_PATH = HERE / "rulings" / "duel" / "fuzz.ruling"


def _run(text: str):
    source = SourceText(str(_RULING_PATH), text)
    rulings, problems = load_rulings(source)
    assert_inside(problems, text)
    for ruling in rulings:
        try:
            result = run_ruling(ruling, source)
        except CardrulesError as err:   # the game it names has problems
            assert_inside(err.problems, text)
            continue
        assert_inside(result.failures, text)


def test_ruling_files_from_the_outline_grammar():
    @SETTINGS
    @given(outline_files("ruling", None))
    def check(text):
        _run(text)

    check()


_DUEL_RULING = """ruling "A generated expectation"
  game: ../../fixtures/engine/rules/duel.rules
  position:
    turn: 3
    turn player: 1
    phase: Main
    player 1:
      hand: "Scholar", "Knight"
      deck: "Giant", "Squire"
      Mana: 2
    player 2:
      board: "Squire"
  play:
    player 1: cast Scholar
  stop: at the next decision
  expect:
    player 1 Mana is 1
    {expect}
"""


def expect_lines():
    """Expect lines of the ruling grammar, in the Duel game's words (its
    zones, counters, statuses, cards and actions) or made up."""
    game = load_game("duel", HERE / "fixtures" / "engine")
    rules = game.rules
    words = sorted({*rules.zones, *rules.counters, "exhausted", "ready", "Life", "Mana",
                    "hand", "board", "deck", "graveyard"})
    names = sorted({*game.cards, "cast Scholar", "attack Knight", "pass",
                    "Scholar moves from Player 1's hand to Player 1's board"})
    parser = lark.Lark(read_grammar("ruling.lark"), parser="lalr", lexer="contextual")
    explicit = {
        "WORD": st.one_of(st.sampled_from(words), st.from_regex(r"[A-Za-z][a-z]{0,8}",
                                                                fullmatch=True)).map(
            lambda w: " " + w),
        "NAME": st.one_of(st.sampled_from(names), _TEXT).map(lambda n: f' "{n}"'),
        "TEXT": st.one_of(st.sampled_from(names), _TEXT).map(lambda n: f' "{n}"'),
        "NUMBER": st.integers(0, 60).map(lambda n: f" {n}"),
        "INTEGER": st.integers(-5, 60).map(lambda n: f" {n}"),
    }
    for term in parser.terminals:
        if term.name.startswith("__IGNORE"):
            explicit[term.name] = st.just(" ")
        elif term.name not in explicit:
            explicit[term.name] = st.just(" " + term.pattern.value)
    return from_lark(parser, explicit=explicit).map(str.strip)


def test_expect_lines_from_the_ruling_grammar():
    @SETTINGS
    @given(expect_lines())
    def check(line):
        _run(_DUEL_RULING.replace("{expect}", line))

    check()


def test_a_match_line_in_a_ruling_that_plays_no_match_is_reported_not_raised():
    # found by the expect-line property with 400 examples: run_ruling read the
    # result of a match that was never played (AttributeError)
    text = _DUEL_RULING.replace("{expect}", "the match is a draw")
    _run(text)
    _, problems = load_rulings(SourceText(str(_RULING_PATH), text))
    assert [p.code for p in problems] == ["E725"]
