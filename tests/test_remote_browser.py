"""The phones' page in a real browser: Debian's Chromium driven by Selenium against the real box (the simulated
table's session, loop, views and journal, the page on a loopback port). After every step the picture the phone
shows is the projector's frame, pixel for pixel."""

from __future__ import annotations

import base64
import shutil

import pygame
import pytest
from PIL import Image
from remote_box import Box
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from companion.dice import DiceRolled

CHROMIUM = "/usr/bin/chromium"
DRIVER = "/usr/bin/chromedriver"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage")


@pytest.fixture
def browser(tmp_path):
    assert shutil.which(CHROMIUM) and shutil.which(DRIVER), "apt-get install chromium chromium-driver (.ci/run)"
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path / 'chromium'}")
    options.add_argument("--window-size=412,915")  # a phone held upright
    driver = webdriver.Chrome(options=options, service=Service(DRIVER))
    driver.set_script_timeout(15)
    try:
        yield driver
    finally:
        driver.quit()


def until(driver, condition, seconds=15.0):
    return WebDriverWait(driver, seconds, poll_frequency=0.05).until(lambda d: condition())


def join(driver, box, seat=""):
    driver.get(f"{box.url}/J/{box.code}")  # the QR code's link: the code is filled in
    until(driver, lambda: driver.find_element(By.ID, "join-view").is_displayed())
    assert driver.find_element(By.ID, "code").get_attribute("value") == box.code
    Select(driver.find_element(By.ID, "seat")).select_by_value(seat)
    driver.find_element(By.ID, "join").click()
    until(driver, lambda: driver.find_element(By.ID, "play-view").is_displayed())
    settled(driver, box)


def settled(driver, box):
    """Wait until the phone shows the box's newest frame, then check its picture is the projector's. The box may
    draw once more on its own right after a step (its quiet turn): then the check is made again on the newer frame,
    so the phone's picture is only ever compared with the projector's frame of the same number."""
    for _ in range(20):
        until(driver, lambda: phone_frame(driver) == box.remote.view.count)
        frame, pixels = driver.execute_script("""
            const img = document.getElementById("board");
            const canvas = document.createElement("canvas");
            canvas.width = img.naturalWidth;
            canvas.height = img.naturalHeight;
            const context = canvas.getContext("2d");
            context.drawImage(img, 0, 0);
            const rgba = context.getImageData(0, 0, canvas.width, canvas.height).data;
            let s = "";
            for (let i = 0; i < rgba.length; i += 4) s += String.fromCharCode(rgba[i], rgba[i + 1], rgba[i + 2]);
            return [Number(img.dataset.frame), btoa(s), canvas.width, canvas.height];""")[:2]
        count = box.remote.view.count
        surface = box.projector.renderer.surface
        projected = pygame.image.tobytes(surface, "RGB")
        if frame == count == box.remote.view.count:
            break  # else a newer frame came meanwhile: look again
    assert frame == count, "the box kept drawing new frames: the phone never caught up"
    picture = Image.frombytes("RGB", surface.get_size(), base64.b64decode(pixels))
    assert picture.tobytes() == projected, "the phone's picture is not the projector's"


def phone_frame(driver):
    shown = driver.execute_script(
        "const b = document.body.dataset.frame, i = document.getElementById('board').dataset.frame;"
        "return b !== undefined && b === i ? Number(b) : -1;")
    return shown


def text(driver, element_id):
    return driver.find_element(By.ID, element_id).text


def test_carcassonne_turn_by_tapping_the_board(tmp_path, browser):
    box = Box(tmp_path, "carcassonne", {"players": 2, "board": "tiles", "river": "no"})
    try:
        join(browser, box)
        assert "lay a tile" in text(browser, "request")
        spots = browser.find_elements(By.CSS_SELECTOR, "#spots .spot")
        assert spots, "the open cells are places to tap"
        spot = spots[0]
        label = spot.get_attribute("aria-label")
        events = len(box.journaled())
        spot.click()  # the place on the board picture
        box.wait(lambda: box.table.session.current.live and len(box.table.session.current.live) == events + 1)
        settled(browser, box)
        assert "which tile?" in text(browser, "request")
        cell = box.table.session.current.live[-1].event
        assert cell.action == "cell" and label  # the cell tapped is the one journaled
        browser.find_element(By.CSS_SELECTOR, "#options button[data-option='0']").click()  # the tile
        until(browser, lambda: "deploy?" in text(browser, "request") or "turn the tile" in text(browser, "request"))
        if "turn the tile" in text(browser, "request"):  # the kind most left in the bag may fit two ways
            settled(browser, box)
            browser.find_element(By.CSS_SELECTOR, "#options button[data-option='0']").click()
            until(browser, lambda: "deploy?" in text(browser, "request"))
        settled(browser, box)
        no = next(b for b in browser.find_elements(By.CSS_SELECTOR, "#options button") if b.text == "No follower")
        no.click()
        until(browser, lambda: "Blue: lay a tile" in text(browser, "request"))
        settled(browser, box)
        actions = [e.action for e in box.journaled()]
        assert "cell" in actions[-4:-2] and actions[-1] == "pass"
    finally:
        box.close()


def test_kansas_tornado_by_tapping_dice_faces(tmp_path, browser):
    box = Box(tmp_path, "kansas", {"players": 4})
    try:
        join(browser, box, "Blue")
        assert "Tornado 1 of 4" in text(browser, "request")
        values = [3, 4, 5, 2, 6, 1]
        throws = 0
        while "Tornado 1 of 4" in text(browser, "request"):
            assert throws < 40, text(browser, "request")
            kinds = box.remote.inputs.snapshot.dice
            assert kinds, text(browser, "request")
            before = box.remote.view.count
            for i, kind in enumerate(kinds):
                value = values[(throws + i) % len(values)] if kind == "d6" else 1 + (throws + i) % 8
                browser.find_element(By.CSS_SELECTOR, f"#faces button[data-die='{kind}-{value}']").click()
            browser.find_element(By.ID, "dice-enter").click()
            box.wait(lambda before=before: box.remote.view.count > before)
            settled(browser, box)
            throws += 1
        rolls = box.journaled()
        assert all(isinstance(e, DiceRolled) and e.source == "phone:Blue" for e in rolls)
        kinds = [tuple(d.kind for d in e.dice) for e in rolls]
        assert kinds[:2] == [("d8",), ("d8",)] and kinds.count(("d6", "d6")) >= 4  # the grid lines, four moves
    finally:
        box.close()


def test_allegheny_auction_with_typed_bids_and_undo(tmp_path, browser):
    box = Box(tmp_path, "allegheny", {"players": 3})
    try:
        join(browser, box)
        least = box.remote.inputs.snapshot.bid.event.args["amount"]
        bid = browser.find_element(By.ID, "bid")
        assert not browser.find_element(By.ID, "bid-form").get_attribute("hidden")

        def typed(amount):
            before = box.remote.view.count
            bid.send_keys(str(amount))
            browser.find_element(By.ID, "bid-send").click()
            box.wait(lambda: box.remote.view.count > before, what=lambda: text(browser, "message"))
            settled(browser, box)

        typed(least + 3)  # not one of the offered steps: typed
        events = box.journaled()
        assert events[-1].action == "bid" and events[-1].args["amount"] == least + 3
        typed(least + 1)  # too low now: the game refuses it, as from the buttons
        assert "too low" in text(browser, "message")
        assert len(box.journaled()) == len(events)
        typed(least + 7)
        assert box.journaled()[-1].args["amount"] == least + 7
        browser.find_element(By.ID, "undo").click()  # the box asks, as when BACK is held
        until(browser, lambda: browser.find_element(By.ID, "question").is_displayed())
        settled(browser, box)
        assert text(browser, "question-text") == "Undo last?"
        browser.find_element(By.ID, "yes").click()
        until(browser, lambda: not browser.find_element(By.ID, "question").is_displayed())
        settled(browser, box)
        live = box.table.session.current.live
        assert live[-1].event.args["amount"] == least + 3
    finally:
        box.close()


def test_a_seated_phone_is_refused_out_of_turn(tmp_path, browser):
    box = Box(tmp_path, "allegheny", {"players": 3})
    try:
        join(browser, box, "Red")  # player 2; player 1 bids first
        assert box.remote.inputs.snapshot.bid.player == 1
        browser.find_element(By.ID, "bid").send_keys("20")
        browser.find_element(By.ID, "bid-send").click()
        until(browser, lambda: "it is Blue's turn, not Red's" in text(browser, "message"))
        box.wait(lambda: "Red's phone: it is Blue's turn" in box.table.session.panel.message)  # the box names it
        assert box.journaled() == []
    finally:
        box.close()


def test_tablet_layout_and_new_code_sends_the_phone_back_to_join(tmp_path, browser):
    browser.set_window_size(1024, 1366)
    box = Box(tmp_path, "kansas", {"players": 4})
    try:
        join(browser, box)
        board = browser.find_element(By.ID, "board").rect
        controls = browser.find_element(By.ID, "controls").rect
        assert controls["x"] >= board["x"] + board["width"] - 1  # side by side on a tablet
        old = box.code
        box.remote.joining.renew()
        until(browser, lambda: browser.find_element(By.ID, "join-view").is_displayed())
        assert "new code" in text(browser, "join-error")
        assert box.code != old
    finally:
        box.close()


def test_box_throw_reaches_the_phone(tmp_path, browser):
    box = Box(tmp_path, "kansas", {"players": 4})
    try:
        join(browser, box)
        before = box.remote.view.count
        box.table.driver.throw(DiceRolled.of(("d8", 4)))  # through the virtual tower and the real link
        box.wait(lambda: box.remote.view.count > before and not box.table.inbox.qsize())
        settled(browser, box)
        assert "east-west" in text(browser, "request").lower() or "D8" in text(browser, "request")
    finally:
        box.close()
