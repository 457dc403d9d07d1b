"""`bg`: a command-line client of the gateway for people, using only the public gateway API."""
