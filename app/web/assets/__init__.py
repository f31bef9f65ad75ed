"""The pages' templates and static files, found as package data wherever the package is installed.

The repository keeps them at the top level (``static/``, ``templates/``); this package links to them, and a
built wheel carries copies, so a source checkout, an editable install and a wheel all resolve them here.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def _directory(name: str) -> Path:
    path = Path(str(files(__name__) / name))  # pip installs packages unzipped, so this is a real folder
    if not path.is_dir():
        raise RuntimeError(f"the package data folder {name}/ is missing from {path.parent}: reinstall voicechat")
    return path


def static_dir() -> Path:
    """``/static``: scripts, styles, the favicon."""
    return _directory("static")


def templates_dir() -> Path:
    """The Jinja templates of ``/`` and ``/dashboard``."""
    return _directory("templates")
