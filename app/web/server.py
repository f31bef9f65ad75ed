"""The FastAPI app: pages, the WebSocket protocol at /ws and /v1/realtime, health, metrics, dashboard data.

Routes stay thin: sessions (app.web.realtime) hold the logic, the shared parts are built once here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import mimetypes
import threading
import time
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from app.config import Settings
from app.vad.end_of_turn import end_of_turn_scorer
from app.web.assets import static_dir, templates_dir
from app.web.history import HistoryStore, history_limits
from app.web.limits import AccessPolicy
from app.web.operations import llm_name, operations_router
from app.web.readiness import Readiness
from app.web.ownership import SessionKeys, sessions_router
from app.web.security import harden, install_log_redaction, uvicorn_options
from app.web.realtime.parts import SharedParts
from app.web.socket import CLOSE_GOING_AWAY, MAX_FRAME_BYTES, SessionRegistry, SocketHandler
from app.web.telemetry import Telemetry, normalize_engine_stats

log = logging.getLogger(__name__)


mimetypes.add_type("text/javascript", ".js")  # AudioWorklet modules are refused under any other type
mimetypes.add_type("text/javascript", ".mjs")


def _build_parts(settings: Settings, prepared: Any, engine: Any, recognizer: Any, tts: Any) -> tuple[Any, Any, Any, list[Any]]:
    """Build whatever was not injected; returns the parts and the list of those built here (owned)."""
    from app.device import use_torch_threads

    use_torch_threads(1)  # loading runs on a pooled thread that must not keep a torch thread team
    owned: list[Any] = []
    if (recognizer is None or tts is None) and prepared is None:
        from app.models.prepare import prepare_models

        prepared = prepare_models(settings)
    if engine is None:
        from app.engine import create_backend

        draft = getattr(prepared, "draft_llm_dir", None)
        engine = (create_backend(settings, model_path=str(prepared.llm_dir), draft_path=str(draft) if draft else None)
                  if prepared else create_backend(settings))
        owned.append(engine)
    if recognizer is None:
        from app.asr import create_recognizer

        recognizer = create_recognizer(settings, prepared)
        owned.append(recognizer)
    if tts is None:
        from app.tts import create_worker

        tts = create_worker(settings, prepared)
        owned.append(tts)
    if settings.spelling_hints:
        from app.answers.spelling import load_dictionary

        load_dictionary()  # here, not on the event loop at the first spelling question
    return engine, recognizer, tts, owned


async def _call(part: Any, method: str) -> None:
    result = getattr(part, method)()
    if asyncio.iscoroutine(result):
        await result


def create_app(
    settings: Settings,
    *,
    prepared: Any = None,
    engine: Any = None,
    recognizer: Any = None,
    tts: Any = None,
) -> Any:
    """The app. Injected parts belong to the caller (started and stopped by it); the parts built
    here from ``settings`` are started and stopped by the app's lifespan."""
    telemetry = Telemetry()
    registry = SessionRegistry(settings.max_sessions)
    templates = Jinja2Templates(directory=str(templates_dir()))
    state: dict[str, Any] = {}
    readiness = Readiness(settings.stall_timeout_s, settings.stall_exit_s)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        built_engine, built_recognizer, built_tts, owned = await asyncio.to_thread(
            _build_parts, settings, prepared, engine, recognizer, tts
        )
        for part in owned:
            await _call(part, "start")
        history = HistoryStore(Path(settings.data_dir) / "history.sqlite3", history_limits(settings))
        scorer = end_of_turn_scorer(built_engine)
        if settings.turn_detection == "semantic_vad" and scorer is None:
            log.warning("turn_detection semantic_vad: this model cannot score the end of a turn; sessions use server_vad")
        state["parts"] = SharedParts(settings, built_engine, built_recognizer, built_tts, history, telemetry, scorer)
        telemetry.watch_engine(built_engine, lambda: llm_name(settings, built_engine))
        sampler = asyncio.create_task(_sample_forever(), name="dashboard-sampler")
        log.info("ready: up to %d sessions, history in %s", settings.max_sessions, history.path)
        try:
            yield
        finally:
            sampler.cancel()
            for session, websocket in list(registry.sessions.values()):
                with contextlib.suppress(Exception):
                    await websocket.close(CLOSE_GOING_AWAY, "server shutting down")
                await session.close()
            for part in reversed(owned):
                with contextlib.suppress(Exception):
                    await _call(part, "stop")
            history.close()

    app = FastAPI(title="voicechat", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    access = AccessPolicy(settings)
    harden(app, settings, access)
    keys = SessionKeys(settings.data_dir)
    app.include_router(sessions_router(keys))
    app.state.settings = settings
    app.state.telemetry = telemetry
    app.state.registry = registry
    app.state.readiness = readiness
    app.include_router(operations_router(settings, readiness, lambda: state.get("parts")))

    def engine_view() -> dict[str, Any]:
        parts: SharedParts | None = state.get("parts")
        if parts is None:
            return normalize_engine_stats({})
        try:
            raw = dict(parts.engine.stats())
        except Exception:  # the dashboard must never take the server down
            log.exception("engine stats failed")
            raw = {}
        return normalize_engine_stats(raw)

    async def _sample_forever() -> None:
        while True:
            view = engine_view()
            readiness.observe_parts(state["parts"])
            telemetry.sessions_gauge.set(len(registry.sessions))
            telemetry.sample(len(registry.sessions), view)
            await asyncio.sleep(1.0)

    # ------------------------------------------------------------------ pages

    @app.get("/", include_in_schema=False)
    async def index(request: Request) -> Response:
        response = templates.TemplateResponse(request, "index.html", {})
        cookie = keys.page_cookie(request.scope, request.cookies)  # the credential of this browser's session
        if cookie is not None:
            response.raw_headers.append(cookie)
        return response

    @app.get("/dashboard", include_in_schema=False)
    async def dashboard(request: Request) -> Response:
        return templates.TemplateResponse(request, "dashboard.html", {})

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        return FileResponse(static_dir() / "favicon.svg", media_type="image/svg+xml")

    app.mount("/static", StaticFiles(directory=str(static_dir())), name="static")

    # ------------------------------------------------------------------ data

    @app.get("/healthz")
    async def healthz() -> dict[str, Any]:
        return {"status": "ok", "sessions": len(registry.sessions), "max_sessions": registry.max_sessions}

    @app.get("/metrics")
    async def metrics() -> Response:
        telemetry.sessions_gauge.set(len(registry.sessions))
        return Response(generate_latest(telemetry.registry), media_type=CONTENT_TYPE_LATEST)

    @app.get("/api/dashboard")
    async def dashboard_data() -> JSONResponse:
        now = time.time()
        return JSONResponse(
            {
                "time": round(now, 3),
                "uptime_s": round(now - telemetry.started, 1),
                "sessions": {
                    "active": len(registry.sessions),
                    "max": registry.max_sessions,
                    "list": [session.describe() for session, _ in registry.sessions.values()],
                },
                "engine": engine_view(),
                "latency": {"window_s": telemetry.latency.window_s, "stages": telemetry.latency.summary()},
                "series": list(telemetry.series),
            }
        )

    # ------------------------------------------------------------------ the protocol

    sockets = SocketHandler(settings, access, keys, registry, telemetry, lambda: state["parts"])

    @app.websocket("/ws")
    async def ws(websocket: WebSocket) -> None:
        await sockets.serve(websocket, default_binary=True)

    @app.websocket("/v1/realtime")
    async def openai_realtime(websocket: WebSocket) -> None:
        await sockets.serve(websocket, default_binary=False)

    return app


class ServerThread:
    """An app served by uvicorn in a background thread on a free port (benchmarks and tests).

    ``with ServerThread(app) as base_url:`` yields ``http://127.0.0.1:PORT``.
    """

    def __init__(self, app: Any, *, host: str = "127.0.0.1", port: int = 0, start_timeout_s: float = 600.0):
        import uvicorn

        self.server = uvicorn.Server(
            uvicorn.Config(
                app, host=host, port=port, log_level="warning", ws_max_size=MAX_FRAME_BYTES,
                **uvicorn_options(app.state.settings),
            )
        )
        self.host = host
        self.start_timeout_s = start_timeout_s
        self.thread = threading.Thread(target=self.server.run, name="uvicorn", daemon=True)

    def __enter__(self) -> str:
        self.thread.start()
        deadline = time.monotonic() + self.start_timeout_s
        while not self.server.started:
            if not self.thread.is_alive():
                raise RuntimeError("the server stopped while starting (see its log)")
            if time.monotonic() > deadline:
                raise TimeoutError(f"the server did not start within {self.start_timeout_s} s")
            time.sleep(0.05)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        return f"http://{self.host}:{port}"

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=60)


def serve(settings: Settings) -> None:
    """``voicechat serve``: prepare the models (with progress), build the parts, run uvicorn."""
    import uvicorn

    from app.models.prepare import prepare_models

    install_log_redaction()
    from app.models.choice import reasons

    if settings.llm_model in reasons:
        log.info("llm_model auto: %s (%s)", settings.llm_model, reasons[settings.llm_model])
    prepared = prepare_models(settings, progress=True)
    log.info("models:\n%s", prepared.describe())
    app = create_app(settings, prepared=prepared)
    print(
        f"voicechat: starting on http://{settings.host}:{settings.port}/ (WebSocket /ws and /v1/realtime); "
        "loading the models takes a few seconds",
        flush=True,
    )
    server = uvicorn.Server(uvicorn.Config(
        app,
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level,
        log_config=None,  # uvicorn's loggers reach the root handler, in the chosen log format (app.log_format)
        ws_max_size=MAX_FRAME_BYTES,
        timeout_graceful_shutdown=10,
        **uvicorn_options(settings),
    ))
    readiness: Readiness = app.state.readiness
    readiness.on_fatal = lambda reason: setattr(server, "should_exit", True)  # a graceful shutdown, then the exit
    server.run()
    if readiness.fatal:
        raise SystemExit(f"voicechat: {readiness.fatal}")
