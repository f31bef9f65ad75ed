"""The realtime session's turn logic with small fakes of the engine, recogniser and speech out (no
models): typed and spoken turns, barge-in, cancel, truncate, speculative starts, out-of-band replies,
conversation items, and the session's states. Every event sent is checked against the SDK's types."""

from __future__ import annotations

import asyncio
from pathlib import Path

import numpy as np
import pytest
from realtime_fakes import Rig, make_rig

from app.engine.api import Priority
from app.vad import SpeechPaused, SpeechStarted, SpeechStopped
from app.web.realtime import responses
from app.web.reply import Output, Reply
from app.web.realtime.state import IllegalTransition, SessionState, StateMachine

SECOND = np.zeros(16000, np.float32)


def user_text(text: str, **item: object) -> dict:
    return {"type": "conversation.item.create", "item": {"type": "message", "role": "user",
            "content": [{"type": "input_text", "text": text}], **item}}  # fmt: skip


async def speak(rig: Rig, *, pause_first: bool = False) -> None:
    """One utterance through the VAD's events, as the audio loop delivers them (under the lock)."""
    turns = rig.session.turns
    async with rig.session.lock:
        await turns.speech_started(SpeechStarted(at_s=0.3, start_s=0.2))
        if pause_first:
            turns.speech_paused(SpeechPaused(at_s=1.3, audio=SECOND))
        turns.speech_stopped(SpeechStopped(at_s=1.6, audio=SECOND, start_s=0.2, end_s=1.2), speech_end=0.0)


async def test_a_typed_turn_is_stored_answered_and_its_items_chain_by_previous_id(rig: Rig):
    await rig.send(user_text("What is the capital of France?", id="item_user1"))
    await rig.send({"type": "response.create"})
    done = await rig.outbox.wait_for("response.done")
    assert done["response"]["status"] == "completed"
    usage = done["response"]["usage"]
    assert usage["output_tokens"] == 6 and usage["total_tokens"] == usage.get("input_tokens", 0) + usage["output_tokens"]
    assistant = [e for e in rig.outbox.events if e["type"].startswith("conversation.item.") and e["item"]["role"] == "assistant"]
    assert [e["previous_item_id"] for e in assistant] == ["item_user1", "item_user1"]
    assert rig.engine.requests[0]["priority"] == Priority.TEXT
    assert [m.role for m in rig.history.load_sync(rig.session.id)] == ["user", "assistant"]
    assert rig.session.state.state is SessionState.SPEAKING or rig.session.state.state is SessionState.IDLE


async def test_replies_are_spoken_at_the_speed_the_session_sets(tmp_path: Path):
    from sdk_conformance import sdk_rejections

    rig = await make_rig(tmp_path, tts_speed=0.8)  # the operator's default
    try:
        assert rig.outbox.of("session.created")[0]["session"]["audio"]["output"]["speed"] == 0.8
        await rig.send(user_text("What is the capital of France?"))
        await rig.send({"type": "response.create"})
        await rig.outbox.wait_for("response.done")
        slow_audio = rig.outbox.audio_bytes
        await rig.send({"type": "session.update", "session": {"audio": {"output": {"speed": 1.25}}}})
        assert (await rig.outbox.wait_for("session.updated"))["session"]["audio"]["output"]["speed"] == 1.25
        await rig.send(user_text("And of Italy?"))
        await rig.send({"type": "response.create"})
        await rig.outbox.wait_for("response.done", 2)
        fast_audio = rig.outbox.audio_bytes - slow_audio
        assert set(rig.speech.speeds) == {0.8, 1.25} and rig.speech.speeds[-1] == 1.25
        assert fast_audio < 0.7 * slow_audio  # the same reply's words, spoken at 1.25 rather than 0.8
        assert sdk_rejections(rig.outbox.events) == []
    finally:
        await rig.close()


async def test_a_reply_the_loop_guard_ends_does_not_speak_its_unfinished_clause(rig: Rig):
    rig.engine.reply = "The sea is wide. The waves come and go. The waves come and go. The waves come and go, the waves"
    await rig.send(user_text("Write me a poem about the sea."))
    await rig.send({"type": "response.create"})
    done = (await rig.outbox.wait_for("response.done"))["response"]
    transcript = done["output"][0]["content"][0]["transcript"]
    assert transcript.endswith("go. The waves come and")  # ended at a phrase's third time; the text shows it all
    assert " ".join(rig.speech.texts).count("waves come") == 2 and rig.speech.texts[-1].endswith("come and go."), rig.speech.texts


async def test_a_spoken_turn_goes_listening_thinking_speaking_then_idle(rig: Rig):
    rig.recognizer.finals = ["What is the capital of France?"]
    states = []
    original = rig.session.state.move
    rig.session.state.move = lambda to: (original(to), states.append(to) if states[-1:] != [to] else None)[0]  # type: ignore[method-assign]
    await speak(rig)
    done = await rig.outbox.wait_for("response.done")
    assert done["response"]["status"] == "completed" and rig.outbox.audio_bytes > 0
    completed = rig.outbox.of("conversation.item.input_audio_transcription.completed")[0]
    assert completed["usage"] == {"type": "duration", "seconds": 1.0} and completed["languages"] == [{"code": "en"}]
    added, user_done = rig.outbox.of("conversation.item.added")[0], rig.outbox.of("conversation.item.done")[0]
    assert added["item"]["id"] == user_done["item"]["id"] and added["previous_item_id"] == user_done["previous_item_id"]
    await asyncio.sleep(0.8)  # the reply's audio (~0.6 s) plays out
    assert [s.value for s in states] == ["listening", "thinking", "speaking", "idle"]
    assert rig.session.state.state is SessionState.IDLE


async def test_barge_in_stops_the_reply_at_once_and_speech_started_comes_first(rig: Rig):
    rig.recognizer.finals = ["Tell me a story.", "Stop."]
    await speak(rig)
    await rig.outbox.wait_for("response.output_audio_transcript.delta")
    rig.engine.gate = asyncio.Event()  # the reply is mid-way
    async with rig.session.lock:
        await rig.session.turns.speech_started(SpeechStarted(at_s=5.0, start_s=4.9))
    types = rig.outbox.types()
    assert types.index("response.done") > types.index("input_audio_buffer.speech_started", types.index("response.created"))
    done = rig.outbox.of("response.done")[0]["response"]
    assert (done["status"], done["status_details"]["reason"]) == ("cancelled", "turn_detected")
    reply_id = done["id"]
    assert reply_id in rig.engine.cancelled and reply_id in rig.speech.cancelled
    assert rig.session.state.state is SessionState.LISTENING


async def speak_on_after_a_pause(rig: Rig):  # type: ignore[no-untyped-def]
    """An utterance with a pause in it, through the VAD's events: the speculative turn started at the pause (its ASR and
    reply run ahead for 50 ms), then discarded as the user speaks on; returns that turn."""
    turns = rig.session.turns
    async with rig.session.lock:
        await turns.speech_started(SpeechStarted(at_s=0.3, start_s=0.2))
        turns.speech_paused(SpeechPaused(at_s=1.0, audio=SECOND))
    speculative = turns.speculative
    await asyncio.sleep(0.05)
    async with rig.session.lock:
        turns.discard_speculative()  # what SpeechResumed does
        turns.speech_stopped(SpeechStopped(at_s=2.5, audio=SECOND, start_s=0.2, end_s=2.1), speech_end=0.0)
    return speculative


async def test_a_speculative_start_is_discarded_when_speech_resumes(rig: Rig):
    rig.recognizer.finals = ["What is", "What is the capital of France?"]
    speculative = await speak_on_after_a_pause(rig)
    assert speculative is not None
    await rig.outbox.wait_for("response.done")
    assert speculative.task is not None and speculative.task.cancelled() or speculative.reply is None or speculative.reply.stopped
    transcripts = [e["transcript"] for e in rig.outbox.of("conversation.item.input_audio_transcription.completed")]
    assert transcripts == ["What is the capital of France?"]
    assert len(rig.outbox.of("response.created")) == 1
    assert rig.engine.requests[-1]["messages"][-1]["content"] == "What is the capital of France?"


async def test_a_spoken_request_to_slow_down_is_kept_once_the_turn_is_the_users_whole_one(rig: Rig):
    rig.recognizer.finals = ["Slow down.", "Slow down the recipe steps for me."]
    await speak_on_after_a_pause(rig)  # the reply to the first words runs ahead, at the slower speed, unsent
    await rig.outbox.wait_for("response.done")
    assert rig.session.config.speed == 1.0 and not rig.outbox.of("session.updated")  # nothing changed
    rig.recognizer.finals = ["Can you speak slower?"]
    await speak(rig)
    await rig.outbox.wait_for("response.done", 2)
    assert rig.session.config.speed == 0.8 and rig.speech.speeds[-1] == 0.8
    assert rig.outbox.of("session.updated")[-1]["session"]["audio"]["output"]["speed"] == 0.8


async def test_a_speculative_start_is_adopted_when_the_user_stays_silent(rig: Rig):
    rig.recognizer.finals = ["What is the capital of France?"]
    await speak(rig, pause_first=True)
    done = await rig.outbox.wait_for("response.done")
    assert rig.recognizer.calls == 1 and done["response"]["latency"]["speculative"] is True


async def spoken_reply(rig: Rig) -> str:
    """A spoken turn answered whole ("Paris is the capital of France."); the reply's item id."""
    rig.recognizer.finals = ["Tell me about Paris."]
    await speak(rig)
    done = await rig.outbox.wait_for("response.done")
    return done["response"]["output"][0]["id"]


async def truncate(rig: Rig, item_id: str, audio_end_ms: int) -> None:
    await rig.send({"type": "conversation.item.truncate", "item_id": item_id, "content_index": 0, "audio_end_ms": audio_end_ms})


async def test_truncate_keeps_only_the_words_heard(rig: Rig):
    item_id = await spoken_reply(rig)
    await truncate(rig, item_id, 200)
    truncated = await rig.outbox.wait_for("conversation.item.truncated")
    assert truncated["transcript"] == "Paris is"
    assert rig.history.load_sync(rig.session.id)[-1].text == "Paris is"
    await truncate(rig, item_id, 99999)
    assert (await rig.outbox.wait_for("error"))["error"]["code"] == "invalid_audio_end_ms"


async def test_a_reply_truncated_before_its_first_word_leaves_the_conversation(rig: Rig):
    """Nothing of it heard: its stored text is empty, so a resume would not replay it; the client is told now."""
    item_id = await spoken_reply(rig)
    await truncate(rig, item_id, 0)
    assert (await rig.outbox.wait_for("conversation.item.truncated"))["transcript"] == ""
    assert (await rig.outbox.wait_for("conversation.item.deleted"))["item_id"] == item_id
    assert rig.session.conversation.find(item_id) is None
    assert item_id not in {m.item_id for m in rig.history.load_sync(rig.session.id) if m.text}
    await rig.send({"type": "conversation.item.retrieve", "item_id": item_id})
    assert (await rig.outbox.wait_for("error"))["error"]["code"] == "item_not_found"
    # the client heard some words after all: the item comes back, announced, with them
    seen = len(rig.outbox.events)
    await truncate(rig, item_id, 200)
    assert (await rig.outbox.wait_for("conversation.item.truncated", count=2))["transcript"] == "Paris is"
    back = [e for e in rig.outbox.events[seen:] if e["type"] in ("conversation.item.added", "conversation.item.done")]
    assert [(e["type"], e["item"]["id"]) for e in back] == [
        ("conversation.item.added", item_id), ("conversation.item.done", item_id)]  # fmt: skip
    assert rig.session.conversation.find(item_id) is not None
    assert [m.text for m in rig.history.load_sync(rig.session.id) if m.item_id == item_id] == ["Paris is"]


async def test_response_cancel_ends_the_reply_as_cancelled_with_what_was_sent(rig: Rig):
    rig.engine.gate = asyncio.Event()
    await rig.send(user_text("Hello"))
    await rig.send({"type": "response.create", "response": {"output_modalities": ["text"]}})
    await rig.send({"type": "response.create"})
    assert (await rig.outbox.wait_for("error"))["error"]["code"] == "conversation_already_has_active_response"
    await rig.send({"type": "response.cancel"})
    done = await rig.outbox.wait_for("response.done")
    assert (done["response"]["status"], done["response"]["status_details"]["reason"]) == ("cancelled", "client_cancelled")
    assert rig.session.responses.active is None and rig.session.state.state is SessionState.IDLE
    # no word reached the user: the message is done, then gone from the conversation, as a resume would have it
    message = done["response"]["output"][0]["id"]
    assert rig.outbox.of("conversation.item.deleted")[-1]["item_id"] == message
    assert rig.session.conversation.find(message) is None
    assert message not in {m.item_id for m in rig.history.load_sync(rig.session.id)}


async def test_a_cancel_that_comes_with_the_first_words_still_ends_the_reply(rig: Rig):
    """The reply's first output and the cancel in one turn of the event loop: the reply must end (a session
    that waited for it would read no more of its client's events)."""
    rig.engine.gate = asyncio.Event()
    await rig.send(user_text("Hello"))
    await rig.send({"type": "response.create", "response": {"output_modalities": ["text"]}})
    await asyncio.sleep(0.05)  # the reply waits for its first output
    reply = rig.session.responses.active
    assert reply is not None
    reply.outputs.put_nowait(Output("text", text="Hi"))
    async with asyncio.timeout(2) as deadline:  # in this task: the cancel comes before the reply's task wakes
        await rig.send({"type": "response.cancel"})
    assert not deadline.expired(), "the cancel waited for a reply that never ended"
    done = await rig.outbox.wait_for("response.done")
    assert (done["response"]["status"], done["response"]["status_details"]["reason"]) == ("cancelled", "client_cancelled")
    await rig.send({"type": "session.update", "session": {"instructions": "still here"}})
    assert (await rig.outbox.wait_for("session.updated"))["session"]["instructions"] == "still here"


async def test_a_cancel_while_a_finished_reply_is_stored_still_gets_its_response_done(rig: Rig, monkeypatch):
    """A cancel after the reply's last words, while what it said is being stored: the reply ends completed and stored
    whole, with its response.done (cancelling the store lost the response.done and left the reply active for good)."""
    storing, stored = asyncio.Event(), asyncio.Event()
    add = rig.history.add

    async def slow_add(session_id: str, message, *rest) -> None:
        if message.role == "assistant":
            storing.set()
            await stored.wait()
        await add(session_id, message, *rest)

    monkeypatch.setattr(rig.history, "add", slow_add)
    await rig.send(user_text("Hello"))
    await rig.send({"type": "response.create", "response": {"output_modalities": ["text"]}})
    await asyncio.wait_for(storing.wait(), 5)
    cancel = asyncio.create_task(rig.send({"type": "response.cancel"}))
    await asyncio.sleep(0.05)
    stored.set()
    async with asyncio.timeout(2):
        await cancel
        done = await rig.outbox.wait_for("response.done")
    assert done["response"]["status"] == "completed"
    assert rig.session.responses.active is None
    assert [m.role for m in rig.history.load_sync(rig.session.id)] == ["user", "assistant"]
    await rig.send({"type": "response.create", "response": {"output_modalities": ["text"]}})
    again = (await rig.outbox.wait_for("response.done", 2))["response"]
    assert again["status"] == "completed" and again["id"] != done["response"]["id"]


async def test_a_reply_task_deaf_to_its_cancel_does_not_hang_the_session(rig: Rig, monkeypatch, caplog):
    """A bug that swallows a reply's cancel (as Python 3.11's ``wait_for`` did) costs that reply, logged, not the
    session: the cancel is answered after ``STOP_WAIT_S`` and the session reads its client's events again."""

    async def deaf_first_output(self, reply: Reply) -> Output:
        while True:
            try:
                return await reply.outputs.get()
            except asyncio.CancelledError:
                continue

    monkeypatch.setattr(responses, "STOP_WAIT_S", 0.2)
    monkeypatch.setattr(responses.Responses, "_first_output", deaf_first_output)
    rig.engine.gate = asyncio.Event()
    await rig.send(user_text("Hello"))
    await rig.send({"type": "response.create", "response": {"output_modalities": ["text"]}})
    await asyncio.sleep(0.05)
    reply = rig.session.responses.active
    assert reply is not None
    async with asyncio.timeout(2):
        await rig.send({"type": "response.cancel"})
    done = await rig.outbox.wait_for("response.done")
    assert (done["response"]["status"], done["response"]["status_details"]["reason"]) == ("cancelled", "client_cancelled")
    assert "has not ended 0.2 s after it was cancelled" in caplog.text
    await rig.send({"type": "session.update", "session": {"instructions": "still here"}})
    assert (await rig.outbox.wait_for("session.updated"))["session"]["instructions"] == "still here"
    reply.outputs.put_nowait(Output("end"))  # the deaf task ends late: nothing more is sent for its reply
    await asyncio.sleep(0.05)
    assert len(rig.outbox.of("response.done")) == 1


async def test_out_of_band_replies_run_beside_the_reply_and_are_not_stored(rig: Rig):
    await rig.send(user_text("Hello", id="item_hello"))
    await rig.send({"type": "response.create", "response": {"conversation": "none", "metadata": {"kind": "summary"},
                    "input": [{"type": "item_reference", "id": "item_hello"}]}})  # fmt: skip
    done = await rig.outbox.wait_for("response.done")
    assert done["response"]["conversation_id"] is None and done["response"]["metadata"] == {"kind": "summary"}
    assert rig.engine.requests[0]["priority"] == Priority.BACKGROUND
    assert rig.engine.requests[0]["messages"][1:] == [{"role": "user", "content": "Hello"}]
    assert [m.item_id for m in rig.history.load_sync(rig.session.id)] == ["item_hello"]
    assert not rig.outbox.of("conversation.item.added")[1:]


async def test_in_band_input_answers_a_given_context_and_stores_the_reply(rig: Rig):
    await rig.send({"type": "response.create", "response": {"output_modalities": ["text"], "input": [
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Say hi"}]}]}})  # fmt: skip
    done = await rig.outbox.wait_for("response.done")
    assert done["response"]["conversation_id"] == rig.session.id
    assert rig.engine.requests[0]["messages"][1:] == [{"role": "user", "content": "Say hi"}]
    assert [m.role for m in rig.history.load_sync(rig.session.id)] == ["assistant"]


async def test_an_audio_item_is_transcribed_without_holding_the_session(rig: Rig):
    rig.recognizer.finals = ["A recorded question."]
    rig.recognizer.gate = asyncio.Event()
    pcm = (np.ones(2400, np.int16) * 100).tobytes()
    import base64

    await rig.send({"type": "conversation.item.create", "item": {"type": "message", "role": "user",
                    "content": [{"type": "input_audio", "audio": base64.b64encode(pcm).decode()}]}})  # fmt: skip
    await rig.send({"type": "session.update", "session": {"instructions": "while ASR runs"}})
    assert rig.outbox.of("session.updated") and not rig.outbox.of("conversation.item.done")  # not blocked
    await rig.send({"type": "response.create", "response": {"output_modalities": ["text"]}})  # waits for the words
    await asyncio.sleep(0.05)
    assert not rig.engine.requests
    rig.recognizer.gate.set()
    await rig.outbox.wait_for("response.done")
    assert rig.engine.requests[0]["messages"][-1] == {"role": "user", "content": "A recorded question."}


async def test_items_insert_after_a_given_item_or_at_the_root_and_can_be_retrieved_and_deleted(rig: Rig):
    await rig.send(user_text("first", id="item_a"))
    await rig.send(user_text("third", id="item_c"))
    await rig.send({**user_text("second", id="item_b"), "previous_item_id": "item_a"})
    await rig.send({"type": "conversation.item.create", "previous_item_id": "root", "item": {"type": "message",
                    "role": "system", "id": "item_sys", "content": [{"type": "input_text", "text": "Be brief."}]}})  # fmt: skip
    await rig.send({"type": "conversation.item.create", "item": {"type": "message", "role": "assistant", "id": "item_d",
                    "content": [{"type": "output_text", "text": "fourth"}]}})  # fmt: skip
    assert [e.item_id for e in rig.session.conversation.entries] == ["item_sys", "item_a", "item_b", "item_c", "item_d"]
    assert [m.item_id for m in rig.history.load_sync(rig.session.id)] == ["item_sys", "item_a", "item_b", "item_c", "item_d"]
    assert rig.outbox.of("conversation.item.added")[2]["previous_item_id"] == "item_a"
    await rig.send({**user_text("lost"), "previous_item_id": "item_nope"})
    assert (await rig.outbox.wait_for("error"))["error"] | {"message": ""} == {
        "type": "invalid_request_error", "code": "item_not_found", "message": "", "param": "previous_item_id", "event_id": None}
    await rig.send({"type": "conversation.item.retrieve", "item_id": "item_b"})
    assert (await rig.outbox.wait_for("conversation.item.retrieved"))["item"]["content"][0]["text"] == "second"
    await rig.send({"type": "conversation.item.delete", "item_id": "item_b"})
    assert (await rig.outbox.wait_for("conversation.item.deleted"))["item_id"] == "item_b"
    await rig.send({"type": "conversation.item.retrieve", "item_id": "item_b"})
    assert (await rig.outbox.wait_for("error", 2))["error"]["code"] == "item_not_found"
    assert "item_b" not in [m.item_id for m in rig.history.load_sync(rig.session.id) if m.text]


async def test_the_transcription_deltas_are_increments_of_confirmed_words(rig: Rig):
    rig_partials = ["What is the copy", "What is the capital on", "What is the capital of France"]
    rig.recognizer.partials = list(rig_partials)
    rig.session.turns.speech_item = "item_speech"
    for _ in range(3):
        rig.session.turns.partial_audio(SECOND)
        await asyncio.sleep(0.02)
    events = rig.outbox.of("conversation.item.input_audio_transcription.delta")
    assert "".join(e["delta"] for e in events) == "What is the capital"
    assert [e["transcript"] for e in events] == rig_partials  # the page shows the latest partial whole


async def test_no_partial_transcript_while_the_engine_on_these_cores_serves_voice_replies(rig: Rig, monkeypatch):
    from app.cpu_share import EngineWork

    busy, idle = EngineWork(voice_replies=1), EngineWork()  # another session's spoken reply is decoding; then none is
    rig.recognizer.partials = ["What is", "What is the capital"]
    rig.session.turns.speech_item = "item_speech"
    monkeypatch.setattr("app.web.realtime.turns.engine_work", busy)
    rig.session.turns.partial_audio(SECOND)
    await asyncio.sleep(0.05)
    assert rig.outbox.of("conversation.item.input_audio_transcription.delta") == []
    assert rig.recognizer.partials == ["What is", "What is the capital"]  # no ASR was asked
    monkeypatch.setattr("app.web.realtime.turns.engine_work", idle)
    rig.session.turns.partial_audio(SECOND)
    await asyncio.sleep(0.05)
    assert [e["transcript"] for e in rig.outbox.of("conversation.item.input_audio_transcription.delta")] == ["What is"]


IDLE_ENGINE = {"running_voice": 0, "waiting_voice": 0}  # what the local engine's stats say with no voice reply in it


async def partials(rig: Rig, *texts: str) -> list[dict]:
    """Partial transcripts of the speech going on, one after another; the prefill-ahead requests they made."""
    rig.recognizer.partials = list(texts)
    rig.session.turns.speech_item = "item_speech"
    for _ in texts:
        rig.session.turns.partial_audio(SECOND)
        await asyncio.sleep(0.02)
    return [r for r in rig.engine.requests if r["id"].startswith("ahead-")]


async def test_partials_prefill_the_conversation_and_their_words_but_the_last(rig: Rig):
    rig.engine.stats = lambda: IDLE_ENGINE  # type: ignore[method-assign]
    await rig.send(user_text("Hi."))
    await rig.send({"type": "response.create"})
    await rig.outbox.wait_for("response.done")
    ahead = await partials(rig, "What is the capa", "What is the capa", "What is the capital of")
    reply = rig.engine.requests[0]
    assert [r["messages"] for r in ahead] == [
        [*reply["messages"], {"role": "assistant", "content": rig.engine.reply},
         {"role": "user", "content": words, "prefix": True}] for words in ("What is the", "What is the capital")
    ]  # fmt: skip   # the same words twice: one request
    assert all(r["priority"] == Priority.TEXT and r["tools"] == reply["tools"] for r in ahead)
    # the reply's token limit, so the engine keeps the same turns of a long conversation in both prompts
    assert all(r["params"].max_tokens == reply["params"].max_tokens for r in ahead)


async def test_with_tools_the_prompt_without_them_is_prefilled_beside(rig: Rig):
    """A reply that may call or answer in words starts its prompt without tools beside its own (``Reply``): both are
    prefilled ahead; with a call required, only the reply's own."""
    timer = {"type": "function", "name": "set_timer", "description": "Start a timer.",
             "parameters": {"type": "object", "properties": {"seconds": {"type": "integer"}}, "required": ["seconds"]}}
    rig.engine.stats = lambda: IDLE_ENGINE  # type: ignore[method-assign]
    await rig.send({"type": "session.update", "session": {"tools": [timer], "tool_choice": "auto"}})
    [ahead] = await partials(rig, "What is the capital of")
    [words] = [r for r in rig.engine.words_requests if r["id"].startswith("ahead-")]
    assert words["id"] == f"{ahead['id']}-words" and ahead["tools"] and words["tools"] is None
    settings = rig.session.settings
    assert words["messages"][0]["content"] == settings.default_instructions(tools=False) != ahead["messages"][0]["content"]
    assert words["messages"][1:] == ahead["messages"][1:]
    await rig.send({"type": "session.update", "session": {"tool_choice": "required"}})
    rig.session.turns.prefill_ahead.new_speech()
    assert len(await partials(rig, "What is the capital of Spain")) == 2
    assert len([r for r in rig.engine.words_requests if r["id"].startswith("ahead-")]) == 1


async def test_no_prefill_ahead_beside_a_reply_an_utterance_in_asr_a_pause_or_voice_replies_in_the_engine(rig: Rig):
    rig.engine.stats = lambda: IDLE_ENGINE  # type: ignore[method-assign]
    rig.engine.gate = asyncio.Event()
    await rig.send(user_text("Hi."))
    await rig.send({"type": "response.create"})
    assert await partials(rig, "What is the capital") == []  # a reply runs: the next prompt is not known yet
    rig.engine.gate.set()
    await rig.outbox.wait_for("response.done")
    rig.recognizer.gate, rig.recognizer.finals = asyncio.Event(), ["Hello there."]
    await speak(rig)  # an utterance still in ASR
    assert await partials(rig, "And what is the capital") == []
    rig.recognizer.gate.set()
    await rig.outbox.wait_for("response.done", 2)
    rig.engine.stats = lambda: {"running_voice": 1, "waiting_voice": 0}  # another session's reply  # type: ignore[method-assign]
    assert await partials(rig, "And what is the capital") == []
    rig.engine.stats = lambda: IDLE_ENGINE  # type: ignore[method-assign]
    rig.recognizer.gate = asyncio.Event()  # the pause's speculative turn stays in ASR
    rig.session.turns.speech_paused(SpeechPaused(at_s=1.3, audio=SECOND))
    assert await partials(rig, "And what is the capital") == []  # a partial that comes in the pause
    rig.session.turns.discard_speculative()  # the user talks on
    rig.recognizer.gate.set()
    assert len(await partials(rig, "And what is the capital")) == 1


async def test_no_prefill_ahead_when_off_or_on_an_engine_that_reports_no_voice_load(tmp_path: Path):
    off = await make_rig(tmp_path / "off", prefill_ahead=False)
    remote = await make_rig(tmp_path / "remote")  # the fake's stats, as a remote server's: no running_voice
    try:
        off.engine.stats = lambda: IDLE_ENGINE  # type: ignore[method-assign]
        assert await partials(off, "What is the capital") == []
        assert await partials(remote, "What is the capital") == []
    finally:
        await off.close()
        await remote.close()


async def test_a_prefill_ahead_still_in_flight_is_cancelled_at_the_pause_even_before_it_reaches_the_engine(rig: Rig):
    rig.engine.stats = lambda: IDLE_ENGINE  # type: ignore[method-assign]
    rig.engine.gate = asyncio.Event()  # the prefill waits in the engine
    ahead = await partials(rig, "What is the capital", "What is the capital of France")
    assert len(ahead) == 1  # one at a time
    rig.session.turns.speech_paused(SpeechPaused(at_s=1.3, audio=SECOND))
    assert rig.engine.cancelled[0] == ahead[0]["id"]
    rig.engine.gate.set()
    rig.session.turns.discard_speculative()
    rig.session.turns.prefill_ahead.words("And now the words")
    rig.session.turns.prefill_ahead.stop()  # before its task ran
    await asyncio.sleep(0.02)
    assert len([r for r in rig.engine.requests if r["id"].startswith("ahead-")]) == 1


def test_the_state_machine_refuses_transitions_it_does_not_list():
    machine = StateMachine()
    with pytest.raises(IllegalTransition):
        machine.move(SessionState.SPEAKING)  # speaking needs a turn or a reply first
    machine.move(SessionState.CLOSED)
    with pytest.raises(IllegalTransition):
        machine.move(SessionState.IDLE)


async def test_a_reply_that_cannot_start_in_time_ends_server_busy_and_frees_its_request(tmp_path: Path):
    rig = await make_rig(tmp_path, reply_start_timeout_s=0.2)
    try:
        rig.engine.gate = asyncio.Event()  # an engine too busy to produce a token
        await rig.send(user_text("Hello?"))
        await rig.send({"type": "response.create"})
        done = await rig.outbox.wait_for("response.done")
        assert done["response"]["status"] == "failed"
        assert done["response"]["status_details"]["error"]["code"] == "server_busy"
        assert rig.outbox.of("error")[-1]["error"]["code"] == "server_busy"
        assert rig.engine.cancelled == [done["response"]["id"]]
        rig.engine.gate.set()
        await rig.send(user_text("Now?"))
        await rig.send({"type": "response.create"})
        assert (await rig.outbox.wait_for("response.done", 2))["response"]["status"] == "completed"  # the session goes on
    finally:
        await rig.close()
