"""The stages import one way: each imports only the stages below it, as the layers contract of
pyproject.toml ([tool.importlinter]) lists them and docs/design.md ("Pipeline") states. An import
back up (the checker building the runtime's engine) fails here, and so does the runtime importing the
checker: it reads the checked program, the symbol table in ir/symbols.py. Inside the runtime, each room
(odds, games, position, execution, world, common) imports only the rooms below it."""

from __future__ import annotations

from pathlib import Path

from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parent.parent.parent


def test_each_stage_imports_only_the_stages_below_it(monkeypatch, capsys):
    monkeypatch.chdir(ROOT)  # the contract names the package as imported from the checkout
    monkeypatch.syspath_prepend(str(ROOT))
    code = lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True, no_logo=True)
    report = capsys.readouterr().out
    assert code == 0, report
    assert "Stages import only the stages below them KEPT" in report
    assert "The runtime does not import the checker KEPT" in report
    assert "The runtime's rooms import only the rooms below them KEPT" in report
