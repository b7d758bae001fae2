"""`umpire serve` end to end, in Debian's headless chromium driven by Playwright: a person opens a
scenario, steps its timeline, clicks a citation, reads an odds answer, sees a side's fog of war, and
plays a decision. The page is compared by its structure (elements, their texts, the SVG elements
of the map), never by its pixels.

Without /usr/bin/chromium (or Playwright) these tests skip, saying how to install it; with
UMPIRE_BROWSER_TESTS=required (.ci/run sets it, after installing the browser) a skip is a failure.
"""

from __future__ import annotations

import os
import socket
import tempfile
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
CHROMIUM = "/usr/bin/chromium"
# Headless, and nothing that reaches the network (which is closed where the tests run).
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
HOW_TO_INSTALL = ("the browser tests need Debian's chromium and Playwright for Python: "
                  "apt-get install -y chromium chromium-driver; pip install -e '.[test]'")
WAIT_MS = 60_000  # a page waits this long at most for the workbench's answer (a load, a run, the odds)


def _missing() -> str | None:
    if not os.path.exists(CHROMIUM):
        return f"{CHROMIUM} is missing"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed"
    return None


@pytest.fixture(scope="module")
def server():
    """The workbench on a free port of 127.0.0.1, run by uvicorn in a thread, in the repository's folder."""
    missing = _missing()
    if missing:
        if os.environ.get("UMPIRE_BROWSER_TESTS") == "required":
            pytest.fail(f"{missing}: {HOW_TO_INSTALL}")
        pytest.skip(f"{missing}: {HOW_TO_INSTALL}")
    import uvicorn

    from interpreter.serve.app import create_app

    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(ROOT)
        listening = socket.socket()
        listening.bind(("127.0.0.1", 0))
        uv = uvicorn.Server(uvicorn.Config(create_app(), log_level="warning"))
        thread = threading.Thread(target=uv.run, kwargs={"sockets": [listening]}, daemon=True)
        thread.start()
        while not uv.started and thread.is_alive():
            time.sleep(0.05)
        yield f"http://127.0.0.1:{listening.getsockname()[1]}"
        uv.should_exit = True
        thread.join()


@pytest.fixture(scope="module")
def browser(server):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver, tempfile.TemporaryDirectory() as profile:
        context = driver.chromium.launch_persistent_context(profile, executable_path=CHROMIUM, headless=True, args=FLAGS,
                                                            viewport={"width": 1600, "height": 1000})
        context.set_default_timeout(WAIT_MS)
        yield context
        context.close()


@pytest.fixture
def page(browser, server):
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    yield page
    page.close()
    assert errors == []  # no script error on the page


def _label(page) -> str:
    return page.inner_text("#moment-label")


def test_a_scenario_s_timeline_map_citations_and_odds(page, server):
    page.goto(f"{server}/?open=scenarios/jenkins_ear/eop_combat_step.scenario")
    page.wait_for_selector("#map svg polygon.place")
    assert page.inner_text("#title") == "Example of Play: the English Combat Resolution Step"
    assert _label(page) == "line 141 of 141" and page.locator("#narration li").count() > 50
    assert page.locator('#map svg g.place-mark[data-state="captured_by"]').count() == 1  # Leogane, captured

    page.click("#first")
    page.wait_for_function("document.querySelector('#moment-label').textContent.startsWith('the set-up')")
    # the label changes at once, the picture when the workbench has drawn it
    page.wait_for_function("(document.querySelector('#map svg text.moment') || {}).textContent === 'the set-up'")
    assert page.locator('#map svg g.place-mark[data-state="captured_by"]').count() == 0
    assert page.locator("#map svg g.stack").count() > 0 and page.locator("#map svg g.counter").count() > 10
    page.click("#next")
    page.wait_for_function("document.querySelector('#moment-label').textContent === 'line 1 of 141'")
    line = page.locator('#narration li[data-n="29"]')
    line.click()
    page.wait_for_function("document.querySelector('#moment-label').textContent === 'line 29 of 141'")
    assert "consulted" in line.inner_text() or "by rulesets/" in line.inner_text()  # explained as explain does
    page.wait_for_function("(document.querySelector('#map svg text.moment') || {}).textContent?.includes('after line 29:')")

    page.click('#narration li[data-n="29"] a.cite')
    page.wait_for_selector("#rule .place")
    assert page.inner_text("#rule h3.rule-heading").startswith("rule 9.1 Naval Combat: ")
    assert "rulesets/jenkins_ear.rules:" in page.inner_text("#rule .place h4")
    page.click("#close-rule")
    assert page.locator("#rule").is_hidden()

    page.goto(f"{server}/?open=scenarios/jenkins_ear/eop_land_3018.scenario")
    page.wait_for_selector("#map svg")
    page.click("#ask-odds")
    page.wait_for_function("document.querySelector('#odds-answer').textContent.includes('total probability')")
    answer = page.inner_text("#odds-answer")
    assert "3018 land counters lost by spanish:" in answer and "total probability: 1 (exactly)" in answer


def test_a_side_s_view_hides_what_its_rules_hide(page, server):
    page.goto(f"{server}/?open=scenarios/sea_of_glory_1805/ex_12_brest_northeast_sortie.scenario")
    page.wait_for_selector("#map svg")
    assert page.locator("#map svg g.counter.face-down").count() == 0
    page.select_option("#side", "british")
    page.wait_for_selector("#map svg g.counter.face-down")
    assert page.locator("#map svg g.counter.face-down").first.get_attribute("data-face")


def test_a_bad_file_shows_the_command_line_s_diagnostic(page, server):
    page.goto(f"{server}/?open=tests/bad/at_unknown_phase.scenario")
    page.wait_for_selector("#diagnostics:not([hidden])")
    shown = page.inner_text("#diagnostics pre")
    assert shown.startswith("tests/bad/at_unknown_phase.scenario:6:3: error: the sequence of play has no phase 'red_phse'")
    assert "^^^" in shown


def test_a_person_plays_a_decision_and_is_refused_an_illegal_one(page, server):
    page.goto(f"{server}/?open=rulesets/jenkins_ear.rules")
    page.wait_for_selector("#play-form:not([hidden])")
    page.select_option("#human", "english")
    page.click("#start")
    page.wait_for_selector("#options button.option")
    assert "english, decide 'buy'" in page.inner_text("#question")
    assert page.locator("#question a.cite").inner_text() == "[3.3]"
    first = page.locator("#options button.option").first
    assert first.inner_text().startswith("1. CORNWALL — HMS Cornwall") and "cost 7" in first.inner_text()
    first.click()
    page.wait_for_function("document.querySelector('#question').textContent.includes(\"decide 'site'\")")
    assert "place CORNWALL in a friendly seaport" in page.inner_text("#question")
    page.fill("#answer", "999")
    page.press("#answer", "Enter")
    page.wait_for_function("document.querySelector('#said').textContent.includes('not understood')")
    assert "not understood [3.5]: '999' is not an option number from 1 to 3" in page.inner_text("#said")
    assert "english buys CORNWALL for 7 war fund point(s)" in page.inner_text("#narration")
    assert page.locator("#map svg g.counter").count() > 0 and _label(page).startswith("english decides 'site'")
    # the odds of the position in front of the person: their decision answered with the option they pick
    assert page.inner_text("#ask-odds") == "Odds of the position in front of you"
    site = page.locator("#odds-choose option").nth(1).get_attribute("value")
    page.select_option("#odds-choose", site)
    page.select_option("#odds-until", "phase")
    page.click("#ask-odds")
    page.wait_for_function("document.querySelector('#odds-answer').textContent.includes('total probability')")
    answer = page.inner_text("#odds-answer")
    assert "from: the game's start (turn 1)" in answer and "decision: english decides 'site' [3.5]" in answer
    assert f"decisions: --decide english:site={site}" in answer and "total probability: 1 (exactly)" in answer
