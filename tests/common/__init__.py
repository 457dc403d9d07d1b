"""Tests of what every rules service shares: RNG, servicer, server, metrics."""
