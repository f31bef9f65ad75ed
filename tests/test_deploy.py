"""The compose file is valid for Debian's docker-compose and describes its services; the Dockerfile builds in
two stages and runs unprivileged; where a container engine runs, the image is built and serves."""

from __future__ import annotations

import json
import re
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest
import yaml
from http_helpers import http_get

ROOT = Path(__file__).resolve().parent.parent
BASE_IMAGE = "python:3.11-slim-bookworm"


def _compose_config(*extra: str) -> dict:
    if shutil.which("docker-compose") is None:
        pytest.fail("docker-compose is not installed: `make test` installs it (apt-get install docker-compose)")
    result = subprocess.run(
        ["docker-compose", "-f", str(ROOT / "docker-compose.yml"), *extra, "config"],
        capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return yaml.safe_load(result.stdout)


def _checks_readiness(healthcheck: dict | str) -> bool:
    return "/readyz" in json.dumps(healthcheck)


def test_cpu_service_is_valid_with_port_volume_and_readiness_check() -> None:
    service = _compose_config()["services"]["voicechat"]
    assert any(str(port.get("target")) == "8000" for port in service["ports"])
    assert any(volume.startswith("voicechat-data:/data") for volume in service["volumes"])
    assert "profiles" not in service, "the CPU service runs by default"
    assert _checks_readiness(service["healthcheck"]["test"])


def test_gpu_service_sits_behind_its_profile_and_reserves_a_gpu() -> None:
    service = _compose_config("--profile", "gpu")["services"]["voicechat-gpu"]
    assert service["profiles"] == ["gpu"]
    assert service["deploy"]["resources"]["reservations"]["devices"][0]["driver"] == "nvidia"
    assert service["environment"]["VOICECHAT_DEVICE"] == "cuda"


def test_vllm_profile_points_voicechat_at_vllms_openai_server() -> None:
    services = _compose_config("--profile", "vllm")["services"]
    vllm, voicechat = services["vllm"], services["voicechat-vllm"]
    assert vllm["profiles"] == voicechat["profiles"] == ["vllm"]
    assert vllm["image"].startswith("vllm/vllm-openai:")
    command = vllm["command"]
    port = command[command.index("--port") + 1]
    assert command[command.index("--scheduling-policy") + 1] == "priority", "voice turns go first"
    environment = voicechat["environment"]
    assert environment["VOICECHAT_LLM_BACKEND"] == "openai"
    assert environment["VOICECHAT_LLM_API_BASE"] == f"http://vllm:{port}/v1"
    assert environment["VOICECHAT_LLM_MODEL"] == command[command.index("--model") + 1]
    assert voicechat["depends_on"]["vllm"]["condition"] == "service_healthy"
    assert _checks_readiness(voicechat["healthcheck"]["test"])


def _stages(dockerfile: str) -> list[str]:
    """The Dockerfile's stages, each from its FROM line (line continuations joined)."""
    text = dockerfile.replace("\\\n", " ")
    return [stage for stage in re.split(r"^(?=FROM )", text, flags=re.MULTILINE) if stage.startswith("FROM ")]


def test_dockerfile_builds_in_stages_and_runs_unprivileged_without_a_compiler() -> None:
    build, runtime = _stages((ROOT / "Dockerfile").read_text())
    assert "g++" in build and "build(tuple(FLAGS))" in build and "voicechat prepare" in runtime
    assert "--constraint constraints.txt" in build and "--no-deps -r no-deps.txt" in build
    assert not re.search(r"\b(g\+\+|gcc|build-essential|clang)\b", runtime.split("COPY --from")[0]), runtime
    user = re.search(r"^USER (\S+)", runtime, re.MULTILINE)
    assert user and user.group(1) not in ("root", "0")
    assert _checks_readiness(re.search(r"^HEALTHCHECK .*", runtime, re.MULTILINE | re.DOTALL).group(0))
    assert 'CMD ["voicechat", "serve"]' in runtime


# ---------------------------------------------------------------------- the image itself


def _engine() -> str:
    """A container engine that answers here, or a skip that says why none does."""
    problems = []
    for name in ("docker", "podman"):
        if shutil.which(name) is None:
            problems.append(f"{name}: not installed")
            continue
        info = subprocess.run([name, "info"], capture_output=True, text=True, timeout=120)
        if info.returncode == 0:
            return name
        problems.append(f"{name}: {(info.stderr.strip().splitlines() or ['no answer'])[-1]}")
    pytest.skip("no container engine runs here (" + "; ".join(problems) + ")")


def _base_image(engine: str) -> None:
    if subprocess.run([engine, "image", "inspect", BASE_IMAGE], capture_output=True, timeout=60).returncode == 0:
        return
    pulled = subprocess.run([engine, "pull", BASE_IMAGE], capture_output=True, text=True, timeout=600)
    if pulled.returncode != 0:
        last = (pulled.stderr.strip().splitlines() or ["no answer"])[-1]
        pytest.skip(f"{engine} runs, but the base image {BASE_IMAGE} is not here and cannot be pulled ({last})")


def _status(url: str) -> int:
    """The HTTP status, 0 while nothing answers."""
    try:
        return http_get(url, timeout=10)[0]
    except OSError:
        return 0


def test_the_image_builds_runs_unprivileged_and_becomes_ready() -> None:
    engine = _engine()
    _base_image(engine)
    tag = "voicechat:test"
    built = subprocess.run([engine, "build", "-t", tag, str(ROOT)], capture_output=True, text=True, timeout=3 * 3600)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    started = subprocess.run([engine, "run", "-d", "--rm", "-p", f"127.0.0.1:{port}:8000", tag],
                             capture_output=True, text=True, timeout=120)
    assert started.returncode == 0, started.stderr
    container = started.stdout.strip()
    try:
        deadline = time.monotonic() + 900
        while (status := _status(f"http://127.0.0.1:{port}/readyz")) != 200:
            assert time.monotonic() < deadline, f"not ready within 900 s (last status {status})"
            time.sleep(2)
        models = json.loads(http_get(f"http://127.0.0.1:{port}/v1/models")[1])
        assert {model["stage"] for model in models["data"]} == {"llm", "asr", "tts"}
        assert http_get(f"http://127.0.0.1:{port}/static/js/chat.js")[0] == 200
        uid = subprocess.run([engine, "exec", container, "id", "-u"], capture_output=True, text=True, timeout=60)
        assert uid.stdout.strip() not in ("", "0")
        compiler = subprocess.run([engine, "exec", container, "sh", "-c", "command -v g++ gcc cc"],
                                  capture_output=True, text=True, timeout=60)
        assert compiler.stdout.strip() == "", f"a compiler in the runtime image: {compiler.stdout}"
        logs = subprocess.run([engine, "logs", container], capture_output=True, text=True, timeout=60)
        assert "compiling the engine's CPU kernels" not in logs.stdout + logs.stderr, "kernels come built"
    finally:
        subprocess.run([engine, "stop", container], capture_output=True, timeout=120)

