"""`python -m companion_app.cli ...`: the same as the `companion` command."""

import sys

from companion_app.cli import main

sys.exit(main())
