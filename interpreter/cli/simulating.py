"""``simulate`` (many games, their results counted) and ``soak`` (many games,
the engine's invariants checked after every action)."""

from __future__ import annotations

import contextlib
import functools
import json
import multiprocessing
import re
import sys
import time

import click

from interpreter.agents import RandomAgent, play_out
from interpreter.cli.common import (Playable, count_of, deck_option, exit_code,
                                    ignore_interrupts, interrupted_note, is_terminal,
                                    load_playable, playable_or_exit, seed_option,
                                    until_interrupted)
from interpreter.engine import Match
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
@click.option("--format", "output_format", type=click.Choice(["text", "json"]),
              default="text", show_default=True)
def simulate(game: str, games_count: int, seed: int, players: int | None,
             deck_names: tuple, output_format: str) -> None:
    """Play many games of GAME between random agents and report the results.

    Wins are counted per seat and per deck; without --deck the shipped decks
    take turns in every seat."""
    playable = playable_or_exit(game, players, deck_names)
    compiled = playable.compiled
    finished = until_interrupted(_play_one(playable, i, seed + i) for i in range(games_count))
    deck_wins: dict[str, int] = {}
    deck_games: dict[str, int] = {}      # the games each deck played (in any seat)
    wins: dict[str, int] = {}
    draws, errors, turns, decisions = 0, [], 0, 0
    reasons: dict[str, int] = {}
    endings: dict[str, int] = {}
    for game_seed, decks, played in finished.results:
        if isinstance(played, str):
            errors.append({"seed": game_seed, "error": played})
            continue
        match, made = played
        decisions += made
        for name in {deck.name for deck in decks}:
            deck_games[name] = deck_games.get(name, 0) + 1
        result = match.state.result
        turns += match.state.turn
        ending = _ending(result)
        endings[ending] = endings.get(ending, 0) + 1
        if result[0] == "win":
            key = f"player {result[1] + 1}"
            wins[key] = wins.get(key, 0) + 1
            name = decks[result[1]].name
            deck_wins[name] = deck_wins.get(name, 0) + 1
        else:
            draws += 1
            reasons[result[1]] = reasons.get(result[1], 0) + 1
    played_count = len(finished.results)
    ended = played_count - len(errors)
    report = {
        "game": compiled.rules.game_id,
        "games": played_count,
        "interrupted": finished.interrupted,
        "wins": dict(sorted(wins.items())),
        "deck_wins": dict(sorted(deck_wins.items())),
        "deck_games": dict(sorted(deck_games.items())),
        "draws": draws,
        "draw_reasons": reasons,
        "endings": dict(sorted(endings.items(), key=lambda kv: (-kv[1], kv[0]))),
        "errors": len(errors),
        "error_seeds": errors,
        "mean_turns": round(turns / ended, 2) if ended else 0,
        "mean_decisions": round(decisions / ended, 2) if ended else 0,
    }
    if output_format == "json":
        click.echo(json.dumps(report, indent=2))
    else:
        click.echo(f"{report['game']}: {played_count} games, seeds {seed} to "
                   f"{seed + played_count - 1}")
        for who, n in report["wins"].items():
            click.echo(f"  {who} won {n}")
        for name, n in report["deck_games"].items():
            won = deck_wins.get(name, 0)
            click.echo(f"  {name} won {won} of {count_of(n, 'game')} ({100 * won / n:.0f}%)")
        click.echo(f"  draws {draws}, errors {len(errors)}, mean turns "
                   f"{report['mean_turns']}, mean decisions {report['mean_decisions']}")
        for ending, n in report["endings"].items():
            click.echo(f"  {n} ended: {ending}")
        for e in errors:
            click.echo(f"  error with seed {e['seed']}: {e['error']}")
    if finished.interrupted:
        click.echo(interrupted_note(played_count, games_count, seed),
                   err=output_format == "json")
    sys.exit(exit_code(bool(errors), finished.interrupted))


def _play_one(playable: Playable, index: int, game_seed: int) -> tuple:
    """Game ``index`` of a simulation between random agents: its seed, its
    decks, and (the match, the decisions made) or what went wrong."""
    decks = playable.seats(index)
    try:
        match = Match.start(playable.compiled, decks, game_seed)
        agents = [RandomAgent(game_seed * 1000 + p) for p in range(len(decks))]
        made = play_out(match, agents)
    except Exception as err:  # counted and reported with its seed, not hidden
        return game_seed, decks, f"{type(err).__name__}: {err}"
    return game_seed, decks, (match, made)




def _ending(result: tuple) -> str:
    """How a game ended, with the players' numbers and a counter's final
    value left out, so that games ended by the same rule count together
    ("a player lost: Life")."""
    reason = result[2] if result[0] == "win" else result[1]
    reason = re.sub(r"\bplayer \d+\b", "a player", reason)
    reason = re.sub(r"(lost: [^:]*?) -?\d+$", r"\1", reason)
    return f"{result[0]}: {reason}"


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
        if jobs == 1 or len(parts) == 1:
            done = (_soak_part(part, playable) for part in parts)
        else:
            pool = stack.enter_context(multiprocessing.Pool(min(jobs, len(parts)),
                                                            initializer=ignore_interrupts))
            stack.callback(pool.terminate)
            done = pool.imap(_soak_part, parts)
        finished = until_interrupted(done, show)
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
    playable = playable or _worker_playable(game, players, deck_names)
    return run_soak(playable.compiled, playable.seats, count, seed, check_every, first)


COMMANDS = (simulate, soak)
