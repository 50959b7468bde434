"""`python -m models.export_hf ...` and `import models.export_hf` (which registers the exported folder's
classes with transformers' Auto classes), kept working under the old name that docs/finetuning.md and
exported folders' users cite; this module only forwards to models/training/export_hf.py."""
from models.training.export_hf import main

if __name__ == "__main__":
    main()
