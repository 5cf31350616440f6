"""The canonical renderer's terms: selectors, qualifiers, quantities,
numbers, comparisons, states and the slots of keywords and verbs, as card
text spells them (``interpreter.language.render`` writes the sentences and
steps around them).
"""

from __future__ import annotations

from interpreter.language import ast, render_terms
from interpreter.language.render_terms import (_last_number, _participle, _possessive, _verb_for,
                                              _zone)
from interpreter.language.render_terms import _player as _named_player
from interpreter.language.vocabulary import third_person

def _comparison(c: ast.Comparison) -> str:
    if c.form == "none":
        return "no"
    if c.form == "more_than":
        return "more than " + _measure(c.args[0])
    if c.form in ("less_than_counter", "greater_than_counter"):
        return f"{c.form.split('_')[0]} than {_possessive(c.args[0])} {c.args[1]}"
    if c.form in ("less_than_theirs", "greater_than_theirs"):
        return f"{c.form.split('_')[0]} than theirs"
    n = _amount(c.args[0])
    return {"exactly": f"{n}", "at_least": f"{n} or more",
            "at_most": f"{n} or less"}[c.form]


def _state(s: ast.State) -> str:
    f, a = s.form, s.args
    if f in ("status", "relating"):
        return a[0]
    if f == "face_state":
        return a[0]
    if f == "in_zone":
        return "in " + _zone(a[0])
    if f == "attached_state":
        return "attached to " + _selector(a[0])
    if f in ("attacking", "defending"):
        return f
    if f == "only_one":
        text = "the only " + _noun(a[0], plural=False)
        if len(a) > 1:
            text += " " + _does(a[1], "control")
        return text
    if f == "is_period":
        return f"{_possessive(a[0])} {a[1]}"
    if f == "at_position":
        return f"at {_possessive(a[0])} {a[1]}"
    if f == "is_a":
        words = [_adjective(x) if isinstance(x, ast.Adjective) else _noun(x) for x in a]
        return ("an " if words[0][:1].lower() in "aeiou" else "a ") + " ".join(words)
    raise TypeError(f)


def _keyword(k: ast.KeywordUse) -> str:
    return _fill(k.form, k.args)


def _verb_use(v: ast.VerbUse) -> str:
    return _fill(v.form, v.args)


def _fill(pattern: str, args: tuple) -> str:
    out, i, optional = [], 0, False
    for part in pattern.split():
        # words a pattern lets a card leave out ("[Floor(s)]") are left out
        optional = optional or part.startswith("[")
        if optional:
            optional = not part.endswith("]")
            continue
        if part.lstrip("+").startswith("{") and part.endswith("}"):
            arg = args[i] if i < len(args) else part
            i += 1
            out.append(("+" if part.startswith("+") and isinstance(arg, int) else "") +
                       _slot_value(arg))
        elif part.endswith("(s)") and not out:
            # "Pay(s) their Bid": a verb's two forms; its subject decides
            # (the caller makes it "Pays" after "Your Rival")
            out.append(part[:-3])
        elif part.endswith("(s)"):
            out.append(part[:-3] + ("" if _last_number(args[:i]) == 1 else "s"))
        else:
            out.append(part)
    return " ".join(out)




def _slot_value(arg) -> str:
    if isinstance(arg, (int, str, ast.Measure)) or (
            isinstance(arg, ast.Node) and arg.form == "event_amount"):
        return _amount(arg)
    if isinstance(arg, ast.Player):
        return _player(arg)
    if isinstance(arg, ast.ZoneRef):
        return _zone(arg)
    return _selector(arg)


# ---------------------------------------------------------------- selectors

def _target(t) -> str:
    if isinstance(t, ast.Node) and t.form == "any_target":
        return "any target"
    if isinstance(t, ast.Node) and t.form == "card_or_player":
        return _selector(t.args[0]) + " or player"
    return _player(t) if isinstance(t, ast.Player) else _selector(t)


def _is_plural(sel) -> bool:
    if not isinstance(sel, ast.Selector):
        return False
    if sel.form in ("them", "those"):
        return True
    if sel.form == "every":
        return True       # "Creatures you control get ..."
    if sel.form in ("some", "owned"):
        nouns = [a for a in sel.args if isinstance(a, ast.Noun)]
        q = sel.args[0]
        if sel.form == "some" and isinstance(q, ast.Quantity):
            return q.form in ("all", "any_number") or (
                q.form in ("count", "up_to", "at_least_count", "at_most_count") and q.args
                and q.args[0] != 1)
        return bool(nouns) and _noun_is_plural(nouns[0])
    return False


def _noun_is_plural(noun: ast.Noun) -> bool:
    return noun.plural


def _selector(s) -> str:
    if isinstance(s, ast.CardName):
        return f'"{s.name}"'
    if type(s) is ast.Node and s.form == "heads":
        return "heads"          # "for each heads": the coins flipped, not cards
    f, a = s.form, s.args
    if f == "this":
        return "this" + (" " + _noun(a[0]) if a else "")
    if f == "it":
        return "it"
    if f == "them":
        return "them"
    if f == "that":
        return "that " + _noun(a[0])
    if f == "current":
        return "the current " + _noun(a[0])
    if f == "those":
        return "those " + _noun(a[0])
    if f == "named":
        return _selector(a[0])
    if f in ("some", "owned"):
        head = _quantity(a[0]) if f == "some" else _possessive(a[0])
        rest = a[1:]
        words = [head] if head else []
        article = head == "a"
        for item in rest:
            if isinstance(item, ast.Adjective):
                words.append(_adjective(item))
            elif isinstance(item, ast.Noun):
                words.append(_noun(item))
            elif isinstance(item, ast.Qualifier):
                words.append(_qualifier(item, _is_plural(s)))
        if article and len(words) > 1 and words[1][:1].lower() in "aeiou":
            words[0] = "an"
        return " ".join(words)
    if f in ("top_cards", "bottom_cards"):
        where = "top" if f == "top_cards" else "bottom"
        if len(a) == 2:
            n = a[0]
            return f"the {where} {_amount(n)} {'card' if n == 1 else 'cards'} of {_zone(a[1])}"
        return f"the {where} card of {_zone(a[0])}"
    if f in ("the_attacking", "the_defending"):
        # (and a tax after it: "the attacking card unless your Rival pays 2 Mana")
        return f"the {f.split('_')[1]} {_noun(a[0])}" + "".join(
            " " + _qualifier(q) for q in a[1:])
    if f == "joined":
        return f"{_selector(a[0])} and {_selector(a[1])}"
    if f == "the_past":
        return f"the {_participle(a[0])} {_noun(a[1])}"
    if f == "card_slot":
        return a[0]
    if f in ("card_slot_with", "filtered"):
        head = a[0] if f == "card_slot_with" else _selector(a[0])
        return head + "".join(" " + _qualifier(q) for q in a[1:])
    if f == "both":
        return f"both {_selector(a[0])} and {_selector(a[1])}"
    if f == "bound":
        return "the cards chosen"
    if f in ("that_effect", "the_rest"):
        return f.replace("_", " ")
    if f == "tokens":
        return f'{_quantity(a[0])} "{a[1].name}" token' + ("" if a[0].form == "one" else "s")
    if f == "some_of_them":
        quantity = _quantity(a[0])
        return f"{'one' if quantity == 'a' else quantity} of them"
    if f == "zone_cards":
        return f"{_possessive(a[0])} {a[1]}"
    if f == "every":
        words = []
        for item in a:
            if isinstance(item, ast.Adjective):
                words.append(_adjective(item))
            elif isinstance(item, ast.Noun):
                words.append(_noun(item))
            else:
                words.append(_qualifier(item))
        return " ".join(words)
    raise TypeError(f)


def _quantity(q: ast.Quantity) -> str:
    f, a = q.form, q.args
    return {
        "one": lambda: "a",
        "count": lambda: _amount(a[0]),
        "up_to": lambda: f"up to {_amount(a[0])}",
        "at_least_count": lambda: f"{_amount(a[0])} or more",
        "at_most_count": lambda: f"{_amount(a[0])} or less",
        "each": lambda: "each",
        "all": lambda: "all",
        "any_number": lambda: "any number of",
        "another": lambda: "another",
        "no_count": lambda: "no",
    }[f]()


def _adjective(adj: ast.Adjective) -> str:
    f, a = adj.form, adj.args
    if f in ("value_adj", "status_adj", "defined_adj", "relating_adj"):
        return a[0]
    if f == "face_up_adj":
        return "face-up"
    if f == "face_down_adj":
        return "face-down"
    if f == "non_kind":
        return "non-" + a[0]
    return {"other": "other", "unique": "unique", "random": "random",
            "attacking_adj": "attacking", "defending_adj": "defending"}[f]


def _noun(n: ast.Noun, plural: bool | None = None) -> str:
    if n.form == "any_card":
        return "card"
    if n.form == "any_cards":
        return "cards"
    return n.args[0]


def _qualifier(q: ast.Qualifier, plural: bool = False) -> str:
    f, a = q.form, q.args
    if f == "located_in":
        return "in " + _zone(a[0])
    if f == "located_in_either":
        return "in " + _zone(a[0]) + " or " + _zone(a[1])
    if f == "taken_from":
        return "from " + _zone(a[0])
    if f == "at_card":
        return "at " + _selector(a[0])
    if f == "controlled_by":
        return _does(a[0], "control")
    if f == "with_stat":
        return "with " + _stat_comparison(a[0])
    if f == "with_counter":
        return "with " + _stat_comparison(a[0])
    if f == "with_no_counter":
        return "with no " + a[0]
    if f in ("with_keyword", "without_keyword"):
        return f.split("_")[0] + " " + _keyword(a[0])
    if f == "named_qualifier":
        return "named " + _selector(a[0])
    if f == "other_than_this":
        return "other than this"
    if f == "attached_to":
        return "attached to " + _selector(a[0])
    if f == "attached_to_it":
        return "attached to it"
    if f in ("stat_less_than", "stat_more_than"):
        return f"with {'less' if f == 'stat_less_than' else 'more'} {a[0]} than {_selector(a[1])}"
    if f == "among_them":
        return "among them"
    if f == "paired_to":
        return f"{a[0]} to {_selector(a[1])}"
    if f == "related_to":
        return f"{a[0]} {_selector(a[1])}"
    if f == "related_from":
        return f"{_selector(a[0])} {'are' if _is_plural(a[0]) else 'is'} {a[1]}"
    if f == "destroyer_of":
        return "that destroyed " + _selector(a[0])
    if f == "host_of_this":
        return "this is attached to"
    if f == "that_is":
        return "that is " + _state(a[0])
    if f == "that_is_not":
        return "that is not " + _state(a[0])
    if f in ("at_or_ahead", "behind", "ahead_of", "at_counter"):
        words = {"at_or_ahead": "at or ahead of", "behind": "behind",
                 "ahead_of": "ahead of", "at_counter": "at"}[f]
        return f"{words} {_possessive(a[0])} {a[1]}"
    if f in ("ahead_of_card", "behind_card"):
        return f"{'ahead of' if f == 'ahead_of_card' else 'behind'} {_selector(a[0])}"
    if f == "counter_reaches_stat":
        return f"with as many {a[0]} as its {a[1]}"
    if f == "total_budget":
        return f"with a total {a[0]} of {_amount(a[1])}"
    if f == "that_can_by":
        return f"that can be {a[0]} by it"
    if f == "that_can":
        return "that can be " + a[0]
    if f == "that_can_act":
        return "that can " + a[0]
    if f == "at_random":
        return "at random"
    if f == "of_your_choice":
        return "of your choice"
    if f == "of_their_choice":
        return "of their choice"
    if f in ("with_timing", "without_timing"):
        return f"{f.split('_')[0]} a {_selector(a[0])} ability"
    if f in ("shares", "shares_none"):
        verb = ("share" if plural else "shares") if f == "shares" else \
            ("don't share" if plural else "doesn't share")
        article = "an" if a[0][:1].lower() in "aeiou" else "a"
        return f"that {verb} {article} {a[0]} with {_selector(a[1])}"
    if f == "unless_does":
        who, step = a
        if isinstance(step, ast.VerbUse):
            text = _verb_use(step)
            first = text.split(" ")[0]
            if _verb_for(who, "x") != "x":          # "your Rival Mills 2"
                text = third_person(first) + text[len(first):]
        else:
            text = f"{_verb_for(who, 'discard')} {_selector(step.args[0])}"
        return f"unless {_subject(who)} {text}"
    if f == "unless_pays":
        return f"unless {_does(a[0], 'pay')} {_amount(a[1])} {a[2]}"
    if f == "unique_title_free":
        return f"unless {_does(a[0], 'control')} its unique title"
    raise TypeError(f)


def _stat_comparison(c: ast.Comparison) -> str:
    n, stat = c.args  # the transformer puts the amount first
    return {"stat_at_least": f"{_amount(n)} or more {stat}",
            "stat_at_most": f"{_amount(n)} or less {stat}",
            "stat_exactly": f"{stat} {_amount(n)}"}[c.form]


def _measure(m: ast.Measure) -> str:
    f, a = m.form, m.args
    if f == "its_stat":
        return f"its {a[0]}"
    if f == "counter_measure":
        return f"{_possessive(a[0])} {a[1]}"
    if f == "total_stat":
        return f"the total {a[0]} of {_selector(a[1])}"
    if f == "shared_counter":
        return f"the {a[0]}"
    if f == "stat_of":
        return f"the {a[0]} of {_selector(a[1])}"
    if f in ("constant", "excess"):
        return str(a[0]) if a else "the excess"
    if f in ("plus", "minus"):
        return f"{_measure(a[0])} {f} {_measure(a[1])}"
    if f in ("twice", "half_up", "half_down"):
        return f"twice {_measure(a[0])}" if f == "twice" else \
            f"half {_measure(a[0])} rounded {f[5:]}"
    if f in ("greater_of", "lesser_of"):
        return f"the {f[:-3]} of {_measure(a[0])} and {_measure(a[1])}"
    return "the number of " + counted_text(a[0])


def counted_text(counted) -> str:
    """What "for each" and "the number of" count: cards, or the counters on
    cards ("Growth on it")."""
    if isinstance(counted, ast.Node) and counted.form == "counters_on":
        counter, cards = counted.args
        return f"{counter if isinstance(counter, str) else 'damage'} on {_selector(cards)}"
    return _selector(counted)


def _player(p: ast.Player) -> str:      # "a player with 20 or more lore": a comparison
    return f"a player with {_comparison(p.args[0])} {p.args[1]}" \
        if p.form == "a_player_with" else _named_player(p)


def _subject(player: ast.Player) -> str:
    """A player as the subject of a step: "they" for the player a rule or a
    trigger named ("If a player controls no Creatures, they lose the game";
    "that player" would need "loses"), else as anywhere."""
    return "they" if player.form == "that_player" else _player(player)


def _does(player: ast.Player, verb: str) -> str:
    """A player and a verb agreeing: "you control", "your Rival has", "they
    are" (the player a rule or a trigger named: "they", never "that player
    are")."""
    return f"{_subject(player)} {_verb_for(player, verb)}"


def _amount(n) -> str:
    if isinstance(n, ast.Measure):
        return _measure(n)
    if isinstance(n, ast.Node) and n.form == "event_amount":
        return "that many" if n.args == ("many",) else "that much"
    return str(n)


render_terms.SET_SUBJECTS.update({
    "each_with_counter": lambda p: f"each player with {_comparison(p.args[0])} {p.args[1]}",
    "each_with_cards": lambda p: f"each player with {_selector(p.args[0])}",
})
