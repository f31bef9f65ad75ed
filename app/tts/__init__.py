"""Speech out: reply text -> speakable chunks -> normalised words -> PCM, shared by all sessions."""

from app.tts.chunker import ClauseChunker
from app.tts.normalize import normalize_for_speech
from app.tts.synthesizer import SpeechSynthesizer, SynthesisError, create_synthesizer
from app.tts.worker import TTSWorker, create_worker

__all__ = [
    "ClauseChunker",
    "SpeechSynthesizer",
    "SynthesisError",
    "TTSWorker",
    "create_synthesizer",
    "create_worker",
    "normalize_for_speech",
]
