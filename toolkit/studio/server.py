"""The studio's web server: the page, its assets, the card pictures, the JSON the page calls, and the
server-sent events that tell the page what a save changed.

It listens on 127.0.0.1 only and answers only to the Host names 127.0.0.1 and localhost (a web page
elsewhere cannot reach it through a name of its own that points here). It serves what it draws and
its own three files by name, never a path of the disk. Every ``/api/`` call carries the token the page
got inside it (the ``X-Studio-Token`` header, which another site's page cannot send), and the ones that
write files are POSTs: without the token, or with another, the answer is 403.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import socket
import threading
from importlib import resources

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from toolkit.errors import UserError
from toolkit.studio import actions
from toolkit.studio.deck import Deck

HOST = "127.0.0.1"
HOSTS = ["127.0.0.1", "localhost"]
ASSETS = {"studio.js": "text/javascript; charset=utf-8", "studio.css": "text/css; charset=utf-8"}
TOKEN_HEADER = "x-studio-token"
PING_S = 1.0  # an open event stream says something this often (and notices a closing server)
NO_STORE = {"Cache-Control": "no-store"}


def bind(port: int) -> tuple[socket.socket, str]:
    """A socket listening on 127.0.0.1:``port`` (0: any free port) and the page's address."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind((HOST, port))
        sock.listen(64)
    except OSError as err:
        sock.close()
        raise UserError(f"--port {port}: cannot listen on {HOST}:{port}: {err.strerror or err} "
                        "(another program may use it: try another port, or --port 0 for any free one)") from None
    return sock, f"http://{HOST}:{sock.getsockname()[1]}/"


def run(app: Starlette, sock: socket.socket) -> None:
    """Serve ``app`` on ``sock`` until Ctrl-C (uvicorn then ends the open requests and raises it again)."""
    import uvicorn

    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=1,
                                           access_log=False))
    app.state.server = server
    server.run(sockets=[sock])


def make_app(deck: Deck, size: str, lang: str | None = None, token: str | None = None) -> Starlette:
    """The studio's web application for ``deck``, the page first showing cards of ``size`` (``--card``)
    in ``lang`` (``--lang``; None: the deck's first language)."""
    token = token or secrets.token_urlsafe(24)
    clients: set[asyncio.Queue] = set()
    loop: dict = {}
    rulebook_pages: list[bytes] = []
    pages_lock = threading.Lock()

    def told(event: dict) -> None:  # from the watching thread
        if "loop" in loop:
            loop["loop"].call_soon_threadsafe(lambda: [queue.put_nowait(event) for queue in list(clients)])

    deck.listeners.append(told)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        loop["loop"] = asyncio.get_running_loop()
        yield

    def card_mm_of(text: str):
        from toolkit.cards.render import parse_card_size

        return parse_card_size(text or size, "card size")

    def lang_of(text: str | None) -> str:
        langs = deck.catalogue.langs
        if text is None or text == "":
            return langs[0]
        if text not in langs:
            raise UserError(f"language {text}: the deck has no such language (its languages: {', '.join(langs)})")
        return text

    async def page(request: Request) -> Response:
        html = (resources.files("toolkit.studio") / "static" / "index.html").read_text(encoding="utf-8")
        settings = json.dumps({"token": token, "size": size, "lang": lang}).replace("<", "\\u003c")
        return HTMLResponse(html.replace("{{settings}}", settings), headers=NO_STORE)

    async def asset(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in ASSETS:
            return Response("Not found", 404)
        body = (resources.files("toolkit.studio") / "static" / name).read_bytes()
        return Response(body, media_type=ASSETS[name], headers=NO_STORE)

    def card(request: Request) -> Response:
        params = request.path_params
        if params["side"] not in ("front", "back") or not params["file"].endswith(".png"):
            return Response("Not found", 404)
        try:
            image = deck.image(card_mm_of(params["size"]), lang_of(params["lang"]), params["side"],
                               params["file"].removesuffix(".png"))
        except UserError:
            image = None
        if image is None:
            return Response("Not found", 404)
        # the address carries the picture's digest (?v=): a changed card has a new address
        return Response(image, media_type="image/png", headers={"Cache-Control": "private, max-age=31536000"})

    def rulebook_page(request: Request) -> Response:
        number = request.path_params["number"]
        with pages_lock:
            if not number.isdigit() or not 1 <= int(number) <= len(rulebook_pages):
                return Response("Not found", 404)
            return Response(rulebook_pages[int(number) - 1], media_type="image/png", headers=NO_STORE)

    async def events(request: Request) -> Response:
        queue: asyncio.Queue = asyncio.Queue()
        clients.add(queue)

        async def stream():
            try:
                yield "retry: 1000\n\n"
                while not getattr(getattr(request.app.state, "server", None), "should_exit", False):
                    try:
                        event = await asyncio.wait_for(queue.get(), PING_S)
                    except asyncio.TimeoutError:
                        yield ": ping\n\n"
                        continue
                    yield f"event: deck\ndata: {json.dumps(event)}\n\n"
            finally:
                clients.discard(queue)

        return StreamingResponse(stream(), media_type="text/event-stream", headers=NO_STORE)

    def api(name: str, handler, method: str = "GET") -> Route:
        """``/api/NAME``: the token checked, ``handler(query)`` run in a worker thread, its answer as JSON,
        a user's mistake as its error line."""
        async def endpoint(request: Request) -> Response:
            given = request.headers.get(TOKEN_HEADER, "")
            if not secrets.compare_digest(given.encode(), token.encode()):
                return JSONResponse({"error": "this page's token is missing or wrong: reload the page"}, 403)
            query = dict(request.query_params)
            if method == "POST":
                try:
                    body = json.loads(await request.body() or b"{}")
                except ValueError:
                    return JSONResponse({"error": "the request is not JSON"}, 400)
                query = body if isinstance(body, dict) else {}
            try:
                answer = await run_in_threadpool(handler, {key: str(value) for key, value in query.items()})
            except UserError as err:
                return JSONResponse({"error": f"toolkit: error: {err}"}, 400)
            return JSONResponse(answer, headers=NO_STORE)
        return Route(f"/api/{name}", endpoint, methods=[method])

    def whole(query: dict, name: str, default: int, low: int, high: int) -> int:
        text = query.get(name, "").strip() or str(default)
        if not text.isascii() or not text.isdigit() or not low <= int(text) <= high:
            raise UserError(f"{name.replace('_', ' ')}: {text!r}: a whole number from {low} to {high}")
        return int(text)

    def deck_state(query):
        from toolkit.cards.render import CARD_SIZES
        from toolkit.print.export import TARGETS

        return {**deck.table(card_mm_of(query.get("size")), lang_of(query.get("lang"))),
                "sizes": list(CARD_SIZES), "targets": list(TARGETS)}

    def summary(query):
        return actions.summary(deck.catalogue, lang_of(query.get("lang")))

    def hand(query):
        from toolkit.catalogue.model import MAX_DECK

        return actions.hand(deck.catalogue, whole(query, "hand", 5, 1, MAX_DECK), query.get("where", ""),
                            whole(query, "at_least", 1, 0, MAX_DECK))

    def figures(query):
        return actions.figures(deck.catalogue)

    def simulate(query):
        return actions.simulation(deck.catalogue)

    def sheets(query):
        return actions.print_sheets(deck.catalogue, lang_of(query.get("lang")), card_mm_of(query.get("size")),
                                    deck.inputs)

    def export(query):
        return actions.export(deck.catalogue, query.get("target", ""), lang_of(query.get("lang")),
                              card_mm_of(query.get("size")), query.get("size") or size)

    def rulebook(query):
        answer, pictures = actions.rulebook(deck.catalogue, lang_of(query.get("lang")), deck.inputs)
        with pages_lock:
            rulebook_pages[:] = pictures
            stamp = secrets.token_hex(4)
        return {**answer, "pages": [f"/rulebook/{n}.png?v={stamp}" for n in range(1, len(pictures) + 1)]}

    routes = [
        Route("/", page),
        Route("/static/{name}", asset),
        Route("/card/{size}/{lang}/{side}/{file}", card),
        Route("/rulebook/{number}.png", rulebook_page),
        Route("/events", events),
        api("deck", deck_state), api("summary", summary), api("hand", hand), api("figures", figures),
        api("simulate", simulate),
        api("sheets", sheets, "POST"), api("export", export, "POST"), api("rulebook", rulebook, "POST"),
    ]
    return Starlette(routes=routes, middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=HOSTS)],
                     lifespan=lifespan)
