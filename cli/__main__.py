"""`python -m cli` runs the `bg` command-line client."""

import sys

from cli.app import main

sys.exit(main())
