"""One request's state as it moves through the scheduler, the KV cache and the runner."""

from __future__ import annotations

import enum
import time
from dataclasses import dataclass, field

import torch

from app.engine.api import Priority, SamplingParams
from app.engine.detokenizer import IncrementalDetokenizer
from app.engine.phrase_limit import TokenTexts


class Status(enum.Enum):
    WAITING = "waiting"
    RUNNING = "running"
    FINISHED = "finished"


@dataclass(eq=False)
class Sequence:
    """Prompt plus generated tokens, the KV blocks that hold them, and timing for metrics.

    ``num_computed`` counts tokens whose keys/values are in the cache; the runner feeds
    ``token_ids[num_computed:]`` (or a chunk of it) in the next forward.
    """

    request_id: str
    token_ids: list[int]
    params: SamplingParams
    priority: Priority
    session_id: str | None = None
    dropped_turns: int = 0
    arrival: float = field(default_factory=time.monotonic)
    last_served: float | None = None  # when it last got a place in a step (aging counts from here)
    status: Status = Status.WAITING
    num_computed: int = 0
    draft_computed: int = 0  # tokens whose keys/values are in the draft model's cache (speculative decoding)
    num_prefix_hit: int = 0
    block_table: list[int] = field(default_factory=list)
    prompt_len: int = 0
    first_token_at: float | None = None
    last_token_at: float | None = None
    preemptions: int = 0
    generator: torch.Generator | None = None
    detok: IncrementalDetokenizer | None = None  # the reply's text and stop strings (None: token ids only)
    texts: TokenTexts | None = None  # each token's text, for ``params.phrase_repeat_limit`` (None: no limit)
    end_ids: tuple[int, ...] = ()  # the tokens that end a reply, where the phrase limit ends one
    call_openings: tuple[int, ...] = ()  # the tokens that open a tool call, for ``params.call_floor``
    below_call_floor: bool = False  # the call openings held less than ``params.call_floor`` at the first token
    token_probs: dict[int, float] | None = None  # the answer to ``params.token_probs``, once read
    probe_position: int | None = None  # the prompt position whose logits answer it ("user_words_end"), if any

    def __post_init__(self) -> None:
        self.prompt_len = len(self.token_ids)
        if self.params.seed is not None:
            self.generator = torch.Generator().manual_seed(self.params.seed)

    def __len__(self) -> int:
        return len(self.token_ids)

    @property
    def max_new_tokens(self) -> int:
        """The tokens it may generate (a ``prompt_only`` request: its first)."""
        return 1 if self.params.prompt_only else self.params.max_tokens

    @property
    def num_generated(self) -> int:
        return len(self.token_ids) - self.prompt_len

    @property
    def output_ids(self) -> list[int]:
        return self.token_ids[self.prompt_len :]

    @property
    def num_pending(self) -> int:
        """Tokens still to run through the model before the next token can be sampled."""
        return len(self.token_ids) - self.num_computed

    @property
    def unread_probe(self) -> int | None:
        """The probe position until its logits are read (after that, as for a preempted request, it is one more
        position that the prefix cache may hold)."""
        return self.probe_position if self.token_probs is None else None

    def probe_in(self, n: int) -> int | None:
        """The unread probe position, where a prefill chunk of the next ``n`` tokens holds it."""
        probe = self.unread_probe
        return probe if probe is not None and self.num_computed <= probe < self.num_computed + n else None

    def prefill_logits(self, n: int) -> int:
        """Rows of logits a prefill chunk of the next ``n`` tokens needs: its last, when it completes the prompt (the
        first token is sampled there), and from the probe position on, when the chunk holds it."""
        end, probe = self.num_computed + n, self.probe_in(n)
        return end - probe if probe is not None else int(end == len(self))

    @property
    def is_decoding(self) -> bool:
        """One token to feed: it joins the batched single-query attention group."""
        return self.num_pending == 1
