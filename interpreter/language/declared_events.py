"""Which of the events a rules file declares something in the game logs.

A rules file declares its events (``event "is Revived": "..."``) so that
cards can watch them ("When a Being is Revived"); a declaration alone logs
nothing. What logs one: the engine itself (``ENGINE_EVENTS``), a zone's
entry event ("a card entering it is Summoned"), paired cards' status, a
status being set, an action's ``counts as``, ``announces`` and ``target
announces``, a verb's ``counts as``, a kind's ``text happens`` and ``use
counts as`` events.

Used by the loader (W402 at a declaration nothing logs) and the compiler
(E820 at a trigger on one: it would never fire).
"""

from __future__ import annotations

# Events the engine logs of itself, whatever the rules file declares: a card
# drawn, discarded, sacrificed (an action's ``sacrifices:``), activated from
# its zone, flipped; damage dealt and prevented.
ENGINE_EVENTS = frozenset({"drawn", "discarded", "sacrificed", "activated",
                           "flipped_face_up", "flipped_face_down", "deals damage",
                           "deals damage to", "prevents damage"})


def logged_events(rules) -> frozenset:
    """The names of the events something in the game logs (the module's
    docstring lists what does)."""
    names = set(ENGINE_EVENTS)
    names.update(status.lower() for status in rules.statuses)
    for zone in rules.zones.values():
        names.update(e.lower() for e in (zone.entry_event, zone.paired_status) if e)
    for action in rules.actions:
        names.update(e.lower() for e in (action.event, action.announces,
                                         action.target_announces) if e)
    for verb in rules.verbs:
        if verb.event:
            names.add(verb.event.lower())
    for kind in rules.kinds.values():
        names.update(e.lower() for e in (kind.text_event, kind.use_event) if e)
    return frozenset(names)


def event_word(phrase: str) -> str:
    """The name a declared event is logged by: "is Revived" -> "revived",
    "advances" -> "advances"."""
    return (phrase[3:] if phrase.lower().startswith("is ") else phrase).lower()


def logging_advice(word: str) -> str:
    """How a rules file makes a declared event happen (the advice of W402
    at the declaration and of E820 at a card watching it)."""
    return (f'give the rules file something that logs it: an action or a verb with "counts '
            f'as: {word}", or a zone with "a card entering it is {word}"')


def unlogged_events(rules) -> dict[str, str]:
    """event name -> phrase of each event the rules file declares and
    nothing logs ("is Revived" with no verb or action counting as it)."""
    logged = logged_events(rules)
    # "advance" after a plural subject ("When you advance") is the event
    # "advances" (trigger_events.player_event_watch reads it so)
    unlogged = {}
    for event in rules.events:
        word = event_word(event.phrase)
        if word.lower() in rules.event_names or word.lower() in rules.event_phrases:
            continue        # another name for an event of the language
        if not {word, word + "s", word + "es"} & logged:
            unlogged[word] = event.phrase
    return unlogged
