"""The ``voicechat`` command: serve, prepare, bench."""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import Any, get_args, get_origin

from pydantic import ValidationError

from app import __version__
from app.config import Settings, load_settings
from app.log_format import configure_logging

BENCHMARKS = {
    "engine": "LLM engine: continuous batching vs serial/fixed batching, priority, prefix reuse, decode speed",
    "asr": "speech recognition: real-time factor, batched decoding speed-up, word error rate, endpoint delay",
    "tts": "speech synthesis: time to first audio chunk and real-time factor per backend",
    "voice": "simulated voice users over WebSocket: end of speech -> first reply audio",
    "speculative": "speculative decoding: decode tokens/s with the draft model vs without at batch 1 and 8, "
    "acceptance, identical greedy outputs",
    "weights": "LLM weights at 4/8 bits vs 16 bits: decode tokens/s at batch 1 and 8, prefill, bytes per step",
    "load": "many voice and typed users for a bounded time: errors, latency, memory, descriptors, leaked KV",
    "quality": "answer quality through the server: facts, arithmetic, spelling, translation, memory of earlier turns, "
    "saying what it cannot do",
    "tools": "function calling through the server: the right tool with valid arguments, no calls when none is needed, "
    "declining what no tool does",
    "turns": "turn taking: pauses inside unfinished thoughts that end the turn, and the wait after finished ones, "
    "semantic_vad beside server_vad",
}


def _add_settings_flags(parser: argparse.ArgumentParser) -> None:
    """One flag per setting (``--kv-cache-bytes`` for ``VOICECHAT_KV_CACHE_BYTES``); unset flags defer to the env."""
    group = parser.add_argument_group("settings (each also read from VOICECHAT_<NAME>)")
    for name, field in Settings.model_fields.items():
        flag = "--" + name.replace("_", "-")
        if flag in parser._option_string_actions:  # a benchmark's own option of that name wins
            continue
        kind = field.annotation
        help_text = f"{field.description} [default: {field.default}]".replace("%", "%%")  # argparse formats help with %
        if kind is bool:
            group.add_argument(flag, dest=name, action=argparse.BooleanOptionalAction, default=None, help=help_text)
        elif get_origin(kind) is not None and get_args(kind) and all(isinstance(a, str) for a in get_args(kind)):
            group.add_argument(flag, dest=name, choices=get_args(kind), default=None, help=help_text)
        else:
            group.add_argument(flag, dest=name, default=None, metavar=name.upper(), help=help_text)


def _settings_from(args: argparse.Namespace) -> Settings:
    return load_settings(**{name: getattr(args, name, None) for name in Settings.model_fields})


def _chosen_benchmark(argv: list[str]) -> str | None:
    """The benchmark named on the command line, if any: only its module is imported (they load torch)."""
    words = [word for word in argv if not word.startswith("-")]
    if len(words) >= 2 and words[0] == "bench" and words[1] in BENCHMARKS:
        return words[1]
    return None


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The full parser; a benchmark's own options are added when ``argv`` names that benchmark."""
    chosen = _chosen_benchmark(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(
        prog="voicechat",
        description="Real-time voice chat server: browser mic -> Whisper -> shared continuous-batching LLM -> TTS.",
        epilog="Every setting is also read from a VOICECHAT_<NAME> environment variable; see the README.",
    )
    parser.add_argument("--version", action="version", version=f"voicechat {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    serve = commands.add_parser(
        "serve",
        help="run the web server (prepares the models first if needed)",
        description="Run the voice chat server: the chat page at /, the dashboard at /dashboard, "
        "the WebSocket protocol at /ws and /v1/realtime.",
    )
    _add_settings_flags(serve)

    prepare = commands.add_parser(
        "prepare",
        help="build the local model directory from the installed model packages",
        description="Convert the packaged models once into the model directory (Whisper .pt checkpoints, "
        "a transformers LLM folder, the piper voice). Idempotent: prepared files are checked and reused.",
    )
    _add_settings_flags(prepare)

    bench = commands.add_parser("bench", help="run a benchmark; prints a table and writes JSON",
                                description="Benchmarks compare side by side in one run and state the machine.")
    benches = bench.add_subparsers(dest="bench", required=True, metavar="BENCHMARK")
    for name, summary in BENCHMARKS.items():
        sub = benches.add_parser(name, help=summary, description=summary)
        sub.add_argument("--json", dest="json_path", metavar="PATH", help="write the results as a flat JSON object")
        if name == chosen:
            importlib.import_module(f"app.bench.{name}").add_arguments(sub)
        _add_settings_flags(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser(argv).parse_args(argv)
    try:
        settings = _settings_from(args)
    except ValidationError as error:
        problems = "; ".join(
            f"VOICECHAT_{'_'.join(map(str, e['loc'])).upper()}: {e['msg']}" for e in error.errors()
        )
        print(f"voicechat: bad setting: {problems}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level, settings.log_format)
    from app.models.prepare import ModelPreparationError

    try:
        if args.command == "prepare":
            from app.models.prepare import prepare_models

            prepared = prepare_models(settings, progress=True, verify=True)
            print(prepared.describe())
        elif args.command == "serve":
            from app.web.server import serve

            serve(settings)
        else:
            from app.bench.report import note_run_start

            module: Any = importlib.import_module(f"app.bench.{args.bench}")
            note_run_start()
            module.run(args, settings)
    except ModelPreparationError as error:
        print(f"voicechat: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
