"""A table's rows found through its index (language 8.1, 8.6): the row every key finds is the first
row whose ranges hold it, the index stays as small as the printed keys, and an amended table is
read through its own index, never through the one of the table it replaces."""

from __future__ import annotations

import copy

from positions import loaded

from interpreter.runtime.common.requests import RuleError
from interpreter.runtime.execution.engine import Engine

CHARTS = "tests/lang/charts2_two_keys.scenario"
AMENDED = "tests/lang/charts2_long_battles.scenario"


def first_row(decl, keys):
    """The row a reader of the printed chart finds: the first whose every range holds its key."""
    return next((r for r in decl.rows if all(lo <= k <= hi for k, (lo, hi) in zip(keys, r.keys()))), None)


def test_every_key_finds_the_first_row_that_holds_it_and_the_index_stays_small():
    sym, sources, _ = loaded(CHARTS)
    engine = Engine(sym, sources)
    for name, places in (("battle_length", 1), ("storm_losses", 2)):
        table = engine.table(name)
        keys_read = [(k,) for k in range(-40, 41)] if places == 1 else [(a, b) for a in range(-40, 41) for b in range(-5, 9)]
        for keys in keys_read:
            expected = first_row(table.decl, keys)
            if expected is None:
                try:
                    table.row(keys[0], list(keys[1:]))
                except RuleError as e:
                    assert "has no row for" in e.message
                else:
                    raise AssertionError(f"{name} found a row for {keys}, which no row holds")
                continue
            assert table.row(keys[0], list(keys[1:])) is expected, (name, keys)
        # One entry for each printed key and one beyond each end, however far the keys read go.
        printed = [hi - lo + 3 for lo, hi in table.ends]
        assert 0 < len(table.found) <= (printed[0] if places == 1 else printed[0] * printed[1])


def test_an_amended_table_is_read_through_its_own_rows():
    sym, sources, _ = loaded(CHARTS)
    amended, _, _ = loaded(AMENDED)
    own = copy.copy(sym)
    own.tables = dict(sym.tables)
    engine = Engine(own, sources)
    assert engine.table("battle_length").value({"dice": 17, "skill": 0}) == 6  # the printed '16.. -> 6'
    own.tables["battle_length"] = amended.tables["battle_length"]  # the house rule's table in use
    assert engine.table("battle_length").value({"dice": 17, "skill": 0}) == 7  # its '16.. -> 7'
    assert engine.table("battle_length").value({"dice": 2, "skill": 0}) == 2  # '..4' removed: clamped to 5..8
