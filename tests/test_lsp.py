"""The language server, driven as an editor drives it: ``pokerrules lsp`` over stdio (pytest-lsp).

Each test starts the server in a process of its own, opens files in a
workspace folder and waits for what an editor waits for: published
diagnostics, and the log line the server writes when a file's full check is
done (``pokerrules: full check done: URI version N: K problems``).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import subprocess
import sys
from collections import Counter
from itertools import combinations
from pathlib import Path
from urllib.parse import urlparse
from urllib.request import url2pathname

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from samples import SMALL

from evaluator.cli.main import main
from evaluator.core.resources import rulesets_dir

pytestmark = pytest.mark.usefixtures("table_cache")

SERVER = [sys.executable, "-m", "evaluator", "lsp"]
WAIT = 240.0  # seconds: a generous bound on a loaded machine; a working server answers in a few


def capabilities() -> types.ClientCapabilities:
    """VS Code's capabilities, less dynamic registration (the test client does not answer it)."""
    found = client_capabilities("visual-studio-code")
    if found.workspace is not None:
        found.workspace.did_change_watched_files = None
    return found


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER))
async def client(lsp_client: LanguageClient, tmp_path: Path):  # type: ignore[no-untyped-def]
    folder = types.WorkspaceFolder(uri=tmp_path.as_uri(), name="rules")
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=capabilities(), workspace_folders=[folder], root_uri=tmp_path.as_uri())
    )
    yield
    await lsp_client.shutdown_session()


# --- helpers ------------------------------------------------------------------------------


def open_file(client: LanguageClient, path: Path, text: str | None = None, version: int = 1) -> str:
    """Open ``path`` in the editor (its text on disk, unless ``text`` is given); its URI."""
    if text is None:
        text = path.read_text(encoding="utf-8")
    elif not path.exists():
        path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    item = types.TextDocumentItem(uri=uri, language_id="yaml", version=version, text=text)
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=item))
    return uri


def change(client: LanguageClient, uri: str, text: str, version: int) -> None:
    """Replace the whole text of an open document, as typing does."""
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


async def logged(client: LanguageClient, needle: str) -> str:
    """Wait for a log message containing ``needle``."""

    async def search() -> str:
        while True:
            for message in client.log_messages:
                if needle in message.message:
                    return message.message
            await asyncio.sleep(0.05)

    return await asyncio.wait_for(search(), WAIT)


async def checked(client: LanguageClient, uri: str, version: int = 1) -> list[types.Diagnostic]:
    """The diagnostics of ``uri`` once its full check of ``version`` is done."""
    await logged(client, f"full check done: {uri} version {version}:")
    await asyncio.sleep(0.1)  # the publication precedes the log line on the same channel
    return list(client.diagnostics.get(uri, []))


async def published(client: LanguageClient, uri: str, wanted: object) -> list[types.Diagnostic]:
    """Wait until the diagnostics published for ``uri`` satisfy ``wanted`` (a predicate)."""

    async def search() -> list[types.Diagnostic]:
        while True:
            found = client.diagnostics.get(uri)
            if found is not None and wanted(list(found)):  # type: ignore[operator]
                return list(found)
            await asyncio.sleep(0.05)

    return await asyncio.wait_for(search(), WAIT)


def position(text: str, needle: str, skip: int = 0) -> types.Position:
    """The LSP position of the first character of ``needle`` in ``text`` (plus ``skip`` characters)."""
    offset = text.index(needle) + skip
    line = text.count("\n", 0, offset)
    return types.Position(line=line, character=offset - (text.rfind("\n", 0, offset) + 1))


def apply(text: str, edits: list[types.TextEdit]) -> str:
    """``text`` with LSP edits applied (ASCII text: characters are code units)."""
    lines = text.split("\n")
    starts = [sum(len(line) + 1 for line in lines[:n]) for n in range(len(lines))]
    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        start = starts[edit.range.start.line] + edit.range.start.character
        end = starts[edit.range.end.line] + edit.range.end.character
        text = text[:start] + edit.new_text + text[end:]
    return text


async def preferred_fixes(
    client: LanguageClient, uri: str, diagnostics: list[types.Diagnostic]
) -> list[types.TextEdit]:
    """The edits of the preferred quick fixes the server offers for ``diagnostics``."""
    edits: list[types.TextEdit] = []
    for diagnostic in diagnostics:
        offered = await client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                range=diagnostic.range,
                context=types.CodeActionContext(diagnostics=[diagnostic]),
            )
        )
        for action in offered or []:
            if isinstance(action, types.CodeAction) and action.is_preferred and action.edit and action.edit.changes:
                edits += action.edit.changes[uri]
    return edits


# --- diagnostics and quick fixes -----------------------------------------------------------


@pytest.mark.asyncio
async def test_a_typo_is_diagnosed_with_code_and_range_and_its_quick_fix_makes_the_file_clean(
    client: LanguageClient, tmp_path: Path
) -> None:
    text = SMALL.replace("name:", "nmae:")
    uri = open_file(client, tmp_path / "house.yaml", text)
    (found,) = await published(client, uri, lambda found: bool(found))
    assert (found.code, found.severity, found.source) == ("S101", types.DiagnosticSeverity.Error, "pokerrules")
    assert found.range == types.Range(start=position(text, "nmae:"), end=position(text, "nmae:", skip=4))
    assert "did you mean 'name'" in found.message
    edits = await preferred_fixes(client, uri, [found])
    fixed = apply(text, edits)
    assert fixed == SMALL
    change(client, uri, fixed, 2)
    assert await checked(client, uri, 2) == []


@pytest.mark.asyncio
async def test_the_editors_fixes_are_the_fixes_of_check_fix(client: LanguageClient, tmp_path: Path) -> None:
    """Applying the preferred quick fixes until none is left gives the text `check --fix` writes."""
    typos = SMALL.replace("name: small", "nme: small").replace(", pair, high_card]", ", piar, high_card]")
    typos = typos.replace('pair:            {pattern: "XX Y Z W"}', 'pair: {pattern: "XX Y Z W", desribe: "a pair"}')
    # a category left out of order (W101, found by the full check): the fix adds it where its hands land
    typos = typos.replace("  flush:", '  straight_flush: {pattern: "run & flush"}\n  flush:')
    on_disk = tmp_path / "cli.yaml"
    on_disk.write_text(typos, encoding="utf-8")
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        main(["check", "--fix", str(on_disk)])
    uri = open_file(client, tmp_path / "editor.yaml", typos)
    text, version = typos, 1
    for _ in range(5):
        found = await checked(client, uri, version)
        edits = await preferred_fixes(client, uri, found)
        if not edits:
            break
        text, version = apply(text, edits), version + 1
        change(client, uri, text, version)
    assert text == on_disk.read_text(encoding="utf-8") != typos
    assert "order: [four_of_a_kind, full_house, straight_flush, flush," in text
    assert await checked(client, uri, version) == []


@pytest.mark.asyncio
async def test_a_file_that_extends_another_and_changes_only_a_description_has_no_error(
    client: LanguageClient, tmp_path: Path
) -> None:
    (tmp_path / "base.yaml").write_text(SMALL, encoding="utf-8")
    text = 'name: child\nextends: base.yaml\ncategories:\n  pair: {describe: "a pair of {X:plural}"}\n'
    uri = open_file(client, tmp_path / "child.yaml", text)
    assert await checked(client, uri) == []
    uri = open_file(client, tmp_path / "std.yaml", 'extends: standard\ncategories:\n  pair: {describe: "pair"}\n')
    assert await checked(client, uri) == []


@pytest.mark.asyncio
async def test_heavy_findings_come_after_the_quick_pass(client: LanguageClient, tmp_path: Path) -> None:
    """Coverage (R113, no catch-all) is found by the full check in the background and published then."""
    text = SMALL.replace('  high_card:       {pattern: "X Y Z W V"}\n', "").replace(", high_card]", "]")
    uri = open_file(client, tmp_path / "holes.yaml", text)
    codes = [d.code for d in await checked(client, uri)]
    assert codes == ["R113"]


@pytest.mark.asyncio
async def test_the_quick_pass_is_published_before_the_full_check(client: LanguageClient, tmp_path: Path) -> None:
    """The quick pass's diagnostics (no coverage) come first; the full check's R113 after."""
    text = SMALL.replace('  high_card:       {pattern: "X Y Z W V"}\n', "").replace(", high_card]", "]")
    uri = open_file(client, tmp_path / "holes.yaml", text)
    quick = await logged(client, f"checked {uri} version 1:")
    assert ": 0 problems in " in quick
    await published(client, uri, lambda found: [d.code for d in found] == ["R113"])
    order = [m.message for m in client.log_messages if uri in m.message]
    assert order[0] == quick and order[-1].endswith("full check done: " + uri + " version 1: 1 problems")


@pytest.mark.asyncio
async def test_a_diagnostic_can_be_ignored_in_its_file(client: LanguageClient, tmp_path: Path) -> None:
    text = "# yaml-language-server: $schema=x.json\n" + SMALL.replace(
        '  high_card:       {pattern: "X Y Z W V"}\n', ""
    ).replace(", high_card]", "]")
    uri = open_file(client, tmp_path / "holes.yaml", text)
    (found,) = await checked(client, uri)
    offered = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=found.range,
            context=types.CodeActionContext(diagnostics=[found]),
        )
    )
    (ignore,) = [a for a in offered or [] if isinstance(a, types.CodeAction) and a.title == "Ignore R113 in this file"]
    assert ignore.edit is not None and ignore.edit.changes is not None
    fixed = apply(text, ignore.edit.changes[uri])
    assert fixed.splitlines()[:2] == ["# yaml-language-server: $schema=x.json", "# pokerrules: ignore[R113]"]
    change(client, uri, fixed, 2)
    assert await checked(client, uri, 2) == []


@pytest.mark.asyncio
async def test_changes_in_quick_succession_are_checked_once(client: LanguageClient, tmp_path: Path) -> None:
    """Typing is debounced: of five changes sent together only the last is checked."""
    uri = open_file(client, tmp_path / "r.yaml", SMALL)
    await checked(client, uri)
    for version in range(2, 7):
        change(client, uri, SMALL.replace("name: small", "name: small" + "x" * version), version)
    assert await checked(client, uri, 6) == []
    passes = [m.message for m in client.log_messages if uri in m.message and "frequencies" not in m.message]
    assert [message.split(" version ")[1].split(":")[0] for message in passes] == ["1", "1", "6", "6"]


@pytest.mark.asyncio
async def test_a_change_in_an_open_parent_is_seen_by_its_children(client: LanguageClient, tmp_path: Path) -> None:
    parent = tmp_path / "base.yaml"
    parent_uri = open_file(client, parent, SMALL)
    child_text = "name: child\nextends: base.yaml\norder: [four_of_a_kind, full_house, flush, straight, three_of_a_kind, two_pair, pair, high_card]\n"
    child_uri = open_file(client, tmp_path / "child.yaml", child_text)
    assert await checked(client, child_uri) == []
    # rename a category in the parent's buffer (not saved): the child's order now names a missing one
    change(client, parent_uri, SMALL.replace("two_pair:", "two_pairs:").replace(", two_pair,", ", two_pairs,"), 2)
    found = await published(client, child_uri, lambda found: any(d.code == "R101" for d in found))
    assert [d.range.start.line for d in found if d.code == "R101"] == [2]
    assert parent.read_text(encoding="utf-8") == SMALL


# --- hover, completion, definition, symbols, inlay hints ------------------------------------------


def brute_force_four_of_a_kind() -> tuple[int, int]:
    """Four of a kind among all 5-card deals of SMALL's 24-card deck, counted plainly."""
    deck = [(rank, suit) for rank in "9TJQKA" for suit in "shdc"]
    deals = four = 0
    for hand in combinations(deck, 5):
        deals += 1
        four += max(Counter(rank for rank, _ in hand).values()) == 4
    return four, deals


@pytest.mark.asyncio
async def test_hover_on_a_category_gives_its_frequency_example_and_origin(
    client: LanguageClient, tmp_path: Path
) -> None:
    (tmp_path / "base.yaml").write_text(SMALL, encoding="utf-8")
    text = "name: child\nextends: base.yaml\norder: [four_of_a_kind, full_house, flush, straight, three_of_a_kind, two_pair, pair, high_card]\n"
    uri = open_file(client, tmp_path / "child.yaml", text)
    await checked(client, uri)
    await logged(client, f"frequencies of 5-card deals ready: {uri}")
    shown = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=position(text, "four_of", 3))
    )
    assert shown is not None and isinstance(shown.contents, types.MarkupContent)
    four, deals = brute_force_four_of_a_kind()
    said = shown.contents.value
    assert f"{four:,} of {deals:,}" in said and f"1 in {deals / four:,.0f}" in said
    assert "`XXXX Y`" in said and "four of a kind and one other card" in said
    assert "inherited from base.yaml:6" in said
    example = said.split("e.g. `")[1].split("`")[0].split()
    assert len(example) == 5 and max(Counter(card[0] for card in example).values()) == 4


@pytest.mark.asyncio
async def test_hover_on_an_example_line_and_on_a_code(client: LanguageClient, tmp_path: Path) -> None:
    text = SMALL.replace("name: small", "name: small  # pokerrules: ignore[W104]") + (
        "examples:\n  - 'As Ad Ah Kc Ks > Qs Qd Qh Jc Jd'\n"
    )
    uri = open_file(client, tmp_path / "r.yaml", text)
    await checked(client, uri)

    async def hover_at(where: types.Position) -> str:
        found = await client.text_document_hover_async(
            types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=where)
        )
        assert found is not None and isinstance(found.contents, types.MarkupContent)
        return found.contents.value

    said = await hover_at(position(text, "Kc Ks >"))
    assert said.count("**full_house**") == 2 and "first hand wins" in said
    said = await hover_at(position(text, "W104", 1))
    assert said.startswith("**W104**:") and "coverage not checked" in said


@pytest.mark.asyncio
async def test_completion_in_order_offers_the_category_names(client: LanguageClient, tmp_path: Path) -> None:
    (tmp_path / "base.yaml").write_text(SMALL, encoding="utf-8")
    text = "name: child\nextends: base.yaml\norder: [four_of_a_kind, f]\n"
    uri = open_file(client, tmp_path / "child.yaml", text)
    await published(client, uri, lambda found: True)
    offered = await client.text_document_completion_async(
        types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=uri), position=position(text, "f]", 1))
    )
    items = offered.items if isinstance(offered, types.CompletionList) else offered or []
    names = {"four_of_a_kind", "full_house", "flush", "straight", "three_of_a_kind", "two_pair", "pair", "high_card"}
    assert names <= {item.label for item in items}


@pytest.mark.asyncio
async def test_completion_of_keys_extends_and_patterns(client: LanguageClient, tmp_path: Path) -> None:
    (tmp_path / "base.yaml").write_text(SMALL, encoding="utf-8")
    (tmp_path / "more").mkdir()
    (tmp_path / "more" / "other.yaml").write_text(SMALL, encoding="utf-8")
    text = 'name: child\nextends: b\ncategories:\n  pair: {pattern: "XX Y Z W & fl"}\n  three_of_a_kind:\n    \n\n'
    uri = open_file(client, tmp_path / "child.yaml", text)
    await published(client, uri, lambda found: True)

    async def labels(where: types.Position) -> set[str]:
        offered = await client.text_document_completion_async(
            types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=uri), position=where)
        )
        items = offered.items if isinstance(offered, types.CompletionList) else offered or []
        return {item.label for item in items}

    assert {"base.yaml", "more/other.yaml", "standard", "badugi"} <= await labels(position(text, "b\n", 1))
    assert {"flush", "flush(4)", "run(step=2)", "XXX YY"} <= await labels(position(text, 'fl"', 2))
    assert {"pattern", "describe", "rank_by"} == await labels(types.Position(line=5, character=4))
    assert {"deck", "order", "wild", "examples"} <= await labels(types.Position(line=6, character=0))


@pytest.mark.asyncio
async def test_definition_of_extends_opens_the_parent(client: LanguageClient, tmp_path: Path) -> None:
    parent = tmp_path / "base.yaml"
    parent.write_text(SMALL, encoding="utf-8")
    text = "name: child\nextends: base.yaml\norder: [four_of_a_kind, full_house, flush, straight, three_of_a_kind, two_pair, pair, high_card]\n"
    uri = open_file(client, tmp_path / "child.yaml", text)
    await published(client, uri, lambda found: True)

    async def definition(where: types.Position) -> list[types.Location]:
        found = await client.text_document_definition_async(
            types.DefinitionParams(text_document=types.TextDocumentIdentifier(uri=uri), position=where)
        )
        return [found] if isinstance(found, types.Location) else list(found or [])  # type: ignore[arg-type]

    (location,) = await definition(position(text, "base.yaml", 2))
    assert location.uri == parent.as_uri()
    (location,) = await definition(position(text, "flush,", 2))
    assert location.uri == parent.as_uri() and location.range.start == position(SMALL, "flush:")
    catalogue = "name: c\nextends: standard\n"
    other = open_file(client, tmp_path / "c.yaml", catalogue)
    await published(client, other, lambda found: True)
    found = await client.text_document_definition_async(
        types.DefinitionParams(
            text_document=types.TextDocumentIdentifier(uri=other), position=position(catalogue, "standard")
        )
    )
    # the catalogue file the server's own install ships (the checkout's or the wheel's copy of it)
    (target,) = [location.uri for location in found]  # type: ignore[union-attr]
    shipped = Path(url2pathname(urlparse(target).path))
    assert shipped.name == "standard.yaml" and shipped.parent.name == "rulesets"
    assert shipped.read_bytes() == (rulesets_dir() / "standard.yaml").read_bytes()


@pytest.mark.asyncio
async def test_symbols_and_inlay_hints(client: LanguageClient, tmp_path: Path) -> None:
    uri = open_file(client, tmp_path / "r.yaml", SMALL)
    await checked(client, uri)
    await logged(client, f"frequencies of 5-card deals ready: {uri}")
    outline = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    sections = {symbol.name: symbol for symbol in outline}  # type: ignore[union-attr]
    assert list(sections) == ["name", "deck", "hand", "categories", "order"]
    categories = sections["categories"]
    assert [child.name for child in categories.children or []][:3] == ["four_of_a_kind", "full_house", "flush"]  # type: ignore[union-attr]
    hints = await client.text_document_inlay_hint_async(
        types.InlayHintParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=99, character=0)),
        )
    )
    by_line = {hint.position.line: hint.label for hint in hints or []}
    four, deals = brute_force_four_of_a_kind()
    assert by_line[position(SMALL, "four_of_a_kind:").line].startswith(f"1 in {deals / four:,.0f}")
    assert len(by_line) == 8


# --- bad input ------------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_bad_input_never_brings_the_server_down(client: LanguageClient, tmp_path: Path) -> None:
    huge = "extends: standard\n" + "# padding\n" * 120_000
    huge_uri = open_file(client, tmp_path / "huge.yaml", huge)
    assert [d.code for d in await published(client, huge_uri, bool)] == ["Y102"]
    binary = "extends: standard\nname: \x00\x01\x02\n"
    binary_uri = open_file(client, tmp_path / "binary.yaml", binary)
    assert [d.code for d in await published(client, binary_uri, bool)] == ["Y116"]
    outside = Path(__file__).resolve().parent / "broken" / "R101-order-names-undefined.yaml"
    outside_uri = open_file(client, outside)  # a file in no workspace folder
    assert [d.code for d in await published(client, outside_uri, bool)] == ["R101"]
    compose = "services:\n  web:\n    image: nginx\n"
    compose_uri = open_file(client, tmp_path / "docker-compose.yml", compose)
    untitled = "untitled:Untitled-1"
    item = types.TextDocumentItem(uri=untitled, language_id="yaml", version=1, text="extends: standart\n")
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=item))
    assert [d.code for d in await published(client, untitled, bool)] == ["Y111"]
    assert list(client.diagnostics.get(compose_uri, [])) == []
    far = types.Position(line=10_000, character=10_000)
    for uri in (huge_uri, binary_uri, compose_uri, untitled, tmp_path.as_uri() + "/never-opened.yaml"):
        found = await client.text_document_hover_async(
            types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=far)
        )
        assert found is None
    # still answering
    uri = open_file(client, tmp_path / "fine.yaml", SMALL)
    assert await checked(client, uri) == []
    assert not [m for m in client.log_messages if "internal error" in m.message]


# --- the command line -----------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_the_server_speaks_on_a_tcp_port_too() -> None:
    import socket

    from pygls.lsp.client import LanguageClient as PlainClient

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([*SERVER, "--tcp", str(port)], stderr=subprocess.PIPE, text=True)
    try:
        assert server.stderr is not None
        assert server.stderr.readline() == f"pokerrules lsp: listening on 127.0.0.1:{port}\n"
        client = PlainClient("tcp-test", "1")
        found: asyncio.Queue[types.PublishDiagnosticsParams] = asyncio.Queue()

        @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_diagnostics(params: types.PublishDiagnosticsParams) -> None:  # pygls passes no client here
            found.put_nowait(params)

        for _ in range(100):
            try:
                await client.start_tcp("127.0.0.1", port)
                break
            except OSError:
                await asyncio.sleep(0.1)
        await client.initialize_async(types.InitializeParams(capabilities=types.ClientCapabilities()))
        client.initialized(types.InitializedParams())
        item = types.TextDocumentItem(uri="untitled:tcp", language_id="yaml", version=1, text="extends: standart\n")
        client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=item))
        published = await asyncio.wait_for(found.get(), WAIT)
        assert [d.code for d in published.diagnostics] == ["Y111"]
        await client.shutdown_async(None)
        client.exit(None)
        await client.stop()
        assert server.wait(WAIT) == 0
    finally:
        server.kill()
        server.wait()


def test_a_port_out_of_range_is_a_usage_error() -> None:
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["lsp", "--tcp", "70000"]) == 2
    assert "--tcp 70000 is not a port" in err.getvalue()


@pytest.mark.parametrize("editor", ["vscode", "neovim", "helix", "emacs", "kate"])
def test_editor_config_names_the_command(editor: str) -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["lsp", "editor-config", editor]) == 0
    assert "pokerrules" in out.getvalue() and "lsp" in out.getvalue()


def test_editor_config_json_follows_its_schema() -> None:
    import json

    import jsonschema

    schema = json.loads(
        (Path(__file__).resolve().parents[1] / "docs" / "json" / "lsp-editor-config.schema.json").read_text()
    )
    for editor in ("vscode", "kate", "helix"):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main(["lsp", "editor-config", editor, "--json"]) == 0
        found = json.loads(out.getvalue())
        jsonschema.Draft202012Validator(schema).validate(found)
        assert found["text"].endswith("\n") and '"lsp"' in found["text"]
        if editor in ("vscode", "kate"):
            json.loads(found["text"])  # a setup in JSON is JSON


def test_an_unknown_editor_is_a_usage_error() -> None:
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["lsp", "editor-config", "notepad"]) == 2
    assert "invalid choice: 'notepad'" in err.getvalue() and "Traceback" not in err.getvalue()


def test_a_missing_extra_is_said_clearly(tmp_path: Path) -> None:
    """With pygls not importable the command says what to install and exits 1, without a traceback."""
    (tmp_path / "pygls").mkdir()
    (tmp_path / "pygls" / "__init__.py").write_text("raise ImportError('pygls is not installed here')\n")
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            f"import sys; sys.path.insert(0, {str(tmp_path)!r}); from evaluator.cli.main import main; sys.exit(main(['lsp']))",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1 and done.stdout == ""
    assert "pip install 'pokerrules[lsp]'" in done.stderr and "Traceback" not in done.stderr
