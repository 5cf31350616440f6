"""Check means it runs: card texts generated from each game's grammar are put
on a card of the game and compiled with the whole game, as `cardrules check`
does. Every text either compiles, or is refused with problems that point at
its line; compiling never fails in any other way.

Examples per game: ``CARDRULES_FUZZ_EXAMPLES`` (default 100, 30 for the
games in ``FEWER_EXAMPLES``), as in ``tests/test_properties.py``, whose
generators this file reuses.
"""

from __future__ import annotations

import os
import re

import attrs
import pytest
from hypothesis import assume, given, settings

from interpreter.engine import compile_game
from interpreter.errors import CardrulesError
from interpreter.language.cards import load_cards
from interpreter.language.games import load_game, shipped_games
from interpreter.source import SourceText
from test_properties import EXAMPLES, fuzz_settings, spaced_texts

FUZZ_PATH = "fuzz.cards"
# Every example compiles the whole game, and Silver Wing Rivals compiles ten
# times slower than the other games (0.15 to 0.5 s: its rules file's
# actions are compiled again with every card), 30 s of CPU for
# 100 examples. Its examples end in two ways only, compiled or refused with
# E801 at the text's line, and 30 examples give both (22 and 8 in a
# measured run; 66 and 34 of 100): the property is kept, the rest is
# repetition. CARDRULES_FUZZ_EXAMPLES still sets every game's number.
FEWER_EXAMPLES = {"silver-wing-rivals": 30}


def _examples(game_id: str) -> int:
    if os.environ.get("CARDRULES_FUZZ_EXAMPLES"):
        return EXAMPLES
    return FEWER_EXAMPLES.get(game_id, EXAMPLES)


def _templates(game) -> list[str]:
    """One card of each kind, as its file writes it without its text boxes:
    the generated text becomes that card's only ability."""
    seen: dict[str, str] = {}
    for card in game.cards.values():
        if card.kind in seen or card.span is None:
            continue
        lines = open(card.span.path, encoding="utf-8").read().split("\n")
        start = card.span.line - 1
        end = start + 1
        while end < len(lines) and (lines[end].startswith(" ") or not lines[end].strip()):
            end += 1
        block, keep, boxed = lines[start:end], [], False
        for line in block[1:]:
            if re.match(r"^  \S[^:]*:\s*$", line):     # a text box heading ("text:")
                boxed = True
                continue
            if boxed and line.startswith("    "):
                continue
            boxed = False
            if line.strip():
                keep.append(line)
        seen[card.kind] = "\n".join([f'card "Fuzz Card"', *keep]) + "\n  text:\n"
    return list(seen.values())


@pytest.mark.parametrize("game_id", shipped_games())
def test_generated_texts_on_a_card_compile_or_are_refused_at_their_line(game_id):
    game = load_game(game_id)
    templates = _templates(game)

    @settings(fuzz_settings(shrink=False), max_examples=_examples(game_id))
    @given(spaced_texts(game_id))
    def check(text):
        for template in templates:
            source = SourceText(FUZZ_PATH, template + f"    {text}\n")
            loaded = load_cards(source, game.rules)
            if not loaded.problems and loaded.cards:
                break
        else:
            assume(False)          # no kind of this game may carry this text
        line = source.text.count("\n")
        card = loaded.cards[0]
        with_card = attrs.evolve(game, cards={**game.cards, card.name: card})
        try:
            compile_game(with_card)
        except CardrulesError as err:
            for problem in err.problems:
                assert problem.span is not None, f"{text!r}: {problem.render()}"
                assert (problem.span.path, problem.span.line) == (FUZZ_PATH, line), (
                    f"{text!r}: a problem away from the text's line\n{problem.render()}")

    check()
