"""The pygame touchscreen app."""
