"""Super Meat Boy Rival Rush (rules/rival-rush.rules) plays whole games (the
soak with the invariants checked is in tests/test_soak.py): random games (with the rules file's simulation
preferences) that end the way the rulebook says: a Player's Character
advances past the end Segment, farthest past it wins; a tie goes to Final
Rush; and what each Player may see. The generic mechanisms the game added
are tested on a small fixture game in tests/test_track.py."""

from __future__ import annotations

import pytest

from interpreter.engine import Match

from games_support import loaded_and_compiled, random_games, rotating_decks


@pytest.fixture(scope="module")
def game():
    return loaded_and_compiled("rival-rush")


def test_games_end_past_the_end_segment(game):
    loaded, compiled = game
    wins = draws = 0
    for match in random_games(loaded, compiled, range(30)):
        result = match.state.result
        assert result is not None
        if result[0] == "win":
            # the rules file's "Settle the race": the farthest past the end wins
            assert result[2] == "Settle the race", result
            wins += 1
        else:
            # the only draw: the turn cap (Final Rush repeats "until one
            # Player wins, or the inevitable heat death of the universe")
            assert result[1].startswith("no winner after"), result
            draws += 1
    assert wins >= 22, (wins, draws)


def test_the_decks_are_legal(game):
    loaded, _ = game
    assert len(loaded.decks) >= 4
    for deck in loaded.decks:
        parts = dict(deck.parts)
        assert sum(e.count for e in parts["Deck"]) == 20
        assert sum(e.count for e in parts["Segments"]) == 4
        assert sum(e.count for e in parts["Character"]) == 1


def _started(compiled, decks, seed, first=0):
    """A game past its setup: the Player picked at random has chosen who is
    the first Turn Player (Q&A: the highest roll chooses)."""
    match = Match.start(compiled, decks, seed)
    assert match.state.decision.prompt == "choose the first player"
    match.apply_action(match.state.decision.options.index(first))
    return match


def test_setup_builds_the_row_alternating_faces(game):
    loaded, compiled = game
    match = _started(compiled, rotating_decks(loaded, 0), 1)
    state = match.state
    assert state.turn_player == 0
    row = state.zones[("Segment Row", -1)]
    assert len(row) == 8
    assert [state.cards[c].face_up for c in row] == [True, False] * 4
    for player in range(2):
        assert state.counter(player, "Position") == 0
        assert len(state.zones[("hand", player)]) == 5      # 3, then the first Draw Phase


def test_what_each_player_may_see(game):
    """Notes: the Garbage, the number of cards in a hand and how many cards
    are placed at each Segment are public; the cards placed face down are
    not (their controller knows them); both sides of every Segment are."""
    loaded, compiled = game
    match = _started(compiled, rotating_decks(loaded, 0), 1, first=1)
    player = match.state.decision.player
    rival = 1 - player
    place = next(a for a in match.legal_actions()
                 if match.action_to_string(a).startswith("place a card at your Segment"))
    card = match.state.decision.options[place][1]
    name = match.state.cards[card].name
    match.apply_action(place)
    first = match.state.zones[("Segment Row", -1)][0]
    mine, theirs = match.observation(player), match.observation(rival)
    assert mine["zones"][f"Play Area/{player}"] == [name]
    assert theirs["zones"][f"Play Area/{player}"] == [
        f"a face-down card at {match.state.cards[first].name}"]
    assert theirs["zones"][f"hand/{player}"] == 4
    row = [match.state.cards[c].name for c in match.state.zones[("Segment Row", -1)]]
    assert theirs["zones"]["Segment Row"] == row      # face-down Segments too
    told = "\n".join(match.narration(rival))
    assert f"A card moves from Player {player + 1}'s hand to Player {player + 1}'s Play Area" \
        in told
    assert f"A card is attached to {match.state.cards[first].name}." in told
    assert f"Player {player + 1}: place a card at your Segment." in told
    assert name not in told.split("Draw Phase")[-1]
    assert f"{name} is attached to" in "\n".join(match.narration(player))
