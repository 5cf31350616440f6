"""The engine on the Duel fixture game (tests/fixtures/engine): turn
structure from the rules file, action windows, costs, triggers, optional
steps, state rules, determinism, clone, JSON, and the step API's invariants
on random games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.agents import FirstLegalAgent, RandomAgent, ScriptedAgent, play_out
from interpreter.cli import main
from interpreter.engine import Match, compile_game
from interpreter.engine.rng import Random
from interpreter.engine.state import GameState
from interpreter.errors import CardrulesError
from interpreter.language.games import load_game

ROOT = Path(__file__).resolve().parent / "fixtures" / "engine"
RULES = ROOT / "rules" / "duel.rules"


@pytest.fixture(scope="module")
def duel():
    game = load_game("duel", ROOT)
    assert game.problems == []
    return game, compile_game(game)


def start(duel, seed=0, players=2):
    game, compiled = duel
    decks = [game.decks[i % len(game.decks)] for i in range(players)]
    return Match.start(compiled, decks, seed)


def hand(match, player):
    return [match.state.cards[c].name for c in match.state.zone("hand", player)]


def choose(match, label):
    for action in match.legal_actions():
        if match.action_to_string(action) == label:
            match.apply_action(action)
            return
    raise AssertionError(f"{label!r} not among "
                         f"{[match.action_to_string(a) for a in match.legal_actions()]}")


def option_starting(match, prefix):
    for action in match.legal_actions():
        if match.action_to_string(action).startswith(prefix):
            return action
    return None


def make_deck(name, *entries):
    """A deck built in the test: (count, card name) pairs."""
    from interpreter.language.decks import Deck, DeckEntry
    from interpreter.source import Span

    span = Span("test", 1, 1, 1, 2)
    return Deck(name, (("Deck", tuple(DeckEntry(n, card, span) for n, card in entries)),),
                "test", span)


# ---------------------------------------------------------------- turn structure


def test_setup_shuffles_and_deals_three_cards_each(duel):
    match = start(duel, seed=5)
    log = match.state.log
    assert [e[0] for e in log[:4]] == ["start", "mark", "shuffle", "shuffle"]
    first = log[0][3]
    setup = log[:next(i for i, e in enumerate(log) if e[0] == "turn")]
    drawn = [e[3] for e in setup if e[0] == "event" and e[1] == "drawn"]
    assert sorted(drawn) == [0, 0, 0, 1, 1, 1]
    assert drawn[:3] == [first] * 3           # the first player is dealt first
    turn_one = next(e for e in log if e[0] == "turn")
    assert turn_one == ("turn", 1, first)
    # the first turn skips the Upkeep: no Mana, no draw
    upkeep = [e for e in log if e[0] == "period" and e[2] == "Upkeep"]
    assert all(e[3] >= 1 for e in upkeep)
    assert not any(e[0] == "period" and e[2] == "Upkeep" and e[4] == "start"
                   for e in log[:log.index(("turn", 2, 1 - first))])


def test_upkeep_gives_mana_and_a_card_from_the_second_turn(duel):
    match = start(duel, seed=5)
    first = match.state.log[0][3]
    while match.state.turn == 1:
        choose(match, "pass")
    second = match.state.turn_player
    assert second == 1 - first
    assert match.state.counter(second, "Mana") == 1
    assert len(hand(match, second)) == 4


def test_casting_pays_the_cost_and_puts_the_card_on_the_board(duel):
    match = start(duel, seed=5)
    player = match.state.turn_player
    while match.state.turn == 1:
        choose(match, "pass")
    player = match.state.turn_player
    action = option_starting(match, "cast Squire") or option_starting(match, "cast Knight")
    assert action is not None, [match.action_to_string(a) for a in match.legal_actions()]
    label = match.action_to_string(action)
    name = label.split(" ", 1)[1].split(" #")[0]
    cost = {"Squire": 0, "Knight": 1}[name]
    before = match.state.counter(player, "Mana")
    match.apply_action(action)
    board = [match.state.cards[c].name for c in match.state.zone("board", player)]
    assert name in board
    assert match.state.counter(player, "Mana") == before - cost


def test_cards_that_cost_too_much_are_not_legal(duel):
    costs = {"Squire": 0, "Knight": 1, "Scholar": 1, "Archer": 2, "Herald": 1, "Giant": 3}
    for seed in range(5):
        match = start(duel, seed=seed)
        player = match.current_player()
        mana = match.state.counter(player, "Mana")
        cast = [match.action_to_string(a).split(" ", 1)[1].split(" #")[0]
                for a in match.legal_actions()
                if match.action_to_string(a).startswith("cast ")]
        assert all(costs[name] <= mana for name in cast), (mana, cast)
        in_hand = set(hand(match, player))
        assert {n for n in in_hand if costs[n] <= mana} == set(cast)


def give(match, player, name, mana):
    """Move a card named ``name`` from the player's deck to their hand and
    set their Mana, then let the open action window list its options again
    (as a ruling's starting position would)."""
    from interpreter.engine import operations as op
    from interpreter.engine import Machine

    state = match.state
    card = next(c.id for c in state.cards if c.name == name and c.owner == player
                and c.zone[0] == "deck")
    op.move(state, card, ("hand", player))
    state.player_counters[player]["Mana"] = mana
    state.decision = None
    Machine(match.game, state).run()
    return card


# ---------------------------------------------------------------- triggers


def test_when_this_is_played_draw_a_card(duel):
    match = start(duel, seed=11)
    player = match.current_player()
    scholar = give(match, player, "Scholar", 5)
    size = len(hand(match, player))
    drawn_before = sum(1 for e in match.state.log if e[0] == "event" and e[1] == "drawn")
    choose(match, f"cast Scholar #{scholar}")
    assert len(hand(match, player)) == size          # cast one, drew one
    drawn = [e for e in match.state.log if e[0] == "event" and e[1] == "drawn"]
    assert len(drawn) == drawn_before + 1 and drawn[-1][3] == player
    played = [i for i, e in enumerate(match.state.log) if e[:3] == ("event", "played", scholar)]
    assert played and match.state.log.index(drawn[-1]) > played[0]


def test_may_asks_yes_or_no_and_then_depends_on_it(duel):
    match = start(duel, seed=2)
    player = match.current_player()
    herald = give(match, player, "Herald", 5)
    choose(match, f"cast Herald #{herald}")
    assert match.state.decision.kind == "yes-no"
    size = len(hand(match, player))
    choose(match, "yes")          # draw a card, then discard a card
    decision = match.state.decision
    assert decision.kind == "target" and decision.prompt == "discard a card"
    assert set(decision.options) == set(match.state.zone("hand", player))
    match.apply_action(0)
    assert len(hand(match, player)) == size
    assert "Herald" in [match.state.cards[c].name for c in match.state.zone("board", player)]


def test_may_no_skips_the_step_and_what_depends_on_it(duel):
    match = start(duel, seed=2)
    player = match.current_player()
    herald = give(match, player, "Herald", 5)
    choose(match, f"cast Herald #{herald}")
    size = len(hand(match, player))
    choose(match, "no")
    assert len(hand(match, player)) == size
    assert not any(e[0] == "event" and e[1] == "discarded" for e in match.state.log)


# ---------------------------------------------------------------- the end of a game


def test_a_player_at_zero_life_loses(duel):
    match = start(duel, seed=3)
    play_out(match, [RandomAgent(1), RandomAgent(2)])
    kind, winner, reason = match.state.result
    assert kind == "win"
    assert match.state.counter(1 - winner, "Life") <= 0
    assert "Life" in reason
    assert match.returns() == [1.0 if p == winner else -1.0 for p in range(2)]
    assert match.current_player() == -4 and match.legal_actions() == []


def test_four_players_take_turns_in_order_and_play_to_the_end(duel):
    match = start(duel, seed=4, players=4)
    play_out(match, [RandomAgent(i) for i in range(4)])
    turns = [e for e in match.state.log if e[0] == "turn"]
    first = turns[0][2]
    assert [t[2] for t in turns[:4]] == [(first + i) % 4 for i in range(4)]
    assert match.state.result[0] in ("win", "draw")
    assert sum(match.state.out) >= 3 or match.state.result[0] == "draw"


def test_passing_forever_ends_as_a_draw_with_the_reason(duel):
    match = start(duel, seed=1)
    passer = FirstLegalAgent()

    class AlwaysPass:
        def act(self, m):
            return m.legal_actions()[-1]
    play_out(match, [AlwaysPass(), AlwaysPass()])
    kind, reason = match.state.result
    assert kind == "draw"
    assert "turns" in reason


# ---------------------------------------------------------------- determinism, clone, JSON


def play_random(match, seed):
    agents = [RandomAgent(seed * 10 + i) for i in range(match.state.players)]
    actions = []
    while not match.is_terminal():
        action = agents[match.current_player()].act(match)
        actions.append(action)
        match.apply_action(action)
    return actions


def test_same_seed_and_actions_give_the_same_log(duel):
    first = start(duel, seed=9)
    actions = play_random(first, 9)
    second = start(duel, seed=9)
    for action in actions:
        second.apply_action(action)
    assert first.state.log == second.state.log
    assert first.log_digest() == second.log_digest()


def test_clone_is_independent_and_continues_the_same(duel):
    match = start(duel, seed=6)
    rng = Random(6)
    for _ in range(15):
        match.apply_action(rng.choice(match.legal_actions()))
    twin = match.clone()
    log_before = list(match.state.log)
    actions = play_random(twin, 1)
    assert match.state.log == log_before          # the original did not move
    for action in actions:
        match.apply_action(action)
    assert match.state.log == twin.state.log


def test_json_round_trip_mid_game(duel):
    game, compiled = duel
    match = start(duel, seed=8)
    rng = Random(8)
    for _ in range(12):
        match.apply_action(rng.choice(match.legal_actions()))
    data = json.loads(json.dumps(match.state.to_json()))
    restored = Match(compiled, GameState.from_json(data))
    assert restored.state.to_json() == match.state.to_json()
    actions = play_random(match, 3)
    for action in actions:
        restored.apply_action(action)
    assert restored.state.log == match.state.log


# ---------------------------------------------------------------- invariants on random games


def check_invariants(match, total_cards):
    state = match.state
    seen = {}
    for key, cards in state.zones.items():
        for card in cards:
            assert card not in seen, f"card {card} in {key} and {seen[card]}"
            seen[card] = key
            assert state.cards[card].zone == key
    assert len(seen) == total_cards == len(state.cards)
    assert len({c.id for c in state.cards}) == len(state.cards)
    for player in range(state.players):
        assert state.counter(player, "Mana") >= 0
    if match.is_terminal():
        assert match.legal_actions() == []
    else:
        assert match.legal_actions()


@pytest.mark.parametrize("seed", range(40))
def test_random_games_keep_every_invariant(duel, seed):
    players = 2 + seed % 3
    match = start(duel, seed=seed, players=players)
    total = len(match.state.cards)
    agents = [RandomAgent(seed * 7 + i) for i in range(players)]
    steps = 0
    while not match.is_terminal():
        check_invariants(match, total)
        # every legal action applies (on a clone)
        if steps % 7 == 0:
            for action in match.legal_actions():
                twin = match.clone()
                twin.apply_action(action)
        match.apply_action(agents[match.current_player()].act(match))
        steps += 1
    check_invariants(match, total)


def test_illegal_action_is_an_error_not_a_crash(duel):
    match = start(duel, seed=1)
    with pytest.raises(CardrulesError) as info:
        match.apply_action(99)
    assert info.value.first.code == "E806"


def test_scripted_agent_fails_loudly(duel):
    match = start(duel, seed=1)
    with pytest.raises(CardrulesError) as info:
        play_out(match, [ScriptedAgent(["no such choice"]), ScriptedAgent([])])
    assert info.value.first.code in ("E807", "E808")


def test_observation_hides_the_other_hand(duel):
    match = start(duel, seed=1)
    view = match.observation(0)
    assert isinstance(view["zones"]["hand/0"], list)
    assert view["zones"]["hand/1"] == 3
    assert isinstance(view["zones"]["deck/0"], int)


# ---------------------------------------------------------------- command line


def test_play_and_simulate_commands():
    runner = CliRunner()
    result = runner.invoke(main, ["play", str(RULES), "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Player 1 plays Knights.\nPlayer 2 plays Rush.\n"
                                     "A game of Duel for 2 players (seed 3)")
    assert "== Player" in result.output
    sim = runner.invoke(main, ["simulate", str(RULES), "-n", "30", "--seed", "1",
                               "--format", "json"])
    assert sim.exit_code == 0, sim.output
    report = json.loads(sim.output)
    assert report["games"] == 30 and report["errors"] == 0
    assert sum(report["wins"].values()) + report["draws"] == 30
    # how the games ended, players' numbers left out: every game counted once
    assert sum(report["endings"].values()) == 30
    assert all(e.startswith(("win: ", "draw: ")) and "player 1" not in e
               and "player 2" not in e for e in report["endings"])
    again = runner.invoke(main, ["simulate", str(RULES), "-n", "30", "--seed", "1",
                                 "--format", "json"])
    assert again.output == sim.output


def test_a_game_without_a_turn_structure_cannot_be_played_yet(tmp_path):
    import shutil

    root = tmp_path / "game"
    (root / "rules").mkdir(parents=True)
    vocabulary = RULES.read_text().split("# ---- Play")[0]
    (root / "rules" / "duel.rules").write_text(vocabulary)
    shutil.copytree(ROOT / "cards" / "duel", root / "cards" / "duel")
    result = CliRunner().invoke(main, ["play", str(root / "rules" / "duel.rules")])
    assert result.exit_code == 2
    assert "E802 duel declares no turn structure yet" in result.output


# ---------------------------------------------------------------- activated and continuous


def board(match, player, *names):
    from interpreter.engine import operations as op

    state = match.state
    ids = []
    for name in names:
        card = next(c.id for c in state.cards if c.name == name and c.owner == player
                    and c.zone[0] == "deck")
        op.move(state, card, ("board", player), face_up=True)
        ids.append(card)
    return ids


def with_cards(duel, seed=21):
    """A game in a Main phase whose hand-made deck holds Banner and Trainer."""
    game, compiled = duel
    deck = make_deck("Drill", *((2, n) for n in (
        "Banner", "Trainer", "Knight", "Squire", "Giant", "Scholar", "Sage", "Spy")))
    return Match.start(compiled, [deck, deck], seed)


def test_a_continuous_ability_adds_to_the_stats_it_names(duel):
    from interpreter.engine import Machine

    match = with_cards(duel)
    player = match.current_player()
    banner, knight = board(match, player, "Banner", "Knight")
    machine = Machine(match.game, match.state)
    assert machine.stat(knight, "power") == 3        # 2 printed + 1 from Banner
    assert machine.stat(banner, "power") == 0        # "each other Creature"
    rival_knight, = board(match, 1 - player, "Knight")
    assert machine.stat(rival_knight, "power") == 2  # only Creatures you control
    from interpreter.engine import operations as op
    op.move(match.state, banner, ("graveyard", player))
    assert machine.stat(knight, "power") == 2        # gone with its card


def test_an_activated_ability_pays_first_lasts_the_turn_and_is_once_per_turn(duel):
    match = with_cards(duel)
    player = match.current_player()
    trainer, = board(match, player, "Trainer")
    match.state.player_counters[player]["Mana"] = 3
    match.state.decision = None
    from interpreter.engine import Machine
    Machine(match.game, match.state).run()
    label = f"use DRILL of Trainer #{trainer}"
    assert label in [match.action_to_string(a) for a in match.legal_actions()]
    choose(match, label)
    assert match.state.counter(player, "Mana") == 2
    machine = Machine(match.game, match.state)
    assert machine.stat(trainer, "power") == 3
    # once per turn: not offered again this turn, though Mana is left
    assert label not in [match.action_to_string(a) for a in match.legal_actions()]
    turn = match.state.turn
    while match.state.turn == turn:
        choose(match, "pass") if "pass" in [match.action_to_string(a)
                                            for a in match.legal_actions()] else \
            match.apply_action(match.legal_actions()[-1])
    assert Machine(match.game, match.state).stat(trainer, "power") == 1   # it ended


# ---------------------------------------------------------------- period and player triggers


def test_at_the_start_of_your_turn_triggers_only_on_your_turns(duel):
    match = with_cards(duel, seed=23)
    player = match.current_player()
    rival = 1 - player
    board(match, player, "Sage")
    board(match, rival, "Spy")
    start = len(match.state.log)
    rival_mana = match.state.counter(rival, "Mana")
    # everyone passes: the rest of this turn, the rival's turn, then ours
    while match.state.turn_player == player:
        match.apply_action(match.legal_actions()[-1])
    while match.state.turn_player != player:
        match.apply_action(match.legal_actions()[-1])
    log = match.state.log[start:]
    turn_starts = [i for i, e in enumerate(log) if e[0] == "turn"]
    rivals_turn = log[turn_starts[0]:turn_starts[1]]
    our_turn = log[turn_starts[1]:]
    draws = lambda events, who: [e for e in events
                                 if e[:2] == ("event", "drawn") and e[3] == who]
    # Sage: nothing on the rival's turn; on ours, the Upkeep draw and Sage's
    assert draws(rivals_turn, player) == []
    assert len(draws(our_turn, player)) == 2
    resolved_sage = [e for e in our_turn if e[0] == "event" and e[1] == "drawn"]
    assert resolved_sage
    # Spy: the rival gains 1 Mana for each card the player draws
    player_draws = len(draws(log, player))
    rival_upkeeps = 1
    assert match.state.counter(rival, "Mana") == rival_mana + rival_upkeeps + player_draws


# ---------------------------------------------------------------- alternating actions


def test_players_alternate_actions_until_all_pass_in_a_row():
    game = load_game("relay", ROOT)
    compiled = compile_game(game)
    match = Match.start(compiled, [game.decks[0], game.decks[1]], 2)
    first = match.state.turn_player
    deciders = []
    while match.state.turn == 1:
        deciders.append(match.current_player())
        match.apply_action(match.legal_actions()[-1] if len(deciders) > 2 else 0)
    # one action each in turn, the turn player first
    assert deciders[:4] == [first, 1 - first, first, 1 - first]
    main = [e for e in match.state.log if e[0] in ("action", "pass")]
    # the phase ends after both players passed in a row
    assert [e[0] for e in main[-2:]] == ["pass", "pass"]
    assert {main[-1][1], main[-2][1]} == {0, 1}


# ---------------------------------------------------------------- keywords


def test_keywords_mark_cards_and_defined_keywords_work_as_their_text(duel):
    game, compiled = duel
    from interpreter.engine import Machine
    deck = make_deck("Walls", (2, "Wall"), (2, "Captain"), (8, "Squire"))
    match = Match.start(compiled, [deck, deck], 3)
    player = match.current_player()
    wall, captain = board(match, player, "Wall", "Captain")
    machine = Machine(compiled, match.state)
    assert machine.has_keyword(wall, "Guard") and not machine.has_keyword(captain, "Guard")
    # 0 printed, +1 from its own Tough (defined as ALWAYS: This gets +1 power.),
    # +1 from the Captain (Creatures with Guard)
    assert machine.stat(wall, "power") == 2
    assert machine.stat(captain, "power") == 1


# ---------------------------------------------------------------- replacements


def test_instead_replaces_the_event(duel):
    game, compiled = duel
    deck = make_deck("Birds", (2, "Phoenix"), (10, "Squire"))
    match = Match.start(compiled, [deck, deck], 5)
    player = match.current_player()
    phoenix, squire = board(match, player, "Phoenix", "Squire")
    match.state.decision = None
    from interpreter.engine import Machine
    Machine(compiled, match.state).run()
    choose(match, f"sacrifice Phoenix #{phoenix}")
    assert match.state.cards[phoenix].zone == ("hand", player)     # returned instead
    assert not any(e[:3] == ("event", "destroyed", phoenix) for e in match.state.log)
    assert any(e[:3] == ("replace", "destroyed", phoenix) for e in match.state.log)
    Machine(compiled, match.state).destroy(squire)                  # no replacement
    assert match.state.cards[squire].zone == ("graveyard", player)


def test_an_action_limited_once_per_turn(duel):
    match = start(duel, seed=12)
    player = match.current_player()
    first, second = board(match, player, "Squire", "Squire")
    match.state.decision = None
    from interpreter.engine import Machine
    Machine(match.game, match.state).run()
    choose(match, f"sacrifice Squire #{first}")
    labels = [match.action_to_string(a) for a in match.legal_actions()]
    assert not any(l.startswith("sacrifice") for l in labels), labels


# ---------------------------------------------------------------- game verbs


def test_a_game_verb_runs_its_definition_with_its_slots_filled(duel):
    game, compiled = duel
    deck = make_deck("Verbs", (2, "Quartermaster"), (2, "Tactician"), (8, "Squire"))
    match = Match.start(compiled, [deck, deck], 4)
    player = match.current_player()
    quartermaster = give(match, player, "Quartermaster", 5)
    size = len(hand(match, player))
    drawn = sum(1 for e in match.state.log if e[:2] == ("event", "drawn") and e[3] == player)
    choose(match, f"cast Quartermaster #{quartermaster}")
    # Muster 2: draw 2 cards, then discard a card
    assert match.state.decision.prompt == "discard a card"
    match.apply_action(0)
    assert sum(1 for e in match.state.log
               if e[:2] == ("event", "drawn") and e[3] == player) == drawn + 2
    assert len(hand(match, player)) == size - 1 + 2 - 1


def test_an_optional_game_verb_with_a_card_slot(duel):
    game, compiled = duel
    deck = make_deck("Verbs", (2, "Tactician"), (10, "Squire"))
    match = Match.start(compiled, [deck, deck], 4)
    player = match.current_player()
    rival_squire, = board(match, 1 - player, "Squire")
    tactician = give(match, player, "Tactician", 5)
    choose(match, f"cast Tactician #{tactician}")
    assert match.state.decision.kind == "yes-no"
    choose(match, "yes")
    assert match.state.cards[rival_squire].zone == ("hand", 1 - player)


def test_a_secret_value_is_hidden_from_the_others_until_revealed(duel):
    """value Guess: per player, secret — Oracle: "Each player secretly
    chooses their Guess from 0 to 3. Each player reveals their Guess. ..." """
    game, compiled = duel
    deck = make_deck("oracles", (12, "Oracle"))
    match = Match.start(compiled, [deck, deck], 3)
    player = match.current_player()
    other = 1 - player
    match.apply_action(option_starting(match, "cast Oracle"))
    choose(match, "2")                        # the first player's Guess, in secret
    assert match.current_player() == other    # now the other chooses theirs
    assert match.observation(other)["counters"][player]["Guess"] is None
    assert match.observation(player)["counters"][player]["Guess"] == 2
    assert match.narration(viewer=other)[-1].endswith("chooses their Guess in secret.")
    choose(match, "1")
    assert match.observation(other)["counters"][player]["Guess"] == 2   # revealed
    assert any(e[0] == "revealed value" and e[1:] == (player, "Guess", 2)
               for e in match.state.log)


# (Saturday Wars declares no per-period limit: no action "limit:", no "once per")
@pytest.mark.parametrize("game_id", ["ryft", "silver-wing-rivals", "rival-rush"])
def test_per_period_limits_are_typed_and_survive_json(game_id):
    """What limits count is a typed key (ability, trigger, action, exchange
    uses), never a string built from pieces; a JSON copy keeps the keys'
    types, so a restored game offers exactly what the original does."""
    game = load_game(game_id)
    compiled = compile_game(game)
    match = Match.start(compiled, [game.decks[0], game.decks[1]], seed=5)
    rng = Random(5)
    for _ in range(60):
        if match.is_terminal():
            break
        match.apply_action(rng.choice(match.legal_actions()))
    assert match.state.limits, "60 random decisions used no limited action"
    assert all(type(key).__name__.endswith("Use") for key in match.state.limits)
    restored = GameState.from_json(json.loads(json.dumps(match.state.to_json())))
    assert restored.limits == match.state.limits
    assert [type(k) for k in restored.limits] == [type(k) for k in match.state.limits]
    assert Match(compiled, restored).legal_actions() == match.legal_actions()


@pytest.mark.parametrize("game_id", ["ryft", "rival-rush"])
def test_uses_of_past_periods_are_forgotten(game_id):
    """A limit counts uses in the current occurrence of its period only, so
    the uses of a past turn or step are dropped when the next one begins:
    the state does not grow all game (a long Rival Rush game once carried
    thousands of them into every clone)."""
    game = load_game(game_id)
    compiled = compile_game(game)
    match = Match.start(compiled, [game.decks[0], game.decks[1]], seed=5)
    rng = Random(5)
    counted = 0
    for _ in range(600):
        if match.is_terminal():
            break
        match.apply_action(rng.choice(match.legal_actions()))
        counted += bool(match.state.limits)
        counts = match.state.period_counts
        assert all(key.count == counts.get(key.period, 0) for key in match.state.limits)
    assert counted > 20, "the random decisions used almost no limited action"


def test_observation_gives_the_cards_seen_as_records_and_hides_the_rest(duel):
    # issue "Playtesting": a structured view for the terminal, bots and JSON
    match = start(duel, seed=1)
    view = match.observation(0)
    mine = view["cards"]["hand/0"]
    assert [c["name"] for c in mine] == view["zones"]["hand/0"]
    assert all(set(c) == {"id", "name", "face_up", "stats", "statuses", "counters", "slot",
                          "attached_to", "relations"} for c in mine)
    assert all(c["relations"] == {} for c in mine)       # no card in hand is blocking
    assert all(isinstance(c["stats"]["cost"], int) for c in mine)
    # the other hand and the decks: counted in "zones", never in "cards"
    assert "hand/1" not in view["cards"] and "deck/0" not in view["cards"]
    assert view["period"]["phase"] == "Main" and view["stack"] == []
    records = view["decision"]["records"]
    assert [r["label"] for r in records] == view["decision"]["options"]
    named = [r for r in records if r["cards"]]
    assert named and all(match.state.cards[r["cards"][0]].name in r["label"] for r in named)
    assert match.observation(1)["decision"] is None
    json.dumps(view)          # plain data
