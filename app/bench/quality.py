"""``voicechat bench quality``: how often the assistant answers right, through the real server path.

The question set (``app/bench/quality_questions.py``, shipped with the package) holds facts,
arithmetic, units, spelling, one-word translations, short how-to requests and multi-turn items whose
answer is in an earlier turn. Every item runs in a fresh conversation over the WebSocket protocol,
typed, with text output: the server's system prompt, prompt building and sampling settings are what
is measured (sampled replies, so a figure moves by a few points between runs). Earlier turns of a
multi-turn item are sent one by one and the model's own replies to them stay in the conversation.
Several items run at once (``--concurrency``) so the engine batches them. ``--tools page`` declares the two tools
the page declares (the time, a timer), answers a call as the page would and scores the reply after it: what a
person on the page hears (the server's prompt with tools has no ``limits_prompt``).

A reply is right when one accepted alternative matches as whole words after ``normalize`` (case,
NFKC, unicode digits, punctuation, number words, plurals) and none of the item's wrong phrases does (a
decline where the assistant can help, another assistant's name); an item without accepted answers takes any
reply that does not repeat the user's words; a spelling answer must spell the letters out; see
``is_correct``. A reply loops when one 4-word sequence occurs 3 or more times in it.

Figures, per model: quality_correct (all items), quality_single_correct, quality_multi_correct
(multi-turn items only), quality_correct_<category>, quality_loops (looping scored replies),
quality_cut (replies cut by the token limit), quality_errors, quality_reply_words_p50,
quality_wrong: every wrong item with its question(s) and reply, and quality_looping: every looping one. Without
``--url`` the command starts its own server for each ``--llm-model`` in turn, and the models are shown side by side.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
import tempfile
import time
import unicodedata
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Awaitable, Callable, Iterable, Iterator, TypeVar

from app.bench.quality_questions import CATEGORIES, ITEMS, TOOL_MEETS
from app.bench.tool_requests import TOOLS, tool_output
from app.config import Settings
from app.engine.phrase_limit import repeats_a_phrase
from app.engine.tool_calls import ToolCall

TURN_TIMEOUT_S = 180.0
T = TypeVar("T")
R = TypeVar("R")
ACCENTLESS = {"translation"}  # categories matched with accents stripped
# the tools the page declares (static/js/page-tools.js): `--tools page` asks as the page does
PAGE_TOOLS = [tool for tool in TOOLS if tool["name"] in ("get_current_time", "set_timer")]

# --------------------------------------------------------------------------- the question set


@dataclass(frozen=True)
class Item:
    id: str
    category: str
    turns: tuple[str, ...]
    answers: tuple[tuple[str, ...], ...]  # alternatives; each a tuple of phrases that must all appear
    wrong: tuple[str, ...] = ()  # phrases that make a reply wrong whatever else it says

    @property
    def multi_turn(self) -> bool:
        return len(self.turns) > 1

    @property
    def question(self) -> str:
        return " | ".join(self.turns)

    def expected(self) -> str:
        said = " or ".join(" + ".join(alternative) for alternative in self.answers) or "a reply of its own"
        return f"{said}, without {' or '.join(self.wrong)}" if self.wrong else said


def load_items() -> list[Item]:
    items = []
    for item_id, category, turns, answers, *wrong in ITEMS:
        items.append(
            Item(
                id=item_id,
                category=category,
                turns=(turns,) if isinstance(turns, str) else tuple(turns),
                answers=tuple((a,) if isinstance(a, str) else tuple(a) for a in answers),
                wrong=tuple(wrong[0]) if wrong else (),
            )
        )
    return items


def pick(items: list[Item], limit: int | None) -> list[Item]:
    """The first ``limit`` items taking the categories in turn, so a short run still covers every category."""
    if not limit or limit >= len(items):
        return list(items)
    queues = {category: [i for i in items if i.category == category] for category in CATEGORIES}
    chosen: list[Item] = []
    while len(chosen) < limit:
        for category in CATEGORIES:
            if queues[category] and len(chosen) < limit:
                chosen.append(queues[category].pop(0))
    return chosen


# --------------------------------------------------------------------------- scoring (pure)

_UNITS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
}  # fmt: skip
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}
_TOKEN = re.compile(r"\d+(?:\.\d+)?|[^\W\d_]+")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")


@dataclass(frozen=True)
class Token:
    text: str
    spelled: bool = False  # joined from letters spelled out one by one ("n-e-c-e-s-s-a-r-y")


def _ascii_digits(text: str) -> str:
    return "".join(
        str(unicodedata.decimal(ch)) if not ch.isascii() and unicodedata.decimal(ch, None) is not None else ch
        for ch in text
    )


def _strip_accents(text: str) -> str:
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFC", "".join(ch for ch in decomposed if unicodedata.category(ch) != "Mn"))


def _numbers(words: list[str]) -> list[str]:
    """Number words -> digits: "twenty one" -> "21", "a hundred" -> "100", "one hundred and five" -> "105"."""
    out: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        nxt = words[i + 1] if i + 1 < len(words) else ""
        starts = word in _UNITS or word in _TENS or (nxt in _SCALES and (word == "a" or word.isdigit()))
        if not starts:
            out.append(word)
            i += 1
            continue
        total, current, last = 0, 0, None
        if word == "a" or word.isdigit():
            current, last, i = (1 if word == "a" else int(word)), "unit", i + 1
        while i < len(words):
            word = words[i]
            nxt = words[i + 1] if i + 1 < len(words) else ""
            if word in _UNITS and last in (None, "tens", "scale", "and"):
                if last == "tens" and _UNITS[word] >= 10:
                    break
                current += _UNITS[word]
                last = "unit" if _UNITS[word] < 10 else "teen"
            elif word in _TENS and last in (None, "scale", "and"):
                current += _TENS[word]
                last = "tens"
            elif word in _SCALES and last in ("unit", "teen", "tens", "scale"):
                if word == "hundred":
                    current = max(current, 1) * 100
                else:
                    total += max(current, 1) * _SCALES[word]
                    current = 0
                last = "scale"
            elif word == "and" and last == "scale" and (nxt in _UNITS or nxt in _TENS):
                last = "and"
            else:
                break
            i += 1
        out.append(str(total + current))
    return out


def normalize(text: str, *, strip_accents: bool = False) -> list[Token]:
    """Words of ``text`` for matching: NFKC, unicode digits as ASCII, case folded, punctuation dropped,
    "1,000" as "1000", number words as digits, letters spelled out one by one joined into a word."""
    text = _ascii_digits(unicodedata.normalize("NFKC", text)).casefold()
    if strip_accents:
        text = _strip_accents(text)
    words = _numbers(_TOKEN.findall(_THOUSANDS.sub("", text)))
    tokens: list[Token] = []
    i = 0
    while i < len(words):
        j = i
        while j < len(words) and len(words[j]) == 1 and words[j].isalpha():
            j += 1
        if j - i >= 3:  # a run of single letters: a spelled-out word
            tokens.append(Token("".join(words[i:j]), spelled=True))
            i = j
        else:
            tokens.append(Token(words[i]))
            i += 1
    return tokens


def _forms(token: Token) -> frozenset[str]:
    """The word and its simple singulars ("legs" -> "leg", "berries" -> "berry", "boxes" -> "box")."""
    word = token.text
    forms = {word}
    if token.spelled or not word.isalpha() or len(word) <= 3:
        return frozenset(forms)
    if word.endswith("ies") and len(word) > 4:
        forms.add(word[:-3] + "y")
    if word.endswith("es"):
        forms.add(word[:-2])
    if word.endswith("s") and not word.endswith("ss"):
        forms.add(word[:-1])
    return frozenset(forms)


def _has_phrase(reply: list[Token], phrase: list[Token]) -> bool:
    if not phrase:
        return False
    want = [_forms(t) for t in phrase]
    have = [_forms(t) for t in reply]
    return any(
        all(want[k] & have[start + k] for k in range(len(want))) for start in range(len(have) - len(want) + 1)
    )


def matches(reply: str, answers: Iterable[str | Iterable[str]], *, strip_accents: bool = False) -> bool:
    """Whether one alternative of ``answers`` is in ``reply``: an alternative is a phrase, or several
    phrases that must all appear; phrases match as whole words after ``normalize``."""
    words = normalize(reply, strip_accents=strip_accents)
    for alternative in answers:
        phrases = [alternative] if isinstance(alternative, str) else list(alternative)
        if phrases and all(_has_phrase(words, normalize(p, strip_accents=strip_accents)) for p in phrases):
            return True
    return False


def spelled_words(reply: str) -> list[str]:
    """The words ``reply`` spells out letter by letter."""
    return [t.text for t in normalize(reply) if t.spelled]


# "I can't wait to hear how it goes!": eagerness, not a decline, whatever "can't" says alone
_EAGER = re.compile(r"\b(?:can't|can’t|cannot|can not|can hardly) wait\b", re.I)


def is_correct(item: Item, reply: str) -> bool:
    """The item's rule: an accepted alternative matches and no wrong phrase does; an item without accepted
    answers takes any reply but one that repeats the user's last words. Spelling items want the letters spelled
    out ("N-E-C-E-S-S-A-R-Y", "n, e, c, ..."; a leading article "a"/"I" glued to them is forgiven), and every
    word spelled out must be right: the bare word is in the question, so saying it proves nothing. "Can't wait"
    is neither a decline nor any answer: it is taken out of the reply first."""
    reply = _EAGER.sub(" ", reply)
    if item.wrong and matches(reply, item.wrong):
        return False
    if not item.answers:
        return bool(normalize(reply)) and not matches(reply, [item.turns[-1]])
    if item.category != "spelling":
        return matches(reply, item.answers, strip_accents=item.category in ACCENTLESS)
    targets = {t.text for alt in item.answers for phrase in alt for t in normalize(phrase)}
    spelled = [word[1:] if word not in targets and word[0] in "ai" else word for word in spelled_words(reply)]
    return bool(spelled) and all(word in targets for word in spelled)


def loops(reply: str) -> bool:
    """A reply that repeats itself, by the server's own rule (one 4-word sequence three times)."""
    return repeats_a_phrase([t.text for t in normalize(reply)])


# --------------------------------------------------------------------------- running


@dataclass
class Outcome:
    item: Item
    reply: str = ""
    replies: list[str] = field(default_factory=list)  # every turn's reply, the scored one last
    status: str | None = None
    error: str | None = None
    correct: bool = False
    looped: bool = False
    calls: list[str] = field(default_factory=list)  # the tools the scored reply called (``--tools page``)


def calls_after(events: list[dict[str, Any]], start: int) -> list[ToolCall]:
    """The tool calls among ``events`` from index ``start`` on."""
    return [
        ToolCall(e["name"], e["arguments"], e["call_id"])
        for e in events[start:]
        if e["type"] == "response.function_call_arguments.done"
    ]


def errors_after(events: list[dict[str, Any]], start: int) -> list[str]:
    """The codes of the error events among ``events`` from index ``start`` on."""
    return [str(e["error"].get("code")) for e in events[start:] if e["type"] == "error"]


async def declare(client: Any, session: dict[str, Any], tools: list[dict]) -> None:
    """The session as the page sets it up: ``session`` with ``tools`` declared (choice auto) where there are any, and
    where the server's model takes none (``tools_unsupported``), ``session`` alone, as the page then sends it."""
    if tools:
        seen = len(client.events)
        await client.send({"type": "session.update", "session": {**session, "tools": tools, "tool_choice": "auto"}})
        answer = await client.wait_for(("session.updated", "error"), after=seen)
        if answer["type"] == "session.updated":
            return
        if answer["error"]["code"] != "tools_unsupported":
            raise ConnectionError(f"session.update refused: {answer['error']['code']}")
    if session:
        seen = len(client.events)
        await client.send({"type": "session.update", "session": session})
        await client.wait_for("session.updated", after=seen)


async def answer_calls(client: Any, calls: list[ToolCall]) -> None:
    """Each call answered as the bench's client tool answers it (``tool_output``), then the reply after them asked."""
    for call in calls:
        output = tool_output(call.name, call.arguments)
        await client.send({"type": "conversation.item.create",
                           "item": {"type": "function_call_output", "call_id": call.call_id, "output": output}})
    await client.send({"type": "response.create"})


async def reply_heard(client: Any, reply: Any, seen: int, timeout: float) -> tuple[Any, list[ToolCall]]:
    """The reply a user of the page hears after event index ``seen``: ``reply``, or where it called tools, the reply
    after the page's answers to them (``answer_calls``); with the calls it made."""
    calls = calls_after(client.events, seen)
    if not calls or reply.status != "completed":
        return reply, calls
    asked = len(client.events)
    await answer_calls(client, calls)
    return await client.next_reply(after=asked, timeout=timeout), calls


def page_tools(args: argparse.Namespace) -> list[dict]:
    """The tools a bench's ``--tools`` choice declares."""
    return PAGE_TOOLS if args.tools == "page" else []


async def _ask(url: str, item: Item, server: dict[str, Any], tools: list[dict] | None = None) -> Outcome:
    """One item in a fresh conversation; with ``tools`` declared, a call is answered as the client's tool would
    answer it and the reply after it is the turn's."""
    from app.bench.client import RealtimeClient

    outcome = Outcome(item)
    try:
        async with RealtimeClient(url) as client:
            server.setdefault("session", client.session)
            await declare(client, {"output_modalities": ["text"]}, tools or [])
            for turn in item.turns:
                seen = len(client.events)
                await client.say_text(turn)
                reply, calls = await reply_heard(client, await client.next_reply(after=seen, timeout=TURN_TIMEOUT_S),
                                                 seen, TURN_TIMEOUT_S)  # fmt: skip
                outcome.calls = [call.name for call in calls]
                errors = errors_after(client.events, seen)
                if errors:
                    outcome.error = f"error events: {', '.join(errors)}"
                outcome.replies.append(reply.text.strip())
                outcome.status = reply.status
                if reply.status not in ("completed", "incomplete"):
                    outcome.error = outcome.error or f"reply {reply.status}: {reply.done.get('status_details')}"
                    break
    except (TimeoutError, ConnectionError, OSError) as error:
        outcome.error = f"{type(error).__name__}: {error}"
    outcome.reply = outcome.replies[-1] if len(outcome.replies) == len(item.turns) else ""
    met = TOOL_MEETS.get(item.id) in outcome.calls  # the clock asked for the time: right, whatever it then says
    outcome.correct = outcome.error is None and (met or is_correct(item, outcome.reply))
    outcome.looped = loops(outcome.reply)
    return outcome


async def each_in_turn(work: Callable[[T], Awaitable[R]], items: list[T], concurrency: int, label: str,
                       noun: str) -> list[R]:  # fmt: skip
    """``work`` on every item, ``concurrency`` at once, results in the items' order; progress on stderr
    ("<label>: 3/41 <noun>")."""
    gate = asyncio.Semaphore(max(1, concurrency))
    done = 0
    tty = sys.stderr.isatty()

    async def one(item: T) -> R:
        nonlocal done
        async with gate:
            result = await work(item)
        done += 1
        if tty or done == len(items) or done % 10 == 0:
            end = "\n" if done == len(items) or not tty else ""
            print(f"\r{label}: {done}/{len(items)} {noun}", end=end, file=sys.stderr, flush=True)
        return result

    return list(await asyncio.gather(*(one(item) for item in items)))


async def ask_all(url: str, items: list[Item], concurrency: int, label: str = "",
                  tools: list[dict] | None = None) -> tuple[list[Outcome], dict]:  # fmt: skip
    """Every item in its own conversation, ``concurrency`` at once, ``tools`` declared; progress on stderr."""
    server: dict[str, Any] = {}
    outcomes = await each_in_turn(lambda item: _ask(url, item, server, tools), items, concurrency, f"quality{label}",
                                  "items")  # fmt: skip
    return outcomes, server


def summarize(outcomes: list[Outcome]) -> dict[str, Any]:
    """The figures of one model's run."""

    def share(selected: list[Outcome]) -> float | None:
        return round(sum(o.correct for o in selected) / len(selected), 4) if selected else None

    words = sorted(len(o.reply.split()) for o in outcomes if o.error is None)
    out: dict[str, Any] = {
        "quality_items": len(outcomes),
        "quality_correct": share(outcomes),
        "quality_single_correct": share([o for o in outcomes if not o.item.multi_turn]),
        "quality_multi_correct": share([o for o in outcomes if o.item.multi_turn]),
    }
    for category in CATEGORIES:
        selected = [o for o in outcomes if o.item.category == category]
        if selected:
            out[f"quality_correct_{category}"] = share(selected)
    out.update(
        {
            "quality_loops": sum(o.looped for o in outcomes),
            "quality_tool_calls": sum(bool(o.calls) for o in outcomes),
            "quality_cut": sum(o.status == "incomplete" for o in outcomes),
            "quality_errors": sum(o.error is not None for o in outcomes),
            "quality_reply_words_p50": words[len(words) // 2] if words else None,
            "quality_wrong": [_entry(o) for o in outcomes if not o.correct],
            "quality_looping": [_entry(o) for o in outcomes if o.looped],
        }
    )
    return out


def _entry(outcome: Outcome) -> dict[str, Any]:
    entry = {"id": outcome.item.id, "question": outcome.item.question, "reply": outcome.reply,
             "expected": outcome.item.expected()}  # fmt: skip
    if outcome.error:
        entry["error"] = outcome.error
    if outcome.calls:
        entry["calls"] = outcome.calls
    if outcome.item.multi_turn:
        entry["earlier_replies"] = outcome.replies[:-1]
    return entry


def add_server_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of the answer benchmarks: a running server, or own servers for several models side by side."""
    parser.add_argument("--url", help="WebSocket URL of a running server (ws://HOST:PORT/ws); default: start one")
    parser.add_argument(
        "--llm-model", dest="llm_models", nargs="+", action="extend", metavar="NAME",
        help="LLM(s) to measure, one own server each, side by side (default: the llm_model setting)",
    )  # fmt: skip
    parser.add_argument("--concurrency", type=int, default=4, help="conversations at once (the engine batches them)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_server_arguments(parser)
    parser.add_argument("--limit", type=int, default=None, help="ask only this many items (categories taken in turn)")
    parser.add_argument("--category", dest="categories", nargs="+", action="extend", choices=CATEGORIES,
                        metavar="NAME", help=f"ask only these categories ({', '.join(CATEGORIES)})")
    parser.add_argument("--tools", choices=("none", "page"), default="none",
                        help="'page': declare the page's tools (the time, a timer) as the page does, answer a call as "
                        "it would, and score the reply after it (default: none, the server's prompt without tools)")


@contextmanager
def own_server(settings: Settings, model: str, concurrency: int) -> Iterator[str]:
    """A server of its own on 127.0.0.1 serving ``model`` with a throwaway history; yields its WebSocket URL."""
    from app.models.prepare import prepare_models
    from app.web.server import ServerThread, create_app

    with tempfile.TemporaryDirectory(prefix="voicechat-bench-") as data_dir:
        own = settings.model_copy(
            update={"llm_model": model, "data_dir": Path(data_dir),
                    "max_sessions": max(settings.max_sessions, concurrency * 2)}
        )  # fmt: skip
        prepared = prepare_models(own, progress=True)
        with ServerThread(create_app(own, prepared=prepared)) as base_url:
            yield base_url.replace("http://", "ws://") + "/ws"


def _measure_own(settings: Settings, model: str, items: list[Item], args: argparse.Namespace):
    with own_server(settings, model, args.concurrency) as url:
        started = time.perf_counter()
        outcomes, server = asyncio.run(ask_all(url, items, args.concurrency, f" {model}", page_tools(args)))
        elapsed = time.perf_counter() - started
    return outcomes, server, elapsed


def run(args: argparse.Namespace, settings: Settings) -> dict[str, Any]:
    items = pick([i for i in load_items() if not args.categories or i.category in args.categories], args.limit)
    results: dict[str, dict[str, Any]] = {}
    if args.url:
        if args.llm_models:
            print("quality: --llm-model is ignored with --url (the server's model answers)", file=sys.stderr)
        started = time.perf_counter()
        outcomes, server = asyncio.run(ask_all(args.url, items, args.concurrency, tools=page_tools(args)))
        elapsed = time.perf_counter() - started
        name = server.get("session", {}).get("model") or "server"
        results[name] = _model_figures(outcomes, server, elapsed, None)
        where = args.url.split("?", 1)[0]
    else:
        for model in args.llm_models or [settings.llm_model]:
            outcomes, server, elapsed = _measure_own(settings, model, items, args)
            results[model] = _model_figures(outcomes, server, elapsed, settings)
        where = "own (127.0.0.1, free port), one per model"
    shared = {
        "quality_items": len(items),
        "quality_multi_items": sum(i.multi_turn for i in items),
        "quality_categories": ",".join(sorted({i.category for i in items}, key=CATEGORIES.index)),
        "quality_concurrency": args.concurrency,
        "quality_tools": ",".join(tool["name"] for tool in page_tools(args)) or "none",
        "quality_system_prompt": server.get("session", {}).get("instructions"),
        "server": where,
    }
    return report_models("answer quality: fresh typed conversations through the server, share answered right",
                         results, shared, args.json_path)  # fmt: skip


def _model_figures(outcomes: list[Outcome], server: dict[str, Any], elapsed: float, settings: Settings | None) -> dict:
    session = server.get("session", {})
    figures = summarize(outcomes)
    figures.pop("quality_items")
    figures.update(
        {
            "quality_server_model": session.get("model"),
            "quality_temperature": settings.temperature if settings else "unknown (server's own)",
            "quality_top_p": settings.top_p if settings else "unknown (server's own)",
            "quality_repetition_penalty": settings.repetition_penalty if settings else "unknown (server's own)",
            "quality_phrase_repeat_limit": settings.phrase_repeat_limit if settings else "unknown (server's own)",
            "quality_weight_bits": settings.weight_bits if settings else "unknown (server's own)",
            "quality_max_new_tokens": settings.max_new_tokens if settings else "unknown (server's own)",
            "quality_elapsed_s": round(elapsed, 1),
        }
    )
    return figures


def report_models(title: str, by_model: dict[str, dict[str, Any]], shared: dict[str, Any], json_path: str | None,
                  *, prefix: str = "quality"):
    """``report``'s conventions for several contenders: the figures in one table, a column per model,
    then the shared facts and the machine, then each model's misses (``<prefix>_wrong``); the JSON holds
    ``shared`` flat and ``<prefix>_models`` per model."""
    from app.bench.report import machine_facts

    names = list(by_model)
    wrong_key = f"{prefix}_wrong"
    keys = [k for k in by_model[names[0]] if k != wrong_key]
    flat = {**shared, **machine_facts()}

    def shown(value: Any) -> str:
        return f"{value:.4g}" if isinstance(value, float) else str(value)

    width = max(len(k) for k in [*keys, *flat, "model"])
    columns = [max(len(n), *(len(shown(by_model[n].get(k))) for k in keys)) for n in names]
    print(f"\n== {title} ==")
    print(f"{'model':<{width}}  " + "  ".join(f"{n:<{c}}" for n, c in zip(names, columns)))
    for key in keys:
        print(f"{key:<{width}}  " + "  ".join(f"{shown(by_model[n].get(key)):<{c}}" for n, c in zip(names, columns)))
    for key, value in flat.items():
        print(f"{key:<{width}}  {shown(value)}")
    for name in names:
        wrong = by_model[name][wrong_key]
        print(f"\nmisses of {name} ({len(wrong)}):")
        for entry in wrong:
            reply = " ".join(entry["reply"].split())
            reply = reply if len(reply) <= 140 else reply[:137] + "..."
            error = f" [{entry['error']}]" if "error" in entry else ""
            print(f"  {entry['id']}: {reply!r} (expected {entry['expected']}){error}")
    out = {**flat, f"{prefix}_models": by_model}
    if json_path:
        Path(json_path).parent.mkdir(parents=True, exist_ok=True)
        Path(json_path).write_text(json.dumps(out, indent=2, ensure_ascii=False) + "\n")
        print(f"wrote {json_path}")
    return out
