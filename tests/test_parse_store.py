"""Parsed texts kept between runs (interpreter/language/parse_store.py): a
second reading of the same files builds no parser and gives the same cards;
an edit, another version of the code, or a damaged store file is a miss,
never a wrong reading."""

from __future__ import annotations

import json
from pathlib import Path

from lark.grammar import Rule
from lark.lexer import TerminalDef
from lark.parsers.lalr_analysis import IntParseTable, Reduce, Shift
from lark.utils import SerializeMemoizer

from interpreter.language import parse_store
from interpreter.language.cards import load_cards
from interpreter.language.rules_file import load_rules
from interpreter.source import SourceText

DUEL = Path(__file__).resolve().parent / "fixtures" / "engine"
RULES = (DUEL / "rules" / "duel.rules").read_text(encoding="utf-8")
CARDS = (DUEL / "cards" / "duel" / "core.cards").read_text(encoding="utf-8")


def _read(cards_text: str = CARDS):
    rules, problems = load_rules(SourceText("rules/duel.rules", RULES), "duel")
    assert problems == []
    cards = load_cards(SourceText("cards/duel/core.cards", cards_text), rules)
    return rules, cards


def _abilities(cards):
    # spans take no part in AST equality: compare them too
    return [(c.name, [(a.ability, repr([n.span for n in a.ability.walk()]))
                      for a in c.abilities]) for c in cards.cards]


def test_a_second_reading_builds_no_parser_and_reads_the_same(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("CARDRULES_CACHE_DIR", raising=False)
    monkeypatch.delenv("CARDRULES_NO_CACHE", raising=False)
    rules, first = _read()
    assert rules.parser()._lark is not None           # parsed: the parser was built
    stored = sorted((tmp_path / "cardrules").glob("parsed-*.json"))
    assert len(stored) == 2                            # the rules file and the card file
    again, second = _read()
    assert again.parser()._lark is None                # everything recalled
    assert _abilities(second) == _abilities(first) and first.cards

    # an edit is a new store: the edited text is parsed, the rest recalled
    edited = CARDS.replace("When this is played: Draw a card.",
                           "When this is played: Draw 2 cards.")
    assert edited != CARDS
    _, third = _read(edited)
    scholar = next(c for c in third.cards if c.name == "Scholar")
    assert "2" in repr(scholar.abilities[0].ability)


def test_a_damaged_or_foreign_store_file_is_ignored(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("CARDRULES_CACHE_DIR", raising=False)
    monkeypatch.delenv("CARDRULES_NO_CACHE", raising=False)
    _, first = _read()
    for path in (tmp_path / "cardrules").glob("parsed-*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        # a class that is not an AST node is never built: the file is a miss
        data[0][1] = {"@": "Popen", "args": ["true"]}
        path.write_text(json.dumps(data), encoding="utf-8")
    rules, second = _read()
    assert rules.parser()._lark is not None
    assert _abilities(second) == _abilities(first)
    for path in (tmp_path / "cardrules").glob("parsed-*.json"):
        path.write_text("{not json", encoding="utf-8")
    _, third = _read()
    assert _abilities(third) == _abilities(first)


def test_cardrules_cache_dir_names_the_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("CARDRULES_CACHE_DIR", str(tmp_path / "mine"))
    monkeypatch.delenv("CARDRULES_NO_CACHE", raising=False)
    _read()
    assert len(list((tmp_path / "mine").glob("parsed-*.json"))) == 2
    assert not (tmp_path / "xdg").exists()


def test_the_store_can_be_turned_off(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("CARDRULES_CACHE_DIR", raising=False)
    monkeypatch.setenv("CARDRULES_NO_CACHE", "1")
    _read()
    assert not list(tmp_path.glob("**/parsed-*.json"))
    assert parse_store.store_path("g", "p", "t") is None




def _table_loaded(data: dict, memo_data: dict):
    # what lark's Lark._load does with a cache file's parse table
    memo = SerializeMemoizer.deserialize(memo_data, {"Rule": Rule, "TerminalDef": TerminalDef}, {})
    table = IntParseTable.deserialize(data["parser"]["parser"], memo)
    return table.states, table.start_states, table.end_states


def test_lark_tables_load_the_same_with_the_one_pass_reader(monkeypatch):
    # parse_store sets load_parse_table on lark's table class: lark's own
    # reader and it must build equal tables from what lark keeps of a game's
    # card grammar (hundreds of states, reduces of every rule)
    rules, _ = _read()
    data, memo_data = rules.parser().lark.memo_serialize([TerminalDef, Rule])
    assert IntParseTable.deserialize.__func__ is parse_store.load_parse_table
    ours = _table_loaded(data, memo_data)
    monkeypatch.setattr(IntParseTable, "deserialize", parse_store.lark_load_parse_table)
    theirs = _table_loaded(data, memo_data)
    assert len(ours[0]) > 300
    assert ours == theirs
    assert {action for row in ours[0].values() for action, _ in row.values()} == {Shift, Reduce}
