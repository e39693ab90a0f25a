"""The generated-ruleset conformance suite's building blocks.

``features.py`` writes ruleset documents across the feature space (a
hypothesis strategy, one function per feature), ``brute.py`` is the plain
classifier and brute force the generic engine is checked against on small
decks, and ``checks.py`` runs every command and API method on one accepted
file, checking the fast paths against the generic engine. The tests that
drive them are ``tests/test_conformance.py``.
"""
