"""Forms of a sentence read as another: "It can't be readied during its
controller's next Untap" as the sentence that starts with "During ...";
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


def during_first(links: list) -> list:
    """ "It can't be readied during its controller's next Untap": a
    sentence of one step ending in "during ..." reads as "During its
    controller's next Untap, it can't be readied" (one form, one meaning)."""
    if len(links) != 1 or not isinstance(links[0].args[0], ast.Step):
        return links
    step = links[0].args[0]
    suffixes = step.args[-1] if step.args and isinstance(step.args[-1], tuple) else ()
    during = next((s for s in suffixes if isinstance(s, ast.Suffix)
                   and s.form == "during_suffix"), None)
    if during is None:
        return links
    rest = tuple(s for s in suffixes if s is not during)
    return [ast.Link("first", (ast.Condition("during", during.args, during.span),),
                     during.span),
            ast.Link("and", (attrs.evolve(step, args=step.args[:-1] + (rest,)),), step.span)]


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
