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

from interpreter.load import load_rules  # noqa: E402
from interpreter.syntax.diagnostics import Sources  # noqa: E402

_DECLARES = re.compile(r"^\s*(?:stat|flag|class|type|counter|table|function|procedure|box|track|state|unit state|"
                       r"place state|missing \w+)\s+([A-Za-z_]\w*)", re.M)


def _parts() -> tuple[str, str]:
    """The game header and the rest of the Jenkins' Ear rules, includes inlined (demo data left out)."""
    main = (ROOT / "rulesets" / "jenkins_ear.rules").read_text(encoding="utf-8")
    header_end = main.index("\n}\n") + 3
    rest = main[header_end:]
    for part in re.findall(r'^include "([^"]+)".*$', rest, re.M):
        rest += "\n" + (ROOT / "rulesets" / part).read_text(encoding="utf-8")
    rest = re.sub(r'^include .*$', "", rest, flags=re.M)
    return main[:header_end], rest


def generated(lines: int) -> str:
    header, body = _parts()
    names = sorted(set(_DECLARES.findall(body)), key=len, reverse=True)
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\b")
    # Names used as the values of enumerations, sides and map items stay as they are; a copy renames
    # only what its own declarations name, so every copy checks as the original does.
    copies, k = [header], 0
    while sum(c.count("\n") for c in copies) < lines:
        copies.append(pattern.sub(lambda m, k=k: f"{m.group(1)}_{k}", body) if k else body)
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
        load_rules(str(path), Sources())  # once untraced: imports, the parser's tables, caches
        kept, peak, errors, seconds = measure(path)
    print(f"{lines} lines ({errors} checker errors), loaded in {seconds:.1f} s with tracemalloc on")
    print(f"kept once loaded: {kept / lines:6.2f} KB per line ({kept / 1024:.0f} MB)")
    print(f"peak while loading: {peak / lines:6.2f} KB per line ({peak / 1024:.0f} MB)")


if __name__ == "__main__":
    main()
