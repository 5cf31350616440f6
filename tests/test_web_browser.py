"""The web table in a real browser: headless Chromium (Debian's package,
driven by Playwright) plays a whole game of every shipped game by clicking
its options, reloads the page in the middle of one, takes a move back, and
steps through a replay. Assertions are on what the page shows.

Without Chromium the tests are skipped, except where CI asks for them
(CARDRULES_REQUIRE_BROWSER=1: .ci/run installs Chromium)."""

from __future__ import annotations

import json
import os
import random
import shutil
import socket
import threading
import time
from pathlib import Path
from urllib.request import urlopen

import pytest

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

from interpreter.language.games import shipped_games  # noqa: E402
from interpreter.web.app import create_app  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None:
    if os.environ.get("CARDRULES_REQUIRE_BROWSER"):
        raise RuntimeError("Chromium is needed for the browser tests (apt-get install chromium)")
    pytest.skip("no Chromium here (apt-get install chromium)", allow_module_level=True)

# the flags a sandboxed machine with no network needs (no sandbox as root,
# no calls home that the closed network would refuse)
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def server():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(create_app(Path(".")), host="127.0.0.1", port=port,
                            log_level="warning")
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not running.started and time.monotonic() < deadline:
        time.sleep(0.05)
    # the first listing loads every shipped game, building their grammars when
    # nothing is kept from an earlier run (a fresh machine, a loaded one):
    # asked here, so that the page's 20 s timeouts measure the page
    urlopen(f"http://127.0.0.1:{port}/api/games", timeout=600).read()
    yield f"http://127.0.0.1:{port}"
    running.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def page():
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        tab = browser.new_page()
        tab.set_default_timeout(20_000)
        yield tab
        browser.close()


def _start(page, server: str, game: str, seed: int, opponent: str = "random") -> None:
    page.goto(f"{server}/?delay=0")
    page.select_option("#game", game)
    page.select_option("#opponent", opponent)
    page.fill("#seed", str(seed))
    page.click("#start")
    page.wait_for_selector("#table:not([hidden])")


def _settled(page) -> str:
    """Wait until the page waits for us (options shown) or the game is over;
    the status line then."""
    page.wait_for_function(
        "() => document.querySelector('#decision button.option:not([disabled])')"
        " || document.querySelector('#board-result')")
    return page.inner_text("#status")


def _counters(page) -> dict:
    return {int(node.get_attribute("data-counters")): node.inner_text()
            for node in page.query_selector_all("[data-counters]")}


# a seed per game whose game is not among its longest, and for Rival Rush the
# agent with its hints (uniformly random play there wanders for thousands of
# decisions until the game's cap): the suite has a time budget
SEEDS = {"rival-rush": 7}
OPPONENTS = {"rival-rush": "hinted"}


@pytest.mark.parametrize("game", shipped_games())
def test_a_whole_game_is_played_by_clicking(page, server, game):
    _start(page, server, game, seed=SEEDS.get(game, 1), opponent=OPPONENTS.get(game, "random"))
    rng = random.Random(game)
    clicks = 0
    while True:
        status = _settled(page)
        if page.query_selector("#board-result"):
            break
        assert status == "Your decision"
        assert page.inner_text("#decision .prompt").startswith(("Player 1: You may ",
                                                                "Player 1: You must "))
        options = page.query_selector_all("#decision button.option")
        options[rng.randrange(len(options))].click()
        clicks += 1
    result = page.inner_text("#board-result")
    assert result.startswith(("Player 1 wins", "Player 2 wins", "The game is a draw"))
    assert page.inner_text("#status") == result
    # what the page shows is the table's own state (the life totals, the end)
    key = page.evaluate("location.hash").split("=", 1)[1]
    table = json.loads(page.evaluate(f"fetch('/api/tables/{key}').then(r => r.text())"))
    shown = _counters(page)
    for seat, counters in enumerate(table["counters"]):
        for name, value in counters.items():
            assert f"{name} {'?' if value is None else value}" in shown[seat + 1]
    assert table["result"] == result and clicks > 0


def test_a_reload_keeps_the_game_and_undo_takes_back_a_move(page, server):
    _start(page, server, "ryft", seed=4)
    for _ in range(4):
        _settled(page)
        page.click("#decision button.option >> nth=0")
    _settled(page)
    events = page.inner_text("#board-events")
    counters = _counters(page)
    page.reload()
    _settled(page)
    assert page.inner_text("#board-events") == events and _counters(page) == counters
    version = page.evaluate("view.version")
    page.click("#undo")
    page.wait_for_function(f"() => view.version < {version}")
    assert _settled(page) == "Your decision"
    assert page.inner_text("#board-events") != events


def test_a_replay_is_stepped_forward_and_back(page, server, tmp_path):
    _start(page, server, "arcane-duel", seed=2)
    for _ in range(5):
        _settled(page)
        page.click("#decision button.option >> nth=0")
    _settled(page)
    key = page.evaluate("location.hash").split("=", 1)[1]
    saved = page.evaluate(f"fetch('/api/tables/{key}/save').then(r => r.text())")
    replay = tmp_path / "game.replay"
    replay.write_text(saved)
    steps = len(json.loads(saved)["actions"])
    page.click("#tab-replays")
    page.set_input_files("#replay-file", str(replay))
    page.wait_for_function("() => document.querySelector('#replay-step').textContent"
                           ".startsWith('step 0 of')")
    assert page.inner_text("#replay-step") == f"step 0 of {steps}"
    page.click("#replay-forward")
    page.click("#replay-forward")
    page.wait_for_function("() => document.querySelector('#replay-step').textContent"
                           ".startsWith('step 2 ')")
    second = page.inner_text("#replay-board-events")
    page.click("#replay-last")
    page.wait_for_function(f"() => document.querySelector('#replay-step').textContent"
                           f" === 'step {steps} of {steps}'")
    assert page.inner_text("#replay-board-events") != second
    page.click("#replay-back")
    page.wait_for_function(f"() => document.querySelector('#replay-step').textContent"
                           f" === 'step {steps - 1} of {steps}'")
    # from seat 2, seat 1's hand is hidden; from both seats, shown
    page.select_option("#replay-viewer", "2")
    page.wait_for_selector("#replay-board [data-zone='hand/0'] .hidden")
    page.select_option("#replay-viewer", "all")
    page.wait_for_selector("#replay-board [data-zone='hand/0'] .card")
