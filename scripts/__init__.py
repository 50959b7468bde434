"""Scripts that write generated docs (python -m scripts.NAME); gradio-free."""
