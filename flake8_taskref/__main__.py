"""``python -m flake8_taskref``: the ``flake8-taskref`` command."""
import sys

from flake8_taskref.command.cli import main

sys.exit(main())
