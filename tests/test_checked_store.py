"""What check found in a game, kept between runs (interpreter/cli/checked.py):
a second check of the same files reads no file's text again and prints the
same; an edit, or a damaged record, is a miss, never a stale report."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner

from errors_support import at_repo_root  # noqa: F401  (autouse)
from interpreter.cli import checked, main
from interpreter.language import parse_store

ENGINE = Path(__file__).resolve().parent / "fixtures" / "engine"


def _check(*args: str):
    result = CliRunner().invoke(main, ["check", *args], prog_name="cardrules")
    assert "Traceback" not in result.output
    return result.exit_code, result.output


def _project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / "rules").mkdir(parents=True)
    shutil.copy(ENGINE / "rules" / "duel.rules", root / "rules" / "duel.rules")
    shutil.copytree(ENGINE / "cards" / "duel", root / "cards" / "duel")
    return root


def _store_in(tmp_path: Path, monkeypatch) -> Path:
    """Records in a folder of the test's own (lark's grammar files stay where
    they are: building the card grammar again would take seconds)."""
    store = tmp_path / "store"
    store.mkdir()
    folder = parse_store._folder
    monkeypatch.setattr(parse_store, "_folder",
                        lambda always=False: folder(always=True) if always else store)
    monkeypatch.delenv("CARDRULES_NO_CACHE", raising=False)
    return store


def test_a_second_check_reads_nothing_again_and_prints_the_same(tmp_path, monkeypatch):
    store = _store_in(tmp_path, monkeypatch)
    cards = _project(tmp_path) / "cards" / "duel" / "core.cards"
    first = _check(str(cards))
    assert first[0] == 0 and "0 problems in 1 file" in first[1]
    assert len(list(store.glob("checked-*.json"))) == 1

    def no_loading(*args, **kwargs):
        raise AssertionError("the game was loaded again")

    with monkeypatch.context() as patched:
        patched.setattr(checked, "load_game", no_loading)
        assert _check(str(cards)) == first
        assert _check("--format", "json", str(cards))[0] == 0

    # an edit is another record: the new problem is reported, not the old result
    cards.write_text(cards.read_text(encoding="utf-8") + '\ncard "Broken"\n  kind: Nonsense\n',
                     encoding="utf-8")
    code, output = _check(str(cards))
    assert code == 1
    assert 'E302 unknown card kind "Nonsense"' in output and "1 problem in 1 file" in output
    assert len(list(store.glob("checked-*.json"))) == 2


def test_a_damaged_record_is_ignored(tmp_path, monkeypatch):
    store = _store_in(tmp_path, monkeypatch)
    cards = _project(tmp_path) / "cards" / "duel" / "core.cards"
    first = _check(str(cards))
    for record in store.glob("checked-*.json"):
        record.write_text('{"game_id": "duel", "problems": [["E1"]]}', encoding="utf-8")
    assert _check(str(cards)) == first


def test_with_no_cache_nothing_is_kept(tmp_path, monkeypatch):
    store = _store_in(tmp_path, monkeypatch)
    monkeypatch.setenv("CARDRULES_NO_CACHE", "1")
    cards = _project(tmp_path) / "cards" / "duel" / "core.cards"
    assert _check(str(cards))[0] == 0
    assert not list(store.glob("checked-*.json"))
