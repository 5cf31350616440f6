"""Modifiers: what a statement about cards changes and for how long.

:func:`statement_changes` gives the (kind, name, amount) modifiers of a
statement ("gets +1 AP", "has <FLYING>", "costs 1 less", "can't attack");
:func:`register_capability` compiles once what a "can't" forbids;
:func:`compile_duration` says when a modifier ends ("until the end of
turn").
"""

from __future__ import annotations

from typing import Callable

import attrs

from interpreter.compiler.compiled import next_in_turn_of
from interpreter.compiler.players import _it_or_this, compile_owner
from interpreter.compiler.program import Unsupported, suffix_words, unsupported
from interpreter.compiler.selectors import compile_selector
from interpreter.compiler.verb_slots import keyword_instance
from interpreter.errors import Problem
from interpreter.language import ast
from interpreter.language.joined import JOINED
from interpreter.language.render import _capability, _statement


# "Prevent all damage that would be dealt to X": a reduction no damage outlasts
ALL_DAMAGE = 1 << 30


def _paired_changes(change: ast.StatChange, game) -> list[tuple[int | str, str]]:
    """ "+1/+1": +1 to each of the two stats the rules file writes together
    ("stat toughness: number, written after power")."""
    pair = game.rules.stat_pair if game is not None else None
    if pair is None:
        raise unsupported(change, '"+N/+N" in a game whose rules file writes no two stats '
                          'together', suggestion='"+1 power and +1 toughness" (the stats by '
                          'name), or in the rules file: "stat toughness: number, written after '
                          'power"')
    return [(amount, stat) for stat, amount in zip(pair, change.args)]


def statement_changes(statement: ast.Statement, game=None, named_x: bool = False
                      ) -> list[tuple]:
    """(kind, name, amount) modifiers a statement makes: stat changes,
    keywords, prohibitions and permissions. A prohibition's meaning is
    registered with ``game`` (see ``compile_capability``). ``named_x``: a
    step whose sentence names X ("where X is ..."), so a stat change of
    "+X" / "-X" is read as the step happens (the amount stays that word)."""
    form = statement.form
    if form == "cannot" and game is not None:
        register_capability(game, statement.args[0])
    if form == "gets":
        out = []
        for change in statement.args:
            if isinstance(change, ast.KeywordUse):
                # "... and has Double Strike" joined to the change
                out.extend(statement_changes(
                    ast.Statement("has_keyword", (change,), change.span), game))
                continue
            paired = change.form == "stat_pair"      # "+1/+1", "+X/+0"
            for amount, stat in _paired_changes(change, game) if paired else [change.args]:
                if amount in ("+X", "-X"):
                    if not named_x:
                        raise unsupported(change, f'"{amount} {stat}" with no "where X is ..." '
                                          'in its sentence', suggestion=(
                                              'say what X is ("..., where X is the number of '
                                              f'...") or count: "{amount[0]}1 {stat} for each ..."'))
                elif not isinstance(amount, int):
                    raise unsupported(change, f'"{amount}" outside the definition of a keyword '
                                      'that takes a number')
                out.append(("stat", stat, amount))
        return out
    if form == "has_keyword":
        use = statement.args[0]
        keyword = use.form
        # "gains Challenger +2": the keyword, and that value of it (whose
        # abilities the card is lent: see compiler.game._keyword_cards)
        if use.args and not all(isinstance(a, int) for a in use.args):
            raise unsupported(statement, f'giving "{keyword}" with a number read from the game')
        instance = keyword_instance(use) if use.args else keyword
        why = game.ungrantable_keywords.get(instance) if game is not None else None
        if why is not None:
            raise unsupported(statement, f'giving "{instance}" by an effect ({why})')
        if instance != keyword:
            return [("keyword", keyword, 1), ("keyword", instance, 1)]
        return [("keyword", keyword, 1)]
    if form == "reduces_damage":
        amount = statement.args[0]
        if amount == "all":
            amount = ALL_DAMAGE          # "Prevent all damage ...": more than any amount
        if not isinstance(amount, int):
            raise unsupported(statement, f'damage reduced by "{amount}"')
        if game is not None:
            game.reduces_damage = True      # damage to cards looks for it
        return [("reduce", "damage", amount)]
    if form == "loses_keyword":
        return [("lost keyword", statement.args[0].form, 1)]
    if form in ("costs_less", "costs_more"):
        # a change to the card's cost in a counter (see Machine.cost_of)
        amount, counter = statement.args
        if not isinstance(amount, int):
            raise unsupported(statement, "a cost change of a varying amount")
        return [("cost", counter, -amount if form == "costs_less" else amount)]
    if form == "must" and game is not None:
        register_requirement(game, statement)
    if form == "can" and game is not None:
        register_allowance(game, statement)
    if form in ("cannot", "can", "must"):
        return [(form, _capability(statement.args[0]), 1)]
    if form == "becomes" and statement.args[0].form == "status":
        # "it is fresh until your next turn": a status kept as a modifier
        return [("status", statement.args[0].args[0], 1)]
    if form in ("relates", "no_longer_relating", "no_longer_role"):
        raise unsupported(statement, "a relation or a role with a duration (a relation "
                          "lasts until it is ended or either card changes zone)")
    if form == "becomes":
        # "It is now attached to a Character": a state only a step brings about
        becoming = f'a card becoming "{_statement(statement, False)}"'
        if statement.args[0].form != "attached_state":
            raise unsupported(statement, becoming)
        raise Unsupported(Problem(
            "E801", f"the engine cannot run {becoming}", getattr(statement, "span", None),
            suggestion='a step attaches a card: "Attach it to a Character"'))
    raise unsupported(statement, f'a card becoming "{form}"')


# (joined item, the step before it) where the item is that step again
_AGAIN = {(form, action) for form, joined in JOINED.items() for action in joined.repeats}

# items that only join the step before them, when none is there to join:
# what check says (at the item)
JOINED_ONLY = {form: joined.alone for form, joined in JOINED.items() if joined.alone}


def joined_stat_changes(sentence: ast.Sentence) -> ast.Sentence:
    """ "This gets +2 Attack and +2 Health", "Give it +2 Attack and +2
    Health": a stat change after "and" joins the change before it. "Gain 1
    Mana and 1 Life", "Your Rival loses 3 Life and 1 Mana", "Add 1 A to X
    and 1 B to each Y": an amount of a counter after "and" is the same step
    again for that counter (after an optional step: only if the player did
    it)."""
    links = list(sentence.args)
    index = 1
    while index < len(links):
        item, before = links[index].args[0], links[index - 1].args[0]
        if isinstance(item, ast.Modifier) and isinstance(before, ast.Step) and \
                before.form == "act" and (item.form, before.args[2].form) in _AGAIN:
            subject, optional, action, suffixes = before.args
            # "... and each player": the same amount, to the players
            args = action.args[:-1] + tuple(item.args) if item.form == "more_player" \
                else tuple(item.args)
            if args and isinstance(args[-1], ast.Suffix):
                # "... and the rest on the bottom of your deck in any order"
                suffixes, args = tuple(suffixes) + args[-1:], args[:-1]
            again = attrs.evolve(before, args=(
                subject, False, attrs.evolve(action, args=args), suffixes))
            links[index] = attrs.evolve(links[index], form="then" if optional else "and",
                                        args=(again,))
            index += 1
            continue
        if isinstance(item, ast.Modifier) and item.form in ("more_stat", "more_keyword",
                                                           "more_stat_each") \
                and isinstance(before, ast.Step) and before.form == "state_change" and \
                before.args[1].form == "gets":
            selector, statement, suffixes = before.args
            joined, lasting = item.args[:1], item.args[1:]
            statement = attrs.evolve(statement, args=statement.args + joined)
            if item.form == "more_stat_each":   # "... and +1 toughness for each Growth on it"
                suffixes = tuple(suffixes) + (ast.Suffix("for_each_suffix", lasting, item.span),)
            elif lasting:       # "... and has Double Strike until the end of turn"
                suffixes = tuple(suffixes) + (ast.Suffix("lasting", lasting, item.span),)
            links[index - 1] = attrs.evolve(links[index - 1], args=(
                attrs.evolve(before, args=(selector, statement, suffixes)),))
            del links[index]
            continue
        if isinstance(item, ast.Modifier) and item.form in ("more_stat", "more_keyword") \
                and isinstance(before, ast.Step) and before.form == "state_change":
            # "This counts as red and has <BOLD> until the end of the Move":
            # the same card gets the change too, for the same while
            selector, statement, suffixes = before.args
            joined, lasting = item.args[:1], item.args[1:]
            if lasting and not any(s.form == "lasting" for s in suffixes):
                suffixes = tuple(suffixes) + (ast.Suffix("lasting", lasting, item.span),)
                links[index - 1] = attrs.evolve(links[index - 1], args=(
                    attrs.evolve(before, args=(selector, statement, suffixes)),))
            gets = ast.Statement("gets", tuple(joined), item.span)
            links[index] = attrs.evolve(links[index], args=(
                ast.Step("state_change", (selector, gets, suffixes), item.span),))
        index += 1
    return attrs.evolve(sentence, args=tuple(links))


def capability_name(capability: ast.Capability) -> str:
    return _capability(capability)


def register_capability(game, capability: ast.Capability) -> str:
    """Compile once what a "can't" forbids, keyed by its canonical text:
    (verb, test of its object or None). An action is forbidden when its
    name starts with the verb ("can't attack" forbids the action "attack"
    with that card); "can't be destroyed" stops the operation itself."""
    name = capability_name(capability)
    if str(capability.args[0] if capability.args else "").lower() in ("be chosen",
                                                                       "be targeted"):
        game.limits_choosing = True
    if name not in game.capabilities:
        if capability.form == "be_participle":
            # lower case, as what is done is asked ("be Restricted": a
            # game's word, spelt as the rules file spells it)
            game.capabilities[name] = ((name.split(" ")[0] + " " + capability.args[0]).lower(),
                                       None)
        elif capability.form == "act_by_player":
            # "can't be chosen by your opponents": the player choosing is
            # passed as -1 - player (see Views.forbidden's "by")
            verb, who = str(capability.args[0]).lower(), capability.args[1]
            if verb not in ("be chosen", "be targeted") or who.form not in (
                    "each_rival", "you", "each_player"):
                raise unsupported(capability, f'"{verb} by" a player (only "be chosen by '
                                  'your opponents" or "by you")')
            game.capabilities[name] = (verb, None)
            game.capability_actors[name] = {
                "each_rival": lambda m, f, by: by < 0 and -1 - by != f.locals["you"],
                "you": lambda m, f, by: by < 0 and -1 - by == f.locals["you"],
                "each_player": lambda m, f, by: by < 0}[who.form]
        elif capability.form == "be_participle_by":
            game.capabilities[name] = (("be " + capability.args[0]).lower(), None)
            cards = compile_selector(capability.args[1], lambda m, f: f.locals["you"]).test
            game.capability_actors[name] = (lambda m, f, by, cards=cards:
                                            by is not None and by >= 0 and cards(m, f, by))
        elif capability.form == "pay_counter":
            # "can't pay Mana": no cost in that counter can be paid
            game.capabilities[name] = (name.lower(), None)
            game.forbids_paying = True
        else:
            verb = str(capability.args[0]).lower()
            if verb.endswith("s") and not verb.endswith("ss"):
                verb = verb[:-1]
            target = next((a for a in capability.args[1:] if isinstance(a, ast.Selector)), None)
            test = None
            if target is not None:
                test = compile_selector(target, lambda m, f: f.locals["you"]).test
            game.capabilities[name] = (verb, test)
    return name


def _actions_of(game, statement: ast.Statement) -> list:
    """The game's actions a requirement or an allowance is about: those
    whose name starts with its verb ("must attack": "attack", "attack as
    blue"). None is a check problem: the text would change nothing."""
    capability = statement.args[0]
    verb = game.capabilities[register_capability(game, capability)][0] \
        if capability.form not in ("be_participle", "pay_counter") else None
    found = [a for a in game.rules.actions if verb and a.name.lower().startswith(verb)]
    if not found:
        raise unsupported(statement, f'"{statement.form} {capability_name(capability)}": '
                          "it is not one of the game's actions (its rules file names "
                          "them: action NAME)")
    return found


def register_requirement(game, statement: ast.Statement) -> None:
    """ "This must attack (if able)": while the card can take the action,
    its player is not offered to pass (see Windows.may_pass)."""
    _actions_of(game, statement)
    game.musts.add(capability_name(statement.args[0]))


def register_allowance(game, statement: ast.Statement) -> None:
    """ "This can attack twice each turn": the card may take the action that
    many times in that period, where the action's limit allows fewer. A
    "can" without a number of times would change nothing ("can't" always
    wins, and what no rule forbids is allowed): a check problem."""
    capability = statement.args[0]
    times = next((a for a in capability.args if isinstance(a, ast.Times)), None)
    if times is None:
        raise unsupported(statement, f'"can {capability_name(capability)}" without a number '
                          'of times ("can attack twice each turn"): what no rule forbids is '
                          'allowed already, and a "can\'t" always wins over a "can"')
    period = times.args[-1]
    period = period.args[0] if isinstance(period, ast.PeriodRef) else period
    count = {"once_per_period": 1, "twice_per_period": 2}.get(times.form) or times.args[0]
    if not isinstance(count, int):
        raise unsupported(times, "a varying number of times")
    limited = [a for a in _actions_of(game, statement)
               if a.limit is not None and a.limit[0] == period]
    if not limited:
        raise unsupported(times, f'"{capability_name(capability)}": no action it names has a '
                          f'limit per {period} (limit: once per {period})')
    game.allowances[capability_name(capability)] = (
        game.capabilities[capability_name(capability)][0], count, period)


def compile_lasting(suffixes) -> Callable:
    """(machine, frame, card or None) -> the end of what a step makes last:
    its duration ("until the end of the turn"), else the end of the game.
    Any other suffix is a check problem here."""
    until = None
    for suffix in suffixes:
        if suffix.form == "during_suffix":
            raise unsupported(suffix, '"during ..." after a change joined to another step',
                              'write it as a sentence of its own ("... . During ..., it can\'t be readied.")')
        if suffix.form != "lasting":
            raise unsupported(suffix, f'"{suffix_words(suffix)}" here')
        until = compile_duration(suffix.args[0])
    return until if until is not None else (lambda m, f, card=None: ("game", 0, "end"))


def _next_period_player(relation: str) -> Callable:
    """Whose next period "your next turn", "your Rival's next Upkeep", "its
    controller's next turn" is: (machine, frame, card or None) -> player."""
    def whose(m, f, card=None):
        if relation == "your_next":
            return f.locals["you"]
        if relation == "rivals_next":
            return m.opponent(f)
        card = card if card is not None else _it_or_this(f)
        return m.state.cards[card].controller
    return whose


def compile_duration(duration: ast.Duration) -> Callable:
    """(machine, frame, card the modifier is on or None) -> the modifier's
    end: (period, occurrence, edge)."""
    form = duration.form
    if form == "until_after_action":
        whose = compile_owner(duration.args[0], lambda m, f: f.locals["you"])
        return lambda m, f, card=None: m.next_action_end(whose(m, f))
    ref = duration.args[0]
    period = ref.args[0]
    relation = ref.form

    def occurrence(m, f, edge):
        count = m.state.period_counts.get(period, 0)
        # the turn (and its other name, "called: Round") is always under way
        # (or any period under way: a phase, a step, a player's Move)
        current = period in ("turn", m.rules.turn_name) or period in m.state.period.values()
        if period in ("turn", m.rules.turn_name) and relation in ("your", "rivals") and \
                "you" in f.locals:
            # "your Rival's turn" during your turn (or "your turn" during your
            # Rival's): the next turn, not this one
            mine = m.state.turn_player == f.locals["you"]
            current = mine if relation == "your" else not mine
        if relation == "next" or edge == "start" or not current:
            return count + 1
        return count

    if relation in ("your_next", "controllers_next", "rivals_next"):
        # "until your next turn": the next turn that is yours (the turns in
        # between, in seat order, are the other players'); "until the end of
        # its controller's next turn": of the player controlling the card
        if form not in ("until", "until_end"):
            raise unsupported(duration, f'"next {period}" of a player here')
        edge = "end" if form == "until_end" else "start"
        if period != "turn":
            # "your next Upkeep": the first Upkeep in a turn of that player
            # after the one under way, however many come before it (the
            # occurrence written as the player: ``next_in_turn_of``)
            whose = _next_period_player(relation)

            def in_turn_of(m, f, card=None):
                player = whose(m, f, card)
                under_way = period in m.state.period.values() and \
                    m.state.turn_player == player
                after = m.state.period_counts.get(period, 0) if under_way else 0
                return (period, next_in_turn_of(player, after), edge)
            return in_turn_of

        whose = _next_period_player(relation)

        def yours(m, f, card=None):
            order = m.seat_order()
            you = whose(m, f, card)
            # (the seat order starts at the turn player)
            ahead = order.index(you) if you in order and you != m.state.turn_player \
                else len(order)
            return ("turn", m.state.period_counts.get("turn", 0) + ahead, edge)
        return yours
    if form in ("until_end", "during_period", "rest_of"):
        return lambda m, f, card=None: (period, occurrence(m, f, "end"), "end")
    if form == "until":
        return lambda m, f, card=None: (period, occurrence(m, f, "start"), "start")
    raise unsupported(duration, f'the duration "{form}"')
