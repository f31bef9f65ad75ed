"""Lossless CTranslate2 Whisper ``model.bin`` -> openai-whisper ``.pt`` checkpoint.

The packaged Whisper models are in CTranslate2 (faster-whisper) format, but they hold the original
float16 tensors, so renaming (and splitting the fused attention projections) gives back exactly the
checkpoint openai-whisper loads. The binary layout is parsed here directly (little-endian):
``u32 version, str spec, u32 revision, u32 n_variables``, then per variable ``str name, u8 rank,
rank x u32 shape, u8 dtype, u32 nbytes, bytes``, then ``u32 n_aliases`` and ``(str alias, str target)``
pairs; a ``str`` is a u16 length (counting a trailing NUL) and the bytes.
"""

from __future__ import annotations

import re
import struct
from pathlib import Path
from typing import Protocol

import numpy as np
import torch

from app.models.errors import ModelPreparationError
from app.models.sources import ModelSource

# CTranslate2 dtype codes. int8/int16 appear as small settings (e.g. the activation kind); int8
# *weights* mean a quantised model, which cannot be converted back losslessly.
_DTYPES = {0: np.float32, 1: np.int8, 2: np.int16, 3: np.int32, 4: np.float16}
_QUANTISED = (1, 2)


class _Reader(Protocol):
    def read(self, size: int) -> bytes: ...


class _Stream:
    """Exact-size reads; a short read means the file is truncated."""

    def __init__(self, reader: _Reader, label: str) -> None:
        self._reader = reader
        self._label = label

    def take(self, size: int) -> bytes:
        data = self._reader.read(size)
        if len(data) != size:
            raise ModelPreparationError(f"{self._label} is truncated")
        return data

    def unpack(self, fmt: str) -> tuple:
        return struct.unpack("<" + fmt, self.take(struct.calcsize("<" + fmt)))

    def string(self) -> str:
        (length,) = self.unpack("H")
        return self.take(length).rstrip(b"\0").decode("utf-8")


def read_ct2_variables(source: ModelSource) -> dict[str, np.ndarray]:
    """All variables of a CTranslate2 model file, aliases resolved, by their CTranslate2 names."""
    label = f"{source.parts[0].name} (reinstall: {source.install})"
    try:
        with source.open_joined() as handle:
            stream = _Stream(handle, label)
            (version,) = stream.unpack("I")
            if version < 5:  # the header with spec name and revision starts at format version 5
                raise ModelPreparationError(f"{label}: unsupported CTranslate2 format version {version}")
            spec = stream.string()
            if spec != "WhisperSpec":
                raise ModelPreparationError(f"{label} holds a {spec!r}, not a Whisper model")
            stream.unpack("I")  # spec revision
            (count,) = stream.unpack("I")
            variables: dict[str, np.ndarray] = {}
            for _ in range(count):
                name = stream.string()
                (rank,) = stream.unpack("B")
                shape = stream.unpack(f"{rank}I") if rank else ()
                dtype_code, nbytes = stream.unpack("BI")
                if dtype_code not in _DTYPES or (dtype_code in _QUANTISED and rank > 1):
                    raise ModelPreparationError(
                        f"{label}: {name} has CTranslate2 dtype {dtype_code}; only float16/float32 "
                        "models convert losslessly"
                    )
                data = np.frombuffer(stream.take(nbytes), dtype=_DTYPES[dtype_code])
                variables[name] = data.reshape(shape)
            (aliases,) = stream.unpack("I")
            for _ in range(aliases):
                alias, target = stream.string(), stream.string()
                variables[alias] = variables[target]
    except OSError as error:
        raise ModelPreparationError(f"cannot read {error.filename or label} ({error.strerror}): {source.install}") from None
    except (ValueError, KeyError, UnicodeDecodeError) as error:
        raise ModelPreparationError(f"{label} is damaged ({error})") from None
    return variables


def _block_names(side: str, index: int) -> dict[str, str]:
    """openai-whisper name prefix for each CTranslate2 prefix of one transformer block."""
    ct2, pt = f"{side}/layer_{index}", f"{side}.blocks.{index}"
    names = {
        f"{ct2}/self_attention/layer_norm": f"{pt}.attn_ln",
        f"{ct2}/self_attention/linear_1": f"{pt}.attn.out",
        f"{ct2}/ffn/layer_norm": f"{pt}.mlp_ln",
        f"{ct2}/ffn/linear_0": f"{pt}.mlp.0",
        f"{ct2}/ffn/linear_1": f"{pt}.mlp.2",
    }
    if side == "decoder":
        names |= {
            f"{ct2}/attention/layer_norm": f"{pt}.cross_attn_ln",
            f"{ct2}/attention/linear_0": f"{pt}.cross_attn.query",
            f"{ct2}/attention/linear_2": f"{pt}.cross_attn.out",
        }
    return names


def _tensor(array: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(array.copy())


def _put_linear_or_norm(state: dict[str, torch.Tensor], variables: dict[str, np.ndarray], ct2: str, pt: str) -> None:
    for ct2_leaf, pt_leaf in (("weight", "weight"), ("bias", "bias"), ("gamma", "weight"), ("beta", "bias")):
        if f"{ct2}/{ct2_leaf}" in variables:
            state[f"{pt}.{pt_leaf}"] = _tensor(variables[f"{ct2}/{ct2_leaf}"])


def _put_fused(state: dict[str, torch.Tensor], variables: dict[str, np.ndarray], ct2: str, pt: str,
               parts: tuple[str, ...]) -> None:
    """Split a fused projection (q,k,v or k,v) along its output dim; openai-whisper's key has no bias."""
    weights = np.split(variables[f"{ct2}/weight"], len(parts))
    biases = np.split(variables[f"{ct2}/bias"], len(parts))
    for part, weight, bias in zip(parts, weights, biases):
        state[f"{pt}.{part}.weight"] = _tensor(weight)
        if part == "key":
            if np.any(bias):
                raise ModelPreparationError(f"{ct2}: non-zero key bias cannot be represented in openai-whisper")
        else:
            state[f"{pt}.{part}.bias"] = _tensor(bias)


def _layer_count(variables: dict[str, np.ndarray], side: str) -> int:
    indices = {int(m.group(1)) for name in variables if (m := re.match(rf"{side}/layer_(\d+)/", name))}
    return max(indices) + 1 if indices else 0


def _heads(variables: dict[str, np.ndarray], side: str, width: int) -> int:
    value = variables.get(f"{side}/num_heads")
    return int(value) if value is not None else width // 64


def whisper_checkpoint(variables: dict[str, np.ndarray]) -> dict:
    """The ``{"dims", "model_state_dict"}`` checkpoint openai-whisper's ``load_model`` expects."""
    state: dict[str, torch.Tensor] = {}
    dims = {
        "n_mels": int(variables["encoder/conv1/weight"].shape[1]),
        "n_audio_ctx": int(variables["encoder/position_encodings/encodings"].shape[0]),
        "n_audio_state": int(variables["encoder/position_encodings/encodings"].shape[1]),
        "n_audio_layer": _layer_count(variables, "encoder"),
        "n_vocab": int(variables["decoder/embeddings/weight"].shape[0]),
        "n_text_ctx": int(variables["decoder/position_encodings/encodings"].shape[0]),
        "n_text_state": int(variables["decoder/position_encodings/encodings"].shape[1]),
        "n_text_layer": _layer_count(variables, "decoder"),
    }
    dims["n_audio_head"] = _heads(variables, "encoder", dims["n_audio_state"])
    dims["n_text_head"] = _heads(variables, "decoder", dims["n_text_state"])

    for conv in ("conv1", "conv2"):
        _put_linear_or_norm(state, variables, f"encoder/{conv}", f"encoder.{conv}")
    state["encoder.positional_embedding"] = _tensor(variables["encoder/position_encodings/encodings"])
    state["decoder.positional_embedding"] = _tensor(variables["decoder/position_encodings/encodings"])
    state["decoder.token_embedding.weight"] = _tensor(variables["decoder/embeddings/weight"])
    _put_linear_or_norm(state, variables, "encoder/layer_norm", "encoder.ln_post")
    _put_linear_or_norm(state, variables, "decoder/layer_norm", "decoder.ln")
    for side, layers in (("encoder", dims["n_audio_layer"]), ("decoder", dims["n_text_layer"])):
        for index in range(layers):
            for ct2, pt in _block_names(side, index).items():
                _put_linear_or_norm(state, variables, ct2, pt)
            prefix, pt_prefix = f"{side}/layer_{index}", f"{side}.blocks.{index}"
            _put_fused(state, variables, f"{prefix}/self_attention/linear_0", f"{pt_prefix}.attn",
                       ("query", "key", "value"))
            if side == "decoder":
                _put_fused(state, variables, f"{prefix}/attention/linear_1", f"{pt_prefix}.cross_attn", ("key", "value"))
    return {"dims": dims, "model_state_dict": state}


def convert_ct2_to_whisper(source: ModelSource, destination: Path) -> None:
    """Write the openai-whisper checkpoint for the CTranslate2 model ``source`` to ``destination``."""
    checkpoint = whisper_checkpoint(read_ct2_variables(source))
    _check_loads(checkpoint)
    torch.save(checkpoint, destination)


def _check_loads(checkpoint: dict) -> None:
    """Every openai-whisper parameter must be filled, and nothing left over (a strict load proves both)."""
    from whisper.model import ModelDimensions, Whisper

    model = Whisper(ModelDimensions(**checkpoint["dims"]))
    try:
        model.load_state_dict(checkpoint["model_state_dict"], strict=True)
    except RuntimeError as error:
        raise ModelPreparationError(f"converted Whisper checkpoint does not match openai-whisper: {error}") from None
