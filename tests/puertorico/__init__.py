"""Puerto Rico rule scenarios: the worked examples (§12) and the numbered rulings (§8) of the rules file."""
