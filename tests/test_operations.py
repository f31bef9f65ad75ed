"""What operators' tools read: /readyz (503 while a stage stalls, and back), /v1/models, vLLM-style metrics,
and a dead stage worker that stops `voicechat serve` with a clear message (JSON logs: tests/test_wheel.py)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from http_helpers import http_get
from websockets.exceptions import WebSocketException

from app.bench.client import RealtimeClient
from app.config import Settings
from app.tts import create_worker
from app.web.readiness import Readiness
from app.web.server import ServerThread, create_app

ROOT = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------------- readiness rules (a fake clock)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_work_waiting_without_progress_is_a_stall_and_progress_clears_it() -> None:
    clock = Clock()
    readiness = Readiness(stall_s=5, clock=clock)
    readiness.observe("asr", pending=2, progress=7)
    clock.now += 4.9
    readiness.observe("asr", pending=2, progress=7)
    assert readiness.problems() == []
    clock.now += 0.2
    readiness.observe("asr", pending=3, progress=7)
    assert readiness.problems() == ["asr: 3 waiting, no progress for 5 s"]
    readiness.observe("asr", pending=3, progress=8)
    assert readiness.problems() == []


def test_an_idle_stage_is_never_stalled() -> None:
    clock = Clock()
    readiness = Readiness(stall_s=5, clock=clock)
    for _ in range(3):
        readiness.observe("llm", pending=0, progress=1)
        clock.now += 60
    assert readiness.problems() == []


def test_a_stall_past_exit_s_is_fatal_once() -> None:
    clock = Clock()
    calls: list[str] = []
    readiness = Readiness(stall_s=5, exit_s=20, clock=clock)
    readiness.on_fatal = calls.append
    for _ in range(5):
        readiness.observe("tts", pending=1, progress=3)
        clock.now += 10
    assert readiness.fatal and readiness.fatal.startswith("the tts stage made no progress for 20 s")
    assert calls == [readiness.fatal]


def test_a_backend_without_a_step_counter_is_not_judged() -> None:
    class Part:
        def __init__(self, stats: dict[str, Any]):
            self._stats = stats

        def stats(self) -> dict[str, Any]:
            return self._stats

    class Parts:
        engine = Part({"backend": "openai", "running": 3})
        recognizer = Part({"asr_queue": 1, "asr_batches": 4})
        tts = Part({"tts_queued": 0, "tts_busy": False, "tts_chunks": 9})

    clock = Clock()
    readiness = Readiness(stall_s=1, clock=clock)
    readiness.observe_parts(Parts())
    clock.now += 2
    readiness.observe_parts(Parts())
    assert readiness.problems() == ["asr: 1 waiting, no progress for 2 s"]


# ---------------------------------------------------------------------- a real server whose TTS stage can hang


class GatedSynthesizer:
    """The real synthesiser, held up while ``gate`` is clear: the TTS worker thread hangs inside it."""

    def __init__(self, real: Any):
        self.real = real
        self.name = real.name
        self.sample_rate = real.sample_rate
        self.changes_speed = real.changes_speed
        self.gate = threading.Event()
        self.gate.set()

    def synthesize(self, text: str, speed: float = 1.0) -> Iterator[Any]:
        self.gate.wait()
        yield from self.real.synthesize(text, speed)


@pytest.fixture(scope="module")
def gated(settings: Settings, prepared) -> Iterator[tuple[str, GatedSynthesizer]]:
    worker = create_worker(settings, prepared)
    synthesizer = GatedSynthesizer(worker.synthesizer)
    worker.synthesizer = synthesizer
    asyncio.run(worker.start())
    app_settings = settings.model_copy(update={"stall_timeout_s": 2.0, "stall_exit_s": 0.0})
    with ServerThread(create_app(app_settings, prepared=prepared, tts=worker)) as base_url:
        yield base_url, synthesizer
    synthesizer.gate.set()
    asyncio.run(worker.stop())


def _wait_for_status(url: str, status: int, timeout: float = 60.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        try:
            code, body = http_get(url)
        except OSError as error:  # nothing listens yet
            code, body = 0, str(error).encode()
        if code == status:
            return json.loads(body)
        assert time.monotonic() < deadline, f"{url} still answers {code}: {body!r}"
        time.sleep(0.3)


def test_models_are_listed_in_the_openai_shape(gated: tuple[str, GatedSynthesizer], settings: Settings) -> None:
    base_url, _ = gated
    code, body = http_get(base_url + "/v1/models")
    listing = json.loads(body)
    assert code == 200 and listing["object"] == "list"
    by_stage = {model["stage"]: model for model in listing["data"]}
    assert set(by_stage) == {"llm", "asr", "tts"}
    assert by_stage["llm"]["id"] == settings.llm_model == "smollm2-135m"
    assert by_stage["asr"]["id"] == f"whisper-{settings.whisper_model}"
    assert by_stage["tts"]["id"] == "piper-joe-medium"
    for model in listing["data"]:
        assert model["object"] == "model" and model["owned_by"] == "voicechat" and isinstance(model["created"], int)


def test_a_hung_stage_makes_readiness_503_and_it_recovers_when_the_stage_moves(gated: tuple[str, GatedSynthesizer]) -> None:
    base_url, synthesizer = gated
    assert _wait_for_status(base_url + "/readyz", 200)["status"] == "ready"
    assert http_get(base_url + "/healthz")[0] == 200

    async def spoken_turn_while_tts_hangs() -> str | None:
        async with RealtimeClient(base_url.replace("http://", "ws://") + "/ws") as client:
            synthesizer.gate.clear()
            await client.say_text("Say hello.")
            unready = await asyncio.to_thread(_wait_for_status, base_url + "/readyz", 503)
            assert unready["status"] == "unready" and unready["problems"][0].startswith("tts: "), unready
            assert http_get(base_url + "/healthz")[0] == 200, "liveness stays up: the process still serves"
            synthesizer.gate.set()
            reply = await client.next_reply(timeout=180)
            return reply.status

    assert asyncio.run(spoken_turn_while_tts_hangs()) == "completed"
    assert _wait_for_status(base_url + "/readyz", 200)["problems"] == []


def test_metrics_use_vllm_names_with_the_model_name(gated: tuple[str, GatedSynthesizer]) -> None:
    base_url, _ = gated
    text = http_get(base_url + "/metrics")[1].decode()
    label = 'model_name="smollm2-135m"'
    for name in ("voicechat:num_requests_running", "voicechat:num_requests_waiting", "voicechat:kv_cache_usage_perc",
                 "voicechat:prefix_cache_hits_total", "voicechat:generation_tokens_total",
                 "voicechat:time_to_first_token_seconds_bucket", "voicechat:inter_token_latency_seconds_count"):
        lines = [line for line in text.splitlines() if line.startswith(name + "{")]
        assert lines and all(label in line for line in lines), name
    assert "voicechat_engine" not in text and "\nllm_" not in text, "each figure under one name"
    assert "voicechat_sessions" in text and "process_resident_memory_bytes" in text


# ---------------------------------------------------------------------- a dead worker stops the server


DYING_TTS = """
import sys
import app.tts.worker as worker

class WorkerDeath(BaseException):
    pass

class Dying:
    def __init__(self, real):
        self.real, self.name, self.sample_rate, self.calls = real, real.name, real.sample_rate, 0
        self.changes_speed = real.changes_speed

    def synthesize(self, text, speed=1.0):
        self.calls += 1
        if self.calls > 1:  # the warm-up passes; the first real job kills the worker thread
            raise WorkerDeath("injected")
        yield from self.real.synthesize(text, speed)

real = worker.create_synthesizer
worker.create_synthesizer = lambda *args: Dying(real(*args))
from app.cli import main
sys.exit(main(["serve"]))
"""


def test_a_dead_stage_worker_stops_serve_with_a_clear_message(settings: Settings, prepared, tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {**os.environ, "VOICECHAT_MODEL_DIR": str(settings.model_dir), "VOICECHAT_LLM_MODEL": settings.llm_model,
           "VOICECHAT_DATA_DIR": str(tmp_path), "VOICECHAT_PORT": str(port), "VOICECHAT_STALL_TIMEOUT_S": "1",
           "VOICECHAT_STALL_EXIT_S": "3"}
    proc = subprocess.Popen([sys.executable, "-c", DYING_TTS], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    try:
        _wait_for_status(f"http://127.0.0.1:{port}/healthz", 200, timeout=300)

        async def turns() -> None:  # each turn queues speech for the dead worker, until the server goes away
            with contextlib.suppress(ConnectionError, OSError, WebSocketException):
                async with RealtimeClient(f"ws://127.0.0.1:{port}/ws") as client:
                    for _ in range(10):
                        await client.say_text("Tell me about the sea.")
                        await asyncio.sleep(2)

        asyncio.run(turns())
        output, _ = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert proc.returncode == 1, output[-3000:]
    assert "voicechat: the tts stage made no progress for" in output
    assert "Traceback" not in output.split("WorkerDeath")[-1], "the exit itself is one clear line, not a traceback"
