"""Puerto Rico's own benchmarks: its rows against an outside competition's agents."""
