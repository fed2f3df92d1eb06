"""The Integration UI end to end in a real browser (Debian's chromium, headless, driven by Selenium; `make test`
installs both): `python -m retrogym.ui` started as a user would, StarCatcher's ROM integrated from the page, played
with scripted keys to the first playable moment, Level1.state saved as the default, the score and lives variables
made, a reward on the score and a done on the lives written, play until the reward shows in the Scenario
information pane; then the files written load with retrogym.make and score as the game's own integration.
RETROGYM_UI_SCREENSHOTS=DIR keeps the screenshots there (docs/ui/ holds the ones docs/ui.md shows)."""
import gzip
import json
import os
import shutil
import subprocess
import sys
import time

import numpy as np
import pytest

import retrogym
from retrogym import data as rdata

pytest.importorskip("aiohttp", reason="the UI needs aiohttp (pip install 'retrogym[ui]'; make venv)")
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (make venv installs it)")
from selenium.common.exceptions import NoAlertPresentException, WebDriverException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

GAME = "StarCatcher-Nes"


@pytest.fixture(autouse=True)
def _keep_data_settings(saved_data_settings):
    """The UI adds its workspace as a custom path: the process-wide data settings are put back after each test."""
    yield
NAME = "MyStarCatcher-Nes"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")


@pytest.fixture
def browser():
    if not CHROMIUM or not DRIVER:
        pytest.skip("no chromium/chromedriver: `make test` installs Debian's chromium and chromium-driver "
                    "(apt-get install chromium chromium-driver)")
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1500,1050", "--force-device-scale-factor=1"):
        opts.add_argument(arg)
    try:
        drv = webdriver.Chrome(options=opts, service=webdriver.ChromeService(executable_path=DRIVER))
    except WebDriverException as e:
        pytest.skip(f"chromium does not start here: {e.msg}")
    yield drv
    drv.quit()


@pytest.fixture
def server(tmp_path):
    root = tmp_path / "root"
    env = dict(os.environ, RETROGYM_STABLE_RETRO="")
    p = subprocess.Popen([sys.executable, "-m", "retrogym.ui", "--port", "0", "--data-root", str(root)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    line = p.stdout.readline()
    if "http://" not in line:
        p.kill()
        pytest.fail(f"no URL printed: {line!r} {p.stderr.read()}")
    yield line.split("open ", 1)[1].strip(), root
    p.terminate()
    try:
        p.wait(10)
    except subprocess.TimeoutExpired:
        p.kill()
    assert p.returncode in (0, -15), p.stderr.read()


def wait(drv, cond, what, timeout=30.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            v = cond()
        except WebDriverException:
            v = None
        if v:
            return v
        time.sleep(0.05)
    msg = drv.find_element(By.ID, "message").text
    raise AssertionError(f"timed out waiting for {what} (page says: {msg!r})")


def text(drv, id_):
    return drv.find_element(By.ID, id_).text


def click(drv, id_):
    drv.find_element(By.ID, id_).click()


def accept_confirm(drv):
    try:
        a = drv.switch_to.alert
    except NoAlertPresentException:
        return None
    t = a.text
    a.accept()
    return t


def press(drv, key, seconds):
    """Holds a key on the game screen for about that long (the page sends the buttons over the WebSocket)."""
    from selenium.webdriver.common.action_chains import ActionChains
    ActionChains(drv).key_down(key).perform()
    time.sleep(seconds)
    ActionChains(drv).key_up(key).perform()


def shot(drv, name, tmp_path):
    folder = os.environ.get("RETROGYM_UI_SCREENSHOTS") or str(tmp_path)
    os.makedirs(folder, exist_ok=True)
    drv.save_screenshot(os.path.join(folder, name))


def test_integrate_starcatcher_in_the_browser(browser, server, tmp_path):
    drv = browser
    url, root = server
    rom = tmp_path / "Star Catcher (World) [!].nes"
    shutil.copyfile(rdata.get_romfile_path(GAME), rom)

    # without the token: refused
    drv.get(url.split("?")[0])
    assert "token" in drv.find_element(By.TAG_NAME, "body").text
    drv.get(url)
    wait(drv, lambda: text(drv, "title") == "no game open", "the page")

    # integrate the ROM: the proposed name, then ours; the page asks before integrating a known ROM again
    drv.find_element(By.ID, "rom-file").send_keys(str(rom))
    wait(drv, lambda: drv.find_element(By.ID, "rom-name").get_attribute("value") == "StarCatcher-Nes", "the proposal")
    name = drv.find_element(By.ID, "rom-name")
    name.clear()
    name.send_keys(NAME)
    click(drv, "integrate")
    question = wait(drv, lambda: accept_confirm(drv), "the confirmation")
    assert "already integrated as StarCatcher-Nes" in question
    wait(drv, lambda: text(drv, "title") == f"{NAME} (Nes)", "the game")
    folder = root / "custom" / NAME
    assert (folder / "rom.sha").read_text().strip() == open(rdata.get_file_path(GAME, "rom.sha")).read().strip()
    frame = lambda: int(text(drv, "info-frame") or 0)  # noqa: E731
    wait(drv, lambda: frame() > 60, "frames running")
    shot(drv, "1-integrated.png", tmp_path)

    # the first playable moment: START on the title screen (Enter), then a little to the right
    drv.find_element(By.ID, "screen").click()
    press(drv, Keys.ENTER, 0.2)
    time.sleep(0.5)
    press(drv, Keys.ARROW_RIGHT, 0.3)
    click(drv, "pause")
    wait(drv, lambda: text(drv, "pause") == "Resume", "pause")
    f0 = frame()
    time.sleep(0.3)
    assert frame() == f0
    click(drv, "step")
    wait(drv, lambda: frame() == f0 + 1, "single step")

    # Level1.state, the default state
    box = drv.find_element(By.ID, "state-name")
    box.clear()
    box.send_keys("Level1")
    click(drv, "state-default")
    click(drv, "save-state")
    wait(drv, lambda: "save state: done" in text(drv, "message"), "the state saved")
    assert json.loads((folder / "metadata.json").read_text()) == {"default_state": "Level1"}
    wait(drv, lambda: "default: Level1" in text(drv, "default-name"), "the default shown")
    saved = gzip.decompress((folder / "Level1.state").read_bytes())

    # the score by searches, as the guide does it: "Is 0" now, play until a star is caught (the score on screen,
    # here read from the hex view), "Increased", "Is <score>"
    def fill(id_, value):
        e = drv.find_element(By.ID, id_)
        e.clear()
        e.send_keys(value)

    def hex_bytes(row, first, n):  # read at once in the page: the hex view is redrawn twice a second
        return drv.execute_script("const r = document.querySelectorAll('#hex tr')[arguments[0]];"
                                  "return r ? [...r.children].slice(1 + arguments[1], 1 + arguments[1] + arguments[2])"
                                  ".map((td) => td.textContent) : [];", row, first, n)

    fill("search-name", "score")
    fill("search-value", "0")
    click(drv, "search-is")
    wait(drv, lambda: "search is: done" in text(drv, "message"), "the first search")
    wait(drv, lambda: drv.find_elements(By.CSS_SELECTOR, "#hex tr"), "the hex view")
    score_now = lambda: int("".join(hex_bytes(2, 0, 3)) or 0)  # noqa: E731 - the 6 digits on screen
    click(drv, "fast")
    click(drv, "pause")  # resume
    drv.find_element(By.ID, "screen").click()
    end = time.monotonic() + 90
    i = 0
    while score_now() == 0 and time.monotonic() < end:
        press(drv, [Keys.ARROW_LEFT, Keys.ARROW_RIGHT][i % 2], 0.4 + 0.1 * (i % 3))
        i += 1
    click(drv, "pause")
    wait(drv, lambda: text(drv, "pause") == "Resume", "pause")
    time.sleep(0.7)  # the hex view refreshes twice a second
    points = score_now()
    assert points > 0, "no star caught in 90 s"
    click(drv, "search-increased")
    wait(drv, lambda: "search increased: done" in text(drv, "message"), "the delta search")
    fill("search-value", str(points))
    click(drv, "search-is")
    wait(drv, lambda: "search is: done" in text(drv, "message"), "the second value search")
    counts = text(drv, "search-body")
    assert "after 3 rounds" in counts, counts
    # "make variable": the result at 0x21 as 2 bytes of BCD, big-endian (the search's types are 1, 2, 4 and 6
    # digits wide); then widened by hand to the score's 3 bytes (6 digits) at 0x20, as on screen
    button = wait(drv, lambda: [b for b in drv.find_elements(By.CSS_SELECTOR, "#search-body button.type")
                                if b.text == ">d2" and "0x21 " in b.get_attribute("title")], "the result 0x21 >d2")[0]
    button.click()
    wait(drv, lambda: drv.find_elements(By.CSS_SELECTOR, '#vars td.value[data-name="score"]'), "score variable")
    wait(drv, lambda: drv.find_element(By.CSS_SELECTOR, '#vars td.value[data-name="score"] input')
         .get_attribute("value") == str(points), "the score's value in the variables pane")
    shot(drv, "2-search.png", tmp_path)
    for id_, v in (("var-name", "score"), ("var-address", "0x20"), ("var-type", ">d3")):
        fill(id_, v)
    click(drv, "var-add")
    wait(drv, lambda: "0x20" in text(drv, "vars"), "score at 0x20")
    # lives ($23) typed in, as the guide's second variable
    for id_, v in (("var-name", "lives"), ("var-address", "0x23"), ("var-type", "|u1")):
        fill(id_, v)
    click(drv, "var-add")
    wait(drv, lambda: drv.find_elements(By.CSS_SELECTOR, '#vars td.value[data-name="lives"]'), "lives")
    click(drv, "save-data")
    wait(drv, lambda: "save data.json: done" in text(drv, "message"), "data.json")
    assert json.loads((folder / "data.json").read_text()) == {
        "info": {"lives": {"address": 35, "type": "|u1"}, "score": {"address": 32, "type": ">d3"}}}
    lives = lambda: drv.find_element(By.CSS_SELECTOR, '#vars td.value[data-name="lives"] input')  # noqa: E731
    wait(drv, lambda: lives().get_attribute("value") == str(int(hex_bytes(2, 3, 1)[0], 16)),
         "lives in the variables pane as in memory at $23")
    assert 1 <= int(lives().get_attribute("value")) <= 3

    # the scenario: reward 1 per point of score, done when lives reach zero
    click(drv, "reward-add")
    row = drv.find_elements(By.CSS_SELECTOR, "#reward-rows tbody tr")[-1]
    from selenium.webdriver.support.ui import Select
    Select(row.find_element(By.TAG_NAME, "select")).select_by_visible_text("score")
    click(drv, "done-add")
    row = drv.find_elements(By.CSS_SELECTOR, "#done-rows tbody tr")[-1]
    Select(row.find_element(By.TAG_NAME, "select")).select_by_visible_text("lives")
    assert Select(row.find_elements(By.TAG_NAME, "select")[1]).first_selected_option.get_attribute("value") == "zero"
    click(drv, "save-scenario")
    wait(drv, lambda: "save scenario.json: done" in text(drv, "message"), "scenario.json")
    assert json.loads((folder / "scenario.json").read_text()) == {
        "done": {"variables": {"lives": {"op": "zero"}}}, "reward": {"variables": {"score": {"reward": 1}}}}
    # the other fields: a reward's measurement is saved; done nodes that are not JSON are refused, nothing written
    row = drv.find_elements(By.CSS_SELECTOR, "#reward-rows tbody tr")[-1]
    Select(row.find_elements(By.TAG_NAME, "select")[2]).select_by_value("delta")
    drv.find_element(By.ID, "done-nodes").send_keys("{not json")
    click(drv, "save-scenario")
    wait(drv, lambda: "done nodes: not valid JSON" in text(drv, "message"), "the done nodes error")
    assert json.loads((folder / "scenario.json").read_text())["reward"] == {"variables": {"score": {"reward": 1}}}
    drv.find_element(By.ID, "done-nodes").clear()
    click(drv, "save-scenario")
    wait(drv, lambda: json.loads((folder / "scenario.json").read_text())["reward"] ==
         {"variables": {"score": {"reward": 1, "measurement": "delta"}}}, "scenario.json with the measurement")

    # play (fast-forward, sweeping left and right) until the Scenario information pane shows a reward
    click(drv, "pause")
    wait(drv, lambda: text(drv, "pause") == "Pause", "resume")
    drv.find_element(By.ID, "screen").click()
    end = time.monotonic() + 90
    keys = [Keys.ARROW_LEFT, Keys.ARROW_RIGHT]
    i = 0
    while float(text(drv, "info-total") or 0) <= 0 and time.monotonic() < end:
        press(drv, keys[i % 2], 0.4 + 0.1 * (i % 3))
        i += 1
    total = float(text(drv, "info-total"))
    assert total > 0, "no reward in 90 s of play"
    assert total % 10 == 0  # StarCatcher scores 10 per star on level 1
    shot(drv, "3-reward.png", tmp_path)
    click(drv, "pause")

    # the memory view: the score's bytes at $20..$22 are the BCD of the score variable (paused: it stays). Not of
    # the reward total: whether the points caught before the scenario existed count depends on whether the core
    # publishes its memory again when the reload puts the emulator back (our NES core does: they do not count)
    score = wait(drv, lambda: drv.find_element(By.CSS_SELECTOR, '#vars td.value[data-name="score"] input')
                 .get_attribute("value"), "the score variable's value")
    total = int(score)
    assert total >= 10 and total % 10 == 0
    want = [f"{int(total) // 10000 % 100:02d}", f"{int(total) // 100 % 100:02d}", f"{int(total) % 100:02d}"]

    wait(drv, lambda: hex_bytes(2, 0, 3) == want, f"the score's BCD bytes {want} at $20 in the hex view")
    shot(drv, "4-memory.png", tmp_path)

    # the files written load with retrogym.make and score as the game's own integration from the same state
    rdata.add_custom_path(str(root / "custom"))
    mine = retrogym.make(NAME, inttype=rdata.Integrations.ALL)
    state = tmp_path / "Level1.state"
    state.write_bytes(gzip.compress(saved))
    ref = retrogym.make(GAME, state=str(state))
    assert mine.unwrapped.statename == "Level1"
    o1, _ = mine.reset(seed=0)
    o2, _ = ref.reset(seed=0)
    assert np.array_equal(o1, o2)
    rng = np.random.default_rng(3)
    for _ in range(600):
        a = rng.integers(0, 2, size=mine.action_space.shape, dtype=np.int8)
        r1, r2 = mine.step(a), ref.step(a)
        assert np.array_equal(r1[0], r2[0]) and r1[1:4] == r2[1:4]
        assert r1[4]["score"] == r2[4]["score"] and r1[4]["lives"] == r2[4]["lives"]
    for env in (mine, ref):
        env.unwrapped.data.set_value("score", env.unwrapped.data["score"] + 10)
    assert mine.step(np.zeros(9, np.int8))[1] == ref.step(np.zeros(9, np.int8))[1] == 10.0
    mine.close()
    ref.close()
