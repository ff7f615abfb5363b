from .mid import *  # noqa: F401,F403
from .limited import *  # noqa: F401,F403
