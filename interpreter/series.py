"""Matches: a series of games between the same players ("match: best of 3"
in the rules file), with the swaps between games that a deck part allows
("swaps with: PART, ..." on a side deck).

A match is played outside the step API: each game is an ordinary
:class:`~interpreter.engine.Match`; between games each player may swap cards
of their side part with cards of the parts it swaps with, as long as the
deck stays legal. Random agents swap at random with their own seeded
generator, so a match is as deterministic as a game.
"""

from __future__ import annotations

import attrs

from interpreter.agents import RandomAgent, play_out
from interpreter.engine import Match
from interpreter.engine.rng import Random
from interpreter.language.decks import Deck, DeckEntry, check_deck
from interpreter.source import SourceText


@attrs.define
class GameRecord:
    number: int
    seed: int
    decks: list[str]                 # deck names, one per seat
    result: tuple                    # the game's result: ("win", player, reason) or ("draw", reason)
    narration: list[str]
    swaps: list[str]                 # swaps made before this game, readable


@attrs.define
class MatchResult:
    winner: int | None               # None: no player won enough games
    wins: list[int]
    games: list[GameRecord]


def play_match(compiled, game, decks: list[Deck], seed: int) -> MatchResult:
    """Play games until a player has won more than half of the match's games
    (or all of them have been played) between random agents."""
    rules = compiled.rules
    total = rules.match_games or 1
    needed = total // 2 + 1
    wins = [0] * len(decks)
    decks = list(decks)
    swap_rng = [Random(seed * 7919 + p) for p in range(len(decks))]
    records: list[GameRecord] = []
    swaps: list[str] = []
    for number in range(1, total + 1):
        game_seed = seed * 1000 + number
        match = Match.start(compiled, decks, game_seed)
        agents = [RandomAgent(game_seed * 1000 + p) for p in range(len(decks))]
        play_out(match, agents)
        result = match.state.result
        records.append(GameRecord(number, game_seed, [d.name for d in decks], result,
                                  match.narration(), swaps))
        if result[0] == "win":
            wins[result[1]] += 1
            if wins[result[1]] >= needed:
                return MatchResult(result[1], wins, records)
        swaps = []
        for player in range(len(decks)):
            decks[player], made = swap_between_games(game, decks[player], swap_rng[player])
            swaps.extend(f"Player {player + 1} {line}" for line in made)
    return MatchResult(None, wins, records)


def swap_between_games(game, deck: Deck, rng: Random) -> tuple[Deck, list[str]]:
    """A random legal swap (or none) of one card of a part that "swaps with"
    other parts for one card of those parts; (the deck, what was swapped)."""
    rules = game.rules
    sides = [(name, entries) for name, entries in deck.parts
             if (decl := rules.deck_part(name)) is not None and decl.swaps_with and entries]
    if not sides or rng.below(2) == 0:
        return deck, []
    side_name, side_entries = sides[rng.below(len(sides))]
    into_names = [p.lower() for p in rules.deck_part(side_name).swaps_with]
    targets = [(name, entries) for name, entries in deck.parts
               if name.lower() in into_names and entries]
    if not targets:
        return deck, []
    target_name, target_entries = targets[rng.below(len(targets))]
    incoming = side_entries[rng.below(len(side_entries))].name
    outgoing = target_entries[rng.below(len(target_entries))].name
    swapped = _move(_move(deck, side_name, incoming, target_name), target_name, outgoing,
                    side_name)
    source = SourceText(deck.path, "")
    if check_deck(swapped, rules, game.cards, source):
        return deck, []           # the swap would make the deck illegal: keep it as it is
    return swapped, [f'swaps "{outgoing}" ({target_name}) for "{incoming}" ({side_name})']


def _move(deck: Deck, from_part: str, name: str, to_part: str) -> Deck:
    """The deck with one copy of ``name`` moved from one part to another."""
    parts = []
    for part, entries in deck.parts:
        counts = [(e.name, e.count, e.span) for e in entries]
        if part == from_part:
            counts = [(n, c - 1 if n == name else c, s) for n, c, s in counts]
        if part == to_part:
            if any(n == name for n, _, _ in counts):
                counts = [(n, c + 1 if n == name else c, s) for n, c, s in counts]
            else:
                counts.append((name, 1, deck.span))
        parts.append((part, tuple(DeckEntry(c, n, s) for n, c, s in counts if c > 0)))
    return attrs.evolve(deck, parts=tuple(parts))
