"""The legal actions are computed the fast way (issue 20: only the cards
whose name has an activated or response ability are looked at; the "can't"
modifiers read from the derived layer) and give exactly what the plain
scan gives: every card in play, in the zones abilities are used from and
used from where they are, every modifier. Along random games of the games
that use each part (abilities used from a zone, from the hand, responses,
priority uses, prohibitions on players), every question's options and
labels are compared with that scan, written out here as the reference."""

from __future__ import annotations

import pytest

from interpreter.agents import RandomAgent
from interpreter.engine import Match, compile_game
from interpreter.engine.combat import CombatWindows
from interpreter.engine.state import Frame
from interpreter.engine.windows import Windows
from interpreter.language.games import load_game


def reference_ability_options(m, player: int, any_time_only: bool, off_turn: bool,
                              phase, step):
    """The activated abilities ``player`` may use now, every card looked at."""
    state = m.state
    options, labels = [], []
    probe = Frame("probe", 0, {"you": player})
    places = [(c, None) for c in m.in_play()]
    for zone in m.game.activated_zones:
        places.extend((c, zone) for c in state.zones.get((zone, player), ()))
    if m.game.used_from_zones:
        places.extend((c, None) for c in m.used_from_cards(player))
    for card, zone in places:
        if state.cards[card].controller != player or m.has_status(card, "nullified"):
            continue
        if not state.cards[card].face_up and m.game.used_from_zones:
            kind = m.rules.kind(m.definition(card).kind)
            if kind is not None and kind.used_up and \
                    state.cards[card].zone[0] not in kind.used_from and not (
                        "hand" in kind.used_from and state.cards[card].zone[0] == m.game.hand):
                continue
        for number, ability in enumerate(m.game.activated.get(m.printed_name(card), ())):
            if ability.zone != zone or (off_turn and not ability.off_turn):
                continue
            if any_time_only and not m.game.any_time_ability(ability):
                continue
            if ability.once_per and m.usage_key(ability, player, card) in state.limits:
                continue
            timing = m.rules.timing(ability.label) if ability.label else None
            if timing is not None and timing.during and timing.during.lower() not in (
                    (phase or "").lower(), (step or "").lower()):
                continue
            probe.locals["this"] = card
            probe.locals["it"] = card
            if ability.can_pay(m, probe):
                options.append(("ability", card, number))
                labels.append(f"use {ability.label} of {m.card_label(card)}"
                              if ability.label else f"use {m.card_label(card)}")
    return options, labels


def reference_response_options(m, player: int, labels, subject, top, with_priority):
    """The response abilities ``player`` may use, every card looked at."""
    state = m.state
    options, names = [], []
    cards = list(m.hand_of(player)) + [c for c in m.used_from_cards(player)
                                       if c not in m.hand_of(player)]
    cards += [c for c in m.in_play() if state.cards[c].controller == player
              and c not in cards]
    probe = Frame("probe", 0, {"you": player, "it": subject, "responding_to": top})
    for card in cards:
        abilities = m.game.cued.get(m.printed_name(card))
        if not abilities:
            continue
        probe.locals["this"] = card
        for number, ability in enumerate(abilities):
            if with_priority:
                if not ability.with_priority or ability.answers_entry:
                    continue
            elif labels is None:
                if not ability.response:
                    continue
            elif ability.label not in labels:
                continue
            if ability.can_pay(m, probe):
                options.append(("use", card, number))
                names.append(f"{'use' if with_priority else 'respond with'} "
                             f"{ability.label} of {m.card_label(card)}")
    return options, names


@pytest.mark.parametrize("game_id", ["arcane-duel", "silver-wing-rivals", "ryft",
                                     "saturday-wars"])
def test_legal_actions_are_what_the_plain_scan_gives(game_id, monkeypatch):
    loaded = load_game(game_id)
    compiled = compile_game(loaded)
    compared = {"abilities": 0, "offered": 0, "responses": 0}
    fast_actions, fast_responses = Windows.legal_actions_for, CombatWindows.response_options

    def legal_actions_for(m, frame, player, any_time_only=False, off_turn=False):
        options, labels = fast_actions(m, frame, player, any_time_only, off_turn)
        abilities = [(o, l) for o, l in zip(options, labels) if o[0] == "ability"]
        expected = reference_ability_options(
            m, player, any_time_only, off_turn,
            m.state.period.get("phase"), m.state.period.get("step"))
        if not any_time_only or m.game.any_time_abilities:
            assert abilities == list(zip(*expected)), (game_id, player)
        # the "can't" modifiers the derived layer keeps are the list's, in order
        assert m._derived()[4] == [x for x in m.state.modifiers if x.kind == "cannot"]
        compared["abilities"] += 1
        compared["offered"] += len(abilities)
        return options, labels

    def response_options(m, player, labels, subject, top, with_priority=False):
        found = fast_responses(m, player, labels, subject, top, with_priority)
        assert found == reference_response_options(m, player, labels, subject, top,
                                                   with_priority), (game_id, player)
        compared["responses"] += len(found[0])
        return found

    monkeypatch.setattr(Windows, "legal_actions_for", legal_actions_for)
    monkeypatch.setattr(CombatWindows, "response_options", response_options)
    for seed in range(4):
        decks = [loaded.decks[(seed + i) % len(loaded.decks)] for i in range(2)]
        match = Match.start(compiled, decks, seed)
        agents = [RandomAgent(seed * 10 + p) for p in range(2)]
        while not match.is_terminal():
            match.apply_action(agents[match.current_player()].act(match))
    assert compared["abilities"] > 20
    if compiled.cued:
        assert compared["responses"] > 0, "no response was offered: nothing compared"
    else:
        assert compared["offered"] > 0, "no ability was offered: nothing compared"
