"""Players and zones: which player a Player node means, whose zone a
possessive names, and the keys that stand for a player (a modifier's target,
a player's counter kept on a card).

Each compiles to a function of ``(machine, frame)``.
"""

from __future__ import annotations

from typing import Callable

from interpreter.compiler.frames import Frame
from interpreter.compiler.program import unsupported
from interpreter.language import ast


def compile_player(node) -> Callable:
    """Which player a Player node means, as a function of (machine, frame)."""
    if node is None or node.form == "you":
        return lambda m, f: f.locals["you"]
    form = node.form
    if form in ("rival", "each_rival", "an_opponent"):
        # "your opponent": the opponent chosen for this effect, if any (see
        # StepCompiler.choose_opponent), else the only one (the next player)
        return lambda m, f: m.opponent(f)
    if form == "turn_player":
        return lambda m, f: m.state.turn_player
    if form == "their_rival":
        return lambda m, f: m.rival_of(f.locals.get("they", f.locals["you"]))
    if form == "that_player":
        return lambda m, f: f.locals.get("they", f.locals["you"])
    if form == "owner":
        return lambda m, f: m.state.cards[_it_or_this(f)].owner
    if form == "controller":
        return lambda m, f: m.state.cards[_it_or_this(f)].controller
    if form == "next_player":
        def after(m, f):
            player = f.locals.get("they", f.locals["you"])
            return None if player is None else m.next_player(player)
        return after
    if form == "most_counter":
        counter = node.args[0]
        return lambda m, f: m.player_with_most(counter)
    if form == "nth_player":
        return _nth_player(node.args[0])
    if form == "random_player":
        return _random_player(node)
    raise unsupported(node, f'the player "{form.replace("_", " ")}" here')


def _random_player(node) -> Callable:
    """ "A random player chooses ...": a player still in the game, picked
    with the game's random numbers the first time the step asks, and the
    same player for the rest of that step (it may ask again on answering)."""
    key = f"_random{node.span.line}:{node.span.column}" if node.span else "_random"

    def pick(m, f):
        if key not in f.locals:
            alive = [p for p in range(m.state.players) if not m.state.out[p]]
            f.locals[key] = alive[m.state.rng.below(len(alive))]
            m.note(f"Player {f.locals[key] + 1} is picked at random.")
        return f.locals[key]
    return pick


def _nth_player(index: int) -> Callable:
    """ "the second player": counted in seat order from the first player of
    the game (during the setup, the one chosen to go first)."""
    def nth(m, f):
        first = f.locals.get("first", m.state.first_player or 0)
        return (first + index) % m.state.players
    return nth


def is_opponent_ref(node) -> bool:
    """ "your opponent" / "your rival" (a player or a possessive)."""
    # ("each opponent" names every opponent: no one is chosen)
    return (isinstance(node, ast.Player) and node.form == "rival") or \
        (isinstance(node, ast.Possessive) and node.form == "rivals")


def mentions_opponent(*values) -> bool:
    """Whether any of these AST values (nodes or tuples of them) names "your
    opponent" somewhere."""
    return any(is_opponent_ref(n) for n in _nodes(values))


def _nodes(value):
    if isinstance(value, ast.Node):
        yield from value.walk()
    elif isinstance(value, tuple):
        for item in value:
            yield from _nodes(item)


def _it_or_this(frame: Frame) -> int:
    it = frame.locals.get("it")
    if isinstance(it, tuple):
        it = it[0] if it else None
    return it if it is not None else frame.locals["this"]


def compile_owner(possessive, subject: Callable) -> Callable:
    """Whose zone: a Possessive node, with ``subject`` for "their"."""
    form = possessive.form
    if form == "your":
        return lambda m, f: f.locals["you"]
    if form == "rivals":
        return lambda m, f: m.opponent(f)
    if form == "their":
        return subject
    if form == "owners":
        return lambda m, f: m.state.cards[_it_or_this(f)].owner
    if form == "controllers":
        return lambda m, f: m.state.cards[_it_or_this(f)].controller
    if form == "turn_players":
        return lambda m, f: m.state.turn_player
    if form == "nth_players":
        return _nth_player(possessive.args[0])
    if form == "the":
        return lambda m, f: -1
    if form == "bare":
        # "Put it into play": the zone of the player doing the step
        return subject
    raise unsupported(possessive, f'"{form}" zones')


def compile_zone(zone: ast.ZoneRef, subject: Callable) -> Callable:
    """(machine, frame) -> zone key."""
    if zone.form == "zone_slot":
        raise unsupported(zone, "a verb slot outside a verb")
    possessive, name = zone.args
    # "Return it to the battlefield": a zone of each player's is the one of
    # the player doing the step, as "Put it into play" is
    owner = subject if possessive.form == "the" else compile_owner(possessive, subject)

    def key(m, f):
        decl = m.rules.zones[name]
        return (name, -1 if decl.scope == "shared" else owner(m, f))
    return key


def _they_or_you(m, f):
    return f.locals.get("they", f.locals["you"])


def counter_on_card(counter: str, player: int) -> str:
    """Where a card keeps one player's counters of a counter "on cards, per
    player" (a card counter of its own: "Progress Marker of player 2")."""
    return f"{counter} of player {player + 1}"


def player_target(player: int) -> int:
    """A modifier's target for a player rather than a card: card ids are 0 or
    more, so a player is a negative number."""
    return -1 - player


def unnamed_that_player(resolution) -> ast.Player | None:
    """The first "that player" / "they" in a card's effect before any step
    names a player ("Return a Creature to its owner's hand. That player
    discards a card."): nothing made anyone "they", so it would be you,
    which is not what it reads. None if every one has a player before it."""
    named = False
    for sentence in resolution:
        for link in sentence.args:
            item = link.args[0]
            if not isinstance(item, ast.Step):
                continue
            subject = item.args[0] if item.form in ("act", "player_verb_step") else None
            own = isinstance(subject, ast.Player) and subject.form != "that_player"
            if not (named or own):
                found = next((n for n in ast.walk_all(item.args) if isinstance(n, ast.Player)
                              and n.form == "that_player"), None)
                if found is not None:
                    return found
            # a step with a player written doing it names them "they" for
            # the steps after it; so does one that chooses a player
            named = named or own or (
                item.form == "act" and item.args[2].form == "choose_player")
    return None
