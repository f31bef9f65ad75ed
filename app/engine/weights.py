"""Where the lean forward's weights come from.

On a CPU the lean forward reads a local transformers folder one tensor at a time (never the whole
model in memory at once: the peak stays near what the engine keeps), and the 4/8-bit records it packs
are cached on disk, so only the first start pays for packing.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Iterable
from pathlib import Path

import torch
from safetensors import safe_open
from safetensors.torch import save_file

from app.config import cache_home
from app.kernels import quantize
from app.kernels.quantize import QuantizedWeight

log = logging.getLogger(__name__)


class CheckpointTensors:
    """The tensors of a local transformers folder by name, each read from its safetensors file when asked."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        index = folder / "model.safetensors.index.json"
        if index.is_file():
            self._files = {name: folder / file for name, file in json.loads(index.read_text())["weight_map"].items()}
        else:
            single = folder / "model.safetensors"
            with safe_open(str(single), "pt") as handle:
                self._files = {name: single for name in handle.keys()}

    @classmethod
    def of(cls, path: str | Path) -> CheckpointTensors | None:
        """The folder's tensors, or None where ``path`` is not a local folder of safetensors (a hub name)."""
        folder = Path(path).expanduser()
        if (folder / "model.safetensors").is_file() or (folder / "model.safetensors.index.json").is_file():
            return cls(folder)
        return None

    def __contains__(self, name: str) -> bool:
        return name in self._files

    def get(self, name: str) -> torch.Tensor:
        with safe_open(str(self._files[name]), "pt") as handle:
            return handle.get_tensor(name)

    @property
    def files(self) -> list[Path]:
        return sorted(set(self._files.values()))


class ModelTensors:
    """The same interface over a model transformers has loaded (GPUs, hub names)."""

    def __init__(self, model: torch.nn.Module) -> None:
        self._parameters = dict(model.named_parameters(remove_duplicate=False))

    def __contains__(self, name: str) -> bool:
        return name in self._parameters

    def get(self, name: str) -> torch.Tensor:
        return self._parameters[name].data


class PackedCache:
    """The packed linears of one checkpoint, saved after the first packing and loaded on later starts.

    The key covers what the records depend on: the checkpoint's files (name, size, mtime), the packing
    code and the bits setting; a change to any of them packs anew.
    """

    def __init__(self, files: Iterable[Path], bits: str) -> None:
        digest = hashlib.sha256(Path(quantize.__file__).read_bytes())
        for file in files:
            stat = file.stat()
            digest.update(f"{file.resolve()}|{stat.st_size}|{stat.st_mtime_ns}|".encode())
        digest.update(bits.encode())
        self.path = cache_home() / "voicechat" / "packed" / f"{digest.hexdigest()[:20]}.safetensors"

    def load(self) -> dict[str, QuantizedWeight] | None:
        if not self.path.is_file():
            return None
        try:
            with safe_open(str(self.path), "pt") as handle:
                shapes = json.loads(handle.metadata()["shapes"])
                return {name: QuantizedWeight(bits, handle.get_tensor(name), n, k) for name, (bits, n, k) in shapes.items()}
        except (OSError, KeyError, ValueError, RuntimeError) as error:  # a damaged file packs anew
            log.warning("ignoring the packed weights cache %s (%s)", self.path, error)
            return None

    def save(self, packed: dict[str, QuantizedWeight]) -> None:
        shapes = {name: (w.bits, w.out_features, w.in_features) for name, w in packed.items()}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        temporary = self.path.with_suffix(".tmp")
        save_file({name: w.records for name, w in packed.items()}, str(temporary), metadata={"shapes": json.dumps(shapes)})
        temporary.replace(self.path)
        log.info("packed weights cached in %s (%.0f MiB)", self.path, self.path.stat().st_size / 2**20)
