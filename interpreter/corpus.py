"""A corpus of printed card text: how much of it a game's language reads,
runs, and runs with the meaning a player reads.

A corpus file is a ruling file (``tests/fixtures/corpus/<game>.ruling``)
whose every ruling writes one card of its own (a ``cards:`` block) with the
text under test, and checks the text's printed meaning with its ``expect:``
lines. Each ruling ends one of four ways:

- *passes*: the text is read, compiled, and does what it says;
- *not read*: ``check`` rejects the text at its line (a syntax problem of
  the card language, E2xx, or of the card, E3xx/E4xx);
- *not run*: the text is read but the engine cannot run it (E801, at its
  line);
- *wrong*: the text runs and the ruling's expectations fail (or the ruling
  itself is at fault): a text that does something else than it says.

``python -m interpreter.corpus FILE...`` prints the figures and every text
that does not pass.
"""

from __future__ import annotations

import sys
from pathlib import Path

import attrs

from interpreter.errors import CardrulesError
from interpreter.rulings import load_ruling_file, run_ruling

VERDICTS = ("passes", "not read", "not run", "wrong")


@attrs.frozen
class Outcome:
    """One corpus text: its ruling's name, its verdict, and (unless it
    passes) the first problem in one line."""

    name: str
    verdict: str
    problem: str = ""


def _verdict(failures) -> str:
    codes = [f.code for f in failures]
    if not codes:
        return "passes"
    if any(c.startswith(("E2", "E3", "E4")) for c in codes):
        return "not read"
    if "E801" in codes:
        return "not run"
    return "wrong"


def outcomes(path: Path) -> list[Outcome]:
    """Run every ruling of a corpus file and say how each ended."""
    source, rulings, problems = load_ruling_file(path)
    if problems:
        raise CardrulesError(problems)
    out = []
    for ruling in rulings:
        failures = run_ruling(ruling, source).failures
        verdict = _verdict(failures)
        first = failures[0] if failures else None
        line = "" if first is None else f"{first.code} {first.message}".splitlines()[0]
        out.append(Outcome(ruling.name, verdict, line))
    return out


def row(game: str, found: list[Outcome]) -> str:
    """One game's line of the table."""
    return _row(game, _counts(found))


def table(results: dict[str, list[Outcome]]) -> str:
    """The figures, one row per game and a total, as a Markdown table:
    texts; read (accepted by check); run (compiled); passes (runs with its
    printed meaning)."""
    rows = ["| game | texts | read | run | means what it says |",
            "|---|---|---|---|---|"]
    totals = [0, 0, 0, 0]
    for game, found in results.items():
        counts = _counts(found)
        totals = [a + b for a, b in zip(totals, counts)]
        rows.append(row(game, found))
    rows.append(_row("all", totals))
    return "\n".join(rows)


def _counts(found: list[Outcome]) -> list[int]:
    verdicts = [o.verdict for o in found]
    read = len(verdicts) - verdicts.count("not read")
    run = read - verdicts.count("not run")
    return [len(verdicts), read, run, verdicts.count("passes")]


def _row(game: str, counts: list[int]) -> str:
    total = counts[0] or 1
    cells = [str(counts[0])] + [f"{n} ({100 * n // total}%)" for n in counts[1:]]
    return f"| {game} | " + " | ".join(cells) + " |"


def main(argv: list[str]) -> int:
    results = {Path(arg).stem: outcomes(Path(arg)) for arg in argv}
    print(table(results))
    for game, found in results.items():
        for outcome in found:
            if outcome.verdict != "passes":
                print(f"{game}: {outcome.verdict}: {outcome.name}: {outcome.problem}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
