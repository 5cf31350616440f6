"""The language server: ``cardrules lsp`` speaks the Language Server Protocol
over stdio (pygls) for rules, card, deck and ruling files.

Each open or changed file has its game checked with the open buffers in
place of their files, and the problems are published to every file of the
game (an empty list where there are none, so that fixed mistakes go).
Completion, hover and go-to-definition answer from ``features``. pygls is
the optional ``lsp`` extra: without it :data:`AVAILABLE` is False and the
command says which extra to install.
"""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

from interpreter.editor import features
from interpreter.errors import Problem

try:
    from lsprotocol import types
    from pygls.lsp.server import LanguageServer
    from pygls.uris import from_fs_path, to_fs_path
    AVAILABLE = True
except ImportError:     # the optional extra is not installed: cli says so
    AVAILABLE = False

# how long typing pauses before a changed document is checked again
PAUSE_SECONDS = 0.3

_COMPLETION_KINDS = {
    "card": "Value", "timing label": "Event", "keyword": "Keyword", "verb": "Function",
    "zone": "Module", "stat": "Field", "card kind": "Class", "counter": "Variable",
    "status": "EnumMember", "event": "Event",
}


def _range(problem: Problem):
    span = problem.span
    end_column = span.end_column if (span.end_line, span.end_column) > (span.line, span.column) \
        else span.column + 1
    return types.Range(types.Position(span.line - 1, span.column - 1),
                       types.Position(span.end_line - 1, end_column - 1))


def diagnostic(problem: Problem):
    """A problem as the protocol shows it: its code, its exact range, its
    message with what was expected and the suggestion."""
    message = [problem.message]
    if problem.expected:
        message.append(f"expected: {', '.join(problem.expected)}")
    if problem.suggestion:
        message.append(problem.suggestion)
    severity = types.DiagnosticSeverity.Warning if problem.code.startswith("W") \
        else types.DiagnosticSeverity.Error
    return types.Diagnostic(range=_range(problem), message="\n".join(message),
                            severity=severity, code=problem.code, source="cardrules")


def _path(uri: str) -> Path | None:
    found = to_fs_path(uri)
    return None if found is None else Path(found).resolve()


def build_server():
    """The server with its features registered (pygls must be installed)."""
    server = LanguageServer("cardrules", "1")

    def open_texts() -> dict[Path, str]:
        texts = {}
        for uri, document in server.workspace.text_documents.items():
            path = _path(uri)
            if path is not None and path.suffix in features.SUFFIXES:
                texts[path] = document.source
        return texts

    def lines_of(file: Path, texts: dict[Path, str]) -> list[str]:
        """The lines of a file as the editor has it (open) or as saved."""
        text = texts.get(file)
        if text is None:
            try:
                text = file.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                text = ""
        return text.split("\n")

    def publish(uri: str) -> None:
        path = _path(uri)
        if path is None or path.suffix not in features.SUFFIXES:
            return
        texts = open_texts()
        codec = server.workspace.position_codec
        for file, problems in features.check_file(path, texts).items():
            lines = lines_of(file, texts)
            found = []
            for problem in problems:
                shown = diagnostic(problem)
                # columns count characters; the editor counts its own units
                # (UTF-16 unless it said otherwise)
                shown.range = codec.range_to_client_units(lines, shown.range)
                found.append(shown)
            server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
                uri=from_fs_path(str(file)) or file.as_uri(), diagnostics=found))

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls, params: types.DidOpenTextDocumentParams):
        publish(params.text_document.uri)

    # the latest change of each document: a check starts once typing pauses,
    # not at every keystroke (a rules file's new language takes seconds to build)
    latest: dict[str, int] = {}

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls, params: types.DidChangeTextDocumentParams):
        uri = params.text_document.uri
        latest[uri] = mine = latest.get(uri, 0) + 1
        await asyncio.sleep(PAUSE_SECONDS)
        if latest[uri] == mine:
            publish(uri)

    def ask(answer, params):
        """What ``answer`` (a feature) says at the request's position (the
        editor's units turned into characters)."""
        path = _path(params.text_document.uri)
        if path is None:
            return None
        texts = open_texts()
        position = server.workspace.position_codec.position_from_client_units(
            lines_of(path, texts), params.position)
        return answer(path, texts, position.line + 1, position.character + 1)

    @server.feature(types.TEXT_DOCUMENT_COMPLETION,
                    types.CompletionOptions(trigger_characters=['"', " "]))
    def completion(ls, params: types.CompletionParams):
        words = ask(features.complete, params) or []
        return types.CompletionList(is_incomplete=False, items=[
            types.CompletionItem(label=word, detail=what, kind=getattr(
                types.CompletionItemKind, _COMPLETION_KINDS.get(what, "Text")))
            for word, what in words])

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls, params: types.HoverParams):
        said = ask(features.hover, params)
        if said is None:
            return None
        return types.Hover(contents=types.MarkupContent(
            kind=types.MarkupKind.Markdown, value=f"```\n{said}\n```"))

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    def definition(ls, params: types.DefinitionParams):
        place = ask(features.definition, params)
        if place is None:
            return None
        start = types.Position(place.line - 1, 0)
        return types.Location(uri=from_fs_path(str(place.path)) or place.path.as_uri(),
                              range=types.Range(start, start))

    return server


def serve() -> bool:
    """Answer an editor over stdin and stdout until it exits; True if it was
    stopped by Ctrl-C (pygls ends quietly on it: the command's exit code
    says it)."""
    interrupted = []

    def on_interrupt(number, frame):
        interrupted.append(number)
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, on_interrupt)
    try:
        build_server().start_io()
    finally:
        signal.signal(signal.SIGINT, previous)
    return bool(interrupted)
