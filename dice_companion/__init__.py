"""Composition root: the dice-companion command wires the core, vision, hardware and ui."""
