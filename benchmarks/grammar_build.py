"""How long a game's card grammar takes to build when nothing is kept.

Run:  python benchmarks/grammar_build.py [GAME ...]

A game's card grammar is the base grammar with its vocabulary (one terminal
per declared word), so every edit of a rules file's words is a new grammar,
built before any text is read: the designer's wait after such an edit, and
much of the test suite's time (each fixture game with its own words is a
new grammar). For each shipped game (or those named), in this process's CPU
time, best of 3:

* the LALR(1) table by lark's own analyzer and by
  ``interpreter.language.lalr_tables`` (the same table: the script checks
  that their states, shifts and reductions correspond);
* the whole parser as ``lark_build.lalr_parser`` builds it with nothing
  kept (the grammar read, the table, the contextual lexer, the table
  written to a cache folder of its own), and the same with lark's analyzer
  and its terminal-collision check (when ``interegular`` is installed), as
  the parser was built before.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

from lark import Lark
from lark.common import ParserConf
from lark.load_grammar import load_grammar
from lark.parsers.lalr_analysis import LALR_Analyzer

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))      # this checkout's interpreter, not an installed one

from interpreter.language.games import shipped_games  # noqa: E402
from interpreter.language.lalr_tables import corresponding_states, lalr_table  # noqa: E402
from interpreter.language.lark_build import lalr_parser  # noqa: E402
from interpreter.language.rules_file import load_rules  # noqa: E402
from interpreter.language.vocabulary import effect_grammar  # noqa: E402
from interpreter.source import SourceText  # noqa: E402

STARTS = ["start", "qualifiers", "selection", "condition_line", "when_line", "player_line"]
PASSES = 3


def best(run) -> float:
    times = []
    for _ in range(PASSES):
        began = time.process_time()
        run()
        times.append(time.process_time() - began)
    return min(times)


def card_grammar(game: str) -> str:
    path = ROOT / "rules" / f"{game}.rules"
    rules, _ = load_rules(SourceText(str(path), path.read_text(encoding="utf-8")), game)
    return effect_grammar(rules.vocabulary())


def main(games: list[str]) -> None:
    print(f"{'game':<20} {'states':>7} {'lark table':>11} {'lalr_tables':>12} "
          f"{'parser before':>14} {'parser now':>11}")
    for game in games:
        grammar = card_grammar(game)
        rules = load_grammar(grammar, "<bench>", [], False)[0].compile(STARTS, set())[1]
        kept = {}

        def lark_table():
            analysis = LALR_Analyzer(ParserConf(rules, {}, STARTS))
            analysis.compute_lalr()
            kept["theirs"] = analysis.parse_table

        def our_table():
            kept["ours"] = lalr_table(rules, STARTS)

        lark_seconds, our_seconds = best(lark_table), best(our_table)
        states = corresponding_states(kept["theirs"], kept["ours"])

        def before():
            with tempfile.TemporaryDirectory() as folder:
                Lark(grammar, parser="lalr", lexer="contextual", start=STARTS,
                     maybe_placeholders=False, cache=str(Path(folder) / "grammar"))

        def now():
            with tempfile.TemporaryDirectory() as folder:
                os.environ["XDG_CACHE_HOME"] = folder
                lalr_parser(grammar, start=STARTS, maybe_placeholders=False)

        print(f"{game:<20} {states:>7} {lark_seconds:>10.2f}s {our_seconds:>11.2f}s "
              f"{best(before):>13.2f}s {best(now):>10.2f}s")


if __name__ == "__main__":
    main(sys.argv[1:] or shipped_games())
