"""Whisper's audio encoder run on the real frames of each utterance only (whisper.cpp's ``audio_ctx``).

openai-whisper pads every input to 30 s and encodes all 1500 frames; on a CPU that dominates the
cost of a short utterance. Here the positional embedding is sliced to the real frames instead.
Encoding the real frames alone makes the decoder loop ("hello world hello world ..."): it never
sees the silence that ends every training window. So the rest of the window is filled with the
encoder's output for silence, computed once: the decoder sees what it was trained on, and the
transcripts match full padding (``voicechat bench asr`` measures both).
In a batch, each utterance attends only to its own frames (key padding mask), so it is encoded
exactly as it would be alone.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

HOP = 160  # samples per mel frame
FRAME = 2 * HOP  # samples per encoder frame (conv2 has stride 2)


class RealFramesEncoder:
    """Encodes a batch of mels of real frames into full 30 s windows of audio features."""

    def __init__(self, encoder: torch.nn.Module, silence_mel: torch.Tensor) -> None:
        self.encoder = encoder
        self.n_ctx, self.n_state = encoder.positional_embedding.shape
        with torch.inference_mode():
            self.silence = self._encode(silence_mel[None], [self.n_ctx])[0]

    def __call__(self, mel: torch.Tensor, frames: list[int]) -> torch.Tensor:
        """``mel`` [B, n_mels, 2 * max(frames)]; ``frames[i]`` real encoder frames of item i -> [B, 1500, n_state]."""
        real = self._encode(mel, frames)
        out = self.silence.to(real.dtype).expand(len(frames), -1, -1).clone()
        for i, count in enumerate(frames):
            out[i, :count] = real[i, :count]
        return out

    def _encode(self, mel: torch.Tensor, frames: list[int]) -> torch.Tensor:
        enc = self.encoder
        longest = max(frames)
        x = F.gelu(enc.conv1(mel))
        x = F.gelu(enc.conv2(x))
        x = x.permute(0, 2, 1)[:, :longest]
        x = (x + enc.positional_embedding[:longest]).to(x.dtype)
        key_mask = None
        if min(frames) < longest:
            positions = torch.arange(longest, device=x.device)
            key_mask = (positions[None, :] < torch.tensor(frames, device=x.device)[:, None])[:, None, None, :]
        for block in enc.blocks:
            x = _encoder_block(block, x, key_mask)
        return enc.ln_post(x)


def _encoder_block(block: torch.nn.Module, x: torch.Tensor, key_mask: torch.Tensor | None) -> torch.Tensor:
    """whisper's ResidualAttentionBlock (self-attention + MLP) with an optional key padding mask."""
    attn = block.attn
    h = block.attn_ln(x)
    batch, length, width = h.shape
    q, k, v = (t.view(batch, length, attn.n_head, -1).transpose(1, 2) for t in (attn.query(h), attn.key(h), attn.value(h)))
    a = F.scaled_dot_product_attention(q, k, v, attn_mask=key_mask)
    x = x + attn.out(a.transpose(1, 2).reshape(batch, length, width))
    return x + block.mlp(block.mlp_ln(x))
