"""The page itself fits ui/limits.py's caps: the events one action of the page sends at once (a language
switch redraws every view) stay under the per-session burst and heavy-event caps, and each heavy event's
function is one the page sends only once at a time (a button waits for its event, a slider or text box sends
only its last value), which the per-function cap relies on. A new tab that breaks either fails here, not on
the Space."""
import pytest

gr = pytest.importorskip("gradio")

import app  # noqa: E402  (builds the demo)
from ui.limits import LIMITS  # noqa: E402


def events_by_trigger():
    """(component id, event name) -> the dependencies it starts (those with a Python function)."""
    config = app.demo.get_config_file()
    out = {}
    for d in config["dependencies"]:
        if not d.get("backend_fn"):
            continue
        for target in d["targets"]:
            out.setdefault(tuple(target), []).append(d["id"])
    return out


def test_one_trigger_never_exceeds_the_burst_or_the_heavy_cap():
    for trigger, ids in events_by_trigger().items():
        heavy = [i for i in ids if app.demo.fns[i].concurrency_id in LIMITS.heavy]
        assert len(ids) < LIMITS.burst, (trigger, len(ids))
        assert len(heavy) <= LIMITS.per_session, (trigger, len(heavy))


def test_the_page_sends_one_heavy_function_at_a_time():
    """A heavy function started by two triggers that can fire together would be refused as 'still running'."""
    config = app.demo.get_config_file()
    for d in config["dependencies"]:
        fn = app.demo.fns[d["id"]]
        if fn.concurrency_id not in LIMITS.heavy or not d.get("backend_fn"):
            continue
        assert fn.trigger_mode in ("once", "always_last"), (fn.name, fn.trigger_mode)  # 'multiple' overlaps
