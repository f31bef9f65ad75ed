"""Prefill ahead: while the user speaks, the conversation and their words so far go through the engine.

A reply's prompt is the conversation, the user's words and the template's end. Its prefill is on the path from the
end of speech to the first audio, and on two CPU cores it is most of the engine's share of it when several users
finish talking at once (docs/benchmarks.md). The partial transcripts already say most of the words before the
speech ends, so each one is prefilled as the user's open message (a request that ends at its first token): by the
end of the turn the engine's prefix cache holds the conversation and all but the last few words, and the reply
prefills only those and the template's end. The last word of a partial is left out, as the audio may cut it; a
partial whose other words differ from the final transcript costs the blocks after the first difference, nothing
else. Where the reply may answer in words instead of calling a tool, its prompt without tools is prefilled beside
(``Reply`` starts both and keeps one). Only the local engine says whether voice replies are running; a remote one is
never sent these requests.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from typing import TYPE_CHECKING

from app.engine.api import Priority, SamplingParams
from app.web.realtime.function_calls import ToolUse
from app.web.reply import WORDS_REQUEST

if TYPE_CHECKING:
    from app.web.realtime.session import Session

log = logging.getLogger(__name__)


class PrefillAhead:
    """The session's prefill-only requests of the words said so far: one at a time, none beside a reply."""

    def __init__(self, session: Session):
        self.session = session
        self._words = ""  # the words last prefilled for the speech going on
        self._request_id: str | None = None  # the request in flight, and its task
        self._task: asyncio.Task | None = None

    def words(self, transcript: str) -> None:
        """A partial transcript of the speech going on: prefill its words but the last, unless they were prefilled
        already, one is in flight, no reply will follow, the speech is in a pause (its speculative reply prefills),
        the conversation is not yet what the reply will see (a reply runs, or an earlier utterance is still in ASR),
        or the engine serves voice replies (of any session) or cannot say."""
        session, vad = self.session, self.session.config.turn_detection
        if (not session.settings.prefill_ahead or self._request_id is not None or vad is None or not vad.create_response
                or session.turns.speculative is not None or session.responses.active is not None
                or session.turns.committed or not self._engine_free_of_voice()):  # fmt: skip
            return
        words = " ".join(transcript.split()[:-1])
        if not words or words == self._words:
            return
        self._words = words
        messages = [*session.responses.prompt(None, None, hints=False), {"role": "user", "content": words, "prefix": True}]
        self._request_id = request_id = f"ahead-{uuid.uuid4().hex}"
        tool_use = session.responses.session_tool_use()
        prompts = [(messages, tool_use, request_id)]
        if session.responses.floors_calls(tool_use):
            prompts.append((session.responses.without_tools(messages), ToolUse(), WORDS_REQUEST.format(request_id)))
        self._task = session.spawn(self._prefill(prompts))

    def _engine_free_of_voice(self) -> bool:
        """No voice reply waiting or running: a prefill now would slow their steps for a gain later (a step is not cut
        short when a reply comes in), and on a loaded engine the reply comes sooner without it."""
        stats = self.session.parts.engine.stats()
        return "running_voice" in stats and stats["running_voice"] + stats.get("waiting_voice", 0) == 0

    async def _prefill(self, prompts: list[tuple[list[dict], ToolUse, str]]) -> None:
        request_id = prompts[0][2]
        try:
            await asyncio.gather(*(self._prefill_one(*prompt) for prompt in prompts))
        finally:
            if self._request_id == request_id:
                self._request_id = self._task = None

    async def _prefill_one(self, messages: list[dict], tool_use: ToolUse, request_id: str) -> None:
        session = self.session
        # the reply's own token limit, so that the engine fits both prompts into the context alike (same turns kept);
        # the request ends at its first token in the engine, which would otherwise decode on until the cancel came
        params = SamplingParams(max_tokens=session.config.max_output_tokens, prompt_only=True)
        stream = session.parts.engine.generate(messages=messages, tools=tool_use.template_tools(), params=params,
                                               priority=Priority.TEXT, session_id=session.id, request_id=request_id)
        try:
            async with contextlib.aclosing(stream):
                async for delta in stream:  # the first delta: the prompt is in the cache (closing cancels the rest)
                    if delta.error:
                        log.debug("prefill ahead in session %s: %s", session.id[:8], delta.error)
                    break
        except Exception:
            log.exception("prefill ahead failed in session %s", session.id[:8])

    def new_speech(self) -> None:
        self.stop()
        self._words = ""

    def stop(self) -> None:
        """The speech paused or ended: the reply's own prefill takes over from a request still in flight."""
        if self._request_id is None:
            return
        self.session.parts.engine.cancel(self._request_id)
        self.session.parts.engine.cancel(WORDS_REQUEST.format(self._request_id))
        if self._task is not None:
            self._task.cancel()  # before its request reached the engine, or while it waits there
        self._request_id = self._task = None
        self._words = ""  # cut short: the same words are prefilled again if the speech goes on
