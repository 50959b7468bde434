"""Readable PyTorch models that return their attention as data (see models/trace.py)."""
