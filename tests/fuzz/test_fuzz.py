"""Fuzzing the front end and the runtime: no input may make Umpire print a traceback.

Arbitrary text, text made of the language's own tokens, and the real ruleset and
scenarios mutated (lines and tokens deleted, duplicated, swapped, replaced) are given to
``umpire check`` (as a .rules and as a .scenario file) and to ``umpire run``. Whatever
the input, ``main()`` must return 0 or 1 and print neither "Traceback" nor "internal
error" (its last-resort handler for a bug in Umpire).

The example counts keep the whole file under half a minute on two cores; set
UMPIRE_FUZZ_SCALE=10 (or more) for a longer hunt.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from fuzzing import SCALE, SKIRMISH_SCENARIO, assert_clean, cli, fuzz_settings
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent.parent
RULESET = ROOT / "rulesets" / "jenkins_ear.rules"
SCENARIOS = sorted((ROOT / "scenarios" / "jenkins_ear").glob("*.scenario"))


# ───────────────────────────── running the CLI ─────────────────────────────





@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    """A copy of the repository's layout, so that a scenario's ``uses "../../rulesets/..."`` resolves."""
    base = tmp_path_factory.mktemp("fuzz")
    (base / "rulesets").mkdir()
    (base / "scenarios" / "jenkins_ear").mkdir(parents=True)
    shutil.copy(RULESET, base / "rulesets" / "jenkins_ear.rules")
    # The ruleset's parts too: without them every run stopped at "cannot include" and never ran a rule.
    shutil.copytree(ROOT / "rulesets" / "jenkins_ear", base / "rulesets" / "jenkins_ear")
    return base


def check_text(workdir: Path, text: str, suffix: str) -> None:
    path = workdir / "scenarios" / "jenkins_ear" / f"fuzz{suffix}"
    path.write_text(text, encoding="utf-8")
    code, out = cli("check", str(path), "--allow-path", str(workdir))  # the workdir is outside the current folder
    assert_clean(code, out, text)


def run_text(workdir: Path, text: str) -> None:
    path = workdir / "scenarios" / "jenkins_ear" / "fuzz_run.scenario"
    path.write_text(text, encoding="utf-8")
    code, out = cli("run", str(path), "--allow-path", str(workdir))
    assert_clean(code, out, text)


# ───────────────────────────── text strategies ─────────────────────────────

TOKEN_RE = re.compile(r'"(?:\\.|[^"\\\n])*"|\[[^\]\n]*\]|#[^\n]*|[A-Za-z_][A-Za-z0-9_]*|\d+|\.\.|->|[=!<>]=|\S')


def tokens_of(text: str) -> list[str]:
    return TOKEN_RE.findall(text)


RULES_TEXT = RULESET.read_text(encoding="utf-8")
SCENARIO_TEXTS = [p.read_text(encoding="utf-8") for p in SCENARIOS]
VOCABULARY = sorted({t for text in [RULES_TEXT, *SCENARIO_TEXTS] for t in tokens_of(text) if not t.startswith("#")})
EXTRA_TOKENS = ['"unterminated', "[9.1", "[bad]", "}", "{", "(", ")", "?", "X", "-1", "0", "999999999999", "@", ";",
                ",", "&&", "'", "\t", "\u00e9", "\u2019", "\x00", "matching", "die", "->", "..", "==", "%", "/"]


def language_soup(max_tokens: int = 60):
    """Text built of the language's tokens, which reaches far deeper into the parser than noise."""
    return st.lists(st.sampled_from(VOCABULARY + EXTRA_TOKENS), max_size=max_tokens).flatmap(
        lambda toks: st.lists(st.sampled_from([" ", " ", " ", "\n", "  "]), min_size=len(toks), max_size=len(toks)).map(
            lambda seps: "".join(t + s for t, s in zip(toks, seps))
        )
    )


NAMES = [t for t in VOCABULARY if re.fullmatch(r"[A-Za-z_]\w*", t)]
# Edits that keep the text well-formed more often than not, so that they reach the checker and the runtime.
MUTATIONS = ("delete_line", "duplicate_line", "swap_lines", "delete_token", "duplicate_token", "swap_tokens",
             "replace_token", "insert_token", "truncate", "replace_number", "replace_number", "replace_name",
             "replace_name")


@st.composite
def mutated(draw, source: str, max_mutations: int = 3) -> str:
    """``source`` after one to a few random edits of its lines or tokens."""
    text = source
    for _ in range(draw(st.integers(1, max_mutations))):
        kind = draw(st.sampled_from(MUTATIONS))
        i = draw(st.integers(0, 10**6))
        j = draw(st.integers(0, 10**6))
        if kind.endswith("line"):
            lines = text.split("\n")
            a, b = i % len(lines), j % len(lines)
            if kind == "delete_line":
                del lines[a]
            elif kind == "duplicate_line":
                lines.insert(a, lines[a])
            text = "\n".join(lines)
        elif kind == "swap_lines":
            lines = text.split("\n")
            a, b = i % len(lines), j % len(lines)
            lines[a], lines[b] = lines[b], lines[a]
            text = "\n".join(lines)
        elif kind == "truncate":
            text = text[: i % (len(text) + 1)]
        else:
            # Token edits keep the text around the tokens, so most of the file still parses.
            spans = [m.span() for m in TOKEN_RE.finditer(text)]
            if not spans:
                text += draw(st.sampled_from(VOCABULARY))
                continue
            if kind == "replace_number":
                spans = [m.span() for m in re.finditer(r"(?<![\w.])\d+(?![\w.])", text)] or spans
            elif kind == "replace_name":
                spans = [m.span() for m in re.finditer(r"(?<![\w\"])[A-Za-z_]\w*", text)] or spans
            a, b = spans[i % len(spans)], spans[j % len(spans)]
            word_a, word_b = text[a[0]:a[1]], text[b[0]:b[1]]
            if kind == "replace_number":
                text = text[: a[0]] + str(draw(st.integers(-1, 12))) + text[a[1]:]
            elif kind == "replace_name":
                text = text[: a[0]] + draw(st.sampled_from(NAMES)) + text[a[1]:]
            elif kind == "delete_token":
                text = text[: a[0]] + text[a[1]:]
            elif kind == "duplicate_token":
                text = text[: a[1]] + " " + word_a + text[a[1]:]
            elif kind == "replace_token":
                text = text[: a[0]] + draw(st.sampled_from(VOCABULARY + EXTRA_TOKENS)) + text[a[1]:]
            elif kind == "insert_token":
                text = text[: a[0]] + draw(st.sampled_from(VOCABULARY + EXTRA_TOKENS)) + " " + text[a[0]:]
            elif kind == "swap_tokens" and a != b:
                (first, w1), (second, w2) = sorted([(a, word_a), (b, word_b)])
                text = text[: first[0]] + w2 + text[first[1]: second[0]] + w1 + text[second[1]:]
    return text


# ───────────────────────────── the properties ─────────────────────────────


@fuzz_settings(60)
@given(text=st.text(max_size=300))
def test_arbitrary_text(workdir, text):
    check_text(workdir, text, ".rules")
    check_text(workdir, text, ".scenario")


@fuzz_settings(80)
@given(text=language_soup())
def test_token_soup(workdir, text):
    check_text(workdir, text, ".rules")
    check_text(workdir, text, ".scenario")


SCENARIO_HEAD = 'scenario "fuzz" uses "../../rulesets/jenkins_ear.rules" [EoP] {\n'


@fuzz_settings(30)
@given(text=language_soup(40))
def test_token_soup_scenario_body(workdir, text):
    """Past the scenario header, so that the body meets the scenario checker and the runtime."""
    source = SCENARIO_HEAD + text + "\n}\n"
    check_text(workdir, source, ".scenario")
    run_text(workdir, source)


@fuzz_settings(60)
@given(text=mutated(RULES_TEXT))
def test_mutated_ruleset_check(workdir, text):
    check_text(workdir, text, ".rules")


@fuzz_settings(60)
@given(data=st.data())
def test_mutated_scenario_run(workdir, data):
    which = data.draw(st.integers(0, len(SCENARIOS) - 1), label="scenario index")
    text = data.draw(mutated(SCENARIO_TEXTS[which]), label="scenario")
    run_text(workdir, text)


@fuzz_settings(30)
@given(rules=mutated(RULES_TEXT, max_mutations=2), which=st.integers(0, len(SCENARIOS) - 1))
def test_scenario_against_mutated_ruleset(workdir, rules, which):
    """A real scenario run against a damaged ruleset: the runtime meets rules it never saw."""
    base = workdir / "mutant"
    (base / "rulesets").mkdir(parents=True, exist_ok=True)
    (base / "scenarios" / "jenkins_ear").mkdir(parents=True, exist_ok=True)
    if not (base / "rulesets" / "jenkins_ear").exists():
        shutil.copytree(ROOT / "rulesets" / "jenkins_ear", base / "rulesets" / "jenkins_ear")
    (base / "rulesets" / "jenkins_ear.rules").write_text(rules, encoding="utf-8")
    scenario = base / "scenarios" / "jenkins_ear" / SCENARIOS[which].name
    scenario.write_text(SCENARIO_TEXTS[which], encoding="utf-8")
    code, out = cli("run", str(scenario), "--allow-path", str(base))
    assert_clean(code, out, rules)


# ───────────────────────────── runtime values of every kind ─────────────────────────────

# Expectations are evaluated by the engine after the run: random expressions over values of
# every kind (numbers, strings, units, places, sides, boxes, lists, maps) meet every builtin
# and operator with arguments of the wrong kind, which must be reported, never crash.
ATOMS = ["0", "1", "3", "-2", '"a"', '"hits blue"', "true", "false", "none", "X", "R1", "B1", "@0101", "@0102", "red",
         "blue", "pool", "sunk", "[]", "{}", "sides()", "all_units()", "places()", "R1.gun", "R1.cargo", "B1.location",
         "@0101.terrain", "open", "[1, 2]", "{red: 1}", "[R1, B1]"]
BUILTIN_CALLS = ["units_at", "adjacent", "enemy", "count", "sum", "min", "max", "any", "all", "keys", "values", "fact", "get"]


def expressions():
    def extend(inner):
        return st.one_of(
            st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "%", "==", "!=", "<", ">=", "and", "or", "in"]), inner)
            .map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
            st.tuples(st.sampled_from(BUILTIN_CALLS), st.lists(inner, min_size=0, max_size=3))
            .map(lambda t: f"{t[0]}({', '.join(t[1])})"),
            st.tuples(inner, inner).map(lambda t: f"{t[0]}[{t[1]}]"),
            st.tuples(inner, st.sampled_from(["gun", "cost", "side", "location", "cargo", "carrier", "terrain", "id",
                                              "on_map", "decoy"])).map(lambda t: f"{t[0]}.{t[1]}"),
            st.lists(inner, max_size=3).map(lambda xs: f"[{', '.join(xs)}]"),
            st.lists(st.tuples(inner, inner), min_size=1, max_size=2)
            .map(lambda kv: "{" + ", ".join(f"{k}: {v}" for k, v in kv) + "}"),
            st.tuples(inner, inner).map(lambda t: f"[x for x in {t[0]} where {t[1]}]"),
            st.tuples(inner, inner).map(lambda t: f"(matching d in {t[0]} with u in {t[1]} where d <= u)"),
            st.tuples(inner, inner, inner).map(lambda t: f"(if {t[0]} then {t[1]} else {t[2]})"),
            inner.map(lambda e: f"(not {e})"),
            inner.map(lambda e: f"(has {e})"),
            inner.map(lambda e: f"(- {e})"),
            st.tuples(inner, st.sampled_from(["ship", "frigate", "dummy", "decoy"])).map(lambda t: f"({t[0]} is {t[1]})"),
        )

    return st.recursive(st.sampled_from(ATOMS), extend, max_leaves=8)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # Hypothesis writes its failure patch with libcst
@settings(max_examples=25 * SCALE, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate],
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])
@given(exprs=st.lists(expressions(), min_size=1, max_size=8))
def test_expressions_of_every_kind(workdir, exprs):
    rules = workdir / "skirmish.rules"
    if not rules.exists():
        shutil.copy(ROOT / "tests" / "bad" / "support" / "skirmish.rules", rules)
    text = SKIRMISH_SCENARIO.format(rules="skirmish.rules", expects="\n".join(f"    ({e}) == 1" for e in exprs))
    path = workdir / "expressions.scenario"
    path.write_text(text, encoding="utf-8")
    code, out = cli("run", str(path))
    assert_clean(code, out, text)


def test_the_copied_layout_runs_a_real_scenario_to_its_expectations(workdir):
    """The fuzzed runs go through the runtime: the copy holds the whole ruleset, parts included."""
    path = workdir / "scenarios" / "jenkins_ear" / "real.scenario"
    path.write_text(SCENARIO_TEXTS[0], encoding="utf-8")
    code, out = cli("run", str(path), "--allow-path", str(workdir))
    assert code == 0 and "expectations met" in out and "cannot include" not in out, out[-1500:]
