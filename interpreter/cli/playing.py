"""``play`` (one game or a match, narrated) and ``replay`` (a recorded game
printed again, the same log byte for byte)."""

from __future__ import annotations

from pathlib import Path

import click

from interpreter.agents import RandomAgent, play_out
from interpreter.cli.common import (Playable, deck_option, load_playable, playable_or_exit,
                                    seed_option, user_errors)
from interpreter.engine import Match
from interpreter.engine.narration import board_summary
from interpreter.errors import CouldNotRun, Problem
from interpreter.replays import Recorder, check_new_file, play_again, read_replay, write_replay
from interpreter.series import play_match


@click.command()
@click.argument("game")
@seed_option("Random seed.")
@click.option("--players", type=click.IntRange(1, 8), default=None,
              help="Number of players (default: the game's minimum).")
@deck_option
@click.option("--match", "as_match", is_flag=True,
              help="Play a match (the rules file's \"match: best of N\") instead of one game.")
@click.option("--record", "record", type=click.Path(path_type=Path), metavar="FILE",
              help="Write the game to FILE (a new file) to print it again with `replay`.")
def play(game: str, seed: int, players: int | None, deck_names: tuple, as_match: bool,
         record: Path | None) -> None:
    """Play one game (or a match) of GAME between random agents and print what happens.

    GAME is a shipped game id or the path of a rules file."""
    playable = playable_or_exit(game, players, deck_names)
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
        agents = [Recorder(RandomAgent(seed * 1000 + i), actions) for i in range(len(decks))]
        play_out(match, agents, each_turn=_boards_into(boards))
        if record is not None:
            # a rules file by its whole path: the replay is read from anywhere
            named = str(Path(game).resolve()) if game.endswith(".rules") else game
            write_replay(record, named, decks, seed, actions, match)
    _print_game(match, decks, boards)


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
def replay(file: Path, viewer: int | None) -> None:
    """Print a game recorded with `play --record FILE`, played again from its
    seed and actions: the same log, byte for byte."""
    with user_errors():
        recorded = read_replay(file)
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
