"""Balance: many games between agents, and the figures a designer reads
from them (``cardrules simulate``).

:func:`play_game` plays one game and keeps what the figures need (a
:class:`GameRecord`: its seed, decks, agents, result, length, the cards
each seat played, and the actions that replay it); :func:`summarize` turns
records into the report: wins per seat, per deck and per matchup with 95%
Wilson intervals, the first player's advantage, the length of games, how
they ended, and per card the games it was played in and the win rate with
and without it. A record depends only on the game, its decks, agents and
seed, so the report is the same however the games are shared among
processes.

"Played" is general: a card is played in a game when its player took an
action with it (the log's ``ActionTaken`` with a card: "cast", "summon",
"play" ... whatever the game calls its actions).
"""

from __future__ import annotations

import math
import re
import statistics

import attrs

from interpreter.agents import agent_named, play_out
from interpreter.engine import Match
from interpreter.engine.events import ActionTaken
from interpreter.replays import Recorder, replay_data

Z95 = 1.959964          # the normal quantile of a 95% two-sided interval


@attrs.frozen
class GameRecord:
    index: int
    seed: int
    decks: tuple            # deck names, by seat
    agents: tuple           # agent names, by seat
    result: str             # "win", "draw" or "error"
    winner: int | None
    first: int | None       # the seat that took the first turn
    turns: int
    decisions: int
    ending: str             # how it ended, players' numbers left out
    played: tuple           # per seat, the names of the cards it played (sorted)
    replay: dict | None     # the replay file's JSON (interpreter.replays)
    error: str | None = None

    def line(self) -> dict:
        """One line of ``simulate --out``: the figures and the replay."""
        out = {"seed": self.seed, "decks": list(self.decks), "agents": list(self.agents),
               "result": self.result,
               "winner": None if self.winner is None else self.winner + 1,
               "first": None if self.first is None else self.first + 1,
               "turns": self.turns, "decisions": self.decisions, "ending": self.ending,
               "played": [list(cards) for cards in self.played]}
        if self.error is not None:
            out["error"] = self.error
        if self.replay is not None:
            out.update(self.replay)
        return out


def play_game(compiled, game_name: str, decks, agents: tuple, index: int,
              seed: int) -> GameRecord:
    """Game ``index`` (with ``seed``) between ``agents`` (names, by seat)."""
    names = tuple(d.name for d in decks)
    try:
        match = Match.start(compiled, list(decks), seed)
        actions: list = []
        seats = [Recorder(agent_named(spec, seed * 1000 + p), actions)
                 for p, spec in enumerate(agents)]
        made = play_out(match, seats)
    except Exception as err:  # counted and reported with its seed, not hidden
        return GameRecord(index, seed, names, agents, "error", None, None, 0, 0,
                          "error", (), None, f"{type(err).__name__}: {err}")
    state = match.state
    result = state.result
    played: list[set] = [set() for _ in decks]
    for event in state.log:
        if type(event) is ActionTaken and event.card is not None and event.player >= 0:
            played[event.player].add(state.cards[event.card].name)
    return GameRecord(
        index, seed, names, agents, result[0], result[1] if result[0] == "win" else None,
        state.first_player, state.turn, made, ending_of(result),
        tuple(tuple(sorted(cards)) for cards in played),
        replay_data(game_name, decks, seed, actions, match))


def ending_of(result: tuple) -> str:
    """How a game ended, with the players' numbers and a counter's final
    value left out, so that games ended by the same rule count together
    ("win: a player lost: Life")."""
    reason = result[2] if result[0] == "win" else result[1]
    reason = re.sub(r"\bplayer \d+\b", "a player", reason)
    reason = re.sub(r"(lost: [^:]*?) -?\d+$", r"\1", reason)
    return f"{result[0]}: {reason}"


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default); (0, 1)
    with no trials."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    margin = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - margin), min(1.0, centre + margin)


def _rate(wins: int, games: int) -> dict:
    low, high = wilson(wins, games)
    return {"wins": wins, "games": games, "rate": round(wins / games, 4) if games else None,
            "low": round(low, 4), "high": round(high, 4)}


def _spread(values: list[int]) -> dict:
    if not values:
        return {}
    ordered = sorted(values)
    quartiles = statistics.quantiles(ordered, n=4) if len(ordered) > 1 else ordered * 3
    return {"mean": round(statistics.fmean(ordered), 2), "median": statistics.median(ordered),
            "q1": quartiles[0], "q3": quartiles[2], "min": ordered[0], "max": ordered[-1]}


def summarize(records: list[GameRecord], deck_cards: dict | None = None) -> dict:
    """The report's figures (JSON-ready) from the games' records;
    ``deck_cards``: each deck's card names, for a card's win rate in the
    games where its deck had it and did not play it."""
    deck_cards = deck_cards or {}
    ended = [r for r in records if r.result != "error"]
    errors = [r for r in records if r.result == "error"]
    wins: dict[str, int] = {}
    deck_wins: dict[str, int] = {}
    deck_games: dict[str, int] = {}
    matchups: dict[tuple, list] = {}
    reasons: dict[str, int] = {}
    endings: dict[str, int] = {}
    first_wins = first_games = 0
    cards: dict[str, list] = {}      # name -> [games played, wins when played]
    for r in ended:
        for name in set(r.decks):
            deck_games[name] = deck_games.get(name, 0) + 1
        endings[r.ending] = endings.get(r.ending, 0) + 1
        if r.result == "win":
            key = f"player {r.winner + 1}"
            wins[key] = wins.get(key, 0) + 1
            deck_wins[r.decks[r.winner]] = deck_wins.get(r.decks[r.winner], 0) + 1
        else:
            reasons[r.ending] = reasons.get(r.ending, 0) + 1
        if len(r.decks) == 2 and r.decks[0] != r.decks[1]:
            pair = tuple(sorted(r.decks))
            tally = matchups.setdefault(pair, [0, 0])
            tally[1] += 1
            if r.winner is not None and r.decks[r.winner] == pair[0]:
                tally[0] += 1
        if r.first is not None:
            first_games += 1
            first_wins += r.winner == r.first
        for seat, names in enumerate(r.played):
            for name in names:
                tally = cards.setdefault(name, [0, 0, 0, 0])
                tally[0] += 1
                tally[1] += r.winner == seat
    # "when not played": the games of a seat whose deck holds the card and
    # that did not play it
    for r in ended:
        for seat, deck in enumerate(r.decks):
            for name, tally in cards.items():
                if name not in r.played[seat] and name in deck_cards.get(deck, ()):
                    tally[2] += 1
                    tally[3] += r.winner == seat
    return {
        "games": len(records),
        "wins": dict(sorted(wins.items())),
        "deck_wins": dict(sorted(deck_wins.items())),
        "deck_games": dict(sorted(deck_games.items())),
        "draws": len(ended) - sum(wins.values()),
        "draw_reasons": reasons,
        "endings": dict(sorted(endings.items(), key=lambda kv: (-kv[1], kv[0]))),
        "errors": len(errors),
        "error_seeds": [{"seed": r.seed, "error": r.error} for r in errors],
        "mean_turns": round(statistics.fmean(r.turns for r in ended), 2) if ended else 0,
        "mean_decisions": round(statistics.fmean(r.decisions for r in ended), 2)
        if ended else 0,
        "seats": {key: _rate(n, len(ended)) for key, n in sorted(wins.items())},
        "decks": {name: _rate(deck_wins.get(name, 0), n)
                  for name, n in sorted(deck_games.items())},
        "matchups": [{"decks": list(pair), **_rate(w, n)}
                     for pair, (w, n) in sorted(matchups.items())],
        "first_player": _rate(first_wins, first_games),
        "length": {"turns": _spread([r.turns for r in ended]),
                   "decisions": _spread([r.decisions for r in ended])},
        # games by their number of turns ("12": 40 games), for the histogram
        "turn_histogram": {str(n): c for n, c in sorted(
            {n: sum(1 for r in ended if r.turns == n) for n in {r.turns for r in ended}}.items())},
        "cards": {name: {"played": t[0], "when_played": _rate(t[1], t[0]),
                         "when_not": _rate(t[3], t[2])}
                  for name, t in sorted(cards.items(), key=lambda kv: (-kv[1][0], kv[0]))},
    }
