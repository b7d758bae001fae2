"""Save -> load -> continue against the uninterrupted game (the target: 100 seeds a game).

Used by bench/bench.py's `save` row (100 seeds) and by tests/runtime/test_position_saves.py (a few).
"""

from __future__ import annotations


def round_trips(rules: str, seeds) -> tuple[int, int]:
    """(seeds whose loaded game went on as the uninterrupted one, seeds tried)."""
    import tomllib

    import tomli_w

    from interpreter import files
    from interpreter.load import header_file, load_rules, load_scenario
    from interpreter.runtime.games.play import play
    from interpreter.syntax.diagnostics import Sources

    sources = Sources()
    sym = load_rules(rules, sources, with_demo=True, with_errata=True).symbols
    setup = load_scenario(header_file(sym.game, sym.game.demo_setup, files.SCENARIO, "demo setup"), sources)
    equal = tried = 0
    for seed in seeds:
        kinds = ["random", "random"]
        whole = play(sym, sources, setup, seed, kinds)
        part = play(sym, sources, setup, seed, kinds, stop_after=1 + (seed * 7919) % 60)
        if part.save is None:
            continue  # the game ended before that decision
        data = tomllib.loads(tomli_w.dumps(part.save))
        resume = {**data["umpire_save"], "state": data["state"], "position": data["position"], "goes_on": data["goes_on"]}
        rest = play(sym, sources, setup, seed, kinds, resume=resume)
        head = 2  # the game's line and the set-up's
        tried += 1
        equal += part.lines[:-1] + rest.lines[head:] == whole.lines and rest.error == whole.error
    return equal, tried
