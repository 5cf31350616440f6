"""docs/core.md against the games: which games really use each primitive.

Each section of docs/core.md (one primitive or one family of them) has a
detector here that looks for its use in a game's files, read as the engine
reads them: the rules file's declarations, its procedures, rules, keyword and
verb definitions, and every card's text (exchange rewards included), as
ASTs. The games counted are the shipped ones and the fixture games that are
not renamed copies of one (Duel, Minions, Lore, Fronts, Hexwood). Every primitive has
at least two users: a new one-game primitive cannot slip in unnoticed (a
primitive waiting for its second user would be listed in ONE_USER_YET, which
is empty). Every game a detector finds must also be named in the section's
"Users:" line, so that the page stays true.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from lark.exceptions import UnexpectedInput

from interpreter.language import ast
from interpreter.language.cards import Exchange
from interpreter.language.game_rules import _procedure_sentences
from interpreter.language.games import load_game

ROOT = Path(__file__).resolve().parent.parent
CORE = ROOT / "docs" / "core.md"

# name in "Users:" lines -> (game id, root or None for a shipped game)
GAMES = {
    "RYFT": ("ryft", None),
    "Silver Wing Rivals": ("silver-wing-rivals", None),
    "Saturday Wars": ("saturday-wars", None),
    "Rival Rush": ("rival-rush", None),
    "Arcane Duel": ("arcane-duel", None),
    "Duel": ("duel", ROOT / "tests" / "fixtures" / "engine"),
    "Minions": ("minions", ROOT / "tests" / "fixtures" / "minions"),
    "Lore": ("lore", ROOT / "tests" / "fixtures" / "lore"),
    "Fronts": ("fronts", ROOT / "tests" / "fixtures" / "fronts"),
    "Hexwood": ("hexwood", ROOT / "tests" / "fixtures" / "hexwood"),
    "Pocket League": ("pocket-league", None),
}

# Primitives with fewer than two users among the games above (none: the
# relations between cards have Arcane Duel's blocking and Hexwood's guards).
ONE_USER_YET: set[str] = set()


def _trees(game) -> list:
    """Every text of the game as the parser reads it."""
    rules = game.rules
    parser = rules.parser()
    texts = [s.text for s in _procedure_sentences(rules)]
    texts += [rule.text.text for rule in rules.game_rules]
    texts += [d.definition for d in (*rules.keywords, *rules.verbs) if d.definition]
    trees = [ability.ability for card in game.cards.values() for ability in card.abilities]
    # the rewards of exchange stats ("cost: Ember -> Place this ...") are card text too
    trees += [stat.value.reward for card in game.cards.values()
              for stats in (card.stats, *(s for _face, s in card.faces)) for stat in stats
              if isinstance(stat.value, Exchange)]
    for text in texts:
        try:
            trees.append(parser.parse(text))
        except UnexpectedInput:
            pass            # a procedure line the grammar reads another way
    return trees


def _forms(game) -> set[str]:
    return {node.form for tree in _trees(game) for node in tree.walk()}


def _uses(section: str, game) -> bool:
    rules = game.rules
    forms = _forms(game)
    if section == "Rules of the game":
        return bool(rules.game_rules)
    if section == "Replacement":
        return bool(forms & {"would", "would_player"})
    if section == "Words a game defines":
        return bool(rules.nouns or rules.adjectives)
    if section == "Events a game declares":
        return bool(rules.events)
    if section == "Stats written together":
        return rules.stat_pair is not None
    if section == "Zones that fill up":
        return any(z.capacity is not None for z in rules.zones.values())
    if section == "Tokens":
        return any(card.token for card in game.cards.values()) or "create" in forms
    if section == "Damage":
        return bool(forms & {"deal", "deal_measured", "card_deals", "card_deals_measured",
                             "each_other", "remove_counter", "remove_all_counters"})
    if section == "Numbers":
        return bool(forms & {"where_x", "plus", "minus", "twice", "half_up", "half_down",
                             "greater_of", "lesser_of", "its_stat", "number_of",
                             "counter_measure", "total_stat", "stat_of", "shared_counter",
                             "compare"})
    if section == "Values and choices of numbers":
        return any(c.value for c in rules.counters.values())
    if section == "Control":
        return bool(forms & {"if_", "otherwise", "choose_mode", "repeat", "for_each",
                             "for_each_suffix"})
    if section == "Keywords":
        return any(k.definition for k in rules.keywords) and "keyword" in forms
    if section == "Prohibitions, requirements and allowances":
        return bool(forms & {"cannot", "player_cannot", "must", "can"})
    if section == "Results":
        return any(c.loses_at is not None or c.wins_at is not None
                   for c in rules.counters.values()) or any(
            z.none_loses or z.empty_loses for z in rules.zones.values()) or bool(
            forms & {"win", "lose_game"})
    if section == "Statuses":
        return bool(rules.opposites) or any(
            node.form in ("exhaust", "rest", "ready", "no_longer") or (
                node.form == "becomes" and node.args and getattr(node.args[0], "form", None)
                == "status")
            for tree in _trees(game) for node in tree.walk())
    if section == "Roles and nullify":
        return bool(forms & {"attacking", "defending", "the_attacking", "the_defending",
                             "nullify", "nullified"}) or any(
            a.role or a.target_role for a in rules.actions)
    if section == "Values cards share":
        return bool(forms & {"shares", "shares_none", "card_has_keyword", "card_lacks_keyword"})
    if section == "Places":
        return any(c.track or c.per_place for c in rules.counters.values()) or bool(
            rules.wildcards) or any(s.type == "exchange" for s in rules.stats.values()) or \
            "put_at" in forms
    if section == "Decisions":
        return rules.identical_one_choice
    if section == "Coins":
        return bool(forms & {"flip_coin", "heads", "tails"})
    if section == "The stack":
        return rules.resolution is not None
    if section == "Priority":
        return any(t.with_priority for t in rules.timings.values()) or (
            rules.resolution is not None and rules.resolution.turn_player_first)
    if section == "Relations":
        return bool(rules.relations) or bool(forms & {
            "relates", "no_longer_relating", "related_to", "related_from", "relating_adj",
            "relating"})
    raise AssertionError(f'docs/core.md has a section "{section}" with no detector here')


def _sections() -> dict[str, str]:
    text = CORE.read_text(encoding="utf-8")
    parts = re.split(r"^## (.+)$", text, flags=re.M)
    return {parts[i].strip(): parts[i + 1] for i in range(1, len(parts), 2)
            if parts[i].strip() != "Not in the core yet"}


@pytest.fixture(scope="module")
def games():
    return {name: load_game(game_id, root) if root else load_game(game_id)
            for name, (game_id, root) in GAMES.items()}


def test_every_primitive_has_two_users_or_is_known_to_wait_for_its_second(games):
    sections = _sections()
    assert sections, "docs/core.md has no sections"
    users = {section: [name for name, game in games.items() if _uses(section, game)]
             for section in sections}
    assert all(users[s] for s in sections), {s: u for s, u in users.items() if not u}
    fewer = {section for section, found in users.items() if len(found) < 2}
    assert fewer == ONE_USER_YET, users


def _named(line: str) -> set[str]:
    """The games a "Users:" sentence names ("every shipped game": each of them)."""
    named = set()
    for name in sorted(GAMES, key=len, reverse=True):
        # the longer names first: "Arcane Duel" is not also "Duel"
        if name in line:
            named.add(name)
            line = line.replace(name, "")
    if "every shipped game" in line or "all shipped games" in line:
        named |= {name for name, (_id, root) in GAMES.items() if root is None}
    return named


def test_the_users_docs_core_names_are_the_games_that_use_it(games):
    wrong = {}
    for section, body in _sections().items():
        found = re.search(r"Users?:(.*?)\.(?:\s|$)", " ".join(body.split()))
        assert found, f'docs/core.md "{section}" names no users'
        named = _named(found.group(1))
        using = {name for name, game in games.items() if _uses(section, game)}
        if named != using:
            wrong[section] = {"named, not using": sorted(named - using),
                              "using, not named": sorted(using - named)}
    assert wrong == {}
