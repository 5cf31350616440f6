"""Replacements: "If X would EVENT, STEPS instead." (an ability in force,
compiled by ``interpreter.compiler.abilities``) and "The next time X would
EVENT this turn, STEPS instead." (a step of an effect: the replacement waits,
on its player, to be used once while its duration lasts; see
``Changes.replaced``). What they share: which event a card's "would ..."
names, the cards it is about, and the steps with "instead" taken off.
"""

from __future__ import annotations

import attrs

from interpreter.compiler.compiled import ONCE_TRIGGERS, Replacement, Trigger
from interpreter.compiler.modifiers import compile_duration
from interpreter.compiler.players import compile_zone, player_target
from interpreter.compiler.program import Emitter, unsupported
from interpreter.compiler.selectors import compile_selector, naming
from interpreter.compiler.trigger_events import card_event_watch, player_event_watch
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
    if action.form == "moved_into_event":
        return _moved_into(game, subject, action.args[0])
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
        raise unsupported(action, f'replacing "{word or action.form}" (only destroyed, '
                          "discarded, dealt damage, the game's statuses and the events "
                          "of entering a zone)")
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
    if whose not in ("your", "rivals", "bare", "the", "owners", "their"):
        raise unsupported(possessive, f'"{whose}" zones in a replacement')
    test = selection.test
    if whose == "your":
        test = (lambda m, f, c, t=test: t(m, f, c) and m.state.cards[c].owner == f.locals["you"])
    elif whose == "rivals":
        test = (lambda m, f, c, t=test: t(m, f, c) and m.state.cards[c].owner != f.locals["you"])
    return f"enters {name}", attrs.evolve(selection, test=test)


def _suffixes(step: ast.Step) -> tuple:
    if step.form == "player_cannot":
        return tuple(step.args[2:])
    last = step.args[-1] if step.args else ()
    return last if isinstance(last, tuple) else ()


def compile_instead(steps, sentence, links, event: str) -> None:
    """The steps that take an event's place (``links``, after its "would"
    condition), "instead" taken off the step it ends, compiled by ``steps``
    (a StepCompiler) with "that much" the event's amount."""
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
    with naming("that much"), naming(also):
        steps.sentence(attrs.evolve(sentence, args=tuple(body)))


class ReplacingSteps:
    """The StepCompiler's "The next time ..."."""

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
        until = compile_duration(duration[0]) if duration and duration[0] else None

        def wait(m, f):
            this = f.locals.get("this")
            end = until(m, f, this) if until is not None else ("game", 0, "end")
            m.add_modifier(player_target(f.locals["you"]), kind, text, 1, this, end)
        self.e.emit(wait)

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
            trigger = Trigger(word, e.program.name, test, False, "player", whose)
        else:
            word, test, object_test, _own = card_event_watch(
                ast.Event("card_event", (subject, action), moment.span))
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
