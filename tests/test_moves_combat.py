"""Moves, combat and response windows (interpreter/engine/combat.py) on a fixture
game written in the language (tests/fixtures/skirmish): alternating moves
with the two-passes rule, a turn that is also a Round and begins with the
same player, defending with matching cards (single, double, a keyword that
defends alone, a keyword that needs two), damage to a player by the rules'
procedure and the loss when a zone is empty, a response window whose
response becomes a chain link, and triggered effects one at a time."""

from __future__ import annotations

from pathlib import Path

from interpreter.engine import Match, compile_game
from interpreter.language.games import load_game

ROOT = Path(__file__).resolve().parent / "fixtures" / "skirmish"


def compiled():
    game = load_game("skirmish", ROOT)
    assert game.problems == []
    return compile_game(game)


def position(p1_hand=(), p2_hand=(), p1_lives=2, p2_lives=2, p1_deck=(), p2_deck=(),
             p2_reserve=(), p1_graveyard=(), p2_arena=()):
    zones = {
        ("arena", 1): [(n, ()) for n in p2_arena],
        ("graveyard", 0): [(n, ()) for n in p1_graveyard],
        ("hand", 0): [(n, ()) for n in p1_hand],
        ("hand", 1): [(n, ()) for n in p2_hand],
        ("lives", 0): [("Life Token", ())] * p1_lives,
        ("lives", 1): [("Life Token", ())] * p2_lives,
        ("deck", 0): [(n, ()) for n in p1_deck],
        ("deck", 1): [(n, ()) for n in p2_deck],
        ("reserve", 1): [(n, ()) for n in p2_reserve],
    }
    return Match.from_position(compiled(), 2, 1, zones, {}, 1, 0, "Main")


def labels(match):
    return [match.action_to_string(a) for a in match.legal_actions()]


def choose(match, label):
    options = [lab.split(" #")[0] if " #" in lab and " and " not in lab else lab
               for lab in labels(match)]
    stripped = [_strip(lab) for lab in labels(match)]
    assert label in stripped, (label, options)
    match.apply_action(stripped.index(label))


def _strip(label: str) -> str:
    import re

    return re.sub(r"\s*#\d+", "", label)


def names(match, zone, player):
    return [match.state.cards[c].name for c in match.state.zones.get((zone, player), ())]


# ---------------------------------------------------------------- moves


def test_both_players_passing_their_moves_ends_the_window_and_the_round():
    match = position(p1_hand=["Red Brawler"], p2_hand=["Blue Brawler"])
    assert match.current_player() == 0
    choose(match, "pass")
    assert match.current_player() == 1
    choose(match, "pass")
    # next Round: the same player begins it, and the Round is counted
    assert match.state.turn == 2
    assert match.current_player() == 0
    assert match.state.period_counts["Round"] == 1


def test_a_player_who_passes_two_moves_in_a_row_makes_no_more_moves():
    match = position(p2_hand=["Blue Brawler", "Red Brawler"], p1_lives=2, p2_lives=2)
    choose(match, "pass")                  # player 1, move 1
    choose(match, "strike Blue Brawler")   # player 2 acts in their move
    choose(match, "Life Token")            # player 1 takes the damage
    choose(match, "pass")                  # player 2 ends the move
    choose(match, "pass")                  # player 1, 2 passes in a row: out
    assert match.current_player() == 1     # player 2 moves again
    assert match.state.turn_player == 1    # the mover is the turn player
    choose(match, "strike Red Brawler")    # player 1's last Life: they lose
    assert match.state.result[:2] == ("win", 1)


def test_the_other_player_moves_on_alone_until_they_pass():
    match = position(p2_hand=["Blue Brawler", "Red Brawler"], p1_lives=3, p2_lives=2)
    choose(match, "pass")
    choose(match, "strike Blue Brawler")
    choose(match, "Life Token")
    choose(match, "pass")
    choose(match, "pass")                  # player 1 is out of moves
    choose(match, "strike Red Brawler")
    choose(match, "Life Token")
    choose(match, "pass")
    assert match.current_player() == 1
    choose(match, "pass")                  # a move without an action: the window ends
    assert match.state.turn == 2
    assert match.state.turn_player == 0


def test_an_action_limited_once_per_move():
    match = position(p1_hand=["Red Brawler", "Blue Brawler"], p1_deck=["Blue Brawler"])
    choose(match, "strike Red Brawler")
    assert "strike Blue Brawler" not in [_strip(x) for x in labels(match)]


# ---------------------------------------------------------------- defending and damage


def test_single_defence_needs_a_shared_value_double_both_or_neither():
    match = position(p1_hand=["Red Brawler"],
                     p2_hand=["Blue Brawler", "Red Brawler", "Blue Sentry"])
    choose(match, "strike Red Brawler")
    options = [_strip(x) for x in labels(match)]
    assert "Take the damage" in options
    assert "Defend with Red Brawler" in options
    assert "Defend with Blue Sentry" in options          # <GUARD>: alone, any color
    assert "Defend with Blue Brawler" not in options
    assert "Defend with Blue Brawler and Blue Sentry" in options   # neither matches
    assert "Defend with Blue Brawler and Red Brawler" not in options


def test_a_heavy_attacker_needs_two_defenders():
    match = position(p1_hand=["Red Giant"], p2_hand=["Red Brawler", "Blue Sentry"])
    choose(match, "strike Red Giant")
    options = [_strip(x) for x in labels(match)]
    assert options == ["Take the damage"] or "Defend with Red Brawler" not in options
    assert "Defend with Blue Sentry" not in options


def test_a_defended_attack_prevents_damage_and_triggers_the_defender():
    match = position(p1_hand=["Red Brawler"], p2_hand=["Blue Sentry"],
                     p2_deck=["Blue Brawler"])
    choose(match, "strike Red Brawler")
    choose(match, "Defend with Blue Sentry")
    assert len(names(match, "lives", 1)) == 2
    assert "Blue Brawler" in names(match, "hand", 1)      # "When this prevents damage"
    assert "Blue Sentry" in names(match, "graveyard", 1)
    assert "Red Brawler" in names(match, "graveyard", 0)


def test_undefended_damage_runs_the_player_damage_procedure_and_an_empty_zone_loses():
    match = position(p1_hand=["Red Brawler"], p2_lives=1, p1_deck=["Blue Brawler"])
    choose(match, "strike Red Brawler")
    assert names(match, "lives", 1) == []
    assert match.state.result[0] == "win" and match.state.result[1] == 0
    assert any(e[0] == "event" and e[1] == "deals damage" for e in match.state.log)


# ---------------------------------------------------------------- responses


def test_a_response_window_puts_the_attack_and_the_response_on_a_chain():
    match = position(p1_hand=["Red Brawler", "Riposte"], p2_hand=["Parry", "Blue Brawler"])
    choose(match, "strike Red Brawler")
    assert match.current_player() == 1
    choose(match, "respond with BLOCK RESPONSE of Parry")   # pays: discard a card
    assert match.current_player() == 1                      # which card to discard
    choose(match, "Blue Brawler")
    # player 1 answers the response with a COUNTER (a timing that answers links)
    assert match.current_player() == 0
    choose(match, "respond with COUNTER of Riposte")
    log = match.state.log
    entries = [e for e in log if e[0] == "entry"]
    assert [e[4] for e in entries[:3]] == [1, 2, 3]         # three chain links
    nullified = [e for e in log if e[0] == "fizzle"]
    assert nullified and nullified[0][3] == "nullified"      # Parry's link
    assert "nullified" not in match.state.cards[
        next(c.id for c in match.state.cards if c.name == "Red Brawler" and c.owner == 0)
    ].statuses
    choose(match, "Life Token")                             # the attack went on: damage
    assert len(names(match, "lives", 1)) == 1


def test_a_nullified_attack_deals_no_damage():
    match = position(p1_hand=["Red Brawler"], p2_hand=["Parry", "Blue Brawler"])
    choose(match, "strike Red Brawler")
    choose(match, "respond with BLOCK RESPONSE of Parry")
    choose(match, "Blue Brawler")
    assert len(names(match, "lives", 1)) == 2
    assert "Parry" in names(match, "graveyard", 1)          # once used: discarded
    assert "Red Brawler" in names(match, "graveyard", 0)


def test_a_response_card_can_be_used_from_a_zone_its_kind_is_used_from():
    match = position(p1_hand=["Red Brawler"], p2_hand=["Blue Brawler"],
                     p2_reserve=["Parry"])
    choose(match, "strike Red Brawler")
    assert "respond with BLOCK RESPONSE of Parry" in [_strip(x) for x in labels(match)]


def test_a_card_used_from_the_hand_is_revealed_and_discarded_before_its_effect():
    match = position(p1_hand=["Red Brawler"], p2_hand=["Parry", "Blue Brawler"])
    choose(match, "strike Red Brawler")
    choose(match, "respond with BLOCK RESPONSE of Parry")
    choose(match, "Blue Brawler")
    log = match.state.log
    parry = next(c.id for c in match.state.cards if c.name == "Parry")
    revealed = log.index(("reveal", parry, -1))
    discarded = next(i for i, e in enumerate(log) if e[0] == "move" and e[1] == parry)
    resolved = next(i for i, e in enumerate(log) if e[0] == "resolve" and e[2] == parry)
    assert revealed < discarded < resolved


def test_a_card_used_from_its_zone_is_turned_face_up_and_discarded_after_it_resolves():
    match = position(p1_hand=["Red Brawler"], p2_hand=["Blue Brawler"],
                     p2_reserve=["Parry"])
    choose(match, "strike Red Brawler")
    choose(match, "respond with BLOCK RESPONSE of Parry")     # discards the only card
    log = match.state.log
    parry = next(c.id for c in match.state.cards if c.name == "Parry")
    flipped = log.index(("flip", parry, True))
    entry = next(i for i, e in enumerate(log) if e[0] == "entry" and e[2] == parry)
    resolved = next(i for i, e in enumerate(log) if e[0] == "resolve" and e[2] == parry)
    discarded = next(i for i, e in enumerate(log) if e[0] == "move" and e[1] == parry)
    assert flipped < entry < resolved < discarded
    assert "Parry" in names(match, "graveyard", 1)


def test_a_card_used_from_its_zone_is_discarded_when_its_effect_is_nullified():
    match = position(p1_hand=["Red Brawler", "Riposte"], p2_hand=["Blue Brawler"],
                     p2_reserve=["Parry"])
    choose(match, "strike Red Brawler")
    choose(match, "respond with BLOCK RESPONSE of Parry")     # discards the only card
    choose(match, "respond with COUNTER of Riposte")
    log = match.state.log
    parry = next(c.id for c in match.state.cards if c.name == "Parry")
    fizzled = next(i for i, e in enumerate(log) if e[0] == "fizzle" and e[2] == parry)
    discarded = next(i for i, e in enumerate(log) if e[0] == "move" and e[1] == parry)
    assert fizzled < discarded
    assert "Parry" in names(match, "graveyard", 1)



# ---------------------------------------------------------------- defending again, before windows


def test_a_removed_defender_lets_the_defending_player_defend_again():
    match = position(p1_hand=["Hook Brawler"], p2_hand=["Red Brawler", "Red Giant"])
    choose(match, "strike Hook Brawler")
    choose(match, "Defend with Red Brawler")
    # "When defended: Return the defending Fighter to its owner's hand"
    assert "Red Brawler" in names(match, "hand", 1)
    assert sorted(labels_stripped(match)) == [
        "Defend with Red Brawler", "Defend with Red Brawler and Red Giant",
        "Defend with Red Giant", "Take the damage"]
    # no defender left: the defense is made anew (the rules' "Defend against")
    assert match.state.decision.prompt.startswith("defend against Hook Brawler")
    choose(match, "Defend with Red Giant")
    assert len(names(match, "lives", 1)) == 2                # the damage is prevented
    # defending again does not trigger "When defended" a second time
    assert "Red Giant" in names(match, "graveyard", 1)


def test_before_your_rival_defends_resolves_before_the_defense_is_chosen():
    match = position(p1_hand=["Taunting Brawler"], p1_deck=["Red Brawler"],
                     p2_hand=["Blue Brawler"])
    choose(match, "strike Taunting Brawler")
    log = match.state.log
    drawn = next(i for i, e in enumerate(log) if e[0] == "move" and e[2][0] == "deck")
    assert match.state.decision.kind == "mode" and len(log) > drawn
    assert "Red Brawler" in names(match, "hand", 0)


def test_before_your_rival_defends_only_for_the_attacking_card():
    match = position(p1_hand=["Red Brawler", "Taunting Brawler"], p1_deck=["Blue Brawler"],
                     p2_hand=["Red Giant"])
    choose(match, "strike Red Brawler")
    assert names(match, "deck", 0) == ["Blue Brawler"]       # Taunting Brawler is in hand


def test_a_triggered_ability_is_used_from_the_hand_or_a_zone_its_kind_is_used_from():
    match = position(p1_hand=["Second Wind", "Red Brawler"], p1_deck=["Blue Brawler"])
    # at the start of player 1's Move, Second Wind (in the hand) may be used
    assert match.state.decision.kind == "use"
    assert match.state.decision.prompt.startswith("use OPENING of Second Wind")
    choose(match, "yes")
    log = match.state.log
    wind = next(c.id for c in match.state.cards if c.name == "Second Wind")
    assert ("reveal", wind, -1) in log
    assert "Second Wind" in names(match, "graveyard", 0)
    assert "Blue Brawler" in names(match, "hand", 0)


def test_a_card_with_an_unless_value_is_not_used_from_the_hand():
    match = position(p1_hand=["War Banner", "Red Brawler"], p1_deck=["Blue Brawler"])
    assert match.state.decision.kind == "action"             # no "use War Banner?"
    assert "War Banner" in names(match, "hand", 0)


def labels_stripped(match):
    return [_strip(lab) for lab in labels(match)]


def test_an_ability_used_as_another_timing_once_the_rival_has_no_moves_left():
    match = position(p1_hand=["Red Brawler"], p2_hand=["Blue Brawler"], p1_lives=3,
                     p2_reserve=["Lookout"], p2_deck=["Red Giant"])
    choose(match, "no")                 # Lookout at the start of player 1's Move
    choose(match, "pass")               # player 1: 1 pass in a row
    assert "use TACTIC of Lookout" not in labels_stripped(match)   # player 1 moves on
    choose(match, "strike Blue Brawler")
    choose(match, "Life Token")         # player 1 takes the damage
    choose(match, "pass")               # player 2 ends a move with an action
    choose(match, "no")
    choose(match, "pass")               # player 1: 2 passes in a row, no moves left
    assert match.current_player() == 1
    assert "use TACTIC of Lookout" in labels_stripped(match)
    choose(match, "use TACTIC of Lookout")
    assert "Red Giant" in names(match, "hand", 1)
    assert "Lookout" in names(match, "graveyard", 1)


def test_a_stat_that_is_never_an_adjective_does_not_describe_the_card():
    match = position(p1_hand=["Dusky Brawler", "Red Brawler"])
    from interpreter.engine import Machine
    machine = Machine(match.game, match.state)
    dusky, red = (next(c.id for c in match.state.cards if c.name == n)
                  for n in ("Dusky Brawler", "Red Brawler"))
    assert machine.has_value(red, "red") and machine.has_value(dusky, "blue")
    assert not machine.has_value(dusky, "red")          # its shade


def test_simultaneous_effects_beneficial_first_then_those_naming_the_rival():
    match = position(p1_hand=["Jeer", "Red Brawler"], p2_hand=["Blue Brawler"],
                     p2_reserve=["Lookout"], p2_deck=["Red Giant"])
    # player 1's Jeer (negative: it names the Rival) and player 2's Lookout
    # (beneficial) trigger at once: Lookout first, though player 1 moves
    assert match.current_player() == 1
    assert match.state.decision.prompt.startswith("use RIVAL OPENING of Lookout")
    choose(match, "yes")
    assert "Red Giant" in names(match, "hand", 1)
    assert match.current_player() == 0
    choose(match, "yes")                                     # Jeer
    choose(match, "Red Giant")                               # player 2 discards
    assert sorted(names(match, "graveyard", 1)) == ["Lookout", "Red Giant"]


def test_a_triggered_ability_with_costs_is_decided_and_paid_before_its_entry_waits():
    # the Intent Step: a declined ability makes no entry (nobody responds to it)
    match = position(p1_hand=["Greedy Brawler", "Blue Brawler"], p1_deck=["Red Giant"],
                     p2_hand=["Red Brawler"])
    choose(match, "strike Greedy Brawler")
    choose(match, "Defend with Red Brawler")
    assert match.state.decision.prompt.startswith("use CLASH of Greedy Brawler")
    greedy = next(c.id for c in match.state.cards if c.name == "Greedy Brawler")
    assert not any(e[0] == "entry" and e[2] == greedy for e in match.state.log)
    choose(match, "no")
    assert not any(e[0] == "entry" and e[2] == greedy for e in match.state.log)
    assert names(match, "hand", 0) == ["Blue Brawler"]


def test_a_triggered_ability_paid_for_becomes_an_entry_after_its_cost():
    match = position(p1_hand=["Greedy Brawler", "Blue Brawler"], p1_deck=["Red Giant"],
                     p2_hand=["Red Brawler"])
    choose(match, "strike Greedy Brawler")
    choose(match, "Defend with Red Brawler")
    choose(match, "yes")                       # discards Blue Brawler, the only card
    log = match.state.log
    greedy = next(c.id for c in match.state.cards if c.name == "Greedy Brawler")
    blue = next(c.id for c in match.state.cards if c.name == "Blue Brawler")
    paid = next(i for i, e in enumerate(log) if e[0] == "move" and e[1] == blue)
    entry = next(i for i, e in enumerate(log) if e[0] == "entry" and e[2] == greedy)
    assert paid < entry
    assert "Red Giant" in names(match, "hand", 0)


def test_an_action_limited_to_n_times_per_period():
    match = position(p1_deck=["Red Brawler", "Blue Brawler", "Red Giant"],
                     p1_graveyard=["Red Brawler", "Red Brawler", "Red Brawler"])
    choose(match, "rally")
    choose(match, "rally")                  # twice per Round
    assert "rally" not in labels_stripped(match)
    assert len(names(match, "hand", 0)) == 2


def test_a_kind_that_never_leaves_play_stays_when_an_effect_would_move_it_out():
    match = position(p1_hand=["Scatter"], p2_arena=["Stone Totem"])
    choose(match, "use TACTIC of Scatter")
    assert names(match, "arena", 1) == ["Stone Totem"]
    totem = next(c.id for c in match.state.cards if c.name == "Stone Totem")
    assert ("prevented", "leave play", totem) in match.state.log
    assert not any(e[0] == "event" and e[2] == totem for e in match.state.log)   # not destroyed
