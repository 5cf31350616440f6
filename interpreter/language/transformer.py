"""From lark parse trees of card text to the AST (``interpreter.language.ast``).

The grammar (``grammar/effect.lark``) names every alternative with an alias;
the rule an alternative belongs to decides the AST class (a ``draw`` comes
from the ``action`` rule, so it becomes an :class:`~interpreter.language.ast.Action`
of form ``draw``). That table is :data:`_CLASS_OF_RULE`; the few constructs
that need reshaping have their own methods below.

Clauses before the last colon of an ability are classified here, as DESIGN.md
asks: a condition item stays a condition, a step there is a cost.
"""

from __future__ import annotations

import functools
import re

import attrs
from lark import Token, Transformer, Tree

from interpreter.language import ast
from interpreter.language.pronouns import they_and_them, you_steps
from interpreter.language.sentence_forms import (condition_first, join_spans, joined_object,
                                                 once_during, second_condition)
from interpreter.language.vocabulary import (BASE_PARTICIPLES, event_verb_forms, plural,
                                             present_forms, status_verbs, third_person)
from interpreter.source import Span

_CLASS_OF_RULE = {
    "selector": ast.Selector, "selector_target": ast.Selector,
    "object_selector": ast.Selector, "by_selector": ast.Selector,
    "quantity": ast.Quantity, "comparison_quantity": ast.Quantity,
    "adjective": ast.Adjective, "face_adj": ast.Adjective, "role_adjective": ast.Adjective,
    "noun": ast.Noun, "qualifier": ast.Qualifier,
    "player_subject": ast.Player, "possessive": ast.Possessive,
    "owner_possessive": ast.Possessive,
    "zone_ref": ast.ZoneRef, "period_ref": ast.PeriodRef,
    "duration": ast.Duration, "destination": ast.Destination,
    "comparison": ast.Comparison, "stat_change": ast.StatChange,
    "measure": ast.Measure, "measure_term": ast.Measure,
    "capability": ast.Capability, "times": ast.Times, "state": ast.State,
    "simple_state": ast.State,
    "event": ast.Event, "event_action": ast.EventAction,
    "player_event": ast.EventAction, "event_participle": ast.EventAction,
    "past_event": ast.EventAction,
    "condition_item": ast.Condition, "condition": ast.Condition,
    "statement": ast.Statement, "step_suffix": ast.Suffix, "any_order": ast.Suffix, "step": ast.Step,
    "modifier": ast.Modifier, "item": ast.Modifier, "stat_comparison": ast.Comparison,
    "counter_comparison": ast.Comparison,
    "possessive_control": ast.Player,
}

_ACTION_RULES = {
    "draw", "discard", "move", "put", "return_", "reveal", "look", "shuffle",
    "search", "add", "gain", "lose", "pay", "set_counter", "deal", "destroy",
    "ready", "rest", "exhaust", "nullify", "flip", "attach", "choose", "play", "remove", "prevent", "choose_value",
    "win", "lose_game", "repeat", "end_period", "take_actions", "alternate",
    "take_next_turn", "compare", "choose_first_player", "use", "respond", "resolve_waiting",
    "any_time_window", "create", "set_counter_to", "set_counter_stat", "choose_player",
    "remove_up_to", "gain_control", "flip_coin",
}
_ORDINALS = ("first", "second", "third", "fourth")
_NUMBER_WORDS = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")

# The participles the grammar itself reads after "is" ("When this is
# played"), by their forms (the game's own are read as its words).
# Rules that only wrap an alternative of their own (no alias at this level).
_TRANSPARENT = {"adjective", "quantity", "possessive_control"}

# Every rule name that __default__ reads by more than its class (the tests
# of _ToAst._reshaped, in its order).
_RESHAPED_NAMES = {
    "x_amount", "owned", "kind", "kind_cards", "defined_adj", "deal_each_their", "bare_zone",
    "of_yours", "damage_counter", "its_amount", "stat_at_least", "stat_at_most",
    "stat_exactly", "amount", "some_amount", "one_amount", "face_up", "face_down",
    "acts", "acts_from_zone", "any_players_zone"}

# Rules whose value is simply their only child (or a word).
_PASSTHROUGH = {"card_counter", "counter_on_cards", "target", "from_zone", "placement",
                "capability_object", "keyword_ref", "action", "period_ref", "selection", "condition_line", "when_line",
                "player_line"}

# Vocabulary rules: their value is the declared word itself.
_WORD_RULES = {"timing_label", "zone_name", "counter_name", "card_counter_word", "kind_noun",
               "stat_name", "list_stat_name", "stat_value", "status_word", "relation_word", "game_participle",
               "event_only_participle",
               "event_verb", "period_name", "action_name", "defined_adjective", "value_kind",
               "holder_name", "verb_word", "game_present", "status_participle"}
_PERIOD_PHRASES = {"period_this": "this", "period_your": "your", "period_each": "each",
                   "period_rivals": "rivals", "period_next": "next",
                   "period_rivals_next": "rivals_next",
                   "period_your_next": "your_next",
                   "period_controllers_next": "controllers_next"}
# rules whose one word may be the game's name for a language event
_GAME_EVENT_WORDS = frozenset(("event_participle", "past_event", "game_event_verb"))
_RESHAPED = _RESHAPED_NAMES | _WORD_RULES | set(_PERIOD_PHRASES) | _TRANSPARENT | _PASSTHROUGH


class _ToAst(Transformer):
    def __init__(self, origins: dict[str, str], rules, path: str, line: int,
                 column: int, verbs, keywords, words: dict[str, str]):
        super().__init__(visit_tokens=False)
        self._makers: dict[str, object] = {}
        self.origins = origins
        self.rules = rules
        self.path, self.line, self.column = path, line, column
        self.verbs, self.keywords = verbs, keywords
        self.words = words
        # participle -> its verb for "you" and for another player (player_did)
        self._conjugated: dict[str, tuple[str, str]] | None = None
        self._status_verbs: dict[str, str] | None = None
        self._plurals: frozenset[str] | None = None     # the kinds' and nouns' plurals

    def at(self, path: str, line: int, column: int) -> None:
        """Where the next text parsed starts (for the spans of its nodes)."""
        self.path, self.line, self.column = path, line, column

    # ---- helpers

    def span(self, children) -> Span | None:
        """From the first to the last token under a node. The parser keeps no
        positions of its own (that costs a third of the parse time); words the
        grammar uses only as keywords ("Draw" in "Draw a card") are not in the
        tree, so a span starts at the first word that carries a value."""
        first = next((s for s in map(self._span_of, children) if s is not None), None)
        if first is None:
            return None
        return join_spans(first, next(s for s in map(self._span_of, reversed(children))
                                      if s is not None))

    def _span_of(self, child) -> Span | None:
        if isinstance(child, Token):
            return self.token_span(child) if child.line is not None else None
        if isinstance(child, (ast.Node, ast.CardName)):
            return child.span
        if isinstance(child, tuple):
            return self.span(child)
        return None

    def value(self, child):
        if isinstance(child, Token):
            if child.type == "NUMBER":
                return int(child.value)
            if child.type in ("ORDINAL_PLAYER", "ORDINAL_PLAYERS"):
                return _ORDINALS.index(child.value.split()[1].lower())
            if child.type == "NUMBER_WORD":
                return _NUMBER_WORDS.index(child.value.lower()) + 2
            if child.type == "SIGNED_NUMBER":
                return int(child.value.replace("\u2212", "-"))
            if child.type == "CARD_NAME":
                return ast.CardName(child.value[1:-1], self.token_span(child))
            if child.type == "ACT_VERB":
                return " ".join(child.value.lower().split())
            if child.type == "X":
                return "X"
            if child.type in ("NUMBER_SLOT", "CARD_SLOT", "PLAYER_SLOT", "ZONE_SLOT"):
                return child.value
            if child.type == "SIGNED_X":
                return "-X" if child.value[0] != "+" else "+X"
            if child.type == "PLUS_SLOT":
                return "{n}"          # "+{n}": the keyword's number, as it is
            return self.words.get(child.value.lower(), child.value)
        return child

    def token_span(self, tok: Token) -> Span:
        if tok.end_line is None:
            # a token the lexer's recovery made (a known word read out of a
            # longer one): it ends on its line, after its text
            tok.end_line, tok.end_column = tok.line, tok.column + len(tok.value)
        return Span(self.path, self.line + tok.line - 1,
                    self.column + tok.column - 1 if tok.line == 1 else tok.column,
                    self.line + tok.end_line - 1,
                    self.column + tok.end_column - 1 if tok.end_line == 1
                    else tok.end_column)

    # ---- the default: one AST node per alias

    def __default__(self, data, children, meta):
        name = str(data)
        if name in _GAME_EVENT_WORDS and self.rules is not None and self.rules.event_names:
            core = self._core_event(name, children)
            if core is not None:
                return core
        make = self._makers.get(name)
        if make is None:
            make = self._makers[name] = self._maker(name)
        if make:
            return make(name, children)
        return self._reshaped(name, children, meta)

    def _core_event(self, name, children):
        """ "When this is knocked out" where the game declares "event "is
        knocked out": another name for "is destroyed"": the language's event
        ("When this is destroyed"), as if written so; None for other words."""
        word = self.value(children[0]) if len(children) == 1 else None
        core = self.rules.event_names.get(word.lower()) if isinstance(word, str) else None
        if core is None:
            return None
        span = self.span(children)
        event = ast.EventAction(core, (), span)
        # "When this dies": a verb of the game, read as "is destroyed"
        return ast.EventAction("event_action", (event,), span) \
            if name == "game_event_verb" else event

    def _maker(self, name: str):
        """How a rule of this name makes its value, decided once per name
        for the rules whose name alone decides it (what :meth:`_reshaped`
        does for them, tested in its order), else False."""
        if name.startswith("__"):
            return _repetition
        if name in _WORD_RULES:
            return self._word
        if name.startswith(("verb_", "keyword_")) or name in _RESHAPED:
            return {"amount": self._first, "some_amount": self._first,
                    "one_amount": _one}.get(name) or \
                (self._passthrough if name in _PASSTHROUGH else False)
        if name == "player_did":
            return self._player_did
        if name == "attached_to_this":
            return self._attached_to_this
        if name == "status_verb":
            return self._status_verb
        origin = self.origins.get(name, name)
        if origin in _ACTION_RULES or name in _ACTION_RULES:
            return self._action
        return functools.partial(self._node, _CLASS_OF_RULE.get(origin, ast.Node))

    def _word(self, name, children):
        args = tuple(self.value(c) for c in children)
        return args[0] if args else None

    def _player_did(self, name, children):
        """ "you cast a Sorcery", "your Rival casts a Sorcery": the event's
        participle, the card, and the event's verb (the words the canonical
        text conjugates for the player)."""
        participle, selector = (self.value(c) for c in children)
        if self._conjugated is None:
            # the forms the grammar reads back, else the participle
            vocab = self.rules.vocabulary()
            forms = present_forms(vocab)
            self._conjugated = {}
            for verb_of, base in vocab.presents:
                self._conjugated[verb_of] = tuple(
                    form if form in forms else verb_of for form in (base, third_person(base)))
        plain, third = self._conjugated.get(participle, (participle, participle))
        return ast.EventAction(name, (participle, selector, plain, third), self.span(children))

    def _status_verb(self, name, children):
        """ "ready" in "It doesn't ready": the participle "can't be readied"
        says (the status it would be given)."""
        if self._status_verbs is None:
            self._status_verbs = status_verbs(self.rules.vocabulary())
        return self._status_verbs[children[0].value.lower()]

    def _attached_to_this(self, name, children):
        """ "attached to this" (one phrase, "this" alone being the card):
        the qualifier "attached to" with the card "this" (and its noun)."""
        noun = tuple(self.value(c) for c in children)
        span = self.span(children)
        return ast.Qualifier("attached_to", (ast.Selector("this", noun, span),), span)

    def _first(self, name, children):
        return tuple(self.value(c) for c in children)[0]

    def _passthrough(self, name, children):
        args = tuple(self.value(c) for c in children)
        return args[0] if len(args) == 1 else args

    def _action(self, name, children):
        return ast.Action(name.rstrip("_"), tuple(self.value(c) for c in children),
                          self.span(children))

    def _node(self, cls, name, children):
        return cls(name, tuple(self.value(c) for c in children), self.span(children))

    def _reshaped(self, name, children, meta):
        if name.startswith("__"):
            # lark's helper rules for repetition ("item*"): the parser
            # flattens their children into the rule that uses them
            return Tree(name, children)
        args = tuple(self.value(c) for c in children)
        if name in _WORD_RULES:
            return args[0] if args else None
        if name in _PERIOD_PHRASES:
            word = children[0].value.lower()
            period = self.words.get(word.split(" ", 1)[1] if word.startswith(
                ("this ", "the ", "your ")) else word, None)
            if period is None:  # "your rival's turn", "your next turn"
                for prefix in ("each player's ", "each ", "your rival's next ",
                               "your opponent's next ",
                               "your rival's ", "your opponent's ", "your next ",
                               "the next ", "its controller's next ",
                               "their controller's next "):
                    if word.startswith(prefix):
                        period = self.words.get(word[len(prefix):], word[len(prefix):])
                        break
            relation = _PERIOD_PHRASES[name]
            if relation == "this" and word.startswith("the "):
                relation = "the"
            return ast.PeriodRef(relation, (period,), self.span(children))
        if name in _TRANSPARENT and len(args) == 1 and isinstance(args[0], ast.Node):
            return args[0]  # the alternative inside has its own alias
        if name == "x_amount":
            return "X"

        if name == "owned" and len(args) == 3 and args[0].form == "the" and \
                args[1].form == "other" and args[2].form == "any_cards":
            # "the other cards": the rest of the cards last looked at (one
            # reading, however the words are spaced or annotated)
            return ast.Selector("the_rest", (), self.span(children))
        if name == "kind_cards":       # "2 Creature cards": "2 Creatures"
            name, args = "kind", (args[0] if args[0].lower().endswith("s")
                                  else plural(args[0]),)
        if name == "kind" and self.rules is not None and isinstance(args[0], str):
            # "each Champion": a noun whose declaration ends with qualifiers
            decl = self.rules.noun(args[0]) if self.rules.nouns else None
            qualifiers = (decl.qualifiers,) if decl is not None and decl.qualifiers else ()
            many = self._written_plural(args[0])
            if qualifiers or many:
                return ast.Noun(name, (args[0], *qualifiers), self.span(children), plural=many)
        if name == "defined_adj":
            # "an enemy Minion": the adjective carries the qualifiers it means
            decl = self.rules.adjectives.get(args[0]) if self.rules is not None else None
            qualifiers = decl.qualifiers if decl is not None else None
            return ast.Adjective(name, (args[0], qualifiers or ()), self.span(children))
        if name == "deal_each_their":   # "... equal to their Lore": each card's own
            span = self.span(children)
            return ast.Action("deal_each_measured", (
                args[0], ast.Measure("its_stat", (args[1],), span)), span)
        if name in ("bare_zone", "any_players_zone"):   # "into play", "into a graveyard"
            whose = ast.Possessive("bare" if name == "bare_zone" else "a", (), self.span(children))
            return ast.ZoneRef("zone_ref", (whose, args[0]), whose.span)
        if name == "of_yours":          # "chosen character of yours": you control it
            return ast.Qualifier("controlled_by", (ast.Player("you", (), None),),
                                 self.span(children))
        if name == "damage_counter":    # the damage on a card is a counter of its own
            return "damage"
        if name == "its_amount":    # "Mill its cost": a number read from the card
            return ast.Measure("its_stat", args, self.span(children))
        if name in ("stat_at_least", "stat_at_most", "stat_exactly"):
            return self._stat_comparison(name, children, meta)
        if name in _PASSTHROUGH:
            return args[0] if len(args) == 1 else args
        if name in ("amount", "some_amount"):
            return args[0]
        if name == "one_amount":
            return 1
        if name in ("face_up", "face_down"):
            return name.replace("_", " ")
        if name.startswith("verb_"):
            pattern = self.verbs[int(name[5:])]
            return ast.VerbUse(pattern.text, args, self.span(children))
        if name.startswith("keyword_") and name[8:].isdigit():
            pattern = self.keywords[int(name[8:])]
            return ast.KeywordUse(pattern.text, args, self.span(children))
        if name == "acts" and isinstance(args[0], str) and args[0].startswith("be ") \
                and args[0][3:] in BASE_PARTICIPLES and len(args) == 1:
            # "would be played" lexes as the verb "be played"; it means the event
            inner = ast.EventAction(args[0][3:].replace(" ", "_"), (), self.span(children))
            return ast.EventAction("event_action", (inner,), self.span(children))
        if name == "acts_from_zone" and isinstance(args[0], str) and \
                args[0].startswith("be ") and args[0][3:] in BASE_PARTICIPLES:
            # "would be discarded from your Combat Area": the event, from there
            inner = ast.EventAction(args[0][3:].replace(" ", "_"), (), self.span(children))
            return ast.EventAction("event_from_zone", (inner, args[1]), self.span(children))
        origin = self.origins.get(name, name)
        if origin in _ACTION_RULES or name in _ACTION_RULES:
            return ast.Action(name.rstrip("_"), args, self.span(children))
        cls = _CLASS_OF_RULE.get(origin)
        if cls is None:
            return ast.Node(name, args, self.span(children))
        return cls(name, args, self.span(children))

    # ---- constructs that need reshaping

    def _stat_comparison(self, form, children, meta):
        # "50 or less AP" and "AP 50 or less" mean the same: (amount, stat).
        args = [self.value(c) for c in children]
        first = args[0]
        if isinstance(first, str) and not (first == "X" or first.startswith("{")):
            args.reverse()
        return ast.Comparison(form, tuple(args), self.span(children))

    def some_of_yours(self, children, player="you"):
        """ "one of your benched creatures" is "a benched creature you control"."""
        quantity, *rest = children
        span = self.span(children)
        control = ast.Qualifier("controlled_by", (ast.Player(player, (), span),), span)
        nouns = [i for i, c in enumerate(rest) if isinstance(c, ast.Noun)]
        at = nouns[0] + 1 if nouns else len(rest)
        if nouns and quantity.form in ("one", "each", "another"):
            rest[nouns[0]] = self._singular(rest[nouns[0]])     # "one of your creatures"
        return ast.Selector("some", (quantity, *rest[:at], control, *rest[at:]), span)

    def _singular(self, noun: ast.Noun) -> ast.Noun:
        """A kind or a declared noun named in the plural, as its singular."""
        if noun.form != "kind" or not noun.args or not isinstance(noun.args[0], str) or \
                self.rules is None:
            return noun
        word = noun.args[0].lower()
        for decl in (*self.rules.kinds.values(), *self.rules.nouns.values()):
            if decl.plural.lower() == word:
                return attrs.evolve(noun, args=(decl.name,) + tuple(noun.args[1:]),
                                    plural=False)
        return noun

    def _written_plural(self, word: str) -> bool:
        """A kind's or noun's plural and no kind's or noun's name ("Sheep")."""
        if self._plurals is None:
            decls = (*self.rules.kinds.values(), *self.rules.nouns.values())
            names = {d.name.lower() for d in decls}
            self._plurals = frozenset(d.plural.lower() for d in decls) - names
        return word.lower() in self._plurals

    def some_of_rivals(self, children):
        return self.some_of_yours(children, "rival")

    def some_of_theirs(self, children):
        return self.some_of_yours(children, "that_player")

    def stat_pair(self, children):
        """ "+1/+1": the two amounts (the stats are the rules file's pair,
        read by the compiler)."""
        parts = children[0].value.replace("\u2212", "-").split("/")
        return ast.StatChange("stat_pair", tuple(p if p[1:] == "X" else int(p) for p in parts),
                              self.span(children))

    def every_of_yours(self, children, player="you"):
        """ "for each of your benched creatures": each benched creature you control."""
        span = self.span(children)
        chosen = self.some_of_yours([ast.Quantity("each", (), span), *children], player)
        return ast.Selector("every", chosen.args[1:], span)

    def every_of_rivals(self, children):
        return self.every_of_yours(children, "rival")

    def for_each_heads(self, children):
        """ "... for each heads": a "for each" whose count is the heads of
        the coins the text flipped."""
        span = self.span(children)
        return ast.Suffix("for_each_suffix", (ast.Node("heads", (), span),), span)

    def for_each_heads_item(self, children):
        span = self.span(children)
        return ast.Condition("for_each", (ast.Node("heads", (), span),), span)

    def event_amount_many(self, children):
        """ "that many": the same number as "that much", its wording kept."""
        return ast.Node("event_amount", ("many",), self.span(children))

    def until_end_bare(self, children):
        """ "until end of turn" is "until the end of the turn"."""
        span = self.span(children)
        return ast.Duration("until_end", (ast.PeriodRef("the", (children[0],), span),), span)

    def may(self, children, meta=None):
        return "may"

    def you_may(self, children, meta=None):
        return "you may"

    def act(self, children):
        subject = optional = None
        rest = list(children)
        if rest and isinstance(rest[0], ast.Player):
            subject = rest.pop(0)
        if rest and rest[0] in ("may", "you may"):
            optional = True
            if rest.pop(0) == "you may" and subject is None:
                subject = ast.Player("you", (), rest[0].span)
        action, suffixes = rest[0], tuple(rest[1:])
        # a written "you" stays until the sentence is read whole (pronouns.you_steps)
        return ast.Step("act", (subject, bool(optional), action, suffixes), action.span)

    def that_player(self, children):
        # written "they": its span is the word's; "that player" has none
        return ast.Player("that_player", (), self.span(children))

    def past_this_way(self, children):
        """ "Creature destroyed this way" is "the destroyed Creature"."""
        noun, past = children
        return ast.Selector("the_past", (past, noun), self.span(children))

    def they_change_step(self, children):
        """ "Create 2 tokens. They gain Haste ...": "they" before a change to
        cards is those cards (the ones the step before acted on, "them");
        another player named there keeps its form for check to refuse."""
        subject, change, *suffixes = children
        span = self.span(children)
        if subject.form == "that_player" and subject.span is not None:
            return ast.Step("state_change", (ast.Selector("them", (), subject.span), change,
                                             tuple(suffixes)), span)
        # no span of its own when the player's words have none ("your Rival"):
        # a problem with it is shown at the whole text, not at "gets"
        return ast.Step("player_change", (subject, change, tuple(suffixes)),
                        span if subject.span is not None else None)

    def double_stat(self, children):
        stat, selector, *suffixes = children
        if isinstance(stat, ast.Selector):      # "Double target Creature's power"
            stat, selector = selector, stat
        return ast.Step("double_stat", (selector, stat, tuple(suffixes)), self.span(children))

    def card_stat(self, children):      # "target Creature's power": "the power of ..."
        return ast.Measure("stat_of", (children[1], children[0]), self.span(children))

    def double_its_stat(self, children):
        stat, *suffixes = children
        span = self.span(children)
        return ast.Step("double_stat", (ast.Selector("it", (), span), stat, tuple(suffixes)),
                        span)

    def state_change(self, children):
        selector, statement, *suffixes = children
        return ast.Step("state_change", (selector, statement, tuple(suffixes)),
                        join_spans(selector.span, statement.span))

    def plural_state_change(self, children):
        """ "Creatures you control get +1 Attack": every such card."""
        index = next(i for i, c in enumerate(children) if isinstance(c, ast.Statement))
        words = children[:index]
        selector = ast.Selector("every", tuple(words), self.span(words))
        return self.state_change([selector, *children[index:]])

    def has_more_cards(self, children, form="has_more_cards"):
        """ "If you control more Creatures than your Rival": (the player,
        more or fewer, every such card, the other player)."""
        subject, more, *words, other = children
        selector = ast.Selector("every", tuple(words), self.span(words))
        return ast.Condition(form, (subject, more, selector, other), self.span(children))

    def controls_more(self, children):
        return self.has_more_cards(children, "controls_more")

    def each_with_no_cards(self, children):
        """ "Each player with no cards in hand": the players with none of
        those cards (ast.PLAYER_SETS)."""
        *words, zone = children
        span = self.span(children)
        selector = ast.Selector("some", (ast.Quantity("no_count", (), span), *words,
                                         ast.Qualifier("located_in", (zone,), span)), span)
        return ast.Player("each_with_cards", (selector,), span)

    def next_effect_prevented(self, children):
        """ "Prevent the effect of the next Disrupt your Rival controls this
        turn": (the cards it may be, as a selector of every such card, the
        suffixes)."""
        index = next((i for i, c in enumerate(children) if isinstance(c, ast.Suffix)),
                     len(children))
        words = children[:index]
        selector = ast.Selector("every", tuple(words), self.span(words))
        return ast.Step("next_effect_prevented", (selector, tuple(children[index:])),
                        self.span(children))

    def damage_reduced(self, children):
        """ "Damage that would be dealt to this is reduced by 1" reads as a
        statement about the card: it takes that much less damage."""
        selector, amount = children
        span = self.span(children)
        statement = ast.Statement("reduces_damage", (self.value(amount),), span)
        return ast.Step("state_change", (selector, statement, ()), span)

    def all_damage_prevented(self, children):
        """ "Prevent all damage that would be dealt to X [until ...]": X is
        dealt no damage (a reduction by all of it)."""
        selector, *suffixes = children
        span = self.span(children)
        statement = ast.Statement("reduces_damage", ("all",), span)
        return ast.Step("state_change", (selector, statement, tuple(suffixes)), span)

    def for_free(self, children):
        """ "for free" and "without paying its STAT" (the cost) say the same."""
        return ast.Suffix("for_free", (), self.span(children))

    def discard_cards(self, children):
        """ "unless they discard 2 cards": the step "discard 2 cards"."""
        amount = self.value(children[0])
        span = self.span(children)
        noun = ast.Noun("any_card" if amount == 1 else "any_cards", (), span)
        return self._discard(amount, noun, span)

    def discard_kind_cards(self, children):
        """ "unless they discard a Skill": the step "discard a Skill"."""
        span = self.span(children)
        noun = ast.Noun("kind", (self.value(children[1]),), span)
        return self._discard(self.value(children[0]), noun, span)

    @staticmethod
    def _discard(amount, noun: ast.Noun, span) -> ast.Action:
        quantity = ast.Quantity("one", (), span) if amount == 1 else \
            ast.Quantity("count", (amount,), span)
        return ast.Action("discard", (ast.Selector("some", (quantity, noun), span),), span)

    def give(self, children):
        """ "Give a Minion +2 Attack" reads as "A Minion gets +2 Attack"."""
        selector, change, *suffixes = children
        statement = ast.Statement("gets", (change,), change.span)
        return ast.Step("state_change", (selector, statement, tuple(suffixes)),
                        join_spans(selector.span, change.span))

    def verb_step(self, children):
        optional = bool(children) and children[0] in ("may", "you may")
        rest = children[1:] if optional else children
        use, suffixes = rest[0], tuple(rest[1:])
        if optional and children[0] == "you may":
            return ast.Step("player_verb_step", (ast.Player("you", (), use.span), True, use,
                                                 suffixes), use.span)
        return ast.Step("verb_step", (bool(optional), use, suffixes), use.span)

    def player_verb_step(self, children):
        subject, *rest = children
        optional = bool(rest) and rest[0] in ("may", "you may")
        rest = rest[1:] if optional else rest
        use, suffixes = rest[0], tuple(rest[1:])
        # a written "you" stays until the sentence is read whole (pronouns.you_steps)
        return ast.Step("player_verb_step", (subject, optional, use, suffixes), use.span)

    def card_verb_step(self, children):
        """ "Your Runner advances 1 Room": the verb done by that card."""
        subject, use, *suffixes = children
        return ast.Step("card_verb_step", (subject, use, tuple(suffixes)),
                        join_spans(subject.span, use.span))

    def sep_and(self, children):
        return "and"

    def sep_and_word(self, children):
        return "and-word"

    def sep_then(self, children):
        return "then"

    def sentence(self, children):
        opens_with_then = isinstance(children[0], Token) and children[0].type == "THEN"
        items = children[1:] if opens_with_then else children
        links, join = [], "first"
        word_and = False
        for item in items:
            if item in ("and", "then", "and-word"):
                join, word_and = ("and" if item == "and-word" else item), item == "and-word"
                continue
            if word_and and links and isinstance(links[-1].args[0], ast.Condition) and \
                    links[-1].args[0].form == "if_" and isinstance(item, ast.Step):
                # "If it is blocked and it has Trample, ...": a second
                # condition, never a step ("it gains Trample")
                links.append(ast.Link("and", (second_condition(item),), item.span))
                word_and = False
                continue
            word_and = False
            subject = item.args[0] if isinstance(item, ast.Step) and item.form == "act" \
                else None
            if isinstance(subject, ast.Player) and subject.form == "a_player_with":
                # "A player with 20 or more lore wins": "If a player has 20 or
                # more lore, they win" (a state rule in a rules file's rule)
                comparison, counter = subject.args
                test = ast.Condition("has_counter", (
                    ast.Player("any_player", (), subject.span), comparison, counter),
                    subject.span)
                links.append(ast.Link(join, (ast.Condition("if_", (test,), subject.span),),
                                      subject.span))
                join = "and"
                item = attrs.evolve(item, args=(ast.Player("that_player", (), subject.span),)
                                    + item.args[1:])
            # "A and B each deal damage ... to the other": B's half joins A
            # whatever separates them (only a card it joins makes it a step)
            if links and isinstance(item, ast.Modifier) and (
                    item.form == "each_other_half" or (join == "and" and
                                                        item.form == "more_object")):
                joined = joined_object(links[-1].args[0], item)
                if joined is not None:
                    links[-1] = ast.Link(links[-1].form, (joined,), joined.span)
                    continue
            if isinstance(item, ast.Modifier) and item.form in (
                    "only_those_with", "only_those_without") and links and \
                    isinstance(links[-1].args[0], ast.Step) and \
                    links[-1].args[0].form == "each_other":
                # "..., only those with First Strike": which of the cards deal
                step = links[-1].args[0]
                joined = attrs.evolve(step, args=step.args + (item,),
                                      span=join_spans(step.span, item.span))
                links[-1] = ast.Link(links[-1].form, (joined,), joined.span)
                continue
            links.append(ast.Link(join, (item,), getattr(item, "span", None)))
            join = "and"
        links = you_steps(once_during(links))
        spans = [l.span for l in links if l.span]
        return ast.Sentence("then" if opens_with_then else "plain", tuple(links),
                            join_spans(spans[0], spans[-1]) if spans else None)

    def mode(self, children):
        return self.sentence(children)

    def modal(self, children):
        """A modal sentence is one step, "choose one", whose modes are
        sentences: everything that walks sentences and their links sees it
        as any other step."""
        modes = tuple(c for c in children if isinstance(c, ast.Sentence))
        span = join_spans(modes[0].span, modes[-1].span)
        step = ast.Step("choose_mode", modes, span)
        return ast.Sentence("plain", (ast.Link("first", (step,), span),), span)

    def part(self, children):
        return tuple(c for c in children if isinstance(c, ast.Sentence))

    def body(self, children):
        return tuple(children)

    def labelled(self, children):
        label, parts = children
        return self._ability(label, parts)

    def unlabelled(self, children):
        return self._ability(None, children[0])

    def keyword_line(self, children):
        use = children[0]
        return ast.Ability("keyword", (use,), use.span)

    def _ability(self, label, parts):
        # (in the effect, not the costs: "..., pay 1 Life while ...:" stays)
        resolution = tuple(condition_first(s) for s in parts[-1])
        conditions, costs = [], []
        for before in parts[:-1]:
            for sentence in before:
                for link in sentence.args:
                    item = link.args[0]
                    if isinstance(item, ast.Condition):
                        conditions.append(item)
                    else:
                        costs.append(item)
        spans = [s.span for p in parts for s in p if s.span]
        return ast.Ability("effect", (label, tuple(conditions), tuple(costs),
                                      they_and_them(resolution)),
                           join_spans(spans[0], spans[-1]) if spans else None)

    def start(self, children):
        return children[0]


def _repetition(name, children):
    """lark's helper rules for repetition ("item*"): the parser flattens
    their children into the rule that uses them."""
    return Tree(name, children)


def _one(name, children):
    return 1


def grammar_origins(grammar: str) -> dict[str, str]:
    """Each alias (and rule name) of a grammar -> the rule it belongs to,
    read from the grammar text (one rule per block, alternatives below it)."""
    table: dict[str, str] = {}
    rule = None
    for line in grammar.splitlines():
        head = re.match(r"^\??([a-z_][a-z_0-9]*)\s*:", line)
        if head:
            rule = head.group(1)
            table.setdefault(rule, rule)
        if rule:
            for alias in re.findall(r"->\s*([a-z_][a-z_0-9]*)", line):
                table.setdefault(alias, rule)
    return table


def make_transformer(grammar: str, rules) -> "_ToAst":
    """The transformer the game's LALR parser calls while it parses (lark's
    inline ``transformer=``), so parsing builds the AST with no parse tree."""
    origins = grammar_origins(grammar)
    transformer = _ToAst(origins, rules, "<text>", 1, 1,
                         [v.pattern for v in rules.verbs],
                         [k.pattern for k in rules.keywords], _word_table(rules))
    return transformer


def _word_table(rules) -> dict[str, str]:
    """lower-case word -> the spelling the rules file declares."""
    if rules._words is not None:
        return rules._words
    vocab = rules.vocabulary()
    table: dict[str, str] = {}
    for group in (vocab.zones, vocab.counters, vocab.kinds, vocab.kind_plurals,
                  vocab.stats, vocab.list_stats, vocab.statuses, vocab.participles, vocab.event_verbs,
                  vocab.periods, vocab.holders, vocab.adjectives):
        for word in group:
            table.setdefault(word.lower(), word)
    for counter in vocab.counters:
        table.setdefault(plural(counter).lower(), counter)     # "Mana Gems"
    for zone in vocab.zones:
        table.setdefault(plural(zone).lower(), zone)           # "their owners' hands"
    for value in vocab.stat_values:
        table.setdefault(value.lower(), value)
        table.setdefault(f"[{value}]".lower(), value)
    for label in vocab.timing_labels:
        table[f"{label}:".lower()] = label
    for form, word in (*present_forms(vocab).items(), *event_verb_forms(vocab).items()):
        table.setdefault(form.lower(), word)    # "casts": the event "is cast"; "die": "dies"
    rules._words = table
    return table
