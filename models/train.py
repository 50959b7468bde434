"""`python -m models.train ...`, the command every shipped checkpoint's metrics.json records and
docs/training-runs/ cites, kept working: this module only forwards to models/training/train.py
(`python -m models.training.train ...`)."""
from models.training.train import main

if __name__ == "__main__":
    main()
