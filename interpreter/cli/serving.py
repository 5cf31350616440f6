"""``serve``: the web table on this machine (the optional ``web`` extra)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from interpreter.cli.common import print_problems
from interpreter.errors import Problem

try:
    import uvicorn

    from interpreter.web.app import create_app
except ImportError:      # the optional "web" extra is not installed
    uvicorn = None


@click.command()
@click.argument("folder", required=False, type=click.Path(path_type=Path))
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on; the default serves this machine only.")
def serve(folder: Path | None, port: int, host: str) -> None:
    """Serve the web table: play any game in a browser, step through replays,
    read balance reports (FOLDER: a project folder, default the current one)."""
    if uvicorn is None:
        print_problems([Problem("E921", "the web table needs the web extra", None, None,
                                ("pip install 'cardrules[web]'",))], err=True)
        sys.exit(2)
    folder = folder or Path.cwd()
    if not folder.is_dir():
        print_problems([Problem("E901", f"no such folder: {folder}")], err=True)
        sys.exit(2)
    click.echo(f"cardrules table on http://{host}:{port}/ (Ctrl-C stops it)", err=True)
    uvicorn.run(create_app(folder), host=host, port=port, log_level="warning")


COMMANDS = (serve,)
