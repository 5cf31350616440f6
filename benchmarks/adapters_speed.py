"""The RL adapters' speed: random play's steps per second, per game, through
the raw step API (``Match``), the PettingZoo environment (an observation
encoded and a mask made at every step) and OpenSpiel (``apply_action`` on a
registered game; observations only when asked, as here they are not).

    python benchmarks/adapters_speed.py [GAME ...] [--seconds S]

Without games: every shipped game. Needs the rl extra (numpy, pettingzoo,
gymnasium; open-spiel for its column).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from interpreter.adapters.games import game_setting  # noqa: E402
from interpreter.adapters.pettingzoo import CardrulesEnv  # noqa: E402
from interpreter.engine import Match  # noqa: E402
from interpreter.language.games import shipped_games  # noqa: E402

try:
    import pyspiel

    import interpreter.adapters.openspiel  # noqa: F401  (registers the games)
except ImportError:
    pyspiel = None


def raw_rate(setting, seconds: float) -> float:
    rng = np.random.default_rng(0)
    steps, seed, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        match = Match.start(setting.compiled, setting.decks, seed)
        while not match.is_terminal() and time.perf_counter() - start < seconds:
            match.apply_action(int(rng.choice(match.legal_actions())))
            steps += 1
        seed += 1
    return steps / (time.perf_counter() - start)


def pettingzoo_rate(setting, seconds: float) -> float:
    env = CardrulesEnv(setting, seed=0)
    rng = np.random.default_rng(0)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset()
        for _agent in env.agent_iter():
            observation, _r, termination, truncation, _i = env.last()
            if termination or truncation:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
            if time.perf_counter() - start >= seconds:
                break
    return steps / (time.perf_counter() - start)


def openspiel_rate(game_id: str, seconds: float) -> float:
    game = pyspiel.load_game(f"cardrules_{game_id.replace('-', '_')}")
    rng = np.random.default_rng(0)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal() and time.perf_counter() - start < seconds:
            state.apply_action(int(rng.choice(state.legal_actions())))
            steps += 1
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*")
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    print(f"{'game':20} {'step API':>10} {'PettingZoo':>11} {'OpenSpiel':>10}  (steps/s)")
    for game_id in args.games or shipped_games():
        setting = game_setting(game_id)
        raw = raw_rate(setting, args.seconds)
        zoo = pettingzoo_rate(setting, args.seconds)
        spiel = f"{openspiel_rate(game_id, args.seconds):10,.0f}" if pyspiel else "   skipped"
        print(f"{game_id:20} {raw:10,.0f} {zoo:11,.0f} {spiel}")


if __name__ == "__main__":
    main()
