"""Build-once artifacts in the model directory, each with a manifest of checksums.

An artifact (a file or a folder) is built under a temporary name and renamed into place, then a
``<name>.manifest.json`` records its sources' names and sizes and its own files' sizes, mtimes
and sha256. Sources are pinned by checksum when they are built from, so where a source lives
(another virtual environment, a reinstall) does not matter: only a different file does. A later call
that finds everything unchanged returns at once; ``verify=True`` re-hashes
the prepared files, so silent corruption is detected too. Anything that does not match is rebuilt.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from app.models.errors import disk_errors

log = logging.getLogger(__name__)

MANIFEST_VERSION = 2
_CHUNK = 8 * 1024 * 1024


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(_CHUNK), b""):
            digest.update(block)
    return digest.hexdigest()


def _files_of(artifact: Path) -> list[Path]:
    if artifact.is_dir():
        return sorted(p for p in artifact.rglob("*") if p.is_file())
    return [artifact]


def _stat_entry(path: Path) -> dict[str, int]:
    stat = path.stat()
    return {"size": stat.st_size, "mtime_ns": stat.st_mtime_ns}


@dataclass
class Artifact:
    """One prepared thing: where it goes, what it is made from, and how to build it."""

    name: str
    output: Path
    sources: tuple[Path, ...]
    build: Callable[[Path], None]  # writes the artifact at the given (temporary) path
    expected_bytes: int = 0  # for the free-space check and the message when the disk is full

    @property
    def manifest_path(self) -> Path:
        return self.output.with_name(self.output.name + ".manifest.json")

    def _source_entries(self) -> dict[str, int]:
        return {p.name: p.stat().st_size for p in self.sources}

    def _read_manifest(self) -> dict[str, Any] | None:
        try:
            manifest = json.loads(self.manifest_path.read_text())
        except (OSError, ValueError):
            return None
        return manifest if isinstance(manifest, dict) and manifest.get("version") == MANIFEST_VERSION else None

    def problem(self, verify: bool) -> str | None:
        """Why the prepared artifact cannot be reused as is (None when it can)."""
        manifest = self._read_manifest()
        if manifest is None:
            return "not prepared yet"
        if not self.output.exists():
            return "prepared files missing"
        if manifest.get("sources") != self._source_entries():
            return "source package changed"
        recorded: dict[str, dict[str, Any]] = manifest.get("files", {})
        present = {str(p.relative_to(self.output.parent)): p for p in _files_of(self.output)}
        if set(recorded) != set(present):
            return "prepared files added or missing"
        retimed = False
        for relative, entry in recorded.items():
            path = present[relative]
            stat = _stat_entry(path)
            if stat["size"] != entry["size"]:
                return f"{relative} was modified"
            if stat["mtime_ns"] != entry["mtime_ns"] or verify:
                # a copy (an image layer, an archive) changes times only: the checksum tells
                if sha256_file(path) != entry["sha256"]:
                    return f"{relative} was modified" if stat["mtime_ns"] != entry["mtime_ns"] else (
                        f"{relative} is corrupted (checksum mismatch)")
                retimed = retimed or stat["mtime_ns"] != entry["mtime_ns"]
                recorded[relative] = {**entry, **stat}
        if retimed:
            self._write_manifest(recorded)  # the same files with new times: checked once, not at every start
        return None

    def _write_manifest(self, files: dict[str, dict[str, Any]] | None = None) -> None:
        """The manifest of the prepared files (``files``: their entries, already hashed)."""
        files = files or {
            str(p.relative_to(self.output.parent)): {**_stat_entry(p), "sha256": sha256_file(p)}
            for p in _files_of(self.output)
        }
        manifest = {"version": MANIFEST_VERSION, "name": self.name, "sources": self._source_entries(), "files": files}
        temporary = self.manifest_path.with_name(self.manifest_path.name + ".tmp")
        temporary.write_text(json.dumps(manifest, indent=1) + "\n")
        os.replace(temporary, self.manifest_path)

    def rebuild(self) -> None:
        """Build under a temporary name, then swap it in; a crash leaves the old state or nothing."""
        folder = self.output.parent
        temporary = folder / f".{self.output.name}.tmp-{os.getpid()}"
        with disk_errors(folder, self.expected_bytes):
            folder.mkdir(parents=True, exist_ok=True)
            free = shutil.disk_usage(folder).free
            if self.expected_bytes and free < self.expected_bytes:
                raise OSError(28, "No space left on device")  # ENOSPC: reported as one line below
            _remove(temporary)
            try:
                self.build(temporary)
                self.manifest_path.unlink(missing_ok=True)
                _remove(self.output)
                os.replace(temporary, self.output)
            finally:
                _remove(temporary)
            self._write_manifest()


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink(missing_ok=True)


def ensure(artifact: Artifact, *, verify: bool = False, progress: bool = False) -> bool:
    """Make ``artifact`` present and intact; returns True when it had to be (re)built."""
    problem = artifact.problem(verify)
    if problem is None:
        _say(progress, f"{artifact.name}: ready ({artifact.output})")
        return False
    _say(progress, f"{artifact.name}: {problem}; building {artifact.output.name} ...")
    started = time.perf_counter()
    artifact.rebuild()
    size = sum(p.stat().st_size for p in _files_of(artifact.output))
    _say(progress, f"{artifact.name}: built {size / 1e6:.0f} MB in {time.perf_counter() - started:.1f} s")
    return True


def _say(progress: bool, message: str) -> None:
    if progress:
        print(message, flush=True)
    else:
        log.info(message)
