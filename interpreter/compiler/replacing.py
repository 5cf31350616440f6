"""Replacements: "If X would EVENT, STEPS instead." (an ability in force,
compiled by ``interpreter.compiler.abilities``) and "The next time X would
EVENT this turn, STEPS instead." (a step of an effect: the replacement waits,
on its player, to be used once while its duration lasts; see
``Changes.replaced``), "This turn, if PLAYER would EVENT, STEPS instead."
(one that lasts), and the preventions of events other than damage ("Prevent
all COUNTER PLAYER would add to X", "Prevent the effect of the next X").
What they share: which event a "would ..." names (of a card or of a player),
the cards or players it is about, and the steps with "instead" taken off.
"""

from __future__ import annotations

from typing import Callable

import attrs

from interpreter.compiler.compiled import ONCE_TRIGGERS, PlayerReplacement, Replacement, Trigger
from interpreter.compiler.conditions import compile_condition
from interpreter.compiler.modifiers import compile_duration, compile_lasting
from interpreter.compiler.players import compile_zone, player_target
from interpreter.compiler.program import Emitter, unsupported
from interpreter.compiler.named_numbers import naming
from interpreter.compiler.selectors import compile_selector
from interpreter.compiler.trigger_events import (card_event_watch, check_event_logged,
                                                 move_origin, named_move, player_event_watch)
from interpreter.compiler.verb_slots import use_slots
from interpreter.language import ast
from interpreter.language.render import mode_text

_REPLACEABLE = {"destroyed": "destroyed", "discarded": "discarded",
                "dealt damage": "dealt damage"}


def _about(subject):
    """The selection of the cards a replacement is about (it must be able to
    test a card)."""
    selection = compile_selector(subject, lambda m, f: f.locals["you"])
    if selection.test is None:
        raise unsupported(subject, "this selector in a replacement")
    return selection


def card_replacement(game, subject, action):
    """(event, selection) of "X would EVENT" about cards: destroyed,
    discarded, dealt damage, getting one of the game's statuses, or the
    event of entering a zone ("banished": "a card entering it is banished")."""
    inner = action.args[0] if action.form == "event_action" else None
    word = None if inner is None else (inner.args[0] if inner.form == "event_participle"
                                       else inner.form)
    if action.form == "dealt_damage_event":
        word = "dealt damage"
    action = named_move(game, action)       # "If a Creature would die"
    if action.form in ("moved_into_event", "moved_between_event"):
        # "If a Creature would be put into a graveyard from the battlefield"
        event, selection = _moved_into(game, subject, action.args[0])
        origin = move_origin(action)
        game.origins_replaced = game.origins_replaced or bool(origin)
        return event + origin, selection
    if action.form == "event_from_zone":
        # "If this would be discarded from your Combat Area": the event, of
        # the cards the selector names that are in that zone
        event, selection = card_replacement(
            game, subject, ast.EventAction("event_action", (action.args[0],), action.span))
        zone = compile_zone(action.args[1], lambda m, f: f.locals["you"])
        test = selection.test
        return event, attrs.evolve(selection, test=lambda m, f, c: test(m, f, c) and
                                   m.state.cards[c].zone == zone(m, f))
    entering = {event: zone for zone, event in game.entry_events.items()}
    statuses = {s.lower(): s for s in game.rules.statuses}
    if word is not None and word.lower() in entering:
        # "If this would be banished": the event of entering a zone ("a card
        # entering it is banished"), replaced as the move into it is
        return f"enters {entering[word.lower()]}", _about(subject)
    if word is not None and word.lower() in statuses:
        event = statuses[word.lower()]          # "would be exhausted": a status given
    elif word in _REPLACEABLE:
        event = _REPLACEABLE[word]
    else:
        said = word or action.form.replace("_", " ")
        raise unsupported(action, f'replacing "{said}" (only destroyed, '
                          "discarded, dealt damage, the game's statuses and the events "
                          "of entering a zone; a card dealing damage to a player)")
    return event, _about(subject)


def _moved_into(game, subject, zone: ast.ZoneRef):
    """ "X would be put into your Rival's void": the event "enters ZONE" (see
    Changes.move), of cards the selector names whose owner is the player
    the zone's possessive names (the zone a card goes to is its owner's)."""
    if zone.form == "zone_slot":
        raise unsupported(zone, "a verb slot outside a verb")
    possessive, name = zone.args
    selection = _about(subject)
    whose = possessive.form
    if whose not in ("your", "rivals", "bare", "the", "a", "owners", "their"):
        raise unsupported(possessive, f'"{whose}" zones in a replacement')
    test = selection.test
    if whose == "your":
        test = (lambda m, f, c, t=test: t(m, f, c) and m.state.cards[c].owner == f.locals["you"])
    elif whose == "rivals":
        test = (lambda m, f, c, t=test: t(m, f, c) and m.state.cards[c].owner != f.locals["you"])
    return f"enters {name}", attrs.evolve(selection, test=test)


def player_event(what: ast.Node) -> str:
    """What a replacement about a player takes the place of, named as the
    engine asks for it: "dealt damage" ("If a player would be dealt
    damage"), "pay more COUNTER" ("would pay more Mana than they have"),
    "draw a card" (each card of a draw on its own), "verb PATTERN" (a game
    verb the player does: "If you would climb 1 Floor"), "add COUNTER"
    (counters the player adds to a card)."""
    if what.form == "pays_more":
        return f"pay more {what.args[0]}"
    if what.form == "draws_card":
        return "draw a card"
    if what.form == "does_verb":
        return f"verb {what.args[0].form}"
    if what.form == "adds_counter":
        return f"add {what.args[1]}"
    return "dealt damage"


def player_replacement(game, would: ast.Condition) -> tuple[str, Callable]:
    """(event, test) of "PLAYER would EVENT": the test (machine, frame,
    player) reads the probe's "amount" (the event's number, which must be
    the one the text names: "would climb 1 Floor") and "it" (the card
    counters are added to)."""
    subject, what = would.args
    if isinstance(subject, ast.Selector):
        # "If a Creature would deal damage to you": the player dealt damage,
        # by a card the words name (its damage's source, "#dealer")
        about, dealer = _player_test(what.args[0]), _about(subject).test
        return "dealt damage", (lambda m, f, p: about(m, f, p) and _dealt_by(m, f, dealer))
    about = _player_test(subject)
    if what.form == "draws_card" and what.args:
        # "... would draw a card while their deck has no cards": only then
        holds = compile_condition(what.args[0])
        return player_event(what), (lambda m, f, p: about(m, f, p) and holds(m, f))
    if what.form == "does_verb":
        use = what.args[0]
        numbers = [arg for slot, arg in zip(use_slots(use.form), use.args) if slot == "{n}"]
        if len(numbers) != len(use.args) or len(numbers) > 1 or not all(
                isinstance(n, int) for n in numbers):
            raise unsupported(use, "replacing a game verb other than with one number")
        if not numbers:
            return player_event(what), about
        n = numbers[0]
        return player_event(what), (lambda m, f, p: about(m, f, p) and f.locals["amount"] == n)
    if what.form == "adds_counter":
        n, _counter, selector = what.args
        if not isinstance(n, int):
            raise unsupported(what, "replacing adding a number of counters other than a constant")
        onto = _about(selector).test
        return player_event(what), (lambda m, f, p: about(m, f, p) and
                                    f.locals["amount"] == n and onto(m, f, f.locals["it"]))
    return player_event(what), about


def _dealt_by(m, f, dealer: Callable) -> bool:
    """Whether the damage a probe is about has a card for its source that
    ``dealer`` holds for (damage with no card as its source has none)."""
    source = f.locals.get("#dealer")
    return source is not None and source >= 0 and dealer(m, f, source)


def _player_test(subject: ast.Player) -> Callable:
    """Which players a replacement is about: (machine, frame, player) -> bool."""
    form = subject.form
    if form in ("any_player", "each_player"):
        return lambda m, f, p: True
    if form == "you":
        return lambda m, f, p: p == f.locals["you"]
    if form in ("rival", "each_rival"):
        return lambda m, f, p: m.is_opponent(f, p)
    if form == "turn_player":
        return lambda m, f, p: p == m.state.turn_player
    raise unsupported(subject, f'a replacement for "{form.replace("_", " ")}"')


def _suffixes(step: ast.Step) -> tuple:
    if step.form == "player_cannot":
        return tuple(step.args[2:])
    last = step.args[-1] if step.args else ()
    return last if isinstance(last, tuple) else ()


# where a step says whether it may be declined ("you may ...")
_MAY_AT = {"act": 1, "verb_step": 0, "player_verb_step": 1}


def optional_instead(links) -> bool:
    """Whether the step that ends with "instead" may be declined ("you may
    discard 2 cards instead")."""
    for link in links:
        step = link.args[0]
        if isinstance(step, ast.Step) and step.form in _MAY_AT and any(
                getattr(s, "form", "") == "instead" for s in _suffixes(step)):
            return bool(step.args[_MAY_AT[step.form]])
    return False


# A player's event that happens after all when the player declines the
# replacement that would take its place ("you may discard 2 cards instead"):
# done again, by the program ``doing`` (which does not replace it again).
_AFTER_ALL = {
    "dealt damage": lambda m, f, doing: m.damage_player(
        f.locals["#about"], f.locals["amount"], f.locals.get("#dealer"), doing=doing),
    "draw a card": lambda m, f, doing: m.draw(f.locals["#about"], 1, doing=doing),
}


def compile_instead(steps, sentence, links, event: str, about_player: bool = False) -> None:
    """The steps that take an event's place (``links``, after its "would"
    condition), "instead" taken off the step it ends, compiled by ``steps``
    (a StepCompiler) with "that much" the event's amount. When they may be
    declined, a player's event happens after all (``about_player``: the
    event is a player's)."""
    after_all = None
    if optional_instead(links):
        after_all = _AFTER_ALL.get(event) if about_player else None
        if after_all is None or len(links) > 1:
            raise unsupported(links[0].args[0], f'"may ... instead" in a replacement of '
                              f'"{event}" (only one step, of a player\'s damage or draw: '
                              'declined, the event happens after all)')
    body = []
    for link in links:
        step = link.args[0]
        if isinstance(step, ast.Step) and step.form != "player_cannot" and any(
                getattr(s, "form", "") == "instead" for s in _suffixes(step)):
            kept = tuple(s for s in step.args[-1] if s.form != "instead")
            link = attrs.evolve(link, args=(attrs.evolve(step, args=step.args[:-1] + (kept,)),))
        body.append(link)
    body[0] = attrs.evolve(body[0], form="first")
    # "that much" is the amount for every event; some name it in their own
    # words too ("prevent that damage", "equal to the excess")
    also = {"dealt damage": "that damage"}.get(event) or (
        "the excess" if event.startswith("pay more ") else "that much")
    # "add 2 Progress Markers instead": to the cards the event adds to
    onto = "the cards added to" if event.startswith("add ") else "that much"
    with naming("that much"), naming(also), naming(onto):
        steps.sentence(attrs.evolve(sentence, args=tuple(body)))
    if after_all is not None:
        done, doing = steps.e.label(), steps.e.program.name
        steps.e.jump_unless(lambda m, f: not f.locals.get("did", True), done)
        steps.e.emit(lambda m, f: after_all(m, f, doing))
        steps.e.place(done)


class ReplacingSteps:
    """The StepCompiler's "The next time ...", "This turn, if ... would
    ..., ... instead" and "Prevent ..." of events other than damage."""

    def next_time(self, moment: ast.Condition, sentence: ast.Sentence, links) -> None:
        """ "The next time X would EVENT [this turn], STEPS instead.": the
        replacement waits on the acting player (a modifier of kind "next
        time", named by the sentence) until it is used once or its duration
        ends; its steps run as the card's controller's, "it" the card.
        "The next time X EVENTs [this turn], STEPS.": the same, a triggered
        ability used once (kind "next trigger"; see Triggers.once_triggers)."""
        subject, action, *duration = moment.args
        if not links:
            raise unsupported(moment, '"the next time ..." with no steps after it')
        text = mode_text(sentence)
        text = text[:1].lower() + text[1:]
        if moment.form in ("next_time_event", "next_time_player"):
            self._next_trigger(moment, text, links)
            kind = "next trigger"
        else:
            self._next_replacement(moment, text, sentence, links)
            kind = "next time"
        self._leave_on_player(kind, text, compile_duration(duration[0])
                              if duration and duration[0] else compile_lasting(()))

    def lasting(self, duration: ast.Condition, sentence: ast.Sentence, links) -> None:
        """ "This turn, if your Rival would draw a card, they Dump 1
        instead.": a replacement about a player that the effect leaves on
        its player (a modifier of kind "replacement", named by the sentence)
        until the duration ends; its steps run as that player's, "they" the
        player the event is about."""
        would = links[0].args[0] if links else None
        if not (isinstance(would, ast.Condition) and would.form == "if_" and
                would.args[0].form == "would_player" and len(links) > 1 and
                any(getattr(s, "form", "") == "instead" for link in links[1:]
                    if isinstance(link.args[0], ast.Step) for s in _suffixes(link.args[0]))):
            raise unsupported(duration, 'a duration leading a sentence other than '
                              '"DURATION, if PLAYER would ..., ... instead"')
        text = mode_text(sentence)
        text = text[:1].lower() + text[1:]
        event, test = player_replacement(self.game, would.args[0])
        if text not in self.game.lasting_replacements:
            e = Emitter(f"lasting:{text}", duration.span)
            compile_instead(type(self)(e, self.game), sentence, links[1:], event, True)
            self.game.programs[e.program.name] = e.finish()
            self.game.lasting_replacements[text] = PlayerReplacement(
                event, test, e.program.name)
            self.game.draws_replaced = self.game.draws_replaced or event == "draw a card"
        self._leave_on_player("replacement", text, compile_duration(duration.args[0]))

    def counters_prevented(self, step: ast.Step) -> None:
        """ "Prevent all Charges your opponent would add to the
        current Quest this turn": a lasting replacement (as "This turn,
        if ...") of that player adding that counter to such cards, by
        nothing at all."""
        counter, player, selector, *suffixes = step.args
        span = step.span
        text = mode_text(ast.Sentence("plain", (ast.Link("first", (step,), span),), span))
        text = text[:1].lower() + text[1:]
        if text not in self.game.lasting_replacements:
            about, onto = _player_test(player), _about(selector).test
            e = Emitter(f"lasting:{text}", span)
            self.game.programs[e.program.name] = e.finish()
            self.game.lasting_replacements[text] = PlayerReplacement(
                f"add {counter}", lambda m, f, p: about(m, f, p) and onto(m, f, f.locals["it"]),
                e.program.name)
        self._leave_on_player("replacement", text, compile_lasting(suffixes))

    def next_effect_prevented(self, step: ast.Step) -> None:
        """ "Prevent the effect of the next Disrupt your Rival controls this
        turn": a modifier of kind "next effect" on the acting player, used
        up by the first such card whose effect would happen (see
        Changes.effect_prevented) while it lasts."""
        selector, suffixes = step.args
        span = step.span
        text = mode_text(ast.Sentence("plain", (ast.Link("first", (step,), span),), span))
        text = text[:1].lower() + text[1:]
        if text not in self.game.prevented_effects:
            self.game.prevented_effects[text] = _about(selector).test
        self._leave_on_player("next effect", text, compile_lasting(suffixes))

    def _leave_on_player(self, kind: str, text: str, until: Callable) -> None:
        """What an effect leaves waiting on its player (a modifier of
        ``kind`` named by its sentence, from the card whose effect it is)
        until ``until`` says it ends."""
        def leave(m, f):
            this = f.locals.get("this")
            m.add_modifier(player_target(f.locals["you"]), kind, text, 1, this, until(m, f, this))
        self.e.emit(leave)

    def _next_trigger(self, moment, text: str, links) -> None:
        if text in self.game.once_triggers:
            return
        subject, action = moment.args[:2]
        e = Emitter(f"next time:{text}", moment.span)
        type(self)(e, self.game).sentence(ast.Sentence(
            "plain", (attrs.evolve(links[0], form="first"),) + tuple(links[1:]), moment.span))
        self.game.programs[e.program.name] = e.finish()
        if moment.form == "next_time_player":
            # "The next time you advance this turn": once, that player's event
            word, test, whose = player_event_watch(
                self.game, ast.Event("player_event", (subject, action), moment.span))
            check_event_logged(self.game, word, moment)
            trigger = Trigger(word, e.program.name, test, False, "player", whose)
        else:
            word, test, object_test, _own = card_event_watch(
                self.game, ast.Event("card_event", (subject, action), moment.span))
            check_event_logged(self.game, word, moment)
            trigger = Trigger(word, e.program.name, test, False, object_test=object_test)
        self.game.once_triggers[text] = trigger
        # (listed with the triggers, so that its event is watched)
        self.game.triggers.setdefault(ONCE_TRIGGERS, []).append(trigger)

    def _next_replacement(self, moment, text: str, sentence, links) -> None:
        subject, action = moment.args[:2]
        event, selection = card_replacement(self.game, subject, action)
        if text not in self.game.once_replacements:
            e = Emitter(f"next time:{text}", moment.span)
            compile_instead(type(self)(e, self.game), sentence, links, event)
            self.game.programs[e.program.name] = e.finish()
            self.game.once_replacements[text] = Replacement(
                event, selection.test, f"next time:{text}", False)
