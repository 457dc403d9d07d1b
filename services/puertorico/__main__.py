"""`python -m services.puertorico` runs the Puerto Rico rules service."""

from services.common.server import main

main("puertorico")
