"""The lsp stage: ``pokerrules lsp``, a language server for ruleset files (see docs/editors.md).

It serves what ``check`` and the tools below it know to an editor: the
diagnostics of the merged ruleset with their quick fixes, hover, completion,
go-to-definition, the categories as an outline, and frequencies as inlay
hints. It may import every stage below it (``tools`` and down); only ``cli``
imports it.

The server runs on pygls and lsprotocol, the optional extra
``pokerrules[lsp]``: :mod:`evaluator.lsp.launch` says so clearly when they are
missing, and :mod:`evaluator.lsp.editor_config` (the editors' setup) needs
neither.
"""
