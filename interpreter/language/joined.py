"""Joined items: what follows "and" with no verb of its own, and stands for
the step or the change just before it with words of its own ("Gain 1 Mana
and 1 Life", "Deal 2 damage to your Rival and 1 damage to each Creature",
"gets +1 power and +1 toughness", "Destroy a Creature and the Relic Bonded
to it"). One table says, for each form the grammar gives such an item, the
steps it repeats, how `explain` names it and what check says when there is
nothing before it to join; the renderer, explain and the compiler read it.
"""

from __future__ import annotations

import attrs

_AGAIN = "the step before again, with"
_PART = "part of the change before"


@attrs.frozen(slots=True)
class Joined:
    repeats: tuple[str, ...]    # the step actions it is again ("gain"); () for none
    explained: str              # what explain calls it
    alone: str | None = None    # check's problem with no such step before it


JOINED = {
    "more_counter": Joined(("gain", "lose"), _AGAIN,
                           'an amount of a counter after "and" with no "Gain" or "Lose" step '
                           'just before it ("Gain 1 Mana and 1 Life")'),
    "more_counter_to": Joined(("add_counter",), _AGAIN,
                              'an amount of a counter "to" cards after "and" with no "Add" step '
                              'just before it ("Add 1 A to this and 1 B to each C")'),
    "more_put": Joined(("put",), _AGAIN,
                       'cards and a place after "and" with no "Put" step just before it ("Put '
                       'one into your hand and the rest on the bottom of your deck")'),
    "more_damage": Joined(("deal",), _AGAIN,
                          'an amount of damage after "and" with no "Deal ... damage" step just '
                          'before it ("Deal 2 damage to your Rival and 1 damage to each '
                          'Creature")'),
    "more_player": Joined(("deal",), "the step before again, to",
                          'a player after "and" with no "Deal ... damage" step just before it '
                          '("Deal 1 damage to each Creature and each player")'),
    "more_object": Joined((), "a second card of the step before",
                          'a card after "and" that the step before does not end with ("Destroy '
                          'a Creature and the Relic Bonded to it": a second object of that '
                          'step)'),
    "more_stat": Joined((), _PART),
    "more_stat_each": Joined((), _PART),
    "more_keyword": Joined((), _PART),
}

# the items written after " and " when a sentence is rendered: the joined
# ones, and the second half of "A and B deal damage ... to each other"
AFTER_AND = frozenset(JOINED) | {"each_other_half"}
