"""The dashboard in the order an arbiter looks (issue #30, item 7), in a real headless Chromium: what needs
the arbiter first (alerts, then a device away or its battery low, then time trouble) in a box above the
table, whose move it is and the clock's battery in the board's panel, a sound on a new alert when asked
for, a red note that goes when its cause does, and the progress of a round being loaded.

The event is in this process, its boards without devices: the test sets their engines' state (an alert,
a battery reading) as a device would, and publishes it, so that only the page is under test. Clicks wait
for their element to stand still (the stream redraws the page several times a second)."""
import threading
import time

import pytest

from flagfall.tournament import pairings
from processes import ServedEvent, wait_until

pytestmark = pytest.mark.serial     # a real browser on pushed updates: apart from the other worker's load

TOKEN = "attention-test-token"


def css(driver, sel):
    return driver.find_element("css selector", sel)


def click(driver, sel, timeout=10):
    """Click `sel` once it is shown, enabled and has not moved for 0.15 s (never a row being redrawn)."""
    def still():
        els = driver.find_elements("css selector", sel)
        if not els or not els[0].is_displayed() or not els[0].is_enabled():
            return False
        a = els[0].rect
        time.sleep(0.15)
        return els[0].rect == a
    assert wait_until(still, timeout, 0.05), "%s never stood still" % sel
    css(driver, sel).click()


def attention(driver):
    return driver.execute_script("return Array.from(document.querySelectorAll('#attention-list li')).map("
                                 "function (li) { return [li.dataset.board, li.className, li.firstChild.textContent]; });")


def publish(board, change):
    """Change board's engine as its device would, and publish the state (the event's own path)."""
    with board.lock:
        change(board.engine)
        board._published(board.engine.next_state(), [])


@pytest.fixture
def desk(tmp_path, browser):
    pgn = tmp_path / "pairings.pgn"
    pgn.write_text("\n".join('[Event "Club"]\n[Round "%d.%d"]\n[White "W%d%d"]\n[Black "B%d%d"]\n[Result "*"]\n\n*\n'
                             % (r, b, r, b, r, b) for r in (1, 2) for b in (1, 2, 3)))
    ev = ServedEvent(pairings.read_pairings(str(pgn), 1), str(tmp_path / "out"), simulated=(), token=TOKEN,
                     public=True, open_all=True, tournament="club", tc="5400+30", pairings_path=str(pgn))
    driver = browser()
    driver.set_window_size(1300, 1000)
    try:
        driver.get(ev.url.rstrip("/") + "/arbiter")
        css(driver, "#token").send_keys(TOKEN)
        click(driver, "#enter")
        assert wait_until(lambda: driver.execute_script("return window.flagfallArbiter.refreshes") > 0, 10)
        yield ev, driver
    finally:
        driver.quit()
        ev.close()


def test_attention_first_whose_move_battery_sound_and_notes_that_go(desk):
    ev, driver = desk
    js = driver.execute_script
    assert wait_until(lambda: len(driver.find_elements("css selector", "#boards tbody tr")) == 3, 10)
    assert css(driver, "#attention-none").is_displayed() and attention(driver) == []
    # the sound, asked for on this device: heard on each new alert of the event log from now on
    click(driver, "#sound")
    assert js("return localStorage.getItem('flagfall-arbiter-sound')") == "on"
    # board 3's clock battery runs low; board 2 has an illegal move: the alert first, then the battery
    b2, b3 = ev.event.board(2), ev.event.board(3)

    def hello(eng):
        eng.frame(1, "HELLO", ["t", 1, "pico-chess", "chess", 8, 8, "full"])
        eng.frame(2, "SNAP", [2, 64, "FFFF00000000FFFF"])
    publish(b3, lambda eng: setattr(eng, "battery", (9, True)))
    assert wait_until(lambda: [a[:2] for a in attention(driver)] == [["3", "k-device"]], 10), attention(driver)
    assert wait_until(lambda: js("return window.flagfallArbiter.sounded") == 1, 5)
    publish(b2, hello)
    publish(b2, lambda eng: eng.game.set_alert(5, "illegal move by White: Bf1-f4"))
    assert wait_until(lambda: [a[:2] for a in attention(driver)] == [["2", "k-alert"], ["3", "k-device"]], 10), \
        attention(driver)
    assert attention(driver)[0][2] == "Board 2 (W12 - B12): illegal move by White: Bf1-f4", attention(driver)
    assert attention(driver)[1][2] == "Board 3 (W13 - B13): clock battery low (9 %)"
    assert not css(driver, "#attention-none").is_displayed()
    assert css(driver, 'tr[data-board="3"] .battery.low').text == "battery 9% LOW"
    # board 1: moves entered; its panel says whose move it is
    st, reply = ev.act(1, {"action": "enter_moves", "moves": "e4"})
    assert st == 200, reply
    click(driver, 'tr[data-board="1"] button.open')
    assert wait_until(lambda: css(driver, "#panel-to-move").text == "Black to move", 10), \
        css(driver, "#panel-to-move").text
    click(driver, "#panel-close")
    # a refused action's red note stays while its cause does (board 1 has no device to add time) ...
    add = [e for e in driver.find_elements("css selector", 'tr[data-board="1"] .c-actions button')
           if e.text == "+1 min White"]
    assert add and add[0].is_displayed()
    add[0].click()
    assert wait_until(lambda: css(driver, "#note").get_attribute("class") == "err" and
                      "no device" in css(driver, "#note").text, 10), css(driver, "#note").text
    time.sleep(1.2)
    assert "no device" in css(driver, "#note").text          # the board is as it was: the note stays
    # ... and goes once the board is no longer as it was (a result entered)
    st, reply = ev.act(1, {"action": "result", "result": "1-0"})
    assert st == 200, reply
    assert wait_until(lambda: css(driver, "#note").text == "", 10), css(driver, "#note").text
    # the alert dismissed: board 2 leaves the list; a new alert would sound again
    st, reply = ev.act(2, {"action": "dismiss"})
    assert st == 200, reply
    assert wait_until(lambda: [a[0] for a in attention(driver)] == ["3"], 10), attention(driver)
    assert js("return window.flagfallArbiter.sounded") == 1


def test_a_round_being_loaded_shows_its_progress(desk):
    ev, driver = desk
    release = threading.Event()
    ev.event.before_round.append(lambda e: release.wait(20))     # the devices take their time to be set up
    click(driver, "#next")
    # games go on: the page asks what becomes of them
    assert wait_until(lambda: css(driver, "#confirm").is_displayed(), 10)
    buttons = driver.find_elements("css selector", "#confirm-buttons button")
    [adjourn] = [b for b in buttons if b.text.startswith("Adjourn")]
    adjourn.click()
    assert wait_until(lambda: css(driver, "#progress").text.startswith("Loading round 2: setting up the devices"), 10), \
        css(driver, "#progress").text
    time.sleep(1.3)
    assert css(driver, "#progress").text.endswith(" s") and " 0 s" not in css(driver, "#progress").text
    release.set()
    assert wait_until(lambda: css(driver, "#progress").text.startswith("0 of 3 games finished"), 15), \
        css(driver, "#progress").text
    assert "Round 2 loaded: 3 boards" in css(driver, "#note").text
    assert ev.dashboard()["loading"] is None
