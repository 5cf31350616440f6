"""The garbage collector is paused while a game is loaded and compiled
(interpreter/collector.py), and back as it was afterwards."""

from __future__ import annotations

import gc

from interpreter.collector import collection_paused
from interpreter.compiler import game as compiler_game
from interpreter.engine import compile_game
from interpreter.language import games

from duel_support import load_duel


def test_the_collector_comes_back_as_it_was():
    assert gc.isenabled()
    with collection_paused():
        assert not gc.isenabled()
        with collection_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()        # the inner block leaves it to the outer
    assert gc.isenabled()
    gc.disable()
    try:
        with collection_paused():
            pass
        assert not gc.isenabled()        # off before: off after
    finally:
        gc.enable()


def test_the_files_are_read_and_compiled_with_the_collector_paused(monkeypatch):
    seen = []

    def noting(function):
        def noted(*args, **kwargs):
            seen.append((function.__name__, gc.isenabled()))
            return function(*args, **kwargs)
        return noted
    monkeypatch.setattr(games, "_CACHE", {})        # read the files, not a kept game
    monkeypatch.setattr(games, "load_rules", noting(games.load_rules))
    monkeypatch.setattr(games, "load_cards", noting(games.load_cards))
    monkeypatch.setattr(compiler_game, "_rule_cards", noting(compiler_game._rule_cards))
    compile_game(games.load_game("silver-wing-rivals"))
    assert {name for name, _ in seen} == {"load_rules", "load_cards", "_rule_cards"}
    assert not any(enabled for _, enabled in seen)
    assert gc.isenabled()


def test_a_process_keeps_a_bounded_number_of_games_the_last_used_longest(
        tmp_path, monkeypatch):
    # a test run, or a server of many projects, loads game after game: each
    # kept game holds its parser, so only the last few are kept
    monkeypatch.setattr(games, "_CACHE", {})
    monkeypatch.setattr(games, "KEPT_GAMES", 2)
    first, second, third = (load_duel(tmp_path) for _ in range(3))
    assert len(games._CACHE) == 2
    assert games.load_game("duel", second.root) is second       # kept: the same game
    games.load_game("duel", load_duel(tmp_path).root)             # a fourth
    assert games.load_game("duel", second.root) is second       # used last: kept
    assert games.load_game("duel", third.root) is not third       # dropped: read again
    assert games.load_game("duel", first.root) is not first
