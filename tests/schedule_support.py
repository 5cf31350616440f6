"""The order the suite's tests are handed to pytest-xdist's workers in
(tests/conftest.py): the heaviest tests first on every worker, so that no
worker is left finishing a two-minute soak alone at the end of the run.

pytest-xdist's ``worksteal`` scheduler gives each worker one contiguous
chunk of the collected items (the first ``N // workers``, then the next...)
and, when a worker runs dry, moves the tail of another worker's queue to it.
So each chunk here starts with its share of the heavy tests (spread over the
chunks by weight, heaviest first) and ends with light tests in their
collected order, which are the ones moved between workers at the end.

The weights are the seconds each test took in a measured run of the suite
(``pytest -n 2 --durations=60``, on a loaded 2-core machine); only their
order and rough size matter. A test not listed weighs ``LIGHT``. A test that
became cheaper only starts earlier than it needs to; a new heavy test
should be added here.
"""

from __future__ import annotations

LIGHT = 1.0
HEAVY_FROM = 10.0   # at or above this weight a test is placed first

# nodeid (whole, or up to the parameters' "[") -> seconds in the measured run
WEIGHTS: dict[str, float] = {
    # the soak of the shipped games, in parts of 100 games
    "tests/test_soak.py::test_soak_shipped_games[rival-rush-2p-games-0-99]": 131,
    "tests/test_soak.py::test_soak_shipped_games[rival-rush-2p-games-100-199]": 114,
    "tests/test_soak.py::test_soak_shipped_games[saturday-wars-4p-games-0-99]": 93,
    "tests/test_soak.py::test_soak_shipped_games[silver-wing-rivals-2p-games-100-199]": 91,
    "tests/test_soak.py::test_soak_shipped_games[pocket-league-2p-games-0-99]": 89,
    "tests/test_soak.py::test_soak_shipped_games[pocket-league-2p-games-100-199]": 72,
    "tests/test_soak.py::test_soak_shipped_games[silver-wing-rivals-2p-games-0-99]": 65,
    "tests/test_soak.py::test_soak_shipped_games[ryft-2p-games-0-99]": 61,
    "tests/test_soak.py::test_soak_shipped_games[arcane-duel-2p-games-0-99]": 56,
    "tests/test_soak.py::test_soak_shipped_games[arcane-duel-2p-games-100-199]": 53,
    "tests/test_soak.py::test_soak_shipped_games": 30,
    # the soak of the fixture games
    "tests/test_soak.py::test_soak_200_games[duel-4p]": 75,
    "tests/test_soak.py::test_soak_200_games[minions-2p]": 68,
    "tests/test_soak.py::test_soak_200_games[lore-2p]": 40,
    "tests/test_soak.py::test_soak_200_games[chain-2p]": 39,
    "tests/test_soak.py::test_soak_200_games[duel-2p]": 35,
    "tests/test_soak.py::test_soak_200_games": 20,
    "tests/test_soak.py::test_ctrl_c_stops_a_soak_and_reports_the_games_it_finished": 47,
    # generated texts compiled with the whole game
    "tests/test_compile_properties.py::test_generated_texts_on_a_card_compile_or_are_refused_at_their_line[silver-wing-rivals]": 45,
    "tests/test_compile_properties.py::test_generated_texts_on_a_card_compile_or_are_refused_at_their_line": 15,
    # the property tests of card texts
    "tests/test_properties.py::test_raw_generated_texts_parse_or_fail_cleanly[arcane-duel]": 68,
    "tests/test_properties.py::test_raw_generated_texts_parse_or_fail_cleanly[saturday-wars]": 51,
    "tests/test_properties.py::test_raw_generated_texts_parse_or_fail_cleanly[rival-rush]": 48,
    "tests/test_properties.py::test_raw_generated_texts_parse_or_fail_cleanly": 25,
    "tests/test_properties.py::test_generated_texts_parse_and_round_trip": 20,
    "tests/test_properties.py::test_mutated_card_texts_parse_or_fail_cleanly": 12,
    "tests/test_properties.py::test_effect_grammar_builds_strict": 12,
    # fuzzed rules files: each builds its game's grammar anew
    "tests/test_fuzz_grammars.py::test_rules_files_from_the_outline_grammar[silver-wing-rivals]": 57,
    "tests/test_fuzz_grammars.py::test_rules_files_from_the_outline_grammar": 35,
    "tests/test_fuzz_files.py::test_mutated_rules_files[silver-wing-rivals]": 75,
    "tests/test_fuzz_files.py::test_mutated_rules_files[saturday-wars]": 63,
    "tests/test_fuzz_files.py::test_mutated_rules_files[ryft]": 57,
    "tests/test_fuzz_files.py::test_mutated_rules_files": 25,
    # the corpus of card texts, each ruling compiling the game with its card
    "tests/test_corpus.py::test_the_report_in_docs_is_what_the_corpus_does[silver-wing-rivals]": 81,
    "tests/test_corpus.py::test_the_report_in_docs_is_what_the_corpus_does": 15,
    # processes, browsers, wheels
    "tests/test_packaging.py::test_wheel_installs_checks_and_plays_shipped_games": 68,
    "tests/test_web_browser.py": 130,       # one unit: the module's browser is shared
    "tests/test_core_registry.py": 45,      # one unit: its games are loaded once
    "tests/test_rulings.py::test_plugin_says_to_record_the_snapshot_of_a_new_ruling": 31,
    "tests/test_cli.py::test_checking_a_broken_root_exits_1_without_traceback": 15,
}

# modules whose tests share an expensive module fixture: kept together
TOGETHER = ("tests/test_web_browser.py", "tests/test_core_registry.py")


def weight(nodeid: str) -> float:
    for key in (nodeid, nodeid.split("[", 1)[0]):
        if key in WEIGHTS:
            return WEIGHTS[key]
    return LIGHT


def _units(items) -> list[tuple[float, list]]:
    """The items as units of scheduling: one item each, except the modules
    kept together (one unit, as heavy as the module's listed weight)."""
    units: list[tuple[float, list]] = []
    together: dict[str, list] = {}
    for item in items:
        module = item.nodeid.split("::", 1)[0]
        if module in TOGETHER:
            if module not in together:
                together[module] = []
                units.append((WEIGHTS[module], together[module]))
            together[module].append(item)
        else:
            units.append((weight(item.nodeid), [item]))
    return units


def chunk_sizes(count: int, workers: int) -> list[int]:
    """How many items worksteal hands each worker at the start (its
    check_schedule: what is left, shared among the workers left)."""
    sizes, left = [], count
    for i in range(workers):
        sizes.append(left // (workers - i))
        left -= sizes[-1]
    return sizes


def heavy_first(items: list, workers: int) -> list:
    """``items`` reordered for ``workers`` worksteal workers: each chunk
    begins with its share of the heavy units, heaviest first."""
    units = _units(items)
    heavy = sorted((u for u in units if u[0] >= HEAVY_FROM), key=lambda u: -u[0])
    light = [item for w, unit in units if w < HEAVY_FROM for item in unit]
    sizes = chunk_sizes(len(items), workers)
    chunks: list[list] = [[] for _ in range(workers)]
    loads = [0.0] * workers
    for w, unit in heavy:          # longest processing time first, onto the least loaded
        room = [i for i in range(workers) if len(chunks[i]) + len(unit) <= sizes[i]]
        if not room:
            return items           # cannot happen with a few heavy tests among many
        target = min(room, key=lambda i: (loads[i], i))
        chunks[target].extend(unit)
        loads[target] += w
    ordered, start = [], 0
    for i in range(workers):
        take = sizes[i] - len(chunks[i])
        ordered.extend(chunks[i] + light[start:start + take])
        start += take
    assert len(ordered) == len(items)
    return ordered
