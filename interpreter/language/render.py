"""The canonical renderer: AST -> card text.

For every shipped card, ``parse(render(parse(text))) == parse(text)``
(tests/test_roundtrip.py). The output is the canonical spelling: sentence
case, single spaces, one period per sentence, vocabulary words as the rules
file declares them. Each construct's rendering sits in one function below,
in the order of the grammar (grammar/effect.lark).
"""

from __future__ import annotations

import attrs

from interpreter.language import ast
from interpreter.language.joined import AFTER_AND
from interpreter.language.render_terms import (_capitalize, _duration, _participle,
                                                _period_ref, _possessive, _stat_change,
                                                _verb_for, _zone)
from interpreter.language.render_selectors import (_amount, _comparison, _does, _is_plural,
                                                    _keyword, _measure, _noun, _player, _qualifier,
                                                    _selector, _state, _stat_comparison,
                                                    _subject, _target, _verb_use, counted_text)
from interpreter.language.vocabulary import base_of_present, plural, their_for_your, third_person


def render_ability(ability: ast.Ability) -> str:
    if ability.form == "keyword":
        return _keyword(ability.args[0])
    label, conditions, costs, resolution = ability.args
    parts = []
    if conditions or costs:
        # items joined by commas; a modal step ("Choose one — ...") is a
        # sentence of its own
        sentences = [[]]
        subject = None
        for item in (*conditions, *costs):
            if isinstance(item, ast.Step) and item.form == "choose_mode":
                sentences += [[_item(item)], []]
                subject = None
            elif isinstance(item, ast.Modifier) and item.form in (
                    "each_other_half", "only_those_with", "only_those_without"):
                # a part that joined no item before it in its own sentence:
                # after a comma it would join the one before
                sentences += [[_item(item)], []]
                subject = None
            else:
                sentences[-1].append(_joined_step(item, subject))
                if isinstance(item, ast.Step):
                    subject = ast.with_subject(item, subject)[1]
        parts.append(". ".join(_capitalize(", ".join(s)) for s in sentences if s) + ":")
    parts.append(" ".join(_sentence(s) for s in resolution))
    text = " ".join(parts)
    return f"{label}: {text}" if label else text


def mode_text(mode: ast.Sentence) -> str:
    """One mode of "Choose one — ...", as its option reads ("Draw a card")."""
    return _sentence(mode)[:-1]


def _joined_step(item, subject) -> str:
    """An item after others in its sentence: a step that names no player is
    the player's before it ("Your Rival shuffles ..., then draws 3 cards"),
    its verb conjugated for them, no subject written."""
    if isinstance(item, ast.Step) and subject is not None and (
            (item.form == "act" and item.args[0] is None) or item.form == "verb_step"):
        return _step_of(ast.with_subject(item, subject)[0], written=False)
    return _item(item)


def _sentence(sentence: ast.Sentence) -> str:
    out = []
    subject = None
    for link in sentence.args:
        item = _joined_step(link.args[0], subject)
        if isinstance(link.args[0], ast.Step):
            subject = ast.with_subject(link.args[0], subject)[1]
        if isinstance(link.args[0], ast.Condition) and link.args[0].form == "unread_and":
            out.append(" and " + item)          # "If A and <a step>": kept as written
        elif link.form == "first":
            out.append(item)
        elif link.form == "then":
            out.append(", then " + item)
        elif isinstance(link.args[0], ast.Modifier) and link.args[0].form in AFTER_AND:
            out.append(" and " + item)
        else:
            out.append(", " + item)
    text = "".join(out)
    if sentence.form == "then":
        text = "then " + text
    return _capitalize(text) + "."


def _item(item) -> str:
    if isinstance(item, ast.Step):
        return _step(item)
    if isinstance(item, ast.Condition):
        return _condition(item)
    if isinstance(item, ast.StatChange):
        return _stat_change(item)
    if isinstance(item, ast.Modifier) and item.form in ("more_stat", "more_counter",
                                                          "more_keyword"):
        text = {"more_stat": _stat_change, "more_keyword": lambda k: "has " + _keyword(k)}.get(
            item.form, lambda n: f"{_amount(n)} {item.args[1]}")(item.args[0])
        return text + "".join(" " + _duration(d) for d in item.args[1:]
                              if isinstance(d, ast.Duration))
    if isinstance(item, ast.Modifier) and item.form == "more_stat_each":
        return f"{_stat_change(item.args[0])} " \
               f"{_suffix(ast.Suffix('for_each_suffix', item.args[1:], item.span))}"
    if isinstance(item, ast.Modifier) and item.form == "more_object":
        return _selector(item.args[0])      # a card no step before took
    if isinstance(item, ast.Modifier) and item.form == "each_other_half":
        return f"{_selector(item.args[0])} deal damage equal to their {item.args[1]} " \
               "to each other" + _each_other_ways(item.args[2:])
    if isinstance(item, ast.Modifier) and item.form in ("only_those_with", "only_those_without"):
        return _each_other_ways((item,)).lstrip(", ")
    if isinstance(item, ast.Modifier) and item.form == "more_counter_to":
        return f"{_amount(item.args[0])} {item.args[1]} to {_selector(item.args[2])}"
    if isinstance(item, ast.Modifier) and item.form == "more_damage":
        return f"{_amount(item.args[0])} damage to {_target(item.args[1])}"
    if isinstance(item, ast.Modifier) and item.form == "more_player":
        return _player(item.args[0])
    if isinstance(item, ast.Modifier) and item.form == "more_put":
        return f"{_selector(item.args[0])} {_placement(item.args[1])}" + \
            "".join(" " + _suffix(s) for s in item.args[2:])
    if isinstance(item, ast.Modifier):
        if item.form == "where_x":
            return f"where X is {_measure(item.args[0])}"
        return {"paying_all_costs": "paying all costs",
                "without_paying": "without paying its cost"}[item.form]
    raise TypeError(f"cannot render {item!r}")


def _each_other_ways(ways) -> str:
    """ "in an order you choose and the rest to your Rival, only those with
    First Strike" after "... to each other"."""
    out = []
    for way in ways:
        if way.form == "in_chosen_order":
            who = _player(way.args[0])
            out.append(f" in an order {who} {'choose' if who == 'you' else 'chooses'}")
        elif way.form == "rest_beyond":
            out.append(" and the rest to " + _target(way.args[0]))
        else:
            out.append(f", only those {'with' if way.form == 'only_those_with' else 'without'} "
                       + _keyword(way.args[0]))
    return "".join(out)


# ---------------------------------------------------------------- conditions

def _be(subject) -> str:
    return "are" if _is_plural(subject) else "is"


def _have(subject) -> str:
    return "have" if _is_plural(subject) else "has"


def _doesnt(subject) -> str:
    return "don't" if _is_plural(subject) else "doesn't"


def _condition(c: ast.Condition) -> str:
    f, a = c.form, c.args
    simple = {
        "when": lambda: "when " + _event(a[0]) + (" " + _duration(a[1]) if len(a) > 1 else ""),
        "after": lambda: "after " + _event(a[0]),
        "if_": lambda: "if " + _condition(a[0]),
        # "If A and <a step that is no condition>": kept as written (refused)
        "unread_and": lambda: _step(a[0]),
        "otherwise": lambda: "otherwise",
        "next_time_event": lambda: f"the next time {_selector(a[0])} {_event_action(a[1])}"
                                   + (" " + _duration(a[2]) if len(a) > 2 and a[2] else ""),
        "next_time_player": lambda: f"the next time {_player(a[0])} {_player_event(a[1], a[0])}"
                                    + (" " + _duration(a[2]) if len(a) > 2 and a[2] else ""),
        "next_time": lambda: f"the next time {_selector(a[0])} would "
                             f"{_event_action(a[1], base=True)}"
                             + (" " + _duration(a[2]) if len(a) > 2 and a[2] else ""),
        "at_start": lambda: "at the start of " + _period_ref(a[0]),
        "at_end": lambda: "at the end of " + _period_ref(a[0]),
        "once_per": lambda: f"once per {a[0]}",
        "for_duration": lambda: _duration(a[0]),
        "before": lambda: f"before {_player(a[0])} {a[1]}",
        "during": lambda: "during " + _period_ref(a[0]),
        "for_each": lambda: "for each " + _counted(a[0]),
        "while_": lambda: "while " + _condition(a[0]),
        "controls": lambda: f"{_does(a[0], 'control')} {_selector(a[1])}",
        "no_moves_left": lambda: f"{_does(a[0], 'have')} no moves left",
        "has_cards": lambda: f"{_does(a[0], 'have')} {_selector(a[1])}",
        "has_counter": lambda: f"{_does(a[0], 'have')} "
                               f"{_comparison(a[1])} {a[2]}",
        "has_more_counter": lambda: f"{_does(a[0], 'have')} "
                                    f"{'more' if a[1].form == 'more' else 'less'} {a[2]} than "
                                    f"{_player(a[3])}",
        "has_more_cards": lambda: f"{_does(a[0], 'have')} {a[1].form} {_selector(a[2])} than "
                                  f"{_player(a[3])}",
        "controls_more": lambda: f"{_does(a[0], 'control')} {a[1].form} {_selector(a[2])} "
                                 f"than {_player(a[3])}",
        "counter_is": lambda: f"{_possessive(a[0])} {a[1]} is {_comparison(a[2])}",
        "zone_has": lambda: f"{_zone(a[0])} has {_selector(a[1])}",
        "is_state": lambda: f"{_selector(a[0])} {_be(a[0])} {_state(a[1])}",
        "is_not_state": lambda: f"{_selector(a[0])} {_be(a[0])} not {_state(a[1])}",
        "underwent": lambda: f"{_selector(a[0])} {_be(a[0])} {_participle(a[1])}",
        "would": lambda: f"{_selector(a[0])} would {_event_action(a[1], base=True)}",
        "would_player": lambda: f"{_player(a[0])} would " + {
            "pays_more": lambda: f"pay more {a[1].args[0]} than they have",
            "draws_card": lambda: "draw a card" + (
                f" while {_condition(a[1].args[0])}" if a[1].args else ""),
            "does_verb": lambda: _verb_use(a[1].args[0]).lower(),
            "adds_counter": lambda: f"add {_amount(a[1].args[0])} {a[1].args[1]} to "
                                    f"{_selector(a[1].args[2])}"}.get(
            a[1].form, lambda: "be dealt damage")(),
        "there_are": lambda: f"there are {_selector(a[0])}",
        "card_has_keyword": lambda: f"{_selector(a[0])} {_have(a[0])} {_keyword(a[1])}",
        # a stat or a counter of the card: "has 50 or less AP", "has 2 or more Growth"
        **dict.fromkeys(("card_has_stat", "card_has_counter"),
                        lambda: f"{_selector(a[0])} {_have(a[0])} {_stat_comparison(a[1])}"),
        "card_has_no_counter": lambda: f"{_selector(a[0])} {_have(a[0])} no {a[1]}",
        "card_has_any_counter": lambda: f"{_selector(a[0])} {_have(a[0])} {a[1]} on "
                                        + ("them" if _is_plural(a[0]) else "it"),
        "card_lacks_keyword": lambda: f"{_selector(a[0])} {_doesnt(a[0])} have "
                                      f"{_keyword(a[1])}",
        "no_most": lambda: f"no player has the most {a[0]}",
        "player_count": lambda: f"the game has {_comparison(a[0])} players",
        "is_player": lambda: f"{_does(a[0], 'be')} {_player(a[1])}",
        "is_not_player": lambda: f"{_does(a[0], 'be')} not "
                                 f"{_player(a[1])}",
        "you_do": lambda: "you do",
        "you_dont": lambda: "you don't",
        "they_do": lambda: "they do",
        "they_dont": lambda: "they don't",
        "you_cant": lambda: "you can't",
        "heads": lambda: "heads",
        "tails": lambda: "tails",
    }
    return simple[f]()


# ---------------------------------------------------------------- events

def _event(e: ast.Event) -> str:
    if e.form == "card_event":
        return f"{_selector(e.args[0])} {_event_action(e.args[1])}"
    if e.form == "player_event":
        return f"{_player(e.args[0])} {_player_event(e.args[1], e.args[0])}"
    return _participle(e.args[0])


def _event_action(a: ast.EventAction, base: bool = False) -> str:
    f = a.form
    if f == "event_action":
        return ("be " if base else "is ") + _participle(a.args[0])
    if f == "deals_damage":
        text = ("deal" if base else "deals") + " damage"
        return text + (" to " + _target(a.args[0]) if a.args else "")
    if f == "deals_combat_damage":
        text = ("deal" if base else "deals") + " combat damage"
        return text + (" to " + _target(a.args[0]) if a.args else "")
    if f == "prevents_damage":
        return ("prevent" if base else "prevents") + " damage"
    if f == "dealt_damage_event":
        return ("be" if base else "is") + " dealt damage"
    if f in ("moved_into_event", "moved_between_event"):
        return ("be" if base else "is") + " put into " + _zone(a.args[0]) + (
            " from " + _zone(a.args[1]) if len(a.args) > 1 else "")
    if f == "event_from_zone":
        return ("be " if base else "is ") + _participle(a.args[0]) + " from " + _zone(a.args[1])
    if f == "acts":
        return a.args[0] + (" " + _target(a.args[1]) if len(a.args) > 1 else "")
    if f == "acts_from_zone":
        return a.args[0] + " from " + _zone(a.args[1])
    if f == "game_event_verb":
        return base_of_present(a.args[0]) if base else a.args[0]
    if f == "leaves_zone":
        return ("leave " if base else "leaves ") + _zone(a.args[0])
    if f == "enters_zone":
        return ("enter " if base else "enters ") + _zone(a.args[0])
    if f in ("enters_zone_yours", "enters_zone_rivals"):
        return ("enter " if base else "enters ") + _zone(a.args[0]) + (
            " under your control" if f == "enters_zone_yours" else " under your Rival's control")
    return _participle(a)


def _player_event(a: ast.EventAction, player: ast.Player) -> str:
    f = a.form
    s = lambda verb: _verb_for(player, verb)
    if f == "player_draws":
        if a.args:
            n = a.args[0]
            return f"{s('draw')} {_amount(n)} {'card' if n == 1 else 'cards'}"
        return f"{s('draw')} cards"
    if f == "player_plays":
        return f"{s('play')} {_selector(a.args[0])}"
    if f == "player_discards":
        return f"{s('discard')} {_selector(a.args[0])}"
    if f == "player_reveals":
        return f"{s('reveal')} {_selector(a.args[0])}"
    if f == "player_gains":
        return f"{s('gain')} {a.args[0]}"
    if f == "player_loses":
        return f"{s('lose')} {a.args[0]}"
    if f == "player_dealt_damage":
        return f"{s('be')} dealt damage"
    if f == "player_acts":
        return a.args[0] + (" " + _target(a.args[1]) if len(a.args) > 1 else "")
    if f == "player_did":
        # "you cast a Sorcery", "your Rival casts a Sorcery"
        plain, third = a.args[2], a.args[3]
        return f"{plain if _verb_for(player, 'do') == 'do' else third} {_selector(a.args[1])}"
    if f == "player_game_event":
        return a.args[0]
    raise TypeError(f)


# ---------------------------------------------------------------- steps

def _step_of(step: ast.Step, written: bool) -> str:
    """A step with its player, or (``written`` False) its words after the
    player, conjugated for them: "draws 3 cards"."""
    text = _step(step)
    if written:
        return text
    for subject in (_subject(step.args[0]), _player(step.args[0])):
        if text.startswith(subject + " "):
            return text[len(subject) + 1:]
    return text


def _step(step: ast.Step) -> str:
    if step.form == "choose_mode":
        return "choose one \u2014 " + "; or ".join(mode_text(m) for m in step.args)
    if step.form == "each_other":
        return f"{_selector(step.args[0])} and {_selector(step.args[1])} deal damage equal " \
               f"to their {step.args[2]} to each other" + _each_other_ways(step.args[3:])
    if step.form == "act":
        subject, optional, action, suffixes = step.args
        words = []
        if subject is not None:
            words.append(_subject(subject))
        if optional:
            words.append("you may" if subject is None else "may")
        words.append(_action(action, subject if not optional else None))
        words.extend(_suffix(s) for s in suffixes)
        return " ".join(words)
    if step.form == "player_change":
        player, change, suffixes = step.args
        # "that player" kept: "they" before a change is the cards
        return " ".join([_player(player), _statement(change, player.form in (
            "each_player", "each_rival"))] + [_suffix(s) for s in suffixes])
    if step.form == "double_stat":
        selector, stat, suffixes = step.args
        return " ".join([f"double the {stat} of {_selector(selector)}"]
                        + [_suffix(s) for s in suffixes])
    if step.form == "state_change":
        selector, statement, suffixes = step.args
        if statement.form == "reduces_damage" and statement.args[0] == "all":
            return " ".join([f"prevent all damage that would be dealt to {_selector(selector)}"]
                            + [_suffix(s) for s in suffixes])
        if statement.form == "reduces_damage":
            return (f"damage that would be dealt to {_selector(selector)} is reduced by "
                    f"{_amount(statement.args[0])}")
        # "them" as the subject of a change is "they" ("They gain Haste")
        subject = "they" if selector.form == "them" else _selector(selector)
        words = [subject, _statement(statement, _is_plural(selector))]
        words.extend(_suffix(s) for s in suffixes)
        return " ".join(words)
    if step.form == "player_damage_prevented":
        player, *suffixes = step.args
        return " ".join([f"prevent all damage that would be dealt to {_player(player)}"]
                        + [_suffix(s) for s in suffixes])
    if step.form == "combat_damage_prevented":
        return " ".join(["prevent all combat damage that would be dealt"]
                        + [_suffix(s) for s in step.args])
    if step.form == "next_effect_prevented":
        selector, suffixes = step.args
        return " ".join([f"prevent the effect of the next {_selector(selector)}"]
                        + [_suffix(s) for s in suffixes])
    if step.form == "counters_prevented":
        counter, player, selector, *suffixes = step.args
        return " ".join([f"prevent all {plural(counter)} {_player(player)} would add to "
                         f"{_selector(selector)}"] + [_suffix(s) for s in suffixes])
    if step.form == "player_cannot":
        player, capability, *suffixes = step.args
        words = [_player(player), "can't", _capability(capability)]
        words.extend(_suffix(s) for s in suffixes)
        return " ".join(words)
    if step.form == "controls_copy":
        return f"{_does(step.args[0], 'control')} the copy"
    if step.form == "card_verb_step":
        card, use, suffixes = step.args
        text = _verb_use(use)
        first = text.split(" ")[0]          # "Your Runner advances 1 Room"
        words = [_selector(card), third_person(first) + text[len(first):]]
        words.extend(_suffix(s) for s in suffixes)
        return " ".join(words)
    if step.form in ("verb_step", "player_verb_step"):
        if step.form == "player_verb_step":
            player, optional, use, suffixes = step.args
            words = [_subject(player)] + (["may"] if optional else [])
        else:
            optional, use, suffixes = step.args
            words = ["you may"] if optional else []
        text = _verb_use(use)
        if step.form == "player_verb_step" and not optional and \
                player.form not in ("you", "that_player", "player_slot"):
            # "Your Rival Dumps 2"; the verb's own "your" is the subject's:
            # "Your Rival switches their active creature with ..."
            text = _verb_use(attrs.evolve(use, form=" ".join(their_for_your(use.form.split(" ")))))
            first = text.split(" ")[0]
            text = third_person(first) + text[len(first):]
        words.append(text)
        words.extend(_suffix(s) for s in suffixes)
        return " ".join(words)
    raise TypeError(step.form)


def _counted(selector) -> str:
    """What "for each" counts: "Creature destroyed this way" for the cards
    an earlier step brought there by that event."""
    if isinstance(selector, ast.Selector) and selector.form == "the_past":
        past, noun = selector.args
        return f"{_noun(noun)} {_participle(past)} this way"
    return counted_text(selector)


def _suffix(s: ast.Suffix) -> str:
    if s.form == "lasting":
        return _duration(s.args[0])
    if s.form == "for_each_suffix":
        return "for each " + _counted(s.args[0])
    if s.form == "instead":
        return "instead"
    if s.form == "for_free":
        return "for free"
    if s.form == "times_suffix":
        return "that many times"
    if s.form == "one_at_a_time":
        return "one at a time"
    if s.form == "quietly":
        return "without triggering abilities"
    if s.form in ("at_end_suffix", "at_start_suffix"):
        return f"at the {'end' if s.form == 'at_end_suffix' else 'start'} of " \
               f"{_period_ref(s.args[0])}"
    if s.form == "in_any_order":
        return "in any order"
    if s.form == "during_suffix":
        return "during " + _period_ref(s.args[0])
    if s.form == "while_suffix":
        return "while " + _condition(s.args[0])
    if s.form == "if_suffix":
        return "if " + _condition(s.args[0])
    if s.form == "excess_to":
        return f"with excess to {_possessive(s.args[0])} {s.args[1]}"
    if s.form == "rest_to":
        return "and the rest to " + _target(s.args[0])
    raise TypeError(s.form)


# steps whose words are fixed: (the verb conjugated for its player, or None
# for a sentence of its own; the words after it)
_FIXED_STEPS = {
    "prevent_damage": ("prevent", "that damage"), "choose_player": ("choose", "a player"),
    "take_next_turn": ("take", "the next turn"), "win": ("win", "the game"),
    "lose_game": ("lose", "the game"), "repeat": ("repeat", "this"),
    "take_actions": ("take", "actions until they pass"),
    "take_actions_priority": ("take", "actions with priority until all pass in a row"),
    "choose_first_player": (None, "a random player chooses the first player"),
    "alternate_until_passes": (None, "players alternate actions until all pass in a row"),
    "resolve_waiting": (None, "the waiting effects resolve"),
    "any_time_window": (None, "players may respond"),
    "flip_coin": ("flip", "a coin"),
}


def _action(a: ast.Action, subject) -> str:
    third = subject is not None and subject.form not in ("you", "that_player", "player_slot")

    def v(base: str, s_form: str | None = None) -> str:
        if not third:
            return base
        if s_form:
            return s_form
        return third_person(base)

    f, x = a.form, a.args
    if f == "flip_coins":
        return f"{v('flip')} {_amount(x[0])} coins"
    if f in _FIXED_STEPS:
        verb, words = _FIXED_STEPS[f]
        return f"{v(verb)} {words}" if verb else words
    if f == "deal_divided":
        return f"{v('deal')} {_amount(x[0])} damage divided as you choose among {_selector(x[1])}"
    if f == "deal_divided_targets":
        among = f"up to {_amount(x[1])}" if len(x) > 1 else "any number of"
        return f"{v('deal')} {_amount(x[0])} damage divided as you choose among {among} targets"
    if f == "draw":
        n = x[0]
        text = f"{v('draw')} {'a card' if n == 1 else _amount(n) + ' cards'}"
        for arg in x[1:]:       # a zone, a tax ("unless your Rival pays 2 Life")
            text += " " + (_qualifier(arg) if isinstance(arg, ast.Qualifier) else
                           "from " + _zone(arg))
        return text
    if f == "discard":
        return f"{v('discard')} {_selector(x[0])}"
    if f == "discard_down":
        return f"{v('discard')} down to {_amount(x[0])} cards"
    if f == "move":
        return f"{v('move')} {_selector(x[0])} to {_destination(x[1], _is_plural(x[0]))}"
    if f == "put":
        return f"{v('put')} {_selector(x[0])} {_placement(x[1], _is_plural(x[0]))}"
    if f == "put_counter":
        return f"{v('put')} {_amount(x[0])} {x[1]} on {_selector(x[2])}"
    if f == "put_back":
        return f"{v('put')} {_selector(x[0])} back"
    if f == "put_at":
        return f"{v('place')} {_selector(x[0])} {x[1]} in {_zone(x[2])} at {_selector(x[3])}"
    if f == "use":
        return f"{v('use')} {_selector(x[0])}"
    if f == "return_joined":
        return f"{v('return')} {_selector(x[0])} and {_selector(x[1])} to " \
            f"{_destination(x[2], True)}"
    if f == "return":
        return f"{v('return')} {_selector(x[0])} to {_destination(x[1], _is_plural(x[0]))}"
    if f in ("reveal", "reveal_value"):
        return f"{v('reveal')} " + (_selector(x[0]) if f == "reveal" else
                                    f"{_possessive(x[0])} {x[1]}")
    if f in ("choose_value", "choose_secretly"):
        return ("secretly " if f == "choose_secretly" else "") + \
            f"{v('choose')} {_possessive(x[0])} {x[1]} from {_measure(x[2])} to {_measure(x[3])}"
    if f == "look":
        return f"{v('look')} at {_selector(x[0])}"
    if f == "shuffle_cards":
        return f"{v('shuffle')} {_selector(x[0])} into {_zone(x[1])}"
    if f == "shuffle":
        text = f"{v('shuffle')} {_zone(x[0])}"
        return text + (" into " + _zone(x[1]) if len(x) > 1 else "")
    if f == "search":
        return f"{v('search', 'searches')} {_zone(x[0])} for {_selector(x[1])}"
    if f == "add":
        return f"{v('add')} {_selector(x[0])} to {_destination(x[1])}"
    if f == "add_counter":
        return f"{v('add')} {_amount(x[0])} {x[1]} to {_selector(x[2])}"
    if f == "add_counter_again":
        return f"{v('add')} {_amount(x[0])} {x[1]}"
    if f == "remove_counter":
        return f"{v('remove')} {_amount(x[0])} {x[1]} from {_selector(x[2])}"
    if f == "remove_players_counter":
        return f"{v('remove')} {_amount(x[0])} of {_possessive(x[1])} {x[2]} from {_selector(x[3])}"
    if f == "remove_held":
        return f"{v('remove')} {_amount(x[0])} {x[1]} from {_possessive(x[2])} {x[3]}"
    if f == "remove_up_to":
        return f"{v('remove')} up to {_amount(x[0])} {x[1]} from {_selector(x[2])}"
    if f == "remove_all_counters":
        return f"{v('remove')} all {x[0]} from {_selector(x[1])}"
    if f == "create_at":
        face = "".join(f" {a}" for a in x[1:-1])
        return f"{v('create')} {_selector(x[0])}{face} at {_selector(x[-1])}"
    if f == "create":
        where = f" in {_zone(x[1])}" if len(x) > 1 else ""
        return f"{v('create')} {_selector(x[0])}{where}"
    if f == "gain_control":
        return f"{v('gain')} control of {_selector(x[0])}"
    if f == "copy_that_effect":
        return f"{v('copy')} that effect"
    if f == "copy_effect_of":
        return f"{v('copy')} the effect of {_selector(x[0])}"
    if f == "draw_until":
        return f"{v('draw')} until {_does(x[0], 'have')} " \
               f"{_amount(x[1])} cards in hand"
    if f == "compare":
        return f"{v('compare')} {_selector(x[0])} against {_selector(x[1])} by {_measure(x[2])}"
    if f == "draw_measured":
        return f"{v('draw')} cards equal to {_measure(x[0])}"
    if f in ("gain_measured", "lose_measured", "pay_measured"):
        return f"{v(f.split('_')[0])} {x[0]} equal to {_measure(x[1])}"
    if f == "deal_each_measured":
        return f"{v('deal')} damage to {_target(x[0])} equal to {_measure(x[1])}"
    if f == "deal_measured":
        return f"{v('deal')} damage equal to {_measure(x[0])} to {_target(x[1])}"
    if f == "gain_stat_values":
        return f"{v('gain')} the {x[0]} of {_selector(x[1])}"
    if f in ("gain", "lose", "pay"):
        # a tax after it: "loses 3 Life unless they discard a card"
        return f"{v(f)} {_amount(x[0])} {x[1]}" + "".join(" " + _qualifier(q) for q in x[2:])
    if f == "set_counter":
        return f"{v('set')} {_possessive(x[0])} {x[1]} to {_amount(x[2])}"
    if f in ("set_counter_to", "set_counter_stat"):
        return f"{v('set')} {_possessive(x[0])} {x[1]} to " + (
            f"{_possessive(x[2])} {x[3]}" if f == "set_counter_to" else
            f"the {x[2]} of {_selector(x[3])}")
    if f == "deal":
        return f"{v('deal')} {_amount(x[0])} damage to {_target(x[1])}"
    if f in ("destroy", "rest", "exhaust", "choose", "attach"):
        verb = v(f, {"exhaust": "exhausts"}.get(f))
        text = f"{verb} {_selector(x[0])}"
        return text + (" to " + _selector(x[1]) if f == "attach" else "")
    if f in ("ready", "nullify"):
        return f"{v(f, f[:-1] + 'ies')} {_selector(x[0])}"
    if f == "flip":
        return f"{v('flip')} {_selector(x[0])}" + (" " + x[1] if len(x) > 1 else "")
    if f == "play":
        return f"{v('play')} {_selector(x[0])}" + (" " + _placement(x[1]) if len(x) > 1 else "")
    if f == "end_period":
        return f"{v('end')} {_period_ref(x[0])}"
    if f == "alternate_count":
        n = x[0]
        return f"players alternate actions until each has taken {_amount(n)} " \
               f"action{'' if n == 1 else 's'}"
    if f == "alternate_moves":
        return "players alternate moves until all pass in a row" + (
            f" or pass {_amount(x[0])} moves in a row" if x else "")
    if f == "respond":
        names = " or ".join(f'"{n.name}"' for n in x if isinstance(n, ast.CardName))
        return f"{v('respond')} with {names} to {_selector(x[-1])}"
    raise TypeError(f)


def _placement(dest: ast.Destination, several: bool = False) -> str:
    if dest.form in ("to_top", "to_bottom"):
        return "on " + _destination(dest, several)
    if dest.form == "to_card":
        return "on " + _destination(dest)
    return "into " + _destination(dest, several)


def _destination(d: ast.Destination, several: bool = False) -> str:
    """Where cards go; ``several``: the cards moved are several (each to
    "their owners' hands")."""
    f, a = d.form, d.args
    face = (" " + a[1]) if len(a) > 1 and isinstance(a[1], str) else ""
    if f == "to_zone":
        return _zone(a[0], several) + face
    if f == "to_zone_next_to":
        return _zone(a[0], several) + " next to " + _selector(a[1])
    if f == "to_top":
        return "the top of " + _zone(a[0], several) + face
    if f == "to_bottom":
        return "the bottom of " + _zone(a[0], several) + face
    if f == "to_card":
        return _selector(a[0])
    raise TypeError(f)


def _statement(s: ast.Statement, plural: bool) -> str:
    f, a = s.form, s.args
    if f == "gets":
        return ("get " if plural else "gets ") + _stat_change(a[0])
    if f in ("has_keyword", "loses_keyword"):
        verb = ("have" if plural else "has") if f == "has_keyword" else \
            ("lose" if plural else "loses")
        return f"{verb} {_keyword(a[0])}"
    if f in ("cannot", "cannot_unless"):
        return "can't " + _capability(a[0]) + (" unless " + _condition(a[1]) if a[1:] else "")
    if f == "can":
        return "can " + _capability(a[0])
    if f == "must":
        return "must " + _capability(a[0])
    if f == "becomes":
        return ("are " if plural else "is ") + _state(a[0])
    if f in ("no_longer", "no_longer_relating"):
        return ("are" if plural else "is") + f" no longer {a[0]}"
    if f == "no_longer_role":
        return ("are" if plural else "is") + " no longer " + (
            "attacking" if a[0].form == "attacking_adj" else "defending")
    if f == "relates":
        return ("are" if plural else "is") + f" {a[0]} {_selector(a[1])}"
    if f == "card_deals":
        return ("deal " if plural else "deals ") + f"{_amount(a[0])} damage to {_target(a[1])}"
    if f == "card_deals_measured":
        return ("deal " if plural else "deals ") + \
            f"damage equal to {_measure(a[0])} to {_target(a[1])}"
    if f == "card_prevents":
        return ("prevent" if plural else "prevents") + " damage"
    if f == "counts_as":
        return ("count as " if plural else "counts as ") + a[0]
    if f == "becomes_copy":
        return ("become" if plural else "becomes") + " a copy of " + _selector(a[0])
    if f in ("costs_less", "costs_more"):
        return ("cost " if plural else "costs ") + \
            f"{_amount(a[0])} {'less' if f == 'costs_less' else 'more'} {a[1]}"
    raise TypeError(f)


def _capability(c: ast.Capability) -> str:
    if c.form == "pay_counter":
        return f"pay {c.args[0]}"
    if c.form == "act_by_player":
        return f"{c.args[0]} by {'your opponents' if c.args[1].form == 'each_rival' else _player(c.args[1])}"
    if c.form == "be_participle_by":
        return f"be {c.args[0]} by {_selector(c.args[1])}"
    if c.form == "be_participle":
        text = "be " + c.args[0]
        return text + (" " + _times(c.args[1]) if len(c.args) > 1 else "")
    words = [c.args[0]]
    for arg in c.args[1:]:
        if isinstance(arg, ast.Times):
            words.append(_times(arg))
        elif isinstance(arg, (ast.Selector, ast.Player)):
            words.append(_target(arg))
    text = " ".join(words)
    return text


def _times(t: ast.Times) -> str:
    period = t.args[-1]
    tail = _period_ref(period) if isinstance(period, ast.PeriodRef) else f"each {period}"
    if t.form == "times_per":
        return f"{_amount(t.args[0])} times {tail}"
    if t.form == "once_per_period":
        return f"once {tail}"
    return f"twice {tail}"
