"""What an operator installs: the built wheel, in a fresh virtual environment, serves from any directory.

The wheel is installed with ``--no-deps`` and the environment borrows the already-installed dependencies
(a ``.pth`` file naming this interpreter's site-packages), so the test is quick and needs no network; the
``app`` package and its pages come from the wheel alone.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import site
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

import app
from app.bench.client import RealtimeClient
from app.config import Settings

ROOT = Path(__file__).resolve().parents[1]
START_TIMEOUT_S = 300


def _run(*command: str | Path, cwd: Path) -> str:
    result = subprocess.run([str(c) for c in command], cwd=cwd, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, f"{command} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    return result.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv holding the wheel built from this checkout; returns its bin/ folder."""
    base = tmp_path_factory.mktemp("wheel")
    source = base / "source"  # a copy: setuptools writes its build/ beside the sources
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "app", "static", "templates"):
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, symlinks=True, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(ROOT / name, source / name)
    _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", base / "dist", source,
         cwd=base)
    wheels = list((base / "dist").glob("voicechat-*.whl"))
    assert len(wheels) == 1, wheels
    venv = base / "venv"
    _run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=base)
    python = venv / "bin" / "python"
    _run(sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps", "--no-index", wheels[0], cwd=base)
    venv_site = Path(_run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])", cwd=base).strip())
    (venv_site / "borrowed_dependencies.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    return venv / "bin"


def test_the_wheel_carries_the_pages_and_imports_from_the_venv(installed: Path, tmp_path: Path) -> None:
    code = ("import app, app.web.assets as a; "
            "print(app.__file__); print(a.static_dir() / 'js' / 'chat.js'); print(a.templates_dir() / 'index.html')")
    package, script, template = _run(installed / "python", "-c", code, cwd=tmp_path).split()
    venv = installed.parent
    for path in (package, script, template):
        assert Path(path).is_relative_to(venv), f"{path} is not inside the fresh venv {venv}"
        assert Path(path).is_file()


class _Served:
    """``voicechat serve`` from the venv's entry point, run in a directory that is not the checkout."""

    def __init__(self, bin_dir: Path, settings: Settings, workdir: Path):
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port = sock.getsockname()[1]
        env = {
            **os.environ,
            "VOICECHAT_MODEL_DIR": str(settings.model_dir),
            "VOICECHAT_LLM_MODEL": settings.llm_model,
            "VOICECHAT_DATA_DIR": str(workdir / "data"),
            "VOICECHAT_HOST": "127.0.0.1",
            "VOICECHAT_PORT": str(self.port),
            "VOICECHAT_LOG_FORMAT": "json",
        }
        env.pop("PYTHONPATH", None)
        self.proc = subprocess.Popen([str(bin_dir / "voicechat"), "serve"], cwd=workdir, env=env,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.lines: list[str] = []
        threading.Thread(target=lambda: self.lines.extend(self.proc.stdout or []), daemon=True).start()
        self.base = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                pytest.fail("voicechat serve exited while starting:\n" + "".join(self.lines[-40:]))
            try:
                with urllib.request.urlopen(self.base + "/healthz", timeout=5):
                    return
            except OSError:
                time.sleep(0.3)
        self.stop()
        pytest.fail(f"voicechat serve did not answer within {START_TIMEOUT_S} s:\n" + "".join(self.lines[-40:]))

    def get(self, path: str) -> tuple[int, str, bytes]:
        with urllib.request.urlopen(self.base + path, timeout=30) as response:
            return response.status, response.headers.get("content-type", ""), response.read()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()


@pytest.fixture(scope="module")
def served(installed: Path, settings: Settings, prepared, tmp_path_factory: pytest.TempPathFactory) -> Iterator[_Served]:
    server = _Served(installed, settings, tmp_path_factory.mktemp("elsewhere"))
    yield server
    server.stop()


def test_the_installed_server_serves_its_pages_and_static_files(served: _Served) -> None:
    status, kind, body = served.get("/")
    assert status == 200 and "text/html" in kind and b"<html" in body.lower()
    status, kind, body = served.get("/dashboard")
    assert status == 200 and "text/html" in kind and b"dashboard" in body.lower()
    status, kind, body = served.get("/static/js/chat.js")
    assert status == 200 and "javascript" in kind and body == (ROOT / "static" / "js" / "chat.js").read_bytes()
    status, kind, _ = served.get("/favicon.ico")
    assert status == 200 and kind.startswith("image/svg")


def test_the_installed_command_reports_its_version(installed: Path, tmp_path: Path) -> None:
    # pyproject.toml takes the version from app.__version__, so the wheel and the source say the same
    assert _run(installed / "voicechat", "--version", cwd=tmp_path).strip() == f"voicechat {app.__version__}"


def test_json_logs_cover_uvicorns_lines_too(served: _Served) -> None:
    served.get("/dashboard")
    deadline = time.monotonic() + 10
    while True:
        logs = [json.loads(line) for line in list(served.lines) if line.startswith("{")]
        access = [e for e in logs if e["logger"] == "uvicorn.access" and "GET /dashboard" in e["message"]]
        if access or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert access, "".join(served.lines[-20:])
    assert any(e["logger"] == "uvicorn.error" and "Uvicorn running on" in e["message"] for e in logs)
    assert any(e["logger"].startswith("app.") for e in logs)
    assert not [line for line in served.lines if line.startswith(("INFO:", "WARNING:", "ERROR:"))], "uvicorn's own format"


def test_the_installed_server_holds_a_typed_turn(served: _Served) -> None:
    async def turn() -> str:
        async with RealtimeClient(f"ws://127.0.0.1:{served.port}/ws") as client:
            await client.send({"type": "session.update", "session": {"output_modalities": ["text"]}})
            await client.wait_for("session.updated")
            await client.say_text("What is the capital of France?")
            reply = await client.next_reply(timeout=180)
            assert reply.status == "completed", reply.done
            return reply.done["output"][0]["content"][0]["text"]

    assert asyncio.run(turn()).strip()
