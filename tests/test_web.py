"""The web table's server (interpreter/web): what a page asks and what it is
told, including every request a page (or anyone) gets wrong."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient  # noqa: E402

from interpreter.web.app import create_app  # noqa: E402

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="module")
def client():
    return TestClient(create_app(Path(".")), raise_server_exceptions=False)


def _new(client, **wanted) -> dict:
    body = {"game": "ryft", "seat": 1, "opponent": "random", "seed": 3, **wanted}
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == 200, answer.text
    return answer.json()


def _play(client, view: dict, choices: int, rng: random.Random) -> dict:
    """The opponent's moves one request at a time, and ``choices`` of ours."""
    key = view["table"]
    while not view["result"] and choices:
        if view["waiting"]:
            view = client.post(f"/api/tables/{key}/advance").json()
            continue
        option = rng.randrange(len(view["decision"]["options"]))
        view = client.post(f"/api/tables/{key}/choose",
                           json={"option": option, "version": view["version"]}).json()
        choices -= 1
    return view


def test_a_table_plays_from_one_seat_and_hides_the_other_hand(client):
    view = _new(client)
    assert view["you"] == 0 and view["seats"] == ["human", "random"]
    # the opponent moves one decision per request, so the page shows each
    view = _play(client, view, 3, random.Random(1))
    assert view["version"] >= 3 and view["events"]
    hands = {z["key"]: z for z in view["zones"] if z["name"] == "hand"}
    assert [c["name"] for c in hands["hand/0"]["cards"]]
    assert hands["hand/1"]["hidden"] and hands["hand/1"]["cards"] is None
    assert hands["hand/1"]["count"] > 0


def test_a_decision_is_headed_as_the_terminal_heads_it(client):
    # "You may ...:" for a question one may answer no to, "You must ...:" for
    # a choice, as on the terminal (tables.decision_heading)
    view, headings, rng = _new(client, seed=4), [], random.Random(3)
    while not view["result"] and len(headings) < 12:
        if view["decision"] is not None:
            decision = view["decision"]
            headings.append(decision["heading"])
            assert decision["heading"] in (f"You may {decision['prompt'].rstrip('?')}:",
                                           f"You must {decision['prompt']}:")
        view = _play(client, view, 1, rng)
    assert any(h.startswith("You must ") for h in headings), headings


def test_a_whole_game_ends_with_its_winner(client):
    view = _play(client, _new(client, seed=5), 10_000, random.Random(2))
    assert view["result"].startswith(("Player 1 wins", "Player 2 wins", "The game is a draw"))
    assert view["decision"] is None and not view["waiting"]


def test_undo_goes_back_to_our_previous_decision(client):
    view = _play(client, _new(client, seed=7), 4, random.Random(3))
    before = client.post(f"/api/tables/{view['table']}/undo").json()
    assert before["version"] < view["version"]
    assert before["decision"] is not None and before["to_move"] == 0


def test_a_saved_game_resumes_where_it_was_and_is_a_replay(client, tmp_path):
    view = _play(client, _new(client, seed=9), 6, random.Random(4))
    saved = client.get(f"/api/tables/{view['table']}/save")
    assert saved.status_code == 200 and "attachment" in saved.headers["content-disposition"]
    data = json.loads(saved.text)
    assert data["seats"] == ["human", "random"] and len(data["actions"]) == view["version"]
    resumed = client.post("/api/tables/load", content=saved.text).json()
    assert resumed["version"] == view["version"] and resumed["events"] == view["events"]
    # both tables go on alike: agents' choices do not depend on how the game got here
    after = [_play(client, v, 3, random.Random(5)) for v in (view, resumed)]
    assert after[0]["events"] == after[1]["events"]


def test_a_replay_is_stepped_from_either_seat_or_both(client):
    view = _play(client, _new(client, seed=11), 5, random.Random(6))
    saved = client.get(f"/api/tables/{view['table']}/save").text
    opened = client.post("/api/replays", content=saved).json()
    assert opened["steps"] == view["version"]
    key = opened["replay"]
    last = client.get(f"/api/replays/{key}/{opened['steps']}?viewer=1").json()
    assert last["events"] == view["events"]
    both = client.get(f"/api/replays/{key}/{opened['steps']}?viewer=all").json()
    assert [z["cards"] is not None for z in both["zones"] if z["name"] == "hand"] == [True] * 2
    seat2 = client.get(f"/api/replays/{key}/{opened['steps']}?viewer=2").json()
    hands = {z["key"]: z for z in seat2["zones"] if z["name"] == "hand"}
    assert hands["hand/0"]["cards"] is None and hands["hand/1"]["cards"] is not None


@pytest.mark.parametrize("method, url, body, status, says", [
    ("post", "/api/tables", "{not json", 400, "not JSON"),
    ("post", "/api/tables", "[1, 2]", 400, "JSON object"),
    ("post", "/api/tables", '{"game": "ryfft"}', 404, 'did you mean "ryft"'),
    ("post", "/api/tables", '{"game": "ryft", "seat": 3}', 400, '"seat" must be 1 to 2'),
    ("post", "/api/tables", '{"game": "ryft", "seed": -1}', 400, '"seed" must be'),
    ("post", "/api/tables", '{"game": "ryft", "opponent": "randmo"}', 400, "E816"),
    ("post", "/api/tables", '{"game": "ryft", "decks": ["Nope"]}', 400, 'no deck "Nope"'),
    ("get", "/api/tables/nothing-here", None, 404, "no such table"),
    ("post", "/api/tables/load", "not a replay", 400, "E813"),
    ("post", "/api/replays", '{"format": "cardrules replay 1"}', 400, "E813"),
    ("post", "/api/replays", '{"a": 1}\n{"b": 2}', 400, "E854"),
    ("get", "/api/replays/nothing/0", None, 404, "no such replay"),
    ("get", "/api/cards/ryft/Cinderpupp", None, 404, 'did you mean "Cinderpup"'),
    ("get", "/reports/../../etc/passwd", None, 404, None),
    ("get", "/reports/x/..%2F..%2Fpyproject.toml", None, 404, None),
    ("get", "/static/../../pyproject.toml", None, 404, None),
])
def test_a_request_that_is_wrong_gets_a_clear_4xx(client, method, url, body, status, says):
    answer = getattr(client, method)(url, content=body) if body is not None else \
        getattr(client, method)(url)
    assert answer.status_code == status, answer.text
    if says is not None:
        assert says in answer.json()["error"]
    assert "Traceback" not in answer.text


def test_a_choice_from_a_stale_page_is_refused_and_the_table_is_unchanged(client):
    view = _play(client, _new(client, seed=13), 2, random.Random(7))
    key = view["table"]
    stale = client.post(f"/api/tables/{key}/choose",
                        json={"option": 0, "version": view["version"] - 1})
    assert stale.status_code == 409 and "moved on" in stale.json()["error"]
    missing = client.post(f"/api/tables/{key}/choose",
                          json={"option": 99, "version": view["version"]})
    assert missing.status_code == 409 and "no option 100" in missing.json()["error"]
    assert client.get(f"/api/tables/{key}").json()["version"] == view["version"]


def test_a_replay_that_no_longer_replays_is_refused(client):
    view = _play(client, _new(client, seed=15), 3, random.Random(8))
    data = json.loads(client.get(f"/api/tables/{view['table']}/save").text)
    data["digest"] = "0" * 64
    answer = client.post("/api/replays", content=json.dumps(data))
    assert answer.status_code == 400 and "E814" in answer.json()["error"]


def test_reports_of_the_served_folder_are_listed_and_served(tmp_path):
    report = tmp_path / "ryft-report"
    report.mkdir()
    (report / "index.html").write_text("<h1>ryft: 100 games</h1>")
    (report / "report.json").write_text("{}")
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "index.html").write_text("not a report")
    client = TestClient(create_app(tmp_path), raise_server_exceptions=False)
    listing = client.get("/reports/").text
    assert "ryft-report" in listing and "notes" not in listing
    assert "100 games" in client.get("/reports/ryft-report/").text
    assert client.get("/reports/notes/").status_code == 404
