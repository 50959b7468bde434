"""`python -m explorer ...`: see explorer/cli.py (or `python -m explorer --help`)."""
import sys

from explorer.cli import main

if __name__ == "__main__":
    sys.exit(main())
