"""Games per second of ``cardrules simulate`` with 1 and 2 worker processes,
and whether the two reports are identical (they must be).

    python benchmarks/simulate_workers.py [GAME] [-n N]

Target (issue 20): 2 workers at least 1.7x the games per second of 1 on a
2-core machine. A loaded machine cannot show it: the load average is printed.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(game: str, games: int, workers: int) -> tuple[float, str]:
    command = [sys.executable, "-m", "interpreter.cli", "simulate", game, "-n", str(games),
               "--seed", "1", "--format", "json", "--workers", str(workers)]
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    return time.perf_counter() - start, done.stdout


def main(argv: list[str]) -> int:
    game = argv[0] if argv and not argv[0].startswith("-") else "ryft"
    games = int(argv[argv.index("-n") + 1]) if "-n" in argv else 400
    print(f"simulate {game} -n {games}; load average {os.getloadavg()[0]:.2f} "
          f"on {os.cpu_count()} cores")
    one, report_one = run(game, games, 1)
    two, report_two = run(game, games, 2)
    print(f"  1 worker : {games / one:7.1f} games/s ({one:.1f} s)")
    print(f"  2 workers: {games / two:7.1f} games/s ({two:.1f} s)  {one / two:.2f}x "
          f"[{'MET' if one / two >= 1.7 else 'NOT MET'}: target 1.7x]")
    print(f"  reports identical: {report_one == report_two and bool(report_one)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
