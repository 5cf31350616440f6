"""The agents that play by themselves: greedy (attack, then play a card,
pass last), search (ISMCTS over determinizations: stronger than random, the
same choices for the same seed), the determinization it plays on (what the
viewer sees unchanged, the rest dealt again), and the agent settings that
replaced "simulation prefers"."""

import shutil
from pathlib import Path

import pytest

from interpreter.agents import (FirstLegalAgent, GreedyAgent, HintedAgent, SearchAgent,
                                agent_named, option_kind, play_out, preferred_actions)
from interpreter.agents import evaluation
from interpreter.agents.evaluation import (Reading, arming, damage_stats, empty_losses,
                                          hand_worth, ready_attackers, reading)
from interpreter.agents.search import WIDE_CAP, WIDE_VISITS, card_count_goals, position_value
from interpreter.engine import Machine, Match, compile_game
from interpreter.engine.determinize import hidden_cards
from interpreter.engine.rng import Random
from interpreter.errors import CardrulesError, CouldNotRun
from interpreter.language.games import load_game
from interpreter.language.rules_file import load_rules
from interpreter.source import SourceText

ENGINE = Path(__file__).resolve().parent / "fixtures" / "engine"


@pytest.fixture(scope="module")
def duel():
    loaded = load_game("duel", ENGINE)
    return loaded, compile_game(loaded)


def _start(duel, seed: int) -> Match:
    loaded, compiled = duel
    decks = [loaded.decks[seed % 2], loaded.decks[(seed + 1) % 2]]
    return Match.start(compiled, decks, seed)


def _to_decision(match, kinds: set, agents) -> Match:
    """Play on with ``agents`` until an action decision offering all of ``kinds``."""
    while not match.is_terminal():
        decision = match.state.decision
        if decision.kind == "action" and kinds <= {
                option_kind(match, a) for a in match.legal_actions()}:
            return match
        match.apply_action(agents[match.current_player()].act(match))
    raise AssertionError(f"no decision offering {kinds}")


def test_greedy_attacks_first_then_plays_cards_and_passes_last(duel):
    match = _to_decision(_start(duel, 3), {"attack", "play"}, [GreedyAgent(1), GreedyAgent(2)])
    labels = {option_kind(match, a): match.action_to_string(a) for a in match.legal_actions()}
    assert labels["attack"].startswith("attack ")
    assert labels["play"].startswith("cast ")
    chosen = match.action_to_string(GreedyAgent(7).act(match))
    assert chosen.startswith("attack ")
    # without an attack on offer: a card from the hand before passing
    match = _to_decision(_start(duel, 1), {"play", "pass"}, [GreedyAgent(1), GreedyAgent(2)])
    if "attack" not in {option_kind(match, a) for a in match.legal_actions()}:
        assert match.action_to_string(GreedyAgent(7).act(match)).startswith("cast ")


def test_determinizing_keeps_what_the_viewer_sees_and_deals_the_rest_again(duel):
    match = _start(duel, 2)
    seen = match.observation(0)
    hidden = hidden_cards(match.game, match.state, 0)
    worlds = [match.determinized(0, Random(k)) for k in range(6)]
    for world in worlds:
        view = world.observation(0)
        assert view["zones"] == seen["zones"] and view["decision"] == seen["decision"]
        # each player's hidden cards are their own, only their places differ
        for owner in (0, 1):
            mine = [c for c in hidden if match.state.cards[c].owner == owner]
            assert sorted(world.state.cards[c].name for c in mine) == sorted(
                match.state.cards[c].name for c in mine)
    # the other player's hand differs between worlds; the original is untouched
    hands = {tuple(w.state.cards[c].name for c in w.state.zones[("hand", 1)]) for w in worlds}
    assert len(hands) > 1
    assert match.observation(0) == seen
    # the same generator state gives the same world
    again = match.determinized(0, Random(3))
    assert [c.name for c in again.state.cards] == [c.name for c in worlds[3].state.cards]


def test_search_beats_random_and_chooses_the_same_for_a_seed(duel):
    wins = 0
    for seed in range(4):
        seat = seed % 2
        match = _start(duel, seed)
        agents = [agent_named("random", seed), agent_named("random", seed + 50)]
        agents[seat] = agent_named("search:8", seed)
        play_out(match, agents)
        wins += match.state.result[:2] == ("win", seat)
    assert wins >= 3
    digests = []
    for _ in range(2):
        match = _start(duel, 5)
        play_out(match, [SearchAgent(9, iterations=6), agent_named("random", 4)],
                 max_decisions=40)
        digests.append(match.log_digest())
    assert digests[0] == digests[1]


def test_search_budgets_are_read_from_the_name():
    assert agent_named("search", 1).iterations > 0
    assert agent_named("search:200", 1).iterations == 200
    timed = agent_named("search:0.5s", 1)
    assert timed.seconds == 0.5 and timed.iterations is None
    assert isinstance(agent_named("greedy", 1), GreedyAgent)
    for bad in ("search:fast", "search:0", "search:-3s"):
        with pytest.raises(CouldNotRun) as err:
            agent_named(bad, 1)
        problem = err.value.problems[0]
        assert problem.code == "E818" and "search:200" in problem.render()


def test_simulation_prefers_is_no_longer_part_of_the_rules_language():
    text = ('game "Probe"\nplayers: 2\nsimulation prefers: "attack"\n')
    _rules, problems = load_rules(SourceText("rules/probe.rules", text), "probe")
    problem = next(p for p in problems if p.code == "E530")
    assert problem.span.line == 3
    assert "no longer part of the rules language" in problem.message
    assert "greedy" in problem.render() and "search" in problem.render()


def test_agent_settings_are_read_only_by_the_hinted_agent(tmp_path, duel):
    loaded, compiled = duel
    match = _to_decision(_start(duel, 3), {"attack", "play"}, [GreedyAgent(1), GreedyAgent(2)])
    assert len(preferred_actions(match)) == len(match.legal_actions())   # no settings file
    root = tmp_path / "duel"
    (root / "rules").mkdir(parents=True)
    (root / "rules" / "duel.rules").write_text((ENGINE / "rules" / "duel.rules").read_text())
    shutil.copytree(ENGINE / "cards" / "duel", root / "cards" / "duel")
    (root / "rules" / "duel.hints").write_text(
        "# the duel's agent settings\nprefer: pass, if you have 99 or more Life\n"
        'prefer: "cast"\n')
    hinted = compile_game(load_game("duel", root))
    there = Match(hinted, match.state.clone())
    assert {there.action_to_string(a).split(" ")[0] for a in preferred_actions(there)} == {
        "cast"}
    assert there.action_to_string(HintedAgent(3).act(there)).startswith("cast ")
    # the agent random reads no settings
    assert agent_named("random", 1).act(there) in there.legal_actions()
    (root / "rules" / "duel.hints").write_text('prefer "cast"\nprefer: "cast", if nonsense\n')
    broken = Match(compile_game(load_game("duel", root)), match.state.clone())
    with pytest.raises(CardrulesError) as err:
        preferred_actions(broken)
    lines = {(p.code, p.span.line) for p in err.value.problems}
    assert ("E819", 1) in lines and any(line == 2 for _code, line in lines - {("E819", 1)})


def test_positions_are_scored_from_the_declared_ways_to_win_and_lose(duel):
    """The search agent's evaluation reads the rules: the Duel's "a player
    at 0 or less loses" Life; a rule ending the game by the cards in a zone."""
    match = _start(duel, 1)
    even = position_value(match)
    assert abs(even[0] + even[1]) < 1e-9
    match.state.player_counters[0]["Life"] = 3
    behind = position_value(match)
    assert behind[0] < even[0] < 0.9 and behind[1] > 0
    assert card_count_goals(match.game) == ()
    # (read from the rules alone: the loaded game will do)
    assert card_count_goals(load_game("saturday-wars")) == (("Chapters Won", 3, True),)


def test_material_counts_cards_in_play_above_cards_in_hand(duel):
    """The evaluation's material: a card its player put into play from the
    hand counts more than in the hand, for that player and against the other;
    health is measured against the stat damage destroys a card at."""
    match = _start(duel, 1)
    before = position_value(match)
    state = match.state
    card = state.zones[("hand", 0)].pop(0)
    state.zones.setdefault(("board", 0), []).append(card)
    state.cards[card].zone = ("board", 0)
    after = position_value(match)
    assert after[0] > before[0] and after[1] < before[1]
    assert reading(match.game).lethal == ()
    lethal = Reading(load_game("arcane-duel")).lethal
    assert [name for name, _typical in lethal] == ["toughness"] and lethal[0][1] > 1


def _duel_variant(tmp_path, *edits) -> Match:
    """The Duel with its rules edited (each edit: old text, new text), started
    with seed 1 and its two decks."""
    root = tmp_path / "duel"
    (root / "rules").mkdir(parents=True)
    text = (ENGINE / "rules" / "duel.rules").read_text()
    for old, new in edits:
        assert old in text
        text = text.replace(old, new)
    (root / "rules" / "duel.rules").write_text(text)
    shutil.copytree(ENGINE / "cards" / "duel", root / "cards" / "duel")
    loaded = load_game("duel", root)
    return Match.start(compile_game(loaded), [loaded.decks[1], loaded.decks[0]], 1)


def _move(match, card: int, zone: tuple) -> None:
    state = match.state
    state.zones[state.cards[card].zone].remove(card)
    state.zones.setdefault(zone, []).append(card)
    state.cards[card].zone = zone


def test_running_out_of_a_deck_a_player_loses_by_emptying_counts_against_them(tmp_path, duel):
    """A zone a player loses by emptying, declared so or named by a verb
    ("If your deck has no cards, you lose the game"), is read from the rules;
    each card drawn from it late costs its player more than the card in hand
    gains, so that a player does not draw themselves out of the game."""
    assert empty_losses(load_game("pocket-league")) == ("deck",)       # by a verb
    assert empty_losses(duel[0]) == ()
    match = _duel_variant(tmp_path, ("ordered, draw pile", "ordered, draw pile, "
                                     "a player who needs a card from it when it is empty loses"))
    assert reading(match.game).emptied == ("deck",)                      # declared
    deck = match.state.zones[("deck", 0)]
    for player in (0, 1):                   # both players near the end of their decks
        pile = match.state.zones[("deck", player)]
        while len(pile) > 3:
            _move(match, pile[0], ("graveyard", player))
    values = [position_value(match)[0]]
    while deck:                             # ... drawing their last cards
        _move(match, deck[0], ("hand", 0))
        values.append(position_value(match)[0])
    assert values == sorted(values, reverse=True) and values[-1] < values[0] - 0.2
    assert all(v > -0.9 for v in values)    # (an unfinished game is not a loss)


def test_resources_that_make_an_attack_payable_count_before_the_attack(tmp_path, duel):
    """Where an attack with a card in play has a cost, the card that could
    pay it counts: the evaluation sees the resource (here Mana) before the
    attack it pays for, on a turn the rollouts do not reach; the same Mana
    without a card to attack with counts nothing."""
    match = _duel_variant(tmp_path, (
        "  choose: a Creature you control that is not exhausted\n",
        "  choose: a Creature you control that is not exhausted\n  cost: Pay 2 Mana.\n"))
    assert len(reading(match.game).costly_attacks) == 1
    assert reading(duel[1]).costly_attacks == ()         # the Duel's attack is free
    assert reading(duel[1]).arming == () and reading(duel[1]).striking == ()
    state = match.state
    creature = next(c for c in state.zones[("hand", 0)]
                    if match.game.cards[state.cards[c].name].kind == "Creature")
    state.player_counters[0]["Mana"] = 5
    alone = position_value(match)[0]          # Mana, nothing to attack with
    state.player_counters[0]["Mana"] = 0
    assert position_value(match)[0] == alone
    _move(match, creature, ("board", 0))
    state.cards[creature].controller = 0
    unpaid = position_value(match)[0]
    machine = Machine(match.game, state)
    assert ready_attackers(machine, reading(match.game), 0) == set()
    state.player_counters[0]["Mana"] = 2
    assert ready_attackers(machine, reading(match.game), 0) == {creature}
    assert position_value(match)[0] > unpaid > alone


def test_a_wide_decision_gets_more_iterations_and_stays_deterministic(duel):
    """A decision with many options is searched with WIDE_VISITS iterations
    per option (up to WIDE_CAP) when the budget is smaller, so that every
    option is tried, not a few of them once; the same seed, the same choice."""
    match = _to_decision(_start(duel, 3), {"attack", "play"}, [GreedyAgent(1), GreedyAgent(2)])
    counted = []

    class Counting(SearchAgent):
        def _iterate(self, world, root):
            counted.append(1)
            super()._iterate(world, root)

    options = len(match.legal_actions())
    assert 2 < options and WIDE_VISITS * options < WIDE_CAP
    Counting(1, iterations=2).act(match)
    assert len(counted) == WIDE_VISITS * options
    counted.clear()
    Counting(1, iterations=WIDE_CAP + 1).act(match)
    assert len(counted) == WIDE_CAP + 1
    assert len({SearchAgent(3, iterations=2).act(match) for _ in range(3)}) == 1


@pytest.fixture(scope="module")
def pocket_league():
    loaded = load_game("pocket-league")
    return loaded, compile_game(loaded)


def _first_main_decision(game) -> Match:
    """Pocket League, seed 1, at player 1's first action decision: Puddlepup
    (Water; its attack costs 1 Energy, of its own type) active, Emberkit
    (Fire, the same cost) on the bench, Water and Fire Energy in hand."""
    loaded, compiled = game
    match = Match.start(compiled, [loaded.decks[0], loaded.decks[1]], 1)
    first = FirstLegalAgent()
    while not (match.state.turn >= 1 and match.state.decision.kind == "action"):
        match.apply_action(first.act(match))
    return match


def _attached(match, energy: str, creature: str) -> Match:
    """The match after its player attaches ``energy`` (an option's label) to
    ``creature`` (a card's name), on a copy."""
    world = match.clone()
    world.apply_action(next(a for a in world.legal_actions()
                            if world.action_to_string(a).startswith(f"attach an Energy {energy}")))
    world.apply_action(next(a for a in world.legal_actions()
                            if world.action_to_string(a).startswith(creature)))
    return world


def test_energy_toward_an_attack_cost_counts_most_on_the_card_that_can_attack(pocket_league):
    """Where an attack's cost reads its card's stats ("Reveal X Energy
    attached to it, where X is its cost"), the evaluation counts how far
    toward payable each card of a kind with those stats is: more for the
    card the attack could choose now (the active creature) than a benched
    one, and more for Energy its cost can use (of its own type) than for
    Energy that pays only part of it; by the stat the game deals damage by."""
    match = _first_main_decision(pocket_league)
    read = reading(match.game)
    assert damage_stats(match.game) == ["power"] and [s for s, _ in read.striking] == ["power"]
    state = match.state
    names = {state.cards[c].name: c for c in state.zones[("play", 0)]}
    assert "active" in state.cards[names["Puddlepup"]].statuses
    assert "active" not in state.cards[names["Emberkit"]].statuses

    def armed(world):
        return arming(Machine(world.game, world.state), read, 0)

    nothing = armed(match)
    right = _attached(match, "Water Energy", "Puddlepup")     # payable: ready to attack
    wrong = _attached(match, "Fire Energy", "Puddlepup")      # half the cost (not typed)
    benched = _attached(match, "Fire Energy", "Emberkit")     # payable, but benched
    assert nothing == 0
    assert armed(right) > armed(wrong) > 0 and armed(right) > armed(benched) > 0
    assert position_value(right)[0] > position_value(wrong)[0] > position_value(match)[0]


def test_a_prize_taken_and_a_longer_deck_count_for_their_player(pocket_league):
    """Taking a prize ("If a player has no cards in their prizes, they win
    the game") counts for the player who took it; a deck a player loses by
    running out of counts against whoever has fewer cards left in it."""
    match = _first_main_decision(pocket_league)
    before = position_value(match)
    taken = match.clone()
    _move(taken, taken.state.zones[("prizes", 0)][0], ("hand", 0))
    assert position_value(taken)[0] > before[0]
    shorter = match.clone()
    for card in list(shorter.state.zones[("deck", 0)][:6]):
        _move(shorter, card, ("discard pile", 0))
    assert position_value(shorter)[0] < before[0]


def test_each_card_more_in_hand_is_worth_less():
    """A hand's worth grows with each card, less and less: a player with a
    full hand plays a card when doing so gains anything."""
    gains = [hand_worth(n + 1) - hand_worth(n) for n in range(12)]
    assert all(g > 0 for g in gains) and gains == sorted(gains, reverse=True)
    assert gains[0] > 3 * gains[-1]


def test_the_readings_of_games_played_long_ago_are_let_go(duel, monkeypatch):
    # a process that compiles game after game (the web table) keeps the
    # evaluation's readings of the latest few only
    monkeypatch.setattr(evaluation, "READINGS_KEPT", 2)
    monkeypatch.setattr(evaluation, "_READINGS", {})
    games = [compile_game(duel[0]) for _ in range(3)]
    first = reading(games[0])
    assert reading(games[0]) is first                    # kept while in use
    reading(games[1])
    reading(games[2])
    assert len(evaluation._READINGS) == 2
    assert reading(games[0]) is not first                # let go, read again
    assert reading(games[2]).game is games[2]
