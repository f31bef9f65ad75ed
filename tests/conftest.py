"""Shared fixtures: the real packaged models, prepared once per test run."""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings

from app.config import Settings

# CI explores the same examples every run (a red CI blocks landing); local runs explore new ones.
hypothesis_settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    hypothesis_settings.load_profile("ci")


def _model_dir() -> Path:
    """Prepared models are cached across runs; the preparation itself is idempotent and checksummed."""
    return Path(os.environ.get("VOICECHAT_MODEL_DIR") or Settings().model_dir)


@pytest.fixture(scope="session")
def settings(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    # the smallest packaged LLM: the tests check behaviour; bench quality measures the bigger ones. A quarter of the
    # default KV budget (still thousands of tokens): the suite keeps several engines alive at once, each preallocating it
    return Settings(model_dir=_model_dir(), data_dir=tmp_path_factory.mktemp("data"), llm_model="smollm2-135m",
                    kv_cache_bytes=256 * 2**20)


@pytest.fixture(scope="session")
def prepared(settings: Settings):
    from app.models.prepare import prepare_models

    return prepare_models(settings)


@pytest.fixture(scope="session")
def tools_server_url(settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real server with the packaged Qwen2.5 1.5B, which has a tool format (the default model of most
    CPUs), sampling greedily: the function-calling tests of the protocol and the page share it."""
    from app.models.prepare import prepare_models
    from app.web.server import ServerThread, create_app

    own = settings.model_copy(update={"llm_model": "qwen2.5-1.5b", "temperature": 0.0,
                                      "data_dir": tmp_path_factory.mktemp("tools")})  # fmt: skip
    with ServerThread(create_app(own, prepared=prepare_models(own))) as url:
        yield url


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator:
    """A realtime session on small fakes of the engine, recogniser and speech out (no models); every event
    it sent must validate against the SDK's server-event union."""
    from realtime_fakes import make_rig
    from sdk_conformance import sdk_rejections

    rig = await make_rig(tmp_path)
    yield rig
    await rig.close()
    assert sdk_rejections(rig.outbox.events) == []


@pytest.fixture
def sdk_checked_events(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every event a session sends during a test must validate against the pinned ``openai`` SDK's
    server-event union (strictly), as an SDK-typed client would read it. The end-to-end protocol
    modules use it for all their tests (``pytestmark``)."""
    from sdk_conformance import sdk_rejections

    from app.web.outbox import Outbox

    sent: list[dict] = []
    send = Outbox.event

    def recording(self: Outbox, event: dict, on_sent=None) -> None:  # type: ignore[no-untyped-def]
        sent.append(json.loads(json.dumps(event)))
        send(self, event, on_sent)

    monkeypatch.setattr(Outbox, "event", recording)
    yield
    assert sdk_rejections(sent) == []


@pytest.fixture(scope="session")
def hf_model(prepared):
    """transformers' own model in fp32: the reference every greedy output of the engine is compared with."""
    import torch
    from transformers import AutoModelForCausalLM

    return AutoModelForCausalLM.from_pretrained(str(prepared.llm_dir), dtype=torch.float32).eval()
