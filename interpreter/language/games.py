"""Games: a rules file with its card and deck files, found and loaded together.

A game lives in a *root* directory laid out as this repository is::

    rules/<game-id>.rules
    cards/<game-id>/*.cards
    cards/<game-id>/decks/*.deck

Which copy of a game a command uses (a designer's project folder, an
expansion of an installed game, or the installed game) is
``interpreter.language.projects``' to say; a designer's repository is found
by walking up from any file in it. :func:`load_game` reads everything,
checks it and returns a :class:`Game` whose ``problems`` lists every mistake.
"""

from __future__ import annotations

from pathlib import Path

import attrs

from interpreter.collector import collection_paused
from interpreter.errors import CouldNotRun, Problem, did_you_mean, listing
from interpreter.language.cards import CardDefinition, load_cards, quote_card_names
from interpreter.language.declared_events import event_word, logging_advice, unlogged_events
from interpreter.language.decks import Deck, load_decks
from interpreter.language.files import Unreadable, memory_stamp, read_source
from interpreter.language.game_rules import GameRules
from interpreter.language.projects import GameFiles, Library, installed_root
from interpreter.language.rules_file import load_rules
from interpreter.language.syntax import problem_at
from interpreter.source import Span


@attrs.define
class Game:
    game_id: str
    root: Path
    rules: GameRules
    cards: dict[str, CardDefinition] = attrs.Factory(dict)
    decks: list[Deck] = attrs.Factory(list)
    problems: list[Problem] = attrs.Factory(list)
    # what is likely a mistake but does not stop the game (an empty card file)
    warnings: list[Problem] = attrs.Factory(list)
    files: list[str] = attrs.Factory(list)
    card_files: list[str] = attrs.Factory(list)
    deck_files: list[str] = attrs.Factory(list)


def _unlogged_event_warnings(rules: GameRules, source) -> list[Problem]:
    """W402 at each declared event nothing in the game logs: a card that
    watches it would never trigger (check refuses such a card, E820)."""
    unlogged = set(unlogged_events(rules).values())
    return [problem_at(
        source, event.span, "W402",
        f'nothing in this game makes "{event.phrase}" happen: a card watching it would '
        "never trigger",
        suggestion=logging_advice(event_word(event.phrase)))
        for event in rules.events if event.phrase in unlogged]


def shipped_root() -> Path:
    return installed_root()


def shipped_games() -> list[str]:
    """The installed games (a project folder's own games aside)."""
    return Library.of(installed_root()).game_ids()


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def find_root(path: Path) -> tuple[Path, str] | None:
    """The game root and game id a card, deck or rules file belongs to: the
    root of its rules file, or the expansion folder adding cards to an
    installed game — where the file stands, not where a link to it leads."""
    path = path.absolute().parent.resolve() / path.name
    if path.suffix == ".rules":
        return path.parent.parent, path.stem
    for parent in path.parents:
        if parent.parent.name == "cards" and Library.of(parent.parent.parent).locate(
                parent.name, only_project=True):
            return parent.parent.parent, parent.name
    return None


def load_game(game: str | Path, root: Path | None = None,
              extra_files: tuple[Path, ...] = ()) -> Game:
    """Load a game by id and check all its files: from ``root`` if given (its
    own game, or its cards added to an installed game), else as commands see
    it from the current folder (a project folder's, else the installed one).
    ``extra_files`` are loose card and deck files read with the game's."""
    library = Library.of(root) if root is not None else Library.around(Path.cwd())
    return load_from(library, str(game), extra_files, only_project=root is not None)


def load_from(library: Library, game_id: str, extra_files: tuple[Path, ...] = (),
              only_project: bool = False) -> Game:
    """A game of ``library`` (as a command run in a folder sees it: a web
    table serving a designer's folder) by id, all its files checked."""
    return _load(_locate(library, game_id, only_project), tuple(extra_files))


def _locate(library: Library, game_id: str, only_project: bool) -> GameFiles:
    files = library.locate(game_id, only_project=only_project)
    if files is None:
        known = library.project_game_ids() if only_project and library.project \
            else library.game_ids()
        raise CouldNotRun(Problem(
            "E902", f'unknown game "{game_id}"', None, None,
            (listing(known),) if known else (), did_you_mean(game_id, known)))
    return files


def game_inputs(game: str, root: Path | None = None,
                extra_files: tuple[Path, ...] = ()) -> list[tuple[Path, str]]:
    """Every file :func:`load_game` reads for these arguments, with the path
    it shows for it, in the order read: what decides the loaded game (with
    the code reading them). Raises CouldNotRun as load_game does."""
    library = Library.of(root) if root is not None else Library.around(Path.cwd())
    located = _locate(library, str(game), only_project=root is not None)
    card_paths, deck_paths = _card_and_deck_paths(located, extra_files)
    return [(path, _display(path)) for path in [located.rules, *card_paths, *deck_paths]]


def _card_and_deck_paths(located: GameFiles, extra_files: tuple[Path, ...]):
    return (located.card_paths() + [p for p in extra_files if p.suffix != ".deck"],
            located.deck_paths() + [p for p in extra_files if p.suffix == ".deck"])


_CACHE: dict[tuple, Game] = {}
# games kept at most: a loaded game holds its parser (hundreds of thousands
# of objects), and a process that loads game after game (a test run, a
# server of many projects) would otherwise keep every one
KEPT_GAMES = 12


def _keep(key: tuple, game: Game) -> None:
    """Cache a loaded game, in place of an older load of the same files: a
    long-running server (the editor's) reloads a game at every edit, and
    only its latest state is asked for again. Beyond ``KEPT_GAMES`` the
    game used least recently is dropped (``_load`` moves a game it finds
    to the end)."""
    files = (key[0], tuple(stamp[0] for stamp in key[1]))
    for old in [k for k in _CACHE if (k[0], tuple(stamp[0] for stamp in k[1])) == files]:
        del _CACHE[old]
    _CACHE[key] = game
    while len(_CACHE) > KEPT_GAMES:
        del _CACHE[next(iter(_CACHE))]


def _read_game_file(game: Game, path: Path, kind_files: list, problems: list):
    """A card or deck file of the game, recorded; None (and its problem) if
    it cannot be read as text."""
    source = read_source(path, _display(path))
    game.files.append(source.path)
    kind_files.append(source.path)
    if isinstance(source, Unreadable):
        problems.append(source.problem)
        return None
    return source


def _stamp(path: Path) -> tuple:
    """What tells that a file changed since its game was cached (a link to
    nothing has no time: the reader reports it; an editor's text in memory
    its digest)."""
    held = memory_stamp(path)
    if held is not None:
        return (str(path), "memory", held)
    try:
        found = path.stat()
    except OSError:
        return (str(path), None, None)
    return (str(path), found.st_mtime_ns, found.st_size)


@collection_paused()
def _load(located: GameFiles, extra_files: tuple[Path, ...] = ()) -> Game:
    game_id, root = located.game_id, located.root
    files = [located.rules]
    card_paths, deck_paths = _card_and_deck_paths(located, extra_files)
    stamp = tuple(_stamp(p) for p in files + card_paths + deck_paths)
    key = (game_id, stamp)
    if key in _CACHE:
        _CACHE[key] = _CACHE.pop(key)       # the most recently used, kept longest
        return _CACHE[key]
    rules_source = read_source(files[0], _display(files[0]))
    problems: list[Problem] = []
    if isinstance(rules_source, Unreadable):
        problems.append(rules_source.problem)
        rules = GameRules(game_id=game_id, path=rules_source.path)
    else:
        rules, rule_problems = load_rules(rules_source, game_id)
        problems.extend(rule_problems)
    game = Game(game_id, root, rules, problems=problems,
                files=[rules_source.path])
    if any(p.code.startswith(("E1", "E5", "E3")) and p.span and p.span.path == rules_source.path
           for p in problems):
        _keep(key, game)
        return game  # cards cannot be read in a language that failed to build
    game.warnings.extend(_unlogged_event_warnings(rules, rules_source))
    references = []
    refused: set[str] = set()
    sources = {}
    for path in card_paths:
        source = _read_game_file(game, path, game.card_files, problems)
        if source is None:
            continue
        sources[source.path] = source
        loaded = load_cards(source, rules)
        problems.extend(loaded.problems)
        if not loaded.cards and not loaded.problems:
            game.warnings.append(problem_at(
                source, Span(source.path, 1, 1, 1, 1), "W401", "this card file defines no cards",
                suggestion='a card starts with a line card "NAME" (see docs/language.md)'))
        references.extend(loaded.references)
        refused.update(loaded.refused)
        for card in loaded.cards:
            if card.name in game.cards:
                other = game.cards[card.name]
                problems.append(problem_at(
                    source, card.span, "E412",
                    f'duplicate card name "{card.name}" (first defined at '
                    f"{other.span.path}:{other.span.line})"))
                continue
            game.cards[card.name] = card
    problems[:] = quote_card_names(problems, game.cards)
    for name, span in references:
        if name not in game.cards and name not in refused and span is not None and \
                span.path in sources:
            problems.append(problem_at(
                sources[span.path], span, "E305", f'unknown card "{name}"',
                (), did_you_mean(name, game.cards)))
    for path in deck_paths:
        source = _read_game_file(game, path, game.deck_files, problems)
        if source is None:
            continue
        decks, deck_problems = load_decks(source, rules, game.cards, frozenset(refused))
        game.decks.extend(decks)
        problems.extend(deck_problems)
    _keep(key, game)
    return game
