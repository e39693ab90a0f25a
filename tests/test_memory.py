"""What a long process keeps: built rulesets are cached, but not without bound.

A built ruleset carries its lookup tables and evaluation caches, tens of
megabytes for some; a process that goes through many files (a test worker, a
service checking house rules) must not keep every one of them alive.
"""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

from samples import SMALL

import evaluator
from evaluator.rules import build


def test_load_keeps_the_last_rulesets_only(tmp_path: Path) -> None:
    paths = []
    for index in range(build.LOADED_LIMIT + 4):
        path = tmp_path / f"house{index}.yaml"
        path.write_text(SMALL.replace("name: small", f"name: house{index}"), encoding="utf-8")
        paths.append(path)
    first = evaluator.load(paths[0])
    assert evaluator.load(paths[0]) is first  # loaded again: the same object, built once
    first.evaluate("As Ks Qs Js Th")  # its engine and caches are built
    gone = weakref.ref(first)
    del first
    for path in paths[1:]:
        evaluator.load(path)
    gc.collect()
    assert len(build._LOADED) <= build.LOADED_LIMIT
    assert gone() is None, "the least recently used ruleset is let go, with its tables and caches"
    again = evaluator.load(paths[0])  # and built again when asked for
    assert again.evaluate("As Ks Qs Js Th").category == "straight"


def test_a_ruleset_in_use_is_kept_at_the_front(tmp_path: Path) -> None:
    kept = evaluator.load("standard")
    for index in range(build.LOADED_LIMIT):
        path = tmp_path / f"other{index}.yaml"
        path.write_text(SMALL.replace("name: small", f"name: other{index}"), encoding="utf-8")
        evaluator.load(path)
        assert evaluator.load("standard") is kept  # used between the others: never the oldest


def test_forget_loaded_lets_every_ruleset_go() -> None:
    standard = evaluator.load("standard")
    gone = weakref.ref(standard)
    del standard
    build.forget_loaded()
    gc.collect()
    assert gone() is None and not build._LOADED
    assert evaluator.load("standard").name == "standard"


def test_video_poker_subset_counts_keep_no_ruleset_alive_and_are_bounded(tmp_path: Path) -> None:
    from evaluator.draw import payback

    payback.forget_final_hands()
    rulesets = []
    for index in range(payback.FINAL_HANDS_KEPT + 1):
        path = tmp_path / f"deck{index}.yaml"
        ranks = ", ".join("2345678"[7 - index :] + "9TJQKA")  # each game a deck of its own
        text = SMALL.replace("name: small", f"name: deck{index}").replace("[9, T, J, Q, K, A]", f"[{ranks}]")
        path.write_text(text, encoding="utf-8")
        rulesets.append(evaluator.load(path))
    first = payback.final_hands(rulesets[0])
    assert payback.final_hands(rulesets[0]) is first  # asked again: kept, not built again
    gone = weakref.ref(rulesets[0])
    del rulesets[0]
    build.forget_loaded()
    gc.collect()
    assert gone() is None, "the subset counts kept for a game do not keep its ruleset (and tables) alive"
    for ruleset in rulesets:
        payback.final_hands(ruleset)
    assert len(payback._FINAL_HANDS) == payback.FINAL_HANDS_KEPT  # the least recently used went
    payback.forget_final_hands()


def test_the_caches_each_test_module_forgets_exist_and_are_emptied(tmp_path: Path) -> None:
    import importlib

    from conftest import PROCESS_CACHES, forget_process_caches

    from evaluator.draw import payback

    for module_name, name in PROCESS_CACHES:
        if module_name.startswith("evaluator."):  # a renamed cache would silently be kept
            assert hasattr(importlib.import_module(module_name), name), (module_name, name)
    path = tmp_path / "small.yaml"
    path.write_text(SMALL, encoding="utf-8")
    payback.final_hands(evaluator.load(path))
    assert payback._FINAL_HANDS and build._LOADED
    forget_process_caches()
    assert not payback._FINAL_HANDS and not build._LOADED
