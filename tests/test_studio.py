"""``toolkit studio`` from outside: the command runs in a process of its own on a copy of the Weathervane
example, Debian's Chromium (driven by Playwright) opens its page, and the test edits the deck as a
designer would. Plain HTTP requests check what the server refuses: paths out of what it serves, calls
without the page's token, another Host name.

Without Chromium or Playwright the browser tests are skipped, except in CI (``CI`` set), where they fail.
``TOOLKIT_SCREENSHOT=docs/studio.png`` also writes the page's picture there (the one the docs show)."""

from __future__ import annotations

import http.client
import json
import os
import queue
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from conftest import ROOT

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify and Chromium, as CI runs them")

EXAMPLE = ROOT / "examples" / "weathervane"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
START_WAIT = 120  # seconds: the first drawing of the deck on a loaded machine
SAVE_WAIT = 10_000  # ms for a save to show on the page (the benchmark holds the 100-card deck to 2 s)


def missing(why: str) -> None:
    """No browser to test with: a skip on a designer's machine, a failure in CI."""
    if os.environ.get("CI"):
        pytest.fail(f"{why} (CI is set: the studio's browser tests must run)")
    pytest.skip(why)


class Studio:
    """A ``toolkit studio`` process on a copy of the Weathervane example, and its page's address."""

    def __init__(self, folder: Path, *args: str):
        self.folder = folder
        self.process = subprocess.Popen([sys.executable, "-m", "toolkit", "studio", *args, "--no-browser"],
                                        cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.errors: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        found: queue.Queue = queue.Queue()
        threading.Thread(target=lambda: found.put(self.process.stdout.readline()), daemon=True).start()
        try:
            self.url = found.get(timeout=START_WAIT).strip()
        except queue.Empty:
            self.stop()
            raise AssertionError("the studio gave no address") from None
        assert self.url.startswith("http://127.0.0.1:"), (self.url, self.said())
        self.port = int(self.url.rsplit(":", 1)[1].strip("/"))

    def _read(self) -> None:
        for line in self.process.stderr:
            self.errors.put(line.rstrip("\n"))

    def said(self) -> list[str]:
        lines = []
        while not self.errors.empty():
            lines.append(self.errors.get())
        return lines

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
        return self.process.wait(timeout=30)


def request(port: int, method: str, path: str, headers: dict | None = None, body: bytes | None = None):
    """One plain HTTP request, the path sent exactly as written (no client tidies it)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        for name, value in {"Host": f"127.0.0.1:{port}", **(headers or {})}.items():
            connection.putheader(name, value)
        if body is not None:
            connection.putheader("Content-Length", str(len(body)))
        connection.endheaders(body)
        answer = connection.getresponse()
        return answer.status, answer.read()
    finally:
        connection.close()


def token_of(port: int) -> str:
    status, page = request(port, "GET", "/")
    assert status == 200
    return json.loads(re.search(rb'<script id="settings" type="application/json">(.*?)</script>', page)[1])["token"]


@pytest.fixture(scope="module")
def deck_folder(tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("studio")
    shutil.copytree(EXAMPLE, work / "weathervane")
    return work


@pytest.fixture(scope="module")
def studio(deck_folder):
    started = Studio(deck_folder, "weathervane", "--port", "0")
    yield started
    assert started.stop() == 130


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("Playwright is not installed (pip install playwright)")
    if not CHROMIUM.exists():
        missing(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser, studio):
    opened = browser.new_page(viewport={"width": 1400, "height": 1000})
    opened.goto(studio.url)
    opened.wait_for_function("document.querySelectorAll('[data-card] img').length > 0", timeout=60_000)
    yield opened
    opened.close()


def deck_cards(folder: Path) -> list[tuple[str, str]]:
    """(id, English name) of each card of the copy's sheet, in order."""
    from toolkit.catalogue import load

    catalogue = load(None, folder / "weathervane" / "weathervane.toml")
    return [(card.id, card.name["en"]) for card in catalogue.cards if card.count > 0]


def cards_on(page) -> list[dict]:
    return page.eval_on_selector_all("[data-card]", """boxes => boxes.map(box => ({
        id: box.dataset.card, title: box.title, images: box.querySelectorAll('img').length,
        drawn: box.querySelector('img') ? box.querySelector('img').complete && box.querySelector('img').naturalWidth : 0,
        src: box.querySelector('img') ? box.querySelector('img').getAttribute('src') : ''}))""")


def test_the_page_shows_every_card_of_the_deck_as_printed(page, deck_folder):
    page.wait_for_function("[...document.querySelectorAll('[data-card] img')].every(i => i.complete && i.naturalWidth)",
                           timeout=60_000)
    shown = cards_on(page)
    assert [(card["id"], card["title"]) for card in shown] == deck_cards(deck_folder)
    assert all(card["images"] == 1 and card["drawn"] > 100 for card in shown)
    rows = page.eval_on_selector_all("#table tbody tr", "rows => rows.length")
    assert rows == len(shown)
    assert "40" in page.inner_text("#table tfoot")
    assert page.locator("[role=alert]").is_hidden()
    if os.environ.get("TOOLKIT_SCREENSHOT"):
        page.locator("#hand").fill("5")
        page.locator("#where").fill("colour=sun")
        page.locator("#hand-form button").click()
        page.wait_for_function("document.getElementById('hand-out').textContent.includes('at least')")
        page.screenshot(path=str(ROOT / os.environ["TOOLKIT_SCREENSHOT"]), full_page=False)


def test_the_card_picture_is_the_png_exports_picture_at_screen_size(studio, deck_folder):
    from PIL import Image
    import io

    from toolkit.cards.render import card_image
    from toolkit.catalogue import load
    from toolkit.print.faces import _faces
    from toolkit.studio.deck import SHRINK

    status, data = request(studio.port, "GET", "/card/poker/ru/front/sun-1.png")
    assert status == 200
    catalogue = load(None, deck_folder / "weathervane" / "weathervane.toml")
    faces = _faces(catalogue, "ru", (63.0, 88.0), 0.0)
    expected = card_image(faces.face(catalogue.card("sun-1"))).reduce(SHRINK)
    assert Image.open(io.BytesIO(data)).convert("RGB").tobytes() == expected.tobytes()


def test_a_save_redraws_the_changed_card_on_the_open_page_without_a_reload(page, deck_folder):
    sheet = deck_folder / "weathervane" / "cards.csv"
    original = sheet.read_text(encoding="utf-8")
    started = page.evaluate("window.studioStarted")
    before = {card["id"]: card["src"] for card in cards_on(page)}
    try:
        saved = time.time()
        sheet.write_text(original.replace("sun-2,Sun 2,", "sun-2,Breeze,"), encoding="utf-8")
        page.wait_for_function("document.querySelector('[data-card=\"sun-2\"]').title === 'Breeze'",
                               timeout=SAVE_WAIT)
        page.wait_for_function("window.studioSwaps.some(swap => swap.id === 'sun-2')", timeout=SAVE_WAIT)
        took = time.time() - saved
        after = {card["id"]: card["src"] for card in cards_on(page)}
        assert page.evaluate("window.studioStarted") == started  # the same page: no reload
        assert [card_id for card_id in before if before[card_id] != after[card_id]] == ["sun-2"]
        assert took < SAVE_WAIT / 1000
    finally:
        sheet.write_text(original, encoding="utf-8")
    page.wait_for_function("document.querySelector('[data-card=\"sun-2\"]').title === 'Sun 2'", timeout=SAVE_WAIT)


def test_a_broken_save_shows_the_command_lines_error_and_mending_it_takes_the_alert_away(page, deck_folder):
    sheet = deck_folder / "weathervane" / "cards.csv"
    original = sheet.read_text(encoding="utf-8")
    count = len(cards_on(page))
    try:
        sheet.write_text(original.replace("sun-3,Sun 3,Солнце 3,1,", "sun-3,Sun 3,Солнце 3,many,"), encoding="utf-8")
        told = subprocess.run([sys.executable, "-m", "toolkit", "catalogue", "--catalogue",
                               "weathervane/weathervane.toml"], cwd=deck_folder, capture_output=True, text=True)
        assert told.returncode == 2
        (line,) = told.stderr.splitlines()
        assert line.startswith("toolkit: error: ")
        alert = page.get_by_role("alert")
        alert.wait_for(state="visible", timeout=SAVE_WAIT)
        assert alert.inner_text().strip() == line
        assert len(cards_on(page)) == count  # the last good cards stay
    finally:
        sheet.write_text(original, encoding="utf-8")
    page.get_by_role("alert").wait_for(state="hidden", timeout=SAVE_WAIT)


def test_the_print_button_writes_the_sheets_where_print_cards_writes_them(page, deck_folder):
    written = deck_folder / "output" / "weathervane-cards-en.pdf"
    page.locator("#sheets-button").click()
    page.wait_for_function("document.getElementById('print-out').textContent.includes('.pdf')", timeout=120_000)
    assert page.inner_text("#print-out").splitlines()[0] == "output/weathervane-cards-en.pdf"
    assert written.read_bytes().startswith(b"%PDF")


def test_the_hand_odds_are_the_odds_commands(page, deck_folder):
    page.locator("#hand").fill("4")
    page.locator("#where").fill("colour=rain")
    page.locator("#at-least").fill("2")
    page.locator("#hand-form button").click()
    page.wait_for_function("document.getElementById('hand-out').textContent.includes('at least 2')")
    told = subprocess.run([sys.executable, "-m", "toolkit", "odds", "--catalogue", "weathervane/weathervane.toml",
                           "--model", "hand", "--hand", "4", "--where", "colour=rain", "--at-least", "2"],
                          cwd=deck_folder, capture_output=True, text=True)
    assert told.returncode == 0, told.stderr
    assert page.inner_text("#hand-out").strip() == told.stdout.strip()


def test_the_page_cannot_reach_a_file_out_of_what_the_studio_serves(page, studio):
    for path in ("static/..%2f..%2f..%2fpyproject.toml", "static/%2e%2e%2fdeck.py", "card/poker/en/front/..%2fx.png"):
        answer = page.request.get(studio.url + path)
        assert answer.status == 404, path


TRAVERSALS = ("/static/../deck.py", "/static/..%2fdeck.py", "/static/%2e%2e%2fdeck.py", "/static/%2e%2e/deck.py",
              "/static/..%2f..%2f..%2fpyproject.toml", "/%2e%2e%2f%2e%2e%2fpyproject.toml", "/../../etc/passwd",
              "/static/%2fetc%2fpasswd", "/card/poker/en/front/..%2f..%2fweathervane.toml",
              "/card/..%2f..%2f/en/front/sun-1.png", "/card/poker/en/..%2ffront/sun-1.png",
              "/card/poker/en/front/%2e%2e%2fback.png", "/rulebook/..%2f1.png", "/weathervane/cards.csv",
              "/static/studio.js/../../cli/studio.py", "/static/index.html%00.js")


@pytest.mark.parametrize("path", TRAVERSALS)
def test_a_path_out_of_what_the_studio_serves_is_not_found(studio, path):
    status, body = request(studio.port, "GET", path)
    assert status in (404, 405), (path, status)
    assert b"sun-1" not in body and b"import" not in body and b"root:" not in body


def test_the_studio_serves_its_own_assets_and_the_cards(studio):
    for path in ("/", "/static/studio.js", "/static/studio.css", "/card/poker/en/front/sun-1.png",
                 "/card/bridge/ru/back/rain-10.png", "/card/60x90/en/front/sun-1.png"):
        assert request(studio.port, "GET", path)[0] == 200, path
    assert request(studio.port, "GET", "/card/poker/de/front/sun-1.png")[0] == 404
    assert request(studio.port, "GET", "/card/poker/en/front/no-such-card.png")[0] == 404


@pytest.mark.parametrize("headers", [{}, {"X-Studio-Token": "guess"}, {"X-Studio-Token": ""}])
def test_every_call_needs_the_pages_token(studio, deck_folder, headers):
    body = json.dumps({"lang": "en"}).encode()
    for name in ("sheets", "export", "rulebook"):
        status, _ = request(studio.port, "POST", f"/api/{name}", {**headers, "Content-Type": "application/json"}, body)
        assert status == 403, name
    assert request(studio.port, "GET", "/api/deck", headers)[0] == 403
    assert not (deck_folder / "output" / "weathervane-rules-en.pdf").exists()


def test_a_file_is_written_only_by_a_post(studio):
    token = token_of(studio.port)
    assert request(studio.port, "GET", "/api/sheets?lang=en", {"X-Studio-Token": token})[0] == 405


def test_the_studio_answers_only_to_its_own_host_names(studio):
    for host in ("evil.example", "127.0.0.1.evil.example", "localhost.evil.example", "192.168.1.2"):
        status, _ = request(studio.port, "GET", "/", {"Host": f"{host}:{studio.port}"})
        assert status == 400, host
    assert request(studio.port, "GET", "/", {"Host": f"localhost:{studio.port}"})[0] == 200


def test_an_export_writes_its_folder_and_says_the_preflight_verdict(studio, deck_folder):
    token = token_of(studio.port)
    body = json.dumps({"target": "tts", "lang": "en", "size": "poker"}).encode()
    status, data = request(studio.port, "POST", "/api/export", {"X-Studio-Token": token,
                                                                "Content-Type": "application/json"}, body)
    assert status == 200, data
    answer = json.loads(data)
    assert answer["path"] == "output/weathervane-tts-en/"
    assert answer["passed"] is True
    assert answer["lines"][-1].startswith("PASS output/weathervane-tts-en")
    assert (deck_folder / "output" / "weathervane-tts-en").is_dir()


def test_the_rulebook_comes_as_pictures_of_its_pages(studio, deck_folder):
    token = token_of(studio.port)
    status, data = request(studio.port, "POST", "/api/rulebook", {"X-Studio-Token": token,
                                                                  "Content-Type": "application/json"}, b'{"lang": "ru"}')
    assert status == 200, data
    answer = json.loads(data)
    assert (deck_folder / answer["path"]).read_bytes().startswith(b"%PDF")
    assert answer["pages"]
    status, picture = request(studio.port, "GET", answer["pages"][0])
    assert status == 200 and picture.startswith(b"\x89PNG")


def test_a_built_in_game_has_its_exact_figures_beside_the_cards(tmp_path):
    started = Studio(tmp_path, "diamoniak", "--port", "0")
    try:
        token = token_of(started.port)
        status, data = request(started.port, "GET", "/api/figures", {"X-Studio-Token": token})
        assert status == 200, data
        told = subprocess.run([sys.executable, "-m", "toolkit", "odds"], cwd=tmp_path, capture_output=True, text=True)
        assert json.loads(data)["lines"] == told.stdout.splitlines()
    finally:
        assert started.stop() == 130


def test_a_folder_names_its_catalogue(tmp_path):
    from toolkit.errors import UserError
    from toolkit.studio.deck import find_deck

    shutil.copytree(EXAMPLE, tmp_path / "deck")
    assert find_deck(str(tmp_path / "deck"), None, None) == (None, str(tmp_path / "deck" / "weathervane.toml"))
    assert find_deck("palaces", None, None) == ("palaces", None)
    (tmp_path / "deck" / "weathervane.toml").unlink()
    assert find_deck(str(tmp_path / "deck"), None, None) == (None, str(tmp_path / "deck" / "cards.csv"))
    shutil.copy(tmp_path / "deck" / "cards.csv", tmp_path / "deck" / "more.csv")
    with pytest.raises(UserError, match="holds 2 catalogues"):
        find_deck(str(tmp_path / "deck"), None, None)


def test_a_port_in_use_is_one_line_and_status_2(tmp_path):
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    try:
        port = taken.getsockname()[1]
        told = subprocess.run([sys.executable, "-m", "toolkit", "studio", "diamoniak", "--port", str(port),
                               "--no-browser"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    finally:
        taken.close()
    assert told.returncode == 2
    assert told.stderr.startswith(f"toolkit: error: --port {port}: cannot listen on 127.0.0.1:{port}")
    assert len(told.stderr.splitlines()) == 1


@pytest.mark.parametrize("args, said", [
    (["no-such-deck"], "no-such-deck: no such file or folder, nor a game"),
    (["palaces", "--game", "diamoniak"], "palaces: give the deck once"),
    (["--port", "70000"], "--port"),
    (["palaces", "--lang", "de"], "--lang de: 'palaces.toml' has no such language (its languages: en, ru)"),
])
def test_a_mistake_on_the_command_line_is_one_line_and_status_2(tmp_path, args, said):
    told = subprocess.run([sys.executable, "-m", "toolkit", "studio", *args, "--no-browser"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert told.returncode == 2
    assert told.stderr.startswith("toolkit: error: ") and said in told.stderr
    assert len(told.stderr.splitlines()) == 1


def test_the_studio_listens_on_the_loopback_address_only():
    from toolkit.studio.server import bind

    sock, url = bind(0)
    try:
        assert sock.getsockname()[0] == "127.0.0.1"
        assert url == f"http://127.0.0.1:{sock.getsockname()[1]}/"
    finally:
        sock.close()


def test_a_deck_from_a_url_is_polled_and_a_change_at_the_server_shows_on_the_page(browser, tmp_path, monkeypatch):
    """The published sheet changes at its server: the studio asks again every --poll seconds (a conditional
    request) and the open page shows the renamed card without a reload."""
    from test_remote_deck import Server, sheet_alone

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    server = Server()
    first = sheet_alone()
    url = server.route("/pub?output=csv", first, etag='"1"')
    started = Studio(tmp_path, url, "--port", "0", "--poll", "0.5")
    opened = browser.new_page()
    try:
        opened.goto(started.url)
        opened.wait_for_function("document.querySelector('[data-card=\"sun-2\"]')?.title === 'Sun 2'", timeout=60_000)
        loaded = opened.evaluate("window.studioStarted")
        server.route("/pub?output=csv", first.replace(b"sun-2,Sun 2,", b"sun-2,Breeze,"), etag='"2"')
        opened.wait_for_function("document.querySelector('[data-card=\"sun-2\"]').title === 'Breeze'",
                                 timeout=SAVE_WAIT + 5_000)
        assert opened.evaluate("window.studioStarted") == loaded  # the same page: no reload
        assert any(headers.get("If-None-Match") == '"1"' for headers in server.headers_of("/pub?output=csv"))
    finally:
        opened.close()
        assert started.stop() == 130
        server.stop()
