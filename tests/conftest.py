"""Shared fixtures: the real packaged models, prepared once per test run."""

from __future__ import annotations

import os
from collections.abc import Iterator
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
    # the smallest packaged LLM: the tests check behaviour; bench quality measures the bigger ones
    return Settings(model_dir=_model_dir(), data_dir=tmp_path_factory.mktemp("data"), llm_model="smollm2-135m")


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
