"""A browser page's side of Gradio's protocol over plain HTTP, for the benchmarks (no browser): the page's session
hash, its heartbeat stream (open while the page is open), events joined by fn_index (`/gradio_api/queue/join`,
the route the page uses, also for events hidden from the API) and their results read from the session's
`/gradio_api/queue/data` event stream.

    page = Page(url, config)                           # config = get_config(url)
    dep = event(config, "Show rollout")                # the event a button with this text starts
    out = page.run(dep, inputs(config, dep, {"Sentence": text}))
    page.close()                                       # the tab closed: the heartbeat stream ends
"""
from __future__ import annotations

import json
import secrets
import threading

import httpx


def get_config(url: str) -> dict:
    return httpx.get(f"{url}config", timeout=60).json()


def event(config: dict, button: str) -> dict:
    """The first event a button showing `button` starts with a click."""
    ids = {c["id"] for c in config["components"]
           if c.get("type") == "button" and c.get("props", {}).get("value") == button}
    for dep in config["dependencies"]:
        if any(t[0] in ids and t[1] == "click" for t in dep["targets"]):
            return dep
    raise LookupError(f"no click event on a button {button!r}")


def inputs(config: dict, dep: dict, values: dict) -> list:
    """The event's input values: each component's value in the page as served, or values[its label]."""
    components = {c["id"]: c for c in config["components"]}
    out = []
    for i in dep["inputs"]:
        props = components[i].get("props", {})
        out.append(values.get(props.get("label"), props.get("value")))
    return out


class Page:
    """One open page: a session hash and a heartbeat stream; `run` joins an event and waits for its result."""

    def __init__(self, url: str, config: dict | None = None):
        self.url, self.session = url, secrets.token_hex(6)
        self.client = httpx.Client(timeout=600)
        self._closed = threading.Event()
        self._beat = threading.Thread(target=self._heartbeat, daemon=True)
        self._beat.start()

    def _heartbeat(self) -> None:
        try:
            with self.client.stream("GET", f"{self.url}gradio_api/heartbeat/{self.session}") as r:
                for _ in r.iter_lines():
                    if self._closed.is_set():
                        return  # leaving the with block closes the connection, as a closed tab does
        except httpx.HTTPError:
            pass

    def join(self, dep: dict, data: list) -> str:
        r = self.client.post(f"{self.url}gradio_api/queue/join",
                             json={"data": data, "event_data": None, "fn_index": dep["id"],
                                   "trigger_id": dep["targets"][0][0], "session_hash": self.session})
        if r.status_code != 200:
            raise RuntimeError(f"join {dep.get('api_name')}: HTTP {r.status_code} {r.text[:200]}")
        return r.json()["event_id"]

    def messages(self):
        """The session's event stream, message by message (dicts), until Gradio closes it."""
        with self.client.stream("GET", f"{self.url}gradio_api/queue/data",
                                params={"session_hash": self.session}) as r:
            for line in r.iter_lines():
                if line.startswith("data:"):
                    yield json.loads(line[5:])

    def run(self, dep: dict, data: list) -> list:
        """Join the event and read the session's stream to its result (the output values)."""
        event_id = self.join(dep, data)
        for m in self.messages():
            if m.get("msg") == "process_completed" and m.get("event_id") == event_id:
                if not m.get("success"):
                    raise RuntimeError(f"{dep.get('api_name')}: {str(m.get('output'))[:300]}")
                return m["output"]["data"]
        raise RuntimeError(f"{dep.get('api_name')}: the stream closed before the result")

    def close(self) -> None:
        """The tab closes: the heartbeat stream ends (Gradio marks the session closed) and the client goes."""
        self._closed.set()
        self.client.close()
