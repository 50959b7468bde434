"""`python -m explorer ...`: see explorer/cli.py (or `python -m explorer --help`)."""
from explorer.cli import entry

if __name__ == "__main__":
    entry()
