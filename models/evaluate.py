"""`python -m models.evaluate ...`, the command the shipped metrics and the docs cite, kept working: this
module only forwards to models/training/evaluate.py (`python -m models.training.evaluate ...`)."""
from models.training.evaluate import main

if __name__ == "__main__":
    main()
