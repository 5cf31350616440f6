"""Fuzzing whole files of every kind: rules, card, deck and ruling files,
mutated from the shipped ones (and the fixtures' rulings). Whatever comes
out, the loaders report problems (never raise anything else), and every
problem points inside its input.

Budget per kind and game: ``CARDRULES_FUZZ_EXAMPLES`` (default 60 here; the
full fuzz run uses 10000, see tests/test_properties.py).
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errors_support import assert_inside_text as assert_inside
from interpreter.language.cards import load_cards
from interpreter.language.decks import load_decks
from interpreter.language.games import load_game, shipped_games
from interpreter.language.rules_file import load_rules
from interpreter.rulings import load_rulings
from interpreter.source import SourceText

EXAMPLES = int(os.environ.get("CARDRULES_FUZZ_EXAMPLES", "60"))
HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

SETTINGS = settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
                    suppress_health_check=list(HealthCheck))
# a mutated rules file often declares new words: its game's grammar is built
# anew (about 1 s): a quarter as many in CI, with six games and the suite's
# time budget (the env var sets more; the long runs are in docs/reliability.md)
RULES_SETTINGS = settings(SETTINGS, max_examples=int(os.environ.get(
    "CARDRULES_FUZZ_EXAMPLES", "15")))

_PIECES = ['"', ":", "\n", "  ", "\t", "#", ",", "->", "{n}", "\u201c", "\ufeff", "\x00",
           "card", "deck", "kind", "zone", "stat", "player 1", "expect", "  text:\n    "]


@st.composite
def mutated(draw, text: str):
    for _ in range(draw(st.integers(1, 6))):
        n = len(text)
        i = draw(st.integers(0, n))
        op = draw(st.sampled_from(["delete", "insert", "duplicate_line", "drop_line",
                                   "truncate", "swap_lines", "indent", "char"]))
        lines = text.split("\n")
        j = draw(st.integers(0, max(0, len(lines) - 1)))
        if op == "delete" and n:
            k = draw(st.integers(i, min(n, i + 20)))
            text = text[:i] + text[k:]
        elif op == "insert":
            text = text[:i] + draw(st.sampled_from(_PIECES)) + text[i:]
        elif op == "char":
            text = text[:i] + draw(st.characters(codec="utf-8")) + text[i:]
        elif op == "duplicate_line":
            lines.insert(j, lines[j])
            text = "\n".join(lines)
        elif op == "drop_line" and len(lines) > 1:
            del lines[j]
            text = "\n".join(lines)
        elif op == "swap_lines" and len(lines) > 1:
            k = draw(st.integers(0, len(lines) - 1))
            lines[j], lines[k] = lines[k], lines[j]
            text = "\n".join(lines)
        elif op == "indent":
            lines[j] = " " * draw(st.integers(1, 5)) + lines[j]
            text = "\n".join(lines)
        elif op == "truncate":
            text = text[:i]
    return text


def each_input_once(check):
    """Runs ``check`` once per distinct input: the loaders are deterministic,
    so an input drawn again (a truncation at 0, the same dropped line) cannot
    fail where it passed. Only the inputs that passed are remembered, so that
    hypothesis can replay a failure; ``checked`` counts them (printed with
    ``-s``)."""
    passed: set[str] = set()

    @functools.wraps(check)
    def run(text):
        if text in passed:
            return
        check(text)
        passed.add(text)
    run.checked = passed
    return run


def report(what: str, test) -> None:
    """How many distinct inputs a hypothesis test of ``each_input_once`` checked."""
    print(f"\n{what}: {len(test.hypothesis.inner_test.checked)} distinct inputs checked")


def sample(game_id: str, pattern: str) -> str:
    files = sorted((ROOT / "cards" / game_id).glob(pattern))
    # a few hundred lines keep each example fast
    return "\n".join(files[0].read_text(encoding="utf-8").split("\n")[:300])


@pytest.mark.parametrize("game_id", shipped_games())
def test_mutated_rules_files(game_id):
    original = (ROOT / "rules" / f"{game_id}.rules").read_text(encoding="utf-8")

    @RULES_SETTINGS
    @given(mutated(original))
    @each_input_once
    def check(text):
        _rules, problems = load_rules(SourceText("fuzz.rules", text), game_id)
        assert_inside(problems, text)

    check()
    report(f"{game_id} rules files", check)


@pytest.mark.parametrize("game_id", shipped_games())
def test_mutated_card_files(game_id):
    rules = load_game(game_id).rules
    original = sample(game_id, "*.cards")

    @SETTINGS
    @given(mutated(original))
    @each_input_once
    def check(text):
        result = load_cards(SourceText("fuzz.cards", text), rules)
        assert_inside(result.problems, text)

    check()
    report(f"{game_id} card files", check)


@pytest.mark.parametrize("game_id", shipped_games())
def test_mutated_deck_files(game_id):
    game = load_game(game_id)
    original = sample(game_id, "decks/*.deck")

    @SETTINGS
    @given(mutated(original))
    @each_input_once
    def check(text):
        _decks, problems = load_decks(SourceText("fuzz.deck", text), game.rules, game.cards)
        assert_inside(problems, text)

    check()
    report(f"{game_id} deck files", check)


def test_mutated_ruling_files():
    original = (HERE / "rulings" / "duel" / "cast.ruling").read_text(encoding="utf-8")

    @SETTINGS
    @given(mutated(original))
    @each_input_once
    def check(text):
        _rulings, problems = load_rulings(SourceText("fuzz.ruling", text))
        assert_inside(problems, text)

    check()
    report("ruling files", check)
