"""The RL adapters (issue 23, docs/rl.md): PettingZoo's api_test and
OpenSpiel's random simulation for every shipped game, the observation hides
what the player may not see, the action mask is the legal actions, a seed
gives the same game, and the documented examples run."""

from __future__ import annotations

import re
import runpy
from pathlib import Path

import pytest

np = pytest.importorskip("numpy", reason="the rl extra is not installed")
pytest.importorskip("pettingzoo", reason="the rl extra is not installed")

from pettingzoo.test import api_test  # noqa: E402

from interpreter.adapters.encoding import action_bound, deck_size  # noqa: E402
from interpreter.adapters.games import game_setting  # noqa: E402
from interpreter.adapters.pettingzoo import env as make_env  # noqa: E402
from interpreter.engine import Match  # noqa: E402
from interpreter.errors import CardrulesError, CouldNotRun  # noqa: E402
from interpreter.language.games import shipped_games  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
GAMES = shipped_games()


def test_six_games_ship():
    assert len(GAMES) == 6


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_api_test_passes(game):
    api_test(make_env(game, seed=3, max_decisions=60), num_cycles=40)


def _random_steps(env, seed: int, steps: int):
    """Plays ``steps`` masked random actions; yields (agent, observation) before each."""
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        agent = env.agent_selection
        observation, _reward, termination, truncation, _info = env.last()
        if termination or truncation:
            env.step(None)
            if not env.agents:
                return
            continue
        yield agent, observation
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))


def test_the_action_mask_is_the_legal_actions_of_the_agent_to_act():
    env = make_env("ryft", seed=5)
    env.reset()
    seen = 0
    for agent, observation in _random_steps(env, 5, 5000):
        match = env.match
        legal = match.legal_actions()
        assert list(np.flatnonzero(observation["action_mask"])) == legal
        assert agent == f"player_{match.current_player()}"
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        seen += 1
    assert env.agents == [] and env.match.is_terminal()     # played to the end
    assert seen == sum(1 for line in env.match.state.log if type(line).__name__ == "Chose")


def test_spaces_are_sized_from_the_game_and_decks():
    env = make_env("ryft", decks=("Ryft Mill: Deck Virus",))
    rules = env.setting.compiled.rules
    cards = sum(deck_size(d) for d in env.setting.decks)
    assert env.action_space("player_0").n == (cards + 1) * (len(rules.actions) + 1) + 1
    assert env.action_space("player_0").n == action_bound(rules, env.setting.decks)
    env.reset()
    observation = env.observe("player_0")
    assert env.observation_space("player_0").contains(observation)


def _hands(mine, theirs):
    return {("hand", 0): [(n, ()) for n in mine], ("hand", 1): [(n, ()) for n in theirs],
            ("deck", 0): [("Cinderpup", ())] * 5, ("deck", 1): [("Cinderpup", ())] * 5}


def test_the_observation_never_shows_another_players_hand():
    setting = game_setting("ryft")
    encoder = setting.encoder

    def position(theirs):
        return Match.from_position(setting.compiled, 2, 1, _hands(["Cinderpup"], theirs),
                                   {}, 1, 0, "Summon Stage")
    one = position(["Blazefang Wyvern", "Riptide Serpent"])
    other = position(["Tidecaller Nymph", "Cinderpup"])
    # player 0 sees the same: only player 1's hidden cards differ
    assert np.array_equal(encoder.encode(one.observation(0)),
                          encoder.encode(other.observation(0)))
    # player 1 sees their own hand, which differs
    assert not np.array_equal(encoder.encode(one.observation(1)),
                              encoder.encode(other.observation(1)))
    # a hand of another size shows: how many cards a hidden zone has is public
    third = position(["Cinderpup"])
    assert not np.array_equal(encoder.encode(one.observation(0)),
                              encoder.encode(third.observation(0)))


def test_a_seed_gives_the_same_game_and_observations():
    def run(seed):
        env = make_env("pocket-league", seed=seed)
        env.reset()
        out = [obs["observation"].tobytes() for _a, obs in _random_steps(env, 1, 80)]
        return out, env.match.log_digest()
    assert run(11) == run(11)
    assert run(11)[1] != run(12)[1]


def test_a_decision_beyond_the_action_space_is_refused_not_cut():
    env = make_env("ryft", seed=5, max_options=2)
    env.reset()
    with pytest.raises(CardrulesError) as err:
        for _agent, _observation in _random_steps(env, 5, 400):
            pass
    assert err.value.problems[0].code == "E860"
    assert "more than the 2 actions" in err.value.problems[0].message


def test_user_mistakes_are_problems_with_codes():
    with pytest.raises(CouldNotRun) as err:
        make_env("ryft", decks=("Ryft Mill",))
    assert err.value.problems[0].code == "E810"
    assert err.value.problems[0].suggestion == 'did you mean "Ryft Mill: Deck Virus"?'
    with pytest.raises(CouldNotRun) as err:
        make_env("no-such-game")
    assert err.value.problems[0].code == "E902"
    with pytest.raises(CouldNotRun) as err:
        make_env("ryft", max_options=1)
    assert err.value.problems[0].code == "E862"


# ---- OpenSpiel

def _pyspiel():
    return pytest.importorskip("pyspiel", reason="open-spiel does not install here")


@pytest.mark.parametrize("game", GAMES)
def test_openspiel_random_simulation_passes(game):
    pyspiel = _pyspiel()
    import interpreter.adapters.openspiel  # noqa: F401  (registers the games)
    loaded = pyspiel.load_game(f"cardrules_{game.replace('-', '_')}",
                               {"seed": 2, "max_decisions": 50})
    assert loaded.get_type().chance_mode == \
        pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    pyspiel.random_sim_test(loaded, num_sims=1, serialize=False, verbose=False)


def test_openspiel_tensors_are_the_pettingzoo_encoding_and_seeds_repeat():
    pyspiel = _pyspiel()
    import interpreter.adapters.openspiel  # noqa: F401
    env = make_env("pocket-league", seed=4)
    env.reset()
    game = pyspiel.load_game("cardrules_pocket_league", {"seed": 4})
    state = game.new_initial_state()
    player = state.current_player()
    assert np.array_equal(np.asarray(state.observation_tensor(player), dtype=np.float32),
                          env.observe(f"player_{player}")["observation"])
    assert game.num_distinct_actions() == env.action_space("player_0").n

    def play(seed):
        state = pyspiel.load_game("cardrules_pocket_league", {"seed": seed}).new_initial_state()
        for _ in range(40):
            state.apply_action(state.legal_actions()[-1])
        return str(state)
    assert play(9) == play(9) != play(10)
    clone = state.clone()           # a clone plays on without touching the original
    clone.apply_action(clone.legal_actions()[0])
    assert clone.history() != state.history()


# ---- the documented examples

@pytest.mark.parametrize("example", ["pettingzoo_random.py", "openspiel_random.py"])
def test_the_documented_examples_are_the_files_and_run(example, capsys):
    if example.startswith("openspiel"):
        _pyspiel()
    code = (ROOT / "examples" / example).read_text(encoding="utf-8")
    doc = (ROOT / "docs" / "rl.md").read_text(encoding="utf-8")
    assert code.strip() in [block.strip() for block in
                            re.findall(r"```python\n(.*?)```", doc, re.S)]
    runpy.run_path(str(ROOT / "examples" / example), run_name="__main__")
    printed = capsys.readouterr().out
    if example.startswith("pettingzoo"):
        assert sorted(printed.split()) == sorted(["player_0", "player_1", "1.0", "-1.0"])
    else:
        assert re.match(r"\[(1\.0, -1\.0|-1\.0, 1\.0)\] \d+ \d+", printed)
