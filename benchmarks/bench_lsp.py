"""How soon the language server shows diagnostics after a change, as an editor sees it.

Run pinned to one core, from the repository root (the server and its worker
process inherit the pinning, so the quick pass and a heavy pass in flight
share the core):

    taskset -c 0 python benchmarks/bench_lsp.py [--changes N]

For each catalogue ruleset below (from a small file to the one whose full
check is the longest), the server is started over stdio as an editor starts
it, the file is opened, and then changed ``N`` times, a second apart (a typist
pausing): every other change misspells a key (``nmae:``) and the next puts it
back. Each row gives, from the moment the change is sent:

- **diagnostics**: until the diagnostics of that version are published (the
  quick pass, after the server's 0.25 s debounce); they are checked to be
  right (one S101 for the typo, none for the fixed text);
- **full check**: after the last change, until the heavy pass's diagnostics
  of that version (coverage, reachability, examples) are published; then until
  its example hands and exact frequencies (the hover's) are ready.

The peers, measured in the same run and process: the quick pass
(``examine_file(full=False)``) and the full check (``examine_file``) called
directly, without a server, on the same text. Ratios, not absolute times,
compare across machines; the acceptance figure (diagnostics within 1 s of a
change) is absolute on purpose.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lsprotocol import types  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402

from evaluator.core.resources import rulesets_dir  # noqa: E402
from evaluator.rules.yaml_read import editor_buffers  # noqa: E402
from evaluator.tools.check import examine_file  # noqa: E402

FILES = ["standard", "italian", "freak-hands"]
FULL_CHECK_WAIT = 600.0


class Client(LanguageClient):
    """A client that keeps what the server publishes and logs, with the time it came."""

    def __init__(self) -> None:
        super().__init__("pokerrules-bench", "1")
        self.published: dict[tuple[str, int | None], list[tuple[float, list[types.Diagnostic]]]] = {}
        self.logs: list[tuple[float, str]] = []

        @self.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_diagnostics(client: Client, params: types.PublishDiagnosticsParams) -> None:
            found = (time.perf_counter(), list(params.diagnostics))
            self.published.setdefault((params.uri, params.version), []).append(found)

        @self.feature(types.WINDOW_LOG_MESSAGE)
        def on_log(client: Client, params: types.LogMessageParams) -> None:
            self.logs.append((time.perf_counter(), params.message))

    async def diagnostics(self, uri: str, version: int, nth: int = 1) -> tuple[float, list[types.Diagnostic]]:
        """The ``nth`` publication for ``version`` (the quick pass's, then the full check's)."""
        while len(self.published.get((uri, version), [])) < nth:
            await asyncio.sleep(0.002)
        return self.published[(uri, version)][nth - 1]

    async def logged(self, needle: str) -> float:
        while True:
            for moment, message in self.logs:
                if needle in message:
                    return moment
            await asyncio.sleep(0.01)


def peers(path: Path, text: str, root: str) -> tuple[float, float]:
    """The quick pass (best of three) and the full check of ``text`` called directly (seconds)."""
    with editor_buffers({str(path): text}):
        quick = []
        for _ in range(3):  # the first call also pays for imports and parser set-up
            start = time.perf_counter()
            examine_file(path, (root,), full=False)
            quick.append(time.perf_counter() - start)
        start = time.perf_counter()
        examine_file(path, (root,))
        whole = time.perf_counter() - start
    return min(quick), whole


async def measure(name: str, folder: Path, changes: int, log: Path) -> str:
    path = folder / f"{name}.yaml"
    text = path.read_text(encoding="utf-8")
    typo = text.replace("\nname:", "\nnmae:", 1)
    assert typo != text
    client = Client()
    server = f"exec {sys.executable} -m evaluator lsp 2>>{log}"
    await client.start_io("sh", "-c", server)
    await client.initialize_async(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            root_uri=folder.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=folder.as_uri(), name="rules")],
        )
    )
    client.initialized(types.InitializedParams())
    uri = path.as_uri()
    sent = time.perf_counter()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)
        )
    )
    came, _ = await client.diagnostics(uri, 1)
    opened = came - sent
    waits = []
    for version in range(2, changes + 2):
        await asyncio.sleep(1.0)
        body = typo if version % 2 == 0 else text
        sent = time.perf_counter()
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=body)],
            )
        )
        came, found = await client.diagnostics(uri, version)
        waits.append(came - sent)
        codes = [d.code for d in found]
        assert codes == (["S101"] if body is typo else []), (name, version, codes)
    last = changes + 1
    came, found = await asyncio.wait_for(client.diagnostics(uri, last, nth=2), FULL_CHECK_WAIT)
    assert [d.code for d in found] == (["S101"] if last % 2 == 0 else []), (name, "full check", found)
    full = came - sent
    done = await asyncio.wait_for(client.logged(f"full check done: {uri} version {last}:"), FULL_CHECK_WAIT)
    insight = done - sent
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    quick, whole = peers(path, typo if last % 2 == 0 else text, str(folder))
    lines = text.count("\n")
    return (
        f"| {name} | {lines} | {opened:.2f} s | {statistics.median(waits):.2f} s | {max(waits):.2f} s "
        f"| {full:.1f} s | {insight:.1f} s | {quick * 1000:.0f} ms | {whole:.2f} s |"
    )


async def run(changes: int) -> None:
    with tempfile.TemporaryDirectory(prefix="pokerrules-bench-lsp-") as scratch:
        folder = Path(scratch) / "rulesets"
        shutil.copytree(rulesets_dir(), folder)  # the server never writes, but the files stay untouched
        log = Path(scratch) / "server.log"
        print(f"pinned to cores {sorted(os.sched_getaffinity(0))}; {changes} changes a second apart\n")
        print(
            "| ruleset | lines | open → diagnostics | change → diagnostics (median) | (max) "
            "| last change → full check | → examples and frequencies | peer: quick pass alone | peer: full check alone |"
        )
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for name in FILES:
            print(await measure(name, folder, changes, log), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=8, help="changes per file (default 8)")
    asyncio.run(run(parser.parse_args().changes))


if __name__ == "__main__":
    main()
