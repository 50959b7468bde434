"""ui/limits.py's `lean_sessions`: a new Gradio session no longer copies every block's config, yet a deep link
(`SessionState.components`) reads the same components as Gradio's own SessionState, after the same updates."""
import pytest

gr = pytest.importorskip("gradio")

from gradio import state_holder  # noqa: E402

from ui.limits import lean_sessions  # noqa: E402


def blocks(n=40):
    with gr.Blocks() as demo:
        boxes = [gr.Textbox(f"value {i}", label=f"box {i}") for i in range(n)]
        gr.State(None)
        gr.Slider(0, 10, value=3, label="slider")
    return demo, boxes


def test_a_deep_link_reads_the_same_components_after_the_same_updates():
    lean_sessions()
    init, components = state_holder.SessionState._attn_original
    demo, boxes = blocks()
    lean = state_holder.SessionState(demo)
    full = state_holder.SessionState.__new__(state_holder.SessionState)
    init(full, demo)
    assert lean.config_values == {} and len(full.config_values) == len(demo.blocks)  # nothing copied up front
    for s in (lean, full):
        s._update_value_in_config(boxes[3]._id, "typed")  # what Gradio writes as events run
        s[boxes[5]._id] = gr.Textbox("updated", label="box 5 now")
    assert list(lean.components) == list(components.fget(full))
    values = {c["props"].get("label"): c["props"].get("value") for c in lean.components if "props" in c}
    assert values["box 3"] == "typed" and values["box 7"] == "value 7"
