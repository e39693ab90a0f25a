"""``check`` finds everything in one run: after a schema error the readable
rest of a file still goes through the pattern, order, wild-card, template and
example checks, without reporting problems that only follow from the
unreadable part. Also the ``describe:`` template checks (``T1xx``) and the
explanation printed under a failing comparison example.

Expected positions are written out by hand from the file texts below.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest
from samples import SMALL

import evaluator
from evaluator.cli.main import main
from evaluator.core.errors import PokerRulesError
from evaluator.engine.hand import Hand
from evaluator.rules.load import parse_yaml
from evaluator.rules.patterns import parse_pattern
from evaluator.rules.templates import bound_variables, fields
from evaluator.ruleset import build_ruleset
from evaluator.tools.check import check_file
from evaluator.tools.partial import readable_part, without

# One problem for each stage after loading. Columns counted on the lines as written.
ONE_PER_STAGE = """\
name: every-stage
deck:
  ranks: [9, T, J, Q, K, A]
hand: {size: 5}
wild: {cards: [2s]}
categories:
  four_of_a_kind:  {pattern: "XXXX Y", describe: "four {X:plural}, {Y:plurl} kicker"}
  full_house:      {pattern: "XXX YY", desribe: "full house"}
  flush:           {pattern: "flush"}
  straight:        {pattern: "run"}
  three_of_a_kind: {pattern: "XXX Y Z"}
  two_pair:        {pattern: "XX YY Z"}
  pair:            {pattern: "XX Y Z W &"}
  high_card:       {pattern: "X Y Z W V"}
order: [four_of_a_kind, full_house, flush, straight, three_of_a_kind, two_pair, pair, hihg_card]
examples:
  - "As Ks Qs Js 9s is straight"
  - "Ks Kh Kd Qs Qh > As Ah Ad Ac 9s"
  - "As Ad Kc Qh 9s is pair"
  - "As Ad Kc Kh 9s is two_pair"
"""

EXPECTED = [
    ("R111", 5, 16),  # wild: a card this deck does not hold
    ("T102", 7, 71),  # template: {Y:plurl}, at the filter
    ("S101", 8, 40),  # schema: desribe, at the key
    ("P101", 13, 41),  # pattern: ends after &, where more was expected
    ("R101", 15, 87),  # order: hihg_card
    ("E101", 17, 6),  # example: it is a flush (the column of the text inside the quotes)
    ("E101", 18, 6),  # example: four of a kind beats a full house
]


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def codes_at(found: list) -> list[tuple[str, int, int]]:
    return [(d.code, d.line, d.col) for d in found]


def test_one_error_per_stage_all_reported_in_one_run(tmp_path: Path) -> None:
    path = write(tmp_path, "every.yaml", ONE_PER_STAGE)
    assert codes_at(check_file(path)) == EXPECTED
    # the same through the command line, in one run
    code, out, err = run_cli(["check", "--format", "json", str(path)])
    assert code == 1 and not err
    assert [(d["code"], d["line"], d["col"]) for d in json.loads(out)] == EXPECTED
    # the examples on the broken pair (and below it) are not judged: line 19 says
    # what the file meant and cannot be checked; line 20 is right once pair is fixed


def test_fixing_the_file_one_problem_at_a_time_shows_nothing_new(tmp_path: Path) -> None:
    """Each fix removes its own diagnostic and reveals no hidden one (until coverage runs on the whole file)."""
    fixes = [
        ("wild: {cards: [2s]}\n", ""),
        ("{Y:plurl}", "{Y}"),
        (', desribe: "full house"', ""),
        ('"XX Y Z W &"', '"XX Y Z W"'),
        ("hihg_card", "high_card"),
        ('"As Ks Qs Js 9s is straight"', '"As Ks Qs Js 9s is flush"'),
        ('"Ks Kh Kd Qs Qh > As Ah Ad Ac 9s"', '"Ks Kh Kd Qs Qh < As Ah Ad Ac 9s"'),
    ]
    text = ONE_PER_STAGE
    remaining = {code for code, _, _ in EXPECTED}
    for index, (old, new) in enumerate(fixes):
        text = text.replace(old, new)
        found = {d.code for d in check_file(write(tmp_path, f"step{index}.yaml", text))}
        assert found <= remaining, (index, found - remaining)
        remaining = found
    assert remaining == set()


def test_failing_comparison_prints_the_explanation(tmp_path: Path) -> None:
    path = write(tmp_path, "every.yaml", ONE_PER_STAGE)
    code, out, _ = run_cli(["check", str(path)])
    assert code == 1
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if ":18:6: error E101:" in line)
    # the steps, once each; the verdict is the message's own (it loses to it)
    assert "but it loses to it" in lines[start] and "against" not in lines[start].split("but it")[1]
    assert lines[start + 1 :][:1] == [
        "    category: first hand full_house, second hand four_of_a_kind "
        "(four aces, nine kicker): four_of_a_kind ranks higher",
    ]
    assert "decided by" not in lines[start + 2]


def test_explanation_under_a_catalogue_style_example(tmp_path: Path) -> None:
    text = 'extends: suits-bridge\nname: x\nexamples:\n  - "As Kd 9h 5c 3s < Ah Kc 9d 5s 3h"\n'
    (found,) = check_file(write(tmp_path, "x.yaml", text))
    assert (found.code, found.line, found.col) == ("E101", 4, 6)
    assert found.context is not None and "As against Ah: spades rank above hearts" in found.context


def test_no_problem_that_only_follows_from_an_unreadable_value(tmp_path: Path) -> None:
    # the category without a pattern is still a name in order and in beats: no R101, no P206
    text = SMALL.replace('{pattern: "XXX YY"}', '{describe: "a full house"}') + (
        "beats:\n  - {winner: full_house, loser: four_of_a_kind}\n"
        'examples:\n  - "Ks Kh Kd Kc 9s is four_of_a_kind"\n  - "Ks Kh Kd Qc Qs is flush"\n'
        '  - "9s 9h Qd Qc As is straight"\n'
    )
    found = check_file(write(tmp_path, "r.yaml", text))
    # the example above the broken full_house is judged and holds; the one that may land in
    # full_house is not judged; the two-pair hand is judged only with the whole file (beats in doubt)
    assert codes_at(found) == [("S104", 7, 20)]


def test_a_schema_error_in_the_deck_still_reports_pattern_and_order_errors(tmp_path: Path) -> None:
    text = SMALL.replace("hand: {size: 5}", "hand: {size: five}").replace('"XX YY Z"', '"XX YY Z &"')
    text = text.replace("high_card]", "hihg_card]") + 'examples:\n  - "As Ks Qs Js 9s is pair"\n'
    found = check_file(write(tmp_path, "r.yaml", text))
    # with the hand size unreadable, examples (and checks against the hand size) are not judged
    assert [d.code for d in found] == ["S102", "P101", "R101"]


def test_checks_against_an_unreadable_deck_are_not_made(tmp_path: Path) -> None:
    # deck.ranks unreadable: a pattern naming a rank is not checked against the default deck
    text = SMALL.replace("ranks: [9, T, J, Q, K, A]", "ranks: nine-to-ace").replace('"XX Y Z W"', '"XX Y Z W & X >= 9"')
    assert [d.code for d in check_file(write(tmp_path, "r.yaml", text))] == ["S102"]


def test_positions_follow_a_removed_list_item(tmp_path: Path) -> None:
    text = SMALL + 'examples:\n  - 5\n  - "As Ks Qs Js 9s is straight"\n'
    found = check_file(write(tmp_path, "r.yaml", text))
    assert [d.code for d in found][0] in ("S102", "S105")
    assert codes_at(found)[1:] == [("E101", 17, 6)]


def test_without_moves_positions_of_later_items() -> None:
    document = parse_yaml("order: [a, b, c]\nexamples: [x, y]\n", "r.yaml")
    left = without(document, [("order", 0), ("examples", 1)])
    assert left.data == {"order": ["b", "c"], "examples": ["x"]}
    assert left.position(("order", 0)) == document.position(("order", 1))
    assert left.position(("order", 1)) == document.position(("order", 2))
    assert document.data["order"] == ["a", "b", "c"]  # the original is untouched


def test_a_valid_file_is_its_own_readable_part() -> None:
    document = parse_yaml(SMALL, "r.yaml")
    readable = readable_part(document)
    assert readable.diagnostics == [] and readable.document is document and readable.removed == []


def test_a_root_that_is_unreadable_stops_after_the_schema(tmp_path: Path) -> None:
    text = "".join(f'  c{i}: {{pattern: "X Y Z W V"}}\n' for i in range(65))
    path = write(tmp_path, "r.yaml", "categories:\n" + text + "order: [c0]\n")
    # 65 categories: the categories map is unreadable, order's names are not blamed
    assert [d.code for d in check_file(path)] == ["S105"]


# --------------------------------------------------------------------------- templates


def test_template_fields_and_bound_variables() -> None:
    found, bad = fields("{X:plural} full of {Y:plural}, {top}")
    assert [(f.name, f.filter, f.col) for f in found] == [("X", "plural", 1), ("Y", "plural", 20), ("top", None, 32)]
    assert bad == []
    assert fields("a } b {} c {X:plural:x}")[1] == [(3, "}"), (7, "{}"), (12, "{X:plural:x}")]
    assert bound_variables(parse_pattern("XX YY Z & X > 9")) == {"X", "Y", "Z"}
    assert bound_variables(parse_pattern("XXX YY | XX Y Z W")) == {"X", "Y", "Z", "W"}
    assert bound_variables(parse_pattern("not XX Y Z W & flush")) == set()


def test_every_template_problem_of_a_file_in_one_run(tmp_path: Path) -> None:
    text = SMALL.replace('{pattern: "XXX YY"}', '{pattern: "XXX YY", describe: "{X:plurl} full of {bogus} {W}"}')
    found = check_file(write(tmp_path, "r.yaml", text))
    #                                     col 20 is the opening quote's first character
    assert codes_at(found) == [("T102", 7, 54), ("T101", 7, 69), ("T103", 7, 78)]
    assert "did you mean 'plural'" in (found[0].hint or "")
    assert "bound: X, Y" in found[2].message


def test_load_refuses_a_broken_template() -> None:
    text = SMALL.replace('{pattern: "flush"}', '{pattern: "flush", describe: "{tpo}-high flush"}')
    with pytest.raises(PokerRulesError) as caught:
        build_ruleset(parse_yaml(text, "r.yaml"))
    assert caught.value.code == "T101" and "did you mean {top}" in (caught.value.first.hint or "")


def test_the_templates_of_the_catalogue_render_without_placeholders() -> None:
    """What the checks protect: no catalogue description prints 'no' or a raw brace."""
    samples = {
        "standard": ["Kc Kd Ks 4h 4c", "Qs Qh 8d 8c As", "Ah Kh Qh Jh 9h", "As 2d 3h 4c 5s"],
        "deuces-wild": ["2s Ah 9h 8h 5h", "2s 2h Ah Ad Ac"],
        "italian": ["9d Td Jd Qd Kd"],
    }
    for name, hands in samples.items():
        rs = evaluator.load(name)
        for cards in hands:
            text = rs.evaluate(cards).describe()
            assert "{" not in text and " no " not in f" {text} ", (name, cards, text)
    assert isinstance(rs.evaluate("9d Td Jd Qd Kd"), Hand)


# --------------------------------------------------------------------------- no cascades


def _paths(value: object, path: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*path, index))
    return found


@pytest.mark.parametrize("name", ["standard", "italian", "jacks-or-better"])
def test_a_broken_value_anywhere_reports_only_its_schema_errors(tmp_path: Path, name: str) -> None:
    """Every value of a clean catalogue file, in turn, replaced by a mapping the schema rejects there:
    check reports the schema's errors and nothing that only follows from them."""
    import copy

    import yaml

    from evaluator.core.resources import rulesets_dir

    data = yaml.safe_load((rulesets_dir() / f"{name}.yaml").read_text(encoding="utf-8"))
    checked = 0
    for path in _paths(data)[1:]:
        if path[0] == "extends":
            continue  # read while loading (Y111): nothing after it can be checked
        if path[0] == "categories" and len(path) <= 2:
            continue  # replacing a whole category really leaves it undefined
        if path[0] == "examples" and len(path) >= 2 and path[1] != 0:
            continue  # one example stands for all (each costs a full check)
        broken = copy.deepcopy(data)
        parent = broken
        for part in path[:-1]:
            parent = parent[part]
        parent[path[-1]] = {"bad": [1]}
        file = write(tmp_path, f"{name}-{checked}.yaml", yaml.safe_dump(broken, sort_keys=False))
        found = check_file(file)
        assert found, path
        assert all(d.code.startswith("S") for d in found), (path, [str(d) for d in found])
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize("name", ["standard", "italian", "jacks-or-better", "deuces-wild"])
def test_a_broken_category_or_order_name_reports_only_itself(tmp_path: Path, name: str) -> None:
    """Each category of a clean catalogue file in turn: its pattern broken gives one P101, its
    name misspelt in order one R101 -- no example, qualifier or beats: error that follows from it."""
    import copy

    import yaml

    from evaluator.core.resources import rulesets_dir

    data = yaml.safe_load((rulesets_dir() / f"{name}.yaml").read_text(encoding="utf-8"))
    ruleset = evaluator.load(name)
    for index, category in enumerate(ruleset.category_names):
        broken = copy.deepcopy(data)
        spec = dict((broken.setdefault("categories", {}) or {}).get(category) or {})
        broken["categories"][category] = {**spec, "pattern": "XX &"}
        file = write(tmp_path, f"{category}-pattern.yaml", yaml.safe_dump(broken, sort_keys=False))
        assert [d.code for d in check_file(file)] == ["P101"], category
        misspelt = copy.deepcopy(data)
        misspelt["order"] = [*ruleset.category_names]
        misspelt["order"][index] = category + "_s"
        file = write(tmp_path, f"{category}-order.yaml", yaml.safe_dump(misspelt, sort_keys=False))
        assert [d.code for d in check_file(file)] == ["R101"], category
