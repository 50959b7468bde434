"""Attention Explorer, gradio-free, by kind: computations over the models in models/ (`explorer.compute`: models in,
plain records out), pure figures (`explorer.figures`: arrays in, plotly figures out, no torch), one view per tab
(`explorer.views`: records in, figures, tables and text out), serving (`explorer.serve`: the record cache, shared
runs, downloads), the strings (`explorer.i18n`) and the CLI (`python -m explorer`)."""


def __getattr__(name: str):
    """`from explorer import pipeline`, as docs/api.md and README.md show it: the fine-tuned tasks' module (callable,
    as transformers' pipeline()), imported on first use so that `import explorer.figures` loads no torch."""
    if name == "pipeline":
        from explorer.compute import pipeline
        return pipeline
    raise AttributeError(f"module 'explorer' has no attribute {name!r}")
