"""What the language server says about one file as it stands in an editor:
its game's problems (those ``cardrules check`` and ``cardrules ruling``
report), the words that may come next at a position, what a card name or an
effect line means, and where a card, verb or keyword is defined.

Every answer is computed from the files of the game on disk with the
editor's open texts in their place (``files.texts_in_memory``): the same
loader as every command, so an editor shows exactly what ``check`` prints.
Positions here are as problems count them (1-based lines and columns); the
server turns them into the protocol's.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Mapping

import attrs

from interpreter.cli.checked import compile_problems
from interpreter.errors import CardrulesError, CouldNotRun, Problem
from interpreter.language.explain import explain_text
from interpreter.language.files import read_source, texts_in_memory
from interpreter.language.games import Game, find_root, load_game
from interpreter.language.vocabulary import third_person
from interpreter.rulings import find_game, load_ruling_file, run_ruling
from interpreter.source import Span

# the files the server answers for
SUFFIXES = (".rules", ".cards", ".deck", ".ruling")

_QUOTED = re.compile(r'"([^"]*)"')
_PARTIAL = re.compile(r"[\w+\-']*$")
_KEY = re.compile(r"^\s*([A-Za-z][\w .\-]*):\s*")


@attrs.frozen
class Place:
    """Where something is defined: a file and its 1-based line."""

    path: Path
    line: int


def _absolute(shown: str) -> Path:
    return (Path.cwd() / shown).resolve()


def _quoted_at(text: str, column: int) -> str | None:
    for found in _QUOTED.finditer(text):
        if found.start() < column <= found.end():
            return found.group(1)
    return None


@attrs.frozen
class _Spot:
    """A position in an open file: its game, its lines, the line it is on
    and the card named in quotes there (None if no card of the game)."""

    game: Game
    lines: list[str]
    here: str
    card: str | None


def _spot(path: Path, texts: Mapping[Path, str], line: int, column: int) -> _Spot | None:
    game = game_of(path, texts)
    lines = texts.get(path, "").replace("\r\n", "\n").split("\n")
    if game is None or not 0 < line <= len(lines):
        return None
    name = _quoted_at(lines[line - 1], column)
    return _Spot(game, lines, lines[line - 1], name if name in game.cards else None)


# ---------------------------------------------------------------- which game


def game_of(path: Path, texts: Mapping[Path, str]) -> Game | None:
    """The game ``path`` belongs to, as check sees it (a ruling: the game it
    names), read with the editor's texts; None if no game can be told."""
    with texts_in_memory(texts):
        if path.suffix == ".ruling":
            _, rulings, _ = load_ruling_file(path)
            try:
                return find_game(rulings[0]) if rulings else None
            except CouldNotRun:
                return None
        found = find_root(path)
        if found is None:
            return None
        try:
            return load_game(found[1], found[0])
        except CouldNotRun:
            return None


# ---------------------------------------------------------------- diagnostics


def check_file(path: Path, texts: Mapping[Path, str]) -> dict[Path, list[Problem]]:
    """The problems and warnings of ``path``'s game, by file (each file of the
    game present, so that a fixed file's list is empty): for a card, deck or
    rules file what ``cardrules check`` reports, for a ruling file what
    ``cardrules ruling`` reports (its problems, then its failures)."""
    path = path.resolve()
    if path.suffix == ".ruling":
        return {path: _ruling_problems(path, texts)}
    found = find_root(path)
    if found is None:
        return {path: [Problem(
            "E903", f"cannot tell which game {path.name} belongs to", Span(str(path), 1, 1, 1, 2),
            None, ("rules/<game-id>.rules, or a file under cards/<game-id>/ beside it",),
            "put the file in a project folder (cardrules new) or check it with "
            "cardrules check --game ID FILE")]}
    # a new card or deck file not saved yet is read with the game's own
    unsaved = (path,) if path.suffix in (".cards", ".deck") and not path.exists() else ()
    try:
        with texts_in_memory(texts):
            game = load_game(found[1], found[0], extra_files=unsaved)
            compiled = compile_problems(game)
    except CardrulesError as err:
        return {path: [_placed(p, path) for p in err.problems]}
    out: dict[Path, list[Problem]] = {_absolute(f): [] for f in game.files}
    out.setdefault(path, [])
    for problem in [*game.problems, *compiled, *game.warnings]:
        where = path if problem.span is None else _absolute(problem.span.path)
        out.setdefault(where, []).append(_placed(problem, where))
    return out


def _ruling_problems(path: Path, texts: Mapping[Path, str]) -> list[Problem]:
    with texts_in_memory(texts):
        source, rulings, problems = load_ruling_file(path)
        if problems:
            return [_placed(p, path) for p in problems]
        found: list[Problem] = []
        for item in rulings:
            try:
                result = run_ruling(item, source)
            except CardrulesError as err:
                found.extend(err.problems)
                continue
            found.extend(result.failures)
    # a problem of the game's own files is shown at the ruling's first line
    return [_placed(p, path) for p in found]


def _placed(problem: Problem, path: Path) -> Problem:
    """The problem with a span in ``path`` (one without is put at line 1)."""
    if problem.span is not None and _absolute(problem.span.path) == path:
        return problem
    return attrs.evolve(problem, span=Span(str(path), 1, 1, 1, 2))


# ---------------------------------------------------------------- completion


def complete(path: Path, texts: Mapping[Path, str], line: int, column: int) -> list[tuple[str, str]]:
    """(word, what it is) that may be written at 1-based ``line``, ``column``
    of ``path``: card names inside quotes; in an effect text what the card
    grammar accepts next; after "kind:" the game's card kinds, after a stat
    with named values those values; else the game's words of every kind."""
    spot = _spot(path, texts, line, column)
    if spot is None:
        return []
    game, lines, before = spot.game, spot.lines, spot.here[:column - 1]
    partial = _PARTIAL.search(before).group(0)
    if before.count('"') % 2 == 1:
        typed = before[before.rfind('"') + 1:]
        return [(name, "card") for name in sorted(game.cards)
                if name.lower().startswith(typed.lower())]
    key = _KEY.match(before)
    stat = game.rules.stat(key.group(1).strip()) if key and path.suffix == ".cards" else None
    if key and key.group(1).lower() == "kind":
        words = [(k, "card kind") for k in sorted(game.rules.kinds)]
    elif stat is not None and stat.values:
        # "domain: " -> the values the rules allow for that stat
        words = [(v, f"{stat.name} value") for v in stat.values]
    elif path.suffix == ".cards" and _in_text(lines, line):
        categories = game.rules.vocabulary().category_of()
        written = before[:len(before) - len(partial)].strip()
        try:
            accepted = game.rules.parser().next_words(written)
        except CardrulesError:
            accepted = []
        words = [(w, categories.get(w.rstrip(":").lower() if w.endswith(":") else w.lower(),
                                    categories.get(w.lower(), "word")))
                 for w in accepted if "{" not in w]
    else:
        words = []
    if not words:
        words = game_words(game)
    if partial[:1].isupper():
        # a sentence's first word: "Dr" -> "Draw", as the designer writes it
        words = [(w[:1].upper() + w[1:], what) for w, what in words]
    return [(w, what) for w, what in dict.fromkeys(words)
            if w.lower().startswith(partial.lower())]


def game_words(game: Game) -> list[tuple[str, str]]:
    """Every word of the game's language, with what it is, and its card names."""
    vocab = game.rules.vocabulary()
    words = [(f"{label}:", "timing label") for label in vocab.timing_labels]
    words += [(k.leading_words, "keyword") for k in vocab.keywords]
    words += [(v.leading_words, "verb") for v in vocab.verbs]
    for group, what in ((vocab.zones, "zone"), (vocab.stats, "stat"),
                        (vocab.list_stats, "stat"), (vocab.kinds, "card kind"),
                        (vocab.counters, "counter"), (vocab.statuses, "status")):
        words += [(w, what) for w in group]
    words += [(f'"{name}"', "card") for name in sorted(game.cards)]
    return list(dict.fromkeys(words))


def _in_text(lines: list[str], line: int) -> bool:
    """Whether ``line`` is an effect line: under a card's "text:" (deeper
    indented), or one written on the "text:" line itself."""
    here = lines[line - 1]
    if re.match(r"^\s*text:\s*\S", here):
        return True
    indent = len(here) - len(here.lstrip())
    for above in reversed(lines[:line - 1]):
        if not above.strip():
            continue
        depth = len(above) - len(above.lstrip())
        if depth < indent:
            return above.strip() == "text:"
        if depth == indent and above.strip() == "text:":
            return False
    return False


# ---------------------------------------------------------------- hover and definitions


def card_text(game: Game, name: str, texts: Mapping[Path, str]) -> str | None:
    """A card's definition as written in its file (heading to the next card)."""
    card = game.cards.get(name)
    if card is None:
        return None
    with texts_in_memory(texts):
        lines = read_source(_absolute(card.span.path)).lines
    out = [lines[card.span.line - 1]]
    for line in lines[card.span.line:]:
        if line.strip() and not line[:1].isspace():
            break
        out.append(line)
    return "\n".join(out).rstrip()


def hover(path: Path, texts: Mapping[Path, str], line: int, column: int) -> str | None:
    """A card's text on its name; on an effect line, what ``explain`` says."""
    spot = _spot(path, texts, line, column)
    if spot is None:
        return None
    if spot.card is not None:
        return card_text(spot.game, spot.card, texts)
    if path.suffix == ".cards" and _in_text(spot.lines, line):
        effect = re.sub(r"^\s*text:\s*", "", spot.here).strip()
        try:
            return explain_text(spot.game.rules, effect)
        except CardrulesError:
            return None
    return None


def definition(path: Path, texts: Mapping[Path, str], line: int, column: int) -> Place | None:
    """Where the card named at the position is defined, or the verb or
    keyword written there (its line in the rules file)."""
    spot = _spot(path, texts, line, column)
    if spot is None:
        return None
    if spot.card is not None:
        span = spot.game.cards[spot.card].span
        return Place(_absolute(span.path), span.line)
    game, here = spot.game, spot.here
    for decl in (*game.rules.verbs, *game.rules.keywords):
        words = decl.pattern.leading_words
        if not words:
            continue
        forms = {words, _third_person_phrase(words)}
        for form in forms:
            for found in re.finditer(rf"(?i)(?<![\w-]){re.escape(form)}(?![\w-])", here):
                if found.start() < column <= found.end() + 1:
                    return Place(_absolute(decl.span.path), decl.span.line)
    return None


def _third_person_phrase(words: str) -> str:
    first, _, rest = words.partition(" ")
    return " ".join(filter(None, (third_person(first), rest)))

