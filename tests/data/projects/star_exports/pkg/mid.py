"""Re-exports its helpers (a chain of star imports)."""
from .helpers import *  # noqa: F401,F403
