"""Prepare every model the settings select, from the installed packages, once.

``voicechat prepare`` and ``voicechat serve`` call :func:`prepare_models`. Packaged defaults are
converted into ``settings.model_dir`` (checksummed, built under a temporary name, cached); any other
value of a model setting is an ordinary model name or path and is passed through untouched.
"""

from __future__ import annotations

import fcntl
import logging
import multiprocessing
import shutil
import time
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from app.config import Settings
from app.models import sources
from app.models.cache import Artifact, ensure
from app.models.errors import ModelPreparationError, disk_errors
from app.models.sources import ModelSource

log = logging.getLogger(__name__)

__all__ = ["ModelPreparationError", "PreparedModels", "prepare_models"]


@dataclass(frozen=True)
class PreparedModels:
    """Paths (or, for non-packaged choices, model names) that each stage loads."""

    whisper_pt: Path | str  # openai-whisper checkpoint; a name such as "small" when one was configured
    llm_dir: Path | str  # transformers folder; a hub name when one was configured
    piper_model: Path
    piper_config: Path
    draft_llm_dir: Path | str | None = None  # the speculative-decoding draft LLM's folder, when one is chosen

    def describe(self) -> str:
        return "\n".join(
            [
                f"whisper checkpoint : {self.whisper_pt}",
                f"LLM folder         : {self.llm_dir}",
                f"draft LLM folder   : {self.draft_llm_dir or 'none'}",
                f"piper voice        : {self.piper_model}",
                f"piper voice config : {self.piper_config}",
            ]
        )


@dataclass(frozen=True)
class PackagedSources:
    """Where packaged files are read from; None means the installed package (a copy can be checked instead)."""

    llm_gguf: ModelSource | None = None
    whisper_ct2: ModelSource | None = None
    piper_voice: tuple[ModelSource, ModelSource] | None = None


def prepare_models(
    settings: Settings,
    progress: bool = False,
    *,
    verify: bool = False,
    packaged: PackagedSources | None = None,
) -> PreparedModels:
    """Return loadable model locations, building the packaged ones into ``settings.model_dir`` if needed.

    ``verify`` re-hashes already prepared files (otherwise their size and mtime are trusted);
    ``packaged`` overrides where the packaged source files are read from.
    """
    started = time.perf_counter()
    packaged = packaged or PackagedSources()
    model_dir = Path(settings.model_dir).expanduser()
    if model_dir.exists() and not model_dir.is_dir():
        raise ModelPreparationError(f"model dir {model_dir} is not a folder: set VOICECHAT_MODEL_DIR to a folder")

    # Locate every source first, so a missing package is reported before minutes of converting.
    whisper_pt, whisper_build = _whisper(settings.whisper_model, model_dir, packaged.whisper_ct2)
    llm_dir, llm_build = _llm(settings.llm_model, model_dir, packaged.llm_gguf, progress)
    draft = settings.draft_llm
    draft_dir, draft_build = _llm(draft, model_dir, None, progress) if draft else (None, None)
    (piper_model, piper_config), piper_build = _piper(settings.tts_voice, settings.tts_backend, model_dir,
                                                      packaged.piper_voice)
    builds = [artifact for artifact in (whisper_build, llm_build, draft_build, piper_build) if artifact is not None]
    if builds:
        with _exclusive(model_dir):
            for artifact in builds:
                ensure(artifact, verify=verify, progress=progress)
    prepared = PreparedModels(whisper_pt, llm_dir, piper_model, piper_config, draft_dir)
    log.info("models ready in %.2f s", time.perf_counter() - started)
    return prepared


@contextmanager
def _exclusive(model_dir: Path) -> Iterator[None]:
    """One preparing process per model dir at a time (servers and test runs may start together)."""
    with disk_errors(model_dir):
        model_dir.mkdir(parents=True, exist_ok=True)
        lock = (model_dir / ".prepare.lock").open("a")
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _whisper(choice: str, model_dir: Path, source: ModelSource | None) -> tuple[Path | str, Artifact | None]:
    if choice not in sources.PACKAGED_WHISPER:
        path = Path(choice).expanduser()
        if choice.endswith(".pt"):
            if not path.is_file():
                raise ModelPreparationError(
                    f"Whisper checkpoint {path} not found: set VOICECHAT_ASR_MODEL to an existing .pt"
                )
            return path, None
        return choice, None  # an openai-whisper model name, loaded (and downloaded) by openai-whisper itself
    ct2 = source or sources.whisper_ct2(choice)
    output = model_dir / f"whisper-{choice}.pt"

    def build(temporary: Path) -> None:
        from app.models.whisper_ct2 import convert_ct2_to_whisper  # imports torch: only when building

        ct2.verify()
        convert_ct2_to_whisper(ct2, temporary)

    return output, Artifact(f"whisper {choice}", output, ct2.parts, build, expected_bytes=ct2.size + 4_000_000)


def _llm(choice: str, model_dir: Path, source: ModelSource | None, progress: bool) -> tuple[Path | str, Artifact | None]:
    packaged = sources.PACKAGED_LLMS.get(choice)
    if packaged is None:
        path = Path(choice).expanduser()
        return (path if path.exists() else choice), None  # a local folder, or a model name for transformers
    gguf = source or packaged.source()
    output = model_dir / packaged.folder

    def build(temporary: Path) -> None:
        from app.models.llm_gguf import convert_gguf_to_transformers  # imports transformers: only when building

        # Checks the sha256 first (a split GGUF while joining it), then dequantises to bf16, in a process of
        # its own: the whole model in bf16 (and transformers' copies of it) never counts in the server's memory.
        with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn")) as worker:
            worker.submit(convert_gguf_to_transformers, gguf, temporary, progress, name=f"LLM {packaged.display}",
                          stop_tokens=packaged.stop_tokens).result()

    # Room for the bf16 folder, and for the joined GGUF while it is being read.
    needed = packaged.prepared_bytes + (packaged.size if len(gguf.parts) > 1 else 0)
    return output, Artifact(f"LLM {packaged.display}", output, gguf.parts, build, expected_bytes=needed)


def _piper(voice: str, backend: str, model_dir: Path, packaged: tuple[ModelSource, ModelSource] | None
           ) -> tuple[tuple[Path, Path], Artifact | None]:
    if voice != sources.PACKAGED_VOICE and backend == "piper":
        model = Path(voice).expanduser()
        config = model.with_name(model.name + ".json")
        if model.suffix != ".onnx" or not model.is_file() or not config.is_file():
            raise ModelPreparationError(
                f"piper voice {voice} not found: set VOICECHAT_TTS_VOICE to 'joe-medium' "
                "or an .onnx file with its .onnx.json beside it"
            )
        return (model, config), None
    # The packaged voice; also when the voice setting names another backend's model, as piper is its fallback.
    model_source, config_source = packaged or sources.piper_voice()
    output = model_dir / "piper-en_US-joe-medium"
    model_name, config_name = "en_US-joe-medium.onnx", "en_US-joe-medium.onnx.json"

    def build(temporary: Path) -> None:
        temporary.mkdir()
        for source, name in ((model_source, model_name), (config_source, config_name)):
            source.verify()
            shutil.copyfile(source.parts[0], temporary / name)

    artifact = Artifact("piper voice joe-medium", output, model_source.parts + config_source.parts, build,
                        expected_bytes=model_source.size + config_source.size)
    return (output / model_name, output / config_name), artifact
