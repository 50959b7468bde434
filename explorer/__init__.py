"""Attention Explorer: inference records, figures and CLI over the models in models/."""
