"""`python -m models.bert_ko ...`, the command assets/bert-ko/metrics.json records, kept working: this module only
forwards to models/training/bert_ko.py (`python -m models.training.bert_ko ...`)."""
from models.training.bert_ko import main

if __name__ == "__main__":
    main()
