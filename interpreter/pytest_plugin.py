"""pytest plugin: every ``*.ruling`` file is a test (registered as the
``cardrules`` entry point in the ``pytest11`` group).

Each ruling in a file becomes a test item that runs it (strictly), checks
its ``expect`` lines, and compares its trace with a syrupy snapshot — one
readable text file per ruling in ``__snapshots__/<file>/`` beside it.
``pytest --snapshot-update`` records snapshots; unused ones fail the run, as
syrupy does for every test. A failing ruling is reported as positioned
problems (expected against actual, with the file position of the line),
never as a traceback.
"""

from __future__ import annotations

import re

import pytest

from interpreter.errors import CardrulesError
from interpreter.rulings import load_ruling_file, run_ruling

try:
    from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode
except ImportError:   # syrupy comes with the test extra; without it (and its snapshot
    SingleFileSnapshotExtension = WriteMode = None   # fixture) no ruling runs anyway


class RulingFailed(Exception):
    def __init__(self, problems):
        super().__init__("\n".join(p.render() for p in problems))
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
        assert snapshot(extension_class=_trace_extension()) == trace
    run.__name__ = _slug(ruling.name)
    run.__module__ = "cardrules.rulings"
    return run


def _failing(problems):
    def broken():
        raise RulingFailed(problems)
    broken.__module__ = "cardrules.rulings"
    return broken
