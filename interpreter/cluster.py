"""Simulations beyond one machine: the parts of a ``simulate`` run as tasks
of a Ray cluster (``--backend ray [--address ADDR]``; the optional ``ray``
extra). A part's games depend only on its seeds, so a cluster gives the same
records, in the same order, as the processes of one machine."""

from __future__ import annotations

from interpreter.errors import CouldNotRun, Problem

try:
    import ray
except ImportError:      # the optional "ray" extra is not installed
    ray = None


def check_installed() -> None:
    if ray is None:
        raise CouldNotRun(Problem("E857", "--backend ray needs Ray", None, None,
                                  ("pip install 'cardrules[ray]'",)))


def run_parts(work, parts: list, address: str | None, stack):
    """``work(part)`` for every part as a Ray task; the results in the order
    of the parts, as each is needed (Ctrl-C between them stops the rest).
    Without ``address`` a Ray of this machine is started (and stopped after)."""
    check_installed()
    if not ray.is_initialized():
        try:
            ray.init(address=address, include_dashboard=False, log_to_driver=False,
                     logging_level="ERROR", configure_logging=False)
        except (ConnectionError, ValueError, RuntimeError) as err:
            raise CouldNotRun(Problem("E858", f"cannot join the Ray cluster {address}: {err}",
                                      None, None, ("the address of a running Ray cluster",)))
        stack.callback(ray.shutdown)
    remote = ray.remote(work)
    pending = [remote.remote(part) for part in parts]
    for number, ref in enumerate(pending):
        try:
            result = ray.get(ref)
        except KeyboardInterrupt:
            for waiting in pending[number:]:
                ray.cancel(waiting)
            raise
        yield result
