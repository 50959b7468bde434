"""Request limits for a public Space: an ASGI layer in front of Gradio's routes, and the queue's settings.

Wiring (two lines in app.py; docs/reliability.md says what each limit holds, with its figures):

    demo = build_demo()
    apply_limits(demo)                                   # queue size, concurrency, fair order
    ...
    demo.launch(**launch_kwargs(), server_port=..., ...)  # max_file_size and the ASGI layer below

What the layer (`RequestLimits`) does, before Gradio parses anything:
* a request body over `Limits.max_body_bytes` (64 KiB; an upload: `max_upload_bytes`) is answered 413 with
  JSON `{"detail": ...}` (Gradio's page shows `detail` as the event's error) without being read: the
  Content-Length is checked first, and a chunked body is counted as it arrives;
* `/gradio_api/file=<http(s) URL>` is answered 403: Gradio would fetch any public URL for any visitor;
* a join (`/gradio_api/queue/join`, `/gradio_api/call/<name>`) that carries NaN or Infinity (Python's JSON
  accepts them; JSON does not), or a slider value that is not a number, is answered 422 with a message that
  names the value;
* joins are rate limited per session and per client address (the peer's; on a Space the proxy's entry), a token
  bucket, and an address brings at most `sessions_per_address` new session hashes per `session_window_s`;
* a "heavy" event (one of `Limits.heavy`, the concurrency groups that run a model) is admitted only while the
  same session has fewer than `per_function` (2) events of that function waiting or running (one running and
  the next: two inputs of one view moved together send two; tests/e2e/test_browser.py's query-key test), at most `per_session` heavy events in all (a
  language switch redraws every view at once) and `per_address` per client address; else 429.

The layer also drops a page's heavy event once its page has had no /queue/data stream open for
`Limits.unheard_s` (10 s): a client that joins and never listens (Gradio itself drops the events of a stream that
closes, not of one never opened), so nobody's run trains for no one (tests/e2e/test_unheard.py).

`apply_limits` also makes Gradio's per-session state lean (`ui.gradio_patches.lean_sessions`: no copy of every block's config
for each new session, 0.74 MiB and 24 ms each in this app, nor of every output's last value, ~3.5 MiB for a
256-token /fill_mask call). What it does to the queue: `max_size` (Gradio answers
503 "busy" past it), the default concurrency limit, and a fair order, round robin on two levels: by client address (the
peer's; on a Space the proxy's entry), then by session within an address (a call without a session is its address's
own). A new event waits behind at most one event of each other address, so one address's backlog (30 heavy events
of one session, or 48 of 48 fresh sessions) delays another visitor by about one event, and a class of 40 behind one
address shares that address's turns in rounds; among events of the same rank, a cheap event (by Gradio's average time of its function)
goes before expensive ones, each of which lets cheap ones go first for at most `Limits.max_skipped_s` (5 s) of
their average time (tests/e2e/test_cheap_first.py). Everything here that reaches into Gradio's internals (the
sessions, the queue's order, its waiting events and undelivered messages) is in ui/gradio_patches.py, each piece
checked against the installed Gradio by tests/ui/test_gradio_patches.py; tests/e2e/test_limits.py pins the behaviour
over real HTTP.

Messages follow the visitor's Accept-Language (Korean or English), from explorer.i18n ("limit.*").
"""
from __future__ import annotations

import asyncio
import itertools
import json
import logging
import math
import os
import time
from collections import Counter
from dataclasses import dataclass, field
from urllib.parse import parse_qs

from explorer import i18n
from explorer.serve.cache import trim_heap
from ui.gradio_patches import (ADDRESS, KEY, CheapFirst, Dropped, check_gradio_version, dropped_result, end_event,
                               fair_order, forget_finished_sessions, is_result, lean_sessions, pending_messages, queue_of,
                               queued_events, session_of, take_messages, waiting_messages)

API = "/gradio_api/"
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Limits:
    max_body_bytes: int = 64 * 1024  # any request body (a 2,000-character text is ~8 KB as JSON)
    max_upload_bytes: int = 64 * 1024  # the app has no upload input: Gradio's /upload serves nothing of ours
    queue_max_size: int = 96  # events waiting in all queues; past it Gradio answers "busy" (503)
    concurrency: int = 2  # default_concurrency_limit: 2 vCPUs, one torch thread per request
    heavy: tuple[str, ...] = ("models", "live-training", "hub-load")  # concurrency groups that run a model
    # A language switch sends every view's redraw at once (25 events, 19 of them heavy, in the app of 28 Nov):
    # the caps and the burst leave room for that (tests/ui/test_page_limits.py counts them in the app).
    per_session: int = 32  # heavy events waiting or running for one session (at most `per_function` per function)
    per_function: int = 2  # one running and the page's next (two inputs of one view moved at once: query-key)
    # heavy events waiting or running for one client address (the peer; behind the Space's proxy its entry): half
    # the queue, so one address cannot fill it, and above 40 so a class of 40 behind one NAT, a press each, fits
    per_address: int = 48
    sessions_per_address: int = 160  # new session hashes one address may bring, a burst ...
    session_window_s: float = 600.0  # ... refilled over this time (a class of 40 reloading four times fits)
    rate: float = 5.0  # joins per second per session, sustained ...
    burst: int = 60  # ... after a burst this size
    address_rate: float = 40.0  # the same per client address
    address_burst: int = 240
    # GETs per address besides static files (the page, /config, /info, streams, ...), a bucket as for joins; the
    # page and /config are answered from a cache of `page_cache_s` (82 and 54 ms of CPU each otherwise)
    get_rate: float = 20.0
    get_burst: int = 400
    page_cache_s: float = 60.0
    trust_proxy: bool | None = None  # read X-Forwarded-For; None: only on a Hugging Face Space (SPACE_ID set)
    # proxies in front of this server that append to X-Forwarded-For: the Space's own, and Gradio's Node server
    # under SSR (GRADIO_SSR_MODE=true); None counts them so. Check on the Space: a wrong count keys every visitor
    # by one address (the per-address caps then bind all visitors together).
    trusted_hops: int | None = None
    max_keys: int = 20_000  # rate-limit buckets and tickets kept (oldest dropped past it)
    # Cheap first: an event whose function takes on average `cheap_ratio` times less than a waiting event's (Gradio's
    # measured average) goes before it, among the events of the same rank; a waiting event lets cheap ones go first
    # until their average times add up to `max_skipped_s` (charged to the event a cheap one is put in front of: one
    # further back is delayed too, uncharged, so its delay may exceed this by that much). 20 pages pressing rollout
    # kept another visitor's 12-word /translate waiting behind them (bench/limits.py --clients 20, docs/reliability.md).
    cheap_ratio: float = CheapFirst.cheap_ratio
    max_skipped_s: float = CheapFirst.max_skipped_s
    # A page's event waiting or running while its page has no /queue/data stream open (it never opened one, or
    # its tab closed) for `unheard_s` seconds is dropped: nobody would see its result (Gradio itself drops the
    # waiting events of a stream that closes, but not those of a client that never opened one).
    unheard_s: float = 10.0
    # A result (a page's or a plain /call/ caller's) nobody has read this long after it was ready is replaced by a
    # short error: 30 unread /generate results held +854 MiB for minutes (bench/hostile.py's unread). Gradio keeps
    # them until 2,000 newer sessions push them out.
    undelivered_s: float = 30.0
    log_every_s: float = 10.0  # a closed stream's error: one log line at most this often, with the count since

    @property
    def behind_proxy(self) -> bool:
        return bool(os.environ.get("SPACE_ID")) if self.trust_proxy is None else self.trust_proxy

    @property
    def hops(self) -> int:
        if self.trusted_hops is not None:
            return max(1, self.trusted_hops)
        return 1 + (os.environ.get("GRADIO_SSR_MODE", "").lower() == "true")


LIMITS = Limits()


def apply_limits(demo, limits: Limits = LIMITS):
    """Configure `demo`'s queue for a public server, once, after the app's own `demo.queue(...)` (which it
    replaces: Gradio builds a new queue object on every call): `max_size`, `default_concurrency_limit`, and
    the fair order (round robin by address, then by session: `FairList`) of every concurrency group. Returns demo."""
    # api_open=False: a queued event is not callable on /gradio_api/run/<name> (past the queue and its caps), as
    # Gradio already does on a Space; the page's own unqueued events (queue=False) still are
    check_gradio_version()  # a warning in the log when the installed Gradio is not the one the patches fit
    demo.queue(max_size=limits.queue_max_size, default_concurrency_limit=limits.concurrency, api_open=False)
    lean_sessions()
    fair_order(demo, limits)
    demo._attn_limits = limits
    return demo


def launch_kwargs(limits: Limits = LIMITS) -> dict:
    """Keyword arguments for `demo.launch`: the upload size limit and the ASGI layer (FastAPI's `middleware`,
    passed through Gradio's `app_kwargs`)."""
    from starlette.middleware import Middleware

    return {"max_file_size": limits.max_upload_bytes, "enable_monitoring": False,  # /monitoring logs its key's URL
            "app_kwargs": {"middleware": [Middleware(RequestLimits, limits=limits)]}}


# ----------------------------------------------------------------------------- the ASGI layer


class Refused(Exception):
    def __init__(self, status: int, key: str, retry_after: float | None = None, **fields):
        super().__init__(key)
        self.status, self.key, self.fields, self.retry_after = status, key, fields, retry_after


def _lang(scope) -> str:
    for name, value in scope.get("headers") or ():
        if name == b"accept-language":
            first = value.decode("latin-1").split(",")[0].strip().lower()
            return "ko" if first.startswith("ko") else "en"
    return "en"


def _header(scope, name: bytes) -> str | None:
    for k, v in scope.get("headers") or ():
        if k == name:
            return v.decode("latin-1")
    return None


class _Bucket:
    __slots__ = ("tokens", "at")

    def __init__(self, burst: float, now: float):
        self.tokens, self.at = float(burst), now

    def take(self, rate: float, burst: float, now: float) -> float:
        """0 when a token was taken, else the seconds until one is there."""
        self.tokens = min(burst, self.tokens + (now - self.at) * rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return 0.0
        return (1 - self.tokens) / rate


@dataclass
class _Ticket:
    session: str
    address: str | None
    fn: int
    since: float
    event_id: str | None = None  # None while Gradio's join handler runs
    page: str | None = None  # the session hash of a page's join (/queue/join): its result comes on /queue/data
    lang: str = "en"


@dataclass
class _State:
    buckets: dict = field(default_factory=dict)  # key -> _Bucket
    tickets: list = field(default_factory=list)  # admitted heavy joins not yet known to have finished
    listening: Counter = field(default_factory=Counter)  # session hash -> its /queue/data streams open now
    heard: dict = field(default_factory=dict)  # session hash -> when one of its streams last opened or closed
    dropped: int = 0  # page events dropped because nobody listened (`RequestLimits._drop_unheard`)
    undelivered: int = 0  # results nobody read, replaced by an error (`RequestLimits._drop_undelivered`)
    trims: int = 0  # heap trims after drops (`RequestLimits._trim`)
    sessions: dict = field(default_factory=dict)  # session hash -> its first join's language (a dropped result's)
    pages: dict = field(default_factory=dict)  # cache key -> (when, headers, body) of the page and /config
    seen: dict = field(default_factory=dict)  # id(message) -> (message, when first seen waiting)
    notes: int = 0  # log lines left out since the last one (`RequestLimits._note`)
    noted_at: float = float("-inf")


# GETs that serve the front end's files: not counted by the per-address GET bucket (a page load asks for ~30)
STATIC = ("/assets/", "/static/", "/svelte/", "/favicon.ico", "/theme.css", "/manifest.json", "/pwa_icon",
          "/robots.txt", API + "file=", API + "custom_component/")
# headers the page's and /config's root URL is made from (gradio.route_utils.get_root_url): part of the cache key
ROOT_HEADERS = (b"host", b"x-forwarded-host", b"x-forwarded-proto", b"x-forwarded-port", b"x-forwarded-prefix")


def _path(scope) -> str:
    path, root = scope.get("path", ""), scope.get("root_path", "")
    return path[len(root):] or "/" if root and path.startswith(root) else path


def _closed(path: str, route: str | None, method: str) -> bool:
    """Routes this app does not serve: Gradio's monitoring dashboard (its URL, key included, goes to the log),
    deep links (each GET wrote the session's components, 438 KB, to disk: the app has no deep-link button), and
    uploads (the app has no upload input; an upload's answer held the server's absolute path)."""
    if path.rstrip("/") == "/monitoring" or path.startswith("/monitoring/"):
        return True
    if route is None:
        return False
    route = route.rstrip("/")
    return route in ("deep_link", "upload_progress") or (route == "upload" and method not in ("GET", "HEAD", "OPTIONS"))


def _not_finite(text: str):
    """The first NaN/Infinity literal in a JSON body (json.loads calls parse_constant for them), or a number too large
    for a float (1e400 reads as inf and passed a finite check downstream), else None."""
    found = []

    def constant(name):
        found.append(name)
        return None

    def number(literal):
        value = float(literal)
        if not math.isfinite(value):
            found.append(literal[:40])
            return None
        return value

    try:
        data = json.loads(text, parse_constant=constant, parse_float=number)
    except (ValueError, RecursionError):
        return None, None  # not JSON: Gradio answers it itself (422)
    return (found[0] if found else None), data


def _check_sliders(fn, values) -> None:
    """A slider's value in a join is a number (or null): a string reached Gradio's bounds check as a TypeError, a
    generic error on the page (JSON's own NaN is refused before, in `_not_finite`)."""
    import gradio as gr

    if not isinstance(values, list) or len(values) != len(fn.inputs):
        return
    for block, value in zip(fn.inputs, values):
        if isinstance(block, gr.Slider) and value is not None and \
                (isinstance(value, bool) or not isinstance(value, (int, float))):
            shown = str(value).encode("utf-8", "replace").decode("utf-8")
            raise Refused(422, "not_number", name=str(block.label or "slider")[:60],
                          value=shown[:40] + ("…" if len(shown) > 40 else ""))


class RequestLimits:
    """The ASGI layer (see the module docstring); `limits` is a `Limits`."""

    def __init__(self, app, limits: Limits = LIMITS):
        self.app, self.limits, self.state = app, limits, _State()
        self._sweeper = None
        self._calls = itertools.count()

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        if self._sweeper is None and scope.get("app") is not None:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep(scope["app"]))
        stream = None
        try:
            path, method = _path(scope), scope["method"]
            route = path.split(API, 1)[1] if API in path else None
            if route is not None and route.startswith("file=") and \
                    route[5:].lstrip().lower().startswith(("http:", "https:", "//")):
                raise Refused(403, "remote_file")
            upload = route is not None and route.rstrip("/") == "upload" and method == "POST"
            if _closed(path, route, method) and not upload:
                raise Refused(404, "closed", path=path[:80])
            address = self._address(scope)
            if method in ("GET", "HEAD", "OPTIONS"):
                if method == "GET" and not path.startswith(STATIC):
                    self._rate(f"get:{address}", self.limits.get_rate, self.limits.get_burst, time.monotonic(),
                               "rate_address")
                stream = self._stream_session(scope, route) if method == "GET" else None
                if stream is None:
                    cached = self._cache_key(scope, path) if method == "GET" else None
                    if cached is not None:
                        return await self._cached(scope, receive, send, cached)
                    return await self.app(scope, receive, send)
            else:
                limit = self.limits.max_upload_bytes + 16 * 1024 if upload else self.limits.max_body_bytes
                body, receive = await self._read_body(scope, receive, limit)
                if upload:  # after the size check: an oversized upload is still told it is too large (413)
                    raise Refused(404, "closed", path=path[:80])
                ticket = None
                if route is not None and route.startswith(("queue/join", "call/", "run/", "api/")):
                    ticket = self._admit(scope, route, body, address)
        except Refused as r:
            return await self._refuse(scope, send, r)
        if stream is not None:
            return await self._listen(scope, receive, send, stream)
        if ticket is None:
            return await self.app(scope, receive, send)
        return await self.app(scope, receive, self._watch(send, ticket))

    # --- bodies

    async def _read_body(self, scope, receive, limit: int):
        declared = _header(scope, b"content-length")
        try:
            declared = int(declared) if declared is not None else None
        except ValueError:
            declared = None
        if declared is not None and declared > limit:
            raise Refused(413, "body", size=f"{declared:,}", limit=f"{limit:,}")
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                raise Refused(413, "body", size=f"> {limit:,}", limit=f"{limit:,}")
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        sent = False

        async def replay():
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        return body, replay

    # --- admission of events

    def _address(self, scope) -> str:
        """The visitor's address: the peer's, and behind trusted proxies the X-Forwarded-For entry `hops` from the
        end (the one the outermost trusted proxy appended; entries before it are the client's own word). Off a
        Space every local visitor is 127.0.0.1: one address, which is what the caps then see."""
        if self.limits.behind_proxy:
            forwarded = _header(scope, b"x-forwarded-for")
            if forwarded:
                entries = [e.strip() for e in forwarded.split(",")]
                entry = entries[-min(self.limits.hops, len(entries))]
                if entry:
                    return entry
        client = scope.get("client")
        return client[0] if client else "?"

    def _admit(self, scope, route: str, body: bytes, address: str):
        bad, data = _not_finite(body.decode("utf-8", "replace"))
        if bad:
            raise Refused(422, "not_finite", value=bad)
        fn = self._fn(scope, route, data)
        if not isinstance(data, dict):
            return None
        session = data.get("session_hash")
        session = session if isinstance(session, str) and session else None
        # the unit of fairness and of the per-session caps: a session, else (a plain-HTTP call) the address for
        # the fair order and each request on its own for the caps, so that none is told of a "same request"
        key = f"s:{session}" if session else f"a:{address}"
        scope[KEY], scope[ADDRESS] = key, address
        now = time.monotonic()
        if session:
            self._new_session(session, address, now, _lang(scope))
        self._rate(key, self.limits.rate, self.limits.burst, now, "rate" if session else "rate_address")
        self._rate(f"ip:{address}", self.limits.address_rate, self.limits.address_burst, now, "rate_address")
        if fn is not None and route.startswith("queue/join"):
            _check_sliders(fn, data.get("data"))
        if fn is None or fn.concurrency_id not in self.limits.heavy:
            return None
        live = self._live_tickets(scope, now)
        if session:
            mine = [t for t in live if t.session == key]
            if sum(t.fn == fn._id for t in mine) >= self.limits.per_function:
                page = route.startswith("queue/join")
                raise Refused(429, "busy_same" if page else "busy_call", retry_after=1, n=self.limits.per_function)
            if len(mine) >= self.limits.per_session:
                raise Refused(429, "busy_session", retry_after=1, n=self.limits.per_session)
        if sum(t.address == address for t in live) >= self.limits.per_address:
            raise Refused(429, "busy_address", retry_after=1, n=self.limits.per_address)
        ticket = _Ticket(key if session else f"r:{next(self._calls)}", address, fn._id, now,
                         page=session if route.startswith("queue/join") else None, lang=_lang(scope))
        self.state.tickets = live + [ticket]
        return ticket

    def _rate(self, key: str, rate: float, burst: int, now: float, refusal: str = "rate", **fields) -> None:
        buckets = self.state.buckets
        bucket = buckets.get(key)
        if bucket is None:
            if len(buckets) >= self.limits.max_keys:  # a flood of new sessions: forget the oldest half
                for k in list(buckets)[: len(buckets) // 2]:
                    del buckets[k]
            bucket = buckets[key] = _Bucket(burst, now)
        wait = bucket.take(rate, burst, now)
        if wait:
            raise Refused(429, refusal, retry_after=wait, **fields)

    def _new_session(self, session: str, address: str, now: float, lang: str) -> None:
        """A session hash is the client's own word: each new one an address brings takes a token of its own bucket
        (`sessions_per_address` over `session_window_s`), so fresh hashes do not buy fresh per-session caps."""
        sessions = self.state.sessions
        if session in sessions:
            return
        n = self.limits.sessions_per_address
        self._rate(f"sessions:{address}", n / self.limits.session_window_s, n, now, "sessions", n=n,
                   m=f"{self.limits.session_window_s / 60:g}")
        if len(sessions) >= self.limits.max_keys:
            for k in list(sessions)[: len(sessions) // 2]:
                del sessions[k]
        sessions[session] = lang

    @staticmethod
    def _fn(scope, route: str, data):
        """The event a join or call names; 422 for an fn_index that is not a whole number (Gradio would turn "74"
        or 74.0 into 74, past these checks), 404 for one that names nothing, or for an API name that is unknown or
        private (api_visibility="private": the page's own events, by number only); /run/ only for unqueued events."""
        app = scope.get("app")
        blocks = app.get_blocks() if app is not None and hasattr(app, "get_blocks") else None
        if blocks is None:
            return None
        parts = [p for p in route.split("/") if p]
        named = parts[0] == "call" or (parts[0] in ("run", "api") and not (isinstance(data, dict) and
                                                                           data.get("fn_index") is not None))
        if named:
            name = parts[2] if len(parts) > 2 and parts[1] == "v2" else parts[1] if len(parts) > 1 else ""
            fn = next((f for f in blocks.fns.values() if f.api_name == name), None)
            if fn is None or getattr(fn, "api_visibility", "public") == "private":
                raise Refused(404, "unknown_api", name=name[:60])
        elif not isinstance(data, dict) or data.get("fn_index") is None:
            return None  # Gradio answers it (400: no function index)
        else:
            index = data["fn_index"]
            if isinstance(index, bool) or not isinstance(index, int):
                raise Refused(422, "bad_fn_index", value=json.dumps(index)[:40])
            fn = blocks.fns.get(index)
            if fn is None:
                raise Refused(404, "unknown_fn", value=index)
        if parts[0] in ("run", "api") and fn.queue is not False:
            raise Refused(404, "queued_only")
        return fn

    def _live_tickets(self, scope, now: float) -> list:
        """The admitted heavy joins whose event still waits or runs (or whose join is still being handled)."""
        queue = self._queue(scope)
        if queue is None:
            return []
        ids = set(queued_events(queue))
        live = [t for t in self.state.tickets
                if (t.event_id in ids) or (t.event_id is None and now - t.since < 60)]
        return live[-self.limits.max_keys:]

    def _watch(self, send, ticket: _Ticket):
        """Pass the join's response on, reading the event id it gives (or dropping the ticket on a refusal)."""
        state, status, parts = self.state, [0], []

        async def watched(message):
            if message["type"] == "http.response.start":
                status[0] = message["status"]
            elif message["type"] == "http.response.body" and status[0] == 200:
                parts.append(message.get("body", b""))
                if not message.get("more_body", False):
                    try:
                        ticket.event_id = json.loads(b"".join(parts)).get("event_id")
                    except (ValueError, AttributeError):
                        pass
            if status[0] and status[0] != 200 and ticket in state.tickets:
                state.tickets.remove(ticket)
            await send(message)
            if message["type"] == "http.response.body" and not message.get("more_body", False) and \
                    ticket.event_id is None and ticket in state.tickets:
                state.tickets.remove(ticket)

        return watched

    # --- GETs: the page and /config from a cache

    def _cache_key(self, scope, path: str):
        """The page (/) and /config, which Gradio renders from the app's config on every GET (82 and 54 ms of CPU
        here), are kept `page_cache_s`; keyed by what Gradio reads of the request (`page`, the root URL's
        headers). A deep link is not cached (and not served: `_closed`)."""
        where = path.rstrip("/") or "/"
        if where not in ("/", "/config") or self.limits.page_cache_s <= 0:
            return None
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        if "deep_link" in query:
            return None
        return (where, query.get("page", [""])[0], scope.get("root_path", ""),
                tuple(_header(scope, h) for h in ROOT_HEADERS))

    async def _cached(self, scope, receive, send, key):
        pages, now = self.state.pages, time.monotonic()
        hit = pages.get(key)
        if hit is not None and now - hit[0] < self.limits.page_cache_s:
            await send({"type": "http.response.start", "status": 200, "headers": hit[1]})
            await send({"type": "http.response.body", "body": hit[2]})
            return
        start, parts = {}, []

        async def capture(message):
            if message["type"] == "http.response.start":
                start.update(message)
            elif message["type"] == "http.response.body":
                parts.append(message.get("body", b""))
                if not message.get("more_body", False) and start.get("status") == 200 and \
                        not any(k.lower() == b"set-cookie" for k, _ in start.get("headers", ())):
                    pages.pop(key, None)
                    while len(pages) >= 8:
                        pages.pop(next(iter(pages)))
                    pages[key] = (now, list(start.get("headers", ())), b"".join(parts))
            await send(message)

        return await self.app(scope, receive, capture)

    # --- result streams; pages that stopped listening; results nobody read

    def _stream_session(self, scope, route: str | None):
        """The session a result stream reads (a page's /queue/data, a caller's /call/<name>/<event_id>), or None for
        any other GET; 404 here, quietly, when Gradio holds nothing for it (Gradio raised inside its stream, after
        the response had started: a traceback in the log per GET)."""
        if route is None:
            return None
        parts = [p for p in route.split("?")[0].split("/") if p]
        if parts[:2] == ["queue", "data"]:
            session = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("session_hash", [""])[0]
        elif parts[:1] == ["call"] and len(parts) == (4 if parts[1] == "v2" else 3):
            queue = self._queue(scope)
            if queue is None:
                return None
            session = session_of(queue, parts[-1])
        else:
            return None
        queue = self._queue(scope)
        if queue is not None and session not in pending_messages(queue):
            raise Refused(404, "no_session")
        return session

    @staticmethod
    def _queue(scope):
        app = scope.get("app")
        blocks = app.get_blocks() if app is not None and hasattr(app, "get_blocks") else None
        return queue_of(blocks)

    async def _listen(self, scope, receive, send, session: str):
        """A result stream: counted open while it lasts; an error inside it once it has started (a client that
        went away) is one line in the log, not a traceback."""
        state, started = self.state, [False]
        state.listening[session] += 1
        state.heard[session] = time.monotonic()

        async def watched(message):
            if message["type"] == "http.response.start":
                started[0] = True
            await send(message)

        try:
            return await self.app(scope, receive, watched)
        except Exception as e:  # noqa: BLE001 - after the response started nothing else can be sent
            if not started[0]:
                raise
            self._note(f"a result stream ended early: {type(e).__name__}")
        finally:
            state.listening[session] -= 1
            if state.listening[session] <= 0:
                del state.listening[session]
            state.heard[session] = time.monotonic()
            if len(state.heard) > self.limits.max_keys:
                for k in list(state.heard)[: len(state.heard) // 2]:
                    del state.heard[k]

    def _note(self, text: str) -> None:
        """One log line at most every `log_every_s`, with how many were left out: the log stays bounded."""
        state, now = self.state, time.monotonic()
        state.notes += 1
        if now - state.noted_at >= self.limits.log_every_s:
            log.warning("%s (%d such since the last line)", text, state.notes)
            state.notes, state.noted_at = 0, now

    async def _sweep(self, app) -> None:
        """Every second (or a quarter of the shorter time limit): `_drop_unheard`, `_drop_undelivered`."""
        limits = self.limits
        while True:
            await asyncio.sleep(min(1.0, limits.unheard_s / 4, limits.undelivered_s / 4))
            try:
                queue = queue_of(app.get_blocks())
                before = self.state.dropped + self.state.undelivered
                await self._drop_unheard(queue)
                self._drop_undelivered(queue)
                if self.state.dropped + self.state.undelivered > before:
                    await self._trim()
            except Exception as e:  # noqa: BLE001 - a Gradio internal changed shape: the next round tries again
                self._note(f"the limits' sweep failed: {type(e).__name__}: {e}")

    async def _trim(self) -> None:
        """After a drop, the freed pages back to the system (`explorer.serve.cache.trim_heap`, in a worker thread: it
        walks the heap): glibc kept the dropped results' pages, so 30 unread /generate results still held their
        resident memory a minute after they were dropped (bench/hostile.py's `unread`)."""
        self.state.trims += 1
        await asyncio.to_thread(trim_heap)

    async def _drop_unheard(self, queue) -> None:
        """A page's heavy event (waiting, or running: a live-training generator stops at its next step) whose
        session has had no /queue/data stream open for `unheard_s` is dropped, and an error is left for it should
        the page come back. Gradio drops the waiting events of a stream that closes itself; this covers a client
        that joins and never listens (its runs would still train)."""
        events = queued_events(queue)
        now, state = time.monotonic(), self.state
        for t in list(state.tickets):
            event = events.get(t.event_id)
            if event is None or t.page is None or state.listening.get(t.page):
                continue
            if now - max(t.since, state.heard.get(t.page, 0.0)) < self.limits.unheard_s:
                continue
            text = i18n.t("limit.unheard", t.lang, s=f"{self.limits.unheard_s:g}")
            await end_event(queue, event, text)
            if t in state.tickets:
                state.tickets.remove(t)
            state.dropped += 1

    def _drop_undelivered(self, queue) -> None:
        """Messages waiting in a session's queue (Gradio's `pending_messages_per_session`: results, progress,
        estimates) for `undelivered_s` since this sweep first saw them are taken out; a result is replaced by a
        short error (`ui.gradio_patches.Dropped`) that a reader coming later is given. Gradio itself keeps them until
        2,000 newer sessions push the session out (30 unread /generate results held +854 MiB). Then the sessions
        Gradio pushed out that still list event ids, none of them waiting or running, are forgotten."""
        now, limit, state = time.monotonic(), self.limits.undelivered_s, self.state
        seen, fresh = state.seen, {}
        for session, messages in list(pending_messages(queue).items()):
            if messages.empty():
                continue
            old = set()
            for m in waiting_messages(messages):
                record = seen.get(id(m))
                at = record[1] if record is not None and record[0] is m else now
                fresh[id(m)] = (m, at)  # the message itself is held, so its id names it while recorded
                if now - at >= limit and not isinstance(m, Dropped):
                    old.add(id(m))
            if not old:
                continue
            lang = state.sessions.get(session, "en")
            for m in take_messages(messages):
                if id(m) not in old:
                    messages.put_nowait(m)
                    continue
                del fresh[id(m)]
                if is_result(m):
                    notice = dropped_result(m, i18n.t("limit.undelivered", lang, s=f"{limit:g}"))
                    messages.put_nowait(notice)
                    fresh[id(notice)] = (notice, now)
                    state.undelivered += 1
        state.seen = fresh
        forget_finished_sessions(queue)

    # --- refusals

    async def _refuse(self, scope, send, r: Refused):
        lang = _lang(scope)
        text = i18n.t(f"limit.{r.key}", lang, **r.fields)
        if r.retry_after is not None:
            text += " " + i18n.t("limit.retry", lang, s=max(1, math.ceil(r.retry_after)))
        body = json.dumps({"detail": text, "error": text}, ensure_ascii=False).encode("utf-8")
        headers = [(b"content-type", b"application/json; charset=utf-8"),
                   (b"content-length", str(len(body)).encode()), (b"connection", b"close")]
        if r.retry_after is not None:
            headers.append((b"retry-after", str(max(1, math.ceil(r.retry_after))).encode()))
        await send({"type": "http.response.start", "status": r.status, "headers": headers})
        await send({"type": "http.response.body", "body": body})
