"""The camera pipeline: frame sources, throw watcher, dice location, face reading, confidence."""
