"""``play`` (one game or a match between agents, narrated; a game with a
human seat, played at the prompt of ``table_screen``; a saved one resumed
with ``--load``) and ``replay`` (a recorded game printed again, the same
log byte for byte)."""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path

import click

from interpreter.agents import DEFAULT_AGENT, agent_named, play_out
from interpreter.cli.common import (Playable, SeedType, deck_option, is_deck_file, load_playable,
                                    playable_or_exit, seed_option, user_errors)
from interpreter.cli.table_screen import Screen, play_at_table, resume_note
from interpreter.engine import Match
from interpreter.engine.narration import board_summary
from interpreter.errors import CouldNotRun, Problem
from interpreter.replays import Recorder, check_new_file, play_again, read_replay, write_replay
from interpreter.series import play_match
from interpreter.tables import HUMAN, Table, seat_seed


@click.command()
@click.argument("game", required=False)
@seed_option("Random seed.")
@click.option("--players", type=click.IntRange(1, 8), default=None,
              help="Number of players (default: the game's minimum).")
@deck_option
@click.option("--deck1", default=None, metavar="NAME|FILE",
              help="Player 1's deck: a deck's name or a .deck file (read with the game's cards).")
@click.option("--deck2", default=None, metavar="NAME|FILE", help="Player 2's deck, likewise.")
@click.option("--p1", default=DEFAULT_AGENT, show_default=True, metavar="human|AGENT",
              help="Who plays seat 1: human (you, at the prompt) or an agent (random, "
                   "first, greedy, hinted: random with the game's agent settings, "
                   "search[:BUDGET]).")
@click.option("--p2", default=DEFAULT_AGENT, show_default=True, metavar="human|AGENT",
              help="Who plays seat 2 (any further seats: hinted).")
@click.option("--match", "as_match", is_flag=True,
              help="Play a match (the rules file's \"match: best of N\") instead of one game.")
@click.option("--record", "record", type=click.Path(path_type=Path), metavar="FILE",
              help="Write the game to FILE (a new file) to print it again with `replay`.")
@click.option("--load", "load", type=click.Path(path_type=Path), metavar="FILE",
              help="Resume a game saved at the prompt (save FILE).")
@click.pass_context
def play(ctx, game: str | None, seed: int, players: int | None, deck_names: tuple,
         deck1: str | None, deck2: str | None, p1: str, p2: str, as_match: bool,
         record: Path | None, load: Path | None) -> None:
    """Play one game (or a match) of GAME and print what happens; with a
    human seat (--p1 human), play it yourself at the prompt.

    GAME is a shipped game id or the path of a rules file."""
    if load is not None:
        with _stopped_cleanly():
            _resume(ctx, game, load, record)
        return
    if game is None:
        raise click.UsageError("Missing argument 'GAME' (or --load FILE).", ctx)
    if deck1 is not None or deck2 is not None:
        if deck_names:
            with user_errors():
                raise CouldNotRun(Problem("E811", "--deck and --deck1/--deck2 name decks twice",
                                          None, None, ("--deck or --deck1/--deck2",)))
        deck_names = (deck1, deck2)
    playable = playable_or_exit(game, players, deck_names)
    seats = tuple(HUMAN if kind.strip().lower() == HUMAN else kind
                  for kind in (p1, p2, *[DEFAULT_AGENT] * (playable.players - 2))[:playable.players])
    if HUMAN in seats:
        with _stopped_cleanly():
            _play_yourself(game, playable, seed, seats, deck_names, as_match, record)
        return
    if as_match:
        _play_match(playable, seed)
        return
    decks = playable.seats()
    boards = []      # (where in the log, the board) at each turn's first decision
    actions: list = []
    with user_errors():
        if record is not None:
            check_new_file(record)
        match = Match.start(playable.compiled, decks, seed)
        agents = [Recorder(agent_named(kind, seat_seed(seed, i)), actions)
                  for i, kind in enumerate(seats)]
        play_out(match, agents, each_turn=_boards_into(boards))
        if record is not None:
            write_replay(record, _game_name(game), decks, seed, actions, match)
    _print_game(match, decks, boards)


@contextlib.contextmanager
def _stopped_cleanly():
    """Ctrl-C while a table is set up (a long game played again from its
    seed): exit 130 without a traceback (at the prompt, the table's own)."""
    try:
        yield
    except KeyboardInterrupt:
        click.echo("Interrupted before the game could start.", err=True)
        sys.exit(130)


def _game_name(game: str) -> str:
    """How a replay names the game: a rules file by its whole path (the
    replay is read from anywhere), a shipped game by its id."""
    return str(Path(game).resolve()) if game.endswith(".rules") else game


def _deck_names(playable: Playable, named: tuple) -> tuple:
    """How a save names each seat's deck: a deck file by its whole path."""
    out = []
    for seat, deck in enumerate(playable.seats()):
        given = named[seat] if seat < len(named) else None
        out.append(str(Path(given).resolve()) if given and is_deck_file(given) else deck.name)
    return tuple(out)


def _play_yourself(game: str, playable: Playable, seed: int, seats: tuple, deck_names: tuple,
                   as_match: bool, record: Path | None) -> None:
    if as_match:
        with user_errors():
            raise CouldNotRun(Problem("E847", "--match is for agents only; a human seat plays "
                                      "one game at a time", None, None, ("no --match",)))
    with user_errors():
        if record is not None:
            check_new_file(record)
        table = Table.open(playable.compiled, playable.seats(), seed, seats, _game_name(game),
                           _deck_names(playable, deck_names))
    _run_table(table, record)


def _resume(ctx, game: str | None, load: Path, record: Path | None) -> None:
    """``play --load FILE``: the saved game, its agents where they were."""
    given = [name for name in ("seed", "players", "deck_names", "deck1", "deck2", "p1", "p2",
                               "as_match")
             if ctx.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT]
    with user_errors():
        if game is not None or given:
            named = ([game] if game is not None else []) + [
                "--" + n.replace("_names", "").replace("as_", "") for n in given]
            raise CouldNotRun(Problem(
                "E848", f"--load takes the game, decks, seed and seats from {load}, "
                f"not from {', '.join(named)}", None, None, (f"play --load {load}",)))
        if record is not None:
            check_new_file(record)
        saved = read_replay(load)
        if not saved.seats:
            raise CouldNotRun(Problem(
                "E849", f"{load} is a recorded game, not one saved at the prompt", None, None,
                (f"cardrules replay {load} to print it",)))
        playable = load_playable(saved.game, len(saved.decks), saved.decks)
        table = Table.open(playable.compiled, playable.seats(), saved.seed, saved.seats,
                           saved.game, saved.decks, saved.actions, saved.digest)
        table.saved_to, table.saved_at = load.resolve(), len(saved.actions)
    _run_table(table, record)


def _run_table(table: Table, record: Path | None) -> None:
    screen = Screen(table, plain=not sys.stdout.isatty())
    try:
        with user_errors():
            code = play_at_table(table, screen)
    except KeyboardInterrupt:
        screen.say("")
        screen.say("Interrupted: the game stops here.")
        screen.say(resume_note(table))
        sys.exit(130)
    if record is not None and table.match.is_terminal():
        with user_errors():
            write_replay(record, table.game_name, table.deck_names, table.seed, table.actions,
                         table.match, table.seats)
        screen.say(f"Recorded to {record}: print it again with `cardrules replay {record}`.")
    elif record is not None:
        screen.say(f"The game did not end: nothing was recorded to {record} "
                   "(save FILE keeps an unfinished game).")
    sys.exit(code)


def _boards_into(boards: list):
    """A play_out ``each_turn`` keeping the board with where it was in the log."""
    return lambda match: boards.append((len(match.state.log),
                                        board_summary(match.state, match.game)))


def _print_game(match, decks, boards, viewer: int | None = None) -> None:
    """A game as `play` and `replay` print it: the decks, then the log's
    lines (from ``viewer``'s seat if given) with the boards between them."""
    for p, deck in enumerate(decks):
        click.echo(f"Player {p + 1} plays {deck.name}.")
    told = 0
    for at, lines in [*boards, (len(match.state.log), [])]:
        for line in match.narration(viewer, events=match.state.log[told:at]):
            click.echo(line)
        for line in lines if viewer is None else ():
            click.echo(line)
        told = at


@click.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--viewer", type=click.IntRange(1, 8), default=None, metavar="N",
              help="Print the game as player N saw it (hidden cards stay hidden).")
@click.option("--seed", type=SeedType(), default=None,
              help="In a file of several games (simulate --record or --out), the game "
                   "played with this seed.")
def replay(file: Path, viewer: int | None, seed: int | None) -> None:
    """Print a game recorded with `play --record FILE` (or one of the games of
    `simulate --record FILE`), played again from its seed and actions: the
    same log, byte for byte."""
    with user_errors():
        recorded = read_replay(file, seed)
        playable = load_playable(recorded.game, len(recorded.decks), recorded.decks)
        boards: list = []
        match = play_again(playable.compiled, playable.seats(), recorded, _boards_into(boards))
    if viewer is not None and viewer > len(recorded.decks):
        with user_errors():
            raise CouldNotRun(Problem("E815", f"--viewer {viewer}: the game has "
                                      f"{len(recorded.decks)} players"))
    _print_game(match, playable.seats(), boards, None if viewer is None else viewer - 1)


def _play_match(playable: Playable, seed: int) -> None:
    rules = playable.compiled.rules
    if not rules.match_games:
        with user_errors():
            raise CouldNotRun(Problem(
                "E812", f"{rules.title} declares no match", None, None,
                ('a "match: best of N" line in the rules file\'s game block',)))
    with user_errors():
        result = play_match(playable.compiled, playable.loaded, playable.seats(), seed)
    click.echo(f"A match of {rules.title}: the best of {rules.match_games} games.")
    for record in result.games:
        click.echo(f"==== Game {record.number} (seed {record.seed}): "
                   + ", ".join(f"Player {p + 1} plays {name}"
                               for p, name in enumerate(record.decks)))
        for line in record.swaps:
            click.echo(f"  {line}")
        for line in record.narration:
            click.echo(line)
    score = "-".join(str(w) for w in result.wins)
    if result.winner is None:
        click.echo(f"==== The match is a draw ({score}).")
    else:
        click.echo(f"==== Player {result.winner + 1} wins the match {score}.")


COMMANDS = (play, replay)
