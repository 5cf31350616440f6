"""``simulate`` (many games, their results counted) and ``soak`` (many games,
the engine's invariants checked after every action)."""

from __future__ import annotations

import contextlib
import functools
import json
import os
import sys
import time

import click

from pathlib import Path

import attrs

from interpreter import cluster, reports
from interpreter.agents import DEFAULT_AGENT, agent_named
from interpreter.balance import play_game, summarize
from interpreter.cli.common import (Playable, deck_option, exit_code, interrupted_note,
                                    is_deck_file, is_terminal, load_playable,
                                    loaded_before_fork, parts_done, playable_or_exit,
                                    seed_option, until_interrupted, user_errors)
from interpreter.errors import CouldNotRun, Problem
from interpreter.replays import check_new_file
from interpreter.soak import merge
from interpreter.soak import soak as run_soak


@click.command()
@click.argument("game")
@click.option("-n", "games_count", type=click.IntRange(1), default=100, show_default=True,
              help="How many games.")
@seed_option("Seed of the first game; game i uses seed + i.")
@click.option("--players", type=click.IntRange(1, 8), default=None,
              help="Number of players (default: the game's minimum).")
@deck_option
@click.option("--decks", "matchup_decks", multiple=True, metavar="NAME",
              help="Decks to pair up (repeat it: --decks A --decks B ...): every pair of "
                   "them in both seats, in turn.")
@click.option("--p1", "first_agent", default=DEFAULT_AGENT, show_default=True, metavar="AGENT",
              help="The agent of seat 1 (random, first, greedy, hinted: random with the "
                   "game's agent settings, search[:BUDGET]).")
@click.option("--p2", "other_agent", default=DEFAULT_AGENT, show_default=True, metavar="AGENT",
              help="The agent of seat 2 (and of every later seat).")
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Processes to share the games among (the results do not depend on it).")
@click.option("--backend", type=click.Choice(["local", "ray"]), default="local",
              show_default=True,
              help="ray: the games as tasks of a Ray cluster (the ray extra); the same results.")
@click.option("--address", metavar="ADDR",
              help="The Ray cluster to join (default: start one on this machine).")
@click.option("--format", "output_format", type=click.Choice(["text", "json"]),
              default="text", show_default=True)
@click.option("--out", "out_file", type=click.Path(path_type=Path), metavar="FILE.jsonl",
              help="Write one JSON line per game (seed, decks, agents, result, length, "
                   "cards played, and its replay) to a new file.")
@click.option("--record", "record_file", type=click.Path(path_type=Path), metavar="FILE",
              help="Write every game's replay, one per line, to a new file "
                   "(cardrules replay FILE --seed S prints one).")
@click.option("--report", "report_dir", type=click.Path(path_type=Path), metavar="DIR",
              help="Write the report as a web page with plots to a new folder "
                   "(needs the report extra: matplotlib).")
def simulate(game: str, games_count: int, seed: int, players: int | None,
             deck_names: tuple, matchup_decks: tuple, first_agent: str, other_agent: str,
             workers: int, backend: str, address: str | None, output_format: str,
             out_file: Path | None,
             record_file: Path | None, report_dir: Path | None) -> None:
    """Play many games of GAME between agents and report the results: win
    rates per seat, deck and matchup with 95% intervals, the first player's
    advantage, the length of games, how they ended, and per card the games it
    was played in and its win rate when played and when not.

    Without --deck or --decks the shipped decks take turns in every seat."""
    if deck_names and matchup_decks:
        with user_errors():
            raise CouldNotRun(Problem("E850", "--deck and --decks cannot be used together",
                                      None, None, ("--deck for fixed seats, or --decks to "
                                                   "pair decks up",)))
    playable = playable_or_exit(game, players, matchup_decks or deck_names,
                                any_count=bool(matchup_decks))
    agents = (first_agent,) + (other_agent,) * (playable.players - 1)
    with user_errors():
        for spec in agents:
            agent_named(spec, 0)
        for path in (out_file, record_file, report_dir):
            if path is not None:
                check_new_file(path)
        if report_dir is not None:
            reports.check_can_plot()
    with user_errors():
        if backend == "ray":
            cluster.check_installed()
        elif address is not None:
            raise CouldNotRun(Problem("E856", "--address names a Ray cluster: it needs "
                                      "--backend ray", None, None, ("--backend ray",)))
    # a rules file, a deck file and the project folder by their whole paths:
    # a worker, here or on a cluster, reads the same files
    named = str(Path(game).resolve()) if game.endswith(".rules") else game
    decks_named = tuple(str(Path(n).resolve()) if is_deck_file(n) else n
                        for n in (matchup_decks or deck_names))
    batch = Batch(named, players, decks_named, bool(matchup_decks), agents, seed,
                  str(Path.cwd().resolve()))
    # in this process a game at a time (Ctrl-C keeps every finished game);
    # workers take parts of SIMULATE_PART games
    size = 1 if workers == 1 and backend == "local" else \
        max(1, min(SIMULATE_PART, -(-games_count // max(workers, 2))))
    parts = [(batch, first, min(size, games_count - first))
             for first in range(0, games_count, size)]
    progress = is_terminal(sys.stderr) and games_count > size

    def show(done: list) -> None:
        if progress:
            click.echo(f"\r{sum(len(d) for d in done)}/{games_count} games", err=True, nl=False)

    with contextlib.ExitStack() as stack:
        done = cluster.run_parts(_simulate_part, parts, address, stack) \
            if backend == "ray" else parts_done(_simulate_part, parts, playable, workers, stack)
        finished = until_interrupted(done, show)
    if progress:
        click.echo(err=True)
    records = [record for part in finished.results for record in part]
    deck_cards = {d.name: frozenset(e.name for _, entries in d.parts for e in entries)
                  for d in playable.loaded.decks}
    report = {"game": playable.compiled.rules.game_id, "seed": seed, "agents": list(agents),
              "interrupted": finished.interrupted, **summarize(records, deck_cards)}
    with user_errors():
        if out_file is not None:
            _write_lines(out_file, (r.line() for r in records))
        if record_file is not None:
            _write_lines(record_file, (r.replay for r in records if r.replay is not None))
        if report_dir is not None:
            reports.write_html(report, report_dir)
    if output_format == "json":
        click.echo(json.dumps(report, indent=2))
    else:
        for line in reports.text_lines(report):
            click.echo(line)
    if finished.interrupted:
        click.echo(interrupted_note(len(records), games_count, seed, size),
                   err=output_format == "json")
    sys.exit(exit_code(bool(report["errors"]), finished.interrupted))


SIMULATE_PART = 10      # games per worker's task: Ctrl-C and the progress line act between tasks


@attrs.frozen
class Batch:
    """What every part of a simulation shares (sent to worker processes)."""

    game: str
    players: int | None
    deck_names: tuple
    matchups: bool          # --decks: every ordered pair of them, in turn
    agents: tuple
    seed: int
    folder: str             # where the command ran: the project folder it sees


@functools.lru_cache(maxsize=2)
def _batch_playable(batch: Batch) -> Playable:
    """A worker process loads and compiles the game once for all its parts,
    seeing the games as the command does from its folder."""
    if Path.cwd().resolve() != Path(batch.folder):
        os.chdir(batch.folder)      # a worker of a Ray cluster starts elsewhere
    return load_playable(batch.game, batch.players, batch.deck_names, any_count=batch.matchups)


def _simulate_part(part: tuple, playable: Playable | None = None) -> list:
    """Games ``first`` to ``first + count - 1`` of a simulation (here or in a worker)."""
    batch, first, count = part
    playable = playable or loaded_before_fork() or _batch_playable(batch)
    pairs = [(a, b) for a in playable.chosen for b in playable.chosen if a is not b] \
        if batch.matchups and playable.players == 2 and len(playable.chosen) > 1 else None
    records = []
    for index in range(first, first + count):
        decks = list(pairs[index % len(pairs)]) if pairs else playable.seats(index)
        records.append(play_game(playable.compiled, batch.game, decks, batch.agents, index,
                                 batch.seed + index))
    return records


def _write_lines(path: Path, items) -> None:
    try:
        with path.open("x", encoding="utf-8") as out:
            for item in items:
                out.write(json.dumps(item) + "\n")
    except OSError as err:
        raise CouldNotRun(Problem("E851", f"cannot write {path}: {err.strerror}", None, None,
                                  ("a new file in a folder you may write",))) from None


@click.command()
@click.argument("game")
@click.option("-n", "games_count", type=click.IntRange(1), default=100, show_default=True)
@seed_option("Seed of the first game; game i uses seed + i.")
@click.option("--players", type=click.IntRange(1, 8), default=None)
@deck_option
@click.option("--check-every", type=click.IntRange(1), default=9, show_default=True,
              help="Clone, JSON and every-legal-action checks once every N actions on average.")
@click.option("--jobs", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Processes to share the games among (the results do not depend on it).")
def soak(game: str, games_count: int, seed: int, players: int | None,
         deck_names: tuple, check_every: int, jobs: int) -> None:
    """Play N random games of GAME checking the engine's invariants after every action."""
    playable = playable_or_exit(game, players, deck_names)
    compiled = playable.compiled
    start = time.perf_counter()
    # Parts of at most SOAK_PART games, in order: the figures do not depend on
    # how the games are shared, and a long run can show how far it has got.
    size = min(SOAK_PART, -(-games_count // jobs))
    parts = [(game, players, deck_names, seed, first, min(size, games_count - first),
              check_every) for first in range(0, games_count, size)]
    progress = is_terminal(sys.stderr)

    def show(reports: list) -> None:
        if progress:
            click.echo(f"\r{sum(r.games for r in reports)}/{games_count} games, "
                       f"{sum(len(r.violations) for r in reports)} violations",
                       err=True, nl=False)

    with contextlib.ExitStack() as stack:
        finished = until_interrupted(parts_done(_soak_part, parts, playable, jobs, stack), show)
    if progress:
        click.echo(err=True)
    report = merge(finished.results)
    elapsed = time.perf_counter() - start
    for violation in report.violations:
        click.echo(violation.render())
    click.echo(f"{compiled.rules.game_id}: {report.games} games, {report.actions} actions, "
               f"{report.checks} checks, {len(report.violations)} violations "
               f"({', '.join(f'{k} {v}' for k, v in sorted(report.results.items()))}) "
               f"in {elapsed:.1f} s")
    if finished.interrupted:
        click.echo(interrupted_note(report.games, games_count, seed, size))
    sys.exit(exit_code(bool(report.violations), finished.interrupted))




SOAK_PART = 100



@functools.lru_cache(maxsize=2)
def _worker_playable(game: str, players: int | None, deck_names: tuple) -> Playable:
    """A worker process loads and compiles the game once for all its parts."""
    return load_playable(game, players, deck_names)


def _soak_part(part: tuple, playable: Playable | None = None):
    """One part of a soak run (in this process or a worker): games ``first`` to ``first + count - 1``."""
    game, players, deck_names, seed, first, count, check_every = part
    playable = playable or loaded_before_fork() or \
        _worker_playable(game, players, deck_names)
    return run_soak(playable.compiled, playable.seats, count, seed, check_every, first)


COMMANDS = (simulate, soak)
