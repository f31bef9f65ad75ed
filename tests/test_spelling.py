"""Spelling questions: which ones get the word's letters, and the served 1.5B spelling a word out through the real
server (it repeats the word, or misspells it, without them)."""

from __future__ import annotations

import pytest

from app.bench.quality import spelled_words
from app.answers.spelling import (asked_word, counted, given_name, letters, my_name_asked, reply_word, that_asked,
                                 with_spelling_hint, without_spelling_hint)


@pytest.mark.parametrize(
    ("question", "word"),
    [
        ("How do you spell 'necessary'?", "necessary"),
        ("how do you spell necessary", "necessary"),  # as a transcript comes: no quotes, no capital
        ("Can you spell the word receive for me?", "receive"),
        ("How is “rhythm” spelled?", "rhythm"),
        ("How is the word necessary spelled?", "necessary"),
        ("Spell Mississippi.", "Mississippi"),
        ("Hey, spell necessary", "necessary"),
        ("What's the spelling of Wednesday?", "Wednesday"),
        ("How do you spell Los Angeles?", "Los Angeles"),  # a name: capitalised as the user wrote it
        ('He said "hi". I never know how to spell accommodate, can you help?', "accommodate"),
        ("Please spell out mother-in-law.", "mother-in-law"),
        ("How do you spell receive in English?", "receive"),
        ("Have you spell necessary?", "necessary"),  # a transcript's mishearing of "how do you spell"
        ("I can't spell well. How do you spell necessary?", "necessary"),
        ("How is it spelled? I mean, how do you spell necessary?", "necessary"),
        ("How do you spell 'their'?", "their"),  # quoted: any word
        ("how do you spell necessary thanks", "necessary"),
        ("How is 'their' spelled?", "their"),
        ("I can’t spell necessary", "necessary"),
        ("HOW DO YOU SPELL NECESSARY", "NECESSARY"),
        ("How do you spell 'neighbour'?", "neighbour"),  # British spellings are words too
        ("how do you spell colour", "colour"),
        ("How is 'centre' spelled?", "centre"),
        ("How do you spell favourite?", "favourite"),
    ],
)
def test_a_question_asking_for_a_spelling_names_its_word(question: str, word: str) -> None:
    assert asked_word(question) == word


@pytest.mark.parametrize(
    ("said", "name"),
    [
        (["My name is Anna.", "How do you spell my name?"], "Anna"),
        (["Hi, my name's Tom Baker and I like tea.", "Can you spell my last name?"], "Baker"),  # a whole name's last word
        (["My name is Lucía Fernández, nice to meet you.", "How do you spell my name?"], "Lucía Fernández"),
        (["My name is José Álvarez.", "how do you spell my first name"], "José"),
        (["My name is Anna I live in Paris.", "How do you spell my name?"], "Anna"),  # a transcript without its comma
        (["Call me Max.", "spell my name please"], "Max"),
        (["My first name is Jo and my last name is Smith.", "How is my last name spelled?"], "Smith"),
        (["My name is Anna.", "Actually, call me Annie.", "How do you spell my name?"], "Annie"),  # the latest
        (["My surname is Okafor.", "What's the spelling of my family name?"], "Okafor"),
    ],
)
def test_a_question_asking_how_the_users_own_name_is_spelled_gets_the_name_they_gave(said: list[str], name: str) -> None:
    messages = [{"role": "user", "content": text} for text in said]
    assert given_name(said, my_name_asked(said[-1])) == name
    assert with_spelling_hint(messages)[-1]["content"].endswith(f"is spelled {letters(name)}. Answer by saying these letters.)")


@pytest.mark.parametrize(
    "said",
    [
        ["How do you spell my name?"],  # never given
        ["I'm Canadian.", "How do you spell my name?"],  # "I'm ..." says other things as often as a name
        ["My name is Anna.", "What is the spelling of my middle name?"],  # not that one
        ["My name is Anna.", "Can you spell my dog's name?"],
        ["My name is Anna.", "What's my name?"],  # asked, not spelled: the model has it in the conversation
        ["My name is not important.", "How do you spell my name?"],  # no capital: no name
        ["Call me Monday.", "How do you spell my name?"],
        ["My name is Anna.", "How do you spell my name backwards?"],  # not these letters
    ],
)
def test_no_name_is_spelled_where_none_of_that_kind_was_given(said: list[str]) -> None:
    messages = [{"role": "user", "content": text} for text in said]
    assert with_spelling_hint(messages) == messages


@pytest.mark.parametrize(
    "question",
    [
        "Is 'recieve' spelled right?",  # the letters would tell the model it is
        "How do you spell seperate?",  # not a word: its letters would be read back as the spelling
        "HOW DO YOU SPELL SEPERATE",  # all capitals: not a name
        "How do you spell neighbur?",  # neither spelling
        "How do you spell doctour?",  # a British-looking form of a word that has none
        "Spell books are expensive.",  # lowercase words of a sentence, not a name
        "This is going to spell trouble.",
        "spell hello in Hebrew",
        "how do you spell necessary today",
        "How do you spell 'recieve' correctly?",
        "How do you spell hello in Spanish?",  # another language's spelling
        "how do you spell cat backwards",  # these letters, the wrong way round
        "How do you spell your name?",
        "How do you spell it?",
        "How do you spell this word: it is the one after Tuesday in the week, with an odd d?",
        "I spell words badly.",
        "The witch cast a spell on him.",
        "We had a spell of rain.",
        "What spell did Harry use?",
        "A spell called Expelliarmus",
        "The warm spell ended yesterday",
        "This could spell trouble for us.",
        "Low sales spell doom",
        "I'm under your spell tonight",
        "Spelling for dummies",
        "Spell checkers help.",
        "What does 'spell' mean?",
        "Any tips for a spelling bee?",
        "What is the capital of France?",
        "how to spell",
        "How do you spell " + "ab-" * 30 + "ab?",  # past MAX_CHARS: not a word
    ],
)
def test_other_questions_get_no_letters(question: str) -> None:
    assert asked_word(question) is None


@pytest.mark.parametrize(("question", "word", "backwards"), [
    ("Spell cat backwards.", "cat", 'T-A-C, which reads "tac"'),
    ("How do you spell dog backwards?", "dog", 'G-O-D, which reads "god"'),
    ("What's hello spelled backwards?", "hello", 'O-L-L-E-H, which reads "olleh"'),
    ("Say the word stressed backwards.", "stressed", 'D-E-S-S-E-R-T-S, which reads "desserts"'),
    ("Read 'drawer' in reverse.", "drawer", 'R-E-W-A-R-D, which reads "reward"'),
])  # fmt: skip
def test_a_word_asked_backwards_gets_its_letters_the_other_way_round(question: str, word: str, backwards: str) -> None:
    hinted = with_spelling_hint([{"role": "user", "content": question}])[-1]["content"]
    assert hinted == f'{question}\n\n(The word "{word}" spelled backwards is {backwards}. Answer by saying these letters.)'
    assert without_spelling_hint(hinted) == question


@pytest.mark.parametrize("question", ["Spell it backwards.", "Say the alphabet backwards.", "What's my name spelled backwards?",
                                      "Can you count backwards from ten?", "Walk backwards.", "Spell that in reverse."])
def test_nothing_named_to_spell_backwards_gets_no_letters(question: str) -> None:
    assert with_spelling_hint([{"role": "user", "content": question}])[-1]["content"] == question


@pytest.mark.parametrize(("question", "shown"), [
    ("Is racecar a palindrome?", 'The word "racecar" is spelled R-A-C-E-C-A-R, and backwards R-A-C-E-C-A-R: it is a palindrome'),
    ("Is the word hello a palindrome?", 'The word "hello" is spelled H-E-L-L-O, and backwards O-L-L-E-H: it is not a palindrome'),
    ("Is listen an anagram of silent?",
     'The word "listen" is spelled L-I-S-T-E-N, and "silent" S-I-L-E-N-T: the same letters, so they are anagrams'),
    ("Are cat and dog anagrams?",
     'The word "cat" is spelled C-A-T, and "dog" D-O-G: not the same letters, so they are not anagrams'),
    ("Are the words listen and silent anagrams?",
     'The word "listen" is spelled L-I-S-T-E-N, and "silent" S-I-L-E-N-T: the same letters, so they are anagrams'),
])  # fmt: skip
def test_a_palindrome_or_an_anagram_asked_gets_what_the_letters_show(question: str, shown: str) -> None:
    hinted = with_spelling_hint([{"role": "user", "content": question}])[-1]["content"]
    assert hinted == f"{question}\n\n({shown}. Say so in a short sentence.)"
    assert without_spelling_hint(hinted) == question


@pytest.mark.parametrize("question", ["Is it a palindrome?", "Is listen an anagram of listen?", "What's a palindrome?",
                                      "Is that an anagram of this?", "Can you give me an anagram of silent?",
                                      "Is my name a palindrome?", "Is the movie Tenet a palindrome?", "Say numbers backwards.",
                                      "Is my phone number a palindrome?"])
def test_no_palindrome_or_anagram_named_gets_no_letters(question: str) -> None:
    assert with_spelling_hint([{"role": "user", "content": question}])[-1]["content"] == question


@pytest.mark.parametrize(("asked", "reply", "word"), [
    ("What is the capital of Australia?", "The capital of Australia is Canberra.", "Canberra"),
    ("Who painted the Mona Lisa?", "Leonardo da Vinci painted the Mona Lisa.", "Leonardo da Vinci"),
    ("Who wrote Romeo and Juliet?", "William Shakespeare wrote Romeo and Juliet.", "William Shakespeare"),
    ("How do you say cat in French?", 'In French, "cat" is "chat".', "chat"),  # a quoted word before a name
    ("How tall is the tower in Paris?", "The Eiffel Tower is 330 metres tall.", "Eiffel Tower"),
    ("What's the largest planet?", "Jupiter.", "Jupiter"),
    ("Give me a hard word.", "Sure! The word is necessary.", None),  # nothing capitalised or quoted but the start
    ("What is the capital of Australia?", "The capital of Australia is Canberra. Let me know if you need more.", "Canberra"),
    ("What's the largest planet?", "Would you like to know more about Jupiter?", "Jupiter"),  # "Would" opens a sentence
    ("What's in Australia's capital?", "It's Canberra's parliament house.", "Canberra"),  # no quote, no "'s"
    ("Is Sydney the capital of Australia?", "It's Canberra, not Sydney.", "Canberra"),
    ("Name a Swedish city.", "The city is Örebro in Sweden.", "Örebro"),
])  # fmt: skip
def test_the_word_a_reply_brought_is_the_one_spell_that_asks_for(asked: str, reply: str, word: str | None) -> None:
    assert reply_word(reply, asked) == word


@pytest.mark.parametrize(("message", "asks"), [
    ("Can you spell that?", True), ("How do you spell it?", True), ("Spell that, please.", True), ("How is that spelled?", True),
    ("Sorry, could you spell that for me?", True), ("How do you spell his name?", True), ("Spell that word again.", True),
    ("How's that spelled?", True),
    ("Spell it backwards.", False), ("Can you spell that in French?", False), ("Can you spell?", False),
    ("That spells trouble.", False),
])  # fmt: skip
def test_spell_that_is_known_only_as_a_whole_message(message: str, asks: bool) -> None:
    assert that_asked(message) is asks


def test_spell_that_gets_the_letters_of_the_word_the_last_reply_brought() -> None:
    said = [{"role": "user", "content": "What is the capital of Australia?"},
            {"role": "assistant", "content": "The capital of Australia is Canberra."},
            {"role": "user", "content": "Can you spell that?"}]  # fmt: skip
    hinted = with_spelling_hint(said)[-1]["content"]
    assert "C-A-N-B-E-R-R-A" in hinted and without_spelling_hint(hinted) == "Can you spell that?"
    assert with_spelling_hint(said[-1:]) == said[-1:]  # no reply before it: no word
    system = {"role": "system", "content": "What is the capital of Australia?"}  # no question of the user's
    assert "A-U-S-T-R-A-L-I-A" in with_spelling_hint([system, *said[1:]])[-1]["content"]  # the reply's first name


@pytest.mark.parametrize(("question", "word", "count"), [
    ("How many letters are in the word banana?", "banana", "6 letters"),
    ("How many letters does banana have?", "banana", "6 letters"),
    ("How many r's are in strawberry?", "strawberry", "the letter R 3 times"),
    ("how many Rs in strawberry", "strawberry", "the letter R 3 times"),
    ("How many times does the letter s appear in Mississippi?", "Mississippi", "the letter S 4 times"),
    ("How many z's are in pizza, please?", "pizza", "the letter Z 2 times"),
    ("How many q's are in apple?", "apple", "the letter Q 0 times"),
    ("How many vowels are in elephant?", "elephant", "3 vowels"),
    ("How many consonants are in rhythm?", "rhythm", "6 consonants"),
    ('How many letters are in "Canberra"?', "Canberra", "8 letters"),
])  # fmt: skip
def test_a_question_counting_a_words_letters_gets_them_counted(question: str, word: str, count: str) -> None:
    assert counted(question) == (word, count)
    hinted = with_spelling_hint([{"role": "user", "content": question}])[-1]["content"]
    assert hinted.startswith(question) and f'"{word}" is spelled {letters(word)}: {count}.' in hinted
    assert without_spelling_hint(hinted) == question


@pytest.mark.parametrize("question", [
    "How many letters are in the alphabet?", "How many letters are in my name?", "How many people are in China?",
    "How many letters are in recieve?", "How many letters did you send?", "How many is are in the box?",
    "How many letters are in English?", "How many vowels does Hawaiian have?",  # a language's alphabet
])  # fmt: skip
def test_other_questions_get_nothing_counted(question: str) -> None:
    assert counted(question) is None
    assert with_spelling_hint([{"role": "user", "content": question}])[-1]["content"] == question


def test_runs_of_white_space_reach_the_patterns_as_single_spaces() -> None:
    # a message of the longest typed length, all white space between its words: single spaces before any pattern
    assert asked_word("how is" + " " * 4000 + "necessary" + "\n" * 4000 + "spelled") == "necessary"


def test_letters_are_spelled_out_with_hyphens_and_names_apart() -> None:
    assert letters("necessary") == "N-E-C-E-S-S-A-R-Y"
    assert letters("Los Angeles") == "L-O-S A-N-G-E-L-E-S"
    assert letters("mother-in-law") == "M-O-T-H-E-R hyphen I-N hyphen L-A-W"
    assert letters("o'clock") == "O apostrophe C-L-O-C-K"
    assert letters("Straße") == "S-T-R-A-ß-E"  # one letter each: "ß".upper() is two


def test_only_the_newest_user_message_gets_them() -> None:
    asked = {"role": "user", "content": "How do you spell 'receive'?"}
    hinted = with_spelling_hint([{"role": "system", "content": "Be brief."}, asked])
    assert hinted[-1]["content"] == ("How do you spell 'receive'?\n\n"
                                     '(The word "receive" is spelled R-E-C-E-I-V-E. Answer by saying these letters.)')
    assert asked["content"] == "How do you spell 'receive'?"  # the conversation's own message is left as it was
    answered = [asked, {"role": "assistant", "content": "R-E-C-E-I-V-E."}]
    assert with_spelling_hint(answered) == answered
    assert with_spelling_hint([{"role": "user", "content": "Hello!"}]) == [{"role": "user", "content": "Hello!"}]


async def test_the_served_model_spells_the_word_out(tools_server_url: str) -> None:
    from openai import AsyncOpenAI

    client = AsyncOpenAI(api_key="not-needed", base_url=tools_server_url + "/v1",
                         websocket_base_url=tools_server_url.replace("http://", "ws://") + "/v1")
    async with client.realtime.connect(model="qwen2.5-1.5b") as connection:
        await connection.session.update(session={"type": "realtime", "output_modalities": ["text"]})
        for word in ("necessary", "rhythm"):
            question = f"How do you spell {word}?"
            await connection.conversation.item.create(
                item={"type": "message", "role": "user", "content": [{"type": "input_text", "text": question}]}
            )
            await connection.response.create()
            text, item_id = "", None
            async for event in connection:
                assert event.type != "error", event
                if event.type == "conversation.item.added" and event.item.role == "user":
                    item_id = event.item.id
                if event.type == "response.output_text.delta":
                    text += event.delta
                if event.type == "response.done":
                    break
            assert spelled_words(text) == [word], text
            await connection.conversation.item.retrieve(item_id=item_id)  # after the reply: what the server kept
            async for event in connection:
                if event.type == "conversation.item.retrieved":
                    assert event.item.content[0].text == question  # the user's words, not the letters
                    break


async def test_a_reply_gets_the_letters_and_the_conversation_keeps_the_words(tmp_path) -> None:
    """The session's wiring, on the realtime rig's fake engine: the reply's prompt has the note; the stored item and
    the history have the user's words; a response with its own instructions, or with spelling_hints off, has none."""
    from realtime_fakes import make_rig

    for hints in (True, False):
        rig = await make_rig(tmp_path / str(hints), spelling_hints=hints)
        try:
            await rig.send({"type": "conversation.item.create", "item": {"type": "message", "role": "user", "content": [
                {"type": "input_text", "text": "How do you spell necessary?"}]}})  # fmt: skip
            await rig.send({"type": "response.create"})
            await rig.outbox.wait_for("response.done")
            asked = rig.engine.requests[0]["messages"][-1]["content"]
            assert ("N-E-C-E-S-S-A-R-Y" in asked) is hints
            assert [m.text for m in rig.history.load_sync(rig.session.id)][0] == "How do you spell necessary?"
            await rig.send({"type": "conversation.item.create", "item": {"type": "message", "role": "user", "content": [
                {"type": "input_text", "text": "How do you spell rhythm?"}]}})  # fmt: skip
            await rig.send({"type": "response.create", "response": {"instructions": "Reply with one word."}})
            await rig.outbox.wait_for("response.done", count=2)
            assert rig.engine.requests[-1]["messages"][-1]["content"] == "How do you spell rhythm?"
        finally:
            await rig.close()
