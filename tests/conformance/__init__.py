"""The generated-ruleset conformance suite's building blocks.

``features.py`` writes ruleset documents across the feature space (a
hypothesis strategy, one function per feature), ``brute.py`` is the plain
classifier and brute force the generic engine is checked against on small
decks, ``subject.py`` holds one file on disk with seeded card sampling, and
``checks.py`` (the API, fast against generic) with ``commands.py`` (odds,
outs, chart, stats, diff, draw, the command line) runs everything on one
accepted file. Games the deal decides (dealer's choice) have their own:
``deal_features.py`` adds the keys (streets, extra cards, card halves,
declare, run it twice, wild cards that follow the deal) to the generator,
``deal_judge.py`` is a plain settle of a deal written from docs/games.md, and
``deal_checks.py`` checks the deal stage and its commands against it. The
tests that drive them are ``tests/test_conformance.py``.
"""
