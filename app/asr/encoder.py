"""Whisper's audio encoder on the real frames of each utterance only (whisper.cpp's ``audio_ctx``).

openai-whisper pads every input to 30 s and encodes all 1500 frames; on a CPU that dominates the
cost of a short utterance. Here the positional embedding is sliced to the real frames instead.
Encoding the real frames alone makes the decoder loop ("hello world hello world ..."): it never
sees the silence that ends every training window. So the decoder's cross-attention also attends to
the encoder's output for silence over the rest of the window, computed once at load: it sees what
it was trained on. That is not enough on its own: an encoder that sees the speech but no silence
after it still sends the decoder looping on short utterances ("three, three, three ...") and makes
Whisper base unsure there is speech at all (no-speech probability 0.8-0.9 on a clear one-word
clip, 0.1-0.3 over the full window). So the encoder is given real silence too: the utterance, then
``SILENCE_AFTER_S`` of it, ``MIN_ENCODED_S`` at least. On ~200 recorded prompts (``voicechat bench
asr``) that took Whisper base's looping decodes from 70 to 1 and its first-pass failures (which
``app.asr.guards`` send to a full-window decode) from 66 to 10, at 5 s encoded instead of ~1 s.

In a batch, each utterance attends only to its own frames (key padding mask) and the frames after
it up to the longest are the silence encoding, so it is encoded as it would be alone. The silence
tail is the same for every utterance: its keys and values are projected once at load and attended
to by all queries of a batch in one matmul, merged with each utterance's own frames by a joint
softmax (projecting and reading 1500 frames per utterance per layer cost more than the encoder).
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

HOP = 160  # samples per mel frame
FRAME = 2 * HOP  # samples per encoder frame (conv2 has stride 2)
MIN_ENCODED_S = 5.0  # the encoder sees at least this much audio (the utterance padded with silence) ...
SILENCE_AFTER_S = 2.0  # ... and at least this much silence after the utterance


class RealFramesEncoder:
    """Encodes a batch of mels into audio features for the real frames (padded with silence features to the longest)."""

    def __init__(self, encoder: torch.nn.Module, silence_mel: torch.Tensor) -> None:
        self.encoder = encoder
        self.n_ctx = encoder.positional_embedding.shape[0]
        with torch.inference_mode():
            self.silence = self._encode(silence_mel[None], [self.n_ctx])[0]  # [1500, width]

    def __call__(self, mel: torch.Tensor, frames: list[int]) -> torch.Tensor:
        """``mel`` [B, n_mels, >= 2 * max(frames)]; ``frames[i]``: real encoder frames of item i -> [B, max(frames), width]."""
        out = self._encode(mel, frames)
        for i, count in enumerate(frames):
            out[i, count:] = self.silence[count : out.shape[1]]
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


class TailSharingCrossAttention(torch.nn.Module):
    """A decoder block's cross-attention over the given frames plus the shared silence tail up to 30 s.

    Keys and values are kept per head, keys transposed ([.., d, frames]), so that every decoding
    step multiplies contiguous matrices: laid out as whisper caches them, each step of a batch
    copied all of them first (a fifth of a batched decode's time).
    """

    def __init__(self, attention: torch.nn.Module, silence: torch.Tensor) -> None:
        super().__init__()
        self.inner = attention  # whisper's MultiHeadAttention; its KV-cache hooks stay on its key/value
        with torch.inference_mode():
            heads = attention.n_head
            self.tail_keys = split_keys(attention.key(silence)[None], heads)[0]  # [H, d, 1500]
            self.tail_values = split_values(attention.value(silence)[None], heads)[0]  # [H, 1500, d]

    def forward(self, x: torch.Tensor, xa: torch.Tensor, mask=None, kv_cache: dict | None = None):
        attn = self.inner
        frames = xa.shape[1]
        if frames >= self.tail_values.shape[1]:  # a full window: nothing to add
            return attn(x, xa, mask=mask, kv_cache=kv_cache)
        q = attn.query(x)
        own = kv_cache.get(self) if kv_cache is not None else None
        if own is None:
            own = split_keys(attn.key(xa), attn.n_head), split_values(attn.value(xa), attn.n_head)
            if kv_cache is not None:
                kv_cache[self] = own
        tail = self.tail_keys[..., frames:], self.tail_values[:, frames:]
        return attn.out(_attend_with_shared_tail(q, *own, *tail, attn.n_head)), None


def split_keys(k: torch.Tensor, heads: int) -> torch.Tensor:
    """[B, frames, width] -> contiguous [B, H, d, frames]."""
    batch, frames, width = k.shape
    return k.view(batch, frames, heads, width // heads).permute(0, 2, 3, 1).contiguous()


def split_values(v: torch.Tensor, heads: int) -> torch.Tensor:
    """[B, frames, width] -> contiguous [B, H, frames, d]."""
    batch, frames, width = v.shape
    return v.view(batch, frames, heads, width // heads).transpose(1, 2).contiguous()


def _attend_with_shared_tail(
    q: torch.Tensor, keys: torch.Tensor, values: torch.Tensor, tail_keys: torch.Tensor, tail_values: torch.Tensor, heads: int
) -> torch.Tensor:
    """softmax(q [k; tail_k]^T / sqrt(d)) [v; tail_v] per item, laid out as ``split_keys``/``split_values``.

    ``keys`` [B, H, d, L] and ``values`` [B, H, L, d] are each item's own; ``tail_keys`` [H, d, S] and
    ``tail_values`` [H, S, d] are shared by all items, so every query of the batch meets them in one matmul.
    """
    batch, n_q, width = q.shape
    d = width // heads
    scale = d**-0.5
    qh = q.view(batch, n_q, heads, d).transpose(1, 2)  # [B, H, n, d]
    own = (qh @ keys).float() * scale  # [B, H, n, L]
    q_rows = qh.transpose(0, 1).reshape(heads, batch * n_q, d)  # every query of the batch, per head
    shared = (torch.bmm(q_rows, tail_keys.to(q.dtype)).float() * scale).view(heads, batch, n_q, -1).transpose(0, 1)
    top = torch.maximum(own.amax(-1, keepdim=True), shared.amax(-1, keepdim=True))
    own_w, shared_w = torch.exp(own - top), torch.exp(shared - top)
    total = own_w.sum(-1, keepdim=True) + shared_w.sum(-1, keepdim=True)
    shared_rows = shared_w.to(q.dtype).transpose(0, 1).reshape(heads, batch * n_q, -1)
    shared_out = torch.bmm(shared_rows, tail_values.to(q.dtype)).view(heads, batch, n_q, d).transpose(0, 1)
    out = (own_w.to(q.dtype) @ values).float() + shared_out.float()
    return (out / total).to(q.dtype).transpose(1, 2).reshape(batch, n_q, width)


def install_tail_sharing(decoder: torch.nn.Module, silence: torch.Tensor) -> None:
    """Wrap the cross-attention of every decoder block (whisper's KV-cache hooks still find the inner one)."""
    for block in decoder.blocks:
        block.cross_attn = TailSharingCrossAttention(block.cross_attn, silence)
