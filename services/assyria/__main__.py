"""`python -m services.assyria` runs the Assyria rules service."""

from services.common.server import main

main("assyria")
