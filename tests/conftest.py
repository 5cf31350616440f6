"""The suite is hermetic: parsed texts are not kept between runs
(interpreter/language/parse_store.py) unless a test turns the store on in a
folder of its own (tests/test_parse_store.py). A store left by an earlier
run could only make a test faster, never wrong (every file is keyed by the
code and the text), but the suite should not depend on the machine's cache,
nor fill it with the thousands of mutated files the fuzz tests read."""

from __future__ import annotations

import os

os.environ.setdefault("CARDRULES_NO_CACHE", "1")
