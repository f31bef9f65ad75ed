"""voicechat: a real-time voice chat server on a shared, voice-aware LLM engine."""

__version__ = "0.1.0"
