"""``check`` (lint rules, card and deck files; what it accepts, the engine
runs), ``explain`` (how one effect text is understood), ``ruling`` (run
.ruling files), ``new`` (scaffold a project folder) and ``games`` (the games
commands use here)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from interpreter.cli.checked import Checked, checked_game
from interpreter.cli.common import count_of, load_game_argument, print_problems, user_errors
from interpreter.errors import CardrulesError, CouldNotRun, Problem
from interpreter.compiler.one_text import where_it_runs
from interpreter.language.explain import explain_text
from interpreter.language.cards import quote_card_names
from interpreter.language.games import find_root, load_game
from interpreter.language.projects import Library
from interpreter.rulings import load_ruling_file, run_ruling
from interpreter.scaffold import check_game_id, scaffold, title_of


# ---------------------------------------------------------------- check


@click.command()
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
        for p in game.not_compiled:
            # what the engine cannot run in the rules file stops every game of
            # it: reported with any of its files checked
            if files is None or p.span is None or p.span.path in files or \
                    p.span.path == game.rules_path:
                problems.append(p)
        summary[game.game_id] = {"cards": game.cards, "decks": game.decks,
                                 "files": len(game.files if files is None else files)}
    _emit(problems, summary, output_format, [], warnings)
    sys.exit(1 if problems else 0)


def _games_for(paths: tuple[Path, ...]) -> tuple[list[Checked], dict[str, set[str] | None]]:
    """The games to check for the given paths, and which of their files to report."""
    if not paths:
        library = Library.around(Path.cwd())
        ids = library.project_game_ids() if library.project else library.game_ids()
        return [checked_game(g) for g in ids], {}
    games: dict[tuple[str, str], Checked] = {}
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
                games[key] = checked_game(game_id, root.resolve())
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
                    files.add(game.rules_path)
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
    game = checked_game(game_id, extra_files=tuple(dict.fromkeys(loose)))
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
    print_problems(fatal, err=True)
    print_problems(problems)
    print_problems(warnings)
    if not fatal:
        files = sum(s["files"] for s in summary.values())
        cards = sum(s["cards"] for s in summary.values())
        warned = f", {count_of(len(warnings), 'warning')}" if warnings else ""
        click.echo(f"{count_of(len(problems), 'problem')}{warned} in {count_of(files, 'file')} "
                   f"({count_of(cards, 'card')}, {count_of(len(summary), 'game')})", err=True)




# ---------------------------------------------------------------- explain


@click.command()
@click.argument("game")
@click.argument("text")
def explain(game: str, text: str) -> None:
    """Show how GAME understands one effect TEXT."""
    with user_errors():
        loaded = load_game_argument(game)
        try:
            explained = explain_text(loaded.rules, text)
        except CardrulesError as err:
            raise CardrulesError(quote_card_names(err.problems, loaded.cards)) from None
        click.echo(explained)
        # what check would say of it on a card: the kinds it runs on
        runs = where_it_runs(loaded, text)
        if runs:
            click.echo(runs)



# ---------------------------------------------------------------- rulings


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--quiet", is_flag=True, help="Print only failures and the summary.")
def ruling(files: tuple[Path, ...], quiet: bool) -> None:
    """Run .ruling files: print each trace and whether its expectations hold."""
    passed = failed = 0
    for path in files:
        if not path.exists():
            print_problems([Problem("E901", f"no such file: {path}")], err=True)
            sys.exit(2)
        source, rulings, problems = load_ruling_file(path)
        if problems:
            print_problems(problems)
            failed += max(1, len(rulings))
            continue
        for item in rulings:
            try:
                result = run_ruling(item, source)
            except CardrulesError as err:
                print_problems(err.problems)
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
                print_problems(result.failures)
                click.echo(f"FAIL {path}: {item.name}")
            if not quiet:
                click.echo()
    click.echo(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


# ---------------------------------------------------------------- new


@click.command()
@click.argument("game_id", metavar="GAME-ID")
@click.argument("folder", required=False, type=click.Path(path_type=Path))
@click.option("--title", help='The game\'s title (default: from GAME-ID, "my-game" -> "My Game").')
def new(game_id: str, folder: Path | None, title: str | None) -> None:
    """Make a project folder for a new game: a rules file, a card file, a deck,
    rulings and a README (in FOLDER, default ./GAME-ID).

    Every command run inside the folder uses its files."""
    folder = folder or Path(game_id)
    with user_errors():
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


@click.command()
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


COMMANDS = (check, explain, ruling, new, games)
