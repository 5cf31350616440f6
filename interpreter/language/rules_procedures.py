"""Reading a rules file: the procedures of play.

The declarations of how a game is played: the setup, the turn (phases and
steps, who takes them), the resolution of effects, player damage,
the actions players take, card effects, identical cards. Procedures are sentences of the card language,
kept as :class:`~interpreter.language.game_rules.Sentence` and parsed once
the game's vocabulary is known.
"""

from __future__ import annotations

from interpreter.errors import did_you_mean
from interpreter.language.game_rules import (
    ActionDecl, PhaseDecl, ResolutionDecl, RuleDecl, Sentence, StepDecl,
    _procedure_sentences)
from interpreter.language.rules_reading import RulesReaderBase, _unquote
from interpreter.language.syntax import OutlineLine


class ProcedureDeclarations(RulesReaderBase):
    """Setup, turn, resolution, player damage, actions, card
    effects, identical cards."""

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
            loop = next((g for g in grandchildren if g.has_colon and not g.value
                         and g.key.lower().startswith("for each ")), None)
            if loop is not None:
                found = self.read(loop, "for_each_key", "loop", ("for each NAME in ZONE",),
                                  code="E519", unknown="unreadable", key=True)
                if found is not None:
                    for_each = (found.name(0).text, found.name(1).text)
                index = grandchildren.index(loop)
                grandchildren[index:index + 1] = [
                    line for line in loop.children if line.words[0].lower() == "step"]
                for line in loop.children:
                    if line.words[0].lower() != "step":
                        # once for each place is what a step does: a line
                        # here would run once, at no place
                        self.problem(line.span, "E518", '"for each" holds the steps '
                                     "done at each place", ('step "Name"',))
            taken_by = None
            closing = []
            for grandchild in grandchildren:
                if grandchild.words[0].lower() == "step" and len(grandchild.head) == 2 \
                        and not grandchild.has_colon:
                    fields = ("triggered abilities", "taken by", "skip")
                    lines = [g for g in grandchild.children
                             if g.key.lower() not in fields or not g.has_colon]
                    hold = any(g.key.lower() == "triggered abilities"
                               for g in grandchild.children)
                    step_taker = next((self.taken_by(g) for g in grandchild.children
                                       if g.key.lower() == "taken by"), None)
                    step_skip = any(self.skip_setting(g) for g in grandchild.children
                                    if g.key.lower() == "skip" and g.has_colon)
                    steps.append(StepDecl(grandchild.head[1].text,
                                          self.sentences(lines), grandchild.span, hold,
                                          step_taker, step_skip))
                elif grandchild.key.lower() == "taken by" and grandchild.has_colon:
                    taken_by = self.taken_by(grandchild)
                elif grandchild.key.lower() == "skip":
                    skip = self.skip_setting(grandchild)
                elif grandchild.key.lower() == "triggered abilities":
                    value = (grandchild.value or "").strip().rstrip(".").lower()
                    if value != "wait until the end of the phase":
                        self.problem(grandchild.value_span or grandchild.span, "E521",
                                     f'unknown setting "{value}" for triggered abilities',
                                     ("wait until the end of the phase",))
                    hold_phase = True
                elif steps:
                    # a line after the steps happens once they are done
                    closing.append(grandchild)
                else:
                    body.append(grandchild)
            phases.append(PhaseDecl(child.head[1].text, self.sentences(body), skip,
                                    child.span, tuple(steps), for_each, taken_by,
                                    hold_phase, self.sentences(closing)))
        self.rules.phases = tuple(phases)

    def skip_setting(self, line: OutlineLine) -> bool:
        """ "skip: on the first turn of the game" (a phase's or a step's)."""
        value = (line.value or "").strip().rstrip(".").lower()
        if value != "on the first turn of the game":
            self.problem(line.value_span or line.span, "E519",
                         f'unknown skip condition "{value}"',
                         ("on the first turn of the game",))
        return True

    def taken_by(self, line: OutlineLine) -> Sentence | None:
        """ "taken by: each player in turn, starting with PLAYER": the player
        (card-language words, checked with the procedures)."""
        found = self.read(line, "taken_by", "taken by",
                          ("each player in turn, starting with PLAYER",), code="E519",
                          unknown="unreadable")
        if found is None:
            return None
        player = found.name()
        return Sentence(player.text, player.span)

    def decl_resolution(self, line: OutlineLine, n: int) -> None:
        settings = {
            "responses": ("the other player", "none"),
            "simultaneous": ("rival first", "turn player first"),
            "an entry whose source left its zone": ("is removed", "still resolves"),
            "triggered effects": ("all together", "one at a time"),
            "each player's effects": ("in the order they happened",
                                      "ordered by their controller"),
            "effects on a player": ("in the order above", "beneficial first"),
            "after an entry resolves": ("the rest resolve", "the turn player first"),
            "triggered effects join the stack": ("once it is empty",
                                                 "before a player receives priority"),
        }
        chosen = {"responses": "none", "simultaneous": "turn player first",
                  "an entry whose source left its zone": "still resolves",
                  "triggered effects": "all together",
                  "each player's effects": "in the order they happened",
                  "effects on a player": "in the order above",
                  "after an entry resolves": "the rest resolve",
                  "triggered effects join the stack": "once it is empty"}
        spans = {}
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
            spans[key] = child.value_span or child.span
        if chosen["after an entry resolves"] == "the turn player first" and \
                chosen["responses"] == "none":
            # priority passes only where players may respond
            self.problem(spans["after an entry resolves"], "E526",
                         '"after an entry resolves: the turn player first" needs '
                         '"responses: the other player"', ("responses: the other player",))
        if chosen["each player's effects"] == "ordered by their controller":
            # two orders for the same simultaneous effects: one must go
            for key, other in (("triggered effects", "one at a time"),
                               ("effects on a player", "beneficial first")):
                if chosen[key] == other:
                    self.problem(spans[key], "E527",
                                 f'"{key}: {other}" and "each player\'s effects: ordered '
                                 'by their controller" both order the same effects',
                                 ("one of the two settings",))
        self.rules.resolution = ResolutionDecl(
            chosen["responses"] == "the other player",
            chosen["simultaneous"] == "rival first",
            chosen["an entry whose source left its zone"] == "is removed",
            line.span, chosen["triggered effects"] == "one at a time",
            chosen["each player's effects"] == "ordered by their controller",
            chosen["effects on a player"] == "beneficial first",
            chosen["after an entry resolves"] == "the turn player first",
            chosen["triggered effects join the stack"] == "before a player receives priority")

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

        event, event_first = self.counts_as(fields["counts as"])
        limit = None
        limit_extra: tuple = ()
        if fields["limit"] is not None:
            limit, limit_extra = self.action_limit(fields["limit"])

        def word(field):
            return _unquote(fields[field].value.strip()) if fields[field] and \
                fields[field].value else None
        exchange, exchange_card = None, "this"
        if fields["exchange"] is not None:
            found = self.read(fields["exchange"], "exchange_field", "exchange",
                              ("STAT of this KIND", "STAT of it"), code="E525",
                              unknown="unreadable")
            stat = self.rules.stat(found.name().text) if found else None
            if found and (stat is None or stat.type != "exchange"):
                self.problem(found.name().span, "E525",
                             f'"{found.name().text}" is not an exchange stat',
                             ("an exchange stat: STAT of this KIND, STAT of it",))
            elif stat is not None:
                exchange = stat.name
                exchange_card = "it" if found.form == "exchange_of_it" else "this"
        sacrifices = None
        if fields["sacrifices"] is not None and fields["sacrifices"].value:
            found = self.read(fields["sacrifices"], "sacrifices", "sacrifices",
                              ('the cards its STAT names',), code="E514", unknown="unreadable")
            sacrifices = found.name().text if found else None
        self.rules.actions = self.rules.actions + (ActionDecl(
            name, during, sentence("choose"), sentence("cost"), sentence("effect"),
            event, line.span, limit, limit_extra, sentence("requires"), word("as"),
            sentence("target"), word("target as"),
            announces=word("announces"), target_announces=word("target announces"),
            sacrifices=sacrifices,
            exchange=exchange, exchange_card=exchange_card,
            free=fields["uses an action"] is not None
            and self.setting(fields["uses an action"], ("yes", "no")) == "no",
            any_time=self.yes_or_no(fields["at any time"]), event_first=event_first),)

    def counts_as(self, line: OutlineLine | None) -> tuple[str | None, bool]:
        """An action's ``counts as: EVENT``, and whether it says ``, before its
        effect`` (the event is logged once the cost is paid, and what it
        triggers resolves before the effect: "1. Resolve any Animate
        abilities on the card. 2. Place the card")."""
        if line is None or not line.value:
            return None, False
        event, comma, when = line.value.strip().partition(",")
        when = " ".join(when.split()).rstrip(".").lower()
        if comma and when != "before its effect":
            self.problem(self.span_of_text(line, when) if when else line.value_span or line.span,
                         "E521", f'unknown setting "{when}" for counts as',
                         ('"counts as: EVENT"', '"counts as: EVENT, before its effect"'),
                         did_you_mean(when, ("before its effect",)))
        return event.strip(), when == "before its effect"

    LIMIT_FORMS = ("once per PERIOD", "once per PERIOD for each card", "N times per PERIOD")

    def action_limit(self, line: OutlineLine) -> tuple[tuple | None, tuple]:
        """ "once per turn", "twice per turn for each card, plus its extra, at
        most 3, shared as attack": (period, per card) and the extras (the
        stat adding uses, the most uses, the shared count, the times)."""
        found = self.read(line, "limit", "limit", self.LIMIT_FORMS, code="E522",
                          unknown="unreadable")
        if found is None:
            return None, ()
        period_name = found.name()
        period = next((p for p in self.rules.periods
                       if p.lower() == period_name.text.lower()), None)
        if period is None:
            self.problem(period_name.span, "E522", f'unknown period "{period_name.text}"',
                         tuple(self.rules.periods), did_you_mean(period_name.text,
                                                                 self.rules.periods))
            return None, ()
        plus, most, shared = (found.find(form) for form in
                              ("limit_plus", "limit_most", "limit_shared"))
        extra: tuple = ()
        if plus or most or shared:
            extra = (plus.name().text if plus else None, most.number() if most else None,
                     shared.name().text if shared else None)
        times = found.find("times")
        count = {"once": 1, "twice": 2}.get(times.words) or times.number()
        if count != 1:
            extra = (extra or (None, None, None)) + (count,)
        return (period, found.find("for_each_card") is not None), extra

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

    def decl_once_per(self, line: OutlineLine, n: int) -> None:
        value = (line.value or "").strip().rstrip(".").lower()
        choices = ("each card", "each card name")
        if value not in choices:
            self.problem(line.value_span or line.span, "E521",
                         f'unknown setting "{value}" for once per', choices,
                         did_you_mean(value, choices))
            return
        self.rules.once_per_each_card = value == "each card"

    def decl_identical_cards(self, line: OutlineLine, n: int) -> None:
        value = (line.value or "").strip().rstrip(".").lower()
        if value != "one choice":
            self.problem(line.value_span or line.span, "E521",
                         f'unknown setting "{value}" for identical cards', ("one choice",))
            return
        self.rules.identical_one_choice = True
