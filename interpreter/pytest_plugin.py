"""pytest plugin: every ``*.ruling`` file is a test (registered as the
``cardrules`` entry point in the ``pytest11`` group).

Each ruling in a file becomes a test item that runs it (strictly), checks
its ``expect`` lines, and compares its trace with a syrupy snapshot — one
readable text file per ruling in ``__snapshots__/<file>/`` beside it.
``pytest --snapshot-update`` records snapshots; unused ones fail the run, as
syrupy does for every test. A failing ruling is reported as positioned
problems (expected against actual, with the file position of the line),
never as a traceback; so is a trace with no snapshot yet (one line saying
to record it) and a trace unlike its snapshot (with the lines that differ).
"""

from __future__ import annotations

import difflib
import re

import pytest

from interpreter.errors import CardrulesError, Problem
from interpreter.rulings import load_ruling_file, run_ruling

try:
    from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode
except ImportError:   # syrupy comes with the test extra; without it (and its snapshot
    SingleFileSnapshotExtension = WriteMode = None   # fixture) no ruling runs anyway


class RulingFailed(Exception):
    def __init__(self, problems, detail: str = ""):
        super().__init__("\n".join([p.render() for p in problems] + ([detail] if detail else [])))
        self.problems = problems


def _trace_extension():
    class RulingTrace(SingleFileSnapshotExtension):
        """A ruling's trace as a plain text file."""

        _write_mode = WriteMode.TEXT
        file_extension = "trace"

        def serialize(self, data, **kwargs):
            return str(data)

    return RulingTrace


def pytest_collect_file(file_path, parent):
    if file_path.suffix == ".ruling":
        return RulingFile.from_parent(parent, path=file_path)
    return None


class RulingFile(pytest.File):
    def collect(self):
        source, rulings, problems = load_ruling_file(self.path)
        if problems or not rulings:
            yield RulingItem.from_parent(self, name=self.path.stem,
                                         callobj=_failing(problems))
            return
        for ruling in rulings:
            yield RulingItem.from_parent(self, name=_slug(ruling.name),
                                         callobj=_runner(ruling, source))


class RulingItem(pytest.Function):
    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, (RulingFailed, CardrulesError)):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, None, f"ruling {self.name}"


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "_", name).strip("_").lower() or "ruling"


def _runner(ruling, source):
    def run(snapshot):
        result = run_ruling(ruling, source)
        if result.failures:
            raise RulingFailed(result.failures)
        trace = "\n".join(result.trace) + "\n"
        if not snapshot(extension_class=_trace_extension()) == trace:
            _snapshot_failed(ruling, snapshot, trace)
    run.__name__ = _slug(ruling.name)
    run.__module__ = "cardrules.rulings"
    return run


_MAX_DIFF_LINES = 60


def _snapshot_failed(ruling, snapshot, trace: str):
    """A trace that does not match its snapshot, said in the ruling's
    terms: syrupy's own failure is an assert inside this plugin, which
    pytest would show as a traceback of the plugin."""
    outcome = snapshot.executions[snapshot.num_executions - 1]
    span = ruling.span
    if outcome.recalled_data is None:
        # one line: nothing is wrong with the ruling, its trace is only new
        raise RulingFailed([Problem(
            "E728", f'ruling "{ruling.name}" has no snapshot of its trace yet: run '
            "`pytest --snapshot-update` to record it", span)])
    diff = list(difflib.unified_diff(str(outcome.recalled_data).splitlines(),
                                     trace.splitlines(), "the snapshot", "this run",
                                     lineterm="", n=1))
    if len(diff) > _MAX_DIFF_LINES:
        diff = diff[:_MAX_DIFF_LINES] + [f"... ({len(diff) - _MAX_DIFF_LINES} more lines)"]
    raise RulingFailed([Problem(
        "E729", f'the trace of ruling "{ruling.name}" differs from its snapshot '
        f"{outcome.snapshot_location}", span, None,
        ("the trace the snapshot holds",),
        "if the new trace is right, record it: `pytest --snapshot-update`")],
        "\n".join(diff))


def _failing(problems):
    def broken():
        raise RulingFailed(problems)
    broken.__module__ = "cardrules.rulings"
    return broken
