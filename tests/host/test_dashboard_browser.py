"""The arbiter's dashboard in a real headless Chromium, against an event on simulated boards.

Chain under test: simulated devices (real firmware, fake hardware) -> TCP serial
lines -> the event's bridges (flagfall.event.runner) -> the event API
(flagfall.event.web) -> the dashboard's JavaScript -> the DOM, and back: the
arbiter's clicks and typing -> the API -> the bridges and the devices.

The round is the demo's round 1 (the bundled pairings, boards 5 and 6
international draughts); boards 1, 2 and 5 have a simulated device, the
others wait for one. Screenshots of every state, at 1,400 and 400 px wide, are
saved under the test's tmp folder (the path is printed).
"""
import os
import threading
import time
from importlib import resources

import pytest

from flagfall.tournament import pairings
from processes import ServedEvent, wait_until

pytestmark = pytest.mark.serial     # a real browser on pushed updates: beside another worker its clicks race the load

TOKEN = "dashboard-test-token"
DEMO_GAMES = {5: "draughts", 6: "draughts"}
WIDE, PHONE = 1400, 400


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    d = tmp_path_factory.mktemp("dashboard-screenshots")
    print("dashboard screenshots in %s" % d)
    return d


@pytest.fixture(scope="module")
def desk(tmp_path_factory, browser):
    """The demo's round 1 (boards 5 and 6 international draughts) served with its dashboard: boards 1, 2
    and 5 on simulated devices, the others waiting for one; and the browser looking at it."""
    tmp = tmp_path_factory.mktemp("dashboard")
    path = str(resources.files("flagfall.demo_games").joinpath("demo-round.pgn"))
    ev = ServedEvent(pairings.read_pairings(path, 1), str(tmp / "out"), simulated=(1, 2, 5), seed=3, token=TOKEN,
                     public=True, open_all=True, tournament="dash", tc="5400+30", penalties="confirm",
                     pairings_path=path, games=DEMO_GAMES)
    driver = browser()
    driver.set_window_size(WIDE, 1000)
    try:
        yield ev, driver
    finally:
        driver.quit()
        ev.close()


DOCS_SHOTS = {"02-typing-a-move": ("dashboard.png", 1100, 640),
              "08-incident-illegal-move": ("dashboard-incident.png", 900, 820),
              "11-phone": ("dashboard-phone.png", PHONE, 760)}
"""The states tools/docs_screenshots.py saves for docs/event.md (name, width, height)."""


def shoot(driver, shots, name):
    """Screenshots of the page as it is, 1,400 and 400 px wide (the width is put back); with
    FLAGFALL_DOCS_SHOTS=DIR (tools/docs_screenshots.py) the states docs/event.md shows go there too."""
    docs = os.environ.get("FLAGFALL_DOCS_SHOTS")
    if docs and name in DOCS_SHOTS:
        file, w, h = DOCS_SHOTS[name]
        driver.set_window_size(w, h)
        time.sleep(0.4)
        driver.save_screenshot(os.path.join(docs, file))
    for w in (WIDE, PHONE):
        driver.set_window_size(w, 1000 if w == WIDE else 860)
        time.sleep(0.3)
        path = str(shots / ("%s-%d.png" % (name, w)))
        driver.save_screenshot(path)
        assert os.path.getsize(path) > 1000
    driver.set_window_size(WIDE, 1000)
    time.sleep(0.2)


def css(driver, sel):
    from selenium.webdriver.common.by import By
    return driver.find_element(By.CSS_SELECTOR, sel)


def row(driver, n, sel=""):
    return css(driver, 'tr[data-board="%d"] %s' % (n, sel))


def note(driver):
    """(class, text) of the dashboard's feedback line."""
    n = css(driver, "#note")
    return n.get_attribute("class"), n.text


def wait_note(driver, want_cls, part, timeout=10):
    ok = wait_until(lambda: note(driver)[0] == want_cls and part in note(driver)[1], timeout, 0.05)
    assert ok, note(driver)


def login(driver, url):
    driver.get(url + "/arbiter")
    css(driver, "#token").send_keys(TOKEN)
    css(driver, "#who").send_keys("Chief Arbiter \u0141ukasz")
    css(driver, "#enter").click()
    assert wait_until(lambda: driver.execute_script(
        "return window.flagfallArbiter.refreshes") > 0 and css(driver, "#desk").is_displayed(), 10)


def refreshes(driver):
    return driver.execute_script("return window.flagfallArbiter.refreshes")


def play(ev, n, *moves):
    for m in moves:
        ev.tables[n].sim.play(m, think_ms=300, noise=0.0)
    ev.wait_board(n, lambda b: b["plies"] >= len(ev.tables[n].sim.moves_played) and not b["alert"])


def test_the_token_is_kept_and_the_rows_link_to_the_boards(desk, shots):
    ev, driver = desk
    login(driver, ev.url)
    assert wait_until(lambda: len(driver.find_elements("css selector", "#boards tbody tr")) == 6, 10)
    # "not started" until a clock runs; the other boards wait for a device
    assert wait_until(lambda: row(driver, 1, ".c-status").text == "not started", 15), row(driver, 1, ".c-status").text
    assert row(driver, 3, ".c-status").text == "waiting"
    assert row(driver, 1, ".c-board a").get_attribute("href").endswith("/board/dash/1/1")
    # the token lives in localStorage: a reload goes straight to the desk
    driver.refresh()
    assert wait_until(lambda: css(driver, "#desk").is_displayed() and refreshes(driver) > 0, 10)
    assert TOKEN not in driver.current_url
    shoot(driver, shots, "01-not-started")


def test_typing_a_move_while_updates_arrive_then_confirming_it(desk, shots):
    ev, driver = desk
    for n in (1, 2, 5):
        ev.tables[n].sim.press("start")
    ev.wait_board(1, lambda b: b["status"] == "playing")
    play(ev, 1, "e4", "d5")
    # White takes on d5 without lifting the pawn there: the sensors never see the capture
    sim = ev.tables[1].sim
    sim.lift("e4")
    sim.wait(300)
    sim.press("white")
    ev.wait_board(1, lambda b: b["status"] == "alert" and "fix_move" in b["actions"])
    box = row(driver, 1, "input.move")
    assert wait_until(box.is_displayed, 5)
    # draughts moves on board 5 keep the dashboard busy while the arbiter types at a human pace
    mover = threading.Thread(target=play, args=(ev, 5, "32-28", "19-23", "28x19", "14x23"), daemon=True)
    mover.start()
    from selenium.webdriver.support.ui import Select
    pick = Select(row(driver, 2, "select.result"))
    pick.select_by_value("1/2-1/2")                   # chosen, not yet set: it must stay chosen
    before = refreshes(driver)
    box.click()
    for ch in "exd5":
        box.send_keys(ch)
        time.sleep(0.6)
    assert refreshes(driver) >= before + 2           # the table was updated while the arbiter typed
    same = row(driver, 1, "input.move")
    assert same == box and same.get_attribute("value") == "exd5"
    assert driver.switch_to.active_element == box    # the focus stayed in the box
    assert row(driver, 2, "select.result") == pick._el and pick.first_selected_option.get_attribute("value") == "1/2-1/2"
    shoot(driver, shots, "02-typing-a-move")
    row(driver, 1, ".movebox button").click()
    wait_note(driver, "ok", "Board 1: fix move")
    ev.wait_board(1, lambda b: b["plies"] == 3 and b["status"] == "playing" and b["moves"] == 2)
    assert wait_until(lambda: row(driver, 1, ".c-moves").text == "2", 5)    # moves, not plies
    mover.join(30)
    sim.adapter.push(sim.adapter.parse("exd5"))       # the simulated hand's own record follows the game


def test_the_dashboard_clock_reads_as_the_public_page(desk, shots):
    ev, driver = desk
    from flagcore import display
    ev.wait_board(5, lambda b: b["clock"] and b["clock"]["running"] == "white")

    def same():
        clock = ev.board(5)["clock"]
        shown = [s.text for s in driver.find_elements("css selector", 'tr[data-board="5"] .c-clocks span')]
        # Black's clock stands: the face the public page (and the device) shows for its time
        return shown[1] == display.format_ms(clock["black_ms"]) == clock["black_display"]
    assert wait_until(same, 5)


def choose_result(driver, n, value):
    from selenium.webdriver.support.ui import Select
    Select(row(driver, n, "select.result")).select_by_value(value)
    row(driver, n, ".resultbox button").click()
    assert wait_until(lambda: css(driver, "#confirm").get_attribute("open") is not None, 5)
    return css(driver, "#confirm-text").text


def test_an_illegal_result_is_refused_by_the_page_and_by_the_server(desk, shots):
    ev, driver = desk
    from selenium.webdriver.support.ui import Select
    options = [o.get_attribute("value") for o in Select(row(driver, 5, "select.result")).options]
    assert options == ["", "2-0", "1-1", "0-2", "+/-", "-/+", "-/-"]       # FMJD results and forfeits only
    # a chess result sent to a draughts board anyway: 422, and nothing reaches the record
    status = driver.execute_async_script("""
        var done = arguments[arguments.length - 1];
        fetch('/api/event/board/5', {method: 'POST', headers: {'Authorization': 'Bearer ' + arguments[0],
              'Content-Type': 'application/json'}, body: JSON.stringify({action: 'result', result: '1/2-1/2'})})
          .then(function (r) { return r.json().then(function (j) { done([r.status, j.error]); }); });""", TOKEN)
    assert status[0] == 422 and "not a result of international draughts" in status[1], status
    assert ev.board(5)["result"] == "*"
    assert '"1/2-1/2"' not in open(ev.event.board(5).record_path).read()
    hist = ev.board(5)["history"]
    assert hist[-1]["ok"] is False and hist[-1]["what"] == "result 1/2-1/2"
    # the draughts board's panel: its own pieces, its own results, the refusal in its history
    [e for e in driver.find_elements("css selector", 'tr[data-board="5"] button.open')][0].click()
    assert wait_until(lambda: css(driver, "#panel").get_attribute("open") is not None, 5)
    assert wait_until(lambda: len(driver.find_elements("css selector", "#panel-legal svg.disc")) == 38, 5)
    assert [o.get_attribute("value") for o in Select(css(driver, "#p-result")).options][1:4] == ["2-0", "1-1", "0-2"]
    assert wait_until(lambda: "refused: 1/2-1/2 is not a result" in css(driver, "#panel-history").text, 5)
    shoot(driver, shots, "02b-draughts-panel")
    css(driver, "#panel-close").click()


def test_a_result_confirmed_then_undone(desk, shots):
    ev, driver = desk
    text = choose_result(driver, 5, "1-1")
    b = ev.board(5)
    assert text.startswith("Board 5: %s - %s. Set the result 1-1" % (b["white"], b["black"])), text
    shoot(driver, shots, "03-confirm-result")
    css(driver, "#confirm-buttons button.primary").click()
    wait_note(driver, "ok", "Board 5: result")
    ev.wait_board(5, lambda b: b["result"] == "1-1" and b["status"] == "finished")
    assert '[Result "1-1"]' in open(ev.event.board(5).record_path).read()
    assert wait_until(lambda: row(driver, 5, ".c-result").text == "1-1", 5)
    shoot(driver, shots, "04-result-set")
    # set by mistake: undone, journaled both ways
    undo = [e for e in driver.find_elements("css selector", 'tr[data-board="5"] td.c-actions button')
            if e.text == "Undo result"][0]
    assert wait_until(undo.is_displayed, 5)
    undo.click()
    assert wait_until(lambda: "Withdraw the result 1-1" in css(driver, "#confirm-text").text, 5)
    css(driver, "#confirm-buttons button.primary").click()
    wait_note(driver, "ok", "undo result")
    ev.wait_board(5, lambda b: b["result"] == "*" and b["status"] != "finished")
    journal = open(ev.event.board(5).journal_path).read()
    assert '"action":"result"' in journal and '"action":"undo_result"' in journal
    assert '"result":"*"' in journal           # the withdrawal is a decision of its own


def test_a_forfeit(desk, shots):
    ev, driver = desk
    text = choose_result(driver, 4, "-/+")
    assert "Black wins by forfeit" in text and ev.board(4)["black"] in text
    css(driver, "#confirm-buttons button.primary").click()
    wait_note(driver, "ok", "forfeit -/+")
    ev.wait_board(4, lambda b: b["result"] == "-/+" and b["status"] == "finished")
    assert ev.event.results()[4] == "-/+"
    assert wait_until(lambda: row(driver, 4, ".c-result").text == "-/+", 5)
    shoot(driver, shots, "05-forfeit")


def test_load_next_round_is_refused_mid_round(desk, shots):
    ev, driver = desk
    css(driver, "#next").click()
    assert wait_until(lambda: css(driver, "#confirm").get_attribute("open") is not None, 10)
    items = [li.text for li in driver.find_elements("css selector", "#confirm-list li")]
    assert any(i.startswith("board 1: ") for i in items) and not any(i.startswith("board 4: ") for i in items), items
    assert note(driver)[0] == "err" and "not finished" in note(driver)[1]
    shoot(driver, shots, "06-next-round-refused")
    [b for b in driver.find_elements("css selector", "#confirm-buttons button") if b.text == "Cancel"][0].click()
    time.sleep(1.2)
    assert ev.event.round.round == 1 and ev.board(1)["result"] == "*"


def test_an_action_on_an_unplugged_board_is_refused(desk, shots):
    ev, driver = desk
    ev.tables[2].endpoint.close()            # the cable is out, and stays out
    ev.wait_board(2, lambda b: b["status"] == "unplugged")
    assert any("device unplugged" in i["text"] for i in ev.event.incidents if i["board"] == 2)
    assert wait_until(lambda: row(driver, 2, ".c-status").text == "unplugged", 5)
    assert not [e for e in driver.find_elements("css selector", 'tr[data-board="2"] td.c-actions button')
                if e.text.startswith("+1 min") and e.is_displayed()]
    # the API refuses it too (a stale page, a script): 409 with the reason, nothing answered ok and lost
    reply = driver.execute_async_script("""
        var done = arguments[arguments.length - 1];
        fetch('/api/event/board/2', {method: 'POST', headers: {'Authorization': 'Bearer ' + arguments[0],
              'Content-Type': 'application/json'}, body: JSON.stringify({action: 'clock', side: 'white', delta_ms: 60000})})
          .then(function (r) { return r.json().then(function (j) { done([r.status, j.error]); }); });""", TOKEN)
    assert reply[0] == 409 and "unplugged" in reply[1], reply
    # from the board's panel: the refusal is shown, styled as a failure
    [e for e in driver.find_elements("css selector", 'tr[data-board="2"] button.open')][0].click()
    assert wait_until(lambda: css(driver, "#panel").get_attribute("open") is not None, 5)
    # a stale panel offers it: shown and clicked in one step (the panel is redrawn with each update the
    # stream pushes, and hides it again: shown, then clicked by WebDriver, raced that redraw under load)
    driver.execute_script("var b = document.getElementById('p-pause'); b.hidden = false; b.click();")
    assert wait_until(lambda: css(driver, "#panel-note").get_attribute("class") == "err"
                      and "unplugged" in css(driver, "#panel-note").text, 5)
    hist = ev.board(2)["history"]
    assert hist[-1]["ok"] is False and hist[-1]["who"] == "Chief Arbiter \u0141ukasz"
    shoot(driver, shots, "07-unplugged-refused")
    css(driver, "#panel-close").click()


def test_the_incident_panel_resolves_an_illegal_move(desk, shots):
    ev, driver = desk
    sim = ev.tables[1].sim
    play(ev, 1, "e5")                     # 1. e4 d5 2. exd5 e5
    # White's bishop goes f1 -> f3 (no bishop move) and White presses the clock
    sim.lift("f1")
    sim.wait(200)
    sim.place("f3")
    sim.wait(300)
    sim.press("white")
    ev.wait_board(1, lambda b: b["status"] == "alert" and b["penalty_side"] == "white", 15)
    [e for e in driver.find_elements("css selector", 'tr[data-board="1"] button.open')][0].click()
    assert wait_until(lambda: css(driver, "#panel").get_attribute("open") is not None, 5)
    assert wait_until(lambda: "illegal move by White" in css(driver, "#panel-alert").text, 5)
    # both boards drawn, the squares that differ marked on each
    assert wait_until(lambda: len(driver.find_elements("css selector", "#panel-legal .sq.miss")) == 1, 5)
    assert css(driver, "#panel-legal .sq.miss").get_attribute("data-sq") == "7,5"            # f1
    assert css(driver, "#panel-sensors .sq.extra").get_attribute("data-sq") == "5,5"         # f3
    assert css(driver, '#panel-legal .sq[data-sq="7,5"] svg') is not None                   # the bishop, legal
    assert not driver.find_elements("css selector", '#panel-sensors .sq[data-sq="7,5"] svg')  # not on the sensors
    assert "put back a piece on f1" in css(driver, "#panel-fix").text and "clear f3" in css(driver, "#panel-fix").text
    shoot(driver, shots, "08-incident-illegal-move")
    # the penalty names the side and what it costs, and asks first: cancelled, nothing is applied
    assert css(driver, "#p-penalty").text == "Apply penalty: White: 2 minutes to Black"
    css(driver, "#p-penalty").click()
    assert wait_until(lambda: css(driver, "#confirm").get_attribute("open") is not None, 5)
    assert "Apply the penalty for White's illegal move?" in css(driver, "#confirm-text").text
    assert "White: 2 minutes to Black (fide-2023)" in css(driver, "#confirm-list").text
    shoot(driver, shots, "08b-penalty-confirmation")
    [b for b in driver.find_elements("css selector", "#confirm-buttons button") if b.text == "Cancel"][0].click()
    time.sleep(0.5)
    assert ev.event.board(1).engine.game.illegal == [0, 0] and ev.board(1)["penalty_side"] == "white"
    # confirmed: the penalty, with the clock paused until the arbiter resumes it
    css(driver, "#p-penalty").click()
    assert wait_until(lambda: css(driver, "#confirm").get_attribute("open") is not None, 5)
    [b for b in driver.find_elements("css selector", "#confirm-buttons button") if b.text == "Apply penalty"][0].click()
    assert wait_until(lambda: css(driver, "#panel-note").get_attribute("class") == "ok"
                      and "penalty" in css(driver, "#panel-note").text, 10), css(driver, "#panel-note").text
    ev.wait_board(1, lambda b: b["clock"] and b["clock"]["running"] is None and not b["alert"]
                  and "reinstate the position" in (b["fix"] or ""))
    # White pressed: the clock has Black on move, White is to move (the penalty's alert is over: no penalty)
    assert wait_until(lambda: css(driver, "#panel-clock-state").text == "paused, but White is to move", 5)
    assert not css(driver, "#p-penalty").is_displayed()
    shoot(driver, shots, "09-penalty-clock-paused")
    # the position reinstated on the board, the clock resumed: the game goes on
    sim.lift("f3")
    sim.wait(200)
    sim.place("f1")
    ev.wait_board(1, lambda b: b["fix"] == "the clock is paused: resume it when play goes on"
                  and not b["view"]["missing"] and not b["view"]["extra"])
    # "Resume clock" starts White's: the clock is handed to White; this board's clock has a lever, so
    # it stays paused until the arbiter puts the lever down on Black's side and resumes it
    assert css(driver, "#p-resume").text == "Resume clock (White)"
    css(driver, "#p-resume").click()
    assert wait_until(lambda: "put the lever down on Black's side" in css(driver, "#panel-note").text, 10), \
        css(driver, "#panel-note").text
    ev.wait_board(1, lambda b: b["clock_to"] is None and b["clock"]["running"] is None)
    sim.press("black")
    assert wait_until(lambda: css(driver, "#p-resume").text == "Resume clock", 5)
    css(driver, "#p-resume").click()
    ev.wait_board(1, lambda b: b["clock"]["running"] == "white" and b["status"] == "playing")
    assert wait_until(lambda: css(driver, "#panel-clock-state").text == "White's clock running", 5)
    hist = [h["what"] for h in ev.board(1)["history"]]
    assert hist[-4:] == ["pause", "penalty white", "resume", "resume"], hist
    assert '"k":"arbiter"' in open(ev.event.board(1).journal_path).read()
    shoot(driver, shots, "10-incident-resolved")
    css(driver, "#panel-close").click()


def test_missed_moves_entered_from_the_panel(desk, shots):
    """Moves made on the board that the bridge never saw ended (nobody pressed): the arbiter types
    them in the panel; a line that does not lead to what the board shows is refused with the square,
    and kept for another try; the right one is committed and marked as entered by the arbiter."""
    ev, driver = desk
    sim = ev.tables[1].sim
    plies = ev.board(1)["plies"]                  # 1. e4 d5 2. exd5 e5, White to move
    for sq, down in (("g1", False), ("f3", True), ("b8", False), ("c6", True)):
        sim.wait(200)
        (sim.place if down else sim.lift)(sq)
    sim.wait(2500)                                # settled: nothing pressed, nothing committed
    assert ev.board(1)["plies"] == plies
    [e for e in driver.find_elements("css selector", 'tr[data-board="1"] button.open')][0].click()
    assert wait_until(lambda: css(driver, "#panel").get_attribute("open") is not None, 5)
    css(driver, "#p-missed").send_keys("3. Nf3 Nc6 4. Bb5")
    css(driver, "#p-missed-go").click()
    assert wait_until(lambda: css(driver, "#panel-note").get_attribute("class") == "err"
                      and "b5" in css(driver, "#panel-note").text, 10), css(driver, "#panel-note").text
    assert css(driver, "#p-missed").get_attribute("value") == "3. Nf3 Nc6 4. Bb5"     # kept for another try
    assert ev.board(1)["plies"] == plies
    shoot(driver, shots, "11a-missed-moves-refused")
    css(driver, "#p-missed").clear()
    css(driver, "#p-missed").send_keys("3. Nf3 Nc6")
    css(driver, "#p-missed-go").click()
    assert wait_until(lambda: css(driver, "#panel-note").get_attribute("class") == "ok", 10), \
        css(driver, "#panel-note").text
    ev.wait_board(1, lambda b: b["plies"] == plies + 2)
    g = ev.event.board(1).engine.game
    assert g.sans()[-2:] == ["Nf3", "Nc6"]
    with open(ev.event.board(1).record_path) as f:
        record = f.read()
    assert "entered by the arbiter" in record and "ArbiterMoves" in record, record
    assert ev.board(1)["history"][-1]["ok"] is True
    shoot(driver, shots, "11b-missed-moves-entered")
    css(driver, "#panel-close").click()


def test_a_penalty_is_offered_only_while_its_illegal_move_alert_is_up(desk, shots):
    """White's second illegal move: the board page's arbiter panel offers its penalty (what it costs,
    asked first); once the position is restored the offer is gone and the server refuses it. Then the
    clock runs for Black while White is to move: the dashboard says so and switches it."""
    ev, driver = desk
    sim = ev.tables[1].sim                        # 1. e4 d5 2. exd5 e5 3. Nf3 Nc6, White to move
    sim.lift("h1")
    sim.wait(200)
    sim.place("h3")                               # the rook over its own pawn
    sim.wait(300)
    sim.press("white")
    ev.wait_board(1, lambda b: b["penalty_side"] == "white", 15)
    assert ev.board(1)["penalty"] == "White's second illegal move: the game is lost"
    driver.get(ev.url + "/board/dash/1/1")
    assert wait_until(lambda: driver.execute_script("return !!window.flagfall.boards['dash/1/1']"), 10)
    css(driver, "#arb-open").click()
    css(driver, "#arb-token").send_keys(TOKEN)
    css(driver, "#arb-unlock").click()
    assert wait_until(lambda: css(driver, "#arb-penalty-go").is_displayed(), 10)
    assert css(driver, "#arb-penalty-go").text == "Apply penalty: White's second illegal move: the game is lost"
    shoot(driver, shots, "12-board-page-penalty-offered")
    css(driver, "#arb-penalty-go").click()
    assert wait_until(lambda: _alert_text(driver) is not None, 5)
    asked = _alert_text(driver)
    assert "apply the penalty for the illegal move?" in asked and "White's second illegal move: the game is lost" in asked
    driver.switch_to.alert.dismiss()              # not confirmed: nothing applied
    time.sleep(0.5)
    assert ev.event.board(1).engine.game.illegal == [1, 0] and ev.board(1)["result"] == "*"
    # the position restored before the arbiter acts: the offer goes with the alert, and the server
    # refuses a penalty sent anyway (a stale page, a script)
    sim.lift("h3")
    sim.wait(200)
    sim.place("h1")
    assert wait_until(lambda: not css(driver, "#arb-penalty-row").is_displayed(), 10)
    reply = driver.execute_async_script("""
        var done = arguments[arguments.length - 1];
        fetch('/api/board/dash/1/1/arbiter', {method: 'POST', headers: {'Authorization': 'Bearer ' + arguments[0],
              'Content-Type': 'application/json'}, body: JSON.stringify({action: 'penalty', side: 'white'})})
          .then(function (r) { return r.json().then(function (j) { done([r.status, j.error]); }); });""", TOKEN)
    assert reply[0] == 409 and "no illegal-move alert is up" in reply[1], reply
    assert ev.event.board(1).engine.game.illegal == [1, 0]
    css(driver, "#arb-lock").click()              # the token leaves this tab
    # White pressed, so Black's clock runs while White is to move: the dashboard shows it and switches it
    driver.get(ev.url + "/arbiter")               # the token kept in this browser: straight to the desk
    assert wait_until(lambda: refreshes(driver) > 0 and css(driver, "#desk").is_displayed(), 10)
    assert wait_until(lambda: "Black's clock runs, but White is to move" in row(driver, 1, ".c-todo").text, 10)
    switch = [b for b in driver.find_elements("css selector", 'tr[data-board="1"] td.c-actions button')
              if b.text == "Switch the clock to White"]
    assert switch and switch[0].is_displayed()
    shoot(driver, shots, "13-clock-for-the-wrong-side")
    switch[0].click()
    wait_note(driver, "ok", "put the lever down on Black's side")
    ev.wait_board(1, lambda b: b["clock_to"] is None and b["clock"]["running"] is None)
    sim.press("black")                            # the lever, on the paused clock
    resume = lambda: [b for b in driver.find_elements("css selector", 'tr[data-board="1"] td.c-actions button')  # noqa: E731
                      if b.text == "Resume clock" and b.is_displayed()]
    assert wait_until(lambda: resume(), 5), row(driver, 1).text
    resume()[0].click()
    ev.wait_board(1, lambda b: b["clock"]["running"] == "white")
    assert ev.event.board(1).engine.game.illegal == [1, 0]


def _alert_text(driver):
    try:
        return driver.switch_to.alert.text
    except Exception:                             # noqa: BLE001 - no alert open yet
        return None


def test_the_event_log_and_the_phone_layout(desk, shots):
    ev, driver = desk
    log = [li.text for li in driver.find_elements("css selector", "#log li")]
    assert any("illegal move by White" in t for t in log) and any("alert over" in t for t in log), log
    assert any("forfeit -/+" in t for t in log), log
    driver.execute_script("document.getElementById('note').textContent = ''")
    driver.set_window_size(PHONE, 860)
    time.sleep(0.5)
    width = driver.execute_script("return document.documentElement.scrollWidth")
    assert width <= PHONE, "the page scrolls sideways at %d px: %d px wide" % (PHONE, width)
    head = driver.execute_script("return getComputedStyle(document.querySelector('#boards thead')).display")
    assert head == "none"                                  # one card per board, labels beside the values
    card = row(driver, 1)
    assert card.size["width"] <= PHONE and card.is_displayed()
    buttons = [b for b in driver.find_elements("css selector", 'tr[data-board="1"] td.c-actions button') if b.is_displayed()]
    assert buttons and all(b.size["height"] >= 30 for b in buttons)
    driver.execute_script("window.scrollTo(0, 0)")
    driver.save_screenshot(str(shots / "11-phone-400.png"))
    shoot(driver, shots, "11-phone")


def test_the_board_pages_arbiter_panel_offers_only_the_games_results(desk, shots):
    ev, driver = desk
    from selenium.webdriver.support.ui import Select
    driver.get(ev.url + "/board/dash/1/5")             # international draughts
    assert wait_until(lambda: driver.execute_script("return !!window.flagfall.boards['dash/1/5']"), 10)
    css(driver, "#arb-open").click()
    css(driver, "#arb-token").send_keys(TOKEN)
    css(driver, "#arb-unlock").click()
    assert wait_until(lambda: css(driver, "#arb-actions").is_displayed(), 5)
    # the FMJD results, never a chess draw; and, as on the dashboard (one rule: the board's actions), the
    # forfeits, and no '*' (taking a result back) while the game has none
    assert wait_until(lambda: [o.get_attribute("value") for o in Select(css(driver, "#arb-result")).options] ==
                      ["2-0", "0-2", "1-1", "+/-", "-/+", "-/-"], 5), \
        [o.get_attribute("value") for o in Select(css(driver, "#arb-result")).options]
