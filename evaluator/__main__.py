"""``python -m evaluator`` runs the command line."""

import sys

try:
    from .cli.main import main
except KeyboardInterrupt:  # Ctrl-C while the program is still starting
    sys.stderr.write("pokerrules: interrupted\n")
    sys.exit(130)

sys.exit(main())
