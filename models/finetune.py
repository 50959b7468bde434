"""`python -m models.finetune ARGS`: the same run as `python -m models.train finetune ARGS` (the command the
shipped tasks record); this module only forwards to models/training/finetune_cli.py
(`python -m models.training.train finetune ARGS`)."""
from models.training.finetune_cli import main

if __name__ == "__main__":
    main()
