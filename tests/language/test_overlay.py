"""Overlays: errata and house rules amend a base ruleset into a new IR, never editing it.

Each kind of change is applied to a small ruleset written here and its effect read back from
the new IR or from a run; the base must come out untouched. Then the diagnostics (an unknown
target with a "did you mean", an ambiguous clause, a no-op, a conflict and how `after`
resolves it), and the real thing: the printed errata of Jenkins' Ear and the two example
house rules, through the loader and the command line.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import textwrap
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.ir import nodes as n
from interpreter.load import load_rules, load_scenario, load_scenario_rules
from interpreter.runtime.games.scenario import run_scenario
from interpreter.syntax.diagnostics import Sources, render

ROOT = Path(__file__).resolve().parent.parent.parent

BASE = """\
game toy "Toy" [1.0] {
  sides red "Red", blue "Blue"                      [1.1]
  die d6 1..6                                       [1.2]
  turns 2                                           [1.3]
}
missing map board "the board"                       [2.0]
missing table omens "the omen table, printed on the board" [2.1]
stat gun "gun"                                      [3.0]
class ship "ship"                                   [3.0]
type frigate "Frigate": ship [3.1] { gun: 3 }
counter VICTORY "Victory": frigate of red [3.2] { gun: 4 }
track funds "funds" per side 0..20 excess discarded [4.0] start red 5, blue 5
table peril(storm: bool) "Peril" [5.0] {
  roll 1 d6
  modifier storm: -1 when storm                     [5.1]
  1..2 -> sunk "Sunk"                               [5.2]
  3..6 -> safe "Safe"                               [5.3]
  beyond: clamp                                     [5.4]
}
procedure fire(ship: unit) [6.0] {
  roll shot = 1 d6 [6.1]
  if shot <= ship.gun [6.2] {
    say "{ship} hits" [6.2]
    record "hit" = 1 [6.3]
  } else {
    say "{ship} misses" [6.4]
    record "hit" = 0 [6.4]
  }
  choose retreat by ship.side from ["retreat"] may "{ship} may retreat" [6.5]
}
on eliminated(u) [7.0] { say "{u} is lost" [7.0] }
sequence [8.0] {
  phase main active red [8.0] {
    step first [8.1] { say "first" [8.1] }
    step second [8.2] { say "second" [8.2] }
  }
}
"""


def overlay(name: str, body: str, after: str = "") -> str:
    head = f'overlay {name} "{name}" amends "base.rules"' + (f" after {after}" if after else "")
    return head + " {\n" + textwrap.indent(textwrap.dedent(body), "  ") + "}\n"


def amend(tmp_path: Path, *overlays: str, base: str = BASE):
    """The base ruleset loaded with the overlays, in the order given."""
    (tmp_path / "base.rules").write_text(base)
    paths = []
    for i, text in enumerate(overlays):
        path = tmp_path / f"o{i}.overlay"
        path.write_text(text)
        paths.append(str(path))
    sources = Sources()
    loaded = load_rules(str(tmp_path / "base.rules"), sources, overlays=paths)
    loaded.rendered = [render(d, sources) for d in loaded.diagnostics]
    return loaded


def clean(loaded) -> None:
    assert not loaded.diagnostics, "\n".join(loaded.rendered)


def run(tmp_path: Path, scenario: str, overlays: list[str] = ()):
    """Run a scenario written against base.rules (already in tmp_path); return the trace lines."""
    path = tmp_path / "case.scenario"
    path.write_text(scenario)
    sources = Sources()
    sc = load_scenario(str(path), sources)
    loaded = load_scenario_rules(sc, sources, overlays)
    assert not loaded.errors, [render(d, sources) for d in loaded.errors]
    outcome = run_scenario(sc, loaded.symbols, sources)
    assert outcome.error is None, render(outcome.error, sources)
    return outcome


def _cited(cite: n.Citation | None) -> str | None:
    return cite.text if cite else None


def table(loaded, name: str) -> n.TableDecl:
    return loaded.symbols.tables[name]


# ───────────────────────────── tables ─────────────────────────────


def test_replace_row_takes_the_amendment_citation_and_the_overlay_span(tmp_path):
    loaded = amend(tmp_path, overlay("kind", """\
        amend HR-1 "the sea is kinder" [5.2 house rule] {
          replace row 1..2 of table peril with 1..2 -> damaged "Damaged"
        }
        """))
    clean(loaded)
    row = table(loaded, "peril").rows[0]
    assert (row.low, row.high, row.result, _cited(row.cite)) == (1, 2, "damaged", "5.2 house rule")
    assert row.span.file.endswith("o0.overlay")
    # The base is untouched: a new IR came out.
    base_row = next(d for d in loaded.base.decls if isinstance(d, n.TableDecl)).rows[0]
    assert (base_row.result, _cited(base_row.cite)) == ("sunk", "5.2")
    assert loaded.base is not loaded.ruleset


def test_the_base_ruleset_is_never_changed(tmp_path):
    (tmp_path / "base.rules").write_text(BASE)
    base = load_rules(str(tmp_path / "base.rules"), Sources()).ruleset
    before = base.model_dump()
    from interpreter.load import load_overlay
    from interpreter.overlay.apply import apply_overlays

    path = tmp_path / "o.overlay"
    path.write_text(overlay("all", """\
        amend HR-1 "many things" [5.0 house rule] {
          remove modifier storm of table peril
          set stat gun of VICTORY to 6
          disable step first of phase main
          replace clause if [6.2] of procedure fire with { say "bang" }
          set turns to 5
        }
        """))
    amended, diags, applied = apply_overlays(base, [load_overlay(str(path), Sources())])
    assert not [d for d in diags if d.severity == "error"], [d.message for d in diags]
    assert base.model_dump() == before
    assert amended.model_dump() != before
    assert [a.id for a in applied[0].amendments] == ["HR-1"]


def test_remove_and_add_rows(tmp_path):
    loaded = amend(tmp_path, overlay("rows", """\
        amend HR-1 "no sinking" [5.2 house rule] {
          remove row 1..2 of table peril
          add row to table peril with 1 -> battered "Battered"
          add row to table peril with 2 -> adrift "Adrift" [5.2 house rule, adrift]
        }
        """))
    clean(loaded)
    rows = [(r.low, r.high, r.result, _cited(r.cite)) for r in table(loaded, "peril").rows]
    assert rows == [(3, 6, "safe", "5.3"), (1, 1, "battered", "5.2 house rule"), (2, 2, "adrift", "5.2 house rule, adrift")]


def test_an_added_row_that_overlaps_is_the_checker_s_error(tmp_path):
    loaded = amend(tmp_path, overlay("rows", """\
        amend HR-1 "a sixth row" [5.2 house rule] {
          add row to table peril with 6 -> lucky "Lucky"
        }
        """))
    (error,) = [d for d in loaded.errors if "overlaps row 3..6" in d.message]
    assert error.span.file.endswith("o0.overlay") and error.span.line == 3, loaded.rendered  # the overlay's row
    assert len(error.notes) == 1 and error.notes[0].startswith("row 3..6 is at ") and ".overlay" not in error.notes[0]


def test_modifiers_replaced_removed_added_and_the_trace_cites_the_house_rule(tmp_path):
    loaded = amend(tmp_path, overlay("weather", """\
        amend HR-1 "storms are worse" [5.1 house rule] {
          replace modifier storm of table peril with modifier storm: -2 when storm
          add modifier to table peril with modifier luck: +1 when not storm
        }
        """))
    clean(loaded)
    mods = table(loaded, "peril").modifiers
    assert [(m.name, _cited(m.cite)) for m in mods] == [("storm", "5.1 house rule"), ("luck", "5.1 house rule")]
    outcome = run(tmp_path, """\
        scenario "peril" uses "base.rules" [5.0] {
          with "o0.overlay"
          run peril(true)
          dice { 4 "peril" }
          expect { fact("peril result") == sunk }
        }
        """)
    assert "  [5.2] peril: roll 4 storm -2 [5.1 house rule] = 2 -> Sunk" in outcome.lines
    assert outcome.lines[2] == f"overlays: weather ({tmp_path / 'o0.overlay'}): HR-1"
    removed = amend(tmp_path, overlay("calm", """\
        amend HR-2 "no storms" [5.1 house rule] {
          remove modifier storm of table peril
        }
        """))
    assert [m.name for m in table(removed, "peril").modifiers] == []


def test_set_beyond_and_values(tmp_path):
    loaded = amend(tmp_path, overlay("values", """\
        amend HR-1 "bigger funds, longer games" [4.0 house rule] {
          set range of track funds to 0..30
          set start of track funds to red 10, blue 8
          set turns to 4
          set beyond of table peril to no_effect
          set stat gun of VICTORY to 6
          set stat gun of frigate to X
        }
        """))
    clean(loaded)
    sym = loaded.symbols
    funds = sym.tracks["funds"]
    assert (funds.low, funds.high, tuple((s.side, s.value) for s in funds.start), _cited(funds.cite)) == (0, 30, (("red", 10), ("blue", 8)), "4.0 house rule")
    assert (sym.game.turns, _cited(sym.game.turns_cite)) == (4, "4.0 house rule")
    assert (table(loaded, "peril").beyond, _cited(table(loaded, "peril").beyond_cite)) == ("no_effect", "4.0 house rule")
    assert [(v.name, v.value, _cited(v.cite)) for v in sym.counters["VICTORY"].values] == [("gun", 6, "4.0 house rule")]
    assert [(v.name, v.value) for v in sym.types["frigate"].values] == [("gun", "X")]


# ───────────────────────────── declarations ─────────────────────────────


def test_replace_and_add_whole_declarations(tmp_path):
    loaded = amend(tmp_path, overlay("decls", """\
        amend HR-1 "new rules" [6.0 house rule] {
          add function bonus(s: side) = if s == red then 1 else 0
          replace procedure fire(ship: unit) { say "{ship} fires with bonus {bonus(ship.side)}" }
          add on eliminated(u) { say "{u} is mourned" }
          replace table peril(storm: bool) "Peril" [5.0] {
            roll 1 d6
            1..6 -> safe "Safe"
          }
        }
        """))
    clean(loaded)
    sym = loaded.symbols
    assert _cited(sym.functions["bonus"].cite) == "6.0 house rule"
    assert _cited(sym.procedures["fire"].cite) == "6.0 house rule" and len(sym.procedures["fire"].body) == 1
    assert [_cited(h.cite) for h in sym.hooks] == ["7.0", "6.0 house rule"]
    assert [r.result for r in table(loaded, "peril").rows] == ["safe"]


def test_an_overlay_cannot_add_what_exists_or_a_game(tmp_path):
    loaded = amend(tmp_path, overlay("dup", """\
        amend HR-1 "again" [6.0 house rule] {
          add procedure fire(ship: unit) { say "again" }
          add sequence [8.0] { }
        }
        """))
    messages = [d.message for d in loaded.errors]
    assert "procedure 'fire' already exists" in messages
    assert "an overlay cannot add a sequence: amend the one the ruleset has" in messages


# ───────────────────────────── clauses ─────────────────────────────


def test_replace_a_nested_clause_named_by_keyword_and_citation(tmp_path):
    loaded = amend(tmp_path, overlay("hits", """\
        amend HR-1 "a hit on gun + 1" [6.2 house rule] {
          replace clause if [6.2] of procedure fire with {
            if shot <= ship.gun + 1 {
              say "{ship} hits on {shot}"
            } else {
              say "{ship} misses on {shot}"
            }
          }
        }
        """))
    clean(loaded)
    (tmp_path / "case.scenario").write_text("")
    outcome = run(tmp_path, """\
        scenario "fire" uses "base.rules" [6.0] {
          with "o0.overlay"
          places { area sea { } }
          units { V: frigate of red at sea }
          run fire(V)
          dice { 4 "shot" }
          decisions { red retreat: pass }
          expect { true }
        }
        """)
    assert "  [6.2 house rule] V hits on 4" in outcome.lines  # 4 <= 3 + 1; the nested say inherits the house rule


def test_disable_and_add_clauses_before_after_and_at_the_end(tmp_path):
    loaded = amend(tmp_path, overlay("edits", """\
        amend HR-1 "edits" [6.0 house rule] {
          disable clause record [6.3] of procedure fire
          add clause before roll [6.1] of procedure fire with { say "aim" }
          add clause after choose [6.5] of procedure fire with { say "reload" }
          add clause to procedure fire with { say "done" }
          add clause to step second of phase main with { say "more" }
          add clause to on eliminated with { say "a toast" }
          add clause to row 1..2 of table peril with { say "bubbles" }
        }
        """))
    clean(loaded)
    sym = loaded.symbols
    body = sym.procedures["fire"].body
    assert [s.kind for s in body] == ["say", "roll", "if", "choose", "say", "say"]
    assert [s.kind for s in body[2].body] == ["say"]  # the record [6.3] is gone from the nested block
    assert [s.text.value for s in body if s.kind == "say"] == ["aim", "reload", "done"]
    assert all(_cited(s.cite) == "6.0 house rule" for s in body if s.kind == "say")
    assert [s.text.value for s in sym.steps()[("main", "second")].body] == ["second", "more"]
    assert [s.text.value for s in sym.hooks[0].body] == ["{u} is lost", "a toast"]
    row = table(loaded, "peril").rows[0]
    # The row is amended: its trace line cites the house rule and names the amendment; what it
    # held before keeps the citation it inherited.
    assert (_cited(row.cite), row.label, row.span.file.endswith("o0.overlay")) == ("6.0 house rule", "Sunk (amended by HR-1)", True)


def test_add_clause_to_the_start_of_a_procedure_a_step_or_a_hook(tmp_path):
    loaded = amend(tmp_path, overlay("first", """\
        amend HR-1 "first things first" [6.0 house rule] {
          add clause to start of procedure fire with { say "aim" }
          add clause to start of step second of phase main with { say "before" }
          add clause to start of on eliminated with { say "alas" }
        }
        """))
    clean(loaded)
    sym = loaded.symbols
    assert sym.procedures["fire"].body[0].text.value == "aim" and sym.procedures["fire"].body[1].kind == "roll"
    assert [s.text.value for s in sym.steps()[("main", "second")].body] == ["before", "second"]
    assert [s.text.value for s in sym.hooks[0].body] == ["alas", "{u} is lost"]
    assert loaded.overlays[0].amendments[0].changes == [
        "add clause to start of procedure fire", "add clause to start of step second of phase main",
        "add clause to start of the 'eliminated' hook"]


def test_may_to_must_makes_every_optional_decision_compulsory(tmp_path):
    loaded = amend(tmp_path, overlay("bold", """\
        amend ERR-1 "no retreat" [6.5 errata] {
          change may to must in procedure fire
        }
        """))
    clean(loaded)
    choose = loaded.symbols.procedures["fire"].body[-1]
    assert (choose.optional, choose.prompt.value, _cited(choose.cite)) == (False, "{ship} must retreat", "6.5 errata")
    outcome = run(tmp_path, """\
        scenario "fire" uses "base.rules" [6.0] {
          with "o0.overlay"
          places { area sea { } }
          units { V: frigate of red at sea }
          run fire(V)
          dice { 6 "shot" }
          expect { true }
        }
        """)
    assert "  [6.5 errata] red retreat: retreat (no other choice)" in outcome.lines


# ───────────────────────────── restrictions ─────────────────────────────

MUSTER = BASE + """\
type sloop "Sloop": ship [3.1] { gun: 2 }
procedure muster(s: side) [6.6] {
  choose flagship by s from [u for u in all_units() where u.side == s] "choose the flagship" [6.6]
  say "{flagship} leads" [6.6]
}
"""
HEAVY = """\
amend HR-1 "only a heavy ship may lead" [6.6 house rule] {
  restrict decision flagship to ship where ship.gun >= 3 "a ship of gun 3 or more leads"
}
"""


def muster(tmp_path: Path, decisions: str, *overlays: str):
    """The muster of red's three ships (gun 4, 3, 2) with the overlays: the run's outcome."""
    (tmp_path / "base.rules").write_text(MUSTER)
    withs = ""
    for i, text in enumerate(overlays):
        (tmp_path / f"o{i}.overlay").write_text(text)
        withs += f'  with "o{i}.overlay"\n'
    (tmp_path / "case.scenario").write_text(
        f'scenario "muster" uses "base.rules" [6.6] {{\n{withs}  places {{ area sea {{ }} }}\n'
        "  units { VICTORY: frigate of red at sea\n F: frigate of red at sea\n S: sloop of red at sea }\n"
        f"  run muster(red)\n  decisions {{ {decisions} }}\n  expect {{ true }}\n}}\n")
    sources = Sources()
    sc = load_scenario(str(tmp_path / "case.scenario"), sources)
    loaded = load_scenario_rules(sc, sources)
    assert not loaded.errors, [render(d, sources) for d in loaded.errors]
    outcome = run_scenario(sc, loaded.symbols, sources)
    outcome.rendered = render(outcome.error, sources) if outcome.error is not None else ""
    return outcome


def test_a_restriction_narrows_a_decision_and_its_refusal_cites_the_house_rule(tmp_path):
    assert "  [6.6] S leads" in muster(tmp_path, "red flagship: S").lines  # the printed rules allow the sloop
    narrowed = muster(tmp_path, "red flagship: F", overlay("heavy", HEAVY))
    assert narrowed.error is None and "  [6.6] F leads" in narrowed.lines
    refused = muster(tmp_path, "red flagship: S", overlay("heavy", HEAVY))
    assert "decision 'red flagship: S' is not legal: S is not one of the legal options (VICTORY, F): " \
           "S is ruled out by HR-1 [6.6 house rule]: a ship of gun 3 or more leads [6.6]" in refused.rendered
    assert "Traceback" not in refused.rendered


def test_restrictions_of_one_decision_compose_and_leave_a_forced_answer(tmp_path):
    lighter = overlay("flagged", """\
        amend HR-2 "the Victory stays home" [6.6 house rule] {
          restrict decision flagship to u where u != VICTORY
        }
        """)
    outcome = muster(tmp_path, "", overlay("heavy", HEAVY), lighter)
    assert outcome.error is None, outcome.rendered
    assert "  [6.6] red flagship: F (no other choice)" in outcome.lines
    refused = muster(tmp_path, "red flagship: VICTORY", lighter)
    assert "VICTORY is ruled out by HR-2 [6.6 house rule]: the Victory stays home" in refused.rendered


def test_a_restriction_that_leaves_a_compulsory_decision_no_option_is_a_rule_error(tmp_path):
    none = overlay("none", """\
        amend HR-3 "no flagship" [6.6 house rule] {
          restrict decision flagship to u where u.gun > 9 "no ship is heavy enough"
        }
        """)
    outcome = muster(tmp_path, "", none)
    assert "red must decide 'flagship', but the restriction HR-3 [6.6 house rule] leaves none of its 3 option(s) " \
           "(VICTORY, F, S ruled out: no ship is heavy enough)" in outcome.rendered
    assert "o0.overlay:3" in outcome.rendered and "Traceback" not in outcome.rendered


def test_an_optional_decision_all_of_whose_options_are_restricted_is_declined(tmp_path):
    loaded = amend(tmp_path, overlay("stand", """\
        amend HR-4 "no retreat in turn 1" [6.5 house rule] {
          restrict decision retreat to r where turn() > 1
        }
        """))
    clean(loaded)
    assert [r.by for r in loaded.symbols.restrictions["retreat"]] == ["HR-4"]
    outcome = run(tmp_path, """\
        scenario "fire" uses "base.rules" [6.0] {
          with "o0.overlay"
          places { area sea { } }
          units { V: frigate of red at sea }
          at turn 1 phase main step first
          run fire(V)
          dice { 6 "shot" }
          expect { true }
        }
        """)
    assert "  [6.5] red retreat: none (no other choice)" in outcome.lines


# ───────────────────────────── steps ─────────────────────────────


def test_steps_replaced_disabled_and_added(tmp_path):
    loaded = amend(tmp_path, overlay("turns", """\
        amend HR-1 "a quieter turn" [8.1 house rule] {
          disable step first of phase main
          replace step second of phase main with step second { say "second, amended" }
          add step before second of phase main with step middle { say "middle" }
          add step to phase main with step last { say "last" }
          add step after first of phase main with step early { say "early" }
        }
        """))
    clean(loaded)
    steps = loaded.symbols.sequence.phases[0].steps
    assert [s.name for s in steps] == ["first", "early", "middle", "second", "last"]
    assert all(_cited(s.cite) == "8.1 house rule" for s in steps)
    assert steps[0].body[0].text.value == "first is disabled by turns HR-1: a quieter turn"


def test_a_disabled_step_is_named_when_a_game_is_played(tmp_path, capsys, monkeypatch):
    (tmp_path / "base.rules").write_text(BASE)
    (tmp_path / "quiet.house").write_text(overlay("quiet", """\
        amend HR-1 "no first step" [8.1 house rule] {
          disable step first of phase main
        }
        """))
    monkeypatch.chdir(tmp_path)
    assert main(["play", "base.rules", "--with", "quiet.house", "--agents", "first,first"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith("; overlays: quiet (quiet.house): HR-1")
    assert "[8.1 house rule] turn 1, main, first" in out
    assert "[8.1 house rule] first is disabled by quiet HR-1: no first step" in out


# ───────────────────────────── missing data ─────────────────────────────


def test_an_amendment_of_a_missing_table_waits_and_a_note_on_missing_data_is_listed(tmp_path, capsys, monkeypatch):
    text = overlay("omens_errata", """\
        amend ERR-1 "the omen for a 3 is grimmer" [2.1 errata] {
          add clause to row 3 of table omens with { say "grim" }
        }
        amend ERR-2 "the board's compass is wrong" [2.0 errata] {
          note on missing board "the compass rose printed on the board points west"
        }
        """)
    loaded = amend(tmp_path, text)
    clean(loaded)
    first, second = loaded.overlays[0].amendments
    assert first.waiting == ["omens"] and "waits for the missing table 'omens'" in first.changes[0]
    assert second.notes == [("board", "the compass rose printed on the board points west")]
    monkeypatch.chdir(tmp_path)
    assert main(["check", "base.rules", "--with", "o0.overlay"]) == 0
    out = capsys.readouterr().out
    assert "missing map 'board': the board [2.0]; amended by ERR-2 [2.0 errata]: the compass rose printed on the board points west" in out
    assert "    add clause to row 3 of table omens: waits for the missing table 'omens'" in out


# ───────────────────────────── diagnostics ─────────────────────────────


@pytest.mark.parametrize("change,message,hint", [
    ("remove modifier storm of table perill", "unknown table 'perill'", "did you mean 'peril'?"),
    ("remove modifier strom of table peril", "unknown modifier 'strom' of table 'peril'", "did you mean 'storm'?"),
    ("remove row 1 of table peril", "table 'peril' has no row 1", "its rows are 1..2, 3..6"),
    ("set stat gun of VICTROY to 5", "unknown counter or unit type 'VICTROY'", "did you mean 'VICTORY'?"),
    ("disable step frist of phase main", "unknown step 'frist' in phase 'main'", "did you mean 'first'? phase 'main' has the steps first, second"),
    ("disable step first of phase mian", "unknown phase 'mian'", "did you mean 'main'? the sequence of play has the phase main"),
    ("disable clause [6.22] of procedure fire", "procedure fire has no clause [6.22]", "did you mean '6.2'?"),
    ("disable clause [6.2] of procedure fier", "unknown procedure 'fier'", "did you mean 'fire'?"),
    ("disable clause iff [6.2] of procedure fire", "unknown statement keyword 'iff'", "did you mean 'if'?"),
    ("disable clause roll [6.2] of procedure fire", "procedure fire has no 'roll' clause [6.2]", "the clauses [6.2] there are: if, say"),
    ("replace function bonsu(s: side) = 1", "unknown function 'bonsu': there is nothing to replace", None),
    ("note on missing bord \"x\"", "'bord' is not declared missing in this ruleset", "did you mean 'board'?"),
    ("restrict decision retret to r where true", "unknown decision 'retret'",
     "did you mean 'retreat'? the decisions of the ruleset are retreat"),
])
def test_an_unknown_target_is_an_error_at_its_name(tmp_path, change, message, hint):
    loaded = amend(tmp_path, overlay("typo", f'amend HR-1 "a slip" [1.0 house rule] {{\n  {change}\n}}\n'))
    errors = loaded.errors
    assert [(d.message, d.hint) for d in errors] == [(message, hint)], loaded.rendered
    assert errors[0].span.file.endswith("o0.overlay") and errors[0].span.line == 3
    assert "^" in loaded.rendered[0] and "Traceback" not in loaded.rendered[0]


def test_an_ambiguous_clause_lists_the_candidates(tmp_path):
    loaded = amend(tmp_path, overlay("amb", """\
        amend HR-1 "louder" [6.2 house rule] {
          disable clause [6.2] of procedure fire
        }
        """))
    (error,) = loaded.errors
    assert error.message == "clause [6.2] of procedure fire is ambiguous: 2 statements cite it"
    assert error.hint == "write the keyword of the statement meant before the citation: 'clause if [6.2]' or 'clause say [6.2]'"
    assert [note.split(" at ")[0] for note in error.notes] == ["if", "say"]
    assert [note.split(": ")[-1] for note in error.notes] == ["'clause if [6.2]' selects it", "'clause say [6.2]' selects it"]


def test_an_amendment_that_changes_nothing_is_a_warning(tmp_path):
    loaded = amend(tmp_path, overlay("same", """\
        amend HR-1 "as printed" [5.0 house rule] {
          replace modifier storm of table peril with modifier storm: -1 when storm
          replace row 1..2 of table peril with 1..2 -> sunk "Sunk"
          set stat gun of VICTORY to 4
          set turns to 2
          change may to must in step first of phase main
        }
        """))
    assert not loaded.errors
    warnings = [d.message for d in loaded.diagnostics if d.severity == "warning"]
    assert warnings == [
        "amendment HR-1 changes nothing: modifier 'storm' of table 'peril' is already so",
        "amendment HR-1 changes nothing: row 1..2 of table 'peril' is already so",
        "amendment HR-1 changes nothing: VICTORY's gun is already 4",
        "amendment HR-1 changes nothing: the game already lasts 2 turns",
        "amendment HR-1 changes nothing: step first of phase main has no optional ('may') decision",
    ]


def test_an_amendment_needs_a_citation(tmp_path):
    loaded = amend(tmp_path, overlay("uncited", 'amend HR-1 "longer" {\n  set turns to 3\n}\n'))
    assert [d.message for d in loaded.errors] == ["amendment HR-1 has no rule citation"]


# ───────────────────────────── conflicts and order ─────────────────────────────

HARSH = """\
amend HR-1 "harsh storms" [5.1 house rule] {
  replace modifier storm of table peril with modifier storm: -2 when storm
}
"""
HARSHER = """\
amend HR-9 "harsher storms" [5.1 house rule] {
  replace modifier storm of table peril with modifier storm: -3 when storm
}
"""


def test_two_overlays_amending_the_same_thing_conflict(tmp_path):
    loaded = amend(tmp_path, overlay("harsh", HARSH), overlay("harsher", HARSHER))
    (error,) = loaded.errors
    assert error.message == "overlays 'harsh' and 'harsher' both amend modifier storm of table peril; which applies last is not stated"
    assert error.hint == "write 'after harsh' in the header of 'harsher' (or the reverse)"
    assert error.span.file.endswith("o1.overlay") and error.notes[0].startswith("'harsh' amends modifier storm of table peril at ")


def test_a_whole_declaration_and_a_part_of_it_conflict_too(tmp_path):
    whole = 'amend HR-1 "new fire" [6.0 house rule] {\n  replace procedure fire(ship: unit) { say "fire" }\n}\n'
    part = 'amend HR-2 "quiet" [6.0 house rule] {\n  add clause to procedure fire with { say "quiet" }\n}\n'
    loaded = amend(tmp_path, overlay("whole", whole), overlay("part", part))
    assert [d.message for d in loaded.errors] == [
        "overlays 'whole' and 'part' both amend the end of procedure fire; which applies last is not stated"]


def test_after_states_the_order_whatever_order_the_overlays_are_given_in(tmp_path):
    # 'harsher' says it comes after 'harsh', and is given first: it is applied last all the same.
    loaded = amend(tmp_path, overlay("harsher", HARSHER, after="harsh"), overlay("harsh", HARSH))
    clean(loaded)
    assert [o.name for o in loaded.overlays] == ["harsh", "harsher"]
    storm = table(loaded, "peril").modifiers[0]
    assert (storm.value.kind, _cited(storm.cite)) == ("neg", "5.1 house rule") and storm.value.operand.value == 3


def test_a_cycle_of_after_is_an_error(tmp_path):
    loaded = amend(tmp_path, overlay("a", HARSH, after="b"), overlay("b", HARSHER, after="a"))
    assert "each come 'after' another of them" in loaded.errors[0].message


def test_an_overlay_for_another_ruleset_is_refused(tmp_path):
    (tmp_path / "other.rules").write_text(BASE)
    text = overlay("elsewhere", HARSH).replace('amends "base.rules"', 'amends "other.rules"')
    loaded = amend(tmp_path, text)
    assert loaded.errors[0].message == f"overlay 'elsewhere' amends {tmp_path / 'other.rules'}, which is not part of this ruleset"


def test_a_malformed_overlay_is_a_syntax_error_not_a_traceback(tmp_path, capsys):
    path = tmp_path / "bad.overlay"
    path.write_text('overlay x "x" amends "base.rules" {\n  amend A-1 "a" [1.0] {\n    replace rows 1 of table t with 1 -> a\n  }\n}\n')
    (tmp_path / "base.rules").write_text(BASE)
    assert main(["check", str(path)]) == 1
    err = capsys.readouterr().err
    assert "'rows' reads as the keyword 'row' followed by 's': did you mean 'row'?" in err
    assert "Traceback" not in err


# ───────────────────────────── Jenkins' Ear: the errata and the house rules ─────────────────────────────


@pytest.fixture
def at_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def test_the_errata_wait_for_the_missing_tables_and_apply_to_the_demo_data(at_root):
    plain = load_rules("rulesets/jenkins_ear.rules", Sources(), with_errata=True)
    assert not plain.errors
    err1, err2, err3 = plain.overlays[0].amendments
    assert (err1.notes[0][0], err2.waiting, err3.waiting) == ("caribbean", ["storm_location"], ["fortunes_of_war"])
    demo = load_rules("rulesets/jenkins_ear.rules", Sources(), with_demo=True, with_errata=True)
    assert not demo.errors and all(not a.waiting for a in demo.overlays[0].amendments)
    row3 = demo.symbols.tables["storm_location"].rows[2]
    assert _cited(row3.cite) == "6.2 errata" and [_cited(s.cite) for s in row3.effect] == ["6.2 demo", "6.2 errata"]
    fortunes = demo.symbols.tables["fortunes_of_war"]
    assert [_cited(r.cite) for r in fortunes.rows] == ["6.6 errata", "6.6 errata", "6.6 demo", "6.6 errata", "6.6 errata"]
    assert all(" must " in r.label for r in fortunes.rows if _cited(r.cite) == "6.6 errata")
    printed = load_rules("rulesets/jenkins_ear.rules", Sources(), with_demo=True)
    assert all(" may " in r.label for r in printed.symbols.tables["fortunes_of_war"].rows if r.result != "demo_fortune_quiet")


@pytest.mark.parametrize("name,differs", [
    ("house_heavy_weather", "  [6.3] perilous_sea: roll 5 storm -2 [6.3 house rule] = 3 -> Davy Jones' Locker"),
    ("house_bold_interception", "  [7.2 house rule] spanish intercepts in 1011: 2 is at most 1 non-merchant naval counter(s) + 1"),
    ("case_admin_storm_determination_demo", "  [6.2 errata] 3522.storm is now yes"),
    ("case_admin_fortunes_of_war_demo", "  [6.6 errata] spanish fortune: eliminate the top counter of an enemy stack (no other choice)"),
    ("house_harbour_bound", "  [7.0] english movers: [ESOL]"),
])
def test_each_overlay_scenario_differs_from_the_same_scenario_without_its_overlay(at_root, name, differs):
    sources = Sources()
    sc = load_scenario(f"scenarios/jenkins_ear/{name}.scenario", sources)
    assert sc.overlays, "the scenario names its overlay"
    with_it = run_scenario(sc, load_scenario_rules(sc, sources).symbols, sources)
    bare = sc.model_copy(update={"overlays": ()})
    without = run_scenario(bare, load_scenario_rules(bare, sources).symbols, sources)
    assert with_it.ok and differs in with_it.lines
    assert differs not in without.lines
    assert not without.ok or without.error is not None, "without the overlay the scenario's expectations do not hold"


@pytest.mark.parametrize("pair", ["house_heavy_weather", "house_bold_interception", "case_admin_storm_determination_demo",
                                  "case_admin_fortunes_of_war_demo"])
def test_each_overlay_scenario_has_a_twin_without_it_that_holds(at_root, pair):
    twin = {"house_heavy_weather": "house_heavy_weather_without", "house_bold_interception": "house_bold_interception_without",
            "case_admin_storm_determination_demo": "case_admin_storm_determination_demo_as_printed",
            "case_admin_fortunes_of_war_demo": "case_admin_fortunes_of_war_demo_as_printed"}[pair]
    sources = Sources()
    sc = load_scenario(f"scenarios/jenkins_ear/{twin}.scenario", sources)
    outcome = run_scenario(sc, load_scenario_rules(sc, sources).symbols, sources)
    assert not sc.overlays and outcome.ok and outcome.error is None
    assert not any(line.startswith("overlays:") for line in outcome.lines)


def test_run_with_applies_an_overlay_from_the_command_line(at_root, capsys):
    assert main(["run", "scenarios/jenkins_ear/house_heavy_weather_without.scenario",
                 "--with", "rulesets/jenkins_ear/house/heavy_weather.house"]) == 1  # its expectations no longer hold
    out = capsys.readouterr().out
    assert "overlays: heavy_weather (rulesets/jenkins_ear/house/heavy_weather.house): HR-1" in out
    assert "perilous_sea: roll 5 storm -2 [6.3 house rule] = 3 -> Davy Jones' Locker" in out


def test_check_with_house_rules_and_on_an_overlay_file(at_root, capsys):
    assert main(["check", "rulesets/jenkins_ear.rules", "--with", "rulesets/jenkins_ear/house/heavy_weather.house",
                 "--with", "rulesets/jenkins_ear/house/bold_interception.house"]) == 0
    out = capsys.readouterr().out
    assert "rulesets/jenkins_ear.rules: 0 error(s)" in out
    assert "overlay heavy_weather" in out and "overlay bold_interception" in out and "overlay jenkins_ear_errata" in out
    assert main(["check", "rulesets/jenkins_ear.errata", "rulesets/jenkins_ear/house/heavy_weather.house"]) == 0
    out = capsys.readouterr().out
    assert "applied to rulesets/jenkins_ear.rules with jenkins_ear_errata" in out


def test_play_applies_the_errata_unless_told_not_to(at_root, capsys):
    assert main(["play", "rulesets/jenkins_ear.rules", "--seed", "1"]) == 0
    with_errata = capsys.readouterr().out.splitlines()
    assert main(["play", "rulesets/jenkins_ear.rules", "--seed", "1", "--no-errata"]) == 0
    as_printed = capsys.readouterr().out.splitlines()
    assert "overlays: jenkins_ear_errata (rulesets/jenkins_ear.errata): ERR-1 (note on missing data), ERR-2, ERR-3" in with_errata[0]
    assert "overlays" not in as_printed[0]
    assert any(line.startswith("[6.6 errata] ") for line in with_errata)
    assert not any("errata]" in line for line in as_printed)
    for game in (with_errata, as_printed):
        assert game[-1].startswith("[5.0] the game is over: the ")


def test_a_saved_game_keeps_its_overlays(at_root, capsys, tmp_path):
    house = "rulesets/jenkins_ear/house/bold_interception.house"
    args = ["play", "rulesets/jenkins_ear.rules", "--seed", "3", "--with", house]
    assert main(args) == 0
    whole = capsys.readouterr().out.splitlines()
    save = tmp_path / "game.toml"
    assert main([*args, "--save", str(save), "--stop-after", "20"]) == 0
    first = capsys.readouterr().out.splitlines()
    import tomllib

    head = tomllib.loads(save.read_text())["umpire_save"]
    # Paths are stored relative to the save's folder, so the save loads from any working folder.
    stored = [os.path.normpath(os.path.join(tmp_path, p)) for p in head["overlays"]]
    assert (stored, head["errata"], head["applied"]) == ([str(ROOT / house)], True, ["jenkins_ear_errata", "bold_interception"])
    assert main(["play", "--load", str(save)]) == 0
    rest = capsys.readouterr().out.splitlines()
    body = [line for line in first[2:] if not line.startswith(("(suspended", "saved to"))]
    assert body + rest[2:] == whole[2:]


# ───────────────────────────── fuzzing: never a traceback ─────────────────────────────


def _mutants():
    """The real overlays and the base above, each with one of their tokens deleted or doubled."""
    texts = [(ROOT / "rulesets" / "jenkins_ear.errata").read_text()] + [
        p.read_text() for p in sorted((ROOT / "rulesets" / "jenkins_ear" / "house").glob("*.house"))]
    return [(t, [m.span() for m in re.finditer(r"\S+", t)]) for t in texts]


MUTANTS = _mutants()


def test_mutated_overlays_never_end_in_a_traceback(tmp_path_factory):
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    folder = tmp_path_factory.mktemp("fuzz") / "rulesets"
    shutil.copytree(ROOT / "rulesets", folder)

    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.integers(0, len(MUTANTS) - 1), st.integers(0, 10_000), st.booleans())
    def check(which, at, double):
        text, spans = MUTANTS[which]
        a, b = spans[at % len(spans)]
        mutated = text[:a] + (text[a:b] * 2 if double else "") + text[b:]
        path = folder / "jenkins_ear" / "house" / "fuzzed.house"
        path.write_text(mutated)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["check", str(path)])
        text = out.getvalue() + err.getvalue()
        assert code in (0, 1) and "Traceback" not in text and "internal error" not in text, (mutated, text)

    check()
