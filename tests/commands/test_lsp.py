"""`umpire lsp` over the protocol, as an editor speaks it: a toy ruleset with a mistake gets the
checker's diagnostic at its range, the fix clears it, and definition, hover and completion answer."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.lsp_client import ROOT, Client

TOY = (ROOT / "tests" / "lang" / "returns.rules").read_text(encoding="utf-8")
MISTAKE = TOY.replace("call warn_if_short(needed)", "call warn_if_shrot(needed)")


def _uri(path: Path) -> str:
    return path.resolve().as_uri()


def _position(text: str, fragment: str, offset: int = 0) -> dict:
    before = text[: text.index(fragment) + offset]
    return {"line": before.count("\n"), "character": len(before) - (before.rfind("\n") + 1)}


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    """One server for the module's tests, started in a folder holding the toy files."""
    folder = tmp_path_factory.mktemp("lsp")
    client = Client(folder)
    answer = client.request("initialize", {"processId": None, "rootUri": folder.as_uri(), "capabilities": {}})
    client.notify("initialized", {})
    yield client, folder, answer
    assert client.close() == 0


def _open(client: Client, path: Path, text: str) -> list[dict]:
    client.notify("textDocument/didOpen", {"textDocument": {"uri": _uri(path), "languageId": "umpire", "version": 1,
                                                            "text": text}})
    return client.diagnostics(_uri(path))


def test_the_server_says_what_it_can_do(session):
    _, _, answer = session
    capabilities = answer["capabilities"]
    assert capabilities["definitionProvider"] and capabilities["hoverProvider"]
    assert "completionProvider" in capabilities
    assert answer["serverInfo"]["name"] == "umpire"


def test_a_mistake_is_reported_at_its_range_with_its_hint_and_the_fix_clears_it(session):
    client, folder, _ = session
    path = folder / "toy.rules"
    path.write_text(MISTAKE, encoding="utf-8")
    found = _open(client, path, MISTAKE)
    errors = [d for d in found if d["severity"] == 1]
    assert len(errors) == 1
    start = _position(MISTAKE, "warn_if_shrot(needed)")
    assert errors[0]["range"] == {"start": start, "end": {**start, "character": start["character"] + len("warn_if_shrot")}}
    assert errors[0]["message"] == "unknown procedure 'warn_if_shrot'\ndid you mean 'warn_if_short'?"
    assert errors[0]["source"] == "umpire"
    client.notify("textDocument/didChange", {"textDocument": {"uri": _uri(path), "version": 2},
                                             "contentChanges": [{"text": TOY}]})
    assert [d for d in client.diagnostics(_uri(path)) if d["severity"] == 1] == []


def test_the_unsaved_buffer_is_checked_not_the_file_on_disk(session):
    client, folder, _ = session
    path = folder / "unsaved.rules"
    path.write_text(TOY, encoding="utf-8")  # clean on disk; the buffer has the mistake
    found = _open(client, path, MISTAKE)
    assert [d["message"].splitlines()[0] for d in found if d["severity"] == 1] == ["unknown procedure 'warn_if_shrot'"]
    client.notify("textDocument/didClose", {"textDocument": {"uri": _uri(path)}})
    assert client.diagnostics(_uri(path)) == []  # closed unsaved: nothing is reported on the file any more


def test_a_syntax_error_is_reported_where_it_is(session):
    client, folder, _ = session
    path = folder / "broken.rules"
    text = TOY.replace("turns 1 [1.3]", "turns [1.3]")
    path.write_text(text, encoding="utf-8")
    (error,) = _open(client, path, text)
    assert error["severity"] == 1 and error["message"].startswith("unexpected")
    assert error["range"]["start"] == _position(text, "[1.3]")


def test_definition_hover_and_completion_answer_from_the_declarations(session):
    client, folder, _ = session
    path = folder / "names.rules"
    path.write_text(TOY, encoding="utf-8")
    _open(client, path, TOY)
    at = {"textDocument": {"uri": _uri(path)}, "position": _position(TOY, "call warn_if_short", len("call w"))}
    (location,) = client.request("textDocument/definition", at)
    declared = _position(TOY, "warn_if_short(n: int)")
    assert location["uri"] == _uri(path)
    assert location["range"]["start"] == declared
    hover = client.request("textDocument/hover", at)["contents"]["value"]
    assert "[3.2]" in hover and "procedure warn_if_short(n: int) [3.2] {" in hover
    inside = {"textDocument": {"uri": _uri(path)}, "position": _position(TOY, "  record \"dice needed\"")}
    labels = {item["label"] for item in client.request("textDocument/completion", inside)["items"]}
    assert {"warn_if_short", "tries_to_reach", "red", "d6"} <= labels
    assert {"let", "procedure", "eliminate"} <= labels


def test_an_included_part_is_checked_through_the_file_that_includes_it(session):
    client, folder, _ = session
    part, main = folder / "part.rules", folder / "whole.rules"
    procedures = TOY[TOY.index("# Roll one die"):]
    header = TOY[:TOY.index("# Roll one die")] + 'include "part.rules" [1.4]\n'
    part.write_text(procedures, encoding="utf-8")
    main.write_text(header, encoding="utf-8")
    _open(client, main, header)
    _open(client, part, procedures)
    broken = procedures.replace("call warn_if_short(needed)", "call warn_if_shrot(needed)")
    client.notify("textDocument/didChange", {"textDocument": {"uri": _uri(part), "version": 2},
                                             "contentChanges": [{"text": broken}]})
    found = client.diagnostics(_uri(part))
    assert [d["message"].splitlines()[0] for d in found if d["severity"] == 1] == ["unknown procedure 'warn_if_shrot'"]
    at = {"textDocument": {"uri": _uri(main)}, "position": _position(header, "d6", 1)}
    (location,) = client.request("textDocument/definition", at)
    assert location["uri"] == _uri(main)


def test_a_file_outside_the_roots_stays_refused_though_the_editor_has_it_open(session, tmp_path_factory):
    client, folder, _ = session
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    (elsewhere / "secret.rules").write_text(TOY, encoding="utf-8")
    _open(client, elsewhere / "secret.rules", TOY)
    path = folder / "reach.rules"
    text = TOY + f'include "{Path("..") / elsewhere.name / "secret.rules"}" [9.9]\n'
    path.write_text(text, encoding="utf-8")
    found = _open(client, path, text)
    assert any("leads outside the folders" in d["message"] for d in found)


def test_a_buffer_stands_in_for_a_file_s_text_only(tmp_path):
    """files.buffers: the file must still be there and pass every check; only its text is replaced."""
    from interpreter import files
    from interpreter.syntax.diagnostics import Sources, UmpireError

    there, absent = tmp_path / "there.rules", tmp_path / "absent.rules"
    there.write_text("on disk", encoding="utf-8")
    sources = Sources()
    with files.buffers({str(there): "in the editor", str(absent): "in the editor"}):
        assert files.read_checked(str(there), sources) == "in the editor"
        with pytest.raises(UmpireError, match="cannot read"):
            files.read_checked(str(absent))
    assert sources.text(str(there)) == "in the editor"
    assert files.read_checked(str(there)) == "on disk"


def test_a_scenario_and_its_ruleset_open_together(session):
    """A definition in a scenario leads into its ruleset; an edit of the ruleset checks the scenario
    that uses it again, and the ruleset itself (a whole ruleset, not a part)."""
    client, folder, _ = session
    rules_text = (ROOT / "tests" / "lang" / "toy.rules").read_text(encoding="utf-8")
    scenario_text = (ROOT / "tests" / "lang" / "battle.scenario").read_text(encoding="utf-8")
    (folder / "battle" / "parts").mkdir(parents=True)  # apart from the other tests' open toy.rules
    rules, scenario = folder / "battle" / "toy.rules", folder / "battle" / "battle.scenario"
    rules.write_text(rules_text, encoding="utf-8")
    scenario.write_text(scenario_text, encoding="utf-8")
    shutil.copy(ROOT / "tests" / "lang" / "parts" / "morale.rules", folder / "battle" / "parts")  # toy.rules includes it
    assert [d for d in _open(client, scenario, scenario_text) if d["severity"] == 1] == []
    _open(client, rules, rules_text)
    at = {"textDocument": {"uri": _uri(scenario)}, "position": _position(scenario_text, "infantry of red", 2)}
    (location,) = client.request("textDocument/definition", at)
    assert location["uri"] == _uri(rules) and location["range"]["start"] == _position(rules_text, "infantry \"Infantry\"")
    renamed = rules_text.replace('type infantry "Infantry"', 'type foot "Infantry"')
    client.notify("textDocument/didChange", {"textDocument": {"uri": _uri(rules), "version": 2},
                                             "contentChanges": [{"text": renamed}]})
    found = set()
    for _ in range(2):  # the scenario's diagnostics and the ruleset's, in either order
        message = client.diagnostics_any({_uri(scenario), _uri(rules)})
        found.add(message["uri"])
        if message["uri"] == _uri(scenario):
            assert any("infantry" in d["message"] for d in message["diagnostics"] if d["severity"] == 1)
    assert found == {_uri(scenario), _uri(rules)}


def test_lsp_help_needs_no_pygls():
    """The command line reads its arguments before it imports a command's code (docs/performance.md)."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "interpreter", "lsp", "--help"], cwd=ROOT,
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0 and "usage: umpire lsp" in done.stdout and "--allow-path" in done.stdout
    assert "pygls" not in done.stderr and "lsprotocol" not in done.stderr


def test_a_buffer_that_is_no_file_still_completes_keywords(session):
    client, _, _ = session
    uri = "untitled:Untitled-1"
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "umpire", "version": 1,
                                                            "text": "procedure p() [1.0] { }\n"}})
    items = client.request("textDocument/completion", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}})
    assert {"procedure", "let"} <= {item["label"] for item in items["items"]}


def _change(client: Client, path: Path, text: str, version: int) -> list[dict]:
    client.notify("textDocument/didChange", {"textDocument": {"uri": _uri(path), "version": version},
                                             "contentChanges": [{"text": text}]})
    return client.diagnostics(_uri(path))


def test_a_syntax_error_keeps_definition_and_hover_from_the_last_text_that_parsed(session):
    client, folder, _ = session
    path = folder / "recovering.rules"
    path.write_text(TOY, encoding="utf-8")
    _open(client, path, TOY)
    # A line added above and an unfinished statement below: the file no longer parses.
    broken = "# a note added above\n" + TOY.replace("call warn_if_short(needed)", "call warn_if_short(needed)\n  let x =")
    (error,) = [d for d in _change(client, path, broken, 2) if d["severity"] == 1]
    assert error["message"].startswith("unexpected")
    at = {"textDocument": {"uri": _uri(path)}, "position": _position(broken, "call warn_if_short", len("call w"))}
    (location,) = client.request("textDocument/definition", at)
    assert location["range"]["start"] == _position(broken, "warn_if_short(n: int)"), "on the line where it now is"
    hover = client.request("textDocument/hover", at)["contents"]["value"]
    assert "procedure warn_if_short(n: int) [3.2] {" in hover and "recovering.rules:" in hover


def test_a_scenario_with_a_syntax_error_still_leads_into_its_ruleset(session):
    client, folder, _ = session
    rules_text = (ROOT / "tests" / "lang" / "toy.rules").read_text(encoding="utf-8")
    scenario_text = (ROOT / "tests" / "lang" / "battle.scenario").read_text(encoding="utf-8")
    (folder / "broken_battle" / "parts").mkdir(parents=True)
    rules, scenario = folder / "broken_battle" / "toy.rules", folder / "broken_battle" / "battle.scenario"
    rules.write_text(rules_text, encoding="utf-8")
    scenario.write_text(scenario_text, encoding="utf-8")
    shutil.copy(ROOT / "tests" / "lang" / "parts" / "morale.rules", folder / "broken_battle" / "parts")
    _open(client, scenario, scenario_text)
    broken = scenario_text + "\n  units {\n"
    assert any(d["severity"] == 1 for d in _change(client, scenario, broken, 2))
    at = {"textDocument": {"uri": _uri(scenario)}, "position": _position(broken, "infantry of red", 2)}
    (location,) = client.request("textDocument/definition", at)
    assert location["uri"] == _uri(rules) and location["range"]["start"] == _position(rules_text, "infantry \"Infantry\"")
    assert "**type** `infantry`" in client.request("textDocument/hover", at)["contents"]["value"]


FOG = (ROOT / "tests" / "lang" / "fog.rules").read_text(encoding="utf-8")
UNIT_MEMBERS = {"revealed", "id", "side", "type", "location", "carrier", "cargo", "on_map"}
PLACE_MEMBERS = {"kind", "supplied", "id"}


def _completed(client: Client, path: Path, text: str, fragment: str) -> list[str]:
    at = {"textDocument": {"uri": _uri(path)}, "position": _position(text, fragment, len(fragment))}
    return [item["label"] for item in client.request("textDocument/completion", at)["items"]]


def test_completion_after_a_dot_offers_what_the_name_has(session):
    client, folder, _ = session
    path = folder / "dots.rules"
    path.write_text(FOG, encoding="utf-8")
    _open(client, path, FOG)
    # Typed into procedure sail(u: unit, to: place) and night's loop over Blue's units: the file
    # does not parse while they are being typed.
    typed = FOG.replace("  move u to to [6.1]\n", "  let a = u.\n  let b = to.\n  let c = u.location.\n  let d = kind.\n")
    typed = typed.replace("    move u to port [4.2]\n", "    let e = u.\n")
    _change(client, path, typed, 2)
    assert set(_completed(client, path, typed, "let a = u.")) == UNIT_MEMBERS
    assert set(_completed(client, path, typed, "let b = to.")) == PLACE_MEMBERS
    assert set(_completed(client, path, typed, "let c = u.location.")) == PLACE_MEMBERS
    assert _completed(client, path, typed, "let d = kind.") == ["open_sea", "harbour"]
    assert set(_completed(client, path, typed, "let e = u.")) == UNIT_MEMBERS, "a loop over [u for u in all_units() …]"
    # Anywhere else, every name and the keywords as before.
    assert {"sail", "night", "let", "procedure"} <= set(_completed(client, path, typed, "  let a = "))


def test_completion_after_a_dot_in_a_scenario(session):
    client, folder, _ = session
    (folder / "dots_scenario").mkdir()
    rules, scenario = folder / "dots_scenario" / "fog.rules", folder / "dots_scenario" / "sighting.scenario"
    text = (ROOT / "tests" / "lang" / "fog_sighting.scenario").read_text(encoding="utf-8")
    rules.write_text(FOG, encoding="utf-8")
    scenario.write_text(text, encoding="utf-8")
    _open(client, scenario, text)
    typed = text.replace('    cargo == "gold"\n', '    BLUE1.\n    @reach.\n')
    _change(client, scenario, typed, 2)
    assert set(_completed(client, scenario, typed, "    BLUE1.")) == UNIT_MEMBERS
    assert set(_completed(client, scenario, typed, "    @reach.")) == PLACE_MEMBERS


def _started(folder: Path) -> Client:
    client = Client(folder)
    client.request("initialize", {"processId": None, "rootUri": folder.as_uri(), "capabilities": {}})
    client.notify("initialized", {})
    return client


def test_a_message_that_cannot_be_read_is_answered_and_the_next_one_is_served(tmp_path):
    """The base protocol: a message is framed by its Content-Length header. One without a usable
    length (no such header, or no number in it), or whose body is not JSON, is answered with a
    Parse error (its id unknown: null) and discarded alone; the next request is answered."""
    client = _started(tmp_path)
    keywords = {"textDocument": {"uri": "untitled:Untitled-1"}, "position": {"line": 0, "character": 0}}
    client.notify("textDocument/didOpen", {"textDocument": {"uri": "untitled:Untitled-1", "languageId": "umpire",
                                                            "version": 1, "text": "\n"}})
    lost = json.dumps({"jsonrpc": "2.0", "id": 99, "method": "shutdown"}).encode()
    for bad in (b"Content-Type: application/vscode-jsonrpc\r\n\r\n" + lost,
                b"Content-Length: many\r\n\r\n" + lost,
                b"Content-Length: 99999999999999\r\n\r\n" + lost,  # not allocated: MAX_MESSAGE_BYTES
                b"Content-Length: 3\r\n\r\n{x}"):
        client.write(bad)
        error = client.response(None)["error"]
        assert error["code"] == -32700 and error["message"].startswith("Parse error")
        assert "procedure" in {item["label"] for item in client.request("textDocument/completion", keywords)["items"]}
    assert client.close() == 0  # the 'shutdown' inside the discarded messages was not obeyed: this one is


def test_a_request_with_params_of_the_wrong_types_is_answered_invalid_params(session):
    client, folder, _ = session
    client.notify("textDocument/didOpen", {"textDocument": {"uri": "untitled:Untitled-2", "languageId": "umpire",
                                                            "version": 1, "text": "\n"}})
    answer = client.answer("textDocument/hover", {"textDocument": {"uri": _uri(folder / "toy.rules")}, "position": "x"})
    assert answer["id"] == client.next_id
    assert answer["error"]["code"] == -32602
    assert "textDocument/hover" in answer["error"]["message"] and "$.params.position" in answer["error"]["message"]
    client.notify("textDocument/didChange", {"textDocument": {"uri": 7}, "contentChanges": "x"})  # no answer: logged
    items = client.request("textDocument/completion", {"textDocument": {"uri": "untitled:Untitled-2"},
                                                       "position": {"line": 0, "character": 0}})
    assert "procedure" in {item["label"] for item in items["items"]}
    logged = [n["params"]["message"] for n in client.notes if n["method"] == "window/logMessage"]
    assert any("textDocument/didChange" in m and "invalid" in m for m in logged)


def test_a_document_over_the_editor_limit_gets_one_diagnostic_and_is_not_parsed(session):
    from interpreter.limits import MAX_EDITOR_BYTES

    client, folder, _ = session
    path = folder / "huge.rules"
    text = TOY + "# a comment line, many times over\n" * (MAX_EDITOR_BYTES // 34)
    path.write_text(TOY, encoding="utf-8")
    (only,) = _open(client, path, text)
    assert only["severity"] == 1 and only["range"]["start"] == {"line": 0, "character": 0}
    assert only["message"].startswith(f"'{path}' is too large to check in the editor ({len(text.encode()):,} bytes; "
                                      f"the limit is {MAX_EDITOR_BYTES:,})")
    at = {"textDocument": {"uri": _uri(path)}, "position": {"line": 0, "character": 0}}
    assert client.request("textDocument/completion", at)["items"] == []
    assert [d for d in _change(client, path, TOY, 2) if d["severity"] == 1] == []  # cut down again: checked


def test_a_document_never_opened_is_not_read_from_disk(session):
    """Hover and completion on a URI the editor never opened answer nothing, without an error and
    without reading the file it names (which may lie anywhere and be anything)."""
    client, folder, _ = session
    secret = folder / "secret.txt"
    secret.write_text("warn_if_short\n", encoding="utf-8")
    at = {"textDocument": {"uri": _uri(secret)}, "position": {"line": 0, "character": 2}}
    assert client.request("textDocument/hover", at) is None
    assert client.request("textDocument/definition", at) == []
    assert client.request("textDocument/completion", at)["items"] == []
