"""Game verbs and keywords defined in the rules file: their slots.

A verb's definition ("Mill {n}: Put the top {n} cards ...") is card text
with slots; where a card uses the verb, :func:`fill_slots` puts the card's
values in them (:func:`use_slots` lists a pattern's slots).
"""

from __future__ import annotations

import re

import attrs

from interpreter.language import ast
from interpreter.language.render_selectors import _qualifier as _qualifier_text


def use_slots(pattern: str) -> list[str]:
    return re.findall(r"\{[a-z]+\}", pattern)


def fill_slots(node, values: dict, use):
    """A copy of a verb's definition with its slots replaced by the values
    the card gives ("{n}" -> 1, "{card}" -> "a Being in your hand")."""
    if isinstance(node, str):
        return values.get(node, node)
    if isinstance(node, tuple):
        filled = tuple(fill_slots(n, values, use) for n in node)
        # a part with no slot in it is kept as it is (not copied)
        return node if all(a is b for a, b in zip(filled, node)) else filled
    if isinstance(node, ast.Node):
        if node.form in ("card_slot", "zone_slot", "player_slot") and node.args and \
                node.args[0] in values:
            return values[node.args[0]]
        if node.form == "card_slot_with" and node.args[0] in values:
            return _with_qualifiers(values[node.args[0]],
                                    fill_slots(node.args[1:], values, use))
        args = fill_slots(node.args, values, use)
        return node if args is node.args else attrs.evolve(node, args=args)
    return node


def _with_qualifiers(selector, qualifiers: tuple):
    """ "{card} you control" filled with "a Creature": "a Creature you
    control"; with cards named outright ("this", "it"): those of them the
    qualifiers fit (the selector "filtered")."""
    if isinstance(selector, ast.Selector) and selector.form in _DESCRIBED:
        # before the card's own qualifiers: "a Creature you control with 2 power"
        # (one the card already says is not said twice)
        said = {_qualifier_text(a) for a in selector.args if isinstance(a, ast.Qualifier)}
        qualifiers = tuple(q for q in qualifiers if _qualifier_text(q) not in said)
        at = next((i for i, a in enumerate(selector.args) if isinstance(a, ast.Qualifier)),
                  len(selector.args))
        return attrs.evolve(selector, args=selector.args[:at] + tuple(qualifiers)
                            + selector.args[at:])
    return ast.Selector("filtered", (selector,) + tuple(qualifiers),
                        getattr(selector, "span", None))


# selectors whose words end with their qualifiers ("a Creature you control")
_DESCRIBED = ("some", "owned", "every", "some_of_yours", "some_of_rivals", "some_of_theirs")


# filled definitions already made: (id of the definition, its slot values)
# -> (the definition, its resolution filled); the definition is kept with
# its entry so that its id names it while the entry lives
_FILLED: dict = {}
_FILLED_KEPT = 4096


def filled_resolution(definition, values: dict, use) -> tuple:
    """A verb definition's resolution with its slots filled (made once for
    each definition and values: a verb used by verbs is filled again for
    every use of theirs otherwise)."""
    try:
        key = (id(definition), tuple(values.items()))
        hit = _FILLED.get(key)
    except TypeError:                    # a value that cannot be a key
        return tuple(fill_slots(s, values, use) for s in definition.resolution)
    if hit is not None and hit[0] is definition:
        return hit[1]
    filled = tuple(fill_slots(s, values, use) for s in definition.resolution)
    if len(_FILLED) >= _FILLED_KEPT:
        _FILLED.clear()
    _FILLED[key] = (definition, filled)
    return filled


def keyword_instance(use: ast.KeywordUse) -> str:
    """A keyword with its slots filled, as a card prints it ("Challenger +2")."""
    text = use.form
    for slot, value in zip(use_slots(text), use.args):
        if isinstance(value, int) and value < 0 and "+" + slot in text:
            text = text.replace("+" + slot, str(value), 1)
        else:
            text = text.replace(slot, str(value), 1)
    return text
