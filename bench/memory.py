"""Memory per line of rules: how much a ruleset costs to load (read, parse, build the IR, check).

Run from the repository root:  python bench/memory.py [--lines N] [--rulesets NAME ...]
It writes a ruleset of about N lines (default 20,000): the Jenkins' Ear rules, then renamed
copies of them (copy_plan: a copy leaves out what a ruleset declares once and renames every
other declaration, and its uses). It loads that file, then each of the five rulesets alone
(the cache of loads off) with tracemalloc on, and prints for each the memory kept once it is
loaded and the peak while loading, in KB per line (every file a load reads counted, its
includes too). A load with checker errors is no measurement: the script then exits 1.
A measurement, not a test (tests/check/test_bench_memory.py runs it small)."""

from __future__ import annotations

import argparse
import gc
import os
import re
import sys
import tempfile
import time
import tracemalloc
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ["UMPIRE_CACHE"] = "off"  # measure the front end itself, not a load served from the cache

from interpreter.ir import nodes as n  # noqa: E402
from interpreter.load import built, load_rules  # noqa: E402
from interpreter.syntax.diagnostics import Sources  # noqa: E402

RULESETS = ["guerra_a_muerte", "jenkins_ear", "sea_of_glory_1805", "when_lions_sailed", "yellow_jack"]

# The declarations a ruleset makes once: a copy leaves them out and uses the original's.
_ONCE = (n.MapDecl, n.SequenceDecl, n.ViewDecl, n.LookDecl)


def _parts() -> tuple[str, str]:
    """The game header and the rest of the Jenkins' Ear rules, includes inlined (demo data left out)."""
    main = (ROOT / "rulesets" / "jenkins_ear.rules").read_text(encoding="utf-8")
    header_end = main.index("\n}\n") + 3
    rest = main[header_end:]
    for part in re.findall(r'^include "([^"]+)".*$', rest, re.M):
        rest += "\n" + (ROOT / "rulesets" / part).read_text(encoding="utf-8")
    rest = re.sub(r'^include .*$', "", rest, flags=re.M)
    return main[:header_end], rest


def _map_names(the_map: n.MapDecl) -> set[str]:
    """The names the map declares: its own, its properties and their values, its edges, borders and coasts."""
    names = {the_map.name}
    for prop in (*the_map.props, *the_map.borders):
        names |= {prop.name, *prop.type.enum}
    return names | {edge.name for edge in the_map.edges} | {coast.name for coast in the_map.coasts}


def copy_plan(body: str) -> tuple[str, list[str]]:
    """The text a copy starts from and the names it renames. A copy leaves out the map, the
    sequence of play, the view (a ruleset has one of each), the looks (one for each thing drawn)
    and the declarations named as something of the map (`land`, a class and a stat, is also a
    terrain): the map's names are not renamed, so those would be declared twice. Every other
    declaration is renamed."""
    decls = built(body, str(ROOT / "rulesets" / "jenkins_ear.rules"), "rules_file").decls
    the_map = next(d for d in decls if isinstance(d, n.MapDecl))
    kept = _map_names(the_map)
    lines = body.split("\n")
    left_out: set[int] = set()
    renamed: set[str] = set()
    for decl in decls:
        name = getattr(decl, "name", None)
        if isinstance(decl, _ONCE) or name in kept:
            left_out.update(range(decl.span.line - 1, decl.span.end_line))
        elif isinstance(name, str):
            renamed.add(name)
    text = "\n".join(line for i, line in enumerate(lines) if i not in left_out)
    return text, sorted(renamed, key=len, reverse=True)


def generated(lines: int) -> str:
    """The header, the whole Jenkins' Ear rules once, then renamed copies (copy_plan) until about
    ``lines`` lines."""
    header, body = _parts()
    copy, names = copy_plan(body)
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\b")
    copies, k = [header, body], 1
    while sum(c.count("\n") for c in copies) < lines:
        copies.append(pattern.sub(lambda m, k=k: f"{m.group(1)}_{k}", copy))
        k += 1
    return "".join(copies)


@dataclass
class Measured:
    name: str
    lines: int
    kept: float  # KB
    peak: float  # KB
    errors: int
    seconds: float


def measure(name: str, path: Path) -> Measured:
    """One load of ``path`` under tracemalloc: what it keeps once loaded, and its peak; the lines are
    those of every file the load read (its includes too)."""
    sources = Sources()
    gc.collect()
    tracemalloc.start()
    started = time.perf_counter()
    loaded = load_rules(str(path), sources)
    seconds = time.perf_counter() - started
    gc.collect()
    kept, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    errors = len(loaded.errors)
    del loaded
    lines = sum(len((sources.text(f) or "").splitlines()) for f in sources.names())
    return Measured(name, lines, kept / 1024, peak / 1024, errors, seconds)


def show(m: Measured) -> None:
    print(f"{m.name:>20}: {m.lines:6} lines, kept {m.kept / m.lines:5.2f} KB per line ({m.kept / 1024:4.0f} MB), "
          f"peak {m.peak / m.lines:5.2f} KB per line ({m.peak / 1024:4.0f} MB), {m.seconds:.1f} s")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lines", type=int, default=20_000, help="lines of the generated ruleset (default 20,000)")
    ap.add_argument("--rulesets", nargs="*", choices=RULESETS, default=RULESETS, metavar="NAME",
                    help=f"the rulesets measured beside it (default all: {', '.join(RULESETS)})")
    args = ap.parse_args()
    header, body = _parts()
    with tempfile.TemporaryDirectory() as tmp:
        # Once untraced: imports, the parser's tables. On a text no measured load reads: the
        # loader keeps each file's IR for the process (load._built), and a second load of the
        # same text would build nothing, leaving only the check to measure.
        warm = Path(tmp) / "warm.rules"
        warm.write_text(header + body, encoding="utf-8")
        load_rules(str(warm), Sources())
        big = Path(tmp) / "generated.rules"
        big.write_text(generated(args.lines), encoding="utf-8")
        measured = [measure("generated", big)]
        measured += [measure(name, ROOT / "rulesets" / f"{name}.rules") for name in args.rulesets]
    print("loads with tracemalloc on, the cache of loads off")
    for m in measured:
        show(m)
    real = measured[1:]
    if len(real) > 1:  # each loaded alone: their peaks do not add up, what they keep does
        lines, kept = sum(m.lines for m in real), sum(m.kept for m in real)
        print(f"{'the rulesets':>20}: {lines:6} lines, kept {kept / lines:5.2f} KB per line ({kept / 1024:4.0f} MB)")
    failed = [f"{m.name} ({m.errors})" for m in measured if m.errors]
    if failed:  # a ruleset that does not check is not what a game loads: its figures are no measurement
        print(f"not a measurement: checker errors in {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
