"""Forms the card-text corpus (tests/fixtures/corpus) found missing, each run
with the meaning a player reads, on its own in a copy of the Duel fixture."""

from __future__ import annotations

from test_printed_forms import compiled, creature, position, spell, take

LETHAL = (("stat power: number", "stat power: number, a card with damage at least its power "
                                 "is destroyed"),)


def test_prevent_all_damage_that_would_be_dealt_to_a_card_for_a_duration(tmp_path):
    game = compiled(tmp_path, spell(
        "Aegis", "When this is played: Prevent all damage that would be dealt to a Creature "
                 "you control until the end of this turn.")
        + spell("Bolt", "When this is played: Deal 4 damage to a Creature."), changes=LETHAL)
    match = position(game, hand_1=["Aegis", "Bolt"], board_1=["Giant"])
    take(match, "cast Aegis")
    take(match, "cast Bolt")
    giant = next(c.id for c in match.state.cards if c.name == "Giant")
    assert match.state.cards[giant].counter("damage") == 0
    assert match.state.cards[giant].zone == ("board", 0)
    # without it, 4 damage destroys the Giant (power 4)
    match = position(game, hand_1=["Bolt"], board_1=["Giant"])
    take(match, "cast Bolt")
    assert match.state.cards[giant].zone == ("graveyard", 0)


def test_each_card_attached_to_it(tmp_path):
    game = compiled(tmp_path, spell(
        "Strip", "When this is played: Choose a Creature. Put each card attached to it into "
                 "its owner's hand.")
        + spell("Clip", "When this is played: Attach this to a Creature you control."))
    match = position(game, hand_1=["Clip", "Strip"], board_1=["Knight"], board_2=["Giant"])
    take(match, "cast Clip")
    knight = next(c.id for c in match.state.cards if c.name == "Knight")
    clip = next(c.id for c in match.state.cards if c.name == "Clip")
    assert match.state.cards[clip].attached_to == knight
    take(match, "cast Strip")
    take(match, "Knight")
    assert match.state.cards[clip].zone == ("hand", 0)
    assert match.state.cards[knight].zone == ("board", 0)          # only what is attached
