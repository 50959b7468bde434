"""`python -m models.continue_bert ...`, the command docs/training-runs/ records for continued BERT
pre-training, kept working: this module only forwards to models/training/continue_bert.py
(`python -m models.training.continue_bert ...`)."""
from models.training.continue_bert import main

if __name__ == "__main__":
    main()
