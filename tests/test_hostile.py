"""Hostile input: whatever a user hands cardrules, it answers with a clear
message and the right exit code, never a traceback, and touches no file.

Small files live in tests/fixtures/bad/; the big ones (a 10 MB file, a
100,000-character line, nesting 10,000 deep) are written to a temporary
directory by the tests. Card and deck files are checked inside a copy of
the Duel fixture game (tests/fixtures/engine), so that they belong to a game.
"""

from __future__ import annotations

import hashlib
import os
import resource
import shutil
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli import main
from interpreter.language.files import read_source

HERE = Path(__file__).resolve().parent
BAD = HERE / "fixtures" / "bad"
ENGINE = HERE / "fixtures" / "engine"


@pytest.fixture
def game_root(tmp_path):
    root = tmp_path / "repo"
    shutil.copytree(ENGINE, root)
    return root


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def check(path: Path, *options):
    before = digest(path)
    result = CliRunner().invoke(main, ["check", *options, str(path)])
    assert digest(path) == before, "a checked file was changed"
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result


def place(root: Path, name: str, data: bytes | None = None, source: Path | None = None):
    target = root / "cards" / "duel" / (name if not name.endswith(".deck") else f"decks/{name}")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data if data is not None else source.read_bytes())
    return target


@pytest.mark.parametrize("name,code,exit_code", [
    ("empty.cards", None, 0),
    ("truncated.cards", "E103", 1),
    ("garbage.cards", "E106", 1),
    ("confusable.cards", "E201", 1),
    ("missing_cards.deck", "E305", 1),
])
def test_bad_files_give_a_clear_problem(game_root, name, code, exit_code):
    path = place(game_root, name, source=BAD / name)
    result = check(path)
    assert result.exit_code == exit_code, result.output
    if code:
        assert f": {code} " in result.output
        first = result.output.splitlines()[0]
        assert first.startswith(f"{path}:") or first.startswith(str(path.relative_to(
            Path.cwd())) if path.is_relative_to(Path.cwd()) else str(path))


def test_a_byte_order_mark_and_crlf_line_endings_are_read_as_text(game_root):
    for name in ("bom.cards", "crlf.cards"):
        path = place(game_root, name, source=BAD / name)
        result = check(path)
        assert result.exit_code == 0, result.output
    result = CliRunner().invoke(main, ["check", "--format", "json",
                                       str(game_root / "cards" / "duel")])
    assert result.exit_code == 0


def test_a_confusable_letter_is_pointed_at(game_root):
    path = place(game_root, "confusable.cards", source=BAD / "confusable.cards")
    result = check(path)
    assert ':6:5: E201 unexpected word "Wh\u0435n"' in result.output


def test_a_ten_megabyte_file(game_root):
    card = 'card "Bulk {i}"\n  kind: Creature\n  cost: 1\n  power: 1\n'
    blob = "".join(card.format(i=i) for i in range(200_000)).encode()
    assert len(blob) > 10_000_000
    path = place(game_root, "huge.cards", data=blob)
    result = check(path)
    assert result.exit_code == 1, result.output[-500:]
    assert (f":1:1: E108 this file is {len(blob) / 1e6:.1f} MB; cardrules reads files up "
            "to 4 MB") in result.output


def test_a_line_of_100000_characters(game_root):
    line = "card \"Long\"\n  kind: Creature\n  cost: 1\n  power: 1\n  text:\n    Draw a card" \
           + " and draw a card" * 6500 + ".\n"
    path = place(game_root, "long.cards", data=line.encode())
    assert len(line) > 100_000
    result = check(path)
    assert result.exit_code in (0, 1)


def test_nesting_deep(game_root):
    # Indented lines 2,000 deep (10,000 deep would be a 50 MB file, see above) ...
    text = "\n".join(" " * i + f"level{i}:" for i in range(2_000)) + "\n"
    path = place(game_root, "deep.cards", data=text.encode())
    result = check(path)
    assert result.exit_code == 1
    assert "E107 lines are nested more than 50 levels deep" in result.output
    # ... and card text nested 10,000 deep.
    text = ('card "Deep"\n  kind: Creature\n  cost: 1\n  power: 1\n  text:\n    '
            + "(" * 10_000 + "Draw a card." + ")" * 10_000 + "\n")
    path = place(game_root, "deep_text.cards", data=text.encode())
    result = check(path)
    assert result.exit_code == 1
    assert "E201" in result.output


def test_a_wrong_game_id():
    result = CliRunner().invoke(main, ["explain", "ryfft", "Draw a card."])
    assert result.exit_code == 2
    assert 'E902 unknown game "ryfft"' in result.output
    assert 'did you mean "ryft"?' in result.output
    play = CliRunner().invoke(main, ["play", "no-such-game"])
    assert play.exit_code == 2 and "E902" in play.output


def test_a_ruling_naming_a_missing_zone(tmp_path):
    ruling = tmp_path / "missing_zone.ruling"
    text = (BAD / "missing_zone.ruling").read_text().replace(
        "../engine/rules/duel.rules", str(ENGINE / "rules" / "duel.rules"))
    ruling.write_text(text)
    result = CliRunner().invoke(main, ["ruling", str(ruling)])
    assert result.exit_code == 1
    assert 'E711 unknown zone or counter "library"' in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("args", [
    ["check", "--no-such-option"],
    ["--frobnicate"],
    ["simulate", "ryft", "-n", "zero"],
    ["play"],
    ["explain", "ryft"],
    ["no-such-command"],
])
def test_unknown_command_line_options_exit_2(args):
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert "Usage:" in result.output or "Error" in result.output


def test_a_lone_carriage_return_ends_a_line_for_every_position(game_root):
    # found by fuzzing: the outline counted "\r" as a line end, the source
    # lines did not, so an ability was read from the wrong line
    text = ('card "Old Mac"\r  kind: Creature\n  cost: 1\n  power: 1\n  text:\n'
            "    When this is played: Draw a card and.\n")
    path = place(game_root, "cr.cards", data=text.encode())
    result = check(path)
    assert result.exit_code == 1
    assert ":6:41: E201 unexpected \".\"" in result.output
    assert "  6 |     When this is played: Draw a card and." in result.output


def _cut_mid_line(original: bytes) -> bytes:
    """The file cut off in the middle of the line at its half (a copy that
    stopped there): never at a line's end, where what is left may be a
    whole, valid file."""
    half = len(original) // 2
    start = original.rfind(b"\n", 0, half) + 1
    end = original.find(b"\n", half)
    end = len(original) if end < 0 else end
    return original[:max(start + 1, (start + end) // 2)]


def _hostile_forms(original: bytes) -> dict[str, bytes]:
    """The hostile forms of a good file: what a user's editor, a failed
    copy or a wrong file can leave in its place."""
    return {
        "empty": b"",
        "garbage": bytes((i * 167 + 13) % 256 for i in range(3000)),
        "truncated": _cut_mid_line(original),
        "bom and crlf": b"\xef\xbb\xbf" + original.replace(b"\n", b"\r\n"),
    }


def _ruling_file(tmp_path: Path) -> Path:
    ruling = tmp_path / "cast.ruling"
    ruling.write_text((HERE / "rulings" / "duel" / "cast.ruling").read_text().replace(
        "../../fixtures/engine/rules/duel.rules", str(ENGINE / "rules" / "duel.rules")))
    return ruling


# per kind: where the file is, the command, and per form the exit code and
# the problem expected (None: any problem, positioned in the file)
_KINDS = {
    "rules": (lambda root, tmp: root / "rules" / "duel.rules", "check",
              {"empty": (1, "1:1: E516 a rules file must start with game"),
               "garbage": (1, "E106 this file is not UTF-8 text"),
               "truncated": (1, None), "bom and crlf": (0, None)}),
    "deck": (lambda root, tmp: root / "cards" / "duel" / "decks" / "knights.deck", "check",
             {"empty": (0, None), "garbage": (1, "E106 this file is not UTF-8 text"),
              "truncated": (1, " E605 "), "bom and crlf": (0, None)}),
    "ruling": (lambda root, tmp: _ruling_file(tmp), "ruling",
               {"empty": (1, "1:1: E701 this ruling file has no ruling"),
                "garbage": (1, "E106 this file is not UTF-8 text"),
                "truncated": (1, None), "bom and crlf": (0, None)}),
}


@pytest.mark.parametrize("form", ["empty", "garbage", "truncated", "bom and crlf"])
@pytest.mark.parametrize("kind", sorted(_KINDS))
def test_every_kind_of_file_in_a_hostile_form(game_root, tmp_path, kind, form):
    locate, command, expected = _KINDS[kind]
    path = locate(game_root, tmp_path)
    data = _hostile_forms(path.read_bytes())[form]
    path.write_bytes(data)
    result = CliRunner().invoke(main, [command, str(path)])
    assert path.read_bytes() == data, "a file was changed"
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    exit_code, problem = expected[form]
    assert result.exit_code == exit_code, result.output
    if problem:
        assert problem in result.output, result.output
    lines = max(1, data.count(b"\n") + 1)
    for line in result.output.splitlines():
        # every problem of this file points at one of its lines
        if line.startswith(f"{path}:"):
            row = int(line[len(str(path)) + 1:].split(":")[0])
            assert 1 <= row <= lines, line



def _within(seconds: float, run):
    """What ``run()`` gives, and how long it took; a hang fails the test
    after ``seconds`` instead of hanging it."""
    answers = []
    worker = threading.Thread(target=lambda: answers.append(run()), daemon=True)
    start = time.perf_counter()
    worker.start()
    worker.join(seconds)
    assert answers, f"still running after {seconds} s"
    return answers[0], time.perf_counter() - start


_ENDLESS = {
    # what stands where a file should, and how the problem names it
    "a link to /dev/zero": (lambda path: path.symlink_to("/dev/zero"),
                            "this links to /dev/zero, a character device, "),
    "a named pipe": (lambda path: os.mkfifo(path), "this is a named pipe (FIFO), "),
}


@pytest.mark.parametrize("what,where", [
    ("a link to /dev/zero", "cards/duel/endless.cards"),
    ("a named pipe", "cards/duel/endless.cards"),
    ("a link to /dev/zero", "rules/duel.rules"),
    ("a named pipe", "endless.ruling"),
])
def test_a_device_or_a_pipe_in_place_of_a_file_is_refused_at_once(game_root, what, where):
    # found by a designer: "ln -s /dev/zero cards/ryft/z.cards" took 7.6 GB in
    # 8 s and never ended; a named pipe waited for a writer forever
    make, told = _ENDLESS[what]
    path = game_root / where
    path.unlink(missing_ok=True)
    make(path)
    # the one reader every file goes through refuses it at once, reading nothing
    memory = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    source, seconds = _within(10, lambda: read_source(path))
    assert seconds < 1, f"{seconds:.1f} s"
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - memory < 50_000  # KB
    assert source.problem.code == "E904"
    # and the command says so at the file, with the rest of the game checked
    command = [*("ruling", str(path))] if where.endswith(".ruling") else ["check", str(path)]
    result, _ = _within(60, lambda: CliRunner().invoke(main, command))
    assert "Traceback" not in result.output
    assert result.exit_code == 1, result.output
    assert (f"{path}:1:1: E904 {told}not a file of text: cardrules reads only regular "
            "files\n  expected: a regular file of text\n  put the file itself here (or a "
            "link to it), not a device or a pipe\n") in result.output
