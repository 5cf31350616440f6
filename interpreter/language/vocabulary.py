"""A game's vocabulary, and the effect grammar generated from it.

The rules file of a game declares the words its cards may use: timing labels,
keywords, zones, counters, card kinds, stats and their values, statuses,
events, periods and verbs. :class:`Vocabulary` holds them;
:func:`effect_grammar` appends them to the base grammar (``grammar/effect.lark``)
as literal terminals, so that the contextual lexer never mistakes a keyword
for free text and every word of a card text is a known word.

Verbs and parameterised keywords are patterns such as ``Mill {n}``:
literal words plus slots. Slots are ``{n}`` (a number or X), ``{card}`` /
``{cards}`` (a card selector), ``{player}`` and ``{zone}``; a word ending in
``(s)`` accepts its singular and plural; words in square brackets may be
left out (``Climb {n} [Floor(s)]`` reads "Climb 1" and "climb 1
Floor" alike).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterable

import attrs

from interpreter.errors import did_you_mean
from interpreter.resources import read_grammar

# A keyword's card slot takes only simple selectors: "with Drive 2" sits
# inside a selector, and a qualifier after a full selector would be ambiguous.
KEYWORD_SLOT_RULES = {
    "n": "amount", "x": "amount", "card": "simple_selector",
    "cards": "simple_selector", "player": "player_subject", "zone": "zone_ref",
}

SLOT_RULES = {
    "n": "amount",
    "x": "amount",
    "card": "selector",
    "cards": "selector",
    "player": "player_subject",
    "zone": "zone_ref",
}

_SLOT = re.compile(r"\{([a-z]+)\}")


@attrs.frozen(slots=True)
class Pattern:
    """A verb or keyword pattern: words and slots, e.g. ``Mill {n}``."""

    text: str

    @property
    def parts(self) -> tuple[str, ...]:
        return tuple(self.text.split())

    @property
    def slots(self) -> tuple[str, ...]:
        return tuple(_SLOT.findall(self.text))      # "+{n}" is the slot n too

    @property
    def leading_words(self) -> str:
        words = []
        for part in self.parts:
            if _SLOT.search(part):          # "{n}", "+{n}"
                break
            words.append(part)
        return " ".join(words)

    def bad_slots(self) -> list[str]:
        return [s for s in self.slots if s not in SLOT_RULES]

    def grammar_alternative(self, slot_rules: dict[str, str] | None = None,
                            conjugated: bool = False) -> str:
        """The pattern as a sequence of lark symbols; ``conjugated``: its
        first word also as a player subject's verb ("Your opponent Mills 2")."""
        slot_rules = slot_rules or SLOT_RULES
        symbols = []
        words: list[str] = []

        def flush():
            if words:
                text = " ".join(words)
                if conjugated and not symbols:
                    other = " ".join([third_person(words[0])] + their_for_your(words[1:]))
                    symbols.append(f"({_literal(text)} | {_literal(other)})")
                else:
                    symbols.append(_literal(text))
                words.clear()

        optional_from = None
        for part in self.parts:
            if part.startswith("["):
                # "[Floor(s)]": the words up to "]" may be left out
                flush()
                optional_from, part = len(symbols), part[1:]
            closing = part.endswith("]")
            part = part[:-1] if closing else part
            slot = _SLOT.fullmatch(part)
            if slot:
                flush()
                symbols.append(slot_rules.get(slot.group(1), "amount"))
            elif part == "+{n}":
                # "Resist +{n}": a signed number where the card writes it
                flush()
                symbols.append("SIGNED_NUMBER")
            elif part.endswith("(s)"):
                flush()
                stem = part[:-3]
                symbols.append(f"({_literal(stem)} | {_literal(stem + 's')})")
            else:
                words.append(part)
            if closing and optional_from is not None:
                flush()
                symbols[optional_from:] = ["(" + " ".join(symbols[optional_from:]) + ")?"]
                optional_from = None
        flush()
        return " ".join(symbols)


@attrs.frozen(slots=True)
class Vocabulary:
    """Every word a game adds to the card language (sorted, de-duplicated)."""

    timing_labels: tuple[str, ...] = ()
    keywords: tuple[Pattern, ...] = ()
    zones: tuple[str, ...] = ()
    counters: tuple[str, ...] = ()
    counter_plurals: tuple[str, ...] = ()  # "Mana Gems": the same counter
    # the counters kept on cards (one for all players) no stat spells: "a
    # Creature with 1 or more Growth"
    card_counters: tuple[str, ...] = ()
    zone_plurals: tuple[str, ...] = ()     # "their owners' hands": the same zone
    kinds: tuple[str, ...] = ()            # singular names
    kind_plurals: tuple[str, ...] = ()     # same order as kinds
    stats: tuple[str, ...] = ()            # stats effects can name ("AP", "cost")
    stat_values: tuple[str, ...] = ()      # enum values usable as adjectives
    list_stats: tuple[str, ...] = ()       # stats holding a list of values
    statuses: tuple[str, ...] = ()
    relations: tuple[str, ...] = ()        # "blocking" in "Creatures blocking it"
    participles: tuple[str, ...] = ()      # "Summoned" in "When this is Summoned"
    opposites: tuple[str, ...] = ()        # statuses declared "the opposite of" another
    # each participle's verb ("Summoned" -> "Summon"): "Whenever your Rival
    # Summons a Being" (``present_forms``)
    presents: tuple[tuple[str, str], ...] = ()
    event_verbs: tuple[str, ...] = ()      # "advances" in "When this advances"
    periods: tuple[str, ...] = ()
    verbs: tuple[Pattern, ...] = ()
    # the game's actions a card can (not / must) take: "This can't quest"
    # (those the grammar's own ACT_VERB already reads are left to it)
    actions: tuple[str, ...] = ()
    adjectives: tuple[str, ...] = ()       # declared: "adjective enemy: ..."
    # the names of value sets ("values color: ..."): "that shares a color with"
    value_kinds: tuple[str, ...] = ()
    # where players keep counters ("counter Jump: ..., held in the Cache"):
    # "Remove 2 Jump from your Rival's Cache"
    holders: tuple[str, ...] = ()

    def period_kinds(self) -> tuple[str, ...]:
        """Words that name both a period and a card kind (a game whose
        Round is both): "this Round" may be either."""
        kinds = {k.lower() for k in self.kinds}
        return tuple(sorted(p.lower() for p in self.periods if p.lower() in kinds))

    def spelling(self) -> dict[str, str]:
        """Each vocabulary word (lower case) -> as the rules file spells it."""
        table: dict[str, str] = {}
        for group in (self.zones, self.counters, self.kinds, self.kind_plurals,
                      self.stats, self.list_stats, self.stat_values, self.statuses, self.relations,
                      self.participles, self.event_verbs, self.periods, self.actions, self.adjectives,
                      self.value_kinds, self.holders):
            for word in group:
                table.setdefault(word.lower(), word)
        for pattern in (*self.keywords, *self.verbs):
            table.setdefault(pattern.leading_words.lower(), pattern.leading_words)
        return table

    def category_of(self) -> dict[str, str]:
        """Each vocabulary word (lower case) -> what kind of word it is."""
        table: dict[str, str] = {}

        def put(words: Iterable[str], what: str) -> None:
            for w in words:
                table.setdefault(w.lower(), what)

        put((f"{label}:" for label in self.timing_labels), "timing label")
        put((k.leading_words for k in self.keywords), "keyword")
        put(self.zones, "zone")
        put(self.zone_plurals, "zone")
        put(self.counters, "counter")
        put(self.kinds, "card kind")
        put(self.kind_plurals, "card kind")
        put(self.stats, "stat")
        put(self.list_stats, "stat")
        put(self.stat_values, "stat value")
        put(self.statuses, "status")
        put(self.relations, "relation")
        put(self.participles, "event")
        put(self.event_verbs, "event")
        put(self.periods, "period")
        put((v.leading_words for v in self.verbs), "verb")
        put(self.actions, "action")
        put(self.adjectives, "adjective")
        put(self.value_kinds, "set of values")
        put(self.holders, "holder of counters")
        return table


def third_person(verb: str) -> str:
    """ "mill" -> "mills", "pass" -> "passes", "carry" -> "carries"."""
    lowered = verb.lower()
    if lowered.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if lowered.endswith("y") and len(lowered) > 1 and lowered[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def base_of_present(verb: str) -> str:
    """ "dies" -> "die", "passes" -> "pass", "carries" -> "carry", "quests"
    -> "quest" (``third_person`` undone); a word with no "s" is returned."""
    lowered = verb.lower()
    if not lowered.endswith("s") or lowered.endswith("ss"):
        return verb
    if lowered.endswith("ies") and len(lowered) > 4:
        return verb[:-3] + "y"
    if lowered.endswith(("sses", "shes", "ches", "xes", "zes", "oes")):
        return verb[:-2]
    return verb[:-1]


def event_verb_forms(vocab: "Vocabulary") -> dict[str, str]:
    """The game's events said by a verb ("When this dies") and their base
    forms ("If it would die", "When two Creatures die") -> the declared
    word; a base form that is a word of the game already is left out."""
    forms = {verb: verb for verb in vocab.event_verbs}
    declared = {verb.lower() for verb in vocab.event_verbs}
    others = _naming_words(vocab, vocab.participles, vocab.holders, vocab.value_kinds,
                           (p.leading_words for p in (*vocab.keywords, *vocab.verbs)))
    for verb in vocab.event_verbs:
        base = base_of_present(verb)
        if base.lower() not in declared and base.lower() not in others:
            forms.setdefault(base, verb)
    return forms


# verbs whose participle is not "-ed" ("Put {card} onto your bench": "be put")
_IRREGULAR = {"put": "put", "set": "set", "cast": "cast", "cut": "cut", "hit": "hit",
              "send": "sent", "deal": "dealt", "keep": "kept", "take": "taken",
              "give": "given", "draw": "drawn", "throw": "thrown", "hide": "hidden",
              "bring": "brought", "make": "made", "find": "found", "hold": "held",
              "lose": "lost", "pay": "paid", "lay": "laid", "win": "won", "steal": "stolen",
              "freeze": "frozen", "shake": "shaken", "bind": "bound", "sink": "sunk",
              "grow": "grown", "strike": "struck", "show": "shown", "choose": "chosen",
              "break": "broken", "wake": "woken", "see": "seen", "feed": "fed",
              "lead": "led", "spend": "spent", "build": "built", "shoot": "shot",
              "split": "split", "read": "read", "tear": "torn", "write": "written",
              "ride": "ridden", "bite": "bitten", "fly": "flown", "spin": "spun",
              "open": "opened", "edit": "edited", "exit": "exited", "limit": "limited",
              "visit": "visited", "heal": "healed"}


def past_participle(verb: str) -> str:
    """ "restrict" -> "restricted", "copy" -> "copied", "drop" -> "dropped",
    "put" -> "put" (a lower-case verb)."""
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if 3 <= len(verb) <= 4 and verb[-1] not in "aeiouwxy" and verb[-2] in "aeiou" and \
            verb[-3] not in "aeiou":
        return f"{verb}{verb[-1]}ed"
    if verb.endswith("e"):
        return f"{verb}d"
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return f"{verb[:-1]}ied"
    return f"{verb}ed"


_BASE_OF_IRREGULAR = {participle: verb for verb, participle in _IRREGULAR.items()}


def base_of(participle: str, words: Iterable[str] = ()) -> str:
    """The verb whose participle this is, spelled as the game spells it: a
    word of the game's own (its actions, verbs, events: "Summon a Being")
    whose participle it is, else the usual English ("saved" -> "save",
    "dropped" -> "drop", "copied" -> "copy")."""
    lowered = participle.lower()
    for word in words:
        if len(word) >= 2 and past_participle(word.lower()) == lowered:
            return _spelled_like(word, participle)
    if lowered in _BASE_OF_IRREGULAR:
        return _spelled_like(_BASE_OF_IRREGULAR[lowered], participle)
    if lowered.endswith("ied"):
        return participle[:-3] + "y"
    if not lowered.endswith("ed"):
        return participle
    stem = participle[:-2]
    low = stem.lower()
    if len(low) >= 2 and low[-1] == low[-2] and low[-1] not in "lsz":
        return stem[:-1]                           # "dropped"
    if low.endswith(("v", "c", "u", "z", "rg", "dg", "eng", "ang")) or (
            len(low) >= 2 and low[-1] == "s" and low[-2] in "aeiou") or (
            len(low) >= 3 and low[-2:] in ("il", "ir", "ur", "at", "ut", "ot")
            and low[-3] not in "aeiou"):
        return stem + "e"            # "saved", "merged", "erased", "smiled", "rotated"
    return stem


def _spelled_like(word: str, model: str) -> str:
    """``word`` in the case of ``model`` ("summon", "Summoned" -> "Summon")."""
    if model.isupper():
        return word.upper()
    return word[:1].upper() + word[1:] if model[:1].isupper() else word.lower()


def present_forms(vocab: "Vocabulary") -> dict[str, str]:
    """The present tense of the game's events done by a player ("Whenever
    your Rival casts a Sorcery", "you Summon a Being") -> the participle,
    leaving out a form that is already a word of the game (Arcane Duel's
    "blocks" is an event of its own) or the participle itself ("cast")."""
    others = _naming_words(vocab, vocab.participles, vocab.event_verbs, vocab.holders,
                           vocab.value_kinds,
                           (p.leading_words for p in (*vocab.keywords, *vocab.verbs)))
    forms: dict[str, str] = {}
    for participle, base in vocab.presents:
        for form in (base, third_person(base)):
            if form.lower() not in others:
                forms.setdefault(form, participle)
    return forms


def status_participles(vocab: "Vocabulary") -> list[str]:
    """The statuses a card can be given, as "can't be ..." says them:
    "exhausted", "paralysed", and a status named by an adjective said as its
    verb's participle ("ready": "readied"); not a game's event ("blocked")."""
    events = {p.lower() for p in vocab.participles}
    words = [s if s.lower().endswith("ed") else past_participle(s.lower())
             for s in vocab.statuses if s.lower().endswith("ed") or s in vocab.opposites]
    return [w for w in words if w.lower() not in events]


def status_verbs(vocab: "Vocabulary") -> dict[str, str]:
    """A status named by an adjective said as its verb ("It doesn't ready",
    "can't ready", "readies") -> the participle "can't be ..." says."""
    events = {p.lower() for p in vocab.participles}
    return {form: past_participle(s.lower())
            for s in vocab.statuses if s in vocab.opposites and not s.lower().endswith("ed")
            and past_participle(s.lower()) not in events
            for form in (s.lower(), third_person(s.lower()))}


def _literal(word: str, case_insensitive: bool = True) -> str:
    if case_insensitive:
        # one terminal per word whatever its case: "Pay" and "pay" are one word
        word = word.lower()
    escaped = word.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"' + ("i" if case_insensitive else "")


class _Terminals:
    """One named terminal per distinct vocabulary word.

    Named (not anonymous) so that the word survives into the parse tree, and
    shared between categories so that a word declared twice (a counter and a
    stat both called "Energy") is one token.
    """

    def __init__(self) -> None:
        self.names: dict[tuple[str, bool], str] = {}

    def __call__(self, word: str, case_insensitive: bool = True) -> str:
        key = (word.lower() if case_insensitive else word, case_insensitive)
        if key not in self.names:
            self.names[key] = f"W{len(self.names)}"
        return self.names[key]

    def definitions(self) -> str:
        return "".join(f"{name}: {_literal(word, ci)}\n"
                       for (word, ci), name in self.names.items())


def _word_terminal(word: str, case_insensitive: bool) -> str:
    """A whole-word terminal: "AP" must not match the start of "APP"."""
    body = re.escape(word).replace("/", "\\/")
    if case_insensitive:
        body = f"(?i:{body})"
    if word[-1:].isalnum():
        body += r"(?![\w-])"
    return f"/{body}/"


# a look ahead or behind: what follows a word, not a part of it
_LOOK = re.compile(r"\(\?<?[=!](?:[^()]|\([^()]*\))*\)")
_REGEX = re.compile(r"(?<!\\)[][()?*+|{}^$.]")


def terminal_word(pattern: str) -> str | None:
    """The words a terminal of literal words stands for, as a designer types
    them: a whole-word terminal (see _word_terminal), or the shortest of an
    alternation of them ("defend again against" for "defends again against"
    or "defend again against"); None for a pattern of any other shape."""
    body = _LOOK.sub("", pattern)
    if body.startswith("(?:") and body.endswith(")"):
        body = body[3:-1]
    alternatives = []
    for alternative in re.split(r"(?<!\\)\|", body):
        if alternative.startswith("(?i:") and alternative.endswith(")"):
            alternative = alternative[4:-1]
        if not alternative or _REGEX.search(alternative):
            return None
        alternatives.append(re.sub(r"\\(.)", r"\1", alternative))
    return min(alternatives, key=len)


def _choice(terms: _Terminals, rule: str, words: Iterable[str],
            case_insensitive: bool = True) -> str:
    words = sorted(set(w for w in words if w), key=lambda w: (-len(w), w))
    if not words:
        terminal = f"_NO_{rule.upper()}"
        return f"{rule}: {terminal}\n%declare {terminal}\n"
    alternatives = "\n    | ".join(terms(w, case_insensitive) for w in words)
    return f"{rule}: {alternatives}\n"


def _patterns(rule: str, patterns: Iterable[Pattern], alias: str,
              slot_rules: dict[str, str] | None = None, conjugated: bool = False) -> str:
    patterns = list(patterns)
    if not patterns:
        terminal = f"_NO_{rule.upper()}"
        return f"{rule}: {terminal}\n%declare {terminal}\n"
    alternatives = "\n    | ".join(
        f"{p.grammar_alternative(slot_rules, conjugated)} -> {alias}_{i}"
        for i, p in enumerate(patterns))
    return f"{rule}: {alternatives}\n"


def _tax_verbs(verbs) -> str:
    """The game verbs a tax may name ("unless they Mill 2"): those that do
    not end with a card slot, whose selector's qualifiers would run into the
    ones after the tax (each keeps its alias, so it reads as the same verb)."""
    alternatives = [f"{p.grammar_alternative(None, True)} -> verb_{i}"
                    for i, p in enumerate(verbs)
                    if not p.text.rstrip().endswith(("{card}", "{cards}"))]
    if not alternatives:
        return "tax_verb_use: _NO_TAX_VERB_USE\n%declare _NO_TAX_VERB_USE\n"
    return "tax_verb_use: " + "\n    | ".join(alternatives) + "\n"


def generated_rules(vocab: Vocabulary) -> str:
    """The lark rules that define a game's words, appended to effect.lark."""
    t = _Terminals()
    parts = [
        "// ---- generated from the game's rules file (interpreter.vocabulary)\n",
        _choice(t, "timing_label", (f"{label}:" for label in vocab.timing_labels),
                case_insensitive=False),
        _patterns("keyword_use", vocab.keywords, "keyword", KEYWORD_SLOT_RULES),
        _patterns("game_verb_use", vocab.verbs, "verb", conjugated=True),
        _tax_verbs(vocab.verbs),
        _choice(t, "zone_name", (*vocab.zones, *vocab.zone_plurals)),
        _choice(t, "counter_name", (*vocab.counters, *vocab.counter_plurals)),
        _choice(t, "card_counter_word", vocab.card_counters),
        _choice(t, "kind_noun", (*vocab.kinds, *vocab.kind_plurals)),
        _choice(t, "stat_name", vocab.stats),
        _choice(t, "list_stat_name", vocab.list_stats),
        _choice(t, "stat_value", _adjective_forms(vocab.stat_values)),
        _choice(t, "status_word", vocab.statuses),
        _choice(t, "relation_word", vocab.relations),
        _choice(t, "game_participle", vocab.participles),
        _choice(t, "game_present", present_forms(vocab)),
        _choice(t, "status_participle", status_participles(vocab)),
        _choice(t, "status_verb", status_verbs(vocab)),
        # the game's events no other word of the game spells (a status, a
        # zone ...): "If that Being is Sacrificed", "the Sacrificed Being"
        _choice(t, "event_only_participle", _only_events(vocab)),
        _choice(t, "event_verb", event_verb_forms(vocab)),
        _choice(t, "period_name", vocab.periods),
        _choice(t, "action_name", vocab.actions),
        _choice(t, "verb_word", _verb_words(vocab)),
        _choice(t, "defined_adjective", vocab.adjectives),
        _choice(t, "value_kind", vocab.value_kinds),
        _choice(t, "holder_name", vocab.holders),
        _choice(t, "period_this", _prefixed(("this", "the"), vocab.periods)),
        _choice(t, "period_your", _prefixed(("your",), vocab.periods)),
        _choice(t, "period_each", _prefixed(("each", "each player's"), vocab.periods)),
        _choice(t, "period_rivals", _prefixed(("your rival's", "your opponent's"),
                                              vocab.periods)),
        _choice(t, "period_next", _prefixed(("the next",), vocab.periods)),
        # "your next turn": the next one that is yours, not the next one
        _choice(t, "period_your_next", _prefixed(("your next",), vocab.periods)),
        _choice(t, "period_rivals_next", _prefixed(("your rival's next", "your opponent's next"),
                                                   vocab.periods)),
        _choice(t, "period_controllers_next", _prefixed(
            ("its controller's next", "their controller's next"), vocab.periods)),
        t.definitions(),
    ]
    return "\n".join(parts)


def _only_events(vocab: Vocabulary) -> list[str]:
    """The game's participles that are no other word of the game ("Deleted"
    is also a zone: "the Deleted" would have two readings)."""
    others = _naming_words(vocab)
    return [p for p in vocab.participles if p.lower() not in others]


def _naming_words(vocab: Vocabulary, *more) -> set[str]:
    """The game's words that name things (statuses, zones, counters, kinds,
    stats and their values, periods, adjectives, actions), lower case, and
    those of ``more``: what a word generated for another reading must not
    be."""
    return {w.lower() for group in (
        vocab.statuses, vocab.relations, vocab.zones, vocab.counters, vocab.counter_plurals,
        vocab.kinds, vocab.kind_plurals, vocab.stats, vocab.list_stats, vocab.stat_values,
        vocab.periods, vocab.adjectives, vocab.actions, *more) for w in group}


def _verb_words(vocab: Vocabulary) -> list[str]:
    """The game verbs a "can't" may name ("Your Rival can't advance this
    turn"): their leading words, where no action's name and no verb the
    base grammar reads after "can't" starts the same way."""
    actions = [a.lower() for a in vocab.actions]
    words = []
    for verb in vocab.verbs:
        word = verb.leading_words.lower()
        if word and not _act_verb().match(word) and not any(
                a == word or a.startswith(word + " ") or word.startswith(a + " ")
                for a in actions):
            words.append(word)
    return words


def _prefixed(prefixes: Iterable[str], words: Iterable[str]) -> list[str]:
    return [f"{p} {w}" for p in prefixes for w in words]


def _adjective_forms(values: Iterable[str]) -> list[str]:
    """Stat values as adjectives, bare or in brackets: FIRE and [FIRE]."""
    out = []
    for v in values:
        out.append(v)
        out.append(f"[{v}]")
    return out


@lru_cache(maxsize=None)
def base_effect_grammar() -> str:
    return read_grammar("effect.lark")


# other card games' words for what the card language says otherwise
# ("target" reads as "a": effect.lark's quantity)
OTHER_GAMES_WORDS = {"dies": "is destroyed", "die": "are destroyed", "counter": "nullify"}
# "tap" / "untap": the verb of the status the game declares, if it has one
_STATUS_VERBS = {"tap": (("exhausted", "exhaust"), ("rested", "rest")),
                 "untap": (("ready", "ready"),)}
# other games' names of the zones a game declares by their role
_ZONE_ROLE_WORDS = {"draw pile": ("deck", "library"), "discard pile": (
    "discard", "graveyard", "discard pile", "void"), "hand": ("hand",)}


def status_verb_words(statuses) -> dict[str, str]:
    """ "tap" -> "exhaust" in a game with the status exhausted ("rest" with
    rested); "untap" -> "ready" where ready is a status."""
    have = {s.lower() for s in statuses}
    return {word: verb for word, choices in _STATUS_VERBS.items()
            for status, verb in reversed(choices) if status in have}


def role_zone_words(zones) -> dict[str, tuple[str, str]]:
    """ "deck" -> ("Draw Pile", "draw pile"): the other games' words for
    each zone this game names otherwise, by the zone's role (ZoneDecl)."""
    names = {z.name.lower() for z in zones}
    out: dict[str, tuple[str, str]] = {}
    for zone in zones:
        for role in zone.roles:
            for word in _ZONE_ROLE_WORDS.get(role, ()):
                if word not in names:
                    out.setdefault(word, (zone.name, role))
    return out


def other_games_word(word: str, expected, zone_words: dict,
                     game_words: dict | None = None) -> str | None:
    """A did-you-mean for a word of another card game: the language's phrase
    ("dies": "is destroyed"), or, where a zone is expected, this game's zone of that
    role ("deck": a zone "Draw Pile" of that role)."""
    word = word.lower()
    if word in zone_words and any(e.startswith("a zone") for e in expected):
        zone, role = zone_words[word]
        return f'did you mean "{zone}" (this game\'s {role})?'
    known = {**OTHER_GAMES_WORDS, **(game_words or {})}
    return f'did you mean "{known[word]}"?' if word in known else None


def period_kinds_apart(text: str, words) -> str:
    """``text`` with a tab for the space of each "this WORD" whose WORD
    names a period and a card kind (``Vocabulary.period_kinds``): the same
    length, and no period's phrase spells it, so it reads as the card
    ("This Round gets ..."). "the Round" stays the period: written back, a
    card so named would read as the period where both fit."""
    out = text
    for word in words:
        phrase = "this " + word
        at = out.lower().find(phrase)
        while at >= 0:
            end = at + len(phrase)
            if (at == 0 or not out[at - 1].isalnum()) and \
                    (end == len(out) or not out[end].isalnum()):
                out = out[:at + 4] + "\t" + out[at + 5:]
            at = out.lower().find(phrase, end)
    return out


def by_first_word(phrases: list[str]) -> list[str]:
    """Phrases that start alike shown once ("for each", "for free", "for the
    rest of": "for ..."), each quoted as a designer types it."""
    starts: dict[str, list[str]] = {}
    for phrase in phrases:
        starts.setdefault(phrase.split(" ", 1)[0].lower(), []).append(phrase)
    for first in list(starts):
        # "adds" beside "add": one verb, as a player or "you" does it
        for stem in (first[:-1], first[:-2]):
            if first.endswith("s") and stem in starts and first in starts:
                starts[stem].extend(starts.pop(first))
    return [f'"{group[0]}"' if len(group) == 1 else f'"{first} ..."'
            for first, group in starts.items()]


# the verbs a step of the language opens with (effect.lark's steps): what an
# unknown word opening a sentence may be a misspelling of
STEP_VERBS = frozenset({
    "draw", "discard", "move", "put", "return", "reveal", "look", "shuffle", "search", "add",
    "gain", "lose", "pay", "set", "deal", "destroy", "ready", "rest", "exhaust", "nullify",
    "flip", "attach", "choose", "play", "remove", "prevent", "win", "repeat", "end", "take",
    "use", "respond", "resolve", "create", "compare", "alternate"})


def unknown_verb(text: str, start: int, end: int, suggestion: str | None,
                 categories: dict, patterns, literal) -> str | None:
    """ "Scry 2.": a capitalised word no game word is (``categories``, nor a
    word of the grammar: ``literal``), opening a sentence and followed by
    what a verb takes (a number, "a ..."), is a verb the game does not
    have: the suggestion says how to declare it, rather than name a word
    that only looks alike (a card kind). None where that is not so, or
    where ``suggestion`` names a verb (the language's or the game's)."""
    word = text[start:end]
    before = text[:start].rstrip()
    if not word[:1].isupper() or not word.isalpha() or (before and before[-1] not in ".:"):
        return None
    if categories.get(word.lower()) is not None or literal(word):
        return None
    if suggestion and suggestion.startswith('did you mean "'):
        # a word of the language ("move") or a verb of the game: a likely
        # misspelling of it; a card kind or a status that looks alike is not
        near = suggestion[len('did you mean "'):].split('"', 1)[0].lower()
        # (a word that only looks alike is no misspelling: "Exile" is no "while")
        kind = categories.get(near)
        if kind == "verb" or (kind is None and (
                near in STEP_VERBS or near[:1] == word[:1].lower())):
            return None
    verbs = [p.text for p in patterns if categories.get(p.leading_words.lower()) == "verb"]
    following = text[end:].split(None, 1)
    takes = following[0].lower().rstrip(".,") if following else ""
    if not (takes.isdigit() or takes in ("x", "a", "an", "the", "each", "all", "it",
                                           "this", "that", "target", "up", "your")):
        return None
    slot = "{n}" if takes.isdigit() or takes in ("x", "up") else "{card}"
    known = f" (its verbs: {', '.join(verbs[:6])}{', ...' if len(verbs) > 6 else ''})" \
        if verbs else ""
    return (f'"{word}" is not a verb of this game{known}; its rules file may declare '
            f'it: verb "{word} {slot}": <its steps>')


# the language's own events of a card (effect.lark's event_participle, each
# its own form), which a game may give another name ("event "is knocked
# out": another name for "is destroyed"")
BASE_PARTICIPLES = frozenset({"played", "destroyed", "discarded", "drawn", "revealed", "attacked",
                              "defended", "nullified", "readied", "rested", "exhausted",
                              "activated", "moved", "returned", "chosen", "targeted",
                              "flipped_face_up", "flipped_face_down"})


# the words the grammar reads before a period's name (generated_rules: the
# rules period_this ... period_controllers_next)
PERIOD_PREFIXES = ("this", "the", "each", "each player's", "your", "your rival's",
                   "your opponent's", "the next",
                   "your next", "your rival's next", "your opponent's next",
                   "its controller's next", "their controller's next")


def unknown_period(text: str, start: int, shown: list[str], spelling: dict) -> tuple | None:
    """ "At the start of your upkeep": where every phrase the grammar takes
    at ``start`` is a period named after one of PERIOD_PREFIXES ("your
    Main", "the Combat") and none is written, the message names the period
    written (and where it is) and lists the game's. None elsewhere."""
    found = []
    for phrase in shown:
        before = max((p for p in PERIOD_PREFIXES if phrase.lower().startswith(p + " ")),
                     key=len, default=None)
        if before is None:
            return None
        found.append((before, phrase[len(before) + 1:].lower()))
    rest = text[start:].lower()
    before = max((b for b, _ in found if rest.startswith(b + " ")), key=len, default=None)
    if before is None:
        return None
    at = start + len(before) + 1
    name = re.split(r"[,.:;]", text[at:], maxsplit=1)[0].strip()
    names = sorted({spelling.get(p, p) for _, p in found}, key=str.lower)
    return (f'unknown period "{name}"', (f"a period: {', '.join(names)}",),
            did_you_mean(name, names), at, at + len(name))


@lru_cache(maxsize=None)
def grammar_literals() -> frozenset[str]:
    """Every word or phrase the base grammar spells out ("discards", "the
    end of"), lower case: a declared word derived from another (a plural)
    must not be one of them."""
    return frozenset(w.lower() for w in re.findall(r'"((?:[^"\\]|\\.)+)"i?',
                                                     base_effect_grammar()))


@lru_cache(maxsize=None)
def _act_verb() -> re.Pattern:
    """The verbs the base grammar itself reads after "can't" (ACT_VERB)."""
    found = re.search(r"^ACT_VERB(?:\.\d+)?: /(.*)/i$", base_effect_grammar(), re.M)
    return re.compile(found.group(1), re.I)


def own_action_names(names: Iterable[str]) -> tuple[str, ...]:
    """The action names a game adds to what a card can (not) do: those that
    do not start with a verb ACT_VERB reads ("attack a Card" stays
    "attack" with its object, as it always read)."""
    return tuple(n for n in dict.fromkeys(names) if not _act_verb().match(n))


def their_for_your(words: list[str]) -> list[str]:
    """A verb's words said of another player: the verb's own "your" is the
    subject's, "their" ("Your opponent switches their active creature")."""
    return ["their" if w.lower() == "your" else w for w in words]


def effect_grammar(vocab: Vocabulary) -> str:
    return base_effect_grammar() + "\n" + generated_rules(vocab)


def clashing_words(message: str, grammar: str) -> list[str]:
    """The declared words a lark grammar conflict is about: the vocabulary
    terminals (W0, W1 ...) its message names, as the rules file spells them
    (in the order the message names them)."""
    defined = {name: text for name, text in re.findall(
        r'^(W\d+): "((?:[^"\\]|\\.)*)"i?$', grammar, re.M)}
    defined.update({name: _unescape(body) for name, body in re.findall(
        r"^(W\d+): /(?:\(\?i:)?(.*?)\)?(?:\(\?!\[\\w-\]\))?/$", grammar, re.M)})
    out: list[str] = []
    # "<zone_name : W0>": a rule of the grammar that is one declared word
    for name in re.findall(r"<\w+ : (W\d+)>", message):
        word = defined.get(name)
        if word and word not in out:
            out.append(word)
    return out


def _unescape(pattern: str) -> str:
    return re.sub(r"\\(.)", r"\1", pattern)


def plural(noun: str) -> str:
    """The regular English plural of a card kind: Ally -> Allies, Box -> Boxes."""
    last = noun.split()[-1] if noun.split() else noun
    lower = last.lower()
    if lower.endswith(("s", "x", "z", "ch", "sh")):
        return noun + "es"
    if lower.endswith("y") and len(lower) > 1 and lower[-2] not in "aeiou":
        return noun[:-1] + "ies"
    return noun + "s"
