"""`python -m services.glenmore` runs the Glen More rules service."""

from services.glenmore.server import main

main()
