"""The language server: pygls wiring, when each pass runs, and what is published where.

- **Open, change, save.** A change waits :data:`DEBOUNCE_SECONDS` for the
  typing to pause (open and save do not wait), then the quick pass
  (:func:`~evaluator.lsp.analysis.analyse`) runs on a thread and its
  diagnostics are published; a newer change makes an older result void. Then
  the heavy pass is handed to the worker process
  (:class:`~evaluator.lsp.worker.Background`), which replaces a pass still
  running for the same file; its diagnostics, example hands and frequencies
  are published when they come. While it runs, the warnings the last heavy
  pass found (coverage, reachability, examples) stay shown beside the quick
  pass's, unless the quick pass found an error.
- **Parents.** Every open file is checked with the editor's text of the other
  open files, so an unsaved parent counts; a change to a file (in the editor,
  or on disk as the client reports it) checks again every open file whose
  ``extends:`` chain holds it. A diagnostic located in a parent is published
  on the parent.
- **The log.** Each quick pass logs ``pokerrules: checked URI version N: K
  problems in T ms``, each heavy pass ``pokerrules: full check done: URI
  version N: K problems`` (what to look at when an editor seems slow).
- **Never down.** Every request handler answers nothing rather than fail; a
  bug is logged to the client.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar, cast

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from ..core.errors import Diagnostic, PokerRulesError
from ..core.version import __version__
from . import actions, complete, hover, navigate
from .analysis import Analysis, Insight, analyse, is_rule_file, path_of_uri, uri_of_path
from .textmap import TextMap
from .worker import Background, Job, diagnostics_of

__all__ = ["DEBOUNCE_SECONDS", "RulesServer", "build_server"]

#: How long typing must pause before a change is checked.
DEBOUNCE_SECONDS = 0.25
_LOG = logging.getLogger(__name__)


class RulesServer(LanguageServer):
    """The pokerrules language server (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__("pokerrules", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.analyses: dict[str, Analysis] = {}
        self.insights: dict[str, Insight] = {}
        self.heavy: dict[str, tuple[int | None, list[Diagnostic]]] = {}
        self.kept: dict[str, list[Diagnostic]] = {}  # the last heavy pass's own findings, shown until the next
        self.pending: dict[str, asyncio.Task[None]] = {}
        self.jobs: dict[int, tuple[str, int | None, list[Diagnostic]]] = {}
        self.numbers = itertools.count(1)
        self.contributions: dict[str, dict[str, list[types.Diagnostic]]] = {}  # target uri -> from uri -> list
        self.quick = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pokerrules-quick")
        self.background: Background | None = None
        self.loop: asyncio.AbstractEventLoop | None = None

    # --- what is open -----------------------------------------------------------

    def text(self, uri: str) -> tuple[str, int | None] | None:
        """The editor's text of an open document and its version (None when it is not open)."""
        from urllib.parse import unquote

        document = self.workspace.text_documents.get(unquote(uri))
        return (document.source, document.version) if document is not None else None

    def open_uris(self) -> list[str]:
        """Every open document."""
        return [document.uri for document in self.workspace.text_documents.values()]

    def buffers(self) -> dict[str, str]:
        """The open documents' texts, by path (they stand for the files on disk in every check)."""
        found = {}
        for uri in self.open_uris():
            opened = self.text(uri)
            if opened is not None and uri.startswith("file:"):
                found[str(path_of_uri(uri))] = opened[0]
        return found

    def roots(self) -> tuple[str, ...]:
        """The workspace folders: ``extends:`` may reach anywhere inside them."""
        uris = [folder.uri for folder in self.workspace.folders.values()]
        if self.workspace.root_uri:
            uris.append(self.workspace.root_uri)
        return tuple(dict.fromkeys(os.path.realpath(path_of_uri(uri)) for uri in uris if uri.startswith("file:")))

    def text_of(self, source: str) -> str | None:
        """A file's text: the editor's when it is open, else the disk's (bounded as every read is)."""
        from ..rules.yaml_read import read_bytes

        real = os.path.realpath(source)
        for uri in self.open_uris():
            if uri.startswith("file:") and os.path.realpath(path_of_uri(uri)) == real:
                opened = self.text(uri)
                if opened is not None:
                    return opened[0]
        try:
            return read_bytes(Path(source)).decode("utf-8", "replace")
        except (PokerRulesError, OSError):
            return None

    def encoding(self) -> str:
        """The position encoding agreed with the client."""
        chosen = self.server_capabilities.position_encoding if self.protocol.server_capabilities else None
        return str(chosen or types.PositionEncodingKind.Utf16)

    def textmap(self, text: str) -> TextMap:
        """A :class:`TextMap` in the agreed encoding."""
        return TextMap(text, self.encoding())

    def log(self, message: str, kind: types.MessageType = types.MessageType.Log) -> None:
        """A message in the client's log."""
        try:
            self.window_log_message(types.LogMessageParams(type=kind, message=message))
        except Exception:  # noqa: BLE001 - a closed channel: nothing more to tell
            _LOG.warning("%s", message)

    # --- scheduling --------------------------------------------------------------

    def schedule(self, uri: str, delay: float) -> None:
        """Check ``uri`` after ``delay`` seconds (an earlier request for it is dropped)."""
        task = self.pending.pop(uri, None)
        if task is not None:
            task.cancel()
        self.pending[uri] = asyncio.ensure_future(self._run(uri, delay))

    def dependents(self, path: Path, delay: float, besides: str = "") -> None:
        """Check again every open file whose ``extends:`` chain holds ``path``."""
        real = os.path.realpath(path)
        for uri, analysis in list(self.analyses.items()):
            if uri != besides and real in analysis.sources[1:]:
                self.schedule(uri, delay)

    async def _run(self, uri: str, delay: float) -> None:
        try:
            await asyncio.sleep(delay)
            opened = self.text(uri)
            if opened is None:
                return
            text, version = opened
            buffers = {path: body for path, body in self.buffers().items() if path != str(path_of_uri(uri))}
            loop = asyncio.get_running_loop()
            started = time.perf_counter()
            analysis = await loop.run_in_executor(self.quick, _quick, uri, version, text, buffers, self.roots())
            if self.text(uri) != opened:
                return  # a newer change is on its way
            self.analyses[uri] = analysis
            self.publish(uri)
            if analysis.rule_file:
                took = (time.perf_counter() - started) * 1000
                count = len(analysis.diagnostics)
                self.log(f"pokerrules: checked {uri} version {version}: {count} problems in {took:.0f} ms")
            if analysis.rule_file:
                self.submit(uri, version, buffers, analysis.diagnostics)
        except asyncio.CancelledError:
            raise
        except Exception as bug:  # noqa: BLE001 - the server stays up
            self.log(
                f"pokerrules: internal error while checking {uri}: {type(bug).__name__}: {bug}", types.MessageType.Error
            )
        finally:
            if self.pending.get(uri) is asyncio.current_task():
                del self.pending[uri]

    def submit(self, uri: str, version: int | None, buffers: dict[str, str], quick: list[Diagnostic]) -> None:
        """Hand the heavy pass of ``uri`` to the worker process."""
        if self.background is None:
            loop = asyncio.get_running_loop()
            self.loop = loop

            def deliver(message: tuple[Any, ...]) -> None:
                loop.call_soon_threadsafe(self.on_message, message)

            self.background = Background(deliver)
        number = next(self.numbers)
        for older in [n for n, job in self.jobs.items() if job[0] == uri]:
            del self.jobs[older]  # the worker drops a job for the same file: its results are void
        self.jobs[number] = (uri, version, quick)
        path = str(path_of_uri(uri))
        self.background.submit(Job(uri, number, path, {**buffers, path: self.text(uri)[0]}, self.roots()))  # type: ignore[index]

    def on_message(self, message: tuple[Any, ...]) -> None:
        """A result of the worker process (on the event loop)."""
        kind, number = message[0], message[1]
        if number not in self.jobs:
            return
        uri, version, quick = self.jobs[number]
        opened = self.text(uri)
        current = opened is not None and opened[1] == version
        if kind == "diagnostics" and current:
            found = diagnostics_of(message[2])
            self.heavy[uri] = (version, found)
            self.kept[uri] = [d for d in found if d not in quick and d.severity == "warning"]
            self.publish(uri)
        elif kind in ("examples", "stats") and opened is not None:
            insight = self.insights.get(uri)
            if insight is None or insight.version != version:
                insight = self.insights[uri] = Insight(version, {}, {})
            if kind == "examples":
                insight.examples = dict(message[2])
            else:
                insight.stats[int(message[2])] = dict(message[3])
                self.log(f"pokerrules: frequencies of {message[2]}-card deals ready: {uri} version {version}")
                self.refresh_hints()
        elif kind == "error":
            self.log(f"pokerrules: internal error in the full check of {uri}: {message[2]}", types.MessageType.Error)
        if kind in ("done", "died"):
            del self.jobs[number]
            heavy = self.heavy.get(uri)
            count = len(heavy[1]) if heavy is not None and heavy[0] == version else 0
            # a line tests and scripts can wait for
            self.log(
                f"pokerrules: full check {'done' if kind == 'done' else 'stopped'}: {uri} version {version}: {count} problems"
            )

    def refresh_hints(self) -> None:
        """Ask the client to fetch inlay hints again (the frequencies came)."""
        workspace = self.client_capabilities.workspace
        support = workspace.inlay_hint if workspace is not None else None
        if support is not None and support.refresh_support:
            self.workspace_inlay_hint_refresh(None)

    # --- publishing ---------------------------------------------------------------

    def publish(self, uri: str) -> None:
        """Publish what is known of ``uri``: on itself, and what lies in its parents on them."""
        analysis = self.analyses.get(uri)
        found: list[Diagnostic] = []
        if analysis is not None and analysis.rule_file:
            heavy = self.heavy.get(uri)
            if heavy is not None and heavy[0] == analysis.version:
                found = heavy[1]
            else:
                found = list(analysis.diagnostics)
                if not any(d.severity == "error" for d in found):
                    lines = analysis.text.count("\n") + 1
                    found += [d for d in self.kept.get(uri, []) if d.line <= lines and d not in found]
        by_target: dict[str, list[Diagnostic]] = {}
        own = os.path.realpath(path_of_uri(uri))
        for diagnostic in found:
            real = os.path.realpath(diagnostic.source)
            target = uri if real == own or not os.path.isabs(diagnostic.source) else uri_of_path(real)
            by_target.setdefault(target, []).append(diagnostic)
        touched = {target for target, sources in self.contributions.items() if uri in sources} | set(by_target) | {uri}
        for target in touched:
            diagnostics = by_target.get(target, [])
            text = analysis.text if target == uri and analysis is not None else self.text_of(str(path_of_uri(target)))
            textmap = self.textmap(text or "")
            self.contributions.setdefault(target, {})[uri] = [actions.to_lsp(d, textmap) for d in diagnostics]
            self.send(target)

    def send(self, target: str) -> None:
        """Publish the union of what every open file found in ``target``."""
        merged: dict[tuple[Any, ...], types.Diagnostic] = {}
        for found in self.contributions.get(target, {}).values():
            for diagnostic in found:
                merged.setdefault((diagnostic.code, diagnostic.message, str(diagnostic.range)), diagnostic)
        opened = self.text(target)
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(
                uri=target, diagnostics=list(merged.values()), version=opened[1] if opened is not None else None
            )
        )

    def forget(self, uri: str) -> None:
        """A closed document: its passes stop and what it published goes."""
        task = self.pending.pop(uri, None)
        if task is not None:
            task.cancel()
        if self.background is not None:
            self.background.cancel(uri)
        analysis = self.analyses.pop(uri, None)
        for name in ("insights", "heavy", "kept"):
            getattr(self, name).pop(uri, None)
        for target, sources in list(self.contributions.items()):
            if sources.pop(uri, None) is not None:
                self.send(target)
        if analysis is not None:
            self.dependents(analysis.path, 0)

    # --- what a request sees ----------------------------------------------------------

    def view(self, uri: str) -> tuple[Analysis, TextMap] | None:
        """The latest analysis of ``uri`` over the editor's current text (None before the first)."""
        analysis = self.analyses.get(uri)
        opened = self.text(uri)
        if analysis is None or opened is None:
            return None
        if not analysis.rule_file and not _may_be_rule_file(opened[0]):
            return None
        current = replace(analysis, text=opened[0]) if opened[0] != analysis.text else analysis
        return current, self.textmap(opened[0])

    def shutdown_worker(self) -> None:
        """End the worker process and the quick pass's thread."""
        if self.background is not None:
            self.background.close()
        self.quick.shutdown(wait=False, cancel_futures=True)


def _quick(uri: str, version: int | None, text: str, buffers: dict[str, str], roots: tuple[str, ...]) -> Analysis:
    """The quick pass on the thread; a bug gives an analysis with one R199 diagnostic, never an exception."""
    try:
        return analyse(uri, version, text, buffers, roots)
    except Exception as bug:  # noqa: BLE001
        path = path_of_uri(uri)
        message = f"internal error while checking this file: {type(bug).__name__}: {bug}"[:300]
        return Analysis(uri, path, version, text, is_rule_file(text), [Diagnostic("R199", message, str(path))])


def _may_be_rule_file(text: str) -> bool:
    """A file not yet saying what it is, whose top-level keys are all ruleset keys (or the start of one)."""
    import re

    from ..rules.confine import RULESET_KEYS

    keys = re.findall(r"^([^\s#:-][^:\n]*)", text[:65_536], re.M)
    return all(any(name.startswith(key.strip()) for name in RULESET_KEYS) for key in keys)


Handler = TypeVar("Handler", bound=Callable[..., Any])


def _guarded(default: Any) -> Callable[[Handler], Handler]:
    """A request handler that answers ``default`` and logs, rather than fail, on a bug."""
    import functools

    def wrap(handler: Handler) -> Handler:
        @functools.wraps(handler)
        def guarded(ls: RulesServer, params: Any) -> Any:
            try:
                return handler(ls, params)
            except Exception as bug:  # noqa: BLE001 - the server stays up
                ls.log(
                    f"pokerrules: internal error in {handler.__name__}: {type(bug).__name__}: {bug}",
                    types.MessageType.Error,
                )
                return default

        return cast(Handler, guarded)

    return wrap


def _feature(server: RulesServer, name: str, options: Any = None) -> Callable[[Handler], Handler]:
    """pygls's ``feature`` decorator, typed."""
    decorate: Callable[[Handler], Handler] = server.feature(name, options)
    return decorate


def build_server() -> RulesServer:
    """A server with every feature registered (a new one each call: tests start their own)."""
    server = RulesServer()

    @_feature(server, types.TEXT_DOCUMENT_DID_OPEN)
    @_guarded(None)
    def did_open(ls: RulesServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, 0)

    @_feature(server, types.TEXT_DOCUMENT_DID_CHANGE)
    @_guarded(None)
    def did_change(ls: RulesServer, params: types.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        ls.schedule(uri, DEBOUNCE_SECONDS)
        ls.dependents(path_of_uri(uri), DEBOUNCE_SECONDS, besides=uri)

    @_feature(server, types.TEXT_DOCUMENT_DID_SAVE)
    @_guarded(None)
    def did_save(ls: RulesServer, params: types.DidSaveTextDocumentParams) -> None:
        uri = params.text_document.uri
        ls.schedule(uri, 0)
        ls.dependents(path_of_uri(uri), 0, besides=uri)

    @_feature(server, types.TEXT_DOCUMENT_DID_CLOSE)
    @_guarded(None)
    def did_close(ls: RulesServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.forget(params.text_document.uri)

    @_feature(server, types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    @_guarded(None)
    def files_changed(ls: RulesServer, params: types.DidChangeWatchedFilesParams) -> None:
        for change in params.changes:
            if ls.text(change.uri) is None:  # an open file is followed through the editor
                ls.dependents(path_of_uri(change.uri), 0)

    @_feature(server, types.INITIALIZED)
    @_guarded(None)
    def initialized(ls: RulesServer, params: types.InitializedParams) -> None:
        workspace = ls.client_capabilities.workspace
        watched = workspace.did_change_watched_files if workspace is not None else None
        if watched is not None and watched.dynamic_registration:
            watchers = [types.FileSystemWatcher(glob_pattern=f"**/*.{suffix}") for suffix in ("yaml", "yml")]
            options = types.DidChangeWatchedFilesRegistrationOptions(watchers=watchers)
            registration = types.Registration(
                id="pokerrules-rule-files", method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES, register_options=options
            )
            ls.client_register_capability(types.RegistrationParams(registrations=[registration]))

    @_feature(server, types.SHUTDOWN)
    def shutdown(ls: RulesServer, params: None) -> None:
        ls.shutdown_worker()

    @_feature(server, types.TEXT_DOCUMENT_HOVER)
    @_guarded(None)
    def on_hover(ls: RulesServer, params: types.HoverParams) -> types.Hover | None:
        found = ls.view(params.text_document.uri)
        if found is None:
            return None
        analysis, textmap = found
        uri = params.text_document.uri
        counting = any(job[0] == uri for job in ls.jobs.values())
        return hover.hover(analysis, ls.insights.get(uri), textmap, textmap.offset_at(params.position), counting)

    @_feature(
        server, types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=[" ", "[", ",", "{", "/"])
    )
    @_guarded([])
    def on_completion(ls: RulesServer, params: types.CompletionParams) -> list[types.CompletionItem]:
        found = ls.view(params.text_document.uri)
        if found is None:
            return []
        analysis, textmap = found
        return complete.complete(analysis, textmap, textmap.offset_at(params.position))

    @_feature(server, types.TEXT_DOCUMENT_DEFINITION)
    @_guarded([])
    def on_definition(ls: RulesServer, params: types.DefinitionParams) -> list[types.Location]:
        found = ls.view(params.text_document.uri)
        if found is None:
            return []
        analysis, textmap = found
        return navigate.definition(analysis, textmap, textmap.offset_at(params.position), ls.roots(), ls.text_of)

    @_feature(server, types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    @_guarded([])
    def on_symbols(ls: RulesServer, params: types.DocumentSymbolParams) -> list[types.DocumentSymbol]:
        found = ls.view(params.text_document.uri)
        return navigate.symbols(*found) if found is not None else []

    @_feature(server, types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions())
    @_guarded([])
    def on_inlay_hints(ls: RulesServer, params: types.InlayHintParams) -> list[types.InlayHint]:
        found = ls.view(params.text_document.uri)
        if found is None:
            return []
        analysis, textmap = found
        hints = navigate.inlay_hints(analysis, ls.insights.get(params.text_document.uri), textmap)
        start, end = params.range.start, params.range.end
        return [
            h
            for h in hints
            if (start.line, start.character) <= (h.position.line, h.position.character) <= (end.line, end.character)
        ]

    @_feature(
        server,
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
    )
    @_guarded([])
    def on_code_action(ls: RulesServer, params: types.CodeActionParams) -> list[types.CodeAction]:
        uri = params.text_document.uri
        found = ls.view(uri)
        if found is None:
            return []
        analysis, textmap = found
        return actions.code_actions(analysis, textmap, uri, list(params.context.diagnostics))

    return server
