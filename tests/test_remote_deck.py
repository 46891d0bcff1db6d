"""A deck from a URL (``--catalogue http://...``): fetched from a real HTTP server on 127.0.0.1 into a
cache under XDG_CACHE_HOME, asked again with its ETag, read from the cache when the server is away,
and every failure one line with status 2."""

from __future__ import annotations

import io
import json
import re
import queue
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import openpyxl
import pytest
from PIL import Image

from toolkit.catalogue import remote

EXAMPLE = Path(__file__).parent.parent / "examples" / "weathervane"
CSV = "text/csv; charset=utf-8"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def sheet_alone() -> bytes:
    """examples/weathervane/cards.csv as a deck of its own: its colours are the TOML's, so a field here."""
    text = (EXAMPLE / "cards.csv").read_text(encoding="utf-8")
    return text.replace("copies,colour,", "copies,weather,", 1).encode("utf-8")


def xlsx_bytes(rows: list[list]) -> bytes:
    book = openpyxl.Workbook()
    for row in rows:
        book.active.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


class Server:
    """A local HTTP server whose answers the test sets per path (query included), and which keeps the
    headers of every request it was sent."""

    def __init__(self):
        self.routes: dict[str, dict] = {}
        self.seen: list[tuple[str, dict]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                server.seen.append((self.path, dict(self.headers)))
                route = server.routes.get(self.path)
                if route is None:
                    self.send_error(404)
                    return
                time.sleep(route.get("delay", 0))
                etag = route.get("etag")
                if etag is not None and self.headers.get("If-None-Match") == etag:
                    self.send_response(304)
                    self.send_header("ETag", etag)
                    self.end_headers()
                    return
                self.send_response(route.get("status", 200))
                body = route.get("body", b"")
                for name, value in route.get("headers", {}).items():
                    self.send_header(name, value)
                if etag is not None:
                    self.send_header("ETag", etag)
                if route.get("length", True):
                    self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        class Quiet(ThreadingHTTPServer):
            def handle_error(self, request, client_address):
                pass  # a client that stopped reading (a body too large): nothing to say

        self.httpd = Quiet(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def route(self, path: str, body: bytes = b"", content_type: str | None = CSV, **options) -> str:
        headers = dict(options.pop("headers", {}))
        if content_type is not None:
            headers["Content-Type"] = content_type
        self.routes[path] = {"body": body, "headers": headers, **options}
        return self.url(path)

    def headers_of(self, path: str) -> list[dict]:
        return [headers for seen, headers in self.seen if seen == path]

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server():
    running = Server()
    yield running
    running.stop()


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv(remote.TIMEOUT_ENV, raising=False)
    return tmp_path / "cache" / "toolkit" / "decks"


def error(result) -> str:
    assert result.exit_code == 2 and result.stdout == "", (result.exit_code, result.stdout, result.stderr)
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr, result.stderr
    return result.stderr.removeprefix("toolkit: error: ").rstrip("\n")


def deck(run, *args: str) -> dict:
    result = run("catalogue", "--json", *args)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_a_published_csv_without_a_suffix_is_fetched_once_then_asked_again_with_its_etag(run, server, cache):
    url = server.route("/pub?output=csv", sheet_alone(), content_type=CSV, etag='"v1"')
    first = deck(run, "--catalogue", url)
    assert first["game"] == "pub" and first["total"] == 40  # named by the URL path's last part
    assert "If-None-Match" not in server.headers_of("/pub?output=csv")[0]
    second = deck(run, "--catalogue", url)
    assert second == first
    assert server.headers_of("/pub?output=csv")[1]["If-None-Match"] == '"v1"'  # and the server answered 304
    (folder,) = cache.iterdir()
    assert sorted(p.name for p in folder.iterdir()) == ["headers.json", "pub.csv"]
    assert json.loads((folder / "headers.json").read_text())["etag"] == '"v1"'


def test_the_kind_comes_from_the_query_the_content_type_or_the_bytes(run, server):
    csv = server.route("/export?format=csv&gid=0", sheet_alone(), content_type="application/octet-stream")
    assert deck(run, "--catalogue", csv)["total"] == 40
    rows = [["name", "copies", "value"], ["Ace", 2, 11], ["King", 3, 4]]
    named = server.route("/d/abc/pub?output=xlsx", xlsx_bytes(rows), content_type=XLSX,
                         headers={"Content-Disposition": "attachment; filename=\"Four Suits.xlsx\""})
    found = deck(run, "--catalogue", named)
    assert (found["game"], found["total"]) == ("four-suits", 5)  # named by Content-Disposition
    bare = server.route("/download", xlsx_bytes(rows), content_type="application/octet-stream")
    assert deck(run, "--catalogue", bare)["cards"][0]["fields"] == {"value": 11}  # a zip holding xl/: XLSX


def test_a_server_away_or_failing_gives_the_cached_copy_with_a_note(run, server):
    url = server.route("/deck.csv", sheet_alone(), etag='"a"')
    assert deck(run, "--catalogue", url)["total"] == 40
    server.route("/deck.csv", b"", status=503)
    failing = run("catalogue", "--catalogue", url)
    assert failing.exit_code == 0 and "sun-1" in failing.stdout
    assert f"toolkit: note: {url}: cannot be reached (HTTP 503 Service Unavailable); using the copy fetched" \
        in failing.stderr
    server.stop()
    away = run("catalogue", "--catalogue", url)
    assert away.exit_code == 0 and "sun-1" in away.stdout
    notes = [line for line in away.stderr.splitlines() if "cannot be reached" in line]
    assert len(notes) == 1 and re.fullmatch(
        rf"toolkit: note: {re.escape(url)}: cannot be reached \(connection refused\); using the copy fetched "
        r"\d{4}-\d\d-\d\d \d\d:\d\d", notes[0]), notes


def test_never_fetched_and_unreachable_is_one_error(run):
    url = f"http://127.0.0.1:{free_port()}/deck.csv"
    assert error(run("catalogue", "--catalogue", url)) == (
        f"{url}: cannot be reached (connection refused), and it was never fetched before, so there is no copy to use")


def test_a_slow_server_times_out(run, server, monkeypatch):
    monkeypatch.setenv(remote.TIMEOUT_ENV, "0.3")
    url = server.route("/slow.csv", sheet_alone(), delay=1.5)
    assert error(run("catalogue", "--catalogue", url)) == (
        f"{url}: cannot be reached (no answer within 0.3 s), and it was never fetched before, so there is no copy "
        "to use")
    monkeypatch.setenv(remote.TIMEOUT_ENV, "soon")
    assert error(run("catalogue", "--catalogue", url)) == (
        "TOOLKIT_FETCH_TIMEOUT='soon': expected seconds from 0.1 to 600 (or unset it)")


def test_not_found_or_forbidden_is_an_error_even_with_a_copy(run, server):
    url = server.route("/deck.csv", sheet_alone())
    assert deck(run, "--catalogue", url)["total"] == 40
    del server.routes["/deck.csv"]
    assert error(run("catalogue", "--catalogue", url)) == f"{url}: the server answered HTTP 404 Not Found"
    server.route("/deck.csv", b"", status=403)
    assert error(run("catalogue", "--catalogue", url)) == f"{url}: the server answered HTTP 403 Forbidden"


@pytest.mark.parametrize("url", ["file:///etc/passwd", "ftp://127.0.0.1/deck.csv", "gopher://x/deck.csv"])
def test_only_http_and_https_are_fetched(run, url):
    assert error(run("catalogue", "--catalogue", url)) == (
        f"{url}: only http:// and https:// addresses are fetched (a local file: give its path)")


@pytest.mark.parametrize("target", ["file:///etc/passwd", "ftp://127.0.0.1/deck.csv"])
def test_a_redirect_to_another_scheme_is_refused(run, server, target):
    url = server.route("/moved.csv", status=302, headers={"Location": target})
    assert error(run("catalogue", "--catalogue", url)) == (
        f"{url}: the server redirects to {target}: only http:// and https:// addresses are fetched")


def test_a_redirect_to_http_is_followed(run, server):
    server.route("/real.csv", sheet_alone())
    url = server.route("/short", status=302, headers={"Location": "/real.csv"})
    assert deck(run, "--catalogue", url)["game"] == "short"  # named by the address given


@pytest.mark.parametrize("length", [True, False])
def test_a_huge_body_is_one_error(run, server, length):
    url = server.route("/huge.csv", b"name,copies\n" + b"x" * remote.MAX_BYTES, length=length)
    assert error(run("catalogue", "--catalogue", url)) == (
        f"{url}: the file is larger than a deck may be (at most 5 MB)")


def test_a_web_page_is_not_a_deck(run, server):
    url = server.route("/pubhtml", b"<!DOCTYPE html><html><body>Sign in</body></html>", content_type="text/html")
    assert error(run("catalogue", "--catalogue", url)).startswith(f"{url}: the server sent a web page")


def test_a_mistake_in_the_fetched_sheet_names_the_url(run, server):
    url = server.route("/bad.csv", b"name,copies\nAce,many\n")
    assert error(run("catalogue", "--catalogue", url)) == (
        f"{url}: bad.csv: row 2, column \"copies\": expected a whole number from 0 to 500, got 'many'")


def test_user_and_password_are_sent_but_never_shown(run, server):
    url = server.url("/private.csv").replace("://", "://me:secret@")
    message = error(run("catalogue", "--catalogue", url))
    assert message == f"{server.url('/private.csv')}: the server answered HTTP 404 Not Found"
    assert server.headers_of("/private.csv")[0]["Authorization"] == "Basic bWU6c2VjcmV0"


def test_print_cards_and_hand_odds_from_a_url(run, server, tmp_path):
    url = server.route("/pub?output=csv", sheet_alone())
    printed = run("print-cards", "--catalogue", url, "--out", str(tmp_path / "cards.pdf"))
    assert printed.exit_code == 0, printed.stderr
    assert (tmp_path / "cards.pdf").stat().st_size > 1000
    odds = run("odds", "--catalogue", url, "--model", "hand", "--hand", "5", "--at-least", "2",
               "--where", "value=10", "--json")
    assert odds.exit_code == 0, odds.stderr
    assert json.loads(odds.stdout)["chance"] == "97/1406"


def test_the_cached_copy_is_an_input_no_output_may_replace(run, server, cache):
    url = server.route("/deck.csv", sheet_alone())
    deck(run, "--catalogue", url)
    (folder,) = cache.iterdir()
    message = error(run("print-cards", "--catalogue", url, "--out", str(folder / "deck.csv")))
    assert message.startswith(f"--out {folder / 'deck.csv'}: is the catalogue this run reads")


def picture(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (63, 88), (200, 90, 60)).save(path)


def test_pictures_come_from_assets_only(run, server, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    picture(tmp_path / "card_art" / "ace.png")  # ./card_art: a local deck's, never a URL's
    url = server.route("/court.csv", b"name,copies,art\nAce,2,ace.png\nKing,1,ace.png\n")
    out = str(tmp_path / "out.pdf")
    bare = run("print-cards", "--catalogue", url, "--out", out)
    assert bare.exit_code == 0, bare.stderr
    assert (f"toolkit: note: {url}: the deck names pictures (row 2, column \"art\": 'ace.png'), which a deck from a "
            "URL reads from the folder --assets names: the cards are drawn without them") in bare.stderr
    assets = tmp_path / "assets"
    picture(assets / "ace.png")
    with_art = run("print-cards", "--catalogue", url, "--assets", str(assets), "--out", out)
    assert with_art.exit_code == 0 and "drawn without" not in with_art.stderr, with_art.stderr
    assert error(run("print-cards", "--catalogue", url, "--assets", str(tmp_path / "card_art" / "ace.png"),
                     "--out", out)).startswith("print-cards: Invalid value for '--assets'")
    server.route("/court.csv", b"name,copies,art\nAce,2,../card_art/ace.png\n")
    assert error(run("catalogue", "--catalogue", url, "--assets", str(assets))) == (
        f"{url}: court.csv: row 2, column \"art\": art path '../card_art/ace.png' must stay inside the art folder "
        "(no '..')")


def test_assets_are_for_a_url_only(run, tmp_path):
    assert error(run("catalogue", "--catalogue", str(EXAMPLE / "weathervane.toml"), "--assets", str(tmp_path))) == (
        "catalogue: --assets: only for a --catalogue URL (a local deck's files lie in its own folder)")


def test_a_catalogue_toml_from_a_url_reads_its_files_from_assets(run, server, tmp_path):
    assets = tmp_path / "weathervane"
    shutil.copytree(EXAMPLE, assets)
    url = server.route("/games/weathervane.toml", (EXAMPLE / "weathervane.toml").read_bytes(),
                       content_type="text/plain")
    assert error(run("catalogue", "--catalogue", url)) == (
        f"{url}: weathervane.toml: game.layout: 'layout.toml': a deck from a URL reads the files it names from a local "
        "folder: name it with --assets DIR")
    found = deck(run, "--catalogue", url, "--assets", str(assets))
    assert (found["game"], found["total"]) == ("weathervane", 40)
    printed = run("print-cards", "--catalogue", url, "--assets", str(assets), "--out", str(tmp_path / "w.pdf"))
    assert printed.exit_code == 0, printed.stderr


def test_refresh_says_whether_the_deck_changed(server):
    url = server.route("/deck.csv", b"name,copies\nAce,1\n", etag='"1"')
    deck_ = remote.RemoteDeck(url)
    assert deck_.path is None
    assert deck_.refresh() is True and deck_.path.read_bytes() == b"name,copies\nAce,1\n"
    assert deck_.refresh() is False  # 304
    assert server.headers_of("/deck.csv")[1]["If-None-Match"] == '"1"'
    server.route("/deck.csv", b"name,copies\nAce,2\n", etag='"2"')
    assert deck_.refresh() is True and deck_.path.read_bytes() == b"name,copies\nAce,2\n"
    server.stop()
    with pytest.raises(remote.Unreachable):
        deck_.refresh()
    assert deck_.path.read_bytes() == b"name,copies\nAce,2\n"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify, as CI runs it")
def test_watch_asks_the_server_again_and_builds_a_changed_deck(server, tmp_path):
    url = server.route("/deck.csv", b"name,copies\nAce,1\n", etag='"1"')
    out = tmp_path / "deck.pdf"
    process = subprocess.Popen([sys.executable, "-m", "toolkit", "print-cards", "--catalogue", url, "--out", str(out),
                                "--watch"], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line.rstrip("\n")) for line in process.stderr], daemon=True).start()
    try:
        assert lines.get(timeout=120).startswith(f"toolkit: watch: wrote {out}")
        server.route("/deck.csv", b"name,copies\nAce,1\nKing,2\n", etag='"2"')
        rebuilt = lines.get(timeout=120)  # within POLL_S (10 s) and a build
        assert rebuilt.startswith("toolkit: watch: ") and f"{url} changed: wrote" in rebuilt, rebuilt
        assert '"1"' in [headers.get("If-None-Match") for headers in server.headers_of("/deck.csv")]
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=60)
