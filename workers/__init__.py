"""Celery workers: bot turns, turn clocks, end-game scoring and batch self-play."""
