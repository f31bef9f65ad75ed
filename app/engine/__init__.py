"""The shared LLM engine: continuous batching, paged KV cache, voice priority, prefix reuse.

``create_backend(settings)`` builds the backend the settings select; every backend implements
:class:`LLMBackend` (see ``api.py``).
"""

from __future__ import annotations

from app.config import Settings
from app.engine.api import Delta, LLMBackend, Priority, SamplingParams

__all__ = ["Delta", "LLMBackend", "Priority", "SamplingParams", "create_backend"]


def create_backend(settings: Settings, *, model_path: str | None = None, draft_path: str | None = None) -> LLMBackend:
    """The LLM backend selected by ``settings.llm_backend`` (not started yet: ``await start()``).

    ``model_path`` overrides the model folder of the local backend (otherwise the prepared one, and the prepared
    draft model for speculative decoding when the settings choose one); ``draft_path`` names a draft beside it.
    """
    if settings.llm_backend == "local":
        from app.engine.engine import LocalEngine

        if model_path is None:
            from app.models.prepare import prepare_models

            prepared = prepare_models(settings)
            model_path = str(prepared.llm_dir)
            draft_path = draft_path or (str(prepared.draft_llm_dir) if prepared.draft_llm_dir else None)
        return LocalEngine(settings, model_path, draft_path)
    if settings.llm_backend == "openai":
        from app.engine.remote import RemoteEngine

        return RemoteEngine(settings.llm_api_base, settings.llm_api_key, model=model_path or settings.llm_model)
    raise ValueError(f"unknown llm_backend {settings.llm_backend!r}")
