"""`python -m models.backtranslate ...`, the command docs/training-runs/ records for the back-translated
pairs, kept working: this module only forwards to models/training/backtranslate.py
(`python -m models.training.backtranslate ...`)."""
from models.training.backtranslate import main

if __name__ == "__main__":
    main()
