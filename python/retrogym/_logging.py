"""Messages of the C library and of the emulator cores, forwarded to the ``retrogym`` logger."""
import logging

logger = logging.getLogger("retrogym")

# rg_log_level (libretro's numbers) -> logging levels
_LEVELS = {0: logging.DEBUG, 1: logging.INFO, 2: logging.WARNING, 3: logging.ERROR}
# logging level names accepted by the log_level option -> rg_log_level
LEVEL_NUMBERS = {"debug": 0, "info": 1, "warn": 2, "warning": 2, "error": 3, "none": 4}


def forward(level, message):
    """Called by the extension (with the GIL) for each message at or above the env's log_level."""
    logger.log(_LEVELS.get(level, logging.WARNING), "%s", message)
