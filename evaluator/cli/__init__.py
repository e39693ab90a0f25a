"""The command line: the top stage (see DESIGN.md, "Layers").

``main.py`` runs a command; ``args.py`` defines every command's arguments,
help and examples; ``output.py`` the conventions every command writes by
(JSON documents and lines, errors, exit codes); one module per command that
needs more than a few lines (``evaluate``, ``compare``, ``odds``, ``chart``,
``draw``). It may import every stage below it. The entry point is
:func:`evaluator.cli.main.main` (the ``pokerrules`` script).
"""
