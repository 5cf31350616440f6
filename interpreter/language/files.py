"""Reading a user's file: the one door every rules, card, deck and ruling file
comes in by.

Only a regular file is read (after following links): a device such as
``/dev/zero`` would never end and a named pipe would wait for a writer
forever, so anything else is named as a problem at the file (E904) without
being opened for a read. At most :data:`MAX_FILE_BYTES` (plus one, to tell a
file that is too long) are read, whatever its size claims, so a file that
grows while it is read cannot exhaust memory either. A file that is not
UTF-8 text is a problem at the first byte that is not (E106). A missing file
or a directory stops the command (E901).

An editor's unsaved text comes in by the same door: inside
:func:`texts_in_memory`, a file given there is read from that text instead
of the disk (the language server checks what is on screen, the rest of the
game from disk), and :func:`memory_stamp` tells a cache that it changed.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
from pathlib import Path
from typing import Iterator, Mapping

from interpreter.errors import CouldNotRun, Problem
from interpreter.source import SourceText, Span

# A card, rules or deck file is text a person writes: far below this.
MAX_FILE_BYTES = 4_000_000

# Open without waiting: a named pipe put in place of a file between the look
# at it and the open must not block (it is refused by its kind just after).
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


# resolved path -> the text an editor holds for it (texts_in_memory)
_IN_MEMORY: dict[Path, str] = {}


@contextlib.contextmanager
def texts_in_memory(texts: Mapping[Path, str]) -> Iterator[None]:
    """Within this block, each file of ``texts`` is read from its text (an
    editor's unsaved buffer) in place of the disk."""
    saved = dict(_IN_MEMORY)
    _IN_MEMORY.update({Path(path).resolve(): text for path, text in texts.items()})
    try:
        yield
    finally:
        _IN_MEMORY.clear()
        _IN_MEMORY.update(saved)


def memory_stamp(path: Path) -> str | None:
    """A digest of the text held in memory for ``path`` (None: read from disk)."""
    text = _IN_MEMORY.get(Path(path).resolve()) if _IN_MEMORY else None
    return None if text is None else hashlib.sha256(text.encode("utf-8")).hexdigest()


class Unreadable(SourceText):
    """A file that could not be read as text; carries the problem, at the file."""

    def __init__(self, path: str, problem: Problem):
        super().__init__(path, "")
        object.__setattr__(self, "problem", problem)


def read_source(path: Path, display: str | None = None) -> SourceText:
    """The text of a user's file; an unreadable one is an :class:`Unreadable`
    with its problem, a missing one raises :class:`CouldNotRun`."""
    shown = display or str(path)
    if _IN_MEMORY and Path(path).resolve() in _IN_MEMORY:
        return _text(shown, _IN_MEMORY[Path(path).resolve()].encode("utf-8"))
    try:
        found = os.stat(path)
        if stat.S_ISDIR(found.st_mode):
            raise IsADirectoryError
        if not stat.S_ISREG(found.st_mode):
            return _not_a_file(path, shown, found.st_mode)
        descriptor = os.open(path, _OPEN_FLAGS)
        with os.fdopen(descriptor, "rb") as opened:
            found = os.fstat(opened.fileno())
            if not stat.S_ISREG(found.st_mode):
                return _not_a_file(path, shown, found.st_mode)
            data = opened.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        if os.path.islink(path):
            return _dangling(path, shown)
        raise CouldNotRun(Problem("E901", f"no such file: {shown}")) from None
    except IsADirectoryError:
        raise CouldNotRun(Problem("E901", f"{shown} is a directory, not a file")) from None
    except OSError as err:
        raise CouldNotRun(Problem("E901", f"cannot read {shown}: {err.strerror}")) from None
    if len(data) > MAX_FILE_BYTES:
        size = max(found.st_size, len(data))
        return Unreadable(shown, Problem(
            "E108", f"this file is {size / 1e6:.1f} MB; cardrules reads files up to "
            f"{MAX_FILE_BYTES // 1_000_000} MB (split the cards over several files)",
            _at_start(shown), None, (f"a file under {MAX_FILE_BYTES // 1_000_000} MB",)))
    return _text(shown, data)


def _text(shown: str, data: bytes) -> SourceText:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[:err.start].count(b"\n") + 1
        column = err.start - (data.rfind(b"\n", 0, err.start) + 1) + 1
        return Unreadable(shown, Problem(
            "E106", "this file is not UTF-8 text", Span(shown, line, column, line, column + 1),
            None, ("a text file in UTF-8",)))
    if "\x00" in text:
        index = text.index("\x00")
        line = text.count("\n", 0, index) + 1
        column = index - (text.rfind("\n", 0, index) + 1) + 1
        return Unreadable(shown, Problem(
            "E106", "this file contains binary data (a NUL byte)",
            Span(shown, line, column, line, column + 1), None, ("a text file",)))
    return SourceText(shown, text)


_KINDS = ((stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def _not_a_file(path: Path, shown: str, mode: int) -> Unreadable:
    """E904 for a device, a pipe or a socket: reading one may never end."""
    kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
    what = f"this is {kind}"
    if os.path.islink(path):
        what = f"this links to {os.path.realpath(path)}, {kind}"
    return Unreadable(shown, Problem(
        "E904", f"{what}, not a file of text: cardrules reads only regular files",
        _at_start(shown), None, ("a regular file of text",),
        "put the file itself here (or a link to it), not a device or a pipe"))


def _dangling(path: Path, shown: str) -> Unreadable:
    return Unreadable(shown, Problem(
        "E904", f"this links to {os.readlink(path)}, which does not exist",
        _at_start(shown), None, ("a regular file of text",)))


def _at_start(shown: str) -> Span:
    return Span(shown, 1, 1, 1, 2)
