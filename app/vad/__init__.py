"""Endpointing: silero-vad speech start / pause / stop events per session."""

from app.vad.endpointer import Endpointer
from app.vad.events import PartialAudio, SpeechPaused, SpeechResumed, SpeechStarted, SpeechStopped, VadEvent

__all__ = [
    "Endpointer",
    "PartialAudio",
    "SpeechPaused",
    "SpeechResumed",
    "SpeechStarted",
    "SpeechStopped",
    "VadEvent",
]
