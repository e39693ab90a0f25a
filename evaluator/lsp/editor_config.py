"""``pokerrules lsp editor-config NAME``: how to start the server from each editor.

Each setup runs ``pokerrules lsp`` on YAML files beside the editor's own YAML
server (which keeps giving the schema's completion); the server answers only
for rule files (see :mod:`evaluator.lsp.analysis`). Nothing here needs the
``lsp`` extra.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["EDITORS", "EditorConfig"]


@dataclass(frozen=True)
class EditorConfig:
    """Where a setup goes in one editor, and what to write there."""

    editor: str
    where: str
    text: str
    note: str = ""


EDITORS: dict[str, EditorConfig] = {
    "vscode": EditorConfig(
        "VS Code",
        ".vscode/settings.json (with the extension 'Generic LSP Client (v2)', zsol.vscode-glspc)",
        """{
  "glspc.server.command": "pokerrules",
  "glspc.server.commandArguments": ["lsp"],
  "glspc.server.languageId": ["yaml"]
}
""",
        "VS Code runs language servers through an extension; this generic client starts any stdio server.",
    ),
    "neovim": EditorConfig(
        "Neovim (0.11 or later)",
        "init.lua",
        """vim.lsp.config("pokerrules", {
  cmd = { "pokerrules", "lsp" },
  filetypes = { "yaml" },
  root_markers = { ".git" },
})
vim.lsp.enable("pokerrules")
""",
    ),
    "helix": EditorConfig(
        "Helix",
        "languages.toml (in ~/.config/helix/ or the project's .helix/)",
        """[language-server.pokerrules]
command = "pokerrules"
args = ["lsp"]

[[language]]
name = "yaml"
language-servers = ["yaml-language-server", "pokerrules"]
""",
    ),
    "emacs": EditorConfig(
        "Emacs (eglot, built in since Emacs 29)",
        "init.el",
        """(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs
               '((yaml-mode yaml-ts-mode) . ("pokerrules" "lsp"))))
(add-hook 'yaml-mode-hook #'eglot-ensure)
(add-hook 'yaml-ts-mode-hook #'eglot-ensure)
""",
        "eglot runs one server per mode: this one replaces yaml-language-server for YAML buffers.",
    ),
    "kate": EditorConfig(
        "Kate",
        "Settings > Configure Kate > LSP Client > User Server Settings",
        """{
  "servers": {
    "yaml": {
      "command": ["pokerrules", "lsp"],
      "highlightingModeRegex": "^YAML$"
    }
  }
}
""",
    ),
}


def render(name: str) -> str:
    """The setup for one editor as text: where it goes, then what to write.

    >>> print(render("helix").splitlines()[0])
    # Helix: languages.toml (in ~/.config/helix/ or the project's .helix/)
    """
    config = EDITORS[name]
    comment = ";;" if name == "emacs" else "--" if name == "neovim" else "#"
    lines = [f"{comment} {config.editor}: {config.where}"]
    if config.note:
        lines.append(f"{comment} {config.note}")
    if name in ("vscode", "kate"):  # JSON has no comments: the header is for the reader, not the file
        lines = [line.replace(comment, "//", 1) for line in lines]
    return "\n".join(lines) + "\n" + config.text
