"""``pokerrules lsp``: the language server for editors, and ``lsp editor-config NAME``.

The server speaks the Language Server Protocol on stdin and stdout (or on a
TCP port with ``--tcp``) and needs the optional extra ``pokerrules[lsp]``;
see docs/editors.md. ``editor-config`` prints the setup of one editor
(``--json``: ``{"editor", "where", "text", "note"}``).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, BinaryIO, TextIO, cast

from .args import add_command, add_json
from .output import EXIT_OK, json_document

EDITOR_NAMES = ("vscode", "neovim", "helix", "emacs", "kate")


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register ``lsp`` (and ``lsp editor-config``) on the command line's subparsers."""
    parser = add_command(
        subparsers,
        "lsp",
        "the language server for editors (diagnostics, quick fixes, hover, completion)",
        "Run the pokerrules language server: as you type, the merged ruleset is checked (every stage\n"
        "of `check`, coverage and examples in the background), with quick fixes, hover (a category's\n"
        "frequency and an example hand), completion, go to definition, an outline and inlay hints.\n"
        "It speaks LSP on stdin/stdout, or on a TCP port with --tcp. Needs: pip install 'pokerrules[lsp]'.\n"
        "`pokerrules lsp editor-config NAME` prints the setup of an editor.",
        "$ pokerrules lsp\n$ pokerrules lsp --tcp 2087\n$ pokerrules lsp editor-config neovim",
    )
    parser.add_argument("--tcp", type=int, metavar="PORT", help="listen on this TCP port instead of stdin/stdout")
    parser.add_argument("--host", default="127.0.0.1", help="the address --tcp listens on (default 127.0.0.1)")
    commands = parser.add_subparsers(
        dest="lsp_command", metavar="editor-config", help="print the setup of an editor (instead of serving)"
    )
    config = add_command(
        commands,
        "editor-config",
        "print the setup that starts the server from an editor",
        "Print where the setup goes in an editor and what to write there: " + ", ".join(EDITOR_NAMES) + ".",
        "$ pokerrules lsp editor-config helix\n$ pokerrules lsp editor-config vscode --json",
    )
    config.add_argument("editor", choices=EDITOR_NAMES, help="the editor")
    add_json(config)
    return parser


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Run ``lsp``: serve until the editor ends the session, or print an editor's setup."""
    if args.lsp_command == "editor-config":
        from ..lsp.editor_config import EDITORS, render

        if args.json:
            config = EDITORS[args.editor]
            out.write(
                json_document(
                    {"editor": config.editor, "where": config.where, "text": config.text, "note": config.note}
                )
            )
        else:
            out.write(render(args.editor))
        return EXIT_OK
    from ..lsp.launch import serve

    if args.tcp is not None and not 0 < args.tcp < 65536:
        from .output import UsageError

        raise UsageError(f"pokerrules lsp: --tcp {args.tcp} is not a port (1 to 65535)")
    stdin, stdout = sys.__stdin__, sys.__stdout__
    if args.tcp is None and (stdin is None or stdout is None):
        sys.stderr.write("pokerrules lsp: no standard input or output to speak on; use --tcp PORT\n")
        return 1
    channels = (cast(BinaryIO, stdin.buffer), cast(BinaryIO, stdout.buffer)) if stdin and stdout else None
    return serve(args.tcp, args.host, channels=channels)
