"""``bench asr`` on recorded human speech: streamed through the server's path beside offline Whisper."""

from __future__ import annotations

from app.asr import create_transcriber
from app.bench.asr import _stages, human_speech, streamed_utterances
from app.bench.speech_samples import asterisk_samples, asterisk_transcripts, whisper_normalizer, whisper_word_error_rate


def test_the_endpointer_cuts_one_utterance_per_short_prompt(settings):
    for sample in asterisk_samples(names=["digits/7", "phonetic/a_p", "followme/status"]):
        pieces = streamed_utterances(settings, sample.audio)
        assert len(pieces) == 1
        assert len(sample.audio) - 1600 < len(pieces[0]) < len(sample.audio) + 16000  # pre-roll and pause included


def test_human_speech_figures_compare_streamed_and_offline(settings):
    figures = human_speech(settings.model_copy(update={"asr_model": "tiny.en"}), every=50)  # 4 of the 200 clips
    assert figures["asr_human_clips_tiny.en"] == 4
    assert 0.0 <= figures["asr_wer_stream_tiny.en"] <= 0.5 and 0.0 <= figures["asr_wer_offline_tiny.en"] <= 0.5
    assert figures["asr_repeats_tiny.en"] == 0
    assert 0.0 <= figures["asr_fallbacks_tiny.en"] <= 1.0
    assert isinstance(figures["asr_stream_misses_tiny.en"], str)


def test_stage_times_of_the_english_only_default(settings, prepared):
    """tiny.en has no language tokens: the stages decode in English, as the server does, without detecting."""
    transcriber = create_transcriber(settings, prepared)
    assert not transcriber.model.is_multilingual
    stages = _stages(transcriber, [asterisk_samples(names=["digits/7"])[0].audio], runs=1)
    assert stages["asr_encode_ms"] > 0 and stages["asr_decode_ms"] > 0
    assert stages["asr_decoder_weights"].startswith(("q8", "float", "bfloat"))


def test_recorded_prompts_in_other_languages():
    spanish = asterisk_transcripts("es")
    assert spanish["digits/1"] == "uno" and "digits/0" not in spanish  # the transcript gives digits/0 two texts
    assert {s.name for s in asterisk_samples("es")} < set(spanish)  # a few transcribed prompts have no recording
    assert [s.text for s in asterisk_samples("fr", ["digits/17"])] == ["dix sept"]
    assert whisper_normalizer("es")("Modo de reproducción.") == whisper_normalizer("es")("modo de reproduccion")
    assert whisper_word_error_rate(["pour l'aide, appuyez sur 0."], ["Pour l'aide appuyez sur 0"], "fr") == 0.0
