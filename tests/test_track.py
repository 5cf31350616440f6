"""Generic mechanisms of race games, on the Track fixture
(tests/fixtures/track): places in an ordered shared zone with a position
counter per player ("position in ZONE"), cards placed face down at a place
("Place it face down in ZONE at ..."), a phase whose steps run once per
place ("for each KIND in ZONE:"), using cards ("uses", "when used",
requirements), exchanges paid from counters with a wildcard, triggered
abilities held until a step ends, and a race won past the end of the zone,
written as rules text on a line after the phase's steps (a tie sends both
runners back)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter.agents import (GreedyAgent, HintedAgent, RandomAgent, option_kind, play_out,
                                preferred_actions)
from interpreter.agents.search import TURN_RANKS
from interpreter.agents.simple import greedy_choices
from interpreter.engine import Match, compile_game
from interpreter.language.games import load_game

ROOT = Path(__file__).parent / "fixtures" / "track"


@pytest.fixture(scope="module")
def game():
    loaded = load_game("track", ROOT)
    return loaded, compile_game(loaded)


def _start(game, seed=1):
    loaded, compiled = game
    decks = sorted(loaded.decks, key=lambda d: d.name)
    return Match.start(compiled, decks, seed)


def _play(match, choices):
    """Answer decisions by label (card ids left out)."""
    for wanted in choices:
        labels = [re.sub(r"\s*#\d+", "", match.action_to_string(a))
                  for a in match.legal_actions()]
        assert wanted in labels, (wanted, labels)
        match.apply_action(match.legal_actions()[labels.index(wanted)])


def _names(match, zone, player=-1):
    return [match.state.cards[c].name for c in match.state.zones.get((zone, player), ())]


def test_deck_parts_start_in_their_zones_and_the_row_is_built(game):
    match = _start(game)
    state = match.state
    assert len(state.zones[("Room Row", -1)]) == 3
    assert len(state.zones.get(("Room Deck", -1), ())) == 1
    assert _names(match, "lane", 0) == ["Cheer"]
    assert _names(match, "lane", 1) == ["After Cheer"]
    assert all(state.counter(p, "Place") == 0 for p in range(2))


def test_placing_offers_only_places_at_or_ahead_of_the_position(game):
    match = _start(game)
    labels = [match.action_to_string(a) for a in match.legal_actions()]
    assert any(label.startswith("place a card here") for label in labels)
    ahead = next(a for a in match.legal_actions()
                 if match.action_to_string(a).startswith("place a card ahead"))
    match.apply_action(ahead)
    decision = match.state.decision
    row = match.state.zones[("Room Row", -1)]
    assert set(decision.options) == set(row[1:])       # not the Room at Place 0


def test_a_placed_card_is_face_down_and_attached_to_its_place(game):
    match = _start(game)
    here = next(a for a in match.legal_actions()
                if match.action_to_string(a).startswith("place a card here"))
    match.apply_action(here)
    player = match.state.turn_player
    placed = match.state.zones[("track", player)]
    assert len(placed) == 1
    card = match.state.cards[placed[0]]
    assert not card.face_up
    assert card.attached_to == match.state.zones[("Room Row", -1)][0]


def test_random_games_end_by_the_race(game):
    """Random players, taking the choices the game's agent settings
    (rules/track.hints) prefer when offered: the agent "hinted"."""
    loaded, compiled = game
    results = []
    for seed in range(40):
        match = _start(game, seed)
        play_out(match, [HintedAgent(seed * 10 + p) for p in range(2)])
        results.append(match.state.result)
    assert all(r is not None for r in results)
    wins = [r for r in results if r[0] == "win"]
    assert len(wins) >= 20 and all(r[2] == "Settle the race" for r in wins)
    for r in results:
        if r[0] == "draw":
            assert r[1].startswith("no winner after"), r


def test_requirements_exchanges_and_held_triggers_in_a_scripted_turn(game):
    loaded, compiled = game
    decks = sorted(loaded.decks, key=lambda d: d.name)
    match = Match.from_position(
        compiled, 2, 1,
        {("hand", 0): [("Hopper", ()), ("Eager Shoe", ())],
         ("deck", 0): [("Skipper", ()), ("Skipper", ())],
         ("lane", 0): [("Cheer", ())],
         ("hand", 1): [],
         ("deck", 1): [("Hopper", ()), ("Hopper", ())],
         ("lane", 1): [("After Cheer", ())],
         ("Room Row", 0): [("Easy Room", ()), ("Hop Room", ())]},
        {}, 2, 0, "Set")
    # the Hop Room is the first place (listed last: the bottom of the row)
    _play(match, ["place a card here Hopper", "place a card ahead Eager Shoe"])
    state = match.state
    log = match.narration()
    text = "\n".join(log)
    # Eager Shoe at the Room ahead: its requirement fails, it gives nothing
    assert "Eager Shoe does not meet its requirements: it has no effect." in text
    # Hopper alone cannot pay Hop Hop: the Hop Room is not cleared
    assert state.counter(0, "Place") == 0
    assert decks  # the decks load


def test_a_wildcard_pays_and_the_reward_waits_for_the_end_of_the_step(game):
    loaded, compiled = game
    match = Match.from_position(
        compiled, 2, 1,
        {("hand", 0): [("Skipper", ())],
         ("deck", 0): [("Hopper", ()), ("Hopper", ())],
         ("lane", 0): [("Cheer", ())],
         ("deck", 1): [("Skipper", ()), ("Skipper", ())],
         ("lane", 1): [("After Cheer", ())],
         ("Room Row", 0): [("Hop Room", ()), ("Easy Room", ())]},
        {}, 2, 0, "Set")
    _play(match, ["place a card here Skipper", "clear the room"])
    text = "\n".join(match.narration())
    assert match.state.counter(0, "Place") == 1
    # Either paid with a Skip; Cheer ("When you go") gains its Hop after the
    # Room's Moves are emptied, and After Cheer (the Rival's) draws after it.
    # The Hop is kept per place: a Runner's is for the Room at its Place, the
    # next Room, where it waits until the Run reaches that Room.
    assert text.index("Player 1: Skip 1 -> 0") < text.index("Player 1: Place 0 -> 1")
    assert text.index("Player 1: Place 0 -> 1") < text.index(
        "Player 1: 1 Hop waits at Hop Room.")
    assert text.index("Player 1: 1 Hop waits at Hop Room.") < text.index(
        "Skipper moves from Player 2's deck to Player 2's hand")
    assert text.index("Skipper moves from Player 2's deck to Player 2's hand") < text.index(
        "Player 1: Hop 0 -> 1")


def test_a_counter_kept_per_place_waits_for_its_place(game):
    """ "per place in ZONE": what a card at no place (a Runner) gains is for
    the place at its player's position; it waits there, joining the counter
    only when the loop over the places reaches that place, so the places in
    between empty their counters without it; clones and JSON copies keep it
    waiting."""
    from interpreter.engine.state import Frame, GameState

    loaded, compiled = game
    match = Match.from_position(
        compiled, 2, 1,
        {("hand", 0): [("Hopper", ()), ("Hopper", ()), ("Skipper", ())],
         ("deck", 0): [("Skipper", ())] * 4,
         ("lane", 0): [("Cheer", ())],
         ("deck", 1): [("Skipper", ())] * 4,
         ("lane", 1): [("After Cheer", ())],
         ("Room Row", 0): [("Easy Room", ()), ("Mixed Room", ()), ("Hop Room", ())]},
        {}, 2, 0, "Set")
    # the Hop Room (Hop Hop -> Go 2) is the first place: cleared there, the
    # Runner is two Rooms ahead, at the Easy Room, and Cheer's Hop is for it
    _play(match, ["place a card here Hopper", "place a card here Hopper",
                  "place a card ahead Skipper", "Mixed Room", "Hopper", "clear the room"])
    # at the Mixed Room (Hop Skip) only the Skipper's Skip is there: no
    # clearing it, and its Skip is emptied; at the Easy Room the Hop joins
    state = match.state
    assert state.counter(0, "Place") == 2 and state.counter(0, "Hop") == 1
    assert state.waiting == ()
    text = "\n".join(match.narration())
    emptied = text.index("Player 1: Skip 1 -> 0")
    assert text.index("Player 1: Place 0 -> 2") < text.index(
        "Player 1: 1 Hop waits at Easy Room.") < text.index("Player 1: Skip 0 -> 1") \
        < emptied < text.index("Player 1: Hop 0 -> 1", emptied)
    _play(match, ["clear the room"])
    # one Room past the end of the Room Row, alone: the rules file's
    # "Settle the race" makes the player with the most Place win
    assert match.state.result == ("win", 0, "Settle the race")
    # a waiting amount is plain data: clones and JSON copies keep it
    from interpreter.engine import Machine

    twin = match.clone()
    Machine(compiled, twin.state).gain_counter(
        Frame("probe", 0, {"you": 1, "this": None}), 1, "Skip", 2)
    waiting = twin.state.waiting
    assert waiting == ((1, "Skip", twin.state.zones[("Room Row", -1)][0], 2),)
    assert GameState.from_json(twin.state.to_json()).waiting == waiting
    assert twin.clone().state.waiting == waiting


def test_the_player_chooses_what_a_wildcard_pays_with_when_it_matters(game):
    """A wildcard item is paid with the counter the player chooses, when
    more than one can pay it and another exchange of the place is still to
    be made (its rest may be spent there); otherwise it takes the most
    plentiful one without asking."""
    loaded, compiled = game

    def at_the_double_room(hand):
        return Match.from_position(
            compiled, 2, 1,
            {("hand", 0): [(name, ()) for name in hand],
             ("deck", 0): [("Skipper", ())] * 4,
             ("lane", 0): [("Cheer", ())],
             ("deck", 1): [("Skipper", ())] * 4,
             ("lane", 1): [("Cheer", ())],
             ("Room Row", 0): [("Easy Room", ()), ("Double Room", ())]},
            {}, 2, 0, "Set")
    match = at_the_double_room(["Hopper", "Skipper"])
    _play(match, ["place a card here Hopper", "place a card here Skipper", "Hopper",
                  "clear the room"])
    decision = match.state.decision
    assert decision.prompt == "pay Either with" and set(decision.labels) == {"Hop", "Skip"}
    _play(match, ["Skip", "clear the extra"])
    assert match.state.counter(0, "Place") == 2
    # the extra first: the cost is then the last exchange, and its Either
    # takes what is left without a question
    match = at_the_double_room(["Hopper", "Hopper", "Skipper"])
    _play(match, ["place a card here Hopper", "place a card here Hopper",
                  "place a card here Skipper", "Hopper", "Hopper", "clear the extra",
                  "clear the room"])
    assert match.state.counter(0, "Place") == 2
    assert not any(e[0] == "choice" and e[3] == "pay Either with" for e in match.state.log)


def test_the_player_whose_event_it_is_orders_the_abilities_it_triggered(game):
    """Held abilities are used player by player, the turn player's first;
    those a player's event triggered, the Rival's "Whenever your Rival goes"
    included, are that player's to order."""
    loaded, compiled = game
    for first, before, after in (("Cheer's effect", "Player 1: 1 Hop waits",
                                  "Skipper moves from Player 1's deck"),
                                 ("Rival Cheer's effect", "Skipper moves from Player 1's deck",
                                  "Player 1: 1 Hop waits")):
        match = Match.from_position(
            compiled, 2, 1,
            {("hand", 0): [("Hopper", ())],
             ("deck", 0): [("Skipper", ())] * 4,
             ("lane", 0): [("Cheer", ())],
             ("deck", 1): [("Skipper", ())] * 4,
             ("lane", 1): [("Rival Cheer", ())],
             ("Room Row", 0): [("Hop Room", ()), ("Easy Room", ())]},
            {}, 2, 1, "Set")
        _play(match, ["place a card here Hopper", "clear the room"])
        decision = match.state.decision
        assert decision.player == 0 and decision.prompt == "use which effect next"
        assert sorted(re.sub(r" #\d+", "", label) for label in decision.labels) == [
            "Cheer's effect", "Rival Cheer's effect"]
        _play(match, [first])
        text = "\n".join(match.narration())
        assert text.index(before) < text.index(after)


def test_an_ability_answered_in_kind(game):
    """ "answered in kind": once a player has used an ability with the label,
    the other may use theirs in response (before going on); one already
    used this turn is not offered again."""
    loaded, compiled = game
    match = Match.from_position(
        compiled, 2, 1,
        {("hand", 0): [("Hopper", ())],
         ("deck", 0): [("Skipper", ())] * 4,
         ("lane", 0): [("Caller", ())],
         ("hand", 1): [("Hopper", ())],
         ("deck", 1): [("Hopper", ())] * 4,
         ("lane", 1): [("Caller", ())],
         ("Room Row", 0): [("Hop Room", ()), ("Easy Room", ())]},
        {}, 2, 0, "Set")
    _play(match, ["use CALL of Caller"])
    decision = match.state.decision
    assert decision.player == 1 and decision.prompt == "answer with your CALL or pass"
    _play(match, ["use CALL of Caller"])
    assert len(match.state.zones[("hand", 0)]) == 2 and len(match.state.zones[("hand", 1)]) == 2
    # back in player 1's window; player 2's own window offers no second CALL
    assert match.state.decision.player == 0
    _play(match, ["pass"])
    labels = [match.action_to_string(a) for a in match.legal_actions()]
    assert match.state.decision.player == 1 and not any("CALL" in label for label in labels)


def test_places_behind_every_player_leave_while_the_row_is_long_and_positions_follow(game):
    """ "behind each player's Place": behind every player; "one at a time
    while ...": card by card while the condition holds; a position counter
    stays at its place when a place below it leaves the zone."""
    loaded, compiled = game
    match = Match.from_position(
        compiled, 2, 1,
        {("deck", 0): [("Hopper", ())] * 4,
         ("lane", 0): [("Cheer", ())],
         ("deck", 1): [("Hopper", ())] * 4,
         ("lane", 1): [("Cheer", ())],
         ("Room Row", 0): [("Mixed Room", ()), ("Easy Room", ()), ("Hop Room", ())]},
        {(0, "Place"): 2, (1, "Place"): 2}, 2, 0, "Tidy")
    # two Rooms behind both runners, but the row keeps 2: only the first goes
    assert _names(match, "Room Row") == ["Easy Room", "Mixed Room"]
    assert _names(match, "Room Deck") == ["Hop Room"]
    assert [match.state.counter(p, "Place") for p in range(2)] == [1, 1]
    text = "\n".join(match.narration())
    assert text.index("Hop Room moves from Room Row to Room Deck") < text.index(
        "Player 1: Place 2 -> 1") < text.index("Player 2: Place 2 -> 1")


def test_a_replacement_with_a_plural_subject_takes_the_whole_step_during_its_period(game):
    """ "During the Tidy, if your face-up cards ... would be discarded, return
    them to your hand instead, then discard a random card": once for all the
    cards the step discards ("them"), the steps after "instead" once too."""
    loaded, compiled = game
    match = Match.from_position(
        compiled, 2, 1,
        {("track", 0): [("Hopper", ()), ("Skipper", ()), ("Either Shoe", ())],
         ("deck", 0): [("Hopper", ())] * 4,
         ("lane", 0): [("Keeper", ())],
         ("deck", 1): [("Hopper", ())] * 4,
         ("lane", 1): [("Cheer", ())],
         ("Room Row", 0): [("Hop Room", ()), ("Easy Room", ())]},
        {}, 2, 0, "Tidy")
    state = match.state
    assert not state.zones[("track", 0)]
    # three returned, one discarded at random, two drawn in the Tidy
    assert len(state.zones[("pile", 0)]) == 1
    assert len(state.zones[("hand", 0)]) == 4
    text = "\n".join(match.narration())
    assert text.count("Keeper's effect happens instead") == 3
    assert text.index("Hopper moves from Player 1's track to Player 1's hand") < text.index(
        "moves from Player 1's hand to Player 1's pile")


def test_choosing_among_cards_looked_at_and_putting_the_rest_elsewhere(game):
    """ "Choose 2 of them" picks two of the cards looked at; "the rest" are
    the others, still where they were, and go where the text says."""
    loaded, compiled = game
    match = Match.from_position(
        compiled, 2, 1,
        {("hand", 0): [("Scout Charm", ())],
         ("deck", 0): [("Hopper", ()), ("Skipper", ()), ("Either Shoe", ()),
                       ("Eager Shoe", ()), ("Lucky Charm", ())],
         ("lane", 0): [("Cheer", ())],
         ("deck", 1): [("Hopper", ())] * 4,
         ("lane", 1): [("Cheer", ())],
         ("Room Row", 0): [("Hop Room", ()), ("Easy Room", ())]},
        {}, 2, 0, "Set")
    _play(match, ["place a card here Scout Charm"])
    decision = match.state.decision
    assert sorted(re.sub(r" #\d+", "", label) for label in decision.labels) == [
        "Either Shoe", "Hopper", "Skipper"]
    _play(match, ["Skipper", "Hopper"])
    text = "\n".join(match.narration())
    assert text.index("Hopper moves from Player 1's deck to Player 1's hand") < text.index(
        "Either Shoe moves from Player 1's deck to Player 1's deck")
    # the Tidy draws the two then on top; the rest went under them
    assert _names(match, "deck", 0) == ["Either Shoe"]
    assert sorted(_names(match, "hand", 0)) == ["Eager Shoe", "Hopper", "Lucky Charm",
                                                "Skipper"]


def test_agent_settings_are_tiers_with_conditions(game):
    """The "prefer:" lines of rules/track.hints are tried in order: the
    first whose condition holds for the deciding player and that names an
    offered choice gives the choices the agent "hinted" takes."""
    loaded, compiled = game

    def at_set(hand):
        return Match.from_position(
            compiled, 2, 1,
            {("hand", 0): [(name, ()) for name in hand],
             ("deck", 0): [("Hopper", ())] * 4,
             ("lane", 0): [("Cheer", ())],
             ("deck", 1): [("Hopper", ())] * 4,
             ("lane", 1): [("Cheer", ())],
             ("Room Row", 0): [("Hop Room", ()), ("Easy Room", ())]},
            {}, 2, 0, "Set")

    def preferred(match):
        return sorted({re.sub(r" #\d+", "", match.action_to_string(a))
                       for a in preferred_actions(match)})
    match = at_set(["Hopper", "Skipper"])
    assert preferred(match) == ["place a card here Hopper", "place a card here Skipper"]
    _play(match, ["place a card here Hopper"])
    assert preferred(match) == ["pass"]          # 1 card left: the third line
    _play(match, ["pass"])
    assert preferred(match) == ["clear the room"]   # the Easy Room, paid with the Hop


def test_a_tie_past_the_end_sends_both_runners_back_and_play_goes_on(game):
    loaded, compiled = game
    match = Match.from_position(
        compiled, 2, 1,
        {("deck", 0): [("Hopper", ())] * 6,
         ("lane", 0): [("Cheer", ())],
         ("deck", 1): [("Hopper", ())] * 6,
         ("lane", 1): [("Cheer", ())],
         ("Room Row", 0): [("Hop Room", ()), ("Easy Room", ())]},
        {(0, "Place"): 2, (1, "Place"): 2}, 2, 0, "Run")
    # both players past the end by as much: no one has the most Place, so
    # the tie is broken (both back to 0) and the game goes on
    assert match.state.result is None
    assert match.state.counter(0, "Place") == 0 and match.state.counter(1, "Place") == 0
    text = "\n".join(match.narration())
    assert "Player 1: Place 2 -> 0." in text and "Player 2: Place 2 -> 0." in text
    # one runner alone past the end at the end of the Run wins
    state = match.state
    state.player_counters[0]["Place"] = 3
    play_out(match, [RandomAgent(1), RandomAgent(2)])
    assert match.state.result is not None


def test_an_exchange_is_an_option_of_its_own_kind_ranked_with_attacks(game):
    # "clear the room" pays the Moves gathered for the Room's reward: greedy
    # takes it before playing a card or passing, and the search agent's
    # rollouts take it for the turn player as they take attacks (ranked after
    # passing, they never cashed in what a turn gathered)
    seen = 0
    for seed in range(1, 30):
        match = _start(game, seed)
        agents = [RandomAgent(seed), RandomAgent(seed + 100)]
        while not match.is_terminal() and seen < 3:
            labels = {match.action_to_string(a): a for a in match.legal_actions()}
            clear = [a for label, a in labels.items() if label.startswith("clear the")]
            if clear and "pass" in labels:
                assert {option_kind(match, a) for a in clear} == {"exchange"}
                assert option_kind(match, labels["pass"]) == "pass"
                assert set(greedy_choices(match)) <= set(clear)
                assert set(greedy_choices(match, TURN_RANKS)) <= set(clear)
                assert GreedyAgent(seed).act(match) in clear
                seen += 1
            match.apply_action(agents[match.current_player()].act(match))
        if seen >= 3:
            break
    assert seen >= 3
