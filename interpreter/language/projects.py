"""Where the games a command sees come from: a designer's project folder, then
the installed games.

A *project folder* is laid out as this repository is (``rules/<id>.rules``,
``cards/<id>/*.cards``, ``cards/<id>/decks/*.deck``). Every command run
inside one (in it or in a folder below it) uses it: its rules files are its
own games, and replace an installed game of the same id; a ``cards/<id>/``
folder for an installed game that the project has no rules for is an
*expansion*: its cards and decks are added to the installed game's. Outside
any project folder, commands use the installed games only.

The installed games are the package's own data (``interpreter.resources``):
in a source checkout installed as editable, the checkout itself, which is
then not a project of its own.
"""

from __future__ import annotations

from pathlib import Path

import attrs

from interpreter.resources import data_dir


def installed_root() -> Path:
    """The folder holding the installed games' ``rules/`` and ``cards/``."""
    return data_dir("rules").parent


def _rules_ids(root: Path) -> list[str]:
    folder = root / "rules"
    return sorted(p.stem for p in folder.glob("*.rules")) if folder.is_dir() else []


def _card_ids(root: Path) -> list[str]:
    folder = root / "cards"
    return sorted(p.name for p in folder.iterdir() if p.is_dir()) if folder.is_dir() else []


def _present(path: Path) -> bool:
    """A file is there, even one the reader will refuse (a pipe, a link to a
    device or to nothing): the reader says what is wrong with it."""
    return path.is_symlink() or (path.exists() and not path.is_dir())


@attrs.frozen
class GameFiles:
    """One game's files: its rules file and the card folders it reads, the
    folder of its rules first (each folder's ``decks/`` holds its decks)."""

    game_id: str
    rules: Path
    card_folders: tuple[Path, ...]

    @property
    def root(self) -> Path:
        return self.rules.parent.parent

    def card_paths(self) -> list[Path]:
        return [p for folder in self.card_folders for p in sorted(folder.glob("*.cards"))]

    def deck_paths(self) -> list[Path]:
        return [p for folder in self.card_folders
                for p in sorted((folder / "decks").glob("*.deck"))]


@attrs.frozen
class Library:
    """The games a command can use: ``project``'s (if any), then the installed ones."""

    installed: Path
    project: Path | None = None

    @classmethod
    def around(cls, start: Path) -> Library:
        """The library seen from ``start``: the nearest project folder at or
        above it, with the installed games."""
        installed = installed_root().resolve()
        start = start.resolve()
        installed_ids = set(_rules_ids(installed))
        for folder in (start, *start.parents):
            if folder == installed:
                break
            if _rules_ids(folder) or set(_card_ids(folder)) & installed_ids:
                return cls(installed, folder)
        return cls(installed)

    @classmethod
    def of(cls, root: Path) -> Library:
        """The library of an explicit game folder (a fixture, a path given on
        the command line): ``root`` as the project."""
        installed = installed_root().resolve()
        root = root.resolve()
        return cls(installed, None if root == installed else root)

    def game_ids(self) -> list[str]:
        """Every game this library can load."""
        return sorted(set(self.project_game_ids()) | set(_rules_ids(self.installed)))

    def project_game_ids(self) -> list[str]:
        """The games the project folder defines or extends (none outside one)."""
        if self.project is None:
            return []
        installed = set(_rules_ids(self.installed))
        expansions = [g for g in _card_ids(self.project) if g in installed]
        return sorted(set(_rules_ids(self.project)) | set(expansions))

    def locate(self, game_id: str, only_project: bool = False) -> GameFiles | None:
        """The files of ``game_id``: the project's own game, an installed
        game with the project's expansion cards, or (unless ``only_project``)
        the installed game."""
        project = self.project
        if project is not None and _present(project / "rules" / f"{game_id}.rules"):
            return GameFiles(game_id, project / "rules" / f"{game_id}.rules",
                             (project / "cards" / game_id,))
        rules = self.installed / "rules" / f"{game_id}.rules"
        if not _present(rules):
            return None
        folders = [self.installed / "cards" / game_id]
        if project is not None and (project / "cards" / game_id).is_dir():
            folders.append(project / "cards" / game_id)
        elif only_project and project is not None:
            return None
        return GameFiles(game_id, rules, tuple(folders))

    def where(self, game_id: str) -> str:
        """Which copy of a game commands use, in words (``cardrules games``)."""
        files = self.locate(game_id)
        if files is None:
            return "unknown"
        if files.root != self.installed:
            return f"project {files.root}"
        if len(files.card_folders) > 1:
            return f"installed, with cards from {self.project}"
        return "installed"
