"""`python -m services.puertorico` runs the Puerto Rico rules service."""

from services.puertorico.server import main

main()
