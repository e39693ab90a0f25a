"""The generated-ruleset conformance suite's building blocks.

``features.py`` writes ruleset documents across the feature space (a
hypothesis strategy, one function per feature), ``brute.py`` is the plain
classifier and brute force the generic engine is checked against on small
decks, ``subject.py`` holds one file on disk with seeded card sampling, and
``checks.py`` (the API, fast against generic) with ``commands.py`` (odds,
outs, chart, stats, diff, draw, the command line) runs everything on one
accepted file. The tests that drive them are ``tests/test_conformance.py``.
"""
