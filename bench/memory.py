"""Memory per line of rules: how much a large ruleset costs to load (read, parse, build the IR, check).

Run from the repository root:  python bench/memory.py [--lines N]
It writes a ruleset of about N lines (default 20,000) made of copies of the Jenkins' Ear
rules, each copy's declarations renamed (a suffix on every name the copy declares, and on
its uses), loads it (the cache of loads off) with tracemalloc on, and prints the memory kept once it is loaded
and the peak while loading, in KB per line. A measurement, not a test.
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ["UMPIRE_CACHE"] = "off"  # measure the front end itself, not a load served from the cache

from interpreter.ir import nodes as n  # noqa: E402
from interpreter.load import built, load_rules  # noqa: E402
from interpreter.syntax.diagnostics import Sources  # noqa: E402

# The declarations a ruleset makes once: a copy leaves them out and uses the original's.
_ONCE = (n.MapDecl, n.SequenceDecl, n.ViewDecl)


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
    sequence of play and the view (a ruleset has one of each), and the declarations named as
    something of the map (`land`, a class and a stat, is also a terrain): the map's names are
    not renamed, so those would be declared twice. Every other declaration is renamed."""
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


def measure(path: Path) -> tuple[float, float, int, float]:
    gc.collect()
    tracemalloc.start()
    started = time.perf_counter()
    loaded = load_rules(str(path), Sources())
    seconds = time.perf_counter() - started
    gc.collect()
    kept, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    errors = len(loaded.errors)
    del loaded
    return kept / 1024, peak / 1024, errors, seconds


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lines", type=int, default=20_000)
    args = ap.parse_args()
    text = generated(args.lines)
    lines = text.count("\n")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.rules"
        path.write_text(text, encoding="utf-8")
        # Once untraced, on the Jenkins' Ear rules: imports, the parser's tables. Not on the file
        # measured: the loader keeps each file's IR for the process (load._built), and a second
        # load of the same text would build nothing, leaving only the check to measure.
        load_rules(str(ROOT / "rulesets" / "jenkins_ear.rules"), Sources())
        kept, peak, errors, seconds = measure(path)
    print(f"{lines} lines ({errors} checker errors), loaded in {seconds:.1f} s with tracemalloc on")
    print(f"kept once loaded: {kept / lines:6.2f} KB per line ({kept / 1024:.0f} MB)")
    print(f"peak while loading: {peak / lines:6.2f} KB per line ({peak / 1024:.0f} MB)")


if __name__ == "__main__":
    main()
