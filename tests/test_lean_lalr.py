"""The lean run of the card-text parser (interpreter.language.lean_lalr)
reads every text as lark itself does: the same AST for every shipped text
(the phrases it reads again as the parser wants them included), and for a
text lark reports or recovers from in any other way, lark reads it."""

from __future__ import annotations

import random
import re
from re import _parser as re_parser

import pytest
from lark.exceptions import UnexpectedInput

from interpreter.language.games import load_game, shipped_games
from interpreter.language.lean_lalr import NotPlain, _starts_of


def _by_lark(parser, text: str):
    parser._whole_words.text = text
    parser.transformer.at("t.cards", 3, 5)
    return parser.lark.parse(text, start="start", on_error=parser._split_phrase)


def _by_lean(parser, text: str):
    parser.transformer.at("t.cards", 3, 5)
    return parser.lean.parse(text)


def _mutations(texts: list[str], rng: random.Random) -> list[str]:
    """Texts a designer might mistype: a word dropped, repeated, cut short,
    run on into a longer word, or a character beyond ASCII."""
    out = []
    for text in texts:
        words = text.split(" ")
        for _ in range(1):
            changed = list(words)
            at = rng.randrange(len(changed))
            how = rng.randrange(4)
            if how == 0:
                del changed[at]
            elif how == 1:
                changed.insert(at, rng.choice(words))
            elif how == 2:
                changed[at] = changed[at][:-1]
            else:
                changed[at] += rng.choice(["s", "x", "\u00e9", "K"])
            out.append(" ".join(changed))
    return out


@pytest.mark.parametrize("game_id", shipped_games())
def test_the_lean_run_reads_every_text_as_lark_does(game_id):
    game = load_game(game_id)
    parser = game.rules.parser()
    texts = [a.text for card in game.cards.values() for a in card.abilities]
    for text in texts:
        # every shipped text is read by the lean run itself, to the same AST
        assert _by_lean(parser, text) == _by_lark(parser, text), text
    for text in _mutations(texts[::2], random.Random(game_id)):
        try:
            expected = _by_lark(parser, text)
        except UnexpectedInput:
            # lark reports it: the lean run stops and leaves it to lark
            with pytest.raises(NotPlain):
                _by_lean(parser, text)
            continue
        try:
            assert _by_lean(parser, text) == expected, text
        except NotPlain:
            pass     # lark recovered some other way; the parser asks lark


def test_a_phrase_read_whole_is_read_again_as_the_parser_wants_it():
    # "damage to" is one phrase of the language; after "Deal 3" the parser
    # wants "damage" alone (LALR merged the two places): lark recovers with
    # EffectParser._split_phrase, the lean run the same way, to the same AST
    parser = load_game("ryft").rules.parser()
    text = "Deal 30 damage to your Rival."
    assert parser.lean.literals.get("damage to")
    lean = _by_lean(parser, text)
    assert lean == _by_lark(parser, text)
    assert lean.form == "effect"


@pytest.mark.parametrize("regexp, starts", [
    (r"\d+", set("0123456789")),
    (r"[+\-\u2212]\d+", {"+", "-"}),
    ("(?:\"[^\"\n]+\"|\u201c[^\u201d\n]+\u201d)", {'"'}),
    (r"[ \t\f\r\n]+", {" ", "\t", "\f", "\r", "\n"}),
    (r"(?i:the (?:first|second) player(?![\w'-]))", {"t", "T"}),
    (r"(?:\{n\}|\{x\})", {"{"}),
    (r"x?y", None),                 # may start with either: tried everywhere
    (r"[^x]", None),
    (r"(?i:\u212a)", None),         # the Kelvin sign folds into ASCII "k"
])
def test_the_characters_a_terminal_can_start_with(regexp, starts):
    parsed = re_parser.parse(regexp, 0)
    assert _starts_of(parsed, parsed.state.flags) == starts
    if starts is not None:
        pattern = re.compile(regexp)
        for code in range(128):
            if chr(code) not in starts:
                assert not pattern.match(chr(code) + "x" * 40), chr(code)
