"""Shared fixtures: the real packaged models, prepared once per test run."""

from __future__ import annotations

import os
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
