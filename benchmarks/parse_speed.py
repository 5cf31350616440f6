"""Parse speed of card texts, per shipped game and overall.

Run:  python benchmarks/parse_speed.py

Measures, on one core (rates in this process's CPU time, so that other
processes on a shared machine do not count; the check's start in wall and
CPU time, the targets read on CPU time):

* texts/s through the games' effect parsers (``EffectParser.parse``: the
  lean LALR run of ``interpreter.language.lean_lalr``, lark itself for a
  text it cannot read plainly; the AST built as rules are reduced), each
  text parsed from its string (a new place each time: nothing recalled);
* texts/s through lark's Earley parser (dynamic lexer) built from the same
  grammar text, and the LALR/Earley ratio (Earley is timed on a sample and
  extrapolated when it is slow; the output says so);
* texts/s through ``parse_ability`` (LALR parse + AST transform);
* the cold start of ``cardrules check cards/ryft/core.cards`` as a subprocess
  (min of 5 runs after one warm-up run that fills the user's cache and
  writes the modules' bytecode, as an installed cardrules has it), and the
  same with ``CARDRULES_NO_CACHE=1`` (every text parsed again).

Targets: >= 10,000 texts/s (LALR), >= 20x Earley, cold check < 0.3 s (with
the cache), < 0.6 s (without the parsed texts).
"""

from __future__ import annotations

import itertools
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

import lark

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))      # this checkout's interpreter, not an installed one

from interpreter.language.game_rules import parse_ability
from interpreter.language.games import load_game, shipped_games

TARGET_RATE = 10_000
TARGET_RATIO = 20.0
TARGET_COLD = 0.3       # a new process, parsed texts kept by an earlier run
TARGET_BARE = 0.6       # a new process, CARDRULES_NO_CACHE=1 (lark's grammar files kept)
LALR_SECONDS = 2.0
EARLEY_SECONDS = 2.0


def corpus(game) -> list[str]:
    return [a.text for card in game.cards.values() for a in card.abilities]


def anew(parse):
    """``parse`` as if every text were new: the effect parser keeps what it
    has read by text and place (a check reads a file's texts once), so each
    call names another place and is parsed, not recalled."""
    places = itertools.count(1)
    return lambda text: parse(text, path=f"<bench {next(places)}>")


def _clock() -> float:
    """This process's CPU time: on a shared machine the wall clock also
    counts the time other processes had the core."""
    return time.process_time()


def timed_rate(func, texts: list[str], seconds: float,
               effect=None) -> tuple[float, int, float]:
    """Repeat the corpus until ``seconds`` of work; (texts/s, texts, elapsed).

    After each pass, ``effect`` (the game's effect parser) forgets the texts
    it read at the benchmark's places: a check reads a game's few hundred
    texts once, while passes at new places for 2 s would have it hold tens
    of thousands of ASTs, whose garbage collection (about half the time once
    10,000 are held) is the benchmark's own doing, not parsing's."""
    done, start = 0, _clock()
    while True:
        for text in texts:
            func(text)
        if effect is not None:
            effect._parsed.clear()
        done += len(texts)
        elapsed = _clock() - start
        if elapsed >= seconds:
            return done / elapsed, done, elapsed


def earley_rate(parser: lark.Lark, texts: list[str], seconds: float):
    """Earley texts/s; a sample of the corpus when one pass is too slow."""
    start = _clock()
    done = 0
    failures = 0
    for text in texts:
        try:
            parser.parse(text)
        except lark.exceptions.LarkError:
            failures += 1
        done += 1
        if _clock() - start >= seconds:
            break
    elapsed = _clock() - start
    sampled = done < len(texts)
    if not sampled and elapsed < seconds:
        rate, done, elapsed = timed_rate(lambda t: _try(parser, t), texts, seconds)
        return rate, done, elapsed, False, failures
    return done / elapsed, done, elapsed, sampled, failures


def _try(parser, text):
    try:
        parser.parse(text)
    except lark.exceptions.LarkError:
        pass


def cold_check(no_store: bool = False) -> tuple[float, float, str]:
    """Best of 5 runs of ``check`` in a new process, after one warm-up run
    (lark's grammar files and, unless ``no_store``, the parsed texts kept).
    The module is run from this checkout (an installed ``cardrules`` script
    may belong to another one)."""
    cmd = [sys.executable, "-m", "interpreter.cli", "check", "cards/ryft/core.cards"]
    env = dict(os.environ)
    # An installed cardrules has its modules' bytecode (pip writes it at
    # install time); without it every start compiles some 80 modules from
    # source again (about 0.1 s). The warm-up run writes it here.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if no_store:
        env["CARDRULES_NO_CACHE"] = "1"
    warm = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env=env)
    times, cpu = [], []
    for _ in range(5):
        start, used = time.perf_counter(), _children_cpu()
        subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env=env)
        times.append(time.perf_counter() - start)
        cpu.append(_children_cpu() - used)
    return min(times), min(cpu), f"check cards/ryft/core.cards (exit {warm.returncode})"


def _children_cpu() -> float:
    """CPU seconds (user and system) of the finished child processes."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def verdict(ok: bool) -> str:
    return "MET" if ok else "NOT MET"


def main() -> int:
    try:
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
        core = "pinned to one core"
    except (AttributeError, OSError):
        core = "single process"
    print(f"parse_speed: lark {lark.__version__}, Python {sys.version.split()[0]}, {core}")
    print(f"targets: LALR >= {TARGET_RATE:,} texts/s, LALR >= {TARGET_RATIO:.0f}x Earley, "
          f"cold check < {TARGET_COLD} s (< {TARGET_BARE} s with nothing kept)")
    print()
    header = (f"{'game':<20} {'texts':>5} {'LALR texts/s':>13} {'Earley texts/s':>15} "
              f"{'ratio':>7} {'parse_ability/s':>16}")
    print(header)
    print("-" * len(header))
    totals = {"n": 0, "lalr_t": 0.0, "lalr_n": 0, "earley_t": 0.0, "earley_n": 0,
              "ast_t": 0.0, "ast_n": 0}
    notes = []
    for game_id in shipped_games():
        game = load_game(game_id)
        texts = corpus(game)
        if not texts:
            continue
        effect = game.rules.parser()
        for text in texts:      # the parser built (its lexers too) before the clock starts
            effect.parse(text, path="<warm-up>")
        effect._parsed.clear()
        lalr_rate, n1, t1 = timed_rate(anew(effect.parse), texts, LALR_SECONDS, effect)
        # The dynamic lexer cannot handle %declare'd terminals (the empty word
        # categories, _NO_*): give them a pattern that never matches.
        grammar_text = re.sub(r"%declare (_NO_\w+)", r"\1: /(?!x)x/", effect.grammar)
        earley = lark.Lark(grammar_text, parser="earley", lexer="dynamic",
                           start="start")
        e_rate, n2, t2, sampled, failures = earley_rate(earley, texts, EARLEY_SECONDS)
        if sampled:
            notes.append(f"{game_id}: Earley timed on a sample of {n2}/{len(texts)} "
                         f"texts ({t2:.2f} s) and extrapolated")
        if failures:
            notes.append(f"{game_id}: Earley rejected {failures} texts the LALR "
                         f"parser accepts (timed anyway)")
        ast_rate, n3, t3 = timed_rate(anew(lambda t, path: parse_ability(game.rules, t, path)),
                                      texts, LALR_SECONDS, effect)
        print(f"{game_id:<20} {len(texts):>5} {lalr_rate:>13,.0f} {e_rate:>15,.1f} "
              f"{lalr_rate / e_rate:>6.0f}x {ast_rate:>16,.0f}")
        totals["n"] += len(texts)
        totals["lalr_t"] += t1
        totals["lalr_n"] += n1
        totals["earley_t"] += t2
        totals["earley_n"] += n2
        totals["ast_t"] += t3
        totals["ast_n"] += n3
    lalr_all = totals["lalr_n"] / totals["lalr_t"]
    earley_all = totals["earley_n"] / totals["earley_t"]
    ast_all = totals["ast_n"] / totals["ast_t"]
    ratio = lalr_all / earley_all
    print("-" * len(header))
    print(f"{'overall':<20} {totals['n']:>5} {lalr_all:>13,.0f} {earley_all:>15,.1f} "
          f"{ratio:>6.0f}x {ast_all:>16,.0f}")
    for note in notes:
        print("note:", note)
    print()
    cold, cold_cpu, what = cold_check()
    print(f"cold start: {what}: min of 5 runs = {cold:.3f} s wall, {cold_cpu:.3f} s CPU "
          f"(after 1 warm-up run)")
    bare, bare_cpu, _ = cold_check(no_store=True)
    print(f"cold start without the parsed texts kept (CARDRULES_NO_CACHE=1): {bare:.3f} s "
          f"wall, {bare_cpu:.3f} s CPU")
    print()
    print("targets:")
    print(f"  LALR parse rate   {lalr_all:>12,.0f} texts/s  (target >= {TARGET_RATE:,})  "
          f"{verdict(lalr_all >= TARGET_RATE)}")
    print(f"  LALR vs Earley    {ratio:>12,.0f}x        (target >= {TARGET_RATIO:.0f}x)    "
          f"{verdict(ratio >= TARGET_RATIO)}")
    print(f"  parse_ability     {ast_all:>12,.0f} texts/s  (no target; incl. AST transform)")
    print(f"  cold check        {cold_cpu:>12.3f} s CPU    (target < {TARGET_COLD} s)   "
          f"{verdict(cold_cpu < TARGET_COLD)}")
    print(f"  ... nothing kept  {bare_cpu:>12.3f} s CPU    (target < {TARGET_BARE} s)   "
          f"{verdict(bare_cpu < TARGET_BARE)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
