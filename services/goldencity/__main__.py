"""`python -m services.goldencity` runs The Golden City rules service."""

from services.common.server import main

main("goldencity")
