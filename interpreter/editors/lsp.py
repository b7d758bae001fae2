"""`umpire lsp`: a language server over stdio (the Language Server Protocol, on pygls).

Diagnostics as you type (the checker's own, with their hints), go to the declaration of a name,
hover (the declaration's line, label and rule citation), completion of names and keywords, and
after a dot of what the name before it has. A file with a syntax error answers from its last text
that parsed. The work is in workbench.py, index.py and members.py; this module speaks the protocol. Imported only by the
`lsp` command, so no other command needs pygls.
"""

from __future__ import annotations

import asyncio
import os
from urllib.parse import unquote

from lsprotocol import types as t
from pygls import uris
from pygls.lsp.server import LanguageServer
from pygls.workspace import TextDocument

from ..syntax.diagnostics import Diagnostic
from . import framing
from .index import Declaration, word_at
from .members import Member, dotted
from .vocabulary import vocabulary
from .workbench import Workbench, normal, too_large

_SEVERITY = {"error": t.DiagnosticSeverity.Error, "warning": t.DiagnosticSeverity.Warning,
             "note": t.DiagnosticSeverity.Information}
# A burst of keystrokes is checked once, after this many seconds without another edit of the file.
_SETTLE = 0.2
_CALLED = {"procedure": t.CompletionItemKind.Function, "function": t.CompletionItemKind.Function,
           "table": t.CompletionItemKind.Function}


class UmpireServer(LanguageServer):
    """The server, with the checks and names of the files open in the editor."""

    def __init__(self, allowed: list[str]) -> None:
        from .. import __version__

        super().__init__("umpire", __version__, text_document_sync_kind=t.TextDocumentSyncKind.Full)
        self.bench = Workbench(allowed)
        self.uris: dict[str, str] = {}  # a file's path -> the URI the editor names it by
        self.edits: dict[str, int] = {}  # a file's path -> how many edits it has had (the last one is checked)
        self.checking = asyncio.Lock()  # one check at a time: each reads and sets the workbench


def serve(allowed: list[str]) -> int:
    # The cache (cache.py) keys an entry by the files' text: with buffers that change at every
    # keystroke it would write an entry per edit and never read one.
    os.environ["UMPIRE_CACHE"] = "off"
    server = UmpireServer(allowed)
    for name, handler in _HANDLERS:
        server.feature(name)(handler)
    server.feature(t.TEXT_DOCUMENT_COMPLETION, t.CompletionOptions(trigger_characters=["."]))(completion)
    framing.run(server)  # in place of server.start_io(): framing.py says why
    return 0


def _path(ls: UmpireServer, uri: str) -> str | None:
    """The file a URI names; None for a buffer that is no file (an editor's 'untitled:'), which is not checked."""
    path = uris.to_fs_path(uri) if uri.startswith("file:") else None
    if path is None:
        return None
    ls.uris.setdefault(normal(path), uri)
    return normal(path)


def _buffers(ls: UmpireServer) -> dict[str, str]:
    out = {}
    for uri, doc in ls.workspace.text_documents.items():
        path = uris.to_fs_path(uri) if uri.startswith("file:") else None
        if path:
            out[normal(path)] = doc.source
    return out


def _publish(ls: UmpireServer, paths: set[str]) -> None:
    for path in sorted(paths):
        uri = ls.uris.get(path) or uris.from_fs_path(path)
        if uri:
            found = [_diagnostic(d) for d in ls.bench.diagnostics(path)]
            ls.text_document_publish_diagnostics(t.PublishDiagnosticsParams(uri=uri, diagnostics=found))


def _diagnostic(d: Diagnostic) -> t.Diagnostic:
    """A diagnostic as the protocol has it: 0-based, its hint and notes after the message."""
    span = d.span
    start = t.Position(line=max(span.line - 1, 0), character=max(span.col - 1, 0))
    end = t.Position(line=max(span.end_line - 1, 0), character=max(span.end_col - 1, 0))
    message = "\n".join([d.message, *([d.hint] if d.hint else []), *(f"note: {n}" for n in d.notes)])
    return t.Diagnostic(range=t.Range(start=start, end=max(start, end, key=lambda p: (p.line, p.character))),
                        message=message, severity=_SEVERITY.get(d.severity, t.DiagnosticSeverity.Error),
                        source="umpire")


async def _refresh(ls: UmpireServer, uri: str, closing: bool = False) -> None:
    """Check what an edit (or a close) of a file changes, off the server's loop, so that requests are
    answered meanwhile; the diagnostics of every file concerned are published again."""
    path = _path(ls, uri)
    if path is None:
        return
    ls.edits[path] = edit = ls.edits.get(path, 0) + 1
    await asyncio.sleep(_SETTLE)
    if ls.edits[path] != edit:  # a later edit will be checked instead
        return
    async with ls.checking:
        buffers = {p: text for p, text in _buffers(ls).items() if not (closing and p == path)}
        work = ls.bench.closed if closing else ls.bench.changed
        touched = await asyncio.to_thread(work, path, buffers)
    _publish(ls, touched | ({path} if closing else set()))


async def did_open(ls: UmpireServer, params: t.DidOpenTextDocumentParams) -> None:
    await _refresh(ls, params.text_document.uri)


async def did_change(ls: UmpireServer, params: t.DidChangeTextDocumentParams) -> None:
    await _refresh(ls, params.text_document.uri)


async def did_save(ls: UmpireServer, params: t.DidSaveTextDocumentParams) -> None:
    await _refresh(ls, params.text_document.uri)


async def did_close(ls: UmpireServer, params: t.DidCloseTextDocumentParams) -> None:
    await _refresh(ls, params.text_document.uri, closing=True)


def _opened(ls: UmpireServer, uri: str) -> TextDocument | None:
    """The editor's text of a document it has opened; None for any other. (pygls's get_text_document
    would read a document never opened from disk, wherever its URI points and whatever its name.)"""
    return ls.workspace.text_documents.get(unquote(uri))


def _named(ls: UmpireServer, params: t.TextDocumentPositionParams) -> list[Declaration]:
    """The declarations of the name under the cursor (none in a document the editor has not opened)."""
    doc = _opened(ls, params.text_document.uri)
    if doc is None:
        return []
    word = word_at(doc.source, params.position.line, params.position.character)
    path = _path(ls, params.text_document.uri)
    if word is None or path is None:
        return []
    return [d for d in ls.bench.names(path) if d.name == word]


def _location(ls: UmpireServer, d: Declaration) -> t.Location:
    path = normal(d.span.file)
    start = t.Position(line=d.span.line - 1, character=d.span.col - 1)
    end = t.Position(line=d.span.end_line - 1, character=d.span.end_col - 1)
    return t.Location(uri=ls.uris.get(path) or uris.from_fs_path(path), range=t.Range(start=start, end=end))


def definition(ls: UmpireServer, params: t.DefinitionParams) -> list[t.Location]:
    return [_location(ls, d) for d in _named(ls, params)]


def hover(ls: UmpireServer, params: t.HoverParams) -> t.Hover | None:
    found = _named(ls, params)
    if not found:
        return None
    parts = []
    for d in found:
        head = f"**{d.what}** `{d.name}`" + (f" \u2014 {d.label}" if d.label else "") + (f" [{d.cite}]" if d.cite else "")
        where = f"{os.path.basename(d.span.file)}:{d.span.line}"
        parts.append(f"{head}\n\n```umpire\n{d.line}\n```\n{where}")
    return t.Hover(contents=t.MarkupContent(kind=t.MarkupKind.Markdown, value="\n\n---\n\n".join(parts)))


def completion(ls: UmpireServer, params: t.CompletionParams) -> t.CompletionList:
    """After `NAME.`, what NAME has (members.py); elsewhere every declared name the file can see, then
    the keywords (the client filters as you type)."""
    path = _path(ls, params.text_document.uri)
    doc = _opened(ls, params.text_document.uri)
    if doc is None or too_large(doc.source):  # not opened, or not checked (its one diagnostic says so): nothing offered
        return t.CompletionList(is_incomplete=False, items=[])
    lines = doc.source.splitlines()
    at = params.position
    before = dotted(lines[at.line][: at.character]) if at.line < len(lines) else None
    if before is not None:
        offered: dict[str, t.CompletionItem] = {}
        for m in ls.bench.members(path, doc.source, at.line + 1, *before) if path else ():
            offered.setdefault(m.name, _member_item(m))
        return t.CompletionList(is_incomplete=False, items=list(offered.values()))
    items: dict[str, t.CompletionItem] = {}
    for d in ls.bench.names(path) if path else ():
        detail = d.what + (f" [{d.cite}]" if d.cite else "")
        items.setdefault(d.name, t.CompletionItem(label=d.name, detail=detail, documentation=d.line,
                                                  kind=_CALLED.get(d.what, t.CompletionItemKind.Variable)))
    v = vocabulary()
    for word in (*v.keywords, *v.phrases):
        items.setdefault(word, t.CompletionItem(label=word, kind=t.CompletionItemKind.Keyword, detail="keyword"))
    return t.CompletionList(is_incomplete=False, items=list(items.values()))


def _member_item(m: Member) -> t.CompletionItem:
    return t.CompletionItem(label=m.name, kind=t.CompletionItemKind.Field, documentation=m.line,
                            detail=m.what + (f" [{m.cite}]" if m.cite else ""))


_HANDLERS = [
    (t.TEXT_DOCUMENT_DID_OPEN, did_open),
    (t.TEXT_DOCUMENT_DID_CHANGE, did_change),
    (t.TEXT_DOCUMENT_DID_SAVE, did_save),
    (t.TEXT_DOCUMENT_DID_CLOSE, did_close),
    (t.TEXT_DOCUMENT_DEFINITION, definition),
    (t.TEXT_DOCUMENT_HOVER, hover),
]
