"""ui/gradio_patches.py's `lean_sessions`: a new Gradio session no longer copies every block's config nor keeps every
output's last value (for deep links, which this app does not offer), yet a deep link (`SessionState.components`)
reads the same components as Gradio's own SessionState after the same component updates."""
from pathlib import Path

import pytest

gr = pytest.importorskip("gradio")

from gradio import state_holder  # noqa: E402

from ui.gradio_patches import lean_sessions  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def blocks(n=40):
    with gr.Blocks() as demo:
        boxes = [gr.Textbox(f"value {i}", label=f"box {i}") for i in range(n)]
        gr.State(None)
        gr.Slider(0, 10, value=3, label="slider")
    return demo, boxes


def sessions(demo):
    lean_sessions()
    init, components = state_holder.SessionState._attn_original
    lean = state_holder.SessionState(demo)
    full = state_holder.SessionState.__new__(state_holder.SessionState)
    init(full, demo)
    return lean, full, components


def test_a_deep_link_reads_the_same_components_after_the_same_updates():
    demo, boxes = blocks()
    lean, full, components = sessions(demo)
    assert lean.config_values == {} and len(full.config_values) == len(demo.blocks)  # nothing copied up front
    for s in (lean, full):
        s[boxes[5]._id] = gr.Textbox("updated", label="box 5 now")  # a component update, as an event returns
    assert list(lean.components) == list(components.fget(full))
    assert len(list(lean.components)) == len(list(components.fget(full))) >= len(boxes)


def test_an_output_s_last_value_is_not_kept():
    demo, boxes = blocks()
    lean, _, _ = sessions(demo)
    big = {"type": "plotly", "plot": "x" * 1_000_000}  # a 256-token plot's JSON is ~2 MB
    lean._update_value_in_config(boxes[3]._id, big)
    assert lean.config_values == {}
    assert all(c["props"].get("value") is not big for c in lean.components if "props" in c)


def test_the_app_offers_no_deep_link():
    """What lean_sessions leaves out (last values) only a deep link would show."""
    sources = [ROOT / "app.py", *sorted((ROOT / "ui").rglob("*.py"))]
    assert not [p.name for p in sources if "DeepLinkButton(" in p.read_text(encoding="utf-8")]
