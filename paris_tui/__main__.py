"""``python -m paris_tui``: the ``paris-tui`` command (the doors start their apps this way)."""

import sys

from .cli import main

sys.exit(main())
