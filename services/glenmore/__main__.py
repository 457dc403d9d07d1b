"""`python -m services.glenmore` runs the Glen More rules service."""

from services.common.server import main

main("glenmore")
