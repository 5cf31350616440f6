"""Conditions: "If you control a Being", "If your deck has no cards", "If
you do" compiled to tests of ``(machine, frame)``; and the players a set
subject names ("Each player with no cards in hand", "Each player with the
most Bid"), those a condition holds for.
"""

from __future__ import annotations

from typing import Callable

import attrs

from interpreter.compiler.players import (compile_owner, compile_player, compile_zone,
                                          is_opponent_ref)
from interpreter.compiler.program import unsupported
from interpreter.compiler.selection import Selection
from interpreter.compiler.selectors import (_qualifier, _state_test, compile_amount,
                                           compile_measure, compile_selector)
from interpreter.language import ast


def compile_condition(cond: ast.Condition) -> Callable:
    form = cond.form
    if form in ("you_do", "they_do"):
        return lambda m, f: bool(f.locals.get("did", False))
    if form in ("you_dont", "they_dont"):
        return lambda m, f: not f.locals.get("did", False)
    if form in ("heads", "tails"):
        # "If heads": the last coin this text flipped (none flipped: false)
        return lambda m, f, side=form: f.locals.get("#coin") == side
    if form == "controls":
        who = compile_player(cond.args[0])
        selection = compile_selector(cond.args[1], who)
        if is_opponent_ref(cond.args[0]):
            # "If your opponent controls ...": any opponent, unless one is chosen
            return _count_test(selection, lambda m, f, c: m.is_opponent(
                f, m.state.cards[c].controller))
        if cond.args[0].form == "an_opponent":
            # "If an opponent controls ...": any of them
            return _count_test(selection, lambda m, f, c: m.state.cards[c].controller
                               != f.locals["you"])
        return _count_test(selection, lambda m, f, c: m.state.cards[c].controller == who(m, f))
    if form in ("has_more_counter", "has_more_cards", "controls_more"):
        return _one_against_another(cond)
    if form == "has_cards":
        who = compile_player(cond.args[0])
        selection = compile_selector(_their_own_zones(cond.args[1]), who)
        return _count_test(selection, None)
    if form == "counter_is":
        owner = compile_owner(cond.args[0], lambda m, f: f.locals["you"])
        name, comparison = cond.args[1], cond.args[2]
        test = _compare(comparison, lambda m, f: m.player_count(owner(m, f), name), name)
        return lambda m, f: owner(m, f) is not None and test(m, f)
    if form == "zone_has":
        # "the turn player's deck has no cards"
        zone = compile_zone(cond.args[0], lambda m, f: f.locals["you"])
        selection = compile_selector(cond.args[1], lambda m, f: f.locals["you"],
                                     default_zone=zone)
        return _count_test(selection, None)
    if form == "has_counter":
        who = compile_player(cond.args[0])
        comparison, name = cond.args[1], cond.args[2]
        test = _compare(comparison, lambda m, f: m.player_count(who(m, f), name))
        # "If the player with the most Points has ...": false when no one is
        return lambda m, f: who(m, f) is not None and test(m, f)
    if form in ("is_state", "is_not_state") and cond.args[1].form == "is_period":
        # "as long as it is your turn": whose turn it is, not a card's state
        possessive, period = cond.args[1].args
        during = period_test(ast.PeriodRef(possessive.form, (period,), possessive.span))
        return during if form == "is_state" else (lambda m, f: not during(m, f))
    if form == "is_state":
        return _of_cards(cond, _state_test(cond.args[1], lambda m, f: f.locals["you"]))
    if form == "is_not_state":
        test = _state_test(cond.args[1], lambda m, f: f.locals["you"])
        return _of_cards(cond, lambda m, f, c: not test(m, f, c))
    if form == "underwent":
        # "If that Being is destroyed": the card came to be where it is by
        # that event (it is logged after the move; nothing has moved it since)
        past = cond.args[1]
        name = (past.args[0] if past.form == "past_event" else past.form).lower()
        return _of_cards(cond, lambda m, f, c: m.arrived_by(c, name))
    if form == "no_moves_left":
        # a player locked out of the current "Players alternate moves" window
        who = compile_player(cond.args[0])
        return lambda m, f: who(m, f) in m.state.no_moves
    if form == "no_most":
        counter = cond.args[0]
        return lambda m, f: m.player_with_most(counter) is None
    if form in ("is_player", "is_not_player"):
        # "If you are not the player with the most Points" (nobody on a tie)
        first, second = compile_player(cond.args[0]), compile_player(cond.args[1])
        same = form == "is_player"
        return lambda m, f: (first(m, f) == second(m, f)) == same
    if form == "player_count":
        # "If the game has 3 or more players": the players it began with
        return _compare(cond.args[0], lambda m, f: m.state.players)
    if form == "there_are":
        # "If there are 2 or more Traps at this Room"
        return _count_test(compile_selector(cond.args[0], lambda m, f: f.locals["you"]), None)
    if form in ("card_has_keyword", "card_lacks_keyword"):
        # "If the attacking card doesn't have <BOLD>": printed or given
        keyword, wanted = cond.args[1].form, form == "card_has_keyword"
        return _of_cards(cond, lambda m, f, c: bool(m.has_keyword(c, keyword)) == wanted)
    if form in CARD_HAS:
        # "if it has 50 or less AP": the stat of the card named, now; "If
        # this has 1 or more damage" (no damage, damage on it): a counter
        # on it -- the test of the selector's "with ..." on that card
        measured = cond.args[1]
        if form == "card_has_any_counter":      # "damage on it": 1 or more
            measured = ast.Comparison("stat_at_least", (1, measured), cond.span)
        _zone, test = _qualifier(ast.Qualifier(CARD_HAS[form], (measured,), cond.span),
                                 lambda m, f: f.locals["you"])
        return _of_cards(cond, test)
    raise unsupported(cond, f'the condition "{form.replace("_", " ")}"')


def _of_cards(cond: ast.Condition, test: Callable) -> Callable:
    """A condition about the cards its subject names, held as the subject's
    quantity says: the card named ("If this is asleep", "If that Being is
    destroyed"); one or more ("If a creature you control has 1 or more
    damage"); that many or more, or no more ("If 2 Creatures you control are
    exhausted"); none ("If no creature you control is asleep"); every one,
    and there is one ("If all creatures you control are asleep", "If those
    Creatures have Flying")."""
    node = cond.args[0]
    selection = compile_selector(node, lambda m, f: f.locals["you"])
    if _names_every_one(node):
        def every(m, f) -> bool:
            cards = selection.candidates(m, f)
            return bool(cards) and all(test(m, f, c) for c in cards)
        return every
    if isinstance(selection.how, tuple) and selection.how[0] in ("up to", "random"):
        raise unsupported(cond, 'a condition on "up to" or random cards (say "a", a '
                          'number, "no" or "all")')
    return _count_test(selection, test)


def _names_every_one(node) -> bool:
    """ "all creatures you control", "each Creature", "those Creatures",
    "your Creatures": the condition is about each of them ("your Creature":
    one or more)."""
    if not isinstance(node, ast.Selector):
        return False
    if node.form in ("them", "those", "every"):
        return True
    if node.form == "owned":
        return any(isinstance(a, ast.Noun) and a.plural for a in node.args)
    return node.form == "some" and node.args[0].form in ("each", "all")


def _their_own_zones(selector):
    """ "If you have no cards in hand": the hand is that player's own (a
    bare zone elsewhere, "a Creature in play", is every player's)."""
    if not isinstance(selector, ast.Selector):
        return selector
    args = tuple(
        attrs.evolve(a, args=(attrs.evolve(a.args[0], args=(ast.Possessive(
            "their", (), a.args[0].args[0].span),) + tuple(a.args[0].args[1:])),))
        if isinstance(a, ast.Qualifier) and a.form in ("located_in", "taken_from")
        and a.args[0].form == "zone_ref" and a.args[0].args[0].form == "bare" else a
        for a in selector.args)
    return attrs.evolve(selector, args=args)


def _one_against_another(cond: ast.Condition) -> Callable:
    """ "If you have more Life than your Rival" (a counter), "If your Rival
    has more cards in hand than you" (the cards the words name for each:
    "in hand" is each one's own), "If you control fewer Creatures than your
    Rival" (those each controls): strictly more, or strictly fewer."""
    subject, more, what, other = cond.args
    players = compile_player(subject), compile_player(other)
    if cond.form == "has_more_counter":
        def amount(m, f, who):
            return m.player_count(who(m, f), what)
    else:
        what = _their_own_zones(what)
        selections = {who: compile_selector(what, who) for who in players}
        controlled = cond.form == "controls_more"

        def amount(m, f, who):
            player = who(m, f)
            return sum(1 for c in selections[who].candidates(m, f)
                       if not controlled or m.state.cards[c].controller == player)
    first, second = players
    if more.form == "more":
        return lambda m, f: amount(m, f, first) > amount(m, f, second)
    return lambda m, f: amount(m, f, first) < amount(m, f, second)


def _count_test(selection: Selection, extra) -> Callable:
    how = selection.how
    at_least = selection.at_least
    if at_least is not None and (
            how == "one" or (isinstance(how, tuple) and how[0] in ("exactly", "at least"))):
        # "you have a card in your deck", "2 or more Traps", "no creatures":
        # count no further than the number asked
        if how == "one":
            return lambda m, f: at_least(m, f, 1, extra)
        if how == ("exactly", 0):
            return lambda m, f: not at_least(m, f, 1, extra)
        return lambda m, f: at_least(m, f, selection.count(m, f), extra)

    def test(m, f):
        cards = selection.candidates(m, f)
        if extra is not None:
            cards = [c for c in cards if extra(m, f, c)]
        if how == ("exactly", 0):
            return not cards
        if isinstance(how, tuple) and how[0] in ("exactly", "at least"):
            return len(cards) >= selection.count(m, f)
        if isinstance(how, tuple) and how[0] == "at most":
            return len(cards) <= selection.count(m, f)
        return bool(cards)
    return test


def _compare(comparison: ast.Comparison, value: Callable, counter: str | None = None) -> Callable:
    """``counter``: the counter a player's value is of, for "less than theirs"."""
    if comparison.form == "none":
        return lambda m, f: value(m, f) == 0
    if comparison.form in ("less_than_theirs", "greater_than_theirs"):
        if counter is None:
            raise unsupported(comparison, '"theirs" after anything but a player\'s counter')
        # "they": the player a player event's trigger is about ("Whenever your Rival advances")
        def theirs(m, f):
            return m.player_count(f.locals.get("they", f.locals["you"]), counter)
        if comparison.form == "greater_than_theirs":
            return lambda m, f: value(m, f) > theirs(m, f)
        return lambda m, f: value(m, f) < theirs(m, f)
    if comparison.form in ("less_than_counter", "greater_than_counter"):
        owner = compile_owner(comparison.args[0], lambda m, f: f.locals["you"])
        name = comparison.args[1]
        if comparison.form == "greater_than_counter":
            return lambda m, f: value(m, f) > m.player_count(owner(m, f), name)
        return lambda m, f: value(m, f) < m.player_count(owner(m, f), name)
    if comparison.form == "more_than":
        # "your Defenders are more than the number of cards in ...": strictly
        measure = compile_measure(comparison.args[0])
        return lambda m, f: value(m, f) > measure(m, f)
    n = comparison.args[0]
    if not isinstance(n, int):
        # "X or more, where X is ...": a number read as the sentence starts
        amount = compile_amount(n, comparison)
        if comparison.form == "at_least":
            return lambda m, f: value(m, f) >= amount(m, f)
        if comparison.form == "at_most":
            return lambda m, f: value(m, f) <= amount(m, f)
        return lambda m, f: value(m, f) == amount(m, f)
    if comparison.form == "at_least":
        return lambda m, f: value(m, f) >= n
    if comparison.form == "at_most":
        return lambda m, f: value(m, f) <= n
    return lambda m, f: value(m, f) == n


# (node class, form) of what a condition may say and still read only where
# cards are, whose they are, their kinds and statuses ("If a player
# controls no creatures", "has no cards in their prizes")
_PLACES_ONLY = frozenset({
    ("Condition", "has_cards"), ("Condition", "controls"),
    ("Player", "that_player"), ("Player", "you"),
    ("Selector", "some"), ("Noun", "any_cards"), ("Noun", "kind"),
    ("Quantity", "no_count"), ("Quantity", "at_least_count"), ("Quantity", "count"),
    ("Quantity", "one"),
    ("Qualifier", "located_in"), ("Qualifier", "that_is"), ("Qualifier", "that_is_not"),
    ("State", "status"), ("ZoneRef", "zone_ref"), ("Possessive", "their"),
    ("Possessive", "your"),
})


def reads_only_places(condition: ast.Node) -> bool:
    """Whether a condition reads nothing but where cards are, whose they are,
    their kinds and their statuses: the state rules then look at it again
    only after an event that changes one of those, not after every counter
    or period (``Machine.after_step``). Any form not known to be such reads
    anything."""
    return all((type(node).__name__, node.form) in _PLACES_ONLY for node in condition.walk())


def player_set(subject: ast.Player) -> Callable:
    """(machine, frame) -> the players a set subject names, in seat order."""
    if subject.form == "those_players":
        return lambda m, f: f.locals.get("#those", ())
    if subject.form in ("each_with_counter", "each_with_cards"):
        # "Each player with no cards in hand": those the words hold for, as
        # the step starts (each asked as "they": their own hand)
        they = ast.Player("that_player", (), subject.span)
        test = compile_condition(
            ast.Condition("has_counter", (they, *subject.args), subject.span)
            if subject.form == "each_with_counter" else
            ast.Condition("has_cards", (they, subject.args[0]), subject.span))

        def holding(m, f):
            before = f.locals.get("they")
            found = []
            for player in m.seat_order():
                f.locals["they"] = player
                if test(m, f):
                    found.append(player)
            f.locals["they"] = before
            if before is None:
                del f.locals["they"]
            return tuple(found)
        return holding
    counter, most = subject.args[0], subject.form == "each_most_counter"
    return lambda m, f: m.players_with_most(counter, most)


# a card's stat or counter in a condition, as the selector's qualifier reads it
CARD_HAS = {"card_has_stat": "with_stat", "card_has_counter": "with_counter",
            "card_has_no_counter": "with_no_counter", "card_has_any_counter": "with_counter"}


def named_card(condition: ast.Condition):
    """The one card a condition is about when the words name it outright
    ("If the defending creature is asleep", "If that card is destroyed"):
    its selection, else None (a player's condition, "If you control a ...",
    or "it" itself)."""
    if condition.form not in ("is_state", "is_not_state", "underwent", "card_has_keyword",
                              "card_lacks_keyword", *CARD_HAS):
        return None
    cards = condition.args[0]
    if not isinstance(cards, ast.Selector) or cards.form == "it":
        return None
    selection = compile_selector(cards, lambda m, f: f.locals["you"])
    return selection if selection.given else None


def period_test(ref) -> Callable:
    """ "During your Rival's turn" / "During your Main phase": whose turn
    it is (its controller's or another's) and, for a period other than the
    turn, that the period is the current phase or step."""
    period, relation = ref.args[0], ref.form
    if relation not in ("your", "rivals", "this"):
        raise unsupported(ref, f'"during" a {relation} period')

    def during(m, f):
        mine = m.state.turn_player == f.locals["you"]
        if (relation == "your" and not mine) or (relation == "rivals" and mine):
            return False
        return period.lower() == "turn" or period in (m.state.period.get("phase"),
                                                      m.state.period.get("step"))
    return during
