"""The endpoints operators and their tools expect: readiness (``/readyz``) and the models served (``/v1/models``)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from app.config import Settings
from app.web.readiness import Readiness


def llm_name(settings: Settings, engine: Any) -> str:
    """The LLM's name as clients see it: the remote server's own name for its model, else the setting."""
    if settings.llm_backend == "openai":
        remote = engine.stats().get("model") if engine is not None else None
        if remote:
            return str(remote)
    return settings.llm_model


def _short(name: str) -> str:
    """A model file's name without folder and suffix; model names pass unchanged."""
    return Path(name).stem if name.endswith((".pt", ".onnx")) else name


def served_models(settings: Settings, engine: Any, created: int) -> list[dict[str, Any]]:
    """The LLM, the speech recogniser and the voice, as OpenAI model objects (``stage`` says which is which)."""
    def card(model_id: str, stage: str, **extra: Any) -> dict[str, Any]:
        return {"id": model_id, "object": "model", "created": created, "owned_by": "voicechat", "stage": stage, **extra}

    return [
        card(llm_name(settings, engine), "llm", max_model_len=settings.max_seq_len),
        card(f"whisper-{_short(settings.whisper_model)}", "asr"),
        card(f"{settings.tts_backend}-{_short(settings.tts_voice)}", "tts"),
    ]


def operations_router(settings: Settings, readiness: Readiness, parts: Callable[[], Any]) -> APIRouter:
    """``parts()`` is the app's SharedParts once the models are loaded, None before."""
    router = APIRouter()
    created = int(time.time())

    @router.get("/readyz")
    async def readyz() -> JSONResponse:
        """200 while every stage keeps up; 503 while the models load, a stage stalls, or the server is stopping."""
        if parts() is None:
            return JSONResponse({"status": "starting", "problems": ["the models are loading"]}, status_code=503)
        problems = ([readiness.fatal] if readiness.fatal else []) + readiness.problems()
        if problems:
            return JSONResponse({"status": "unready", "problems": problems}, status_code=503)
        return JSONResponse({"status": "ready", "problems": []})

    @router.get("/v1/models")
    async def models() -> dict[str, Any]:
        engine = getattr(parts(), "engine", None)
        return {"object": "list", "data": served_models(settings, engine, created)}

    return router
