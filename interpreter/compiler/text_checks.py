"""Checks of a card's text as a whole, which no step alone can make: a
"that player" no step before names (E822), an "If heads" with no coin
flipped before it (E824). Each would run with another meaning than the
words say (you; never), so check refuses it at its words."""

from __future__ import annotations

import re

from interpreter.compiler.players import unnamed_that_player
from interpreter.compiler.program import Unsupported
from interpreter.errors import Problem
from interpreter.language import ast


def refuse_unnamed_that_player(resolution) -> None:
    """ "Return a Creature to its owner's hand. That player discards a card":
    no step before named a player "they", so "that player" would be you."""
    found = unnamed_that_player(resolution)
    if found is None:
        return
    step = next(link.args[0] for sentence in resolution for link in sentence.args
                if any(n is found for n in ast.walk_all(link.args)))
    # "That player" has no span of its own: the step's, or its first word's
    # that has one (the verb's)
    span = found.span or step.span or next(
        (n.span for n in ast.walk_all(step.args) if getattr(n, "span", None) is not None), None)
    raise Unsupported(Problem(
        "E822", 'no player is named before "that player" (or "they"), so it would be you',
        span, expected=("a step before it with a player doing it (\"Your Rival discards a "
                        "card. They ...\") or choosing one (\"Choose a player.\")",),
        suggestion='name the player: "its owner", "its controller", "your Rival", "you"'))


def refuse_heads_before_a_flip(conditions, resolution, rules) -> None:
    """ "Whenever this attacks, if heads, draw a card": no coin of this text
    is flipped before "If heads" (nor by a game verb of its steps that may
    flip one), so it would never hold."""
    flipped = False
    items = list(conditions) + [link.args[0] for sentence in resolution
                                for link in sentence.args]
    for item in items:
        if not flipped and isinstance(item, ast.Condition) and item.form == "if_" and \
                item.args[0].form in ("heads", "tails"):
            raise Unsupported(Problem(
                "E824", f'no coin is flipped before "if {item.args[0].form}", so it would '
                "never hold", item.span,
                expected=('a step that flips one before it ("Flip a coin. If heads, ...")',),
                suggestion=f'flip one first: "Flip a coin. If {item.args[0].form}, ..."'))
        flipped = flipped or any(_may_flip(node, rules) for node in ast.walk_all((item,)))


def _may_flip(node, rules) -> bool:
    """A coin flip, or a game verb whose definition flips one or uses
    another verb (which might)."""
    if isinstance(node, ast.Action) and node.form in ("flip_coin", "flip_coins"):
        return True
    if not isinstance(node, ast.VerbUse):
        return False
    decl = next((v for v in rules.verbs if v.pattern.text == node.form), None)
    if decl is None:
        return True
    text = " ".join(t for t, _ in decl.definitions()).lower()
    # words without their punctuation ("..., then Strike.": "strike")
    words = set(re.findall(r"[\w'-]+", text))
    return "flip" in text or any(v.pattern.text.split()[0].lower() in words
                                 for v in rules.verbs if v is not decl)
