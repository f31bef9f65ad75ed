"""The one error type model preparation raises: a single line that names the fix."""

from __future__ import annotations

import errno
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


class ModelPreparationError(Exception):
    """A model could not be prepared; ``str(error)`` is one line that says how to fix it."""


@contextmanager
def disk_errors(target: Path, needed_bytes: int = 0) -> Iterator[None]:
    """Turn file-system errors while writing ``target`` into one clear line instead of a traceback."""
    try:
        yield
    except OSError as error:
        if error.errno in (errno.ENOSPC, errno.EDQUOT):
            need = f" (needs about {needed_bytes / 1e6:.0f} MB)" if needed_bytes else ""
            raise ModelPreparationError(
                f"no space left on the disk holding {target}{need}: free some space "
                "or set VOICECHAT_MODEL_DIR to a folder on another disk"
            ) from None
        if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            raise ModelPreparationError(
                f"cannot write to {target} ({error.strerror}): set VOICECHAT_MODEL_DIR to a writable folder"
            ) from None
        raise ModelPreparationError(
            f"cannot write {target} ({error.strerror or error}): check the folder "
            "or set VOICECHAT_MODEL_DIR to another one"
        ) from None
