"""The letters of a word the user asks how to spell, written into the question for the model.

A language model reads words as multi-letter tokens and never sees their letters, so asked how a word is
spelled it repeats the word or spells it wrongly ("recieve"); given the letters beside the question it reads
them back (docs/benchmarks.md, "Spelling"). ``with_spelling_hint`` adds them to the newest user message of a
reply's prompt; the conversation keeps the user's own words. Only a word of the dictionary (or a name, capitalised
as the user wrote it) gets its letters: "How do you spell seperate?" must not have the model read back S-E-P-E-R-.
"How do you spell my name?" gets the letters of the name the user gave earlier in the conversation ("My name is
Anna."), which the model otherwise said back whole ("Anna is spelled 'Anna'."), and "Can you spell that?" those of the
name or quoted word the last reply brought ("The capital of Australia is Canberra." -> "Yes, I can spell "Canberra".").
A question that counts a word's letters ("How many r's are in strawberry?") gets them counted beside the letters, one
that asks for a word backwards ("Spell cat backwards.", which the model answered "Tact") its letters the other way
round, and one that asks whether a word is a palindrome or two are anagrams what the letters show.
"""

from __future__ import annotations

import functools
import re
from itertools import islice, takewhile

from app.answers.wording import PRONOUNS
from app.engine.prompt import texts_of

MAX_WORDS = 3  # "Los Angeles", "Saint Petersburg": a name, not a sentence
MAX_CHARS = 48  # the longest word in English dictionaries has 45 letters; a longer run is not a word to spell
MAX_ASKS = 4  # the "spell"s of a message looked at
_WORD = r"[^\W\d_]+(?:['’-][^\W\d_]+)*"
_NAME = rf"{_WORD}(?: {_WORD}){{0,{MAX_WORDS - 1}}}"  # over text whose white space is single spaces
_OPEN, _CLOSE = "\"'‘“«„", "\"'’”»“"
# "spell" where it asks: at a sentence's start ("Spell X", "Please spell X") or after a person ("how do you spell X",
# "can you spell X", a transcript's "have you spell X", "I can't spell X") or "how/want/need/learn to"; and "the
# spelling of X"; not "a spell of rain" or "this is going to spell trouble"; nor "is 'recieve' spelled right?", which
# asks something else, and whose letters would tell the model the word is spelled so
_ASKS = re.compile(r"(?:(?:^|[.!?,] |\b(?:you|u|i|we|one|me|please|never|can['’]t|cannot|(?:how|want|need|learn|like) to) )"
                   r"spell(?: out)?|\bspelling of)\b(?: (?:the|a) (?:word|name)\b)?(?: ?[:,])? ?", re.I)
_HOW_SPELLED = re.compile(rf"\bhow (?:is|are|was) (?:the word )?(?P<open>[{_OPEN}]?)(?P<name>{_NAME})[{_CLOSE}]? spelled\b",
                          re.I)
_QUOTED = re.compile(rf"[{_OPEN}]({_NAME})[{_CLOSE}]")
_NEXT_WORD = re.compile(rf" ?({_WORD})")
# after the word: another language's spelling ("hello in Spanish") or its letters backwards, which these would mislead
_NOT_THESE_LETTERS = re.compile(
    r" (?:in (?!(?:english|british|american|capitals?|capital letters|full|the|a|one|uppercase|lowercase)\b)[^\W\d_]"
    r"|in reverse\b|backwards?\b)", re.I)
# the user's own name, asked for ("How do you spell my last name?") and given earlier ("My name is Anna Berg.", "Call me
# Max.", "Hi, I'm Tomas."; not "I'm ..." elsewhere, which says other things as often: "I'm Canadian."): the capitalised
# words after it
NAME_KINDS = {"first": "first", "last": "last", "family": "last", "sur": "last", "middle": "middle", "full": ""}
NAME_KIND = r"(?:(?P<{group}>first|last|middle|full|family|sur) ?)?"  # a pattern, its group named by ``format``
_MY_NAME_ASKED = re.compile(rf"\b(?:spell(?: out)?|spelling of) my {NAME_KIND.format(group='kind')}name\b"
                            rf"|\bhow is my {NAME_KIND.format(group='how')}name spelled\b", re.I)
_NAME_GIVEN = re.compile(  # the name looked ahead at, so "... my last name is Smith" after it is found too
    rf"\b(?i:my {NAME_KIND.format(group='kind')}name(?:'s|’s| is)|call me) (?=(?P<name>{_NAME}))"
    rf"|^(?i:(?:hi|hello|hey)(?: there)?[,.!]? (?:i'm|i’m|i am|this is)) (?=(?P<intro>{_NAME}))")  # "Hi, I'm Tomas."
# capitalised words that are no name: "My name is Anna I live in Paris.", "... call me Monday"
_NO_NAME = {"I", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday", "January", "February",
            "March", "April", "June", "July", "August", "September", "October", "November", "December"}
_TAIL = {"for", "please", "again", "correctly", "properly", "right", "now", "to", "me", "in", "backwards", "backward",
         "thanks", "thank", "slowly", "quickly", "so", "and", "or", "but"}
_NOT_A_WORD = PRONOUNS | {  # what follows an asking "spell" where it names no word: "how do you spell it", "I can't spell well"
    "words", "names", "something", "anything", "everything", "things", "the", "a", "an", "well", "badly", "check", "checker",
    "checkers", "um", "uh", "er",
}


@functools.cache
def load_dictionary():
    """pyspellchecker's English word list, which spells the American way, with breame's British spellings of its
    words ("colour", "neighbour", "centre"), read once: the server calls this at start, so the first spelling question
    does not read it on the event loop (its cost: docs/benchmarks.md, "Spelling")."""
    from breame.data.spelling_constants import BRITISH_ENGLISH_SPELLINGS
    from spellchecker import SpellChecker

    checker = SpellChecker(language="en", distance=1)
    checker.word_frequency.load_words([british for british, american in BRITISH_ENGLISH_SPELLINGS.items() if american in checker])
    return checker


def asked_word(text: str) -> str | None:
    """The word (or name of up to ``MAX_WORDS`` words) whose spelling ``text`` asks for, else None."""
    text = " ".join(text.split())  # single spaces: no pattern below meets a long run of white space
    if (how := _HOW_SPELLED.search(text)) and (name := _a_name(how["name"], how.end(), text, quoted=bool(how["open"]))):
        return name
    for asks in islice(_ASKS.finditer(text), MAX_ASKS):  # "I can't spell well: how do you spell X?" asks at its second
        if quoted := _QUOTED.match(text, asks.end()):
            name = _a_name(quoted[1], quoted.end(), text, quoted=True)
        else:
            name = _a_name(*_leading_words(text, asks.end()), text, quoted=False)
        if name is not None:
            return name
    return None


def _leading_words(text: str, pos: int) -> tuple[str, int]:
    """The words from ``pos`` on, up to a punctuation mark or a word of ``_TAIL`` (at most one past ``MAX_WORDS``),
    and where they end."""
    kept: list[str] = []
    while len(kept) <= MAX_WORDS and (word := _NEXT_WORD.match(text, pos)) and word[1].lower() not in _TAIL:
        kept.append(word[1])
        pos = word.end()
    return " ".join(kept), pos


def _a_name(name: str, end: int, text: str, *, quoted: bool) -> str | None:
    """``name`` where it is one to spell (it ends at ``end`` in ``text``), else None. A quoted name may be any word of
    the dictionary ("How do you spell 'their'?"); an unquoted one no pronoun or filler; every word must be in the
    dictionary or a name (capitalised, not all capitals), and several words unquoted must all be names ("Los
    Angeles"), not the words of a sentence ("Spell books are expensive")."""
    words = name.split()
    if not words or len(words) > MAX_WORDS or len(name) > MAX_CHARS or len(name) < 2 or _NOT_THESE_LETTERS.match(text, end):
        return None
    names = [w[0].isupper() and not w.isupper() for w in words]
    if not quoted and (any(w.lower() in _NOT_A_WORD for w in words) or (len(words) > 1 and not all(names))):
        return None
    return name if all(is_name or _in_dictionary(w) for w, is_name in zip(words, names)) else None


def _in_dictionary(word: str) -> bool:
    """The word, or each part of it between hyphens and apostrophes ("mother-in-law"), is in the word list."""
    dictionary = load_dictionary()
    return word.lower() in dictionary or all(p.lower() in dictionary for p in re.split(r"['’-]", word))


def my_name_asked(text: str) -> str | None:
    """Which of the user's names ``text`` asks the spelling of ("" for the whole name, "first", "last", "middle"), or
    None."""
    text = " ".join(text.split())
    asked = _MY_NAME_ASKED.search(text)
    if asked is None or _NOT_THESE_LETTERS.match(text, asked.end()):  # "... my name backwards"
        return None
    return NAME_KINDS[(asked["kind"] or asked["how"] or "full").lower()]


def given_name(said: list[str], kind: str) -> str | None:
    """The user's name of ``kind`` (:func:`my_name_asked`) as they last gave it in ``said`` (their messages, oldest
    first). A first or last name is also the first or last word of a whole name given."""
    for text in reversed(said):
        for found in reversed(list(_NAME_GIVEN.finditer(" ".join(text.split())))):
            given = (found["name"] or found["intro"]).split()
            words = list(takewhile(lambda w: w[0].isupper() and w not in _NO_NAME, given))
            if not words:  # "My name is not important."
                continue
            name, given_kind = " ".join(words), NAME_KINDS[(found["kind"] or "full").lower()]
            if given_kind == kind:
                return name
            if given_kind == "" and (kind == "first" or (kind == "last" and len(words) > 1)):
                return words[0] if kind == "first" else words[-1]
    return None


# "Can you spell that?" after a reply: the whole message asks, and the word is the one the reply brought
_THAT_ASKED = re.compile(
    r"^(?:(?:and|so|ok|okay|sorry|um|oh|wait|hmm)[,.!]? )*(?:(?:can|could|would|will) (?:you|u) (?:please )?|please "
    r"|how do (?:you|u|i) )?spell (?:that|it|this|(?:that|the|his|her|their|its) (?:name|word)|that one)(?: out| again)*"
    r"(?: for me)?"
    r"(?:,? please)?[?.!]*$|^how(?:'s| is| was) (?:that|it|(?:his|her|their|its) name) spelled[?.!]*$",
    re.I,
)
_PARTICLES = {"da", "de", "del", "der", "di", "du", "van", "von", "la", "le", "bin", "al"}  # "Leonardo da Vinci"
_QUOTED_IN_REPLY = re.compile(rf"(?<![^\W_])[{_OPEN}]({_NAME})[{_CLOSE}](?![^\W_])")  # not "It's Canberra's"
_NOT_A_NAME = {"it's", "that's", "here's", "there's", "what's", "let's", "i'm", "i'll", "i've", "i'd", "you're", "we're"}
_COMMON = 20000  # a word list's count of a word above which it opens a sentence as a word, not a name: "Would", not "Paris"
_POSSESSIVE = re.compile(r"['’]s$")


def that_asked(text: str) -> bool:
    """Whether ``text`` asks how the word just heard is spelled ("Can you spell that?")."""
    return _THAT_ASKED.search(" ".join(text.split())) is not None


def reply_word(reply: str, asked: str) -> str | None:
    """The word or name ``reply`` brought that ``asked``, the question before it, did not have: its first quoted one
    ("In French, cat is "chat".") or else its first capitalised one of up to ``MAX_WORDS`` words ("Canberra",
    "Leonardo da Vinci"), not a sentence's first word where that is a common word ("The", "Would"); None where there
    is none. The first, since a reply brings its answer before its sign-off ("Let me know if ...")."""
    known = {_stem(w) for w in re.findall(_WORD, asked)}
    reply = " ".join(reply.split())
    for quoted in _QUOTED_IN_REPLY.findall(reply):
        if not all(_stem(w) in known for w in quoted.split()):
            return quoted
    names: list[list[str]] = [[]]
    for sentence in re.split(r"(?<=[.!?:;])\s+", reply):
        for place, word in enumerate(re.findall(_WORD, sentence)):
            if (word[0].isupper() and not (place == 0 and _common(word))) or (names[-1] and word in _PARTICLES):
                names[-1].append(word)
            else:
                names.append([])
        names.append([])
    for words in names:
        while words and words[-1] in _PARTICLES:
            words.pop()
        if words and not all(_stem(w) in known for w in words) and len(words) <= MAX_WORDS:
            name = " ".join(words)
            return _POSSESSIVE.sub("", name) if len(name) <= MAX_CHARS else None
    return None


def _common(word: str) -> bool:
    """Whether ``word`` at a sentence's start is a common word ("The", "Would", "That's") rather than a name."""
    return word.lower() in _NOT_A_NAME or load_dictionary().word_frequency[word.lower()] >= _COMMON


def _stem(word: str) -> str:
    """A word as the question and the reply share it: "Australia's" is "australia"."""
    return _POSSESSIVE.sub("", word.lower())


def letters(name: str) -> str:
    """'Los Angeles' -> 'L-O-S A-N-G-E-L-E-S'; 'mother-in-law' -> 'M-O-T-H-E-R hyphen I-N hyphen L-A-W'."""
    marks = {"-": "hyphen", "'": "apostrophe", "’": "apostrophe"}
    pieces = [piece for piece in re.split(r"(['’-])|\s+", name) if piece]
    # one capital per letter: "ß".upper() is "SS", which would add a letter
    return " ".join(marks.get(p) or "-".join(c.upper() if len(c.upper()) == 1 else c for c in p) for p in pieces)


# How many letters a word has, or of one letter, or vowels ("How many letters are in banana?", "How many r's are in
# strawberry?"): the model, which never sees the letters, said 5 for banana and 4 or 5 for strawberry's r's (4 of 4
# wrong; docs/benchmarks.md, "Spelling"). Counted here, beside the letters.
_COUNTED = r"(?P<what>letters|vowels|consonants|(?:(?:of )?(?:the )?letter )?(?P<letter>[a-z])(?:['’]?s)?)"
_COUNTED_WORD = rf"(?:the (?:word|name) )?(?P<open>[{_OPEN}])?(?P<word>{_WORD})(?(open)[{_CLOSE}])"
_COUNT_ASKED = (  # each form apart: a pattern names a group once
    re.compile(rf"\bhow many {_COUNTED} (?:(?:are|is) )?(?:there )?in {_COUNTED_WORD}(?=[?.!,]|$| please)", re.I),
    re.compile(rf"\bhow many {_COUNTED} (?:does|do) {_COUNTED_WORD} (?:have|contain|has)\b", re.I),
    re.compile(rf"\bhow many times does {_COUNTED} (?:appear|occur|come up|show up) in {_COUNTED_WORD}(?=[?.!,]|$| please)",
               re.I),
)
_VOWELS = "aeiou"
# "How many letters are in English?" asks about its alphabet, not the word
_LANGUAGES = {"english", "spanish", "french", "german", "italian", "portuguese", "russian", "chinese", "japanese", "korean",
              "arabic", "hebrew", "greek", "hindi", "hawaiian", "latin", "dutch", "swedish", "polish", "turkish"}


def counted(text: str) -> tuple[str, str] | None:
    """For a question that asks how many letters (or of which letter, or vowels) a word has, the word and the count in
    words ("6 letters", "the letter R 3 times"); else None."""
    text = " ".join(text.split())
    asked = next((found for pattern in _COUNT_ASKED if (found := pattern.search(text))), None)
    if (asked is None or asked["word"].lower() in _LANGUAGES
            or _a_name(asked["word"], asked.end(), text, quoted=bool(asked["open"])) is None):  # fmt: skip
        return None
    word, letter = asked["word"], asked["letter"]
    letters_of = _letters_only(word)
    if letter:
        n = letters_of.count(letter.lower())
        return word, f"the letter {letter.upper()} {n} {'time' if n == 1 else 'times'}"
    kind = asked["what"].lower()
    if kind == "letters":
        return word, f"{len(letters_of)} letters"
    n = sum((c in _VOWELS) == (kind == "vowels") for c in letters_of)
    return word, f"{n} {kind[:-1] if n == 1 else kind}"


# what names something other than its own letters: "Is my name a palindrome?", "Say numbers backwards."
_NOT_SPELLED = _NOT_A_WORD | {"alphabet", "name", "names", "number", "numbers", "word", "words", "answer", "sentence", "date",
                              "movie", "song", "book"}  # fmt: skip
# a word's letters the other way round: "Spell cat backwards." (the model said "Tact"), "What's hello spelled
# backwards?", "Say the word stressed backwards." (declined)
_BACKWARDS = re.compile(
    rf"\b(?:spell|say|read|write)(?: out)? (?:the word )?(?P<open>[{_OPEN}])?(?P<word>{_WORD})(?(open)[{_CLOSE}])"
    rf" (?:backwards?|in reverse)\b|(?:^|\b(?:is|'s|the word) )(?P<open2>[{_OPEN}])?(?P<word2>{_WORD})(?(open2)[{_CLOSE}])"
    r" (?:spelled|spelt|written|said) (?:backwards?|in reverse)\b",
    re.I,
)


def backwards_asked(text: str) -> str | None:
    """The word ``text`` asks to hear spelled backwards, else None ("Spell it backwards.", "Say the alphabet backwards")."""
    found = _BACKWARDS.search(" ".join(text.split()))
    word = found and (found["word"] or found["word2"])
    return word if word and word.lower() not in _NOT_SPELLED and len(word) <= MAX_CHARS else None


def _words_named(name: str) -> str:
    """A pattern of up to four words (or a quoted phrase) in a group ``name``: "racecar", "the word 'level'"."""
    return (rf"(?:the (?:words?|names?) )?(?P<open_{name}>[{_OPEN}])?(?P<{name}>{_WORD}(?: {_WORD}){{0,3}})"
            rf"(?(open_{name})[{_CLOSE}])")


# whether a word reads the same backwards, or two words have the same letters: "Is racecar a palindrome?" and "Is
# listen an anagram of silent?" were answered "not" every time
_PALINDROME = re.compile(rf"\bis {_words_named('word')} an? palindrome\b", re.I)
_ANAGRAM = re.compile(
    rf"\bis {_words_named('a')} an anagram of {_words_named('b')}(?=\s*(?:$|[?.!,]))"
    rf"|\bare {_words_named('c')} and {_words_named('d')} anagrams\b",
    re.I,
)


def letters_compared(text: str) -> tuple[str, str] | None:
    """For a question whether a word is a palindrome or an anagram of another, the word and what its letters show
    (", and backwards R-A-C-E-C-A-R: it is a palindrome"); else None."""
    text = " ".join(text.split())
    if len(text) > 2 * MAX_CHARS + 40:
        return None
    if found := _PALINDROME.search(text):
        word = found["word"]
        if _not_spelled(word):
            return None
        same = _letters_only(word) == _letters_only(word)[::-1]
        return word, f", and backwards {letters(word[::-1])}: it is {'' if same else 'not '}a palindrome"
    if found := _ANAGRAM.search(text):
        a, b = found["a"] or found["c"], found["b"] or found["d"]
        if _not_spelled(a) or _not_spelled(b) or _letters_only(a) == _letters_only(b):
            return None
        shown = "the same letters, so they are anagrams" if sorted(_letters_only(a)) == sorted(_letters_only(b)) else (
            "not the same letters, so they are not anagrams")
        return a, f', and "{b}" {letters(b)}: {shown}'
    return None


def _not_spelled(words: str) -> bool:
    """Whether ``words`` name something other than their own letters ("my name", "the movie Tenet")."""
    return any(word.lower() in _NOT_SPELLED for word in words.split())


def _letters_only(word: str) -> str:
    return "".join(c for c in word.lower() if c.isalpha())


_HINT = '\n\n(The word "{word}" is spelled {letters}. Answer by saying these letters.)'
_COMPARED_HINT = '\n\n(The word "{word}" is spelled {letters}{compared}. Say so in a short sentence.)'
_BACKWARDS_HINT = ('\n\n(The word "{word}" spelled backwards is {letters}, which reads "{reversed}". Answer by saying these'
                   ' letters.)')
_COUNT_HINT = '\n\n(The word "{word}" is spelled {letters}: {count}. Say that number in a short sentence.)'
_HINT_START = _HINT.split("{word}")[0]
_HINT_ENDS = (_HINT.split("{letters}")[1], _COUNT_HINT.split("{count}")[1], _COMPARED_HINT.split("{compared}")[1])


def with_spelling_hint(messages: list[dict]) -> list[dict]:
    """``messages`` with the letters added to the last one when it is a user message asking how a word is spelled."""
    if not messages or messages[-1].get("role") != "user" or not isinstance(messages[-1].get("content"), str):
        return messages
    word = asked_word(messages[-1]["content"])
    if word is None and (kind := my_name_asked(messages[-1]["content"])) is not None:
        word = given_name(texts_of(messages, "user"), kind)
    if word is None and that_asked(messages[-1]["content"]):
        reply, asked = (_message_text(messages, -2, "assistant"), _message_text(messages, -3, "user"))
        word = reply_word(reply, asked) if reply else None
    if word is not None:
        hint = _HINT.format(word=word, letters=letters(word))
    elif (word := backwards_asked(messages[-1]["content"])) is not None:
        hint = _BACKWARDS_HINT.format(word=word, letters=letters(word[::-1]), reversed=word[::-1].lower())
    elif (count := counted(messages[-1]["content"])) is not None:
        hint = _COUNT_HINT.format(word=count[0], letters=letters(count[0]), count=count[1])
    elif (compared := letters_compared(messages[-1]["content"])) is not None:
        hint = _COMPARED_HINT.format(word=compared[0], letters=letters(compared[0]), compared=compared[1])
    else:
        return messages
    return [*messages[:-1], {**messages[-1], "content": messages[-1]["content"] + hint}]


def _message_text(messages: list[dict], index: int, role: str) -> str:
    """The text of ``messages[index]`` where there is one of ``role``, else ""."""
    message = messages[index] if len(messages) >= -index else {}
    return message["content"] if message.get("role") == role and isinstance(message.get("content"), str) else ""


def without_spelling_hint(content: str) -> str:
    """A user message's content without the letters ``with_spelling_hint`` added."""
    start = content.rfind(_HINT_START)
    return content[:start] if start >= 0 and content.endswith(_HINT_ENDS) else content
