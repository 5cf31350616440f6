"""``cardrules explain``: one effect text described in words a designer reads.

Shows how the game understands a text: its timing label and what the rules
file says that label means, its conditions, its costs, and each resolution
step with how it depends on the step before it ("then" versus "and").
"""

from __future__ import annotations

from interpreter.language import ast
from interpreter.language.game_rules import GameRules, parse_ability
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
        for link in sentence.args:
            number += 1
            item = link.args[0]
            how = ""
            if link.form == "then" or (link.form == "first" and sentence.form == "then"):
                how = "  [only if the step before it happened]"
            elif link.form == "and":
                how = "  [independent of the step before it]"
            what = _kind_of(item)
            out.append(f"  {number}. {what}: {_item(item)}{how}")
    return "\n".join(out)


def _kind_of(item) -> str:
    if isinstance(item, ast.Condition):
        return "condition"
    if isinstance(item, ast.Step):
        if item.form == "act":
            optional = " (optional)" if item.args[1] else ""
            return f"step{optional}"
        if item.form in ("verb_step", "player_verb_step"):
            optional = " (optional)" if item.args[item.form == "player_verb_step"] else ""
            return f"game verb{optional}"
        return "continuous change"
    return "modifier"
