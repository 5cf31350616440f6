"""Reading a rules file: the procedures of play.

The declarations of how a game is played: the setup, the turn (phases and
steps, who takes them), the resolution of effects, player damage, defense,
the actions players take, card effects, identical cards, what simulated
players prefer and the race. Procedures are sentences of the card language,
kept as :class:`~interpreter.language.game_rules.Sentence` and parsed once
the game's vocabulary is known.
"""

from __future__ import annotations

import re

from interpreter.errors import did_you_mean
from interpreter.language.game_rules import (
    ActionDecl, DefenseDecl, PhaseDecl, RaceDecl, ResolutionDecl, RuleDecl, Sentence, StepDecl,
    _procedure_sentences)
from interpreter.language.rules_reading import RulesReaderBase, _sacrificed_stat, _unquote
from interpreter.language.syntax import OutlineLine


class ProcedureDeclarations(RulesReaderBase):
    """Setup, turn, resolution, player damage, defense, actions, card
    effects, identical cards, simulation preferences, race."""

    def decl_setup(self, line: OutlineLine, n: int) -> None:
        self.rules.setup = self.rules.setup + self.sentences(line.children)

    def decl_turn(self, line: OutlineLine, n: int) -> None:
        phases = list(self.rules.phases)
        for child in line.children:
            if child.key.lower() == "called" and child.value:
                self.rules.turn_name = _unquote(child.value.strip().rstrip("."))
                continue
            if child.key.lower() == "turn player":
                value = (child.value or "").strip().rstrip(".").lower()
                if value not in ("the same every turn", "the next player"):
                    self.problem(child.value_span or child.span, "E521",
                                 f'unknown setting "{value}" for turn player',
                                 ("the same every turn", "the next player"))
                self.rules.same_turn_player = value == "the same every turn"
                continue
            if child.key.lower() == "simultaneous triggers":
                value = (child.value or "").strip().rstrip(".").lower()
                settings = ("in turn order from the first player",
                            "in turn order from the turn player")
                if value not in settings:
                    self.problem(child.value_span or child.span, "E521",
                                 f'unknown setting "{value}" for simultaneous triggers',
                                 settings, did_you_mean(value, settings))
                    continue
                self.rules.trigger_order = value.rsplit(" ", 2)[-2]
                continue
            if child.words[0].lower() != "phase" or len(child.head) != 2:
                self.problem(child.span, "E518", "a turn is made of phases",
                             ('phase "Name"',), did_you_mean(child.words[0], ["phase"]))
                continue
            skip = hold_phase = False
            body = []
            steps = []
            for_each = None
            grandchildren = list(child.children)
            loop = next((g for g in grandchildren if g.has_colon and not g.value and re.fullmatch(
                r"for each .+ in .+", g.key, re.I)), None)
            if loop is not None:
                m = re.fullmatch(r"for each (.+?) in (?:the )?(.+)", loop.key, re.I)
                for_each = (_unquote(m.group(1)), _unquote(m.group(2)))
                index = grandchildren.index(loop)
                grandchildren[index:index + 1] = loop.children
            taken_by = None
            for grandchild in grandchildren:
                if grandchild.words[0].lower() == "step" and len(grandchild.head) == 2 \
                        and not grandchild.has_colon:
                    lines = [g for g in grandchild.children
                             if g.key.lower() not in ("triggered abilities", "taken by")]
                    hold = any(g.key.lower() == "triggered abilities"
                               for g in grandchild.children)
                    step_taker = next((self.taken_by(g) for g in grandchild.children
                                       if g.key.lower() == "taken by"), None)
                    steps.append(StepDecl(grandchild.head[1].text,
                                          self.sentences(lines), grandchild.span, hold,
                                          step_taker))
                elif grandchild.key.lower() == "taken by" and grandchild.has_colon:
                    taken_by = self.taken_by(grandchild)
                elif grandchild.key.lower() == "skip":
                    value = (grandchild.value or "").strip().rstrip(".").lower()
                    if value != "on the first turn of the game":
                        self.problem(grandchild.value_span or grandchild.span, "E519",
                                     f'unknown skip condition "{value}"',
                                     ("on the first turn of the game",))
                    skip = True
                elif grandchild.key.lower() == "triggered abilities":
                    value = (grandchild.value or "").strip().rstrip(".").lower()
                    if value != "wait until the end of the phase":
                        self.problem(grandchild.value_span or grandchild.span, "E521",
                                     f'unknown setting "{value}" for triggered abilities',
                                     ("wait until the end of the phase",))
                    hold_phase = True
                else:
                    body.append(grandchild)
            phases.append(PhaseDecl(child.head[1].text, self.sentences(body), skip,
                                    child.span, tuple(steps), for_each, taken_by,
                                    hold_phase))
        self.rules.phases = tuple(phases)

    def taken_by(self, line: OutlineLine) -> Sentence | None:
        """ "taken by: each player in turn, starting with PLAYER": the player
        (card-language words, checked with the procedures)."""
        value = (line.value or "").strip().rstrip(".")
        m = re.fullmatch(r"each player in turn, starting with (.+)", value, re.I)
        if not m:
            self.problem(line.value_span or line.span, "E519",
                         f'unreadable taken by "{value}"',
                         ("each player in turn, starting with PLAYER",))
            return None
        span = self.span_of_text(line, m.group(1))
        return Sentence(m.group(1), span)

    def decl_resolution(self, line: OutlineLine, n: int) -> None:
        settings = {
            "responses": ("the other player", "none"),
            "simultaneous": ("rival first", "turn player first"),
            "an entry whose source left its zone": ("is removed", "still resolves"),
            "triggered effects": ("all together", "one at a time"),
            "each player's effects": ("in the order they happened",
                                      "ordered by their controller"),
            "effects on a player": ("in the order above", "beneficial first"),
        }
        chosen = {"responses": "none", "simultaneous": "turn player first",
                  "an entry whose source left its zone": "still resolves",
                  "triggered effects": "all together",
                  "each player's effects": "in the order they happened",
                  "effects on a player": "in the order above"}
        for child in line.children:
            key = child.key.lower()
            value = (child.value or "").strip().rstrip(".").lower()
            if key not in settings:
                self.unknown_field(child, settings)
                continue
            if value not in settings[key]:
                self.problem(child.value_span or child.span, "E521",
                             f'unknown setting "{value}" for {key}', settings[key],
                             did_you_mean(value, settings[key]))
                continue
            chosen[key] = value
        self.rules.resolution = ResolutionDecl(
            chosen["responses"] == "the other player",
            chosen["simultaneous"] == "rival first",
            chosen["an entry whose source left its zone"] == "is removed",
            line.span, chosen["triggered effects"] == "one at a time",
            chosen["each player's effects"] == "ordered by their controller",
            chosen["effects on a player"] == "beneficial first")

    def decl_rule(self, line: OutlineLine, n: int) -> None:
        name = self.name_after(line, n)
        if not name:
            return
        if not line.value:
            self.problem(line.span, "E501", f'rule "{name}" needs its ability after a colon',
                         ('rule "Name": If a player has no cards in their deck, '
                          "they lose the game.",))
            return
        if any(r.name.lower() == name.lower() for r in self.rules.game_rules):
            self.problem(line.span, "E506", f'"{name}" is declared twice')
            return
        self.rules.game_rules.append(RuleDecl(name, Sentence(line.value, line.value_span),
                                              line.span))

    def decl_defense(self, line: OutlineLine, n: int) -> None:
        forms = {
            "defenders": r"(.+?) in the defending player's (.+)",
            "into": r"(.+?)(?:, (.+))?",
            "matching": r"(.+)",
            "single": r"1 matching card(?:, or 1 card with (.+))?",
            "double": r"2 cards that both match or both do not match",
            "double only": r"against a card with (.+)",
        }
        found: dict[str, tuple] = {}
        for child in line.children:
            key = child.key.lower()
            value = (child.value or "").strip().rstrip(".")
            if key not in forms:
                self.unknown_field(child, forms)
                continue
            m = re.fullmatch(forms[key], value, re.I)
            if not m:
                self.problem(child.value_span or child.span, "E536",
                             f'unreadable defense {key} "{value}"', (forms[key],))
                continue
            found[key] = tuple(_unquote(g) if g else g for g in m.groups())
        missing = [k for k in ("defenders", "into", "matching", "single") if k not in found]
        if missing:
            self.problem(line.span, "E537", "a defense block needs " + ", ".join(missing),
                         tuple(f"{k}: ..." for k in missing))
            return
        kind = self.rules.kind(found["defenders"][0]) or next(
            (k for k in self.rules.kinds.values()
             if k.plural.lower() == found["defenders"][0].lower()), None)
        if kind is None:
            self.unknown_kind(found["defenders"][0], line.span)
            return
        self.rules.defense = DefenseDecl(
            kind.name, found["defenders"][1], found["into"][0], found["into"][1],
            found["matching"][0], found["single"][0], "double" in found,
            found.get("double only", (None,))[0], line.span)

    def decl_action(self, line: OutlineLine, n: int) -> None:
        name = self.name_after(line, n)
        if not name:
            return
        fields = {"during": None, "choose": None, "cost": None, "effect": None,
                  "counts as": None, "limit": None, "requires": None, "as": None,
                  "target": None, "target as": None, "exchange": None,
                  "announces": None, "target announces": None, "sacrifices": None,
                  "uses an action": None, "at any time": None}
        for child in line.children:
            key = child.key.lower()
            if key not in fields:
                self.unknown_field(child, fields)
                continue
            fields[key] = child
        during = tuple(v for v, _ in self.names_list(fields["during"])) if fields[
            "during"] else ()

        def sentence(field):
            line_ = fields[field]
            if line_ is None or not line_.value:
                return None
            return Sentence(line_.value, line_.value_span)

        event = fields["counts as"].value.strip() if fields["counts as"] else None
        limit = None
        limit_extra = ()
        if fields["limit"] is not None:
            value = (fields["limit"].value or "").strip().rstrip(".")
            extra = re.fullmatch(r"(.+?)(?:, plus its (.+?))?(?:, at most (\d+))?"
                                 r"(?:, shared as (.+))?", value, re.I)
            if extra and any(extra.groups()[1:]):
                value = extra.group(1)
                limit_extra = (extra.group(2) and _unquote(extra.group(2)),
                               extra.group(3) and int(extra.group(3)),
                               extra.group(4) and _unquote(extra.group(4)))
            # "once per PERIOD", "twice per PERIOD", "3 times per PERIOD"
            m = re.fullmatch(r"(once|twice|(\d+) times) per (.+?)( for each card)?", value, re.I)
            periods = [p.lower() for p in self.rules.periods]
            if not m or _unquote(m.group(3)).lower() not in periods:
                self.problem(fields["limit"].value_span or fields["limit"].span, "E522",
                             f'unreadable limit "{value}"',
                             ("once per PERIOD", "once per PERIOD for each card",
                              "N times per PERIOD"),
                             did_you_mean(_unquote(m.group(3)), self.rules.periods)
                             if m else None)
            else:
                period = next(p for p in self.rules.periods
                              if p.lower() == _unquote(m.group(3)).lower())
                limit = (period, bool(m.group(4)))
                times = {"once": 1, "twice": 2}.get(m.group(1).lower()) or int(m.group(2))
                if times != 1:
                    limit_extra = (tuple(limit_extra) or (None, None, None)) + (times,)
        def word(field):
            return _unquote(fields[field].value.strip()) if fields[field] and \
                fields[field].value else None
        exchange = None
        if fields["exchange"] is not None:
            m = re.fullmatch(r"(.+?) of this .+", (fields["exchange"].value or "").strip().rstrip("."),
                             re.I)
            stat = self.rules.stat(_unquote(m.group(1))) if m else None
            if stat is None or stat.type != "exchange":
                self.problem(fields["exchange"].value_span or fields["exchange"].span, "E525",
                             "unreadable exchange", ("STAT of this KIND, STAT an exchange stat",))
            else:
                exchange = stat.name
        self.rules.actions = self.rules.actions + (ActionDecl(
            name, during, sentence("choose"), sentence("cost"), sentence("effect"),
            event, line.span, limit, limit_extra, sentence("requires"), word("as"),
            sentence("target"), word("target as"),
            announces=word("announces"), target_announces=word("target announces"),
            sacrifices=_sacrificed_stat(word("sacrifices")),
            exchange=exchange,
            free=(word("uses an action") or "yes").lower() == "no",
            any_time=self.yes_or_no(fields["at any time"])),)

    def yes_or_no(self, line: OutlineLine | None) -> bool:
        """A yes/no field: absent is no; anything but yes or no is an error."""
        if line is None:
            return False
        value = (line.value or "").strip().rstrip(".").lower()
        if value not in ("yes", "no"):
            self.problem(line.value_span or line.span, "E521",
                         f'unknown setting "{value}" for {line.key}', ("yes", "no"),
                         did_you_mean(value, ("yes", "no")))
        return value == "yes"

    def procedure_sentences(self):
        return _procedure_sentences(self.rules)

    def decl_card_effects(self, line: OutlineLine, n: int) -> None:
        value = (line.value or "").strip().rstrip(".").lower()
        if value != "as much as you can":
            self.problem(line.value_span or line.span, "E521",
                         f'unknown setting "{value}" for card effects', ("as much as you can",))
            return
        self.rules.as_much_as_you_can = True

    def decl_identical_cards(self, line: OutlineLine, n: int) -> None:
        value = (line.value or "").strip().rstrip(".").lower()
        if value != "one choice":
            self.problem(line.value_span or line.span, "E521",
                         f'unknown setting "{value}" for identical cards', ("one choice",))
            return
        self.rules.identical_one_choice = True

    def decl_simulation_prefers(self, line: OutlineLine, n: int) -> None:
        labels, condition = [], None
        for text, span in self.names_list(line):
            if condition is not None:
                continue
            if text.lower().startswith("if "):
                # the condition is the rest of the line, commas included
                rest = line.value[span.column - line.value_span.column:].strip().rstrip(".")
                condition = Sentence(rest[0].upper() + rest[1:] + ".", span)
            else:
                labels.append(text)
        self.rules.prefer = self.rules.prefer + ((tuple(labels), condition),)

    def decl_race(self, line: OutlineLine, n: int) -> None:
        value = (line.value or "").strip().rstrip(".")
        m = re.fullmatch(r"(.+?) past the end of (?:the )?(.+?), at the end of (?:the )?(.+)",
                         value, re.I)
        if not m:
            self.problem(line.value_span or line.span, "E527", f'unreadable race "{value}"',
                         ("COUNTER past the end of ZONE, at the end of PERIOD",))
            return
        tie, ties = (), 0
        for child in line.children:
            t = re.fullmatch(r"on a tie, at most (\d+) times?", child.key, re.I)
            if not t:
                self.unknown_field(child, ("on a tie, at most N times",))
                continue
            tie, ties = self.sentences(child.children), int(t.group(1))
        self.rules.race = RaceDecl(_unquote(m.group(1)), _unquote(m.group(2)),
                                   _unquote(m.group(3)), tie, ties, line.span)
