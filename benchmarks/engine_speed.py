"""Engine speed: random-play decisions per second, against RLCard's
hand-written Gin Rummy and UNO measured in the same run on the same core,
and clone() against copy.deepcopy of the same state early, mid and late in
a game.

    python benchmarks/engine_speed.py [GAME-OR-RULES-FILE ...]

Without arguments it measures every shipped game that can be played and the
Duel fixture game (tests/fixtures/engine). Decisions per second are counted
in CPU time of this process (``time.process_time``), the engine's and
RLCard's alike, so that a machine shared with other work gives comparable
figures. RLCard's figures need the
optional ``bench`` extra (``pip install -e '.[bench]'``); without it they
are left out. Targets (issue 20, one core): every game at least 1.5x RLCard
Gin Rummy's decisions/s, the slowest at least 1.0x RLCard UNO; clone() at
least 20x faster than deepcopy at every stage of a game.
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

try:
    import rlcard
    from rlcard.agents import RandomAgent as RLCardRandomAgent
except ImportError:      # the optional "bench" extra
    rlcard = None

TARGET_GIN = 1.5       # x RLCard Gin Rummy's decisions/s, every game
TARGET_UNO = 1.0       # x RLCard UNO's, the slowest game
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
    start = time.process_time()
    seed = 0
    while time.process_time() - start < SECONDS:
        match = Match.start(compiled, decks, seed)
        agents = [RandomAgent(seed * 10 + i) for i in range(len(decks))]
        while not match.is_terminal():
            match.apply_action(agents[match.current_player()].act(match))
            decisions += 1
        games += 1
        seed += 1
    return decisions / (time.process_time() - start), decisions, games


def rlcard_decisions_per_second(env_id: str) -> float:
    """RLCard's random agents playing ``env_id`` (``env.run``, as its own
    examples do): the decisions of every player per second."""
    env = rlcard.make(env_id, config={"seed": 0})
    env.set_agents([RLCardRandomAgent(num_actions=env.num_actions)
                    for _ in range(env.num_players)])
    decisions = 0
    start = time.process_time()
    while time.process_time() - start < SECONDS:
        trajectories, _ = env.run(is_training=False)
        # a player's trajectory alternates states and actions: s a s a ... s
        decisions += sum((len(t) - 1) // 2 for t in trajectories)
    return decisions / (time.process_time() - start)


def clone_speed(game, compiled) -> list[tuple[str, int, float, float]]:
    """(stage, decisions made, clone seconds, deepcopy seconds) early (the
    first decision), mid and late (half and nine tenths of the game's
    length) in one game."""
    decks = [game.decks[i % len(game.decks)] for i in range(game.rules.players_min)]

    def played(upto: int | None):
        match = Match.start(compiled, decks, 1)
        agents = [RandomAgent(10 + i) for i in range(len(decks))]
        made = 0
        while not match.is_terminal() and (upto is None or made < upto):
            match.apply_action(agents[match.current_player()].act(match))
            made += 1
        return match, made

    _, length = played(None)
    out = []
    for stage, upto in (("early", 0), ("mid", length // 2), ("late", length * 9 // 10)):
        state = played(upto)[0].state
        out.append((stage, upto, _per_call(state.clone, 0.3),
                    _per_call(lambda: copy.deepcopy(state), 0.3)))
    return out


def _per_call(call, seconds: float) -> float:
    calls = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        call()
        calls += 1
    return (time.perf_counter() - start) / calls


def main(argv: list[str]) -> int:
    try:
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
        where = "pinned to one core"
    except (AttributeError, OSError):
        where = "single process"
    targets = argv or [*shipped_games(), str(ROOT / "tests/fixtures/engine/rules/duel.rules")]
    print(f"engine_speed ({where}); targets: every game >= {TARGET_GIN}x RLCard Gin Rummy, "
          f"the slowest >= {TARGET_UNO}x RLCard UNO, clone >= {TARGET_CLONE}x deepcopy")
    gin = uno = None
    if rlcard is None:
        print("RLCard not installed (pip install -e '.[bench]'): no comparison")
    else:
        gin, uno = rlcard_decisions_per_second("gin-rummy"), rlcard_decisions_per_second("uno")
        print(f"RLCard gin-rummy {gin:,.0f} decisions/s, uno {uno:,.0f} decisions/s")
    print(f"{'game':<20} {'decisions/s':>12} {'games':>6} {'x gin':>6} {'x uno':>6}   "
          f"clone/deepcopy us (ratio) early, mid, late")
    rates = []
    for target in targets:
        name = Path(target).stem
        try:
            game, compiled = load(target)
        except CardrulesError as err:
            print(f"{name:<20} not playable yet: {err.first.message}")
            continue
        rate, decisions, games = decisions_per_second(game, compiled)
        rates.append(rate)
        stages = clone_speed(game, compiled)
        versus = (f"{rate / gin:>6.2f} {rate / uno:>6.2f}" if gin else f"{'-':>6} {'-':>6}")
        clones = ", ".join(f"{c * 1e6:.0f}/{d * 1e6:.0f} ({d / c:.0f}x)" for _, _, c, d in stages)
        cloned = all(d / c >= TARGET_CLONE for _, _, c, d in stages)
        met = "" if gin is None else \
            f"[gin {'MET' if rate >= TARGET_GIN * gin else 'NOT MET'}] "
        print(f"{name:<20} {rate:>12,.0f} {games:>6} {versus}   {clones} "
              f"{met}[clone {'MET' if cloned else 'NOT MET'}]")
    if gin and rates:
        slowest = min(rates)
        print(f"slowest game {slowest:,.0f} decisions/s = {slowest / uno:.2f}x RLCard UNO "
              f"[{'MET' if slowest >= TARGET_UNO * uno else 'NOT MET'}]")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
