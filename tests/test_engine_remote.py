"""RemoteEngine against a real OpenAI-compatible HTTP server on 127.0.0.1.

The server streams chat completions (SSE, vLLM's field names) from the real LocalEngine with the
packaged model, so the whole path runs: request body -> HTTP -> engine -> SSE -> parsed deltas.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time

import pytest
import pytest_asyncio
import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, StreamingResponse

from app.engine import Priority, SamplingParams, create_backend
from app.engine.remote import RemoteEngine

pytestmark = pytest.mark.asyncio(loop_scope="module")

MESSAGES = [{"role": "system", "content": "You are a helpful assistant."},
            {"role": "user", "content": "Name three colours of the rainbow."}]


class OpenAICompatibleServer:
    """/v1/models and streamed /v1/chat/completions + /v1/completions over a local engine, like vLLM."""

    def __init__(self, engine, *, reject_priority: bool = False, cut_after: int | None = None) -> None:
        self.engine = engine
        self.reject_priority = reject_priority
        self.cut_after = cut_after  # end the stream after this many chunks, as a crashing server would
        self.bodies: list[dict] = []
        self.disconnected: list[str] = []
        self.app = FastAPI()
        self.app.get("/v1/models")(self.models)
        self.app.post("/v1/chat/completions")(self.chat)
        self.app.post("/v1/completions")(self.completions)
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.base = f"http://127.0.0.1:{self.sock.getsockname()[1]}/v1"
        self.server = uvicorn.Server(uvicorn.Config(self.app, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def __enter__(self) -> OpenAICompatibleServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline, "test server did not start"
            time.sleep(0.05)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()

    async def models(self) -> dict:
        return {"object": "list", "data": [{"id": "smollm2-local", "object": "model"}]}

    async def chat(self, request: Request):
        return await self._complete(await request.json(), chat=True)

    async def completions(self, request: Request):
        return await self._complete(await request.json(), chat=False)

    async def _complete(self, body: dict, *, chat: bool):
        self.bodies.append(body)
        if self.reject_priority and "priority" in body:
            return JSONResponse({"error": {"message": "Priority scheduling is not enabled.", "type": "BadRequestError"}},
                                status_code=400)
        params = SamplingParams(temperature=body.get("temperature", 1.0), top_p=body.get("top_p", 1.0),
                                top_k=body.get("top_k", 0), max_tokens=body.get("max_tokens", 16),
                                stop=tuple(body.get("stop") or ()), seed=body.get("seed"),
                                ignore_eos=body.get("ignore_eos", False))
        source = {"messages": body["messages"]} if chat else {"prompt_token_ids": body["prompt"]}
        request_id = f"srv-{len(self.bodies)}"
        with_ids = body.get("return_token_ids", False)

        async def events():
            finished = False
            sent = 0
            try:
                async for delta in self.engine.generate(**source, params=params, priority=Priority(body.get("priority", 0)),
                                                        request_id=request_id):
                    if delta.error:
                        yield f"data: {json.dumps({'error': {'message': delta.error}})}\n\n"
                        return
                    choice = {"index": 0, "finish_reason": delta.finish_reason if delta.finished else None}
                    choice.update({"delta": {"content": delta.text}} if chat else {"text": delta.text})
                    if with_ids:
                        choice["token_ids"] = delta.token_ids
                    yield f"data: {json.dumps({'id': request_id, 'choices': [choice]})}\n\n"
                    finished = delta.finished
                    sent += 1
                    if sent == self.cut_after:
                        return
                yield f"data: {json.dumps({'id': request_id, 'choices': [], 'usage': {'completion_tokens': 0}})}\n\n"
                yield "data: [DONE]\n\n"
            finally:
                if not finished:
                    self.disconnected.append(request_id)

        return StreamingResponse(events(), media_type="text/event-stream")


@pytest.fixture(scope="module")
def local_engine(settings, prepared):
    engine = create_backend(settings.model_copy(update={"llm_dtype": "float32", "device": "cpu", "max_batch": 4,
                                                        "kv_cache_bytes": 64 * 2**20}),
                            model_path=str(prepared.llm_dir))
    asyncio.run(engine.start())
    yield engine
    asyncio.run(engine.stop())


@pytest.fixture(scope="module")
def server(local_engine):
    with OpenAICompatibleServer(local_engine) as running:
        yield running


@pytest_asyncio.fixture(loop_scope="module")
async def remote(server, settings):
    engine = create_backend(settings.model_copy(update={"llm_backend": "openai", "llm_api_base": server.base}))
    assert isinstance(engine, RemoteEngine)
    await engine.start()
    yield engine
    await engine.stop()


async def collect(backend, **kwargs) -> tuple[list[int], str, list]:
    deltas = [d async for d in backend.generate(**kwargs)]
    return [t for d in deltas for t in d.token_ids], "".join(d.text for d in deltas), deltas


async def test_streamed_reply_equals_local_greedy(remote, local_engine, server):
    params = SamplingParams(max_tokens=24)
    # both compared requests read the prompt from the prefix cache: a cached prefix is attended in another
    # shape than a fresh prefill, whose last-bit differences can pick another token at a near-tie
    await collect(local_engine, messages=MESSAGES, params=params, priority=Priority.TEXT)
    local_ids, local_text, _ = await collect(local_engine, messages=MESSAGES, params=params, priority=Priority.TEXT)
    ids, text, deltas = await collect(remote, messages=MESSAGES, params=params, priority=Priority.VOICE,
                                      session_id="s1")
    assert text == local_text and text.strip()
    assert ids == local_ids
    assert len(deltas) > 2 and deltas[-1].finished and deltas[-1].error is None
    assert deltas[-1].finish_reason in ("stop", "length")
    body = server.bodies[-1]
    assert body["priority"] == int(Priority.VOICE) and body["stream"] is True and body["model"] == "smollm2-local"
    assert body["max_tokens"] == 24 and body["temperature"] == 0.0 and body["user"] == "s1"
    assert remote.stats()["requests_finished"] >= 1


async def test_token_ids_use_completions_with_stop_and_eos_options(remote, local_engine, server):
    prompt = local_engine.tokenizer.apply_chat_template(MESSAGES, add_generation_prompt=True, return_dict=True)["input_ids"]
    full_ids, full_text, _ = await collect(local_engine, prompt_token_ids=list(prompt), params=SamplingParams(max_tokens=20),
                                           priority=Priority.TEXT)
    stop_word = full_text.split()[3]
    params = SamplingParams(max_tokens=20, stop=(stop_word,), seed=7, ignore_eos=True, top_k=5)
    _, text, deltas = await collect(remote, prompt_token_ids=list(prompt), params=params, priority=Priority.BACKGROUND)
    assert full_text.startswith(text) and stop_word not in text and len(text) < len(full_text)
    body = server.bodies[-1]
    assert body["prompt"] == list(prompt) and body["stop"] == [stop_word] and body["seed"] == 7
    assert body["ignore_eos"] is True and body["top_k"] == 5 and body["priority"] == int(Priority.BACKGROUND)
    assert deltas[-1].finish_reason == "stop"


async def test_cancel_closes_the_stream_and_frees_the_server_request(remote, local_engine, server):
    params = SamplingParams(max_tokens=400, ignore_eos=True)
    deltas = []
    async for delta in remote.generate(messages=MESSAGES, params=params, priority=Priority.TEXT, request_id="r-cancel"):
        deltas.append(delta)
        if len(deltas) == 2:
            remote.cancel("r-cancel")
    assert deltas[-1].finished and deltas[-1].finish_reason == "cancelled"
    assert sum(len(d.token_ids) for d in deltas) < 50
    server_id = f"srv-{len(server.bodies)}"
    deadline = time.monotonic() + 10
    while server_id not in server.disconnected or local_engine.stats()["running"]:
        assert time.monotonic() < deadline, "the server never saw the stream close"
        await asyncio.sleep(0.05)
    assert local_engine.stats()["kv_blocks_used"] == 0
    assert remote.stats()["requests_cancelled"] >= 1 and remote.stats()["running"] == 0


async def test_priority_field_dropped_when_the_server_rejects_it(local_engine):
    with OpenAICompatibleServer(local_engine, reject_priority=True) as strict:
        backend = RemoteEngine(strict.base)
        await backend.start()
        try:
            first = await collect(backend, messages=MESSAGES, params=SamplingParams(max_tokens=6), priority=Priority.VOICE)
            second = await collect(backend, messages=MESSAGES, params=SamplingParams(max_tokens=6), priority=Priority.VOICE)
        finally:
            await backend.stop()
    assert first[1] and first[1] == second[1] and first[2][-1].error is None
    assert [("priority" in b) for b in strict.bodies] == [True, False, False]
    assert backend.stats()["priority_field"] is False


async def test_unreachable_server_gives_a_clear_error():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # closed again: nothing listens there
    backend = RemoteEngine(f"http://127.0.0.1:{port}/v1", connect_timeout_s=2)
    await backend.start()
    try:
        deltas = [d async for d in backend.generate(messages=MESSAGES, params=SamplingParams(max_tokens=4),
                                                    priority=Priority.VOICE)]
    finally:
        await backend.stop()
    assert len(deltas) == 1 and deltas[0].finished and deltas[0].finish_reason == "error"
    assert f"127.0.0.1:{port}" in deltas[0].error and "cannot reach" in deltas[0].error
    assert backend.stats()["requests_failed"] == 1


async def test_a_stream_that_ends_early_is_an_error_not_a_reply(local_engine):
    with OpenAICompatibleServer(local_engine, cut_after=2) as crashing:
        backend = RemoteEngine(crashing.base)
        await backend.start()
        try:
            _, text, deltas = await collect(backend, messages=MESSAGES, params=SamplingParams(max_tokens=40,
                                                                                                  ignore_eos=True),
                                            priority=Priority.TEXT)
        finally:
            await backend.stop()
    assert text and deltas[-1].finished and deltas[-1].finish_reason == "error"
    assert "closed the stream" in deltas[-1].error


async def test_token_probabilities_are_refused_with_a_clear_error(remote):
    _, _, deltas = await collect(remote, prompt_token_ids=[1, 2, 3], params=SamplingParams(max_tokens=1, token_probs=(2,)),
                                 priority=Priority.VOICE)
    assert deltas[-1].finish_reason == "error" and "token_probs is not supported" in deltas[-1].error
