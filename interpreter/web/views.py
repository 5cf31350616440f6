"""What the web page draws, as JSON: a table or a replay's step seen from a
seat (or from every seat), built on ``Match.observation`` so that hidden
cards stay hidden exactly as they do for bots and the terminal."""

from __future__ import annotations

from interpreter.engine import Match
from interpreter.tables import decision_heading, option_text, repeats_counted

EVENTS_SHOWN = 40        # the recent events a page lists


def seat_view(match: Match, viewer: int | None) -> dict:
    """The board from ``viewer``'s seat, or from every seat at once (None:
    each player's own hidden cards shown, as a replay's "both" view)."""
    players = match.state.players
    if viewer is None:
        looks = [match.observation(p) for p in range(players)]
        seen = looks[0]
    else:
        seen = match.observation(viewer)
    zones = []
    for key, value in seen["zones"].items():
        name, _, owner = key.partition("/")
        if name.startswith("#"):
            continue        # the engine's own places (outside the game), not the table's
        owner_seat = int(owner) if owner else None
        look = seen if viewer is not None or owner_seat is None else looks[owner_seat]
        cards = look["cards"].get(key)
        count = look["zones"].get(key)
        zones.append({
            "key": key, "name": name, "owner": owner_seat,
            "hidden": isinstance(count, int),
            "count": count if isinstance(count, int) else len(count),
            "cards": [_card(c) for c in cards] if cards is not None else None,
        })
    state = match.state
    decision = None
    deciding = None if match.is_terminal() else match.current_player()
    if deciding is not None and (viewer is None or deciding == viewer):
        # options as the terminal words them: a card by where the decider sees it
        theirs = seen if viewer is not None else looks[deciding]
        prompt = option_text(theirs, state.decision.prompt)
        decision = {"player": deciding, "prompt": prompt,
                    # as the terminal says it: "You may ...:" or "You must ...:"
                    "heading": decision_heading({"prompt": prompt, "kind": state.decision.kind}),
                    "options": [option_text(theirs, match.action_to_string(a))
                                for a in match.legal_actions()]}
    # a mulligan's seven hidden cards are one line, as on the terminal
    events = repeats_counted(
        match.narration(viewer, events=state.log[-EVENTS_SHOWN * 3:]))[-EVENTS_SHOWN:]
    return {
        "title": match.game.rules.title,
        "viewer": viewer,
        "players": players,
        "turn": state.turn,
        "turn_player": state.turn_player,
        "period": seen["period"],
        "counters": [seen["counters"][p] if viewer is not None else looks[p]["counters"][p]
                     for p in range(players)],
        "zones": zones,
        "stack": seen["stack"],
        "events": events,
        "to_move": deciding,
        "decision": decision,
        "result": result_line(match),
    }


def _card(record: dict) -> dict:
    return {"name": record.get("name"), "face_up": record.get("face_up"),
            "stats": record.get("stats") or {}, "statuses": record.get("statuses") or [],
            "counters": record.get("counters") or {}, "attached_to": record.get("attached_to")}


def result_line(match: Match) -> str | None:
    """How the game ended, in the words ``play`` prints ("Player 1 wins: ...")."""
    result = match.state.result
    if result is None:
        return None
    if result[0] == "win":
        return f"Player {result[1] + 1} wins: {result[2]}"
    return f"The game is a draw: {result[1]}"
