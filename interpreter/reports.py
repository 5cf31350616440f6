"""The balance report of ``simulate`` (its figures: ``interpreter.balance``)
as text for the terminal and as a web page with plots (``--report DIR``:
``index.html``, ``report.json`` and PNG plots made with matplotlib, the
optional ``report`` extra)."""

from __future__ import annotations

import html
import json
from pathlib import Path

from interpreter.agents import DEFAULT_AGENT
from interpreter.errors import CouldNotRun, Problem

try:
    import matplotlib

    matplotlib.use("Agg")         # files only: no screen
    from matplotlib import pyplot
except ImportError:      # the optional "report" extra is not installed
    pyplot = None

CARDS_SHOWN = 15          # the most played cards in the text and the plots


def check_can_plot() -> None:
    if pyplot is None:
        raise CouldNotRun(Problem("E852", "--report needs matplotlib", None, None,
                                  ("pip install 'cardrules[report]'",)))


def _pct(rate: dict) -> str:
    if not rate["games"]:
        return "-"
    return f"{100 * rate['rate']:.0f}% [{100 * rate['low']:.0f}-{100 * rate['high']:.0f}]"


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    """Rows aligned under their header (the first column left, the rest right)."""
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]

    def line(row):
        return "  " + "  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w)
                                for i, (c, w) in enumerate(zip(row, widths)))
    return [line(header), *[line(row) for row in rows]]


def text_lines(report: dict) -> list[str]:
    """The report as the terminal prints it: the counts first (as they have
    always been printed), then the tables with their 95% intervals."""
    games, seed = report["games"], report["seed"]
    out = [f"{report['game']}: {games} games, seeds {seed} to {seed + games - 1}"
           + ("" if set(report["agents"]) == {DEFAULT_AGENT} else
              f" ({' vs '.join(report['agents'])})")]
    out += [f"  {who} won {n}" for who, n in report["wins"].items()]
    for name, n in report["deck_games"].items():
        won = report["deck_wins"].get(name, 0)
        out.append(f"  {name} won {won} of {n} game{'s' if n != 1 else ''} "
                   f"({100 * won / n:.0f}%)")
    out.append(f"  draws {report['draws']}, errors {report['errors']}, mean turns "
               f"{report['mean_turns']}, mean decisions {report['mean_decisions']}")
    out += [f"  {n} ended: {ending}" for ending, n in report["endings"].items()]
    out += [f"  error with seed {e['seed']}: {e['error']}" for e in report["error_seeds"]]
    if not games or report["errors"] == games:
        return out
    out += ["", "Win rates, with 95% intervals (Wilson):"]
    rows = [[f"seat {who.split()[1]}", r["wins"], r["games"], _pct(r)]
            for who, r in report["seats"].items()]
    rows += [[name, r["wins"], r["games"], _pct(r)] for name, r in report["decks"].items()]
    rows += [[f"{m['decks'][0]} vs {m['decks'][1]}", m["wins"], m["games"], _pct(m)]
             for m in report["matchups"]]
    rows.append(["first player", report["first_player"]["wins"],
                 report["first_player"]["games"], _pct(report["first_player"])])
    out += _table(["", "wins", "games", "win rate [95%]"], rows)
    out += ["", "Length of games:"]
    out += _table(["", "mean", "min", "q1", "median", "q3", "max"],
                  [[what, *(s.get(k, "-") for k in ("mean", "min", "q1", "median", "q3", "max"))]
                   for what, s in report["length"].items()])
    cards = list(report["cards"].items())
    if cards:
        out += ["", f"Cards (the {min(CARDS_SHOWN, len(cards))} most played of "
                    f"{len(cards)}; all of them in --format json):"]
        out += _table(["", "played in", "win rate when played", "when not"],
                      [[name, c["played"], _pct(c["when_played"]), _pct(c["when_not"])]
                       for name, c in cards[:CARDS_SHOWN]])
    return out


def write_html(report: dict, folder: Path) -> None:
    """The report as a page in a new ``folder``: tables, and plots of the
    win rates with their intervals, the length of games and the cards."""
    check_can_plot()
    try:
        folder.mkdir(parents=True)
        (folder / "report.json").write_text(json.dumps(report, indent=2), encoding="utf-8")
        plots = [_plot_rates(report, folder), _plot_lengths(report, folder),
                 _plot_cards(report, folder)]
        text = "\n".join(text_lines(report))
        images = "".join(f'<figure><img src="{name}" alt="{html.escape(alt)}">'
                         f"<figcaption>{html.escape(alt)}</figcaption></figure>"
                         for name, alt in plots if name)
        (folder / "index.html").write_text(
            f"<!doctype html><html lang=en><meta charset=utf-8>"
            f"<title>{html.escape(report['game'])}: balance report</title>"
            f"<style>body{{font-family:system-ui;margin:1em 2em}}pre{{background:#f6f6f6;"
            f"padding:1em}}img{{max-width:48em}}</style>"
            f"<h1>{html.escape(report['game'])}: {report['games']} games</h1>"
            f"{images}<h2>Figures</h2><pre>{html.escape(text)}</pre>"
            f"<p>Every figure, and every card, in <a href=report.json>report.json</a>.</p>",
            encoding="utf-8")
    except OSError as err:
        raise CouldNotRun(Problem("E853", f"cannot write the report in {folder}: "
                                  f"{err.strerror}", None, None,
                                  ("a new folder where you may write",))) from None


def _bars(labels, rates, title: str, path: Path) -> None:
    figure, axes = pyplot.subplots(figsize=(8, 0.45 * len(labels) + 1.2))
    values = [r["rate"] or 0 for r in rates]
    errors = [[v - r["low"] for v, r in zip(values, rates)],
              [r["high"] - v for v, r in zip(values, rates)]]
    axes.barh(range(len(labels)), values, xerr=errors, color="#5a8", capsize=3)
    axes.set_yticks(range(len(labels)), labels)
    axes.axvline(0.5, color="#888", linestyle=":")
    axes.set_xlim(0, 1)
    axes.set_title(title)
    figure.tight_layout()
    figure.savefig(path)
    pyplot.close(figure)


def _plot_rates(report: dict, folder: Path):
    labels, rates = [], []
    for name, rate in report["decks"].items():
        labels.append(name)
        rates.append(rate)
    for m in report["matchups"]:
        labels.append(f"{m['decks'][0]} vs {m['decks'][1]}")
        rates.append(m)
    labels.append("first player")
    rates.append(report["first_player"])
    rates_games = [r for r in rates if r["games"]]
    if not rates_games:
        return None, ""
    _bars([label for label, r in zip(labels, rates) if r["games"]], rates_games,
          "Win rate with its 95% interval", folder / "win-rates.png")
    return "win-rates.png", "Win rates per deck and matchup, and the first player's, " \
                            "with 95% intervals"


def _plot_lengths(report: dict, folder: Path):
    histogram = report["turn_histogram"]
    if not histogram:
        return None, ""
    figure, axes = pyplot.subplots(figsize=(8, 3))
    axes.bar([int(n) for n in histogram], list(histogram.values()), color="#58a")
    axes.set_xlabel("turns")
    axes.set_ylabel("games")
    axes.set_title("Length of games")
    figure.tight_layout()
    figure.savefig(folder / "lengths.png")
    pyplot.close(figure)
    return "lengths.png", "How many turns the games lasted"


def _plot_cards(report: dict, folder: Path):
    cards = list(report["cards"].items())[:CARDS_SHOWN]
    if not cards:
        return None, ""
    _bars([name for name, _ in cards], [c["when_played"] for _, c in cards],
          "Win rate of the player who played the card", folder / "cards.png")
    return "cards.png", f"The {len(cards)} most played cards: the win rate of their " \
                        "player in the games they were played in, with 95% intervals"
