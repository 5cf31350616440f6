"""Agent strength: the search agent against random and against greedy, from
both seats, in each game named.

    python benchmarks/agents_strength.py GAME... [--games N] [--agent search:60]
                                         [--seed S] [--workers W] [--cap D]
                                         [--against random,greedy] [--out FILE.jsonl]
    python benchmarks/agents_strength.py --table FILE.jsonl...

For every game, opponent (random, greedy) and seat of the searching agent
(1, 2), N games (game i: seed S + i, the shipped decks in turn as
``simulate`` deals them); the table gives wins/draws/losses of the agent,
its win rate with a 95% Wilson interval, and its seconds per decision (all
its decisions, and those it searched: more than one option). A game longer
than D decisions ends as a draw. Target (issue 21): at least 80% against
random in every game from both seats, and more than 50% against greedy.

A full table is hours of play, so ``--out`` appends each game to a JSON
lines file as it finishes and a run given the same file plays only the
games it lacks: stop it and start it again, and it goes on. The games run
index by index across the rows (game 0 of every row, then game 1, ...), so
a run stopped early leaves every row about equally filled. ``--table``
prints the table of such files without playing.
"""

from __future__ import annotations

import argparse
import functools
import json
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
    return {"game": game, "agent": agent_spec, "against": opponent, "seat": seat + 1,
            "seed": seed + index, "cap": cap, "outcome": outcome, "how": result[-1],
            "seconds": round(searching.seconds, 3), "decisions": searching.decisions,
            "searched": searched}


def record_key(record: dict) -> tuple:
    """What makes two records the same game."""
    return (record["game"], record["agent"], record["against"], record["seat"],
            record["seed"], record["cap"])


def read_records(paths) -> list[dict]:
    """The games recorded in JSON lines files (a line cut short by a stopped
    run is skipped: that game is played again; a game in several files is
    counted once)."""
    records = {}
    for path in paths:
        if not Path(path).exists():
            continue
        for line in Path(path).read_text().splitlines():
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                continue
            records.setdefault(record_key(record), record)
    return list(records.values())


def print_table(records: list[dict], markdown: bool = False) -> None:
    """Wins, draws and losses per game, agent, opponent and seat (as a
    Markdown table with ``markdown``, for the docs)."""
    table: dict[tuple, dict] = {}
    for record in records:
        row = table.setdefault(
            (record["game"], record["agent"], record["against"], record["seat"]),
            {"win": 0, "draw": 0, "loss": 0, "seconds": 0.0, "decisions": 0,
             "searched": 0, "seeds": set()})
        row[record["outcome"]] += 1
        row["seconds"] += record["seconds"]
        row["decisions"] += record["decisions"]
        row["searched"] += record["searched"]
        row["seeds"].add(record["seed"])
    if markdown:
        print("| game | against | seat | won-drawn-lost | win rate | 95% interval | seeds "
              "| s/decision |")
        print("|---|---|---|---|---|---|---|---|")
        for (game, _agent, opponent, seat), row in sorted(table.items()):
            games = row["win"] + row["draw"] + row["loss"]
            low, high = wilson(row["win"], games)
            print(f"| {game} | {opponent} | {seat} | {row['win']}-{row['draw']}-{row['loss']} "
                  f"| {row['win'] / games:.0%} | {low:.0%}-{high:.0%} "
                  f"| {min(row['seeds'])}-{max(row['seeds'])} "
                  f"| {row['seconds'] / max(row['decisions'], 1):.3f} |")
        return
    print(f"{'game':20} {'agent':10} {'against':8} {'seat':>4} {'W':>4} {'D':>4} {'L':>4} "
          f"{'win rate':>8}  {'95% interval':13} {'seeds':>9} {'s/decision':>10} "
          f"{'s/searched':>10}")
    for (game, agent, opponent, seat), row in sorted(table.items()):
        games = row["win"] + row["draw"] + row["loss"]
        low, high = wilson(row["win"], games)
        per = row["seconds"] / max(row["decisions"], 1)
        per_searched = row["seconds"] / max(row["searched"], 1)
        seeds = f"{min(row['seeds'])}-{max(row['seeds'])}"
        print(f"{game:20} {agent:10} {opponent:8} {seat:>4} {row['win']:>4} {row['draw']:>4} "
              f"{row['loss']:>4} {row['win'] / games:>8.0%}  [{low:.0%}, {high:.0%}]"
              f"{'':>3} {seeds:>9} {per:>10.3f} {per_searched:>10.3f}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", metavar="GAME")
    parser.add_argument("--games", dest="count", type=int, default=20)
    parser.add_argument("--agent", default="search")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--cap", type=int, default=3000)
    parser.add_argument("--against", default=",".join(OPPONENTS))
    parser.add_argument("--out", metavar="FILE.jsonl",
                        help="append each game here; games already in it are not played again")
    parser.add_argument("--table", nargs="+", metavar="FILE.jsonl",
                        help="print the table of recorded games and play none")
    parser.add_argument("--markdown", action="store_true",
                        help="print the table as Markdown (for the docs)")
    args = parser.parse_args(argv)
    if args.table:
        print_table(read_records(args.table), args.markdown)
        return 0
    if not args.games:
        parser.error("name at least one game (or --table FILE)")
    done = {record_key(record) for record in read_records([args.out] if args.out else [])}
    jobs = [(game, args.agent, opponent, seat, i, args.seed, args.cap)
            for i in range(args.count) for game in args.games
            for opponent in args.against.split(",") for seat in (0, 1)]
    jobs = [job for job in jobs
            if (job[0], job[1], job[2], job[3] + 1, job[5] + job[4], job[6]) not in done]
    started = time.perf_counter()
    results = []
    out = open(args.out, "a") if args.out else None
    try:
        if args.workers > 1:
            with multiprocessing.Pool(args.workers) as pool:
                for record in pool.imap(play_one, jobs, chunksize=1):
                    results.append(_keep(record, out))
        else:
            for job in jobs:
                results.append(_keep(play_one(job), out))
    finally:
        if out is not None:
            out.close()
    print(f"{args.agent} against {args.against}, {args.count} games per row "
          f"(seeds {args.seed}..{args.seed + args.count - 1}), {len(jobs)} played in "
          f"{time.perf_counter() - started:.0f} s")
    print_table(read_records([args.out]) if args.out else results)
    return 0


def _keep(record: dict, out) -> dict:
    """Append one finished game to the record file at once, so that a run
    stopped midway keeps every game it finished."""
    if out is not None:
        out.write(json.dumps(record, sort_keys=True) + "\n")
        out.flush()
    return record


if __name__ == "__main__":
    sys.exit(main())
