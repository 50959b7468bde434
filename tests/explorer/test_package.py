"""The explorer package by kind (CONTRIBUTING.md, "Layout tells the architecture"): `from explorer import pipeline`
keeps working as docs/api.md and README.md show it, and `import explorer` alone loads no torch (the figures'
purity rests on it: tests/explorer/test_figures.py)."""
import subprocess
import sys


def test_from_explorer_import_pipeline_is_the_callable_tasks_module():
    from explorer import pipeline
    import explorer.compute.pipeline as module
    assert pipeline is module and callable(pipeline)


def test_the_package_and_its_kinds_import_without_torch():
    code = ("import sys, explorer, explorer.compute, explorer.serve, explorer.figures; "
            "print('torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
