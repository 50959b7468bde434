"""The computations: models in, plain records out (tokens, numpy arrays, predictions), gradio-free.

`inference.py` is the one inference layer every other module here builds on; the rest recompute what a view
shows (a layer vector by vector, Luong's steps, rollout, attribution, ...). Figures are drawn from these
records by `explorer/figures/`, never here.
"""
