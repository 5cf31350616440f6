"""``cardrules explain``: one effect text described in words a designer reads.

Shows how the game understands a text: its timing label and what the rules
file says that label means, its conditions, its costs, and each resolution
step with how it depends on the step before it ("then" versus "and").
"""

from __future__ import annotations

import attrs

from interpreter.language import ast
from interpreter.language.game_rules import GameRules, parse_ability
from interpreter.language.joined import JOINED
from interpreter.language.render import _item, _keyword, render_ability


def explain_text(rules: GameRules, text: str) -> str:
    ability = parse_ability(rules, text, path="<text>")
    return explain_ability(rules, ability)


def explain_ability(rules: GameRules, ability: ast.Ability) -> str:
    out = [f"canonical: {render_ability(ability)}"]
    if ability.form == "keyword":
        use = ability.args[0]
        out.append(f"keyword ability: {_keyword(use)}")
        for decl in rules.keywords:
            if decl.pattern.text == use.form:
                meaning = decl.definition or decl.description
                if meaning:
                    out.append(f"  means: {meaning}")
        return "\n".join(out)
    label, conditions, costs, resolution = ability.args
    if label:
        timing = rules.timing(label)
        kind = ""
        if timing:
            kind = f" ({timing.use}, {'optional' if timing.optional else 'mandatory'})"
        out.append(f"timing: {label}{kind}")
        if timing and timing.meaning:
            out.append(f"  means: {timing.meaning}")
    else:
        out.append("timing: none (general text, or a text whose use the card's kind decides)")
    if conditions:
        out.append("conditions:")
        out.extend(f"  - {_item(c)}" for c in conditions)
    if costs:
        out.append("costs (paid before the effect resolves):")
        out.extend(f"  - {_item(c)}" for c in costs)
    out.append("resolution:")
    number = 0
    for sentence in resolution:
        # "If X, A, then B.": every step after the "if" waits for it
        gate = None
        subject = None          # the player of the steps so far (ast.with_subject)
        for index, link in enumerate(sentence.args):
            number += 1
            item = link.args[0]
            same_players = None
            if isinstance(item, ast.Step):
                # "..., then draws 3 cards": shown with the player who does it
                meant, carried = ast.with_subject(item, subject)
                if meant is not item and carried.form == "those_players":
                    # a set of players ("each player with the most Bid"): the
                    # same ones as the step before, not counted again
                    meant = attrs.evolve(meant, args=(subject,) + tuple(meant.args[1:]))
                    same_players = number - 1
                    carried = subject
                item, subject = meant, carried
            depends = []
            if gate is not None and not isinstance(item, ast.Condition):
                depends.append(gate)
            after_gate = index > 0 and isinstance(sentence.args[index - 1].args[0],
                                                  ast.Condition)
            if link.form == "then" or (link.form == "first" and sentence.form == "then"):
                depends.append("only if the step before it happened")
            elif link.form == "and" and not after_gate:
                depends.append("independent of the step before it")
            if isinstance(item, ast.Condition) and item.form == "if_":
                # "If A, if B, ..." / "If A and B, ...": both must hold
                held = _item(item)[len('if '):]
                gate = f"{gate} and {held}" if after_gate and gate else f"only if {held}"
            elif isinstance(item, ast.Condition) and item.form == "otherwise":
                gate = "only if the \"if\" of the sentence before did not hold"
            elif isinstance(item, ast.Condition) and item.form == "for_each":
                # "For each X, A and B": the rest of the sentence, again and again
                gate = "once " + _item(item) + " (counted when the sentence comes to it)"
            if same_players is not None:
                depends.append(f"the same players as step {same_players}")
            how = f"  [{'; '.join(depends)}]" if depends else ""
            out.append(f"  {number}. {_kind_of(item)}: {_item(item)}{how}")
    return "\n".join(out)


def _kind_of(item) -> str:
    if isinstance(item, ast.Condition) and item.form == "unread_and":
        return 'not read (after "If", "and" joins a second condition; this is a step)'
    if isinstance(item, ast.Condition):
        return "condition"
    if isinstance(item, ast.Step):
        if item.form == "act":
            optional = " (optional)" if item.args[1] else ""
            return f"step{optional}"
        if item.form == "card_verb_step":
            return "game verb"
        if item.form in ("verb_step", "player_verb_step"):
            optional = " (optional)" if item.args[item.form == "player_verb_step"] else ""
            return f"game verb{optional}"
        if item.form == "choose_mode":
            return "choice of one mode"
        if item.form == "controls_copy":
            return "who controls the copy"
        if item.form == "state_change" and item.args[1].form in _ONE_SHOT:
            return "step"
        return "continuous change"
    if isinstance(item, ast.Modifier) and item.form in JOINED:
        return JOINED[item.form].explained
    return "modifier"


# statements about a card that happen once, not changes that last ("This
# deals 2 damage to your Rival")
_ONE_SHOT = {"card_deals", "card_deals_measured", "card_prevents"}

