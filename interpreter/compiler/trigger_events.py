"""What a triggered ability watches when its event is about a card ("When
this is played", "Whenever a Being your Rival controls attacks", "Whenever
this deals damage to a character"): the event's name as the machine logs it
and the tests of the card (and of the damaged card or player) it is about;
and when it is a player's ("Whenever your Rival advances"): the event's
name, the card it may be about and whose it must be.
Used by card abilities (``interpreter.compiler.abilities``) and by "The next
time X ..." in an effect (``interpreter.compiler.replacing``).
"""

from __future__ import annotations

from typing import Callable

import attrs

from interpreter.compiler.compiled import COMBAT_DAMAGE, PLAYER_DEALT_DAMAGE
from interpreter.compiler.players import compile_player, is_opponent_ref
from interpreter.compiler.program import Unsupported, unsupported
from interpreter.compiler.selectors import compile_selector
from interpreter.errors import Problem
from interpreter.language import ast
from interpreter.language.declared_events import logging_advice


def check_event_logged(game, word: str, node) -> None:
    """A trigger on an event the rules file declares but nothing logs would
    never fire: refused at its line (E820) rather than run silently."""
    phrase = game.unlogged_events.get(word)
    if phrase is None:
        return
    raise Unsupported(Problem(
        "E820", f'nothing in {game.rules.game_id} makes "{phrase}" happen, so this would '
        "never trigger", getattr(node, "span", None), None, (), logging_advice(word)))


def card_event_watch(game, event: ast.Event) -> tuple:
    """(event name, test of the card, test of the event's object or None,
    whether it watches only its own card ("When this ...")) of a card event."""
    if event.form == "bare_event":
        # "When defended": an event of this card
        event = ast.Event("card_event", (ast.Selector("this", (), event.span),
                                         ast.EventAction("event_action", event.args,
                                                         event.span)), event.span)
    if event.form != "card_event":
        raise unsupported(event, f'the event "{event.form.replace("_", " ")}"')
    subject, action = event.args
    _one_card_at_a_time(subject)
    action = named_move(game, action)
    object_test = zone_gate = None
    if action.form == "deals_damage" and action.args:
        # "Whenever this deals damage to a character": any damage its card
        # deals (effect or battle), to what the trigger names
        word, object_test = "deals damage to", _damaged_test(action.args[0])
    elif action.form == "deals_combat_damage":
        # "Whenever this deals combat damage to a player": battle damage, to
        # what the trigger names (anything, with no "to")
        word = COMBAT_DAMAGE
        object_test = _damaged_test(action.args[0]) if action.args else \
            (lambda m, f, hit: True)
    elif action.form == "dealt_damage_event":
        # "Whenever a Creature is dealt damage": any damage a card is dealt
        word = "dealt damage"
    elif action.form in ("deals_damage", "prevents_damage") and not action.args:
        # "When this deals damage" / "When this prevents damage" (combat)
        word = {"deals_damage": "deals damage", "prevents_damage": "prevents damage"}[
            action.form]
    elif action.form == "acts" and len(action.args) == 1 and isinstance(action.args[0], str):
        # "When a Being your Rival controls attacks": an event an action announces
        word = action.args[0]
    elif action.form in _ZONE_MOVES and action.args[0].form != "zone_slot":
        # "Whenever a character enters play" / "leaves play", "When this is
        # put into a graveyard from the battlefield": a move into (out of)
        # that zone, logged under the zone's name as the rules file spells it
        word, zone_gate = _zone_move(action)
    elif action.form == "game_event_verb" and isinstance(action.args[0], str):
        # "Whenever this character quests": a declared event (event "quests")
        word = action.args[0]
    elif action.form != "event_action":
        raise unsupported(action, f'the event "{action.form.replace("_", " ")}"')
    else:
        inner = action.args[0]
        word = inner.args[0] if inner.form == "event_participle" else inner.form
    selection = compile_selector(subject, lambda m, f: f.locals["you"])
    if selection.test is None:
        raise unsupported(subject, "this kind of trigger subject")
    test = selection.test
    if zone_gate is not None:
        test = (lambda m, f, c, t=test: zone_gate(m, f, c) and t(m, f, c))
    return (word if action.form in _ZONE_MOVES else word.lower()), test, object_test, \
        subject.form == "this"


def named_move(game, action: ast.EventAction) -> ast.EventAction:
    """The move a game's word names ("When this dies", "If a Creature would
    die": event "dies": another name for a move), else the action itself."""
    if action.form == "game_event_verb" and isinstance(action.args[0], str):
        return game.event_aliases.get(action.args[0].lower(), action)
    return action


def move_origin(action: ast.EventAction) -> str:
    """ " from ZONE" of "is put into a graveyard from the battlefield" (as
    the event's name ends), "" for a move from anywhere."""
    if action.form != "moved_between_event":
        return ""
    origin = action.args[1]
    if origin.form == "zone_slot" or origin.args[0].form not in _ANY_PLAYERS:
        raise unsupported(origin, 'a move from one player\'s zone ("from the ZONE" reads)')
    return " from " + origin.args[1]


# the events of a card moving between zones, by their forms
_ZONE_MOVES = ("enters_zone", "leaves_zone", "moved_into_event", "moved_between_event",
               "enters_zone_yours", "enters_zone_rivals")
# "enters the battlefield under your control" / "under your Rival's control"
_UNDER_CONTROL = {"enters_zone_yours": True, "enters_zone_rivals": False}
# zones named so are any player's: "the battlefield", "a graveyard"
_ANY_PLAYERS = ("bare", "each_players", "the", "a")


def _zone_move(action: ast.EventAction) -> tuple:
    """(event name, gate or None) of a move into or out of a zone: "enters
    ZONE", "leaves ZONE", "enters ZONE from ZONE" (as ``Triggers`` logs a
    move); the gate (machine, frame, card) keeps only a zone of the player
    its possessive names ("your graveyard", "its owner's graveyard")."""
    whose, zone = action.args[0].args
    word = ("leaves " if action.form == "leaves_zone" else "enters ") + zone + \
        move_origin(action)
    if action.form in _UNDER_CONTROL:
        # the card's controller, once it is there: you, or one of your rivals
        mine = _UNDER_CONTROL[action.form]
        under = (lambda m, f, c: (m.state.cards[c].controller == f.locals["you"]) == mine)
        if whose.form in _ANY_PLAYERS:
            return word, under
        _word, zone_gate = _zone_move(attrs.evolve(action, form="enters_zone"))
        return word, (lambda m, f, c: under(m, f, c) and (zone_gate is None or
                                                          zone_gate(m, f, c)))
    if whose.form in _ANY_PLAYERS:
        return word, None
    if action.form == "leaves_zone" or whose.form not in ("your", "rivals", "owners"):
        raise unsupported(action, f'the event "{action.form.replace("_", " ")}" of '
                          f'{whose.form.replace("_", " ")} zone')
    if whose.form == "owners":
        # "its owner's graveyard": where a card goes is its owner's
        return word, (lambda m, f, c: m.state.cards[c].zone[1] == m.state.cards[c].owner)
    mine = whose.form == "your"
    return word, (lambda m, f, c: (m.state.cards[c].zone[1] == f.locals["you"]) == mine)


def _one_card_at_a_time(subject) -> None:
    """A card event fires for one card: "Whenever a Creature is destroyed"
    (or "another", "each") once for each; "Whenever two Creatures are
    destroyed", "all", "up to 2", "2 or more" would be read so too, which is
    not what a player reads: refused at its words."""
    quantity = subject.args[0] if isinstance(subject, ast.Selector) and subject.args \
        and isinstance(subject.args[0], ast.Quantity) else None
    if quantity is None or quantity.form in ("one", "each", "another") or (
            quantity.form == "count" and quantity.args[:1] == (1,)):
        return
    raise unsupported(subject, 'a trigger on several cards together ("Whenever a '
                      'Creature ..." triggers once for each)')


def player_event_watch(game, event: ast.Event) -> tuple:
    """(event name, test of the card it is about or None, whose: "you",
    "rival" or "any") of a player event ("When you draw a card", "Whenever
    your Rival advances", "Whenever you cast a Spell")."""
    player, action = event.args
    events = {"player_draws": "drawn", "player_plays": "played",
              "player_discards": "discarded", "player_reveals": "revealed"}
    if action.form == "player_dealt_damage":
        # "Whenever you are dealt damage": damage to that player (the event
        # Changes.damage_player logs when an ability watches it)
        events = {action.form: PLAYER_DEALT_DAMAGE}
    if action.form in ("player_gains", "player_loses"):
        # "Whenever you gain Life": the player's counter goes up (down)
        word = ("gains " if action.form == "player_gains" else "loses ") + action.args[0]
        events = {action.form: word}
    if action.form == "player_game_event":
        # a declared event ("When you advance"), singular or plural
        word = action.args[0].lower()
        declared = {e.phrase.lower() for e in game.rules.events}
        plural = next((w for w in (word + "s", word + "es") if w in declared), word)
        events = {"player_game_event": plural}
    card_test = None
    if action.form == "player_did":
        # "Whenever you cast a Spell": the event "cast" of a Spell, by them
        word = action.args[0].lower()
        card_test = compile_selector(action.args[1], lambda m, f: f.locals["you"]).test
        if card_test is None:
            raise unsupported(action.args[1], "this kind of card in a trigger")
        events = {"player_did": word}
    if action.form in ("player_plays", "player_discards", "player_reveals") and \
            action.args and isinstance(action.args[0], ast.Selector):
        # "When you play this character", "Whenever you play an action":
        # only the cards the words name
        card_test = compile_selector(action.args[0], lambda m, f: f.locals["you"]).test
        if card_test is None:
            raise unsupported(action.args[0], "this kind of card in a trigger")
    if action.form not in events:
        raise unsupported(action, f'the event "{action.form.replace("_", " ")}"')
    whose = {"you": "you", "rival": "rival", "each_rival": "rival",
             "any_player": "any", "each_player": "any"}.get(player.form)
    if whose is None:
        raise unsupported(player, "this player in a trigger")
    return events[action.form], card_test, whose


def _damaged_test(target) -> Callable:
    """What "deals damage to TARGET" accepts as the damaged: a card the
    selector describes, a player ("a player", "your opponent"), or either
    ("any target"). Players are ``-1 - player`` in the event."""
    if isinstance(target, ast.Node) and target.form == "any_target":
        return lambda m, f, hit: True
    if isinstance(target, ast.Node) and target.form == "card_or_player":
        card_test = _damaged_test(target.args[0])
        return lambda m, f, hit: hit < 0 or card_test(m, f, hit)
    if isinstance(target, ast.Player):
        if target.form in ("any_player", "each_player"):
            return lambda m, f, hit: hit < 0
        if is_opponent_ref(target):
            return lambda m, f, hit: hit < 0 and m.is_opponent(f, -1 - hit)
        who = compile_player(target)
        return lambda m, f, hit: hit < 0 and who(m, f) == -1 - hit
    selection = compile_selector(target, lambda m, f: f.locals["you"])
    if selection.test is None:
        raise unsupported(target, "this kind of card in a trigger")
    card_test = selection.test
    return lambda m, f, hit: hit >= 0 and card_test(m, f, hit)
