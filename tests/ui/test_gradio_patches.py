"""ui/gradio_patches.py against the installed Gradio: each internal a patch replaces, wraps or reads is still there,
with the signature and the use the patch relies on. A Gradio release that renames or reshapes one fails the test
of that patch, by name, instead of breaking the app silently; the start-up check names the supported version."""
import inspect
import logging
import re
from pathlib import Path

import pytest

gradio = pytest.importorskip("gradio")

from gradio import queueing, state_holder  # noqa: E402
from gradio.blocks import BlocksConfig  # noqa: E402
from gradio.server_messages import ProcessCompletedMessage  # noqa: E402

from ui import gradio_patches  # noqa: E402
from ui.gradio_patches import SUPPORTED_GRADIO, check_gradio_version  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def params(fn) -> list[str]:
    return list(inspect.signature(fn).parameters)


def test_the_supported_version_is_the_pinned_one_and_the_installed_one():
    pins = re.findall(r"^gradio==(\S+)", (ROOT / "requirements.txt").read_text(), re.M)
    assert pins == [SUPPORTED_GRADIO]
    assert gradio.__version__ == SUPPORTED_GRADIO, (
        f"Gradio {gradio.__version__} is installed, the patches fit {SUPPORTED_GRADIO}: the tests below say which "
        "of them still hold")


def test_another_version_gets_a_warning_naming_the_supported_one(caplog):
    assert check_gradio_version(SUPPORTED_GRADIO) is None
    with caplog.at_level(logging.WARNING, logger="ui.gradio_patches"):
        text = check_gradio_version("7.0.0")
    assert "Gradio 7.0.0 is installed" in text and f"gradio=={SUPPORTED_GRADIO}" in text
    assert text in caplog.text


def _original_session_init():
    cls = state_holder.SessionState
    return cls._attn_original[0] if getattr(cls, "_attn_lean", False) else cls.__init__


def test_lean_sessions_fits_session_state():
    """lean_sessions replaces SessionState.__init__ (it hands it a stand-in with only `default_config`),
    `components` (a property it re-implements with `blocks_config.config_for_block`) and
    `_update_value_in_config` (no last values)."""
    cls = state_holder.SessionState
    init = _original_session_init()
    assert params(init) == ["self", "blocks"]
    source = inspect.getsource(init)
    # it reads of the Blocks what the stand-in (_NoBlocks) has: default_config, and blocks (empty: no copies made)
    assert set(re.findall(r"(?<![\w.])blocks\.(\w+)", source)) == {"default_config", "blocks"}
    assert "config_for_block(" in source and "if k in blocks.blocks" in source
    components = cls._attn_original[1] if getattr(cls, "_attn_lean", False) else cls.components
    assert isinstance(components, property)
    assert "config_values" in inspect.getsource(components.fget)
    assert params(cls._update_value_in_config) == ["self", "key", "value"]
    assert params(BlocksConfig.config_for_block)[:3] == ["_id", "rendered_ids", "block"]  # a static method
    assert "default_config" in inspect.getsource(gradio.Blocks.__init__)


def test_session_states_reads_what_gradio_writes_for_a_session():
    """The first screens read a session's States as Gradio keeps them: StateHolder.session_data by session hash, each
    SessionState's state_data by component id, written by SessionState.__setitem__ (what an event's outputs do)."""
    with gradio.Blocks() as demo:
        kept, other = gradio.State(None), gradio.State("built")
    holder = state_holder.StateHolder()
    holder.set_blocks(demo)
    assert gradio_patches.session_states(demo, "s", [kept]) is None  # no such session: nothing known
    holder["s"][kept._id] = "a record"
    assert gradio_patches.session_states(demo, "s", [kept, other]) == ["a record", gradio_patches.UNSET]
    assert gradio_patches.session_states(demo, None, [kept]) is None
    assert gradio_patches.session_states(gradio.Blocks(), "s", [kept]) is None  # not launched: no StateHolder


def test_fair_order_fits_the_queue():
    """fair_order wraps Queue.create_event_queue_for_fn and replaces each EventQueue.queue, a list that Gradio
    appends to, takes the head of and removes from by value (FairList keeps that contract)."""
    assert params(queueing.Queue.create_event_queue_for_fn) == ["self", "block_fn"]
    assert "self.queue: list[Event] = []" in inspect.getsource(queueing.EventQueue.__init__)
    source = inspect.getsource(queueing.Queue)
    assert "event_queue.queue.append(event)" in source
    assert "event_queue.queue[0]" in source and ".queue.remove(" in source
    assert {"avg_time", "count"} <= set(vars(queueing.ProcessTime()))


def test_the_queue_state_the_limits_read_is_there():
    """queued_events, pending_messages, session_of, end_event, forget_finished_sessions: the Queue's attributes and
    methods they use, and the Event fields the fair order and the drops read."""
    init = inspect.getsource(queueing.Queue.__init__)
    for name in ("event_queue_per_concurrency_id", "pending_messages_per_session", "pending_event_ids_session",
                 "event_ids_to_events", "active_jobs", "process_time_per_fn"):
        assert f"self.{name}" in init, name
    assert "AsyncQueue" in inspect.getsource(queueing.Queue.push)  # a session's messages: an asyncio.Queue
    assert params(queueing.Queue.send_message) == ["self", "event", "event_message"]
    assert "event_id" in params(queueing.Queue.clean_events)
    event = inspect.getsource(queueing.Event.__init__)
    for name in ("self._id", "self.session_hash", "self.fn", "self.request", "self.concurrency_id"):
        assert name in event, name


def test_dropped_is_a_process_completed_message_with_an_event_id():
    assert {"output", "success", "event_id"} <= set(ProcessCompletedMessage.model_fields)
    m = gradio_patches.dropped_result(ProcessCompletedMessage(output={}, success=True, event_id="e1"), "gone")
    assert isinstance(m, ProcessCompletedMessage) and gradio_patches.is_result(m)
    assert (m.event_id, m.success, m.output["error"]) == ("e1", False, "gone")


def test_boot_s_stub_writer_target_is_there():
    """ui/boot.py (which must not import Gradio) replaces gradio.component_meta.create_or_modify_pyi."""
    from gradio import component_meta

    from ui.boot import STUBS_MODULE

    assert STUBS_MODULE == component_meta.__name__ and callable(component_meta.create_or_modify_pyi)
    assert "create_or_modify_pyi(" in inspect.getsource(component_meta.ComponentMeta.__new__)
