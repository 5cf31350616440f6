"""The web table's response time per decision: a whole game of each shipped
game played through the server's JSON routes in process (the page's own
requests: a choice, then one request per opponent move), timed per request.

    python benchmarks/web_speed.py [GAME ...]

Needs the optional ``web`` extra (and httpx2 for starlette's test client).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from starlette.testclient import TestClient  # noqa: E402

from interpreter.language.games import shipped_games  # noqa: E402
from interpreter.web.app import create_app  # noqa: E402


def main(argv: list[str]) -> int:
    client = TestClient(create_app(ROOT))
    print(f"{'game':<20} {'requests':>8} {'median ms':>10} {'p95 ms':>8} {'max ms':>8}")
    for game in argv or shipped_games():
        timings = []

        def timed(method, url, **kwargs):
            start = time.perf_counter()
            answer = getattr(client, method)(url, **kwargs).json()
            timings.append(time.perf_counter() - start)
            return answer

        view = timed("post", "/api/tables", json={"game": game, "seed": 1})
        rng = random.Random(game)
        while not view["result"]:
            if view["waiting"]:
                view = timed("post", f"/api/tables/{view['table']}/advance")
            else:
                option = rng.randrange(len(view["decision"]["options"]))
                view = timed("post", f"/api/tables/{view['table']}/choose",
                             json={"option": option, "version": view["version"]})
        ms = sorted(t * 1000 for t in timings)
        print(f"{game:<20} {len(ms):>8} {statistics.median(ms):>10.1f} "
              f"{ms[int(len(ms) * 0.95)]:>8.1f} {ms[-1]:>8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
