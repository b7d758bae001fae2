"""Unit tests of the generic runtime pieces: matching, hex grids, dice, decision checks."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from interpreter.grids.geometry import hex_neighbours
from interpreter.ir import nodes as n
from interpreter.runtime.common.requests import ChoiceRequest, RollRequest, RuleError, ScriptError
from interpreter.runtime.execution.dice import ScriptedDice, SeededDice
from interpreter.runtime.execution.operations import max_matching
from interpreter.runtime.games.agents import PASS, FirstLegalAgent, RandomAgent
from interpreter.runtime.games.driver import forced_answer, illegal, normalize
from interpreter.syntax.diagnostics import NO_SPAN


def brute_matching(dice: list[int], values: list[int]) -> int:
    """The largest set of counters that can each take a distinct die at or under its value."""
    best = 0
    for k in range(len(values), 0, -1):
        for subset in itertools.combinations(range(len(values)), k):
            for perm in itertools.permutations(range(len(dice)), k):
                if all(dice[d] <= values[u] for d, u in zip(perm, subset)):
                    return k
    return best


@given(st.lists(st.integers(1, 6), max_size=6), st.lists(st.integers(1, 6), max_size=4))
def test_max_matching_equals_brute_force(dice, values):
    edges = [[j for j, v in enumerate(values) if d <= v] for d in dice]
    assert max_matching(edges, len(values)) == brute_matching(dice, values)


@given(st.lists(st.lists(st.integers(0, 3), max_size=4), max_size=5), st.integers(4, 5))
def test_max_matching_of_any_graph_equals_brute_force(rows, n_right):
    """Any edges, not only nested neighbourhoods: the size of the largest one-to-one choice of edges."""
    edges = [sorted(set(row)) for row in rows]
    best = max((k for k in range(min(len(edges), n_right), 0, -1)
                for lefts in itertools.combinations(range(len(edges)), k)
                for rights in itertools.product(*(edges[i] for i in lefts)) if len(set(rights)) == k), default=0)
    assert max_matching(edges, n_right) == best


MATCHINGS = ["matching d in [1, 2, 6] with u in [R1, B1] where d <= u.gun",
             "matching d in [5, 6] with u in [R1, B1] where d <= u.gun",
             "matching d in [] with u in [R1, B1] where d <= u.gun",
             "matching d in [1, 3] with u in [] where d <= u.gun",
             "matching u in [1, 3] with u in [R1] where u.gun > 0",
             "matching d in [1, 2] with u in [1, 2, 3] where d == u",
             "sum([matching d in [1, 2] with u in [R1, B1] where d <= u.gun + x for x in [0, -3, -4]])",
             "matching d in 3 with u in [R1] where d <= u.gun",
             "matching d in [1] with u in R1 where d <= u.gun",
             "matching d in [1, 2] with u in [R1, B1] where d <= u.cost + u",
             "matching d in [1, 2] with u in [R1, 3] where d <= u.gun"]


def test_the_generated_matching_is_the_closure(tmp_path, monkeypatch):
    """generated_code.py writes a matching's test inline: the same values, the same errors as compile.py's closure."""
    from conftest import ROOT
    from fuzzing import SKIRMISH_SCENARIO

    from interpreter.load import load_rules, load_scenario, rules_path_for
    from interpreter.runtime.execution import generated_code as source
    from interpreter.runtime.execution.engine import Engine
    from interpreter.runtime.games.setup import Setup
    from interpreter.syntax.diagnostics import Sources

    (tmp_path / "skirmish.rules").write_text((ROOT / "tests/bad/support/skirmish.rules").read_text(encoding="utf-8"), encoding="utf-8")
    text = SKIRMISH_SCENARIO.format(rules="skirmish.rules", expects="\n".join(f"    ({e}) == 1" for e in MATCHINGS))
    (tmp_path / "m.scenario").write_text(text, encoding="utf-8")
    sources = Sources()
    sc = load_scenario(str(tmp_path / "m.scenario"), sources)
    sym = load_rules(rules_path_for(sc), sources).symbols

    def outcomes() -> list:
        engine = Engine(sym, sources)
        Setup(engine, sc).run()
        found = []
        for exp in sc.expects:
            try:
                found.append(engine.compiler.expr(exp.expr.left)({}))
            except RuleError as err:
                found.append((err.message, err.span))
        return found

    written = outcomes()
    monkeypatch.setattr(source, "COMPOSITE", source.COMPOSITE - {"matching"})
    closures = outcomes()
    assert written == closures, (written, closures)
    assert written[:7] == [2, 0, 0, 0, 1, 2, 3] and all(isinstance(x, tuple) for x in written[7:]), written


def test_leogane_matching_from_the_example_of_play():
    dice, values = [2, 3, 6, 3, 1, 4, 4, 1, 5], [1, 2]
    edges = [[j for j, v in enumerate(values) if d <= v] for d in dice]
    assert max_matching(edges, 2) == 2


@pytest.mark.parametrize("scheme", ["even_q", "odd_q"])
def test_hex_adjacency_is_symmetric_with_six_neighbours(scheme):
    for c in range(2, 8):
        for r in range(2, 8):
            pid = f"{c:02d}{r:02d}"
            around = hex_neighbours(pid, scheme)
            assert len(around) == 6
            assert all(pid in hex_neighbours(o, scheme) for o in around)


def test_even_q_matches_the_adjacencies_the_rulebook_implies():
    # 2919-3018 (interception), 3019-3119 (interception and retreat), 3018-3119 (extract 3C)
    assert "3018" in hex_neighbours("2919", "even_q")
    assert "3119" in hex_neighbours("3019", "even_q")
    assert "3119" in hex_neighbours("3018", "even_q")
    assert "3018" not in hex_neighbours("2919", "odd_q")


def req_roll(count=2):
    return RollRequest(count, 1, 6, "d6", "dice[X]", "9.1", NO_SPAN)


def test_seeded_dice_repeat_for_the_same_seed():
    a, b = SeededDice(7), SeededDice(7)
    assert [a.roll(req_roll(5)) for _ in range(20)] == [b.roll(req_roll(5)) for _ in range(20)]
    assert SeededDice(8).roll(req_roll(30)) != SeededDice(7).roll(req_roll(30))


def scripted(*values):
    return ScriptedDice(tuple(n.ScriptedDie(span=NO_SPAN, value=v) for v in values))


def test_scripted_dice_run_out_and_leftovers_are_errors():
    dice = scripted(3, 4)
    assert dice.roll(req_roll(2)) == [3, 4]
    with pytest.raises(ScriptError, match="no die left for dice\\[X\\]"):
        dice.roll(req_roll(1))
    extra = scripted(3, 5)
    extra.roll(req_roll(1))
    with pytest.raises(ScriptError, match="script gives die 5 at line 0, but no die is rolled here"):
        extra.finish()


def test_scripted_die_off_the_die_is_refused():
    with pytest.raises(ScriptError, match="script gives die 7, but a d6 reads 1..6"):
        scripted(7).roll(req_roll(1))


def choice(mode, options, **kw):
    return ChoiceRequest(chooser="a", name="losses", mode=mode, options=options, cite="9.1 step 8", span=NO_SPAN, **kw)


def test_illegal_answers_are_explained():
    req = choice("exactly", ["A", "B", "C"], amount=2)
    assert illegal(req, ["A", "B"]) is None
    assert illegal(req, ["A"]) == "exactly 2 must be chosen, not 1"
    assert illegal(req, ["A", "D"]) == "D is not one of the legal options (A, B, C)"
    assert illegal(req, ["A", "A"]) == "the same option is chosen twice"
    split = choice("split", ["A", "B", "C", "D"], amount=3, limit=3)
    assert illegal(split, {"A": 2, "B": 1}) is None
    assert illegal(split, {"A": 1, "B": 1}) == "the parts must add up to 3, not 2"
    assert illegal(split, {"E": 3}) == "E may not receive them; the legal recipients are A, B, C, D"
    one = choice("one", ["A"], optional=False)
    assert illegal(one, None) == "a choice is required"


def test_forced_answers_and_impossible_decisions():
    assert forced_answer(choice("exactly", ["A", "B"], amount=2)) == ["A", "B"]
    assert forced_answer(choice("one", ["A"])) == "A"
    with pytest.raises(RuleError, match="no legal option"):
        forced_answer(choice("one", []))
    with pytest.raises(RuleError, match="among only 1"):
        forced_answer(choice("exactly", ["A"], amount=2))


@pytest.mark.parametrize("seed", range(30))
def test_random_and_first_legal_agents_only_give_legal_answers(seed):
    reqs = [
        choice("one", ["A", "B", "C"], optional=True),
        choice("exactly", ["A", "B", "C", "D"], amount=2),
        choice("up_to", ["A", "B", "C"], amount=2),
        choice("split", ["A", "B", "C", "D"], amount=3, limit=3, optional=True),
    ]
    for agent in (RandomAgent(seed), FirstLegalAgent()):
        for req in reqs:
            answer = normalize(req, agent.choose(req))
            assert illegal(req, answer) is None, (req.mode, answer)
    assert PASS is not None


def test_every_documented_unit_attribute_is_implemented():
    from interpreter.lang import UNIT_ATTRS
    from interpreter.runtime.common.values import Unit
    from interpreter.runtime.execution.operations import unit_attr

    unit = Unit("U1", "infantry", "troop", "red")
    for name in UNIT_ATTRS:
        unit_attr(unit, name)  # raises KeyError for an attribute the runtime does not know


def test_the_hex_grid_reads_ids_in_the_format_the_map_declares():
    from interpreter.grids.geometry import hex_id, parse_hex_id

    # The same cells, written column first (CCRR) and row first (RRCC): the same neighbours.
    for pid in ("3119", "2919", "0101", "1208"):
        c, r = parse_hex_id(pid)
        turned = hex_id(c, r, "RRCC")
        assert parse_hex_id(turned, "RRCC") == (c, r)
        assert {hex_id(*parse_hex_id(q), "RRCC") for q in hex_neighbours(pid, "even_q")} == \
            hex_neighbours(turned, "even_q", "RRCC")
    # Three column digits: column 104 of a large map.
    assert hex_neighbours("10405", "odd_q", "CCCRR") == {"10404", "10406", "10304", "10305", "10504", "10505"}
    assert hex_neighbours("3119", "even_q", "CCCRR") == set(), "an id that does not fit the format has no computed neighbours"


def test_an_unreadable_hex_id_format_is_a_check_error(tmp_path, capsys):
    from interpreter.cli import main

    (tmp_path / "g.rules").write_text('game g "G" [1.0] {\n  sides a "A", b "B" [1.1]\n}\n'
                                      'map m [2.0] {\n  grid hex "XXYY" columns even_q [2.0]\n}\n')
    assert main(["check", str(tmp_path / "g.rules")]) == 1
    err = capsys.readouterr().err
    assert 'error: the hex id format "XXYY" cannot be read for computed adjacency' in err
    assert 'an R for each digit of the row, as "CCRR"' in err
