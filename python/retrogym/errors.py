"""The exceptions of retrogym: one class per C error code (include/retrogym/error.h), all under ``retrogym.Error``.

Each class also subclasses the builtin exception the code mapped to before this hierarchy existed, so code written
as ``except ValueError`` or ``except FileNotFoundError`` keeps working. Every instance carries the C library's
message and two attributes: ``rg_error`` (the code's name, "RG_ENOTFOUND") and ``rg_code`` (its value, -3).

    try:
        env.step(action)
    except retrogym.ScriptTimeout:       # a Lua script ran past its instruction or time budget
        ...

The extension (python/retrogym/_ext/errors.c) raises these; this module imports nothing of retrogym, so the
extension can load it at any time.
"""
from typing import Dict, Optional, Type

__all__ = [
    "Error",
    "OutOfMemory",
    "InvalidArgument",
    "NotFound",
    "IOFailure",
    "Unsupported",
    "CoreError",
    "StateError",
    "Misuse",
    "OutOfRange",
    "CorruptData",
    "TooBig",
    "BufferTooSmall",
    "ScriptTimeout",
]


class Error(Exception):
    """Any error the retrogym C library reports."""

    rg_error: str = "RG_E?"
    rg_code: Optional[int] = None


class OutOfMemory(Error, MemoryError):
    """RG_ENOMEM: out of memory."""

    rg_error = "RG_ENOMEM"


class InvalidArgument(Error, ValueError):
    """RG_EINVAL: a bad argument or option (a value over one of the limits, an unknown name, a wrong length)."""

    rg_error = "RG_EINVAL"


class NotFound(Error, FileNotFoundError):
    """RG_ENOTFOUND: a game, ROM, state, scenario, core or system that is not there."""

    rg_error = "RG_ENOTFOUND"


class IOFailure(Error, OSError):
    """RG_EIO: reading or writing a file failed."""

    rg_error = "RG_EIO"


class Unsupported(Error, NotImplementedError):
    """RG_EUNSUPPORTED: a core or feature that is missing (a core that cannot save states, ...)."""

    rg_error = "RG_EUNSUPPORTED"


class CoreError(Error, RuntimeError):
    """RG_ECORE: the emulator core refused or failed."""

    rg_error = "RG_ECORE"


class StateError(Error, ValueError):
    """RG_ESTATE: a save state that is corrupt, truncated or of another core."""

    rg_error = "RG_ESTATE"


class Misuse(Error, RuntimeError):
    """RG_EMISUSE: a call in the wrong order, or on a closed object."""

    rg_error = "RG_EMISUSE"


class OutOfRange(Error, ValueError):
    """RG_ERANGE: a value outside its range: an action id, an unmapped address, a frame a movie does not have."""

    rg_error = "RG_ERANGE"


class CorruptData(Error, ValueError):
    """RG_ECORRUPT: malformed input data (ROM, JSON, archive, snapshot), or a Lua script that failed."""

    rg_error = "RG_ECORRUPT"


class TooBig(Error, ValueError):
    """RG_ETOOBIG: input larger than its limit (a file, an archive entry, a movie's frames)."""

    rg_error = "RG_ETOOBIG"


class BufferTooSmall(Error, ValueError):
    """RG_EBUFFER: an output buffer too small for what is written into it."""

    rg_error = "RG_EBUFFER"


class ScriptTimeout(Error, ValueError, TimeoutError):
    """RG_ETIMEOUT: a scenario's Lua script ran past its instruction or wall-clock budget (a ValueError as before,
    and a TimeoutError)."""

    rg_error = "RG_ETIMEOUT"


BY_NAME: Dict[str, Type[Error]] = {cls.rg_error: cls for cls in (
    OutOfMemory, InvalidArgument, NotFound, IOFailure, Unsupported, CoreError, StateError, Misuse, OutOfRange,
    CorruptData, TooBig, BufferTooSmall, ScriptTimeout)}
"""The class of each code's name ("RG_ETIMEOUT" -> ScriptTimeout): what the extension raises."""
