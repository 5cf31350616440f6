"""How players, zones, periods and durations read in canonical card text
(the words :mod:`interpreter.language.render` puts around them)."""

from __future__ import annotations

from interpreter.language import ast
from interpreter.language.vocabulary import plural, third_person


_ORDINALS = ("first", "second", "third", "fourth")

# Players named by a comparison or cards ("each player with no cards in
# hand"): rendered by render_selectors, which imports this module and fills
# this table when it is imported
SET_SUBJECTS: dict = {}


def _player(p: ast.Player) -> str:
    if p.form in ("most_counter", "each_most_counter", "each_not_most_counter"):
        return {"most_counter": "the player with", "each_most_counter": "each player with",
                "each_not_most_counter": "each player without"}[p.form] + \
            f" the most {p.args[0]}"
    if p.form == "nth_player":
        return f"the {_ORDINALS[p.args[0]]} player"
    if p.form in SET_SUBJECTS:
        return SET_SUBJECTS[p.form](p)
    return {
        "you": "you", "rival": "your Rival", "each_player": "each player",
        "each_rival": "each rival", "an_opponent": "an opponent",
        "turn_player": "the turn player",
        "their_rival": "their Rival",
        "that_player": "that player", "any_player": "a player",
        "random_player": "a random player",
        "owner": "its owner", "controller": "its controller",
        "player_slot": "{player}", "next_player": "the next player",
        # the players of a set subject, for a step after theirs (ast.with_subject)
        "those_players": "those players",
    }[p.form]


def _possessive(p: ast.Possessive) -> str:
    if p.form == "nth_players":
        return f"the {_ORDINALS[p.args[0]]} player's"
    return {
        "your": "your", "rivals": "your Rival's", "their": "their",
        "owners": "its owner's", "controllers": "its controller's",
        "each_players": "each player's", "turn_players": "the turn player's",
        "the": "the", "a": "a",
    }[p.form]


# the owners' zones of several cards: "Return 2 Creatures to their owners' hands"
_THEIR_OWNERS = {"owners": "their owners'", "controllers": "their controllers'"}


def _zone(z, several: bool = False) -> str:
    """A zone; ``several``: the zone of each of several cards moved there
    ("their owners' hands", as the parser also reads it)."""
    if z.form == "zone_slot":
        return z.args[0]
    if z.args[0].form == "bare":
        return z.args[1]
    if several and z.args[0].form in _THEIR_OWNERS:
        return f"{_THEIR_OWNERS[z.args[0].form]} {plural(z.args[1])}"
    return f"{_possessive(z.args[0])} {z.args[1]}"


def _period_ref(p: ast.PeriodRef) -> str:
    word = p.args[0]
    return {"this": f"this {word}", "the": f"the {word}", "your": f"your {word}",
            "each": f"each {word}",
            "rivals": f"your Rival's {word}", "next": f"the next {word}",
            "your_next": f"your next {word}", "rivals_next": f"your Rival's next {word}",
            "controllers_next": f"its controller's next {word}"}[p.form]


def _duration(d: ast.Duration) -> str:
    f, a = d.form, d.args
    if f == "until_end":
        return "until the end of " + _period_ref(a[0])
    if f == "until":
        return "until " + _period_ref(a[0])
    if f == "during_period":
        return _period_ref(a[0])
    if f == "rest_of":
        return "for the rest of " + _period_ref(a[0])
    if f == "until_after_action":
        return f"until after {_possessive(a[0])} next action"
    raise TypeError(f)


def _stat_change(c: ast.StatChange) -> str:
    if c.form == "stat_pair":               # "+1/+1"
        return "/".join(n if isinstance(n, str) else f"{'+' if n >= 0 else '-'}{abs(n)}"
                        for n in c.args)
    n, stat = c.args
    if n in ("+X", "-X"):
        return f"{n} {stat}"              # "gets +X power, where X is ..."
    if not isinstance(n, int):
        return f"+{n} {stat}"             # "+{n}" in a keyword's definition
    return f"{'+' if n >= 0 else '-'}{abs(n)} {stat}"


def _capitalize(text: str) -> str:
    return text[:1].upper() + text[1:]


def _verb_for(player: ast.Player, verb: str) -> str:
    """'you control', 'your Rival controls'."""
    if player.form in ("you", "that_player") or player.form == "player_slot":
        return "are" if verb == "be" else verb
    return {"have": "has", "be": "is"}.get(verb) or third_person(verb)


def _participle(p) -> str:
    if isinstance(p, ast.EventAction):
        if p.form in ("game_participle", "event_participle", "past_event"):
            return p.args[0]
        return p.form.replace("_", " ")
    return str(p)


def _last_number(args) -> int | None:
    for a in reversed(args):
        if isinstance(a, int):
            return a
    return None
