"""The web table's server: a page with no build step and the JSON it asks for.

Routes (every answer JSON; every mistake a 4xx with ``{"error": ...}``, the
page shows it):

* ``GET /`` the page; ``GET /static/...`` its script and style;
* ``GET /api/games`` the games of the served folder and the installed ones,
  their decks, and the agents a seat may be;
* ``POST /api/tables`` a new table ``{game, decks, seat, opponent, seed}``;
  ``GET /api/tables/ID`` it, from the person's seat; ``POST .../advance``
  one decision of the agent to move; ``POST .../choose {option, version}``
  the person's choice (409 when the page was stale); ``POST .../undo``;
  ``GET .../save`` the saved game (a replay file); ``POST /api/tables/load``
  a saved game resumed;
* ``POST /api/replays`` a replay file's text (or a file of saved games,
  one per line, with the ``seed`` wanted); ``GET /api/replays/ID/STEP?viewer=``
  the board after STEP actions, from a seat or from every seat (``all``);
* ``GET /api/cards/GAME/NAME`` a card's full text;
* ``GET /reports/`` the balance reports (``simulate --report DIR``) found in
  the served folder, each served from ``/reports/NAME/``.

Nothing a request holds is used as a path except a report's name, which
must be one of the folders listed; every table is its own (an unguessable
id), kept in this process's memory.
"""

from __future__ import annotations

import json
import secrets
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from interpreter.agents import AGENTS, agent_named
from interpreter.engine import Match, compile_game
from interpreter.errors import CardrulesError, did_you_mean
from interpreter.language.games import load_from
from interpreter.language.projects import Library
from interpreter.replays import play_again, replay_data, replay_in
from interpreter.tables import HUMAN, Table, card_lines
from interpreter.web.views import seat_view

STATIC = Path(__file__).resolve().parent / "static"
KEPT_TABLES = 200          # the oldest tables are let go past this many


class Problem(Exception):
    """A request the server cannot serve: its status and what to say."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


class Stale(Exception):
    """A choice made on a page that no longer shows the table as it is."""


class Server:
    """The games of one folder and the tables and replays opened on them."""

    def __init__(self, folder: Path):
        self.folder = folder.resolve()
        self.library = Library.around(self.folder)
        self.games: dict[str, tuple] = {}
        self.tables: dict[str, Table] = {}
        self.replays: dict[str, list] = {}

    # ---- games

    def game(self, game_id) -> tuple:
        """(the loaded game, compiled), loaded once."""
        if not isinstance(game_id, str) or game_id not in self.library.game_ids():
            known = self.library.game_ids()
            hint = did_you_mean(str(game_id), known)
            raise Problem(404, f'no game "{game_id}" here' + (f" ({hint})" if hint else ""))
        if game_id not in self.games:
            loaded = load_from(self.library, game_id)
            if loaded.problems:
                raise Problem(400, f"{game_id} has problems: run `cardrules check` "
                              f"({loaded.problems[0].render().splitlines()[0]})")
            self.games[game_id] = (loaded, compile_game(loaded))
        return self.games[game_id]

    def decks(self, loaded, names, players: int) -> list:
        if not isinstance(names, list) or not names:
            return [loaded.decks[p % len(loaded.decks)] for p in range(players)]
        by_name = {d.name: d for d in loaded.decks}
        chosen = []
        for p in range(players):
            name = names[p % len(names)]
            if name not in by_name:
                raise Problem(400, f'{loaded.game_id} has no deck "{name}"')
            chosen.append(by_name[name])
        return chosen

    def listing(self) -> list:
        out = []
        for game_id in self.library.game_ids():
            try:
                loaded, _ = self.game(game_id)
            except (Problem, CardrulesError):
                continue
            out.append({"id": game_id, "title": loaded.rules.title,
                        "players": loaded.rules.players_min,
                        "decks": [d.name for d in loaded.decks]})
        return out

    # ---- tables

    def keep(self, store: dict, value) -> str:
        key = secrets.token_urlsafe(12)
        store[key] = value
        while len(store) > KEPT_TABLES:
            store.pop(next(iter(store)))
        return key

    def table(self, key: str) -> Table:
        table = self.tables.get(key)
        if table is None:
            raise Problem(404, "no such table (the server was restarted, or the game is "
                          "too old): start a new game or load a saved one")
        return table


def _body(request_json) -> dict:
    if not isinstance(request_json, dict):
        raise Problem(400, "the request must be a JSON object")
    return request_json


async def _json(request: Request) -> dict:
    try:
        return _body(json.loads(await request.body() or b"{}"))
    except ValueError:
        raise Problem(400, "the request is not JSON") from None


def _int(data: dict, name: str, default: int | None = None, low: int = 0) -> int:
    value = data.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise Problem(400, f'"{name}" must be a whole number, {low} or more')
    return value


def _human_seat(table: Table) -> int:
    return table.seats.index(HUMAN) if HUMAN in table.seats else 0


def _table_answer(key: str, table: Table) -> dict:
    """A table from its person's seat, with what the page needs to act:
    its version (how many actions were taken: a choice names the version it
    was shown, so a stale page cannot choose for a newer decision)."""
    seat = _human_seat(table)
    view = seat_view(table.match, seat)
    view.update({"table": key, "game": table.game_name, "version": len(table.actions),
                 "seats": list(table.seats), "you": seat,
                 "waiting": table.agent_to_move(), "can_undo": table.can_undo()})
    return view


def _seats(data: dict, players: int) -> tuple:
    """The seats a saved game names (a plain replay names none: a person
    plays the first seat against random agents); each agent must exist."""
    seats = data.get("seats") or [HUMAN] + ["random"] * (players - 1)
    for spec in seats:
        if spec != HUMAN:
            agent_named(spec, 0)
    return tuple(seats)


def create_app(folder: Path) -> Starlette:
    server = Server(folder)

    async def page(request):
        return HTMLResponse((STATIC / "index.html").read_text(encoding="utf-8"))

    async def games(request):
        return JSONResponse({"games": server.listing(), "agents": sorted(AGENTS)})

    async def new_table(request):
        data = await _json(request)
        loaded, compiled = server.game(data.get("game"))
        players = loaded.rules.players_min
        seat = _int(data, "seat", 1, low=1)
        if seat > players:
            raise Problem(400, f'"seat" must be 1 to {players}')
        opponent = data.get("opponent", "random")
        if not isinstance(opponent, str) or opponent == HUMAN:
            raise Problem(400, '"opponent" must name an agent')
        seats = _seats({"seats": [HUMAN if p == seat - 1 else opponent
                                  for p in range(players)]}, players)
        decks = server.decks(loaded, data.get("decks"), players)
        table = Table.open(compiled, decks, _int(data, "seed", 0), seats, loaded.game_id,
                           [d.name for d in decks])
        key = server.keep(server.tables, table)
        return JSONResponse(_table_answer(key, table))

    def on_table(act):
        """A route that does ``act(request, table)`` to the table its address
        names and answers with the table as it is then."""
        async def route(request):
            key = request.path_params["key"]
            table = server.table(key)
            await act(request, table)
            return JSONResponse(_table_answer(key, table))
        return route

    async def nothing(request, table):
        pass

    async def advance(request, table):
        table.play_agent()

    async def choose(request, table):
        data = await _json(request)
        option, version = _int(data, "option"), _int(data, "version")
        if version != len(table.actions) or table.human_seat() is None:
            raise Stale("the table has moved on since this page showed it: "
                        "it shows the table as it is now")
        if option >= len(table.match.legal_actions()):
            raise Stale(f"there is no option {option + 1} at this decision")
        table.choose(option + 1)

    async def undo(request, table):
        table.undo()

    async def save(request):
        table = server.table(request.path_params["key"])
        name = f"{table.game_name}-seed{table.seed}-{len(table.actions)}.replay"
        saved = replay_data(table.game_name, table.deck_names, table.seed, table.actions,
                            table.match, table.seats)
        return Response(json.dumps(saved) + "\n", media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def load(request):
        text = (await request.body()).decode("utf-8", "replace")
        data, replay = _saved(text, request.query_params.get("seed"))
        loaded, compiled = server.game(replay.game)
        decks = server.decks(loaded, list(replay.decks), len(replay.decks))
        table = Table.open(compiled, decks, replay.seed, _seats(data, len(decks)),
                           replay.game, replay.decks, replay.actions, replay.digest)
        key = server.keep(server.tables, table)
        return JSONResponse(_table_answer(key, table))

    async def open_replay(request):
        text = (await request.body()).decode("utf-8", "replace")
        _data, replay = _saved(text, request.query_params.get("seed"))
        loaded, compiled = server.game(replay.game)
        decks = server.decks(loaded, list(replay.decks), len(replay.decks))
        play_again(compiled, decks, replay)            # refused if it no longer replays
        steps = [Match.start(compiled, decks, replay.seed)]
        for action in replay.actions:
            following = steps[-1].clone()
            following.apply_action(action)
            steps.append(following)
        key = server.keep(server.replays, steps)
        return JSONResponse({"replay": key, "steps": len(replay.actions),
                             "players": len(decks), "game": replay.game,
                             "decks": list(replay.decks), "seed": replay.seed})

    async def replay_step(request):
        steps = server.replays.get(request.path_params["key"])
        if steps is None:
            raise Problem(404, "no such replay: open the file again")
        step = request.path_params["step"]
        if not step.isdigit() or int(step) >= len(steps):
            raise Problem(400, f"a step is 0 to {len(steps) - 1}")
        viewer = request.query_params.get("viewer", "all")
        match = steps[int(step)]
        if viewer == "all":
            seat = None
        elif viewer.isdigit() and 1 <= int(viewer) <= match.state.players:
            seat = int(viewer) - 1
        else:
            raise Problem(400, f'"viewer" is 1 to {match.state.players}, or all')
        view = seat_view(match, seat)
        view.update({"step": int(step), "steps": len(steps) - 1})
        return JSONResponse(view)

    async def card(request):
        loaded, _ = server.game(request.path_params["game"])
        name = request.path_params["name"]
        definition = loaded.cards.get(name)
        if definition is None:
            hint = did_you_mean(name, sorted(loaded.cards))
            raise Problem(404, f'{loaded.game_id} has no card "{name}"'
                          + (f" ({hint})" if hint else ""))
        return JSONResponse({"name": name, "lines": card_lines(definition)})

    def reports_found() -> dict:
        return {p.parent.name: p.parent for p in sorted(server.folder.glob("*/index.html"))
                if (p.parent / "report.json").is_file()}

    async def reports(request):
        found = reports_found()
        items = "".join(f'<li><a href="/reports/{name}/">{name}</a></li>' for name in found)
        none = "<li>none here: <code>cardrules simulate GAME -n N --report DIR</code></li>"
        return HTMLResponse(f"<!doctype html><title>Reports</title><h1>Balance reports</h1>"
                            f"<ul>{items or none}</ul>")

    async def report_file(request):
        folder = reports_found().get(request.path_params["name"])
        if folder is None:
            raise Problem(404, "no such report")
        wanted = request.path_params.get("file") or "index.html"
        path = (folder / wanted).resolve()
        if folder.resolve() not in path.parents or not path.is_file():
            raise Problem(404, "no such file in this report")
        return FileResponse(path)

    async def problem(request, exc: Problem):
        return JSONResponse({"error": exc.message}, status_code=exc.status)

    async def user_error(request, exc: CardrulesError):
        return JSONResponse({"error": "\n".join(p.render() for p in exc.problems)},
                            status_code=400)

    async def stale(request, exc: Stale):
        return JSONResponse({"error": str(exc)}, status_code=409)

    async def http_error(request, exc: HTTPException):
        return JSONResponse({"error": exc.detail}, status_code=exc.status_code)

    async def bug(request, exc: Exception):
        # a bug in cardrules: said plainly, never a traceback on the page
        return JSONResponse({"error": f"cardrules failed ({type(exc).__name__}); "
                                      "please report it"}, status_code=500)

    routes = [
        Route("/", page),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        Route("/api/games", games),
        Route("/api/tables", new_table, methods=["POST"]),
        Route("/api/tables/load", load, methods=["POST"]),
        Route("/api/tables/{key}", on_table(nothing)),
        Route("/api/tables/{key}/advance", on_table(advance), methods=["POST"]),
        Route("/api/tables/{key}/choose", on_table(choose), methods=["POST"]),
        Route("/api/tables/{key}/undo", on_table(undo), methods=["POST"]),
        Route("/api/tables/{key}/save", save),
        Route("/api/replays", open_replay, methods=["POST"]),
        Route("/api/replays/{key}/{step}", replay_step),
        Route("/api/cards/{game}/{name}", card),
        Route("/reports/", reports),
        Route("/reports/{name}/", report_file),
        Route("/reports/{name}/{file:path}", report_file),
    ]
    return Starlette(routes=routes, exception_handlers={
        Problem: problem, CardrulesError: user_error, Stale: stale,
        HTTPException: http_error, Exception: bug})


def _saved(text: str, seed: str | None) -> tuple[dict, object]:
    """The saved game or replay a request sends: one JSON object, or one of
    several lines (the games of a simulation) picked by ``seed``."""
    if seed is not None and not seed.isdigit():
        raise Problem(400, '"seed" must be a whole number, 0 or more')
    return replay_in(text, "the file sent", None if seed is None else int(seed))
