"""The FastAPI app: pages, the WebSocket protocol at /ws and /v1/realtime, health, metrics, dashboard data.

Routes stay thin: sessions (app.web.realtime) hold the logic, the shared parts are built once here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import mimetypes
import re
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
from starlette.websockets import WebSocketDisconnect, WebSocketState

from app.config import Settings
from app.vad.end_of_turn import end_of_turn_scorer
from app.web.assets import static_dir, templates_dir
from app.web.history import HistoryStore, history_limits
from app.web.limits import AccessPolicy, limited_client
from app.web.operations import llm_name, operations_router
from app.web.readiness import Readiness
from app.web.ownership import SessionKeys, sessions_router
from app.web.security import harden, install_log_redaction, uvicorn_options
from app.web.outbox import Outbox
from app.web.realtime import server_events as ev
from app.web.realtime.parts import SharedParts
from app.web.realtime.session import Session
from app.web.realtime.wire import new_id
from app.web.telemetry import Telemetry, normalize_engine_stats

log = logging.getLogger(__name__)

SESSION_ID = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
MAX_FRAME_BYTES = 21 * 1024 * 1024  # a 15 MiB append in base64; also uvicorn's ws_max_size: bigger frames close with 1009
KEY_SUBPROTOCOL = "openai-insecure-api-key."  # browsers cannot set headers: the key comes as a subprotocol
CLOSE_TRY_AGAIN_LATER = 1013
CLOSE_TOO_BIG = 1009
CLOSE_POLICY = 1008
CLOSE_GOING_AWAY = 1001

mimetypes.add_type("text/javascript", ".js")  # AudioWorklet modules are refused under any other type
mimetypes.add_type("text/javascript", ".mjs")


class SessionRegistry:
    """The live sessions (capped by ``max_sessions``) and their sockets, for the dashboard and shutdown."""

    def __init__(self, max_sessions: int):
        self.max_sessions = max_sessions
        self.sessions: dict[str, tuple[Session, WebSocket]] = {}

    def full(self) -> bool:
        return len(self.sessions) >= self.max_sessions

    def resolve_id(self, requested: str | None) -> str:
        """The requested id if it is well-formed and not live elsewhere, else a fresh one."""
        if requested and SESSION_ID.match(requested) and requested not in self.sessions:
            return requested
        return new_id("sess")

    def held_by(self, address: str | None) -> int:
        """Live sessions whose client has this address."""
        return sum(1 for _, ws in self.sessions.values() if ws.client and ws.client.host == address)

    def add(self, session: Session, websocket: WebSocket) -> None:
        self.sessions[session.id] = (session, websocket)

    def remove(self, session: Session) -> None:
        if self.sessions.get(session.id, (None,))[0] is session:
            del self.sessions[session.id]


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
        state["parts"] = SharedParts(settings, built_engine, built_recognizer, built_tts, history, telemetry,
                                     end_of_turn_scorer(built_engine))
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

    async def realtime(websocket: WebSocket, default_binary: bool) -> None:
        offered = [name.strip() for name in websocket.headers.get("sec-websocket-protocol", "").split(",") if name.strip()]
        await websocket.accept(subprotocol="realtime" if "realtime" in offered else None)
        parts: SharedParts = state["parts"]
        headers = dict(websocket.headers)
        key = next((name[len(KEY_SUBPROTOCOL) :] for name in offered if name.startswith(KEY_SUBPROTOCOL)), None)
        if key and "authorization" not in headers:  # checked like any access token (constant time)
            headers["authorization"] = f"Bearer {key}"
        denial = access.check_websocket(websocket.query_params, headers, websocket.cookies)
        if denial is not None:
            telemetry.errors.labels(code=denial.code).inc()
            await websocket.send_json(ev.error(denial.code, denial.message))
            await websocket.close(CLOSE_POLICY, denial.code)
            return
        if registry.full():
            telemetry.errors.labels(code="server_full").inc()
            message = f"the server is full ({registry.max_sessions} sessions); please try again in a minute"
            await websocket.send_json(ev.error("server_full", message))
            await websocket.close(CLOSE_TRY_AGAIN_LATER, "server full")
            return
        client = websocket.client.host if websocket.client else None
        per_client = settings.max_sessions_per_client
        if per_client and limited_client(client) and registry.held_by(client) >= per_client:
            telemetry.errors.labels(code="too_many_sessions").inc()
            message = f"this address already holds {per_client} sessions; close one and try again"
            await websocket.send_json(ev.error("too_many_sessions", message))
            await websocket.close(CLOSE_TRY_AGAIN_LATER, "too many sessions")
            return
        query = websocket.query_params
        session_id = registry.resolve_id(keys.claimed_id(websocket.headers, websocket.cookies))
        transport = query.get("audio")
        binary = default_binary if transport not in ("binary", "base64") else transport == "binary"
        outbox = Outbox(max_bytes=settings.max_send_buffer_bytes)
        session = Session(session_id, parts, outbox, binary_audio=binary)
        registry.add(session, websocket)
        telemetry.sessions_gauge.set(len(registry.sessions))
        pump = asyncio.create_task(outbox.pump(websocket.send_text, websocket.send_bytes), name=f"send-{session_id[:8]}")
        overflow = asyncio.create_task(outbox.overflowed.wait())
        log.info("session %s connected (%d live)", session_id[:8], len(registry.sessions))
        close_code, reason = 1000, ""
        try:
            await session.start()
            receive = asyncio.create_task(websocket.receive())
            while True:
                done, _ = await asyncio.wait(
                    {receive, overflow, pump}, timeout=session.limits.idle_left_s(), return_when=asyncio.FIRST_COMPLETED
                )
                if not done:
                    notice = f"no message for {settings.idle_timeout_s:g} s; reconnect to go on"
                    outbox.event(ev.error("session_idle", notice))
                    close_code, reason = 1000, "idle"
                    break
                if overflow in done:
                    close_code, reason = CLOSE_POLICY, "client is not reading its messages"
                    break
                if pump in done:
                    break  # the socket failed while sending
                message = receive.result()
                if message["type"] == "websocket.disconnect":
                    close_code = 0
                    break
                data = message.get("text")
                if data is None:
                    data = message.get("bytes") or b""
                if len(data) > MAX_FRAME_BYTES:
                    close_code, reason = CLOSE_TOO_BIG, f"frame over {MAX_FRAME_BYTES} bytes"
                    break
                if not session.limits.admit_message():
                    if session.limits.should_report("rate_limit_exceeded"):
                        telemetry.errors.labels(code="rate_limit_exceeded").inc()
                        limit = settings.max_messages_per_s
                        outbox.event(ev.error("rate_limit_exceeded", f"over {limit:g} messages/s; messages dropped"))
                elif message.get("text") is not None:
                    await session.on_text(data)
                else:
                    await session.on_audio(data)
                receive = asyncio.create_task(websocket.receive())
            if not receive.done():
                receive.cancel()
        except WebSocketDisconnect:
            close_code = 0
        finally:
            registry.remove(session)
            telemetry.sessions_gauge.set(len(registry.sessions))
            await session.close()
            outbox.close()
            overflow.cancel()
            if close_code:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(pump, timeout=2.0)
                with contextlib.suppress(Exception):
                    if websocket.client_state == WebSocketState.CONNECTED:
                        await websocket.close(close_code, reason)
            pump.cancel()
            log.info("session %s closed (%d live)", session_id[:8], len(registry.sessions))

    @app.websocket("/ws")
    async def ws(websocket: WebSocket) -> None:
        await realtime(websocket, default_binary=True)

    @app.websocket("/v1/realtime")
    async def openai_realtime(websocket: WebSocket) -> None:
        await realtime(websocket, default_binary=False)

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
