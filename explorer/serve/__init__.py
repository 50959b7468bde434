"""Serving a visitor's records: the server-side record cache, the runs shared across sessions, downloads
written on request, and the export to bertviz's shapes. Gradio-free; the UI calls these through the views.
"""
