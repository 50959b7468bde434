"""Every place the app reaches into Gradio's internals, behind one fence: what each patch replaces, and the
supported Gradio version they were written against (`SUPPORTED_GRADIO`, the pin in requirements.txt).

A Gradio release may rename or reshape any of these without notice; tests/ui/test_gradio_patches.py checks that
each attribute, signature and use this module relies on is still there, and `check_gradio_version` (called by
`ui.limits.apply_limits` at start-up) logs a warning naming the supported version when another one is installed.

* `lean_sessions`: `gradio.state_holder.SessionState`'s `__init__`, `components` and `_update_value_in_config`
  replaced, so that a new session copies no block configs and keeps no last values;
* `fair_order`: `Queue.create_event_queue_for_fn` wrapped and each `EventQueue.queue` list replaced by a
  `FairList` (Gradio appends to it, takes `queue[0]` and removes by value);
* `Dropped`, a `ProcessCompletedMessage` subclass, and the queue's state read and changed by `ui.limits`'s
  layer (waiting and running events, each session's undelivered messages, ending an event with an error):
  `queued_events`, `pending_messages`, `waiting_messages`, `take_messages`, `session_of`, `end_event`,
  `forget_finished_sessions`, `queue_of`;
* `session_states`: what one session's `gr.State`s hold now, read from Gradio's `StateHolder` (the first screens ask
  whether a visitor's own run landed while theirs was computed, ui/first_screen.py).

Outside this module: `ui/boot.py` replaces `gradio.component_meta.create_or_modify_pyi` before Gradio is
imported (it must not import Gradio itself); its target is checked by the same test.
"""
from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass

import gradio
from gradio.server_messages import ProcessCompletedMessage

SUPPORTED_GRADIO = "6.31.0"  # requirements.txt's pin; every patch below was written against it
log = logging.getLogger(__name__)
KEY = "attn_explorer.limits_key"  # the scope entry where the limits leave a request's session for the fair order
ADDRESS = "attn_explorer.limits_address"  # ... and its client address (`ui.limits.RequestLimits._address`)


def check_gradio_version(installed: str | None = None) -> str | None:
    """A warning (logged, and returned) when the installed Gradio is not `SUPPORTED_GRADIO`; None when it is."""
    installed = gradio.__version__ if installed is None else installed
    if installed == SUPPORTED_GRADIO:
        return None
    text = (f"Gradio {installed} is installed; this app patches Gradio's internals as of Gradio {SUPPORTED_GRADIO} "
            f"(ui/gradio_patches.py). Install gradio=={SUPPORTED_GRADIO} (requirements.txt), or run "
            "tests/ui/test_gradio_patches.py to see which patch no longer fits.")
    log.warning(text)
    return text


@dataclass(frozen=True)
class CheapFirst:
    """What `FairList` reads of the limits; ui/limits.py's `Limits` takes its defaults from here and is what the app
    passes (this module imports nothing of ui/, so the patches stay below the layer that uses them)."""
    cheap_ratio: float = 4.0
    max_skipped_s: float = 5.0


def _default_limits():
    return CheapFirst()


# ----------------------------------------------------------------------------- sessions


class _NoBlocks:
    """What SessionState.__init__ reads of a Blocks, without its blocks: its config copy is made, not every block's."""

    blocks: dict = {}

    def __init__(self, blocks):
        self.default_config = blocks.default_config


def lean_sessions() -> None:
    """Gradio 6.31 makes every new session (every page, and every plain API call: each is its own session) a copy
    of every block's config, kept in its SessionState for deep links until 10,000 sessions push it out: in this app
    of 490 blocks, 0.74 MiB (traced) and 24 ms a session; and it writes every input's and output's last value into
    that copy: a 256-token /fill_mask call left its plots' JSON there (~3.5 MiB a call). Here the copies are made
    when a deep link asks for them (`SessionState.components`), with the components' updates as before, but the
    last values are not kept: the app has no deep-link button (gr.DeepLinkButton), so a deep link shows the
    components as they were served. Process-wide, once; tests/ui/test_lean_sessions.py."""
    from gradio import state_holder

    cls = state_holder.SessionState
    if getattr(cls, "_attn_lean", False):
        return
    init, components = cls.__init__, cls.components

    def __init__(self, blocks):
        init(self, _NoBlocks(blocks))
        self._attn_ids = blocks.blocks  # the app's blocks (the dict itself: no copy)

    def lean_components(self):
        ids = getattr(self, "_attn_ids", None)
        if ids is None:
            yield from components.fget(self)
            return
        made = self.config_values
        for k, v in self.blocks_config.blocks.items():
            if k in ids:
                config = made[k] if k in made else self.blocks_config.config_for_block(k, [], v)
                if config:
                    yield config
        for k, config in list(made.items()):
            if k not in ids and config:
                yield config

    def no_value(self, key, value):  # the last value of a component, for a deep link only
        return None

    cls.__init__, cls.components, cls._update_value_in_config = __init__, property(lean_components), no_value
    cls._attn_lean, cls._attn_original = True, (init, components)


# ----------------------------------------------------------------------------- a session's States


UNSET = object()  # `session_states`' value for a State the session has not read or written yet


def session_states(blocks, session_hash: str | None, components) -> list | None:
    """The values session `session_hash` holds now for the gr.State `components`, as Gradio keeps them (written as an
    event's outputs are processed, read as an event's inputs are); `UNSET` for one it has not touched yet. None when
    Gradio keeps nothing of the session (no session, or the app not launched): nothing is known."""
    holder = getattr(blocks, "state_holder", None)
    sessions = getattr(holder, "session_data", None)
    session = sessions.get(session_hash) if session_hash is not None and sessions is not None else None
    if session is None:
        return None
    data = session.state_data  # read as it is: no default copied in, no use recorded
    return [data.get(c._id, UNSET) for c in components]


# ----------------------------------------------------------------------------- the queue's order


def fair_order(demo, limits=None) -> None:
    """Every concurrency group's waiting list of `demo`'s queue as a `FairList`, also those Gradio makes later
    (it makes one per concurrency id on the first event): after `demo.queue(...)`, which builds a new queue."""
    queue = demo._queue
    make = queue.create_event_queue_for_fn

    def create_event_queue_for_fn(block_fn):
        make(block_fn)
        _make_fair(queue.event_queue_per_concurrency_id[block_fn.concurrency_id], queue, limits)

    queue.create_event_queue_for_fn = create_event_queue_for_fn
    for eq in queue.event_queue_per_concurrency_id.values():
        _make_fair(eq, queue, limits)


def fair_key(event) -> tuple[str, str]:
    """The units of fairness of a queued Gradio event: (its client address, its session), as the layer left them on
    its request (a plain-HTTP call's session is its address); without the layer, the peer's address and the event's
    session hash."""
    request = getattr(event, "request", None)
    scope = getattr(request, "scope", None) or {}
    key = scope.get(KEY) or event.session_hash
    client = scope.get("client")
    return scope.get(ADDRESS) or (client[0] if client else key), key


class FairList(list):
    """A queue (list of events) whose `append` inserts round robin on two levels: by client address (`fair_key`'s
    first part: the n-th waiting event of an address goes before every other address's (n+1)-th), and within an
    address's line by session (the n-th waiting event of a session before every other session's (n+1)-th of that
    address). So fresh sessions from one address hold one place per round, not one each, and a class behind one
    address still shares its line fairly. Among events of the same rank, a cheap one (its function's average time,
    `cost`, `limits.cheap_ratio` times below a waiting one's) goes before the expensive ones, each of which lets cheap
    ones go first until their average times add up to `limits.max_skipped_s`. Gradio takes `queue[0]` next and
    removes by value. Pinned over the queue object and over HTTP by tests/ui/test_hostile_http.py."""

    def __init__(self, events=(), cost=None, limits=None):
        super().__init__(events)
        self.cost, self.limits = cost, limits or _default_limits()

    def append(self, event) -> None:
        self._settle()
        address = fair_key(event)[0]
        slots = [i for i, e in enumerate(self) if fair_key(e)[0] == address]
        line = [self[i] for i in slots]
        at = self._place(line, event, lambda e: fair_key(e)[1], cheap=True)
        if at == len(line):  # the end of its address's line: its place among the other addresses' events
            self.insert(self._place(self, event, lambda e: fair_key(e)[0], cheap=True), event)
            return
        # inside its address's line: the line's events from there on each move one round later (their slots are
        # the address's places in the rounds), and the last one to the end of the next round
        line.insert(at, event)
        for i, e in zip(slots, line):
            self[i] = e
        last = line[-1]
        self.insert(self._place(self, last, lambda e: fair_key(e)[0], cheap=False), last)

    def _settle(self) -> None:
        """Puts the waiting events back in rounds: Gradio takes the head (its address's events each move one round
        earlier) and drops events from anywhere, which left alone would let an address have several events ahead
        of another's n-th (3 more in a random walk of appends and takes). A stable sort by rank, within each
        address's line by session and then over the queue by address, so the order within a round is kept (cheap
        first included)."""
        lines = {}
        for e in self:
            lines.setdefault(fair_key(e)[0], []).append(e)
        settled = {a: iter(_by_rank(line, lambda e: fair_key(e)[1])) for a, line in lines.items()}
        self[:] = _by_rank([next(settled[fair_key(e)[0]]) for e in self], lambda e: fair_key(e)[0])

    def _place(self, events, event, unit, cheap: bool) -> int:
        """Where `event` goes in `events` (in round-robin order by `unit`): before the first event of a later round
        than its own, or of its round if it is cheap next to that one."""
        mine_unit = unit(event)
        rank = 1 + sum(unit(e) == mine_unit for e in events)
        mine = self.cost(event) if cheap and self.cost else None
        seen = Counter()
        for i, e in enumerate(events):
            k = unit(e)
            seen[k] += 1
            if seen[k] > rank or (seen[k] == rank and self._goes_before(mine, e)):
                return i
        return len(events)

    def _goes_before(self, mine: float | None, waiting) -> bool:
        theirs = self.cost(waiting) if mine else None
        skipped = getattr(waiting, "_attn_skipped_s", 0.0)
        if not theirs or theirs < mine * self.limits.cheap_ratio or skipped + mine > self.limits.max_skipped_s:
            return False
        waiting._attn_skipped_s = skipped + mine
        return True


def _by_rank(events, unit) -> list:
    """`events` stably sorted by each one's rank among those of its `unit` (1 for its first, 2 for its second, ...)."""
    seen = Counter()
    ranked = []
    for i, e in enumerate(events):
        seen[unit(e)] += 1
        ranked.append((seen[unit(e)], i, e))
    return [e for _, _, e in sorted(ranked, key=lambda r: r[:2])]


def _make_fair(event_queue, queue=None, limits=None) -> None:
    if not isinstance(event_queue.queue, FairList):
        times = getattr(queue, "process_time_per_fn", None)
        cost = None if times is None else (
            lambda e: times[e.fn].avg_time if e.fn in times and times[e.fn].count else None)
        event_queue.queue = FairList(event_queue.queue, cost, limits)


# ----------------------------------------------------------------------------- the queue's state


class Dropped(ProcessCompletedMessage):
    """The short error left in place of a result nobody read (`ui.limits.RequestLimits._drop_undelivered`)."""


def queue_of(blocks):
    """The Blocks' queue (None before `demo.queue()`)."""
    return getattr(blocks, "_queue", None)


def queued_events(queue) -> dict:
    """The events waiting (each concurrency group's list) or running (the active jobs), by event id."""
    events = {e._id: e for q in queue.event_queue_per_concurrency_id.values() for e in q.queue}
    events.update({e._id: e for job in queue.active_jobs if job for e in job})
    return events


def pending_messages(queue) -> dict:
    """Session hash -> its asyncio.Queue of messages not yet delivered (results, progress, estimates)."""
    return queue.pending_messages_per_session


def waiting_messages(messages) -> list:
    """The messages in one session's asyncio.Queue, read without taking them (its deque)."""
    return list(messages._queue)


def take_messages(messages) -> list:
    """Every message of one session's asyncio.Queue, taken out (no await: no reader runs in between)."""
    return [messages.get_nowait() for _ in range(messages.qsize())]


def is_result(message) -> bool:
    """Whether a message is an event's result (not progress or an estimate)."""
    return isinstance(message, ProcessCompletedMessage) and bool(message.event_id)


def dropped_result(message, text: str) -> Dropped:
    """The short error that stands in for the result `message`, with its event id."""
    return Dropped(output={"error": text, "visible": True}, success=False, event_id=message.event_id)


def session_of(queue, event_id: str) -> str | None:
    """The session hash an event belongs to (a /call/ event is its own session), while Gradio holds anything of it."""
    event = queue.event_ids_to_events.get(event_id)
    if event is not None:
        return event.session_hash
    return next((s for s, ids in queue.pending_event_ids_session.items() if event_id in ids), event_id)


async def end_event(queue, event, text: str) -> None:
    """Ends a waiting or running event with `text` as its error (a page that comes back reads it)."""
    queue.send_message(event, ProcessCompletedMessage(output={"error": text, "visible": True}, success=False))
    await queue.clean_events(event_id=event._id)


def forget_finished_sessions(queue) -> None:
    """The sessions Gradio pushed out of its pending messages that still list event ids, none of them waiting or
    running, are forgotten (Gradio keeps their ids otherwise)."""
    ids = queue.pending_event_ids_session
    for session in [s for s in ids if s not in queue.pending_messages_per_session]:
        if not any(i in queue.event_ids_to_events for i in ids[session]):
            ids.pop(session, None)
