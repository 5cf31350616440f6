"""Deck files, and the deck construction rules of a game.

A deck file (``cards/<game-id>/decks/*.deck``) names a deck and lists, for
each deck part the rules file declares, the cards in it::

    deck "Inferno Rush"
      "Main Deck":
        3 "Ember Drake"
      "Main Character": "Aria Vell"

:func:`check_deck` applies the rules' ``deck part`` declarations: size,
allowed kinds, copy limits (by name, title or stats), counts, totals, banned
and limited cards.
"""

from __future__ import annotations

import re
from collections import Counter

import attrs

from interpreter.errors import Problem, did_you_mean, listing
from interpreter.language.game_rules import GameRules
from interpreter.language.syntax import OutlineLine, parse_outline, problem_at
from interpreter.source import SourceText, Span


@attrs.frozen(slots=True)
class DeckEntry:
    count: int
    name: str
    span: Span


@attrs.frozen(slots=True)
class Deck:
    name: str
    parts: tuple[tuple[str, tuple[DeckEntry, ...]], ...]
    path: str
    span: Span
    part_spans: tuple[tuple[str, Span], ...] = ()

    def part_span(self, name: str) -> Span:
        for part, span in self.part_spans:
            if part.lower() == name.lower():
                return span
        return self.span

    def part(self, name: str) -> tuple[DeckEntry, ...]:
        for part, entries in self.parts:
            if part.lower() == name.lower():
                return entries
        return ()

    def card_names(self, part: str) -> list[str]:
        return [e.name for e in self.part(part) for _ in range(e.count)]


def load_decks(source: SourceText, rules: GameRules, cards: dict,
               refused=frozenset()) -> tuple[list[Deck], list[Problem]]:
    """Read a deck file and check every deck in it against the game's rules
    (``refused``: names of cards whose own problems left them out)."""
    lines, problems = parse_outline(source)
    decks = []
    for line in lines:
        deck = _read_deck(source, line, rules, problems)
        if deck is not None:
            problems.extend(check_deck(deck, rules, cards, source, refused))
            decks.append(deck)
    return decks, problems


def _read_deck(source: SourceText, line: OutlineLine, rules: GameRules,
               problems: list[Problem]) -> Deck | None:
    def problem(span, code, message, expected=(), suggestion=None):
        problems.append(problem_at(source, span, code, message, expected, suggestion))

    if line.head[0].text.lower() != "deck" or len(line.head) != 2 or not line.head[1].quoted:
        problem(line.span, "E601", "a deck file lists decks, each starting with "
                'deck "Name"', ('deck "Name"',), did_you_mean(line.head[0].text, ["deck"]))
        return None
    parts = []
    spans = []
    for child in line.children:
        part_name = " ".join(h.text for h in child.head)
        if part_name.lower() == "game":
            continue
        decl = rules.deck_part(part_name)
        if decl is None:
            problem(child.head[0].span, "E602", f'unknown deck part "{part_name}"',
                    (listing(rules.deck_parts),), did_you_mean(part_name, rules.deck_parts))
            continue
        entries = []
        if child.value:
            entries.extend(_entries(source, child.value, child.value_span, problem))
        for entry_line in child.children:
            text = source.line(entry_line.span.line)[entry_line.span.column - 1:].rstrip()
            span = Span(source.path, entry_line.span.line, entry_line.span.column,
                        entry_line.span.line, entry_line.span.column + len(text))
            entries.extend(_entries(source, text, span, problem))
        parts.append((decl.name, tuple(entries)))
        spans.append((decl.name, child.span))
    return Deck(line.head[1].text, tuple(parts), source.path, line.span, tuple(spans))


_ENTRY = re.compile(r'^(?:(\d+)\s*x?\s+)?(["\u201c])(.+?)(["\u201d])\s*$')


def _entries(source, text: str, span: Span, problem) -> list[DeckEntry]:
    m = _ENTRY.match(text.strip())
    if not m:
        problem(span, "E603", f"unreadable deck line: {text.strip()}",
                ('N "Card Name"', '"Card Name"'))
        return []
    count = int(m.group(1)) if m.group(1) else 1
    if count < 1:
        problem(span, "E603", "a deck line needs at least 1 copy", ('N "Card Name"',))
        return []
    return [DeckEntry(count, m.group(3), span)]


def check_deck(deck: Deck, rules: GameRules, cards: dict,
               source: SourceText, refused=frozenset()) -> list[Problem]:
    """Every way ``deck`` breaks the game's deck construction rules (a card
    of ``refused`` has its own problem: it is not called unknown)."""
    problems: list[Problem] = []

    def problem(span, code, message, expected=(), suggestion=None):
        problems.append(problem_at(source, span, code, message, expected, suggestion))

    for part_name, entries in deck.parts:
        for entry in entries:
            if entry.name in refused:
                continue
            if entry.name not in cards:
                problem(entry.span, "E305", f'unknown card "{entry.name}"',
                        (), did_you_mean(entry.name, cards))
            elif getattr(cards[entry.name], "token", False):
                problem(entry.span, "E615", f'"{entry.name}" is a token: card text creates '
                        "it, no deck may hold it")
    for decl in rules.deck_parts.values():
        entries = [e for e in deck.part(decl.name) if e.name in cards]
        present = any(p.lower() == decl.name.lower() for p, _ in deck.parts)
        if not present:
            if not decl.optional:
                problem(deck.span, "E604", f'deck "{deck.name}" has no "{decl.name}"',
                        (f'"{decl.name}": ...',))
            continue
        where = deck.part_span(decl.name)
        size = sum(e.count for e in deck.part(decl.name))
        if decl.size_min is not None and size < decl.size_min:
            problem(where, "E605", f'"{decl.name}" has {size} cards; it needs at least '
                    f"{decl.size_min}", (_size_text(decl),))
        if decl.size_max is not None and size > decl.size_max:
            problem(where, "E606", f'"{decl.name}" has {size} cards; it can have at most '
                    f"{decl.size_max}", (_size_text(decl),))
        if decl.kinds:
            allowed = {k.lower() for k in decl.kinds}
            for e in entries:
                kind = cards[e.name].kind
                if kind.lower() not in allowed:
                    problem(e.span, "E607", f'"{e.name}" is a {kind}; "{decl.name}" may '
                            f"only hold {listing(decl.kinds)}", (listing(decl.kinds),))
        for limit in decl.copies:
            groups: Counter = Counter()
            first_span: dict = {}
            for e in entries:
                card = cards[e.name]
                if limit.kind and card.kind.lower() != limit.kind.lower():
                    continue
                key = tuple(_key_value(card, k, rules) for k in limit.keys)
                groups[key] += e.count
                first_span.setdefault(key, e.span)
            for key, n in groups.items():
                if n > limit.limit:
                    what = " / ".join(_show(v) if v is not None else f"(no {name})"
                                      for v, name in zip(key, limit.keys))
                    problem(first_span[key], "E608",
                            f'too many copies: {n} cards share the {" and ".join(limit.keys)}'
                            f' {what}; at most {limit.limit} allowed',
                            (f"at most {limit.limit} per {', '.join(limit.keys)}",))
        for rule in decl.counts:
            n = 0
            for e in entries:
                card = cards[e.name]
                if rule.kind and card.kind.lower() == rule.kind.lower():
                    n += e.count
                elif rule.keyword and _has_keyword(card, rule.keyword):
                    n += e.count
            kind = rules.kind(rule.kind) if rule.kind else None
            what = kind.plural if kind else f"cards with {rule.keyword}"
            if not _relation_holds(rule.relation, n, rule.number):
                problem(where, "E609", f'"{decl.name}" has {n} {what}; it needs '
                        f"{rule.relation} {rule.number}", (f"{rule.relation} {rule.number} {what}",))
        for total in decl.totals:
            n = 0
            for e in entries:
                value = _stat_total(cards[e.name], total.stat)
                n += value * e.count
            if not _relation_holds(total.relation, n, total.number):
                problem(where, "E610", f'the total {total.stat} of "{decl.name}" is {n}; '
                        f"it must be {total.relation} {total.number}",
                        (f"{total.relation} {total.number}",))
        if decl.matching is not None:
            # "matching: Main Character part, by name or Archetype"
            other, stat = decl.matching
            model = [cards[e.name] for e in deck.part(other) if e.name in cards]
            kinds = {c.kind for c in model}
            names = {c.name for c in model}
            values = {c.stat(stat) for c in model} - {None}
            for e in entries:
                card = cards[e.name]
                if card.kind in kinds and card.name not in names and \
                        card.stat(stat) not in values:
                    problem(e.span, "E613", f'"{e.name}" shares neither the name nor the '
                            f'{stat} of the "{other}" ({listing(sorted(names))})',
                            (f"a {card.kind} named {listing(sorted(names))} or with the "
                             f"{stat} {listing(sorted(map(str, values)))}",))
        for other_name in decl.counted_with:
            other = rules.deck_part(other_name)
            if other is not None:
                _check_counted_with(deck, decl, other, entries, cards, rules, problem)
        for e in entries:
            if e.name in decl.banned:
                problem(e.span, "E611", f'"{e.name}" is banned')
        for name, limit in decl.limited:
            n = sum(e.count for e in entries if e.name == name)
            if n > limit:
                span = next(e.span for e in entries if e.name == name)
                problem(span, "E612", f'"{name}" is limited to {limit} '
                        f"cop{'y' if limit == 1 else 'ies'}; this deck has {n}")
    return problems


def _check_counted_with(deck: Deck, decl, other, entries, cards, rules, problem) -> None:
    """``counted with: PART`` on ``decl``: its cards together with PART's
    may not break PART's copy limits, banned or limited cards (a Side Deck
    card that would break the Main Deck's limits). Reported on the first of
    ``decl``'s cards that does, and only where ``decl``'s cards make the
    difference (PART alone is checked on its own)."""
    theirs = [e for e in deck.part(other.name) if e.name in cards]
    both = f'"{other.name}" and "{decl.name}" together'
    for limit in other.copies:
        groups: dict = {}
        for mine, group in ((False, theirs), (True, entries)):
            for e in group:
                card = cards[e.name]
                if limit.kind and card.kind.lower() != limit.kind.lower():
                    continue
                key = tuple(_key_value(card, k, rules) for k in limit.keys)
                count, alone, first = groups.get(key, (0, 0, None))
                groups[key] = (count + e.count, alone + (0 if mine else e.count),
                               first if first is not None or not mine else e.span)
        for key, (n, alone, first) in groups.items():
            if first is not None and n > limit.limit >= alone:
                what = " / ".join(_show(v) if v is not None else f"(no {name})"
                                  for v, name in zip(key, limit.keys))
                problem(first, "E614",
                        f'too many copies in {both}: {n} cards share the '
                        f'{" and ".join(limit.keys)} {what}; at most {limit.limit} allowed',
                        (f"at most {limit.limit} per {', '.join(limit.keys)} in "
                         f'"{other.name}" and "{decl.name}"',))
    for e in entries:
        if e.name in other.banned and e.name not in decl.banned:
            problem(e.span, "E614", f'"{e.name}" is banned from "{other.name}", which '
                    f'"{decl.name}" is counted with')
    for name, limit in other.limited:
        alone = sum(e.count for e in theirs if e.name == name)
        n = alone + sum(e.count for e in entries if e.name == name)
        if n > limit >= alone:
            span = next(e.span for e in entries if e.name == name)
            problem(span, "E614", f'"{name}" is limited to {limit} '
                    f"cop{'y' if limit == 1 else 'ies'} in {both}; this deck has {n}")


def _size_text(decl) -> str:
    def cards(n):
        return f"{n} card" if n == 1 else f"{n} cards"
    if decl.size_min == decl.size_max:
        return f"exactly {cards(decl.size_min)}"
    if decl.size_min is None:
        return f"at most {cards(decl.size_max)}"
    if decl.size_max is None:
        return f"at least {cards(decl.size_min)}"
    return f"{decl.size_min} to {cards(decl.size_max)}"


def _relation_holds(relation: str, n: int, number: int) -> bool:
    return {"exactly": n == number, "at least": n >= number,
            "at most": n <= number}[relation]


def _key_value(card, key: str, rules: GameRules):
    low = key.lower()
    if low == "name":
        return card.name
    if low == "title":
        return rules.title_of(card.name)
    return card.stat(key)


def _show(value) -> str:
    if isinstance(value, tuple):
        return " ".join("/".join(v) if isinstance(v, tuple) else str(v) for v in value)
    return f'"{value}"' if isinstance(value, str) else str(value)


def _has_keyword(card, keyword: str) -> bool:
    return any(a.ability.form == "keyword" and a.ability.args[0].form.lower()
               == keyword.lower() for a in card.abilities)


def _stat_total(card, stat: str) -> int:
    value = card.stat(stat)
    if isinstance(value, int):
        return value
    # A double-sided card counts its first face.
    for _face, stats in card.faces:
        for s in stats:
            if s.name.lower() == stat.lower() and isinstance(s.value, int):
                return s.value
    return 0
