"""What the commands share: loading a game and the decks named on the
command line, the seed and deck options, user errors turned into printed
problems and exit codes, and long runs that Ctrl-C stops with their
finished results kept."""

from __future__ import annotations

import contextlib
import multiprocessing
import signal
import sys
from pathlib import Path

import attrs
import click

from interpreter.engine import compile_game
from interpreter.errors import CardrulesError, CouldNotRun, Problem, did_you_mean, listing
from interpreter.language.games import load_game


# ---------------------------------------------------------------- play and simulate


def load_game_argument(game: str, extra_files: tuple[Path, ...] = ()):
    """A shipped game id, or the path of a rules file in a designer's own
    repository (``rules/<id>.rules`` beside ``cards/<id>/``); ``extra_files``
    (loose deck files) read with the game's cards in scope."""
    path = Path(game)
    if path.suffix == ".rules":
        if not path.exists():
            raise CouldNotRun(Problem("E901", f"no such file: {game}"))
        return load_game(path.stem, path.resolve().parent.parent, extra_files=extra_files)
    return load_game(game, extra_files=extra_files)


def is_deck_file(name: str) -> bool:
    """A deck named on the command line by its file (``my.deck``), not by name."""
    return name.endswith(".deck")


@attrs.define
class Playable:
    """What play, simulate and soak need: the loaded and compiled game and
    the decks for each seat of game number ``i`` (``seats(i)``)."""

    loaded: object
    compiled: object
    chosen: list            # decks named with --deck (one for all, or one per seat)
    players: int

    def seats(self, i: int = 0) -> list:
        """The decks of game ``i``: the chosen ones, or the shipped decks in
        turn, so that a series of games plays every deck in every seat."""
        if self.chosen:
            return [self.chosen[p % len(self.chosen)] for p in range(self.players)]
        pool = self.loaded.decks
        return [pool[(i + p) % len(pool)] for p in range(self.players)]


def load_playable(game: str, players: int | None, deck_names=(),
                  any_count: bool = False) -> Playable:
    """The game (a shipped id or a path to a rules file in a designer's own
    repository) compiled, and the decks named on the command line: by name,
    by a ``.deck`` file's path (read with the game's cards), or None for
    the deck a seat plays when none is named; one for every seat or one
    for all, unless ``any_count`` (decks to pair up: ``simulate --decks``)."""
    deck_files = tuple(dict.fromkeys(Path(n).resolve() for n in deck_names
                                     if n is not None and is_deck_file(n)))
    for path in deck_files:
        if not path.is_file():
            raise CouldNotRun(Problem("E901", f"no such file: {path}"))
    loaded = load_game_argument(game, deck_files)
    if loaded.problems:
        raise CardrulesError(loaded.problems)
    compiled = compile_game(loaded)
    count = players or loaded.rules.players_min
    if not loaded.decks:
        raise CouldNotRun(Problem("E809", f"{loaded.game_id} ships no deck to play with",
                                  None, None, (f"a deck in cards/{loaded.game_id}/decks/",)))
    by_name, shipped = {}, []
    for deck in loaded.decks:
        if Path(deck.path).resolve() in deck_files:   # a loose file: by its whole path
            by_name[str(Path(deck.path).resolve()).lower()] = deck
            continue
        shipped.append(deck)
        by_name[deck.name.lower()] = deck
        by_name[Path(deck.path).stem.lower()] = deck
    chosen = []
    for seat, name in enumerate(deck_names):
        if name is None and not shipped:
            raise CouldNotRun(Problem(
                "E809", f"{loaded.game_id} ships no deck for seat {seat + 1}", None, None,
                (f"a deck for every seat (--deck{seat + 1})",)))
        if name is None:        # this seat's deck as if none were named
            chosen.append(shipped[seat % len(shipped)])
            continue
        key = str(Path(name).resolve()) if is_deck_file(name) else name
        deck = by_name.get(key.lower())
        if deck is None:
            names = [d.name for d in loaded.decks]
            raise CouldNotRun(Problem(
                "E810", f'{loaded.game_id} has no deck "{name}"', None, None,
                (listing(names),), did_you_mean(name, names)))
        chosen.append(deck)
    if not any_count and len(chosen) not in (0, 1, count):
        raise CouldNotRun(Problem(
            "E811", f"{len(chosen)} decks named for {count} players", None, None,
            ("one --deck for every seat, or one for all of them",)))
    return Playable(loaded, compiled, chosen, count)


@contextlib.contextmanager
def user_errors():
    """A user's mistake is printed as problems and exits 1; one that stops
    the command from running at all (a missing file, an unknown game) exits 2."""
    try:
        yield
    except CouldNotRun as err:
        print_problems(err.problems, err=True)
        sys.exit(2)
    except CardrulesError as err:
        print_problems(err.problems, err=True)
        sys.exit(1)


def playable_or_exit(game: str, players: int | None, deck_names=(),
                     any_count: bool = False) -> Playable:
    """load_playable, or the problems printed and the right exit code."""
    with user_errors():
        return load_playable(game, players, deck_names, any_count)


class SeedType(click.ParamType):
    """A seed: a whole number, 0 or more. A negative one was taken silently
    (the generator would have read it as a large positive seed)."""

    name = "seed"

    def convert(self, value, param, ctx):
        try:
            number = int(value)
        except (TypeError, ValueError):
            self.fail(f'"{value}" is not a seed: a seed is a whole number, 0 or more', param, ctx)
        if number < 0:
            self.fail(f"{number} is not a seed: a seed is a whole number, 0 or more", param, ctx)
        return number


def seed_option(help_text: str):
    """--seed, as every command that plays takes it."""
    return click.option("--seed", type=SeedType(), default=0, show_default=True,
                        help=help_text)


deck_option = click.option(
    "--deck", "deck_names", multiple=True, metavar="NAME",
    help="A deck by name or file name; once for every seat, or once per seat. "
         "Default: the shipped decks in turn.")



@attrs.define
class Finished:
    """What a long run (simulate, soak) finished before it ended or Ctrl-C
    stopped it."""

    results: list = attrs.Factory(list)
    interrupted: bool = False


def until_interrupted(results, each=None) -> Finished:
    """The results as they come, until Ctrl-C: on a long run, the ones
    finished so far still count. ``each(results)`` after every one (progress)."""
    finished = Finished()
    try:
        for result in results:
            finished.results.append(result)
            if each is not None:
                each(finished.results)
    except KeyboardInterrupt:
        finished.interrupted = True
    return finished


def interrupted_note(counted: int, total: int, seed: int, first: int = 1) -> str:
    """What an interrupted run's figures count: its first games (``first``:
    how many games it plays before it can count any)."""
    if counted:
        return (f"interrupted: the figures count the first {counted} of {total} games "
                f"(seeds {seed} to {seed + counted - 1})")
    if first == 1:
        return "interrupted before the first game was played"
    return f"interrupted before the first {first} games were played"


def exit_code(failed: bool, interrupted: bool) -> int:
    """1 when something failed, else 130 (as a shell reports Ctrl-C) when
    interrupted, else 0."""
    return 1 if failed else 130 if interrupted else 0


def ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the main process, which stops them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


SOAK_PART = 100


# What the command had loaded when it started its worker processes: a
# worker forked from it starts with it instead of loading and compiling the
# game again (a worker started otherwise finds None and loads it).
_LOADED_BEFORE_FORK = None


def loaded_before_fork():
    """What the process that forked this worker had loaded, or None."""
    return _LOADED_BEFORE_FORK


def parts_done(work, parts: list, here, processes: int, stack: contextlib.ExitStack):
    """The results of ``work(part)`` for every part, in order, as they
    come: in this process (``work(part, here)``, what is loaded here
    reused) or shared among ``processes`` worker processes that leave
    Ctrl-C to this one (``stack`` stops them; workers forked from this
    process find ``here`` with :func:`loaded_before_fork`)."""
    global _LOADED_BEFORE_FORK
    if processes == 1 or len(parts) == 1:
        return (work(part, here) for part in parts)
    _LOADED_BEFORE_FORK = here
    try:
        pool = stack.enter_context(multiprocessing.Pool(min(processes, len(parts)),
                                                        initializer=ignore_interrupts))
    finally:
        _LOADED_BEFORE_FORK = None
    stack.callback(pool.terminate)
    return pool.imap(work, parts)


def is_terminal(stream) -> bool:
    """Progress lines are for a person watching, not for a log or a pipe."""
    return stream.isatty()



def count_of(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def print_problems(problems, err: bool = False) -> None:
    for p in problems:
        click.echo(p.render(), err=err)
