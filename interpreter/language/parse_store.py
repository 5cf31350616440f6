"""The user's cache folder: what a repeated `check` or `play` need not redo.

Three things are kept there, each in files named by a digest of what decides
them, the oldest removed past a bound: lark's analysis of each grammar
(:func:`grammar_cache`, a file lark itself writes and reads), the parsed
texts of rules and card files, and records other stages keep as JSON
(:func:`record_path`: what ``check`` found in a game).

Reading lark's file back is most of a start without parsed texts: lark
builds each reduce entry of the parse table through its general
deserializer (tens of thousands of calls for a game's card grammar, each a
lookup of the same few hundred rules). :func:`load_parse_table` builds the
same table in one pass and is the one lark uses (set on its table class
when this module is imported).

Every effect text of a rules or card file is parsed into a frozen AST. This
module keeps those ASTs on disk, one JSON file per source file, named by
the SHA-256 of what decides them: the game's effect grammar (its vocabulary
included), the language package's own code, the file's path and its text.
Any edit of any of these makes a new name, so a stale entry is never read;
the oldest files are removed past a bound.

The files are JSON (nothing that runs code when read): nodes are written
as their class name and fields, and only the classes of
``interpreter.language.ast`` (and ``Span``) are built back. A file that does not read back exactly is ignored. The
store lives in the user's own cache directory (``$XDG_CACHE_HOME/cardrules``
or ``~/.cache/cardrules``; ``CARDRULES_CACHE_DIR`` names another folder),
like lark's grammar cache; ``CARDRULES_NO_CACHE=1`` turns it off.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import attrs
from lark.grammar import Rule
from lark.parsers.lalr_analysis import IntParseTable, Reduce, Shift

from interpreter.language import ast
from interpreter.source import Span

_CLASSES = {cls.__name__: cls for cls in vars(ast).values()
            if isinstance(cls, type) and attrs.has(cls) and cls.__module__ == ast.__name__}
_CLASSES["Span"] = Span
_FILES_KEPT = 256       # parsed files: every edit of a card file makes a new one
_GRAMMARS_KEPT = 64     # lark's grammars: every edit of a rules file makes a new one


def _code_digest() -> str:
    """The language package's code: a change to how texts are read is a new store."""
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).resolve().parent.glob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()


_CODE = _code_digest()


def _folder(always: bool = False) -> Path | None:
    """The cache folder, made if missing; None when it cannot be written or
    (unless ``always``: lark's grammar files) the store is turned off."""
    if os.environ.get("CARDRULES_NO_CACHE") and not always:
        return None
    base = Path(os.environ.get("CARDRULES_CACHE_DIR") or Path(
        os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "cardrules")
    try:
        base.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        return None        # no writable cache: parse every run
    return base


def grammar_cache(grammar: str) -> str | bool:
    """Where lark keeps the analysed grammar between runs (False: nowhere).

    A file in the user's own cache directory (not the shared temporary
    directory, where another user could plant a file for lark to load).
    """
    folder = _folder(always=True)
    if folder is None:
        return False  # no writable cache: build the grammar every run
    digest = hashlib.sha256(grammar.encode("utf-8")).hexdigest()[:24]
    path = folder / f"grammar-{digest}.lark-cache"
    if not _touch(path):
        _trim(folder, "grammar-*.lark-cache", _GRAMMARS_KEPT)
    return str(path)


def _touch(path: Path) -> bool:
    """Mark a kept file as just used (the bound removes the files least
    recently used, not those made first: the outline grammar, read by every
    run, stays); False if there is no such file."""
    try:
        os.utime(path)
        return True
    except OSError:
        return False


def load_parse_table(cls, data: dict, memo: dict):
    """lark's ``ParseTableBase.deserialize``, each rule a reduce names built
    (or found in lark's memo) once: the same table, the same objects."""
    tokens = data["tokens"]
    reduces: dict = {}
    states = {}
    for state, actions in data["states"].items():
        row = {}
        for token, (action, arg) in actions.items():
            if action == 1:
                ref = arg.get("@") if type(arg) is dict else None
                entry = reduces.get(ref) if ref is not None else None
                if entry is None:
                    entry = (Reduce, Rule.deserialize(arg, memo))
                    if ref is not None:
                        reduces[ref] = entry
                row[tokens[token]] = entry
            else:
                row[tokens[token]] = (Shift, arg)
        states[state] = row
    return cls(states, data["start_states"], data["end_states"])


# lark's own, kept for the test that both build the same table
lark_load_parse_table = IntParseTable.deserialize
IntParseTable.deserialize = classmethod(load_parse_table)


def store_path(grammar: str, path: str, text: str) -> Path | None:
    """Where the parses of ``text`` (the file at ``path``) are kept for ``grammar``."""
    folder = _folder()
    if folder is None:
        return None
    digest = hashlib.sha256()
    for part in (_CODE, grammar, path, text):
        digest.update(part.encode("utf-8"))
        digest.update(b"\0")
    return folder / f"parsed-{digest.hexdigest()[:32]}.json"


def _encode(value):
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    cls = type(value)
    if _CLASSES.get(cls.__name__) is not cls:
        raise TypeError(cls.__name__)
    return {"@": cls.__name__, **{f.name: _encode(getattr(value, f.name))
                                  for f in attrs.fields(cls) if f.init}}


def _decode(value):
    if isinstance(value, list):
        return tuple(_decode(v) for v in value)
    if isinstance(value, dict):
        cls = _CLASSES[value["@"]]      # KeyError: not a node we write
        return cls(**{k: _decode(v) for k, v in value.items() if k != "@"})
    return value


def recall(where: Path | None) -> dict[tuple, object]:
    """The parses kept at ``where``: (text, path, line, column, start) -> AST."""
    data = read_record(where)
    try:
        return {tuple(key): _decode(node) for key, node in data or ()}
    except (ValueError, KeyError, TypeError, AttributeError):
        return {}           # missing, or not what this version writes: parse again


def keep(where: Path | None, parsed: dict[tuple, object]) -> None:
    """Write ``parsed`` at ``where`` (entries that do not read back exactly are left out)."""
    if where is None or not parsed:
        return
    entries = []
    for key, node in parsed.items():
        try:
            encoded = _encode(node)
            if _encode(_decode(encoded)) != encoded:
                continue
        except (TypeError, KeyError):
            continue
        entries.append([list(key), encoded])
    write_record(where, entries)


def record_path(kind: str, parts) -> Path | None:
    """Where a record of ``kind`` (a word) decided by the strings ``parts``
    is kept: named by their digest (None: the store is off or unwritable)."""
    folder = _folder()
    if folder is None:
        return None
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode("utf-8", "surrogateescape"))
        digest.update(b"\0")
    return folder / f"{kind}-{digest.hexdigest()[:32]}.json"


def read_record(where: Path | None):
    """The JSON kept at ``where``; None when there is none (or it does not read)."""
    if where is None or not _touch(where):
        return None
    try:
        return json.loads(where.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def write_record(where: Path | None, data) -> None:
    """Keep ``data`` as JSON at ``where``, whole or not at all; the oldest
    records of its kind past the bound are removed."""
    if where is None:
        return
    try:
        partial = where.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(json.dumps(data, separators=(",", ":")), encoding="utf-8")
        partial.replace(where)       # whole or not at all, even with two runs at once
        _trim(where.parent, where.name.split("-", 1)[0] + "-*.json", _FILES_KEPT)
    except OSError:
        pass


def _trim(folder: Path, pattern: str, kept: int) -> None:
    """Keep the ``kept`` files of ``pattern`` used last: the cache stays small."""
    try:
        files = sorted(folder.glob(pattern), key=lambda p: p.stat().st_mtime)
        for old in files[:-kept]:
            old.unlink(missing_ok=True)
    except OSError:
        pass
