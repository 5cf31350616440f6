"""The suite is hermetic: parsed texts are not kept between runs
(interpreter/language/parse_store.py) unless a test turns the store on in a
folder of its own (tests/test_parse_store.py). A store left by an earlier
run could only make a test faster, never wrong (every file is keyed by the
code and the text), but the suite should not depend on the machine's cache,
nor fill it with the thousands of mutated files the fuzz tests read. The
grammars lark builds (kept even then) go to the checkout's own
`.cardrules-cache/` (CARDRULES_CACHE_DIR, inherited by the commands the
tests start): the suite's 160-odd grammars would otherwise push the user's
own out of their bounded cache folder.

Under pytest-xdist the heaviest tests start first on every worker
(tests/schedule_support.py), so that the run does not end with one worker
finishing a long soak alone.

The cyclic garbage collector runs less often here than Python's default:
a worker keeps millions of objects alive (games, parser tables), and each
full collection walks them all. Measured on a whole run (a gc.callbacks
probe): 315-375 s of each worker's time went to collections, even with at
most 12 games kept (interpreter/language/games.py). Garbage is still freed,
in fewer, larger collections."""

from __future__ import annotations

import gc
import os
from pathlib import Path

from schedule_support import heavy_first

gc.set_threshold(10_000, 50, 100)
os.environ.setdefault("CARDRULES_NO_CACHE", "1")
os.environ.setdefault("CARDRULES_CACHE_DIR",
                      str(Path(__file__).resolve().parent.parent / ".cardrules-cache"))


def pytest_collection_modifyitems(config, items):
    """Under pytest-xdist, the heaviest tests start first on every worker
    (tests/schedule_support.py); a run in one process keeps the collected
    order. (A worker's own options say ``--dist no``: the workers collect,
    the controller hands out the items in the order they collected them.)"""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "0"))
    if workers > 1 and hasattr(config, "workerinput"):
        items[:] = heavy_first(items, workers)
