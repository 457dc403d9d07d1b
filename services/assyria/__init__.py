"""Assyria rules (in progress): so far only its static data, checked on load (`data`). Not a
registered game yet."""
