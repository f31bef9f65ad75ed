"""The shared TTS worker with the real piper voice: streaming, priority of first chunks, cancellation."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator

import numpy as np
import pytest

from app.audio import pcm16_to_float32
from app.config import Settings
from app.tts import TTSWorker, create_worker
from app.tts.piper_backend import PiperSynthesizer

pytestmark = pytest.mark.asyncio(loop_scope="session")

THREE_SENTENCES = "The first sentence keeps the worker busy. Here is a second one. And a third one ends it."


@pytest.fixture(scope="module")
def piper(prepared) -> PiperSynthesizer:
    return PiperSynthesizer(prepared.piper_model, prepared.piper_config)


@pytest.fixture
async def worker(piper: PiperSynthesizer) -> AsyncIterator[TTSWorker]:
    worker = TTSWorker(piper)
    await worker.start()
    yield worker
    await worker.stop()


async def collect(stream: AsyncIterator[bytes]) -> bytes:
    return b"".join([pcm async for pcm in stream])


async def test_streams_pcm16_at_the_requested_rate(worker: TTSWorker, piper: PiperSynthesizer) -> None:
    text = "Hello there. It costs $3.50 today."
    direct = sum(len(p) for p in piper.synthesize("Hello there. It costs three dollars and fifty cents today."))
    pieces = [pcm async for pcm in worker.synthesize(text, reply_id="r1", first=True, out_rate=16000)]
    assert len(pieces) >= 2  # one per sentence, handed over as soon as each exists
    audio = pcm16_to_float32(b"".join(pieces))
    expected = direct * 16000 / piper.sample_rate
    assert abs(len(audio) - expected) < 0.15 * expected  # piper's noise makes each run's length differ a little
    assert float(np.sqrt(np.mean(audio**2))) > 0.01


async def test_a_reply_is_spoken_at_its_speed(worker: TTSWorker) -> None:
    text = "One speed for this reply, and another for the next one."
    normal, fast = [len(await collect(worker.synthesize(text, reply_id=f"s{speed}", first=True, out_rate=16000,
                                                        speed=speed))) for speed in (1.0, 1.5)]  # fmt: skip
    assert worker.changes_speed and 0.5 * normal < fast < 0.8 * normal


async def test_unspeakable_text_gives_no_audio(worker: TTSWorker) -> None:
    assert await collect(worker.synthesize("😀 ```code```", reply_id="r", first=True, out_rate=24000)) == b""


async def test_first_chunks_of_all_replies_go_before_later_chunks(worker: TTSWorker) -> None:
    heard: list[str] = []

    async def speak(reply_id: str, text: str, first: bool) -> None:
        async for _ in worker.synthesize(text, reply_id=reply_id, first=first, out_rate=24000):
            if reply_id not in heard:
                heard.append(reply_id)

    busy = worker.synthesize(THREE_SENTENCES, reply_id="busy", first=True, out_rate=24000)
    await anext(busy)  # the worker is now inside a job with two sentences to go
    tasks = [
        asyncio.create_task(speak("a-later", "Later words of reply a.", first=False)),
        asyncio.create_task(speak("b-later", "Later words of reply b.", first=False)),
        asyncio.create_task(speak("c-first", "Hi from c.", first=True)),
        asyncio.create_task(speak("d-first", "Hi from d.", first=True)),
    ]
    await asyncio.sleep(0)  # every request is queued while the busy job runs
    assert worker.stats()["tts_queued"] == 4
    await collect(busy)
    await asyncio.gather(*tasks)
    assert heard == ["c-first", "d-first", "a-later", "b-later"]


async def test_later_chunks_go_to_the_reply_whose_audio_runs_out_first(worker: TTSWorker) -> None:
    long_first = " ".join(f"This is sentence number {i} of a long first answer." for i in range(1, 7))
    assert await collect(worker.synthesize(long_first, reply_id="rich", first=True, out_rate=24000))  # ~15 s
    assert await collect(worker.synthesize("Hi.", reply_id="poor", first=True, out_rate=24000))  # under 1 s
    heard: list[str] = []

    async def speak(reply_id: str) -> None:
        async for _ in worker.synthesize("The next part of the answer.", reply_id=reply_id, first=False,
                                         out_rate=24000):  # fmt: skip
            if reply_id not in heard:
                heard.append(reply_id)

    busy = worker.synthesize(THREE_SENTENCES, reply_id="busy", first=True, out_rate=24000)
    await anext(busy)
    tasks = [asyncio.create_task(speak("rich")), asyncio.create_task(speak("poor"))]  # rich asks first
    await asyncio.sleep(0)
    await collect(busy)
    await asyncio.gather(*tasks)
    assert heard == ["poor", "rich"]


async def test_a_later_chunk_with_audio_in_hand_waits_while_the_engine_prefills_a_voice_request(worker: TTSWorker,
                                                                                             monkeypatch) -> None:
    from app.cpu_share import EngineWork

    engine_work = EngineWork()  # the engine's, as the worker reads it
    monkeypatch.setattr("app.tts.worker.engine_work", engine_work)

    long_first = " ".join(f"This is sentence number {i} of a long first answer." for i in range(1, 7))
    assert await collect(worker.synthesize(long_first, reply_id="rich", first=True, out_rate=24000))  # ~15 s in hand
    assert await collect(worker.synthesize("Hi.", reply_id="poor", first=True, out_rate=24000))  # under 1 s
    engine_work.prefill = True
    try:
        rich = asyncio.create_task(collect(worker.synthesize("The next part.", reply_id="rich", first=False,
                                                             out_rate=24000)))  # fmt: skip
        poor = await collect(worker.synthesize("The next part.", reply_id="poor", first=False, out_rate=24000))
        assert poor  # about to fall silent: synthesised at once
        await asyncio.sleep(0.3)
        assert not rich.done() and worker.stats()["tts_queued"] == 1
        first = await collect(worker.synthesize("A first chunk.", reply_id="new", first=True, out_rate=24000))
        assert first and not rich.done()  # first chunks never wait
    finally:
        engine_work.prefill = False
    assert await asyncio.wait_for(rich, 10)


async def test_cancel_drops_queued_chunks_at_once_and_ignores_later_ones(worker: TTSWorker) -> None:
    busy = worker.synthesize(THREE_SENTENCES, reply_id="busy", first=True, out_rate=24000)
    await anext(busy)
    streams = [worker.synthesize(f"Chunk {i} of the reply.", reply_id="gone", first=i == 0, out_rate=24000)
               for i in range(3)]  # fmt: skip
    tasks = [asyncio.create_task(collect(s)) for s in streams]
    await asyncio.sleep(0)
    assert worker.stats()["tts_queued"] == 3
    started = time.perf_counter()
    worker.cancel("gone")
    assert worker.stats()["tts_queued"] == 0
    assert await asyncio.gather(*tasks) == [b"", b"", b""]
    assert time.perf_counter() - started < 0.1  # ended without waiting for the busy job
    assert await collect(worker.synthesize("Too late.", reply_id="gone", first=False, out_rate=24000)) == b""
    await collect(busy)


async def test_cancel_stops_the_running_chunk_and_the_worker_moves_on(worker: TTSWorker) -> None:
    long_text = " ".join(f"This is sentence number {i} of a long answer." for i in range(1, 9))
    running = worker.synthesize(long_text, reply_id="long", first=True, out_rate=24000)
    await anext(running)
    worker.cancel("long")
    assert [pcm async for pcm in running] == []  # no audio after the cancel
    started = time.perf_counter()
    assert await collect(worker.synthesize("Next reply.", reply_id="next", first=True, out_rate=24000))
    # The cancelled job stopped after its piece in progress (~1 sentence), not after seven more sentences.
    assert time.perf_counter() - started < 3.0


async def test_a_listener_that_stops_early_removes_its_queued_work(worker: TTSWorker) -> None:
    busy = worker.synthesize(THREE_SENTENCES, reply_id="busy", first=True, out_rate=24000)
    await anext(busy)
    abandoned = worker.synthesize("Nobody listens to this.", reply_id="x", first=False, out_rate=24000)
    task = asyncio.create_task(collect(abandoned))
    await asyncio.sleep(0)
    assert worker.stats()["tts_queued"] == 1
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert worker.stats()["tts_queued"] == 0
    await collect(busy)


async def test_create_worker_builds_the_configured_backend(prepared) -> None:
    worker = create_worker(Settings(tts_backend="espeak"), prepared)
    await worker.start()
    try:
        pcm = await collect(worker.synthesize("Testing one two three.", reply_id="e", first=True, out_rate=24000))
    finally:
        await worker.stop()
    assert worker.stats()["tts_backend"] == "espeak"
    assert len(pcm) // 2 > 0.5 * 24000


async def test_whisper_hears_the_numbers_the_worker_speaks(worker: TTSWorker, prepared) -> None:
    import whisper

    text = "The ticket costs $3.50 and the train leaves at 3:30 pm."
    pcm = await collect(worker.synthesize(text, reply_id="numbers", first=True, out_rate=16000))
    model = whisper.load_model(str(prepared.whisper_pt), device="cpu")
    heard = model.transcribe(pcm16_to_float32(pcm), language="en", fp16=False, temperature=0.0)["text"]
    # Whisper writes numbers as digits ("$3.50", "330PM"): the spoken words must come back as the same digits.
    assert re.findall(r"\d", heard) == re.findall(r"\d", text), heard
    assert "ticket" in heard.lower() and "train" in heard.lower(), heard


async def test_stop_ends_open_streams_without_waiting_for_the_queue(piper: PiperSynthesizer) -> None:
    worker = TTSWorker(piper)
    await worker.start()
    long_text = " ".join(f"This is sentence number {i} of a long answer." for i in range(1, 9))
    running = worker.synthesize(long_text, reply_id="long", first=True, out_rate=24000)
    await anext(running)
    queued = asyncio.create_task(collect(worker.synthesize("Queued words.", reply_id="q", first=False, out_rate=24000)))
    await asyncio.sleep(0)
    started = time.perf_counter()
    await worker.stop()
    assert time.perf_counter() - started < 3.0  # the running job stopped after its piece, not seven more
    assert await queued == b""
    assert [pcm async for pcm in running] == []


async def test_every_synthesis_leaves_the_engine_a_core(worker: TTSWorker) -> None:
    """While piper speaks, first chunk or later one, the engine on the same cores steps on a thread fewer
    (``app.cpu_share.speech_activity``)."""
    from app.cpu_share import speech_activity

    for first in (True, False):
        stream = worker.synthesize(THREE_SENTENCES, reply_id=f"r{first}", first=first, out_rate=24000)
        await anext(stream)  # the first sentence is out, the next ones are being spoken
        assert speech_activity.jobs == 1
        await collect(stream)
        await asyncio.sleep(0.05)
        assert speech_activity.jobs == 0
