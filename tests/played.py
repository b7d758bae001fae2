"""Games played by the tests: the shared part of the tests that play a game or enumerate a
scenario's odds.

``play_cli(capsys, *args)`` runs `umpire play` and gives its output; ``load_for_odds(path)`` reads a
scenario and its ruleset as the odds functions take them (test_play.py, test_odds.py,
test_end_game.py). ``cli_output(*args)`` runs any command and gives its exit code and all it printed;
``toy_scenario(tmp_path, rules, places)`` writes a toy game whose scenario runs `main()` (the tests of
kept values and paths).

``HeaderGames.load(ROOT, RULES, demo=NAME)`` reads the ruleset with its demo data and errata, as
`umpire play` does, and every set-up its header names (`scenario NAME "FILE"`), with the demo set-up
under NAME; a set-up naming overlays of its own is played with them. ``games.run(name, seed, agents)``
plays one, keeping the game for the other tests of the module (a run with options — a save, a
resume — is played afresh each time); ``games.afresh`` never keeps it. Every game's whole-game tests
use it: test_full_games.py (Jenkins' Ear), test_gam_play.py, test_sog_play.py, test_wls_play.py,
test_yj_play.py.
"""

from __future__ import annotations

import contextlib
import io
import os
from pathlib import Path

from interpreter.cli import main
from interpreter.load import demo_path, load_rules, load_scenario, load_scenario_rules, rules_path_for
from interpreter.runtime.games.play import play
from interpreter.syntax.diagnostics import Sources, render


def play_cli(capsys, *args: str) -> str:
    """`umpire play ARGS`'s output; it must succeed without a traceback."""
    code = main(["play", *args])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert "Traceback" not in out.err and "internal error" not in out.err
    return out.out


def cli_output(*argv: str) -> tuple[int, str]:
    """`umpire ARGV`'s exit code and everything it printed, standard output and error as they came."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = main(list(argv))
    return code, out.getvalue()


def toy_scenario(tmp_path: Path, rules: str, places: str) -> Path:
    """A toy game in `tmp_path`: `g.rules` holding `rules`, and `g.scenario` on `places` that runs `main()`."""
    (tmp_path / "g.rules").write_text(rules, encoding="utf-8")
    path = tmp_path / "g.scenario"
    path.write_text('scenario "s" uses "g.rules" [1.0] {\n  places {\n    ' + places + '\n  }\n'
                    '  run main()\n}\n', encoding="utf-8")
    return path


def load_for_odds(path: str):
    """A scenario, its ruleset's symbols and the sources: the arguments of exact_odds and replay_odds."""
    sources = Sources()
    sc = load_scenario(path, sources)
    loaded = load_rules(rules_path_for(sc), sources)
    assert not loaded.errors
    return sc, loaded.symbols, sources


class HeaderGames:
    def __init__(self, symbols, setups: dict, sources: Sources, own_rules: dict):
        self.symbols, self.setups, self.sources = symbols, setups, sources
        self.own_rules = own_rules  # a set-up's name -> the ruleset with its overlays, for a set-up that has some
        self.played: dict = {}

    @classmethod
    @contextlib.contextmanager
    def load(cls, root: Path, rules: str, demo: str | None = None, errata: bool = True):
        """The games of ``rules`` (a path from ``root``), read from ``root`` as the working folder: the
        set-ups its header names, and its demo set-up under the name ``demo`` when one is given. A
        set-up with rules of its own (overlays it names) is played with them, as `umpire play` does;
        ``errata=False`` plays the rules as printed (`umpire play --no-errata`)."""
        cwd = os.getcwd()
        os.chdir(root)
        try:
            sources = Sources()
            loaded = load_rules(rules, sources, with_demo=True, with_errata=errata)
            assert not loaded.errors, [render(d, sources) for d in loaded.errors]
            game = loaded.symbols.game
            named = [(demo, game.demo_setup)] if demo else []
            named += [(c.name, c.file) for c in game.scenarios]
            setups = {name: load_scenario(demo_path(game.span.file, file), sources) for name, file in named}
            own_rules = {}
            for name, setup in setups.items():
                if setup.overlays:
                    with_overlays = load_scenario_rules(setup, sources, (), with_errata=errata, with_demo=True)
                    assert not with_overlays.errors, [render(d, sources) for d in with_overlays.errors]
                    own_rules[name] = with_overlays.symbols
            yield cls(loaded.symbols, setups, sources, own_rules)
        finally:
            os.chdir(cwd)

    def symbols_of(self, name: str):
        """The ruleset set-up ``name`` is played with."""
        return self.own_rules.get(name, self.symbols)

    def run(self, name: str, seed: int, agents: tuple[str, ...] = ("random", "random"), **kw):
        """The game of set-up ``name`` with this seed and these agents; it must end without a rule error."""
        key = (name, seed, agents)
        if kw or key not in self.played:
            game = play(self.symbols_of(name), self.sources, self.setups[name], seed, list(agents), **kw)
            assert game.error is None, (name, seed, render(game.error, self.sources))
            if kw:
                return game
            self.played[key] = game
        return self.played[key]

    def afresh(self, name: str, seed: int, agents: tuple[str, ...] = ("random", "random"), **kw):
        """The same game played again, never from the kept ones (to compare a replay)."""
        return play(self.symbols_of(name), self.sources, self.setups[name], seed, list(agents), **kw)

    def save_and_resume(self, name: str, seed: int, agents: tuple[str, ...], stop: int):
        """The game saved before decision ``stop`` + 1 and resumed: its lines, first part then the rest,
        as one game's lines (the suspension line and the resumed game's two heading lines left out)."""
        first = self.run(name, seed, agents, stop_after=stop)
        assert first.save is not None, "the game asks fewer decisions than that"
        save = first.save["umpire_save"]
        resumed = self.run(name, seed, agents, resume={**save, "state": first.save["state"]})
        return first.lines[:-1] + resumed.lines[2:]
