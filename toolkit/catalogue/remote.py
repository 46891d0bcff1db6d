"""A deck from a URL: ``--catalogue https://...`` fetched into a cache that the loader reads as a file.

A published spreadsheet (Google Sheets' "publish to web" CSV or XLSX link, any CSV, XLSX or ODS on a
web server) or a catalogue TOML is fetched with urllib over http or https only (every other scheme,
also after a redirect, is refused in one line), within ``timeout()`` seconds in all and at most
MAX_BYTES. Its kind comes from the bytes (a zip archive is an XLSX or an ODS by what it holds), and
for text, CSV or TOML, from the Content-Type, Google's ``output=``/``format=`` query, the file name's
suffix, and else from whether the text reads as a catalogue TOML. A web page (Google's sign-in page
of a sheet not published) is refused.

The copy lies in ``$XDG_CACHE_HOME/toolkit/decks/<digest of the URL>/`` (``~/.cache`` by default):
the body under the deck's name (the Content-Disposition file name, else the URL path's last part, else
the host; the kind's suffix added), which gives a sheet alone its game id and title as a local file's
name does, and ``headers.json`` (the URL without its user name and password, the file's name, ETag,
Last-Modified, when fetched). Every run asks again with ``If-None-Match``/``If-Modified-Since``; 304
keeps the copy. Unreachable (refused, no such host, no answer in time, HTTP 408, 429 or 5xx): the copy,
with one note on stderr saying since when; never fetched: one error. Any other answer (404, 403...)
is an error: a deck that was taken away is not printed from an old copy without a word.

A deck from a URL reads nothing else from the disk but the folder ``--assets`` names (its art, backs,
sheet, layout, icons, fonts and texts, with the sandbox of a local deck's folder, ``checks.inside``),
and the art the toolkit ships for its games; without ``--assets`` its cards are drawn without their
pictures and a file it names for the game is refused in one line. The loader asks ``fetched(path)``
whether the file it reads is such a copy.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import re
import time
import zipfile
from pathlib import Path, PurePosixPath
from urllib.parse import parse_qs, unquote, urljoin, urlsplit, urlunsplit

from toolkit.catalogue.checks import printable
from toolkit.catalogue.sheet import MAX_SHEET_BYTES
from toolkit.errors import UserError

MAX_BYTES = MAX_SHEET_BYTES  # the body of a deck from a URL: the limit of a local sheet (5 MB)
TIMEOUT_S = 10.0  # seconds for the whole fetch, unless TIMEOUT_ENV says otherwise
TIMEOUT_ENV = "TOOLKIT_FETCH_TIMEOUT"
TIMEOUT_RANGE = (0.1, 600.0)
META = "headers.json"
KINDS = (".csv", ".xlsx", ".ods", ".toml")
_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]+:/")  # a scheme of two letters or more: C:/ stays a path
_TYPES = {"text/csv": ".csv", "application/csv": ".csv", "text/comma-separated-values": ".csv",
          "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": ".xlsx",
          "application/vnd.oasis.opendocument.spreadsheet": ".ods",
          "application/toml": ".toml", "text/toml": ".toml", "text/x-toml": ".toml"}
_ODS_MIMETYPE = b"application/vnd.oasis.opendocument.spreadsheet"
_ACCEPT = "text/csv, application/vnd.openxmlformats-officedocument.spreadsheetml.sheet, " \
          "application/vnd.oasis.opendocument.spreadsheet, application/toml, */*;q=0.5"
_FETCHED: dict[Path, RemoteDeck] = {}  # the copies fetched in this process, by their resolved path


def is_url(text: str) -> bool:
    """Whether ``--catalogue`` names an address (``https://...``, ``file:/...``) rather than a path."""
    return bool(_URL.match(text))


def shown(url: str) -> str:
    """``url`` for a message: one line, without the ``user:password@`` it may carry."""
    try:
        parts = urlsplit(url)
        url = urlunsplit(parts._replace(netloc=parts.netloc.rpartition("@")[2]))
    except ValueError:
        pass
    return printable(url)


def timeout() -> float:
    """Seconds a fetch may take in all: TIMEOUT_S, or the environment's TOOLKIT_FETCH_TIMEOUT."""
    text = os.environ.get(TIMEOUT_ENV)
    if text is None:
        return TIMEOUT_S
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    low, high = TIMEOUT_RANGE
    if not low <= value <= high:  # also nan
        raise UserError(f"{TIMEOUT_ENV}={printable(text)!r}: expected seconds from {low:g} to {high:g} (or unset it)")
    return value


def cache_root() -> Path:
    """``$XDG_CACHE_HOME/toolkit/decks`` (an absolute XDG_CACHE_HOME; else ``~/.cache``)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        try:
            base = str(Path.home() / ".cache")
        except RuntimeError:
            raise UserError("no cache folder for decks from URLs: set XDG_CACHE_HOME or HOME") from None
    return Path(base) / "toolkit" / "decks"


def fetched(path: str | Path) -> RemoteDeck | None:
    """The deck from a URL whose cached copy ``path`` is (fetched in this process), else None."""
    if not _FETCHED:
        return None
    try:
        return _FETCHED.get(Path(path).resolve())
    except (OSError, RuntimeError, ValueError):
        return None


def fetch(url: str, assets: Path | None = None) -> Path:
    """The cached copy of the deck at ``url``, fetched or confirmed now (offline: the last copy)."""
    return RemoteDeck(url, assets).fetch()


class Unreachable(UserError):
    """The server could not be reached or answered that it cannot serve now: a cached copy may do."""

    def __init__(self, deck: RemoteDeck, reason: str):
        super().__init__(f"{deck.shown}: cannot be reached ({reason})")
        self.reason = reason


class RemoteDeck:
    """A deck at an http(s) URL and its cached copy. ``fetch()`` gives the copy's path for the loader;
    ``refresh()`` asks the server again and says whether the deck changed (for polling)."""

    def __init__(self, url: str, assets: Path | None = None):
        self.shown = shown(url)
        try:
            parts = urlsplit(url)
            host = parts.hostname
        except ValueError as err:
            raise UserError(f"{self.shown}: not a valid address ({printable(str(err))})") from None
        if parts.scheme.lower() not in ("http", "https"):
            raise UserError(f"{self.shown}: only http:// and https:// addresses are fetched (a local file: give "
                            "its path)")
        if not host:
            raise UserError(f"{self.shown}: the address names no host")
        user, _, _ = parts.netloc.rpartition("@")
        self.auth = "Basic " + base64.b64encode(unquote(user).encode()).decode() if user else None
        self.url = urlunsplit(parts._replace(netloc=parts.netloc.rpartition("@")[2], fragment=""))
        self.parts, self.assets = parts, assets
        self.folder = cache_root() / hashlib.sha256(url.encode("utf-8", "surrogateescape")).hexdigest()[:32]

    # --- the cached copy ----------------------------------------------------------------------------

    def meta(self) -> dict | None:
        """What ``headers.json`` says of the copy, None when there is no copy (or it is damaged)."""
        try:
            meta = json.loads((self.folder / META).read_text(encoding="utf-8"))
            name = meta["file"]
            if not isinstance(name, str) or PurePosixPath(name).name != name or not (self.folder / name).is_file():
                return None
            return meta
        except (OSError, ValueError, KeyError, TypeError):
            return None

    @property
    def path(self) -> Path | None:
        """The cached copy of the deck, None before the first fetch."""
        meta = self.meta()
        return None if meta is None else self.folder / meta["file"]

    def fetch(self) -> Path:
        """The cached copy, fetched afresh or confirmed by a conditional GET. When the server cannot
        be reached, the last copy, with one note on stderr saying when it was fetched; with no copy
        (or on any other failure: 404, a web page, too large) one UserError line."""
        try:
            self.refresh()
        except Unreachable as err:
            meta = self.meta()
            if meta is None:
                raise UserError(f"{err}, and it was never fetched before, so there is no copy to use") from None
            from toolkit.fast.notice import say

            stamp = meta.get("fetched")
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(stamp if isinstance(stamp, (int, float)) else 0))
            say(f"{self.shown}: cannot be reached ({err.reason}); using the copy fetched {when}")
        path = self.path
        _FETCHED[path.resolve()] = self
        return path

    def refresh(self) -> bool:
        """Ask the server for the deck again, conditionally (``If-None-Match`` with the copy's ETag,
        ``If-Modified-Since`` with its Last-Modified), and keep what it sends: True when the deck's
        bytes (or its name) changed, False when the server answered 304 or sent the same bytes.

        For a poller (the studio's ``--poll SECONDS``): call it every so many seconds and rebuild on
        True. It raises ``Unreachable`` (a UserError) when the server cannot be reached, or answers
        408, 429 or 5xx, and a UserError for any other failure (404, 403, a web page, a body larger
        than MAX_BYTES, another scheme after a redirect); the copy is then left as it was."""
        meta = self.meta()
        request = self._request(meta)
        body, headers, final = self._get(request, meta is not None)
        if body is None:  # 304: the copy stands
            self._write_meta({**meta, "fetched": time.time()})
            return False
        kind = self._kind(body, headers, final)
        name = self._name(headers, kind)
        old = None if meta is None else self.folder / meta["file"]
        try:
            changed = old is None or old.name != name or old.read_bytes() != body
        except OSError:
            changed = True
        from toolkit.files import write_atomic

        if changed:
            write_atomic(self.folder / name, body)
        self._write_meta({"url": self.shown, "file": name, "etag": headers.get("ETag"),
                          "last_modified": headers.get("Last-Modified"), "fetched": time.time()})
        if old is not None and old.name != name:
            old.unlink(missing_ok=True)
        return changed

    def _write_meta(self, meta: dict) -> None:
        from toolkit.files import write_atomic

        write_atomic(self.folder / META, json.dumps(meta, indent=1).encode("utf-8"))

    # --- the request --------------------------------------------------------------------------------

    def _request(self, meta: dict | None):
        import urllib.request

        from toolkit import __version__

        request = urllib.request.Request(self.url, headers={"Accept": _ACCEPT, "User-Agent": f"toolkit/{__version__}"})
        if meta is not None:
            if meta.get("etag"):
                request.add_header("If-None-Match", meta["etag"])
            if meta.get("last_modified"):
                request.add_header("If-Modified-Since", meta["last_modified"])
        if self.auth:
            request.add_unredirected_header("Authorization", self.auth)  # not sent on to another host
        return request

    def _get(self, request, cached: bool):
        """The body, headers and final URL of the answer; (None, None, None) for a 304 to a copy we have."""
        import http.client
        import socket
        import ssl
        import urllib.error

        limit = timeout()
        start = time.monotonic()
        try:
            with _opener(self).open(request, timeout=limit) as response:
                length = response.headers.get("Content-Length", "")
                if length.strip().isdigit() and int(length) > MAX_BYTES:
                    raise self._too_large()
                chunks, size = [], 0
                while chunk := response.read1(65536):
                    size += len(chunk)
                    if size > MAX_BYTES:
                        raise self._too_large()
                    if time.monotonic() - start > limit:
                        raise TimeoutError
                    chunks.append(chunk)
                return b"".join(chunks), response.headers, response.url
        except urllib.error.HTTPError as err:
            err.close()
            if err.code == 304 and cached:
                return None, None, None
            answer = f"HTTP {err.code} {printable(str(err.reason or ''))}".rstrip()
            if err.code in (408, 429) or err.code >= 500:
                raise Unreachable(self, answer) from None
            raise UserError(f"{self.shown}: the server answered {answer}") from None
        except urllib.error.URLError as err:
            reason = err.reason
            if isinstance(reason, (ssl.SSLError, ssl.CertificateError)):
                raise UserError(f"{self.shown}: no secure connection: {printable(str(reason))}") from None
            raise Unreachable(self, _why(reason, limit)) from None
        except (TimeoutError, socket.timeout):
            raise Unreachable(self, _why(TimeoutError(), limit)) from None
        except (OSError, http.client.HTTPException) as err:
            raise Unreachable(self, _why(err, limit)) from None

    def _too_large(self) -> UserError:
        return UserError(f"{self.shown}: the file is larger than a deck may be (at most {MAX_BYTES // 1_000_000} MB)")

    # --- what was fetched ---------------------------------------------------------------------------

    def _kind(self, body: bytes, headers, final: str) -> str:
        """The deck's kind, a suffix of KINDS: by the bytes for a zip archive (XLSX or ODS), else by
        the Content-Type, the ``output=``/``format=`` query, the file name, and the text itself."""
        content_type = (headers.get("Content-Type") or "").split(";")[0].strip().lower()
        start = body[:512].lstrip().lower()
        if content_type in ("text/html", "application/xhtml+xml") or start.startswith((b"<!doctype html", b"<html")):
            raise UserError(f"{self.shown}: the server sent a web page, not a sheet or a catalogue (a Google "
                            "sheet: publish it to the web as CSV or XLSX and give that link)")
        if body.startswith(b"PK\x03\x04"):
            try:
                with zipfile.ZipFile(io.BytesIO(body)) as archive:
                    names = set(archive.namelist())
                    if "mimetype" in names and archive.read("mimetype").strip() == _ODS_MIMETYPE:
                        return ".ods"
            except (zipfile.BadZipFile, OSError, ValueError, KeyError):
                names = set()
            if "xl/workbook.xml" in names:
                return ".xlsx"
            raise UserError(f"{self.shown}: the server sent a zip archive that is not an XLSX or ODS sheet")
        query = parse_qs(self.parts.query)
        hints = [_TYPES.get(content_type), *(f".{value.lower()}" for key in ("output", "format")
                                             for value in query.get(key, ()))]
        names = (_disposition(headers), self._path_name(), PurePosixPath(urlsplit(final or "").path).name)
        hints += [Path(name).suffix.lower() for name in names if name]
        hint = next((suffix for suffix in hints if suffix in (".csv", ".toml")), None)
        if hint is not None:
            return hint
        import tomllib

        try:
            doc = tomllib.loads(body.decode("utf-8-sig"))
        except (UnicodeDecodeError, tomllib.TOMLDecodeError, ValueError, RecursionError):
            return ".csv"
        return ".toml" if "game" in doc or "sheet" in doc else ".csv"

    def _path_name(self) -> str:
        return unquote(PurePosixPath(self.parts.path).name)

    def _name(self, headers, kind: str) -> str:
        """The copy's file name, which names the deck: the Content-Disposition file name, else the
        URL path's last part, else the host, with the kind's suffix (``pub`` -> ``pub.csv``)."""
        name = _disposition(headers) or self._path_name() or self.parts.hostname or "deck"
        name = re.sub(r'[\x00-\x1f\x7f/\\:*?"<>|]+', "-", PurePosixPath(name.replace("\\", "/")).name).strip(" .-")
        if Path(name).suffix.lower() in KINDS:
            name = name[:-len(Path(name).suffix)]
        return (name[:100].strip(" .-") or "deck") + kind


def _disposition(headers) -> str:
    """The file name a Content-Disposition header gives (``filename*=UTF-8''...`` too), or ''."""
    try:
        return (headers.get_filename() or "") if headers is not None else ""
    except (ValueError, TypeError, LookupError):
        return ""


def _why(reason, limit: float) -> str:
    """Why a server could not be reached, in a few words."""
    import socket

    if isinstance(reason, (TimeoutError, socket.timeout)) or "timed out" in str(reason):
        return f"no answer within {limit:g} s"
    if isinstance(reason, ConnectionRefusedError):
        return "connection refused"
    if isinstance(reason, socket.gaierror):
        return "no such host, or no name service"
    if isinstance(reason, OSError) and reason.strerror:
        return printable(reason.strerror)
    return printable(str(reason)) or type(reason).__name__


def _opener(deck: RemoteDeck):
    """urllib's opener for http and https only: a redirect elsewhere (ftp:, file:) is refused."""
    import urllib.request

    class Redirect(urllib.request.HTTPRedirectHandler):
        def http_error_302(self, req, fp, code, msg, headers):
            target = urljoin(req.full_url, headers.get("Location") or headers.get("URI") or "")
            if urlsplit(target).scheme.lower() not in ("http", "https"):
                fp.close()
                raise UserError(f"{deck.shown}: the server redirects to {shown(target)}: only http:// and "
                                "https:// addresses are fetched")
            return super().http_error_302(req, fp, code, msg, headers)

        http_error_301 = http_error_303 = http_error_307 = http_error_308 = http_error_302

    opener = urllib.request.OpenerDirector()
    for handler in (urllib.request.ProxyHandler(), urllib.request.HTTPHandler(), urllib.request.HTTPSHandler(),
                    urllib.request.HTTPDefaultErrorHandler(), Redirect(), urllib.request.HTTPErrorProcessor()):
        opener.add_handler(handler)
    return opener
