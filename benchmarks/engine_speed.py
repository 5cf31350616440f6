"""Engine speed: random-play decisions per second, and clone() against
copy.deepcopy of the same mid-game state.

    python benchmarks/engine_speed.py [GAME-OR-RULES-FILE ...]

Without arguments it measures every shipped game that can be played and the
Duel fixture game (tests/fixtures/engine). Targets (issue 3, one core):
at least 15,000 decisions/s, and clone() at least 20x faster than deepcopy.
"""

from __future__ import annotations

import copy
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.agents import RandomAgent  # noqa: E402
from interpreter.engine import Match, compile_game  # noqa: E402
from interpreter.errors import CardrulesError  # noqa: E402
from interpreter.language.games import load_game, shipped_games  # noqa: E402

TARGET_RATE = 15_000
TARGET_CLONE = 20
SECONDS = 3.0


def load(target: str):
    path = Path(target)
    if path.suffix == ".rules":
        game = load_game(path.stem, path.resolve().parent.parent)
    else:
        game = load_game(target)
    return game, compile_game(game)


def decisions_per_second(game, compiled) -> tuple[float, int, int]:
    decks = [game.decks[i % len(game.decks)] for i in range(game.rules.players_min)]
    decisions = games = 0
    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < SECONDS:
        match = Match.start(compiled, decks, seed)
        agents = [RandomAgent(seed * 10 + i) for i in range(len(decks))]
        while not match.is_terminal():
            match.apply_action(agents[match.current_player()].act(match))
            decisions += 1
        games += 1
        seed += 1
    return decisions / (time.perf_counter() - start), decisions, games


def clone_speed(game, compiled) -> tuple[float, float]:
    decks = [game.decks[i % len(game.decks)] for i in range(game.rules.players_min)]
    match = Match.start(compiled, decks, 1)
    agents = [RandomAgent(10), RandomAgent(11)]
    for _ in range(20):
        if match.is_terminal():
            break
        match.apply_action(agents[match.current_player() % 2].act(match))
    state = match.state
    n = 2000
    start = time.perf_counter()
    for _ in range(n):
        state.clone()
    clone_time = (time.perf_counter() - start) / n
    m = 200
    start = time.perf_counter()
    for _ in range(m):
        copy.deepcopy(state)
    deep_time = (time.perf_counter() - start) / m
    return clone_time, deep_time


def main(argv: list[str]) -> int:
    try:
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
        where = "pinned to one core"
    except (AttributeError, OSError):
        where = "single process"
    targets = argv or [*shipped_games(), str(ROOT / "tests/fixtures/engine/rules/duel.rules")]
    print(f"engine_speed ({where}); targets: >= {TARGET_RATE:,} decisions/s, "
          f"clone >= {TARGET_CLONE}x deepcopy")
    print(f"{'game':<22} {'decisions/s':>12} {'games':>6} {'clone us':>9} "
          f"{'deepcopy us':>12} {'ratio':>6}")
    for target in targets:
        name = Path(target).stem
        try:
            game, compiled = load(target)
        except CardrulesError as err:
            print(f"{name:<22} not playable yet: {err.first.message}")
            continue
        rate, decisions, games = decisions_per_second(game, compiled)
        clone_t, deep_t = clone_speed(game, compiled)
        ratio = deep_t / clone_t
        print(f"{name:<22} {rate:>12,.0f} {games:>6} {clone_t * 1e6:>9.1f} "
              f"{deep_t * 1e6:>12.1f} {ratio:>5.0f}x  "
              f"[{'MET' if rate >= TARGET_RATE else 'NOT MET'} / "
              f"{'MET' if ratio >= TARGET_CLONE else 'NOT MET'}]")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
