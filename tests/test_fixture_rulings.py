"""The rulings of the fixture games written on the second edition's core.

Minions (tests/fixtures/minions: Heroes, Mana Crystals, minions, spells) and
Lore (tests/fixtures/lore: ink, quests, challenges, a race to 20 lore) and
Fronts (tests/fixtures/fronts: a row of Fronts, Banners, Might kept per
Front, costs paid in two Manas with a wildcard) and Hexwood
(tests/fixtures/hexwood: Focus kept from turn to turn, hexes and familiars'
calls used whenever a witch has priority, in either turn, a stack on which
the turn witch responds first) are games of their own whose rules and rulings were written from their
rulebooks (RULES.md beside each) and the language reference, not from a
shipped game. Every one of their rulings must pass: their `expect:` lines
are what the rulebook says. (Fixture folders are not collected as
ruling files, so that deliberately broken fixtures stay out of the run;
this module runs the ones that must hold.)
"""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.rulings import load_ruling_file, run_ruling

FIXTURES = Path(__file__).resolve().parent / "fixtures"
GAMES = ("minions", "lore", "fronts", "hexwood")


def _rulings():
    for game in GAMES:
        for path in sorted((FIXTURES / game / "rulings").glob("*.ruling")):
            source, rulings, problems = load_ruling_file(path)
            assert problems == [], [p.render() for p in problems]
            for ruling in rulings:
                yield pytest.param(source, ruling, id=f"{game}/{path.stem}/{ruling.name}")


@pytest.mark.parametrize(("source", "ruling"), list(_rulings()))
def test_fixture_ruling_passes(source, ruling):
    result = run_ruling(ruling, source)
    assert result.passed, "\n".join(["\n".join(result.trace)] +
                                    [p.render() for p in result.failures])


def test_every_fixture_ruling_file_is_run():
    # the rulebooks' sections each have rulings: none is dropped silently
    files = {game: sorted(p.stem for p in (FIXTURES / game / "rulings").glob("*.ruling"))
             for game in GAMES}
    assert files == {
        "minions": ["combat", "damage", "drawing", "mana", "minions", "spells", "winning"],
        "lore": ["card-text", "challenge", "ink", "playing", "quest", "turn"],
        "fronts": ["battle", "costs", "might", "troops"],
        "hexwood": ["guards", "priority", "stack", "turn"]}
    assert len(list(_rulings())) == 54 + 48 + 22 + 23
