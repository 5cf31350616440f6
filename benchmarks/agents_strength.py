"""Agent strength: the search agent against random and against greedy, from
both seats, in each game named.

    python benchmarks/agents_strength.py GAME... [--games N] [--agent search:60]
                                         [--seed S] [--workers W] [--cap D]

For every game, opponent (random, greedy) and seat of the searching agent
(1, 2), N games (game i: seed S + i, the shipped decks in turn as
``simulate`` deals them); the table gives wins/draws/losses of the agent,
its win rate with a 95% Wilson interval, and its seconds per decision (all
its decisions, and those it searched: more than one option). A game longer
than D decisions ends as a draw. Target (issue 21): at least 80% against
random in every game from both seats, and more than 50% against greedy.
"""

from __future__ import annotations

import argparse
import functools
import math
import multiprocessing
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.agents import agent_named, play_out  # noqa: E402
from interpreter.cli.common import load_playable  # noqa: E402
from interpreter.engine import Match  # noqa: E402

OPPONENTS = ("random", "greedy")


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 1.0
    rate = wins / games
    centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / (
        1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


class Timed:
    """An agent whose time per decision is measured."""

    def __init__(self, agent):
        self.agent = agent
        self.seconds = 0.0
        self.decisions = 0

    def act(self, match):
        start = time.perf_counter()
        try:
            return self.agent.act(match)
        finally:
            self.seconds += time.perf_counter() - start
            self.decisions += 1


@functools.lru_cache(maxsize=None)
def _playable(game: str):
    """A game loaded and compiled once per process."""
    return load_playable(game, None)


def play_one(job: tuple) -> tuple:
    """One game: (game, opponent, seat, index) -> the agent's result and times."""
    game, agent_spec, opponent, seat, index, seed, cap = job
    playable = _playable(game)
    decks = playable.seats(index)
    match = Match.start(playable.compiled, decks, seed + index)
    searching = Timed(agent_named(agent_spec, 1000 * (seed + index) + seat))
    other = agent_named(opponent, 1000 * (seed + index) + 1 - seat)
    agents = [searching, other] if seat == 0 else [other, searching]
    play_out(match, agents, max_decisions=cap)
    result = match.state.result
    outcome = "draw" if result[0] == "draw" else ("win" if result[1] == seat else "loss")
    searched = getattr(searching.agent, "searched", searching.decisions)
    return (game, opponent, seat, outcome, searching.seconds, searching.decisions, searched)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="+", metavar="GAME")
    parser.add_argument("--games", dest="count", type=int, default=20)
    parser.add_argument("--agent", default="search")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--cap", type=int, default=3000)
    parser.add_argument("--against", default=",".join(OPPONENTS))
    args = parser.parse_args(argv)
    jobs = [(game, args.agent, opponent, seat, i, args.seed, args.cap)
            for game in args.games for opponent in args.against.split(",")
            for seat in (0, 1) for i in range(args.count)]
    started = time.perf_counter()
    if args.workers > 1:
        with multiprocessing.Pool(args.workers) as pool:
            results = pool.map(play_one, jobs, chunksize=1)
    else:
        results = [play_one(job) for job in jobs]
    table: dict[tuple, dict] = {}
    for game, opponent, seat, outcome, seconds, decisions, searched in results:
        row = table.setdefault((game, opponent, seat), {
            "win": 0, "draw": 0, "loss": 0, "seconds": 0.0, "decisions": 0, "searched": 0})
        row[outcome] += 1
        row["seconds"] += seconds
        row["decisions"] += decisions
        row["searched"] += searched
    print(f"{args.agent} against {args.against}, {args.count} games per row "
          f"(seeds {args.seed}..{args.seed + args.count - 1}), "
          f"{time.perf_counter() - started:.0f} s in all")
    print(f"{'game':20} {'against':8} {'seat':>4} {'W':>4} {'D':>4} {'L':>4} "
          f"{'win rate':>8}  {'95% interval':13} {'s/decision':>10} {'s/searched':>10}")
    for (game, opponent, seat), row in table.items():
        games = row["win"] + row["draw"] + row["loss"]
        low, high = wilson(row["win"], games)
        per = row["seconds"] / max(row["decisions"], 1)
        per_searched = row["seconds"] / max(row["searched"], 1)
        print(f"{game:20} {opponent:8} {seat + 1:>4} {row['win']:>4} {row['draw']:>4} "
              f"{row['loss']:>4} {row['win'] / games:>8.0%}  [{low:.0%}, {high:.0%}]"
              f"{'':>3} {per:>10.3f} {per_searched:>10.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
