"""``python -m paris_tui``: the ``paris-tui`` command (the doors start their apps this way).

:func:`run` is the console script's entry point too. It turns the garbage
collector off before the first import: start-up makes hundreds of thousands
of objects that live as long as the process, and collecting among them
costs a tenth of the time to the first frame. The app turns it on again at
its first frame (``ParisApp._first_frame``), every other command at once
(:func:`paris_tui.cli.main`).
"""

import gc
import sys


def run() -> int:
    """``paris-tui``, with the collector off until the first frame."""
    gc.disable()
    from .cli import main

    return main()


if __name__ == "__main__":
    sys.exit(run())
