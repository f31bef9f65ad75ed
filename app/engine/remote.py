"""A remote OpenAI-compatible server (vLLM) behind the same request API as the local engine.

Scale-out without code changes elsewhere: the web layer keeps calling ``generate``/``cancel``.
Messages go to ``/chat/completions``, token ids to ``/completions`` (both streamed as SSE).
vLLM's ``priority`` field carries the voice class and ``return_token_ids`` brings the token ids;
a server that rejects one of these extensions (vLLM without ``--scheduling-policy priority``
rejects ``priority``) gets later requests without it.
Cancelling closes the HTTP stream, which makes vLLM abort the request and free its KV cache.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import uuid
from collections import deque
from collections.abc import AsyncIterator
from contextlib import suppress

import httpx

from app.engine.api import Delta, Priority, SamplingParams
from app.engine.prompt import continues_final_message
from app.engine.tool_calls import StructuredCalls
from app.percentile import percentile

log = logging.getLogger(__name__)

_DONE = object()


class RemoteError(Exception):
    """A failure of the remote server, worded for the user."""


class RemoteEngine:
    """``LLMBackend`` over HTTP; ``model`` is used when the server lists it, else the server's first model."""

    def __init__(self, api_base: str, api_key: str = "EMPTY", model: str | None = None,
                 connect_timeout_s: float = 5.0, read_timeout_s: float = 120.0) -> None:
        self.api_base = api_base.rstrip("/")
        self.api_key = api_key
        self.preferred_model = model
        self.model: str | None = None
        self._timeout = httpx.Timeout(read_timeout_s, connect=connect_timeout_s)
        self._client: httpx.AsyncClient | None = None
        self._tasks: dict[str, asyncio.Task] = {}
        self._extensions = {"priority", "return_token_ids"}  # dropped one by one if the server rejects them
        self._counters = {"requests_total": 0, "requests_finished": 0, "requests_cancelled": 0, "requests_failed": 0,
                          "stream_chunks": 0, "generated_tokens": 0, "prompt_tokens": 0}
        self._ttfts: deque[float] = deque(maxlen=1000)  # recent requests only: the server runs for days
        self.supports_tools = True  # the server's model decides; it answers tools it cannot serve with an error
        self.floors_calls = False  # the server samples: its first token's probabilities are not seen here

    # --- lifecycle ---
    async def start(self) -> None:
        """Open the connection pool; an unreachable server is reported per request, not here."""
        if self._client is None:
            self._client = httpx.AsyncClient(base_url=self.api_base, timeout=self._timeout,
                                             headers={"Authorization": f"Bearer {self.api_key}"})
        with suppress(RemoteError):
            await self._model_name()

    async def stop(self) -> None:
        for task in list(self._tasks.values()):
            task.cancel()
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    # --- request API ---
    async def generate(
        self,
        *,
        messages: list[dict] | None = None,
        prompt_token_ids: list[int] | None = None,
        params: SamplingParams,
        priority: Priority,
        session_id: str | None = None,
        request_id: str | None = None,
        tools: list[dict] | None = None,
    ) -> AsyncIterator[Delta]:
        request_id = request_id or uuid.uuid4().hex
        if self._client is None:
            yield Delta(request_id, [], "", True, "error", error="the remote LLM backend is not started")
            return
        if (messages is None) == (prompt_token_ids is None):
            yield Delta(request_id, [], "", True, "error", error="pass exactly one of messages or prompt_token_ids")
            return
        if params.token_probs:  # a chat-completions server has no raw prompt position to ask about
            yield Delta(request_id, [], "", True, "error", error="token_probs is not supported by the remote LLM backend")
            return
        if request_id in self._tasks:
            yield Delta(request_id, [], "", True, "error", error=f"request id {request_id!r} is already in use")
            return
        self._counters["requests_total"] += 1
        queue: asyncio.Queue = asyncio.Queue()
        task = asyncio.create_task(self._run(request_id, messages, prompt_token_ids, params, priority, session_id, tools,
                                             queue))
        self._tasks[request_id] = task
        task.add_done_callback(lambda _: queue.put_nowait(_DONE))
        finished = False
        try:
            while True:
                item = await queue.get()
                if item is _DONE:
                    break
                finished = item.finished
                yield item
                if finished:
                    break
            if not finished:  # the stream was closed by cancel()
                self._counters["requests_cancelled"] += 1
                yield Delta(request_id, [], "", True, "cancelled")
        finally:
            self._tasks.pop(request_id, None)
            if not task.done():
                task.cancel()
                with suppress(asyncio.CancelledError):
                    await task

    def cancel(self, request_id: str) -> None:
        """Close the request's stream; the server aborts it and frees its KV cache."""
        task = self._tasks.get(request_id)
        if task is not None:
            task.cancel()

    def stats(self) -> dict:
        ttfts = list(self._ttfts)
        return {
            "backend": "openai",
            "api_base": self.api_base,
            "model": self.model or "",
            "priority_field": "priority" in self._extensions,
            "running": len(self._tasks),
            **self._counters,
            "ttft_p50_s": percentile(ttfts, 50),
            "ttft_p95_s": percentile(ttfts, 95),
        }

    # --- HTTP ---
    async def _model_name(self) -> str:
        if self.model is not None:
            return self.model
        try:
            response = await self._client.get("/models")
        except httpx.HTTPError as exc:
            raise RemoteError(f"cannot reach the LLM server at {self.api_base} ({type(exc).__name__}): "
                              "check VOICECHAT_LLM_API_BASE and that the server runs") from exc
        if response.status_code != 200:
            raise RemoteError(f"the LLM server at {self.api_base} answered {response.status_code} to /models: "
                              f"{response.text[:200]}")
        models = [m.get("id") for m in response.json().get("data", [])]
        if not models:
            raise RemoteError(f"the LLM server at {self.api_base} lists no models")
        self.model = self.preferred_model if self.preferred_model in models else models[0]
        log.info("remote LLM server %s: using model %s", self.api_base, self.model)
        return self.model

    def _body(self, model: str, messages, prompt_token_ids, params: SamplingParams, priority: Priority,
              session_id: str | None, tools: list[dict] | None) -> tuple[str, dict]:
        body: dict = {
            "model": model,
            "stream": True,
            "stream_options": {"include_usage": True},
            "max_tokens": params.max_tokens,
            "temperature": params.temperature,
            "top_p": params.top_p,
        }
        if params.stop:
            body["stop"] = list(params.stop)
        if params.seed is not None:
            body["seed"] = params.seed
        if session_id:
            body["user"] = session_id
        # vLLM's extensions of the OpenAI schema; other servers ignore unknown fields or reject them.
        if params.top_k > 0:
            body["top_k"] = params.top_k
        if params.repetition_penalty != 1.0:
            body["repetition_penalty"] = params.repetition_penalty
        if params.ignore_eos:
            body["ignore_eos"] = True
        if "priority" in self._extensions:
            body["priority"] = int(priority)
        if "return_token_ids" in self._extensions:
            body["return_token_ids"] = True
        if messages is not None:
            body["messages"] = messages
            if tools:
                body["tools"] = tools
            if continues_final_message(messages):  # vLLM's extension: the final message is continued
                body["messages"] = [*messages[:-1], {k: v for k, v in messages[-1].items() if k != "prefix"}]
                body.update(add_generation_prompt=False, continue_final_message=True)
            return "/chat/completions", body
        body["prompt"] = list(prompt_token_ids)
        return "/completions", body

    async def _run(self, request_id: str, messages, prompt_token_ids, params: SamplingParams, priority: Priority,
                   session_id: str | None, tools: list[dict] | None, queue: asyncio.Queue) -> None:
        """Stream one request into ``queue``; every failure ends as one ``Delta`` with ``error`` set."""
        started = time.perf_counter()
        try:
            model = await self._model_name()
            path, body = self._body(model, messages, prompt_token_ids, params, priority, session_id, tools)
            while True:
                async with self._client.stream("POST", path, json=body) as response:
                    if response.status_code == 200:
                        await self._read_events(request_id, response, started, queue)
                        return
                    detail = (await response.aread()).decode(errors="replace")[:300]
                rejected = [f for f in self._extensions if f in body and f in detail.lower()]
                if response.status_code != 400 or not rejected:
                    raise RemoteError(f"the LLM server answered {response.status_code}: {detail}")
                for field in rejected:
                    log.warning("the LLM server rejects the %r field; sending requests without it "
                                "(vLLM needs --scheduling-policy priority for 'priority')", field)
                    self._extensions.discard(field)
                    del body[field]
        except RemoteError as exc:
            self._fail(request_id, str(exc), queue)
        except ValueError as exc:  # a data line that is not JSON
            self._fail(request_id, f"the LLM server at {self.api_base} sent a malformed event: {exc}", queue)
        except httpx.HTTPError as exc:
            self._fail(request_id, f"LLM server at {self.api_base} failed ({type(exc).__name__}: {exc}): "
                                   "check VOICECHAT_LLM_API_BASE and that the server runs", queue)

    def _fail(self, request_id: str, message: str, queue: asyncio.Queue) -> None:
        log.warning("remote request %s failed: %s", request_id, message)
        self._counters["requests_failed"] += 1
        queue.put_nowait(Delta(request_id, [], "", True, "error", error=message))

    async def _read_events(self, request_id: str, response: httpx.Response, started: float,
                           queue: asyncio.Queue) -> None:
        """Server-sent events: ``data: {json}`` lines up to ``data: [DONE]``."""
        finish_reason = None
        prompt_tokens = None
        first = True
        calls = StructuredCalls()
        async for line in response.aiter_lines():
            if not line.startswith("data:"):
                continue
            data = line[5:].strip()
            if data == "[DONE]":
                finish_reason = finish_reason or "stop"
                break
            event = json.loads(data)
            if "error" in event:
                raise RemoteError(f"the LLM server failed the request: {event['error']}")
            usage = event.get("usage")
            if usage:
                self._counters["generated_tokens"] += usage.get("completion_tokens", 0)
                self._counters["prompt_tokens"] += usage.get("prompt_tokens", 0)
                prompt_tokens = usage.get("prompt_tokens")
            for choice in event.get("choices", []):
                text = (choice.get("delta") or {}).get("content") or choice.get("text") or ""
                text += calls.feed((choice.get("delta") or {}).get("tool_calls") or [])
                if choice.get("finish_reason"):
                    text += calls.close()
                token_ids = list(choice.get("token_ids") or [])
                finish_reason = choice.get("finish_reason") or finish_reason
                if text or token_ids:
                    if first:
                        self._ttfts.append(time.perf_counter() - started)
                        first = False
                    self._counters["stream_chunks"] += 1
                    queue.put_nowait(Delta(request_id, token_ids, text, False))
        if finish_reason is None:
            raise RemoteError(f"the LLM server at {self.api_base} closed the stream before the reply ended")
        self._counters["requests_finished"] += 1
        queue.put_nowait(Delta(request_id, [], "", True, finish_reason, prompt_tokens=prompt_tokens))
