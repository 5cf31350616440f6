"""The ``cardrules`` command line; the only module that prints.

Commands: ``check`` (lint rules, card and deck files), ``explain`` (show how
one effect text is understood), ``games`` (the installed games). Exit codes
follow the linter convention: 0 clean, 1 problems found, 2 could not run.
Every user mistake is printed as a positioned problem; a Python traceback is
always a bug in cardrules.
"""

from __future__ import annotations

import contextlib
import functools
import json
import multiprocessing
import re
import signal
import sys
import time
from pathlib import Path

import attrs
import click

from interpreter.agents import RandomAgent, play_out
from interpreter.engine import Match, compile_game
from interpreter.engine.narration import board_summary
from interpreter.errors import CardrulesError, CouldNotRun, Problem, did_you_mean, listing
from interpreter.language.explain import explain_text
from interpreter.language.games import Game, find_root, load_game
from interpreter.language.projects import Library
from interpreter.replays import Recorder, check_new_file, play_again, read_replay, write_replay
from interpreter.rulings import load_ruling_file, run_ruling
from interpreter.scaffold import check_game_id, scaffold, title_of
from interpreter.series import play_match
from interpreter.soak import merge
from interpreter.soak import soak as run_soak


class _Group(click.Group):
    """Click group whose usage errors exit 2 with a one-line hint."""

    def main(self, *args, **kwargs):
        kwargs.setdefault("standalone_mode", True)
        try:
            return super().main(*args, **kwargs)
        except CardrulesError as err:  # pragma: no cover - commands catch their own
            _print_problems(err.problems, err=True)
            sys.exit(2)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cardrules")
def main() -> None:
    """cardrules: card games as text -- rules files, card files, decks and rulings."""


# ---------------------------------------------------------------- check


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--format", "output_format", type=click.Choice(["text", "json"]),
              default="text", show_default=True, help="How to print problems.")
@click.option("--game", "game_id", metavar="ID",
              help="Check loose card and deck files against this game, with its cards in scope.")
def check(paths: tuple[Path, ...], output_format: str, game_id: str | None) -> None:
    """Check rules, card and deck files (with no PATH: the games of the project
    folder you are in, else every installed game).

    Every game that declares its turn structure is compiled too: what check
    accepts, the engine runs."""
    try:
        games, wanted = _loose_files(game_id, paths) if game_id else _games_for(paths)
    except CouldNotRun as err:
        _emit([], {}, output_format, err.problems)
        sys.exit(2)
    problems: list[Problem] = []
    warnings: list[Problem] = []
    summary = {}
    for game in games:
        files = wanted.get(game.game_id)
        for p in game.problems:
            if files is None or p.span is None or p.span.path in files:
                problems.append(p)
        warnings.extend(w for w in game.warnings if files is None or w.span.path in files)
        for p in _compile_problems(game):
            # what the engine cannot run in the rules file stops every game of
            # it: reported with any of its files checked
            if files is None or p.span is None or p.span.path in files or \
                    p.span.path == game.rules.path:
                problems.append(p)
        summary[game.game_id] = {"cards": len(game.cards), "decks": len(game.decks),
                                 "files": len(game.files if files is None else files)}
    _emit(problems, summary, output_format, [], warnings)
    sys.exit(1 if problems else 0)


def _compile_problems(game: Game) -> list[Problem]:
    """What the engine could not run of a game that declares how it is played:
    check compiles everything it checks, so what it accepts runs."""
    if not game.rules.phases:
        return []
    if any(p.code == "E517" for p in game.problems):
        return []       # no card grammar to compile with: its clash is reported
    try:
        compile_game(game)
    except CardrulesError as err:
        # a line already reported (an unknown word, a label its kind cannot
        # have) is not reported again for what follows from it
        reported = {(p.span.path, p.span.line) for p in game.problems if p.span is not None}
        return [p for p in err.problems
                if p.span is None or (p.span.path, p.span.line) not in reported]
    return []


def _games_for(paths: tuple[Path, ...]) -> tuple[list[Game], dict[str, set[str] | None]]:
    """The games to load for the given paths, and which of their files to report."""
    if not paths:
        library = Library.around(Path.cwd())
        ids = library.project_game_ids() if library.project else library.game_ids()
        return [load_game(g) for g in ids], {}
    games: dict[tuple[str, str], Game] = {}
    wanted: dict[str, set[str] | None] = {}
    for path in paths:
        if not path.exists():
            raise CouldNotRun(Problem("E901", f"no such file or directory: {path}"))
        targets: list[tuple[Path, str, Path | None]] = []
        if path.is_dir() and (path / "rules").is_dir():
            targets = [(path, p.stem, None) for p in sorted((path / "rules").glob("*.rules"))]
        elif path.is_dir() and path.parent.name == "cards":
            found = find_root(path / "x.cards")
            if found:
                targets = [(found[0], found[1], path)]
        elif path.is_dir() and path.name == "decks" and path.parent.parent.name == "cards":
            found = find_root(path / "x.deck")
            if found:
                targets = [(found[0], found[1], path)]
        elif not path.is_dir():
            # a file, or what stands where a file should (a pipe, a device):
            # its game's reader names what it is
            found = find_root(path)
            if found:
                targets = [(found[0], found[1], path)]
        if not targets:
            raise CouldNotRun(Problem(
                "E903", f"cannot tell which game {path} belongs to",
                None, None, ("rules/<game-id>.rules, or a file under "
                             "cards/<game-id>/ beside it",),
                f"to check it against a game, name the game: cardrules check --game ID "
                f"{path} (ID: {', '.join(Library.around(Path.cwd()).game_ids())})"))
        for root, game_id, only in targets:
            key = (str(root.resolve()), game_id)
            if key not in games:
                games[key] = load_game(game_id, root.resolve())
            game = games[key]
            if only is None:
                wanted[game_id] = None
            elif wanted.get(game_id, set()) is not None:
                files = wanted.setdefault(game_id, set())
                only_resolved = only.resolve()
                for f in game.files:
                    fp = Path(f).resolve()
                    if fp == only_resolved or only_resolved in fp.parents:
                        files.add(f)
                if only.suffix == ".rules":
                    files.add(game.rules.path)
    return list(games.values()), wanted


def _loose_files(game_id: str, paths: tuple[Path, ...]):
    """``check --game ID PATH...``: card and deck files kept anywhere, read as
    if they were among the game's own (its cards in scope); only their
    problems are reported."""
    if not paths:
        raise CouldNotRun(Problem("E910", "--game needs the card or deck files to check",
                                  None, None, ("cardrules check --game ID FILE...",)))
    loose = []
    for path in paths:
        found = sorted(path.glob("**/*.cards")) + sorted(path.glob("**/*.deck")) \
            if path.is_dir() else [path]
        if not path.exists():
            raise CouldNotRun(Problem("E901", f"no such file or directory: {path}"))
        for file in found:
            if file.suffix not in (".cards", ".deck"):
                raise CouldNotRun(Problem(
                    "E911", f"{file} is not a card or deck file", None, None,
                    ("a .cards or .deck file",),
                    "a rules file is checked by its path: cardrules check FILE.rules"))
            loose.append(file.resolve())
    game = load_game(game_id, extra_files=tuple(dict.fromkeys(loose)))
    shown = {f for f in game.files if Path(f).resolve() in loose}
    return [game], {game.game_id: shown}


def _emit(problems, summary, output_format, fatal, warnings=()) -> None:
    """Problems (the exit code says there were some) and warnings (likely
    mistakes that stop nothing: W codes), then the count."""
    if output_format == "json":
        click.echo(json.dumps({
            "problems": [p.to_json() for p in [*fatal, *problems]],
            "warnings": [w.to_json() for w in warnings],
            "summary": summary,
        }, indent=2, ensure_ascii=False))
        return
    _print_problems(fatal, err=True)
    _print_problems(problems)
    _print_problems(warnings)
    if not fatal:
        files = sum(s["files"] for s in summary.values())
        cards = sum(s["cards"] for s in summary.values())
        warned = f", {_count(len(warnings), 'warning')}" if warnings else ""
        click.echo(f"{_count(len(problems), 'problem')}{warned} in {_count(files, 'file')} "
                   f"({_count(cards, 'card')}, {_count(len(summary), 'game')})", err=True)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _print_problems(problems, err: bool = False) -> None:
    for p in problems:
        click.echo(p.render(), err=err)


# ---------------------------------------------------------------- explain


@main.command()
@click.argument("game")
@click.argument("text")
def explain(game: str, text: str) -> None:
    """Show how GAME understands one effect TEXT."""
    with _user_errors():
        loaded = _load_game_argument(game)
        click.echo(explain_text(loaded.rules, text))


# ---------------------------------------------------------------- play and simulate


def _load_game_argument(game: str):
    """A shipped game id, or the path of a rules file in a designer's own
    repository (``rules/<id>.rules`` beside ``cards/<id>/``)."""
    path = Path(game)
    if path.suffix == ".rules":
        if not path.exists():
            raise CouldNotRun(Problem("E901", f"no such file: {game}"))
        return load_game(path.stem, path.resolve().parent.parent)
    return load_game(game)


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


def _load_playable(game: str, players: int | None, deck_names=()) -> Playable:
    """The game (a shipped id or a path to a rules file in a designer's own
    repository) compiled, and the decks named on the command line."""
    loaded = _load_game_argument(game)
    if loaded.problems:
        raise CardrulesError(loaded.problems)
    compiled = compile_game(loaded)
    count = players or loaded.rules.players_min
    if not loaded.decks:
        raise CouldNotRun(Problem("E809", f"{loaded.game_id} ships no deck to play with",
                                  None, None, (f"a deck in cards/{loaded.game_id}/decks/",)))
    by_name = {}
    for deck in loaded.decks:
        by_name[deck.name.lower()] = deck
        by_name[Path(deck.path).stem.lower()] = deck
    chosen = []
    for name in deck_names:
        deck = by_name.get(name.lower())
        if deck is None:
            names = [d.name for d in loaded.decks]
            raise CouldNotRun(Problem(
                "E810", f'{loaded.game_id} has no deck "{name}"', None, None,
                (listing(names),), did_you_mean(name, names)))
        chosen.append(deck)
    if len(chosen) not in (0, 1, count):
        raise CouldNotRun(Problem(
            "E811", f"{len(chosen)} decks named for {count} players", None, None,
            ("one --deck for every seat, or one for all of them",)))
    return Playable(loaded, compiled, chosen, count)


@contextlib.contextmanager
def _user_errors():
    """A user's mistake is printed as problems and exits 1; one that stops
    the command from running at all (a missing file, an unknown game) exits 2."""
    try:
        yield
    except CouldNotRun as err:
        _print_problems(err.problems, err=True)
        sys.exit(2)
    except CardrulesError as err:
        _print_problems(err.problems, err=True)
        sys.exit(1)


def _playable_or_exit(game: str, players: int | None, deck_names=()) -> Playable:
    """_load_playable, or the problems printed and the right exit code."""
    with _user_errors():
        return _load_playable(game, players, deck_names)


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


def _seed_option(help_text: str):
    """--seed, as every command that plays takes it."""
    return click.option("--seed", type=SeedType(), default=0, show_default=True,
                        help=help_text)


_deck_option = click.option(
    "--deck", "deck_names", multiple=True, metavar="NAME",
    help="A deck by name or file name; once for every seat, or once per seat. "
         "Default: the shipped decks in turn.")


@main.command()
@click.argument("game")
@_seed_option("Random seed.")
@click.option("--players", type=click.IntRange(1, 8), default=None,
              help="Number of players (default: the game's minimum).")
@_deck_option
@click.option("--match", "as_match", is_flag=True,
              help="Play a match (the rules file's \"match: best of N\") instead of one game.")
@click.option("--record", "record", type=click.Path(path_type=Path), metavar="FILE",
              help="Write the game to FILE (a new file) to print it again with `replay`.")
def play(game: str, seed: int, players: int | None, deck_names: tuple, as_match: bool,
         record: Path | None) -> None:
    """Play one game (or a match) of GAME between random agents and print what happens.

    GAME is a shipped game id or the path of a rules file."""
    playable = _playable_or_exit(game, players, deck_names)
    if as_match:
        _play_match(playable, seed)
        return
    decks = playable.seats()
    boards = []      # (where in the log, the board) at each turn's first decision
    actions: list = []
    with _user_errors():
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


@main.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--viewer", type=click.IntRange(1, 8), default=None, metavar="N",
              help="Print the game as player N saw it (hidden cards stay hidden).")
def replay(file: Path, viewer: int | None) -> None:
    """Print a game recorded with `play --record FILE`, played again from its
    seed and actions: the same log, byte for byte."""
    with _user_errors():
        recorded = read_replay(file)
        playable = _load_playable(recorded.game, len(recorded.decks), recorded.decks)
        boards: list = []
        match = play_again(playable.compiled, playable.seats(), recorded, _boards_into(boards))
    if viewer is not None and viewer > len(recorded.decks):
        with _user_errors():
            raise CouldNotRun(Problem("E815", f"--viewer {viewer}: the game has "
                                      f"{len(recorded.decks)} players"))
    _print_game(match, playable.seats(), boards, None if viewer is None else viewer - 1)


def _play_match(playable: Playable, seed: int) -> None:
    rules = playable.compiled.rules
    if not rules.match_games:
        with _user_errors():
            raise CouldNotRun(Problem(
                "E812", f"{rules.title} declares no match", None, None,
                ('a "match: best of N" line in the rules file\'s game block',)))
    with _user_errors():
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


@main.command()
@click.argument("game")
@click.option("-n", "games_count", type=click.IntRange(1), default=100, show_default=True,
              help="How many games.")
@_seed_option("Seed of the first game; game i uses seed + i.")
@click.option("--players", type=click.IntRange(1, 8), default=None,
              help="Number of players (default: the game's minimum).")
@_deck_option
@click.option("--format", "output_format", type=click.Choice(["text", "json"]),
              default="text", show_default=True)
def simulate(game: str, games_count: int, seed: int, players: int | None,
             deck_names: tuple, output_format: str) -> None:
    """Play many games of GAME between random agents and report the results.

    Wins are counted per seat and per deck; without --deck the shipped decks
    take turns in every seat."""
    playable = _playable_or_exit(game, players, deck_names)
    compiled = playable.compiled
    finished = _until_interrupted(_play_one(playable, i, seed + i) for i in range(games_count))
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
            click.echo(f"  {name} won {won} of {_count(n, 'game')} ({100 * won / n:.0f}%)")
        click.echo(f"  draws {draws}, errors {len(errors)}, mean turns "
                   f"{report['mean_turns']}, mean decisions {report['mean_decisions']}")
        for ending, n in report["endings"].items():
            click.echo(f"  {n} ended: {ending}")
        for e in errors:
            click.echo(f"  error with seed {e['seed']}: {e['error']}")
    if finished.interrupted:
        click.echo(_interrupted_note(played_count, games_count, seed),
                   err=output_format == "json")
    sys.exit(_exit_code(bool(errors), finished.interrupted))


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


@attrs.define
class Finished:
    """What a long run (simulate, soak) finished before it ended or Ctrl-C
    stopped it."""

    results: list = attrs.Factory(list)
    interrupted: bool = False


def _until_interrupted(results, each=None) -> Finished:
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


def _interrupted_note(counted: int, total: int, seed: int, first: int = 1) -> str:
    """What an interrupted run's figures count: its first games (``first``:
    how many games it plays before it can count any)."""
    if counted:
        return (f"interrupted: the figures count the first {counted} of {total} games "
                f"(seeds {seed} to {seed + counted - 1})")
    if first == 1:
        return "interrupted before the first game was played"
    return f"interrupted before the first {first} games were played"


def _exit_code(failed: bool, interrupted: bool) -> int:
    """1 when something failed, else 130 (as a shell reports Ctrl-C) when
    interrupted, else 0."""
    return 1 if failed else 130 if interrupted else 0


def _ending(result: tuple) -> str:
    """How a game ended, with the players' numbers and a counter's final
    value left out, so that games ended by the same rule count together
    ("a player lost: Life")."""
    reason = result[2] if result[0] == "win" else result[1]
    reason = re.sub(r"\bplayer \d+\b", "a player", reason)
    reason = re.sub(r"(lost: [^:]*?) -?\d+$", r"\1", reason)
    return f"{result[0]}: {reason}"


@main.command()
@click.argument("game")
@click.option("-n", "games_count", type=click.IntRange(1), default=100, show_default=True)
@_seed_option("Seed of the first game; game i uses seed + i.")
@click.option("--players", type=click.IntRange(1, 8), default=None)
@_deck_option
@click.option("--check-every", type=click.IntRange(1), default=9, show_default=True,
              help="Clone, JSON and every-legal-action checks once every N actions on average.")
@click.option("--jobs", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Processes to share the games among (the results do not depend on it).")
def soak(game: str, games_count: int, seed: int, players: int | None,
         deck_names: tuple, check_every: int, jobs: int) -> None:
    """Play N random games of GAME checking the engine's invariants after every action."""
    playable = _playable_or_exit(game, players, deck_names)
    compiled = playable.compiled
    start = time.perf_counter()
    # Parts of at most SOAK_PART games, in order: the figures do not depend on
    # how the games are shared, and a long run can show how far it has got.
    size = min(SOAK_PART, -(-games_count // jobs))
    parts = [(game, players, deck_names, seed, first, min(size, games_count - first),
              check_every) for first in range(0, games_count, size)]
    progress = _is_terminal(sys.stderr)

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
                                                            initializer=_ignore_interrupts))
            stack.callback(pool.terminate)
            done = pool.imap(_soak_part, parts)
        finished = _until_interrupted(done, show)
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
        click.echo(_interrupted_note(report.games, games_count, seed, size))
    sys.exit(_exit_code(bool(report.violations), finished.interrupted))


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the main process, which stops them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


SOAK_PART = 100


def _is_terminal(stream) -> bool:
    """Progress lines are for a person watching, not for a log or a pipe."""
    return stream.isatty()


@functools.lru_cache(maxsize=2)
def _worker_playable(game: str, players: int | None, deck_names: tuple) -> Playable:
    """A worker process loads and compiles the game once for all its parts."""
    return _load_playable(game, players, deck_names)


def _soak_part(part: tuple, playable: Playable | None = None):
    """One part of a soak run (in this process or a worker): games ``first`` to ``first + count - 1``."""
    game, players, deck_names, seed, first, count, check_every = part
    playable = playable or _worker_playable(game, players, deck_names)
    return run_soak(playable.compiled, playable.seats, count, seed, check_every, first)


# ---------------------------------------------------------------- rulings


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--quiet", is_flag=True, help="Print only failures and the summary.")
def ruling(files: tuple[Path, ...], quiet: bool) -> None:
    """Run .ruling files: print each trace and whether its expectations hold."""
    passed = failed = 0
    for path in files:
        if not path.exists():
            _print_problems([Problem("E901", f"no such file: {path}")], err=True)
            sys.exit(2)
        source, rulings, problems = load_ruling_file(path)
        if problems:
            _print_problems(problems)
            failed += max(1, len(rulings))
            continue
        for item in rulings:
            try:
                result = run_ruling(item, source)
            except CardrulesError as err:
                _print_problems(err.problems)
                failed += 1
                continue
            if not quiet:
                for line in result.trace:
                    click.echo(line)
            if result.passed:
                passed += 1
                click.echo(f"PASS {path}: {item.name}")
            else:
                failed += 1
                _print_problems(result.failures)
                click.echo(f"FAIL {path}: {item.name}")
            if not quiet:
                click.echo()
    click.echo(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


# ---------------------------------------------------------------- new


@main.command()
@click.argument("game_id", metavar="GAME-ID")
@click.argument("folder", required=False, type=click.Path(path_type=Path))
@click.option("--title", help='The game\'s title (default: from GAME-ID, "my-game" -> "My Game").')
def new(game_id: str, folder: Path | None, title: str | None) -> None:
    """Make a project folder for a new game: a rules file, a card file, a deck,
    rulings and a README (in FOLDER, default ./GAME-ID).

    Every command run inside the folder uses its files."""
    folder = folder or Path(game_id)
    with _user_errors():
        check_game_id(game_id, Library.around(Path.cwd()).game_ids())
        if title is not None and (not title.strip() or any(c in title for c in '"\n')):
            raise CouldNotRun(Problem(
                "E909", f"--title {title!r} cannot be a title", None, None,
                ("words without double quotes",), None))
        written = scaffold(game_id, folder, title or title_of(game_id))
    for path in written:
        click.echo(f"created {path}")
    click.echo(f"\nNext, in {folder}:\n  cardrules check\n  cardrules play {game_id} --seed 1\n"
               f"  cardrules ruling tests/rulings/{game_id}/*.ruling")


# ---------------------------------------------------------------- games


@main.command()
def games() -> None:
    """List the games commands use here, with their card counts and where they come from.

    Inside a project folder (rules/ and cards/ as in this repository), its
    games replace installed ones of the same id and its cards/<id>/ folders
    add cards to installed games."""
    library = Library.around(Path.cwd())
    for game_id in library.game_ids():
        game = load_game(game_id)
        state = "" if not game.problems else f"  ({len(game.problems)} problems)"
        click.echo(f"{game_id:<22} {game.rules.title:<32} {len(game.cards):>4} cards"
                   f" {len(game.decks):>3} decks  {library.where(game_id)}{state}")


if __name__ == "__main__":  # pragma: no cover
    main()
