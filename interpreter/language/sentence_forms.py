"""Forms of a sentence read as another: "It can't be readied during its
controller's next Untap" as the sentence that starts with "During ..."
(and "... as long as X" as "As long as X, ...");
"If A and B, ..." with B a second condition; "Destroy a Creature and the
Relic Bonded to it" as one step of two objects. The transformer builds each
sentence's links and hands them here before the pronoun passes
(``pronouns``)."""

from __future__ import annotations

import attrs

from interpreter.source import Span
from interpreter.language import ast


def join_spans(first: Span | None, last: Span | None) -> Span | None:
    """The span from the start of one to the end of the other."""
    if first is None or last is None:
        return first or last
    return Span(first.path, first.line, first.column, last.end_line, last.end_column)


def condition_first(sentence: ast.Sentence) -> ast.Sentence:
    """ "It can't be readied during its controller's next Untap", "This
    gets +2 power as long as you have 10 or less Life": a sentence of one
    step ending in "during ..." (or, for a change to cards, "while ..." / "as
    long as ...") reads as the sentence starting with it, "During its
    controller's next Untap, it can't be readied" (one form, one meaning).
    Not where "it" in the condition would be each of the cards changed
    ("Each Creature you control gets +1 power while it is exhausted")."""
    links = sentence.args
    if len(links) != 1 or not isinstance(links[0].args[0], ast.Step):
        return sentence
    step = links[0].args[0]
    suffixes = step.args[-1] if step.args and isinstance(step.args[-1], tuple) else ()
    moved = next((s for s in suffixes if isinstance(s, ast.Suffix) and (
        s.form == "during_suffix" or (s.form == "while_suffix" and step.form in _CHANGES))),
        None)
    if moved is None or (moved.form == "while_suffix" and _names_it(moved) and not (
            step.form == "state_change" and step.args[0].form in ("this", "it"))):
        return sentence
    rest = tuple(s for s in suffixes if s is not moved)
    condition = ast.Condition("during" if moved.form == "during_suffix" else "while_",
                              moved.args, moved.span)
    return attrs.evolve(sentence, args=(
        ast.Link("first", (condition,), moved.span),
        ast.Link("and", (attrs.evolve(step, args=step.args[:-1] + (rest,)),), step.span)))


def once_during(links: list) -> list:
    """ "Once during your turn, you may draw a card" (a printed ability's
    limit) is "Once per turn, during your turn, ...": the two conditions
    every ability head already reads, in that order."""
    spread = []
    for link in links:
        item = link.args[0]
        if isinstance(item, ast.Condition) and item.form == "once_during":
            ref = item.args[0]
            spread.append(ast.Link(link.form, (ast.Condition("once_per", (ref.args[0],),
                                                             item.span),), link.span))
            spread.append(ast.Link("and", (ast.Condition("during", (ref,), item.span),),
                                   link.span))
        else:
            spread.append(link)
    return spread


def _names_it(node) -> bool:
    """Whether "it" or "them" names cards in the words ("while it is
    exhausted"; not "while it is your turn")."""
    if isinstance(node, ast.Condition) and node.form in ("is_state", "is_not_state") and \
            node.args[1].form == "is_period":
        return False
    if isinstance(node, ast.Selector) and node.form in ("it", "them"):
        return True
    children = node.args if isinstance(node, ast.Node) else node if isinstance(node, tuple) \
        else ()
    return any(_names_it(child) for child in children)


# steps that say how cards are ("This gets +2 power", "Creatures you control
# have Trample"): "while ..." after one is the change's condition
_CHANGES = ("state_change", "plural_state_change")


def second_condition(step: ast.Step) -> ast.Condition:
    """ "If A and B, ...": B read as a condition ("it has Trample", "it is
    exhausted"); a step that is no condition is kept for the compiler to
    refuse (as "unread_and"), never run as a step."""
    if step.form == "state_change" and not step.args[2]:
        selector, statement, _ = step.args
        if statement.form == "has_keyword":
            test = ast.Condition("card_has_keyword", (selector, statement.args[0]), step.span)
            return ast.Condition("if_", (test,), step.span)
        if statement.form == "becomes":
            test = ast.Condition("is_state", (selector, statement.args[0]), step.span)
            return ast.Condition("if_", (test,), step.span)
    return ast.Condition("unread_and", (step,), step.span)


def joined_object(before, item: ast.Modifier):
    """ "Destroy a Creature and the Relic Bonded to it": a card after "and"
    is a second object of the step before, joined to the selector that step
    ends with (picked after it: "it" is the first's card). "A and B deal
    damage equal to their Attack to each other": one step of both cards.
    None when nothing before takes it (the compiler says so)."""
    span = join_spans(before.span, item.span) if before.span and item.span else item.span
    if item.form == "each_other_half":
        if isinstance(before, ast.Modifier) and before.form == "more_object":
            return ast.Step("each_other", (before.args[0],) + tuple(item.args), span)
        return None
    if not (isinstance(before, ast.Step) and before.form == "act"):
        return None
    subject, optional, action, suffixes = before.args
    if suffixes or not action.args or not isinstance(action.args[-1], ast.Selector):
        return None
    both = ast.Selector("joined", (action.args[-1], item.args[0]), span)
    action = attrs.evolve(action, args=action.args[:-1] + (both,), span=span)
    return attrs.evolve(before, args=(subject, optional, action, suffixes), span=span)
