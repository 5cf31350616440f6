"""Deck parts that start the game somewhere other than the draw pile
(`starts in: ZONE [face up]`), and parts that stay outside the game."""

from __future__ import annotations

import shutil
from pathlib import Path

from interpreter.engine import Match, compile_game
from interpreter.language.games import load_game

DUEL = Path(__file__).resolve().parent / "fixtures" / "engine"


def make_game(tmp_path: Path, extra_rules: str, deck_text: str):
    """The duel fixture game with extra declarations and one deck."""
    root = tmp_path / "game"
    (root / "rules").mkdir(parents=True)
    rules = (DUEL / "rules" / "duel.rules").read_text() + extra_rules
    (root / "rules" / "duel.rules").write_text(rules)
    shutil.copytree(DUEL / "cards" / "duel", root / "cards" / "duel",
                    ignore=shutil.ignore_patterns("decks"))
    (root / "cards" / "duel" / "decks").mkdir()
    (root / "cards" / "duel" / "decks" / "mixed.deck").write_text(deck_text)
    return load_game("duel", root)


PARTS = """
zone reserve: per player, public
deck part Reserve
  size: 1 to 2
  starts in: reserve, face up
deck part Spare
  size: at most 5
  optional: yes
"""

DECK = """deck "Mixed"
  "Deck":
    4 "Squire"
    4 "Knight"
    4 "Scholar"
  Reserve:
    1 "Giant"
  Spare:
    2 "Archer"
"""


def test_a_part_starts_in_its_zone_face_up_and_a_part_without_a_place_stays_out(tmp_path):
    game = make_game(tmp_path, PARTS, DECK)
    assert game.problems == []
    match = Match.start(compile_game(game), [game.decks[0], game.decks[0]], seed=3)
    state = match.state
    for player in (0, 1):
        reserve = state.zone("reserve", player)
        assert [state.cards[c].name for c in reserve] == ["Giant"]
        assert state.cards[reserve[0]].face_up
    names = [c.name for c in state.cards]
    assert "Archer" not in names          # the Spare part stays outside the game
    assert names.count("Squire") == 8      # the first part is the draw pile


def test_an_unknown_starting_zone_is_reported_at_its_place(tmp_path):
    game = make_game(tmp_path, PARTS.replace("starts in: reserve", "starts in: reserv"), DECK)
    [problem] = [p for p in game.problems if p.code == "E523"]
    assert 'unknown zone "reserv" for deck part "Reserve"' in problem.message
    assert problem.span.line == len((DUEL / "rules" / "duel.rules").read_text()
                                    .splitlines()) + 5
    assert "reserve" in (problem.suggestion or "")


COUNTED = """
deck part Sideboard
  size: at most 10
  counted with: Deck
  optional: yes
"""


def test_a_part_counted_with_another_shares_its_copy_limits(tmp_path):
    # "Deck" allows at most 4 per name: 4 in the Deck and 1 in the Sideboard break it
    deck = DECK.replace('  Reserve:\n    1 "Giant"\n  Spare:\n    2 "Archer"\n',
                        '  Sideboard:\n    1 "Knight"\n    4 "Archer"\n')
    game = make_game(tmp_path, COUNTED, deck)
    [problem] = [p for p in game.problems if p.code == "E614"]
    assert problem.message == ('too many copies in "Deck" and "Sideboard" together: 5 cards '
                               'share the name "Knight"; at most 4 allowed')
    assert problem.source_line.strip() == '1 "Knight"'
    # the Sideboard's own 4 "Archer" beside none in the Deck are within the limit
    assert [p.code for p in game.problems] == ["E614"]


def test_a_part_counted_with_an_unknown_part(tmp_path):
    game = make_game(tmp_path, COUNTED.replace("counted with: Deck", "counted with: Dek"),
                     DECK.replace('  Reserve:\n    1 "Giant"\n  Spare:\n    2 "Archer"\n', ''))
    [problem] = [p for p in game.problems if p.code == "E540"]
    assert problem.message == 'deck part "Sideboard" is counted with an unknown part "Dek"'
    assert problem.suggestion == 'did you mean "Deck"?'
