"""``voicechat bench quality``: the scoring rules, the shipped question set, and one real run."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from app.bench.quality import (
    Item,
    is_correct,
    load_items,
    loops,
    matches,
    normalize,
    pick,
    spelled_words,
    summarize,
    Outcome,
)
from app.bench.quality_questions import CATEGORIES, DECLINES
from app.config import Settings

# --------------------------------------------------------------------------- scoring rules


@pytest.mark.parametrize(
    ("reply", "answer"),
    [
        ("It is twelve.", "12"),
        ("The answer is 12.", "twelve"),
        ("There are one hundred centimetres in a metre.", "100"),
        ("A hundred.", "100"),
        ("1,000 grams", "1000"),
        ("one thousand grams", "1,000"),
        ("Three thousand six hundred seconds.", "3600"),
        ("One hundred and five", "105"),
        ("Twenty-one", "21"),
        ("Zero degrees Celsius.", "0"),
    ],
)
def test_numbers_match_as_words_or_digits(reply: str, answer: str) -> None:
    assert matches(reply, [answer])


def test_number_words_do_not_run_together() -> None:
    assert [t.text for t in normalize("one two three")] == ["1", "2", "3"]
    assert [t.text for t in normalize("nineteen ninety")] == ["19", "90"]
    assert not matches("one two", ["12"]) and not matches("twenty", ["21"])


def test_unicode_digits_and_compatibility_forms_become_ascii() -> None:
    assert matches("１２", ["12"])  # fullwidth
    assert matches("١٢", ["12"])  # Arabic-Indic
    assert matches("H₂O", ["h2o"]) and matches("CO₂", ["co2"])


def test_plurals_match_singulars_both_ways() -> None:
    assert matches("A spider has eight legs.", [("8", "leg")])
    assert matches("Use a leg.", ["legs"])
    assert matches("I am allergic to berries", ["berry"]) and matches("two boxes", ["box"])
    assert not matches("glass", ["glas"])  # "ss" is not a plural


def test_punctuation_and_case_are_ignored_and_matches_are_whole_words() -> None:
    assert matches("...PARIS!!!", ["paris"])
    assert matches("It's Rome, of course.", ["rome"])
    assert not matches("Parisian cafes", ["paris"])
    assert not matches("It is 120.", ["12"]) and not matches("It is 3.5", ["5"])


def test_alternatives_and_phrases_that_must_all_appear() -> None:
    answers = ["beijing", "peking"]
    assert matches("Peking, now Beijing.", answers) and matches("Beijing", answers)
    assert matches("Wash with soap and warm water.", [("soap", "water")])
    assert not matches("Wash with soap.", [("soap", "water")])
    assert matches("It is in South America.", ["south america"])
    assert not matches("South of the equator, in America.", ["south america"])  # a phrase is contiguous


def test_accents_are_stripped_only_when_asked() -> None:
    assert matches("Buenos días", ["buenos dias"], strip_accents=True)
    assert not matches("Buenos días", ["buenos dias"])
    translation = Item("t", "translation", ("How do you say 'good morning' in Spanish?",), (("buenos dias",),))
    assert is_correct(translation, "¡Buenos días!")


def test_spelling_wants_the_right_letters_spelled_out() -> None:
    item = Item("s", "spelling", ("How do you spell 'necessary'?",), (("necessary",),))
    assert spelled_words("N-E-C-E-S-S-A-R-Y") == ["necessary"]
    assert is_correct(item, "It's spelled N-E-C-E-S-S-A-R-Y.")
    assert is_correct(item, "n, e, c, e, s, s, a, r, y")
    assert not is_correct(item, "Necessary.")  # the word itself is in the question
    assert not is_correct(item, "Necessary is spelled N-E-C-E-S-A-R-Y.")
    assert not is_correct(item, "N E C C E S A R Y")
    accommodate = Item("a", "spelling", ("How do you spell 'accommodate'?",), (("accommodate",),))
    assert is_correct(accommodate, "It is spelled as a A-C-C-O-M-M-O-D-A-T-E.")


def test_wrong_phrases_fail_a_reply_whatever_else_it_says() -> None:
    chatgpt = Item("c", "identity", ("Are you ChatGPT?",), (("no",), ("not",)), ("yes",))
    assert is_correct(chatgpt, "No, I'm a voice assistant running on this computer.")
    assert not is_correct(chatgpt, "Yes, I am ChatGPT.") and not is_correct(chatgpt, "Yes, and no.")
    assert chatgpt.expected() == "no or not, without yes"
    maker = Item("m", "identity", ("Who made you?",), (), ("openai", "siri"))
    assert is_correct(maker, "The open-source voicechat project made me.")
    assert not is_correct(maker, "I was created by OpenAI.") and not is_correct(maker, "I'm Siri!")


def test_eagerness_is_no_decline() -> None:
    news = Item("p", "talk", ("I'm going to Paris next week.",), (), tuple(DECLINES))
    assert is_correct(news, "That sounds wonderful! I can't wait to hear all about your trip.")
    assert is_correct(news, "How exciting, I can hardly wait to hear about it!")
    assert not is_correct(news, "I can't wait. Sorry, I can't help with trips.")
    weather = Item("w", "limits", ("Will it rain tomorrow?",), tuple((phrase,) for phrase in DECLINES))
    assert not is_correct(weather, "I can't wait for tomorrow's rain!")  # eagerness is no decline either


def test_the_assistant_is_no_person() -> None:
    items = {item.id: item for item in load_items()}
    for question in ("id-human", "id-real-person", "id-alive"):
        assert is_correct(items[question], "I'm not a person, I'm a voice assistant: a computer program.")
        assert is_correct(items[question], "No, I'm a computer program.")
        assert not is_correct(items[question], "Yes, I am a real person.")
        assert not is_correct(items[question], "Yes, I am a computer program.")  # a "yes" to being one misleads
        assert not is_correct(items[question], "I'm here and ready to help!")


def test_a_limit_is_declined_as_what_was_asked() -> None:
    items = {item.id: item for item in load_items()}
    for question in ("lim-time", "lim-month", "lim-headlines", "lim-calendar"):
        assert not is_correct(items[question], "Sorry, I can't check the weather from here.")
        assert not is_correct(items[question], "I can't book flights, sorry.")
    assert is_correct(items["lim-time"], "Sorry, I can't check the date or time from here.")
    assert is_correct(items["lim-weather-weekend"], "Sorry, I can't check the weather from here.")
    assert not is_correct(items["lim-weekend"], "Yes, it is the weekend.")


def test_an_item_without_answers_takes_any_reply_but_an_echo() -> None:
    teacher = Item("t", "talk", ("I'm a teacher.",), (), ("can't", "don't have"))
    assert is_correct(teacher, "That's wonderful! What subject do you teach?")
    assert not is_correct(teacher, "I'm a teacher.")  # the user's words as the assistant's own
    assert not is_correct(teacher, "I'm sorry, but I can't assist with that.")
    assert not is_correct(teacher, "") and not is_correct(teacher, "...")
    assert teacher.expected() == "a reply of its own, without can't or don't have"


def test_loops_are_a_four_word_sequence_three_times() -> None:
    assert loops("I like it a lot. I like it a lot. I like it a lot.")
    assert not loops("I like it a lot. I like it a lot.")
    assert not loops("The capital of France is Paris, a city on the Seine.")
    assert loops("the the the the the the")
    assert not loops("")


def test_summary_figures_and_wrong_answers() -> None:
    single = Item("q", "geography", ("What is the capital of France?",), (("paris",),))
    multi = Item("m", "memory", ("My name is Priya.", "What is my name?"), (("priya",),))
    outcomes = [
        Outcome(single, reply="Paris.", replies=["Paris."], status="completed", correct=True),
        Outcome(multi, reply="I do not know.", replies=["Hi Priya!", "I do not know."], status="incomplete"),
        Outcome(single, reply="Paris, it is Paris, it is Paris, it is Paris.", status="completed", correct=True,
                looped=True),
    ]
    figures = summarize(outcomes)
    assert figures["quality_correct"] == round(2 / 3, 4) and figures["quality_single_correct"] == 1.0
    assert figures["quality_multi_correct"] == 0.0 and figures["quality_correct_memory"] == 0.0
    assert figures["quality_cut"] == 1 and figures["quality_loops"] == 1 and figures["quality_reply_words_p50"] == 4
    assert figures["quality_wrong"] == [
        {"id": "m", "question": "My name is Priya. | What is my name?", "reply": "I do not know.",
         "expected": "priya", "earlier_replies": ["Hi Priya!"]}
    ]  # fmt: skip
    assert [entry["reply"] for entry in figures["quality_looping"]] == [outcomes[2].reply]


# --------------------------------------------------------------------------- the question set


def test_the_question_set_is_large_varied_and_well_formed() -> None:
    items = load_items()
    assert len(items) >= 150
    assert sum(item.multi_turn for item in items) >= 25
    assert set(Counter(item.category for item in items)) == set(CATEGORIES)
    assert min(Counter(item.category for item in items).values()) >= 10
    assert len({item.id for item in items}) == len(items)
    for item in items:
        assert item.turns and all(turn.strip() for turn in item.turns), item.id
        assert item.answers or item.wrong, item.id
        assert all(alt and all(normalize(p) for p in alt) for alt in item.answers), item.id
        assert all(normalize(p) for p in item.wrong), item.id
        assert item.multi_turn == (item.category == "memory"), item.id


def test_no_answer_is_given_away_by_its_question() -> None:
    for item in load_items():
        assert not is_correct(item, item.turns[-1]), item.id


def test_memory_answers_are_in_an_earlier_turn() -> None:
    for item in load_items():
        if item.multi_turn:
            assert matches(" ".join(item.turns[:-1]), item.answers), item.id


def test_a_short_run_still_covers_every_category() -> None:
    chosen = pick(load_items(), len(CATEGORIES))
    assert [item.category for item in chosen] == list(CATEGORIES)
    assert len(pick(load_items(), None)) == len(load_items())


def test_the_command_takes_several_models() -> None:
    from app.cli import _settings_from, build_parser

    argv = ["bench", "quality", "--llm-model", "smollm2-135m", "qwen2.5-0.5b", "--limit", "3"]
    args = build_parser(argv).parse_args(argv)
    assert args.llm_models == ["smollm2-135m", "qwen2.5-0.5b"] and args.limit == 3
    assert _settings_from(args).llm_model == Settings().llm_model
    argv = ["bench", "quality", "--category", "memory", "units"]
    assert build_parser(argv).parse_args(argv).categories == ["memory", "units"]


# --------------------------------------------------------------------------- one real run


def test_a_real_run_through_the_server_reports_the_figures(settings: Settings, prepared, tmp_path: Path) -> None:
    from app.cli import main

    path = tmp_path / "quality.json"
    argv = ["bench", "quality", "--limit", str(len(CATEGORIES)), "--concurrency", "4", "--json", str(path),
            "--model-dir", str(settings.model_dir), "--llm-model", settings.llm_model]  # fmt: skip
    assert main(argv) == 0
    data = json.loads(path.read_text())
    assert data["quality_items"] == len(CATEGORIES) and data["quality_multi_items"] == 1  # one item of each
    assert data["machine_cpu"] and data["quality_concurrency"] == 4
    figures = data["quality_models"][settings.llm_model]
    assert figures["quality_server_model"] == settings.llm_model
    assert figures["quality_errors"] == 0
    for key in ["quality_correct", "quality_single_correct", "quality_multi_correct"] + [
        f"quality_correct_{category}" for category in CATEGORIES
    ]:
        assert 0.0 <= figures[key] <= 1.0, key
    assert figures["quality_reply_words_p50"] > 0 and figures["quality_loops"] >= 0
    assert figures["quality_temperature"] == settings.temperature and data["quality_system_prompt"]
    assert figures["quality_max_new_tokens"] == settings.max_new_tokens
    assert figures["quality_elapsed_s"] > 0
    wrong = figures["quality_wrong"]
    assert len(wrong) == round(len(CATEGORIES) * (1 - figures["quality_correct"]))
    assert all(entry["reply"] and entry["id"] and entry["question"] for entry in wrong)


async def test_with_the_page_tools_a_call_is_answered_as_the_page_would_and_the_reply_after_it_scored(
    tools_server_url: str,
) -> None:
    """``--tools page`` on the real 1.5B (greedy): the clock asked for the time is right and its answer carries the
    time the bench's clock gave; a question no tool meets is answered in words, and the session declared the tools;
    what the user said in an earlier turn is answered from it, not talked past ("You can call the "get_current_time"
    function ..." for all three, before the reply below the call floor was heard as without tools); a request no page
    tool meets is declined, not met with the timer (``set_timer`` before ``tool_name_floor``), and so is an alarm,
    not met with a timer of a guessed length (``set_timer`` for 3600 seconds before ``tool_value_floor``)."""
    from app.bench.quality import PAGE_TOOLS, ask_all

    assert [tool["name"] for tool in PAGE_TOOLS] == ["get_current_time", "set_timer"]
    items = {item.id: item for item in load_items()}
    url = tools_server_url.replace("http://", "ws://") + "/ws"
    recalls = ["mem-friend-kenji", "mem-cat-whiskers", "mem-phone-58"]
    asked = ["lim-time", "geo-capital-france", "lim-taxi", "lim-alarm", "lim-wake-me", *recalls]
    outcomes, _ = await ask_all(url, [items[name] for name in asked], 2, tools=PAGE_TOOLS)
    (clock, paris, *declined), recalled = outcomes[:5], outcomes[5:]
    for outcome in declined:
        assert outcome.calls == [] and outcome.correct and outcome.error is None, outcome
    assert clock.calls == ["get_current_time"] and clock.correct and clock.error is None, clock
    assert matches(clock.reply, ["4:45", "16:45", "quarter to five"]), clock.reply
    assert paris.calls == [] and paris.correct, paris
    for recall in recalled:
        assert recall.calls == [] and recall.correct and "function" not in recall.reply, recall


async def test_with_the_page_tools_a_model_that_takes_none_is_asked_without_them(settings: Settings, prepared) -> None:
    """As the page does: the session update with the tools is refused (``tools_unsupported``: SmolLM2 has no tool
    format), and sent again without them; the item is asked, nothing counts as an error."""
    from app.bench.quality import PAGE_TOOLS, ask_all
    from app.web.server import ServerThread, create_app

    items = {item.id: item for item in load_items()}
    with ServerThread(create_app(settings, prepared=prepared)) as base_url:
        url = base_url.replace("http://", "ws://") + "/ws"
        [outcome], _ = await ask_all(url, [items["geo-capital-france"]], 1, tools=PAGE_TOOLS)
    assert outcome.error is None and outcome.calls == [] and outcome.reply, outcome


def test_the_command_takes_the_page_tools() -> None:
    from app.cli import build_parser

    argv = ["bench", "quality", "--tools", "page"]
    assert build_parser(argv).parse_args(argv).tools == "page"
    assert build_parser(["bench", "quality"]).parse_args(["bench", "quality"]).tools == "none"
