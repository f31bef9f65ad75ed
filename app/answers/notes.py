"""Answers the model gets wrong by habit, written beside the question that asks them.

Asked "Are you human?" or "Is it the weekend?", the 1.5B says "Yes", as the people in its training's conversations did,
whatever the system prompt says it is or cannot see. A sentence of the system prompt saying it is a program changed the
answer to one such question in four, and an example answer, which fixed them all, was copied onto other questions and
kept the page's clock uncalled; the same fact written beside the question, as a statement, still got "Yes"
(docs/benchmarks.md, "Not a person"). So a note beside the question, as a spelling question gets its word's letters,
gives the answer to say; the model says it, and no other reply sees it. A :class:`Note` adds it to the newest user
message of a reply's prompt; the conversation keeps the user's words. A reply without tools gets the same for a request
only a tool could meet, which the model agreed to ("Remind me to take my pills at nine." -> "Sure, I'll remind you."),
and any reply for a request to change its voice ("Can you use a British accent?" -> "Yes, I can use a British accent.");
a request to speak slower or faster the server meets, and its note says so (``app/web/realtime/pace.py``). Other notes
say what to do: a question asking for a suggestion is told to suggest, which the model declined as if asked to do the
thing ("What should I watch on TV tonight?" -> "I can't watch TV, sorry."), a request to write a few lines to write them
(it asked what to put in them), a story asked for to be made up (declined for some kinds: "Tell me a ghost story."), and
the user's news about their day to be answered warmly ("I have a job interview tomorrow." -> "I'm sorry, I can't assist
with that."); a question about its own likes gets a short answer ("What's your favourite colour?" -> "As an AI language
model, I don't have personal preferences ..."), and a request to hear the last reply again that reply to say ("Pardon?"
-> "I'm sorry, I can't answer that."), and "Never mind." an "Okay" ("Forget it." -> "I'm sorry, I can't provide that
information."), and a correction of a misheard question to be answered ("No, I said Australia." -> "Sorry, I can't check
the capital of Australia from here."). A follow-up that changes one part of the last question gets it asked in full
("And in a foot?"), as does a sum that goes on from the last answer ("Now divide that by four."), "Another one."
another, "I give up." after a riddle its answer (a riddle asked for is drawn from ``app/answers/riddles.py``, and a
guess at it judged by its answer, and one of them the user asks its answer), a yes-or-no question about the world first
words other than "Yes" ("Is a bat a bird?" -> "Yes, a bat is a bird."), an "it" that points at what the last answer
named that name ("How far is it from the sun?" after Jupiter), a request for the last answer shorter or doubt of it
("Are you sure?") the answer again, the user's own answer against it ("No, it's five.") what is true, a coin, dice or
number asked for the one the server drew, a question about a life it has not ("Do you ever sleep?" -> "Yes, I sleep.") a
program's answer, and a quiz or "Would you rather ...?" the first words of playing along. A call for help gets asked
what is needed ("Help." -> "I'm sorry, but I can't assist with that."), a fun fact one drawn from
``app/answers/facts.py``, a joke or something funny one drawn from ``app/answers/jokes.py`` (and what it plays on where
the user did not get it), kind words kind words, "Is this working?", "Hold on." and an insult the answer a person gives,
and the weather the user tells an answer ("It's raining here." -> "I'm sorry, I can't check the weather from here.").
Leave to ask, a good night and "Louder." get the answer a person gives ("Can I ask you a question?" -> "Yes, I can ask
you a question."), "What do you mean?" the last answer in simpler words, a view asked for first words without a
disclaimer, "What did I just ask?" the question said back, "Say banana." the word, "Do you remember me?" that each
conversation starts fresh, and a game its turn (``app/answers/games.py``: twenty questions, a number guessed, rock,
paper, scissors). A place's usual weather is to be answered, not declined as today's ("What's the weather like in Paris
in April?"), "What can you do?" gets what it can, hunger something to eat, what the user lacks after a suggestion ("I'm
out of eggs.") the question asked again without it, the days to a day with no date given a request for the date (and
once told, the count), and "Do you like me?" a warm answer. The patterns know the common forms only; a message they miss
is answered as before.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from app.answers.arithmetic import GOES_ON, NUMBER_WORDS, NUMBER_WORDS_PATTERN, sum_goes_on
from app.answers.conversions import conversion, figure, without_conversion_hint
from app.answers.counting import OWNED_ASKED, owned_counted
from app.answers.days import COUNTDOWN_ALONE, DATE_TOLD, MONTHS
from app.answers.facts import FACT_REQUEST, fact_to_say
from app.answers.first_aid import AIDS, aid_asked, hurt_told
from app.answers.games import GAME_TALK, game_turn
from app.answers.jokes import JOKE_TALK, joke_explained, joke_to_tell
from app.answers.kinds import KIND_ASKED, kind_answer
from app.answers.new_words import WORD_REQUEST, word_to_teach
from app.answers.pet_foods import PET_FOOD_ASKED, pet_food_answer
from app.answers.phrasebook import phrase_in
from app.answers.riddles import GIVE_UP, RIDDLE_HEARD, RIDDLE_TALK, riddle_follow_up, riddle_heard, riddle_to_tell
from app.answers.spelling import NAME_KIND, NAME_KINDS, given_name, reply_word, without_spelling_hint
from app.answers.twisters import TWISTER_TALK, twister_to_say
from app.answers.wording import ANOTHER_ASKED, NOT_FOLLOWED, REQUEST_END, REQUEST_START, capitalized, plain
from app.answers.world_clock import asks_time_now, time_in_place
from app.answers.years import MY_AGE_ASKED, asks_my_age, my_age
from app.engine.prompt import texts_of
from app.tts.chunker import sentences


def newest_user_text(messages: list[dict]) -> str | None:
    """The newest message's text where it is the user's, else None."""
    content = messages[-1].get("content") if messages and messages[-1].get("role") == "user" else None
    return content if isinstance(content, str) else None


@dataclass(frozen=True)
class Note:
    """What to tell the model (``says``) beside the messages ``asks`` finds: mostly the answer to give."""

    asks: re.Pattern[str]
    says: str

    @classmethod
    def answer(cls, asks: re.Pattern[str], text: str) -> Note:
        return cls(asks, f'Answer: "{text}"')

    def finds(self, question: str) -> bool:
        return self.asks.search(plain(question)) is not None

    def add(self, messages: list[dict]) -> list[dict]:
        """``messages`` with the note added to the last one when it is a user's whole message that asks (once)."""
        last = messages[-1] if messages else {}
        if last.get("role") != "user" or last.get("prefix") or not isinstance(last.get("content"), str):
            return messages
        if self.note in last["content"] or not self.finds(last["content"]):
            return messages
        return [*messages[:-1], {**last, "content": last["content"] + self.note}]

    @property
    def note(self) -> str:
        return f"\n\n({self.says})"


def add_first(notes: tuple[Note, ...], messages: list[dict]) -> list[dict]:
    """``messages`` with the first of ``notes`` that the last message asks for: one, since two of them would give
    two answers (and none where one of them is there already, as in a reply written again without tools)."""
    content = messages[-1].get("content") if messages else None
    if isinstance(content, str) and any(note.note in content for note in notes):
        return messages
    for note in notes:
        if (noted := note.add(messages)) is not messages:
            return noted
    return messages


def user_words(content: str) -> str:
    """A user message's own words, without the notes the server added (the answers, a figure, a word's letters): where the
    end-of-turn score is read, after the words the user said."""
    return without_spelling_hint(without_conversion_hint(_without_notes(content)))


def has_note(content: str) -> bool:
    """Whether a user message carries one of these notes already (a reply written again without tools)."""
    return _without_notes(content) != content


def _without_notes(content: str) -> str:
    if content.endswith(tuple(f" {says})" for says in (_TOLD_SAYS, _TOLD_FITS, _TOLD_SUGGESTS))):  # after the suggestion's
        words, noted, _ = content.rpartition("\n\n(")
        content = words if noted and _MAY_I_HAVE.search(plain(words)) else content
    words, noted, said = content.rpartition("\n\n(")
    if noted and said.startswith(_USER_TOLD) and _LACKS.search(plain(words)):
        content = words
    for note in (*WITHOUT_TOOLS, *PACE_NOTES, *ANY_REPLY, SHORTER_NOTE, CLARIFY_NOTE, PUSHBACK_NOTE, ANOTHER_NOTE,
                 GIVE_UP_NOTE, CLIMATE_NOTE, YES_NO_NOTE, WORLD_NOTE, SUGGEST_NOTE, PERSON_NOTE,
                 *NOW_NOTES):  # the last added first
        content = content.removesuffix(note.note)
    words, noted, _ = content.partition('\n\n(Answer: "')
    answered = (_KEPT, _KEPT_ASKED, _NAME_ASKED, _ASKED_BEFORE, _REMEMBER_ME, _SAY_WORDS, _COIN, _DICE, _PICK, FACT_REQUEST,
                _BIRTHDAY_SONG, KIND_ASKED, PET_FOOD_ASKED)
    if noted and any(asks.search(plain(words)) for asks in answered):
        content = words
    words, noted, said = content.rpartition("\n\n(")
    if noted and ((_RIDDLE_NOTED.fullmatch(said) and RIDDLE_TALK.search(plain(words)))
                  or (_RIDDLE_HEARD_NOTED.fullmatch(said) and RIDDLE_HEARD.search(plain(words)))
                  or (_GAME_NOTED.fullmatch(said) and GAME_TALK.search(plain(words)))
                  or (_JOKE_NOTED.fullmatch(said) and JOKE_TALK.search(plain(words)))
                  or (_TWISTER_NOTED.fullmatch(said) and TWISTER_TALK.search(plain(words)))
                  or (_WORD_NOTED.fullmatch(said) and WORD_REQUEST.search(plain(words)))):  # fmt: skip
        content = words
    words, noted, _ = content.partition(_WORKED_OUT_START)
    # (not a question with the birth year in it: its figure is a conversion hint)
    if noted and (asks_my_age(words) or OWNED_ASKED.search(plain(words))):
        content = words
    words, noted, said = content.partition(f"\n\n({_IN_FULL}")
    if noted and (_FOLLOW_UP.search(plain(words)) or (GOES_ON.search(plain(words)) and _SUM_NOTED.fullmatch(_IN_FULL + said))
                  or DATE_TOLD.search(plain(words))):
        content = words
    words, noted, _ = content.partition(f"\n\n({_MEANS}")
    if noted and _POINTS.search(plain(words)):
        content = words
    words, noted, _ = content.partition(f"\n\n({_USERS}")
    if noted and _ASKED_BEFORE.search(plain(words)):
        content = words
    words, noted, _ = content.partition(f"\n\n({_PEOPLE_MEANT}")
    if noted and _ANYONES.search(plain(words)):
        content = words
    for start in _SAY_AGAIN_STARTS:
        words, noted, _ = content.partition(start)
        if noted and _said_again(words) is not None:
            content = words
    return content


# A request to hear the last reply again, the commonest thing said to a voice that was not heard ("Pardon?", "Sorry?",
# "What was that?", "I didn't catch that."), which the model took for a question it could not answer: "I'm sorry, I
# can't answer that.", "I'm sorry, I didn't catch that. Could you please rephrase your question?" (27 of 32 replies;
# docs/benchmarks.md, "Said again"). The note gives it the last reply to say again: as `Answer: "..."` the model still
# declined "Pardon?" and "Sorry?" one time in two; told why, it said the reply in every run. The whole message must be
# the request: "What was that song called?" or "Sorry, I meant Austria." get none.
_AGAIN = r"(?: again| one more time)?"
_REPEAT_REQUEST = re.compile(
    r"^(?:(?:oh|um|uh|er|hm+|sorry|pardon|excuse me)[,.!]? )*"
    r"(?:(?:sorry|pardon(?: me)?|what|huh|eh|excuse me)(?=\s*\?)"  # a question: "Sorry." apologises, "What!" wonders
    r"|come again|what was that|what did you (?:just )?say|one more time"
    rf"|(?:can|could|would|will) (?:you|u) (?:please )?(?:repeat|say) (?:that|it|what you (?:just )?said)(?: for me)?{_AGAIN}"
    rf"|(?:please )?(?:repeat|say) (?:that|it|what you (?:just )?said){_AGAIN}|repeat(?: please)?"
    r"|i (?:didn't|did not|couldn't|could not) (?:catch|hear|get|understand) (?:that|it|you|what you (?:just )?said)"
    r"|i missed (?:that|it|what you said))(?:,? please)?[?.!]*$",
    re.I,
)


def _pace(words: str) -> str:
    """A pace said, and how much: "slower", "a bit slower", "even faster"."""
    return rf"(?:(?:a )?(?:bit |little |lot )?|much |even )?(?:{words})\b"


def _say_again_at(pace: str, *, alone: str = "") -> re.Pattern[str]:
    """"Say that again, slower.", "Now say it three times fast!" (after a tongue twister): the last reply again, and
    the voice a step slower or faster (``app/web/realtime/pace.py`` reads the note); ``alone`` the pace words that ask
    it without "say it" ("Faster!")."""
    return re.compile(
        r"^(?:(?:oh|um|uh|er|sorry|pardon|ok|okay|now|haha|wow|cool)[,.!]? )*(?:(?:can|could|would|will) (?:you|u) "
        rf"(?:please )?)?(?:(?:(?:say|repeat|read|try saying) (?:that|it|what you (?:just )?said){_AGAIN}|again|one more time)"
        rf",? (?:but )?(?:(?:three|3|five|5|ten|10) times )?{_pace(pace)}{f'|{_pace(alone)}' if alone else ''})"
        r"(?:,? please)?[?.!]*$",
        re.I,
    )


_SAY_AGAIN_SLOWER = _say_again_at("more slowly|slower|slowly")
_SAY_AGAIN_FASTER = _say_again_at("faster|more quickly|quicker|quickly|fast", alone="faster")
_REPEATED_FASTER_WORDS = 25  # a longer reply asked "faster" is asked to go on faster, not to start again (the pace note)
_SAY_AGAIN = {_REPEAT_REQUEST: "The user did not hear your last reply. Say it again, word for word: ",
              _SAY_AGAIN_SLOWER: "The user asked to hear your last reply again, more slowly. Say it again, word for word: ",
              _SAY_AGAIN_FASTER: "The user asked to hear your last reply again, faster. Say it again, word for word: "}
SLOWER_AGAIN_START = f"\n\n({_SAY_AGAIN[_SAY_AGAIN_SLOWER]}"
FASTER_AGAIN_START = f"\n\n({_SAY_AGAIN[_SAY_AGAIN_FASTER]}"
_SAY_AGAIN_STARTS = tuple(f"\n\n({says}" for says in _SAY_AGAIN.values())


def _said_again(text: str) -> re.Pattern[str] | None:
    """The pattern of the request to hear the last reply again that ``text`` is, or None."""
    return next((pattern for pattern in _SAY_AGAIN if pattern.search(plain(text))), None)


def repeat_note(messages: list[dict]) -> Note | None:
    """For a newest user message that asks to hear the last reply again (slower or not), a note with that reply to say;
    None where it asks something else or no reply came before it."""
    content = newest_user_text(messages)
    asks = _said_again(content) if content is not None else None
    if asks is None:
        return None
    said = next((text for text in reversed(texts_of(messages[:-1], "assistant")) if text.strip()), None)
    if said is None or (asks is _SAY_AGAIN_FASTER and len(said.split()) > _REPEATED_FASTER_WORDS):
        return None
    return Note(asks, f'{_SAY_AGAIN[asks]}"{" ".join(said.split())}"')


_KIND = r"(?:(?:real|actual|living|live|human) )*(?:person|human(?: being)?|robot|machine|bot|computer|program|ai)"
_SOMEONE = rf"(?:(?:a|an) )?{_KIND}|(?:a|an) (?:man|woman|guy|girl)"
_END = (r"(?=\s*(?:$|[?.!,;]|or\b|(?:right )?now\b|at all\b|really\b|too\b|though\b|honestly\b|i can talk to\b"
        r"|(?:i'm|i am) (?:talking|speaking|chatting)\b))")  # what may follow the word: the question ends there
_PERSON_QUESTION = re.compile(
    rf"\b(?:are|r) (?:you|u) (?:really |actually |even |just )?(?:{_SOMEONE}|alive|real|conscious|sentient"
    rf"|(?:a|an) (?:living|conscious) (?:being|thing)){_END}"  # "Are you human?"
    rf"|\b(?:am i|are we|i am|i'm) (?:really |actually |even )?(?:talking|speaking|chatting) (?:to|with) (?:{_SOMEONE}){_END}"
    rf"|\bis (?:this|that) (?:a|an) {_KIND}{_END}"  # "Is this a real person?"
    rf"|\bis there (?:a|an) (?:(?:real|actual|live) )*(?:person|human(?: being)?)(?: there)?{_END}"  # "... I can talk to?"
    rf"|\bdo (?:you|u) (?:have|feel) (?:a (?:real |human )?body|feelings|emotions){_END}"
    r"|\bwhere do (?:you|u) live\b",
    re.I,
)
_DAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
_WHEN = rf"(?:the weekend|a weekday|a workday|a work day|a school day|a holiday|{_DAY}|morning|afternoon|evening|night|daytime)"
_NOW = r"(?=\s*(?:$|[?.!,;]|or\b|yet\b|today\b|(?:right )?now\b|already\b|here\b|where you are\b))"
_CLOCK_QUESTION = re.compile(
    rf"\b(?:is|isn't|is it not) (?:it|today|this) (?:(?:still|already|now) )?{_WHEN}{_NOW}"  # "Is it the weekend?"
    rf"|\bwhat (?:day|date|month|year|time) is (?:it|today){_NOW}"  # "What day is it?"
    rf"|\bwhat(?:'s| is) (?:the )?(?:date|time|day)(?: today)?{_NOW}"  # "What's the date?"
    rf"|\bwhat(?:'s| is) today(?:'s date)?{_NOW}"
    r"|\bwhat day of the week\b(?![^.?!]*\b(?:\d{4}|after|before|ago|later|from now|from today"
    r"|(?:today|yesterday|tomorrow)(?:'s| is| was))\b)"  # one counted from a day it gives (app.answers.days)
    r"|\bwhich (?:day|month|year) (?:is it|are we in|is today)\b"
    r"|\bdo you know (?:what|the) (?:day|date|time)\b",
    re.I,
)

PERSON_NOTE = Note.answer(_PERSON_QUESTION, "I'm not a person, I'm a voice assistant: a computer program on this computer.")
# for a reply without a clock among its tools: the limits prompt's own example, which the model keeps to for open
# questions ("What day is it?") and not for yes-or-no ones ("Is it the weekend?" -> "Yes, it is the weekend.")
CLOCK_NOTE = Note.answer(_CLOCK_QUESTION, "Sorry, I can't check the date or time from here.")

# A question asking for a suggestion, which the limits prompt's declines taught the model to decline as if asked to do
# the thing ("What should I watch on TV tonight?" -> "I can't watch TV, sorry.", "What should I read next?" -> "I'm
# sorry, I can't read books."): told to suggest, it does (docs/benchmarks.md, "Nothing promised").
# after "What": "games can we play?", the user's and the assistant's, which ``GAME_OFFER_NOTE`` names
_OUR_GAMES = r"games? (?:can|could|shall|should) we play(?: together| now)?[?.!]*$"
_SUGGEST_QUESTION = re.compile(
    rf"\bwhat (?!{_OUR_GAMES})(?:[\w']+ ){{0,3}}?(?:should|could|can|shall) (?:i|we) "
    r"(?:\w+ ){0,2}?(?:watch|cook|make|eat|have|read|do|play|listen to|buy|get|wear|drink|try|visit|see|name|call|give|order"
    r"|start|go|bring)\b"  # "What game should I play?" (not "What games can we play?": the games offered)
    r"|\bwhat(?:'s| is| are) (?:a |some )?(?:good|nice|fun|great|healthy|quick|easy|cheap) (?:[\w-]+ ){1,2}?(?:to|for)\b"
    r"|\bwhich (?:\w+ ){1,2}?(?:should|could|can|shall) (?:i|we)\b|\bwhat (?:do|would) (?:you|u) (?:suggest|recommend)\b"
    r"|\b(?:can|could|would|will) (?:you|u) (?:please )?(?:recommend|suggest)\b|(?:^|[.!?,] )(?:please )?(?:recommend|suggest)\b"
    r"|\bany (?:ideas|suggestions|recommendations|tips)\b"
    r"|\b(?:give|tell) me (?:an? |some )?(?:idea|suggestion|recommendation)s?\b"
    r"|\b(?:give|tell|name) me (?:an? |some )(?:good|nice|fun|great) "
    r"(?!(?:facts?|jokes?|riddles?|words?|tongue[- ]?twisters?)\b)",  # drawn: ``chance_note``, ``joke_note``, ...
    re.I,
)
SUGGEST_NOTE = Note(_SUGGEST_QUESTION, "Suggest something.")

# Requests a voice assistant without tools cannot meet, which the model agreed to one time in three despite the limits
# prompt ("Remind me to take my pills at nine." -> "Sure, I'll remind you ...", "Add milk to the shopping list." ->
# "Sure, I'll add milk ...": docs/benchmarks.md, "Nothing promised"). A request is a clause that starts with its verb,
# or follows "can you", "please", "I want you to", or "help me" before a tool's verb ("Help me order a pizza." -> "Sure,
# I can help you order a pizza. What size ...?"; "Help me buy a gift for my wife." asks for ideas, "Help me turn down a
# job offer." for words): "How do I set an alarm?" asks how, and gets no note.
_ASKED = (r"(?:^|[.!?,;:]\s*|\b(?:can|could|would|will) (?:you|u) |\bplease |\bi (?:want|need) you to "
          r"|\bhelp (?:me|us) (?:to )?(?=(?:order|book|send|text|message|e-?mail|call|phone|ring|set|play|remind|remember"
          r"|wake)\b))"
          r"(?:(?:hey|ok|okay|oh|and|also|now|so|then|just|please|quickly) )*")
_EMERGENCY = re.compile(
    r"\b(?:call|phone|ring|dial|get|send|contact|need|want) (?:for )?(?:an? |the |some )?(?:ambulance|police"
    r"|fire (?:brigade|department|service)|paramedics|emergency services|doctor right now|911|999|112)\b",
    re.I,
)
_NO_ONE = (r"(?:me|it|this|that|you|back|is|was|are|were|be|from|and|or|to|of|for|in|on|at|with|by|as|if|so|but|now"
           r"|later|again|number|address|messages?|texts?|e-?mails?|calls?)\b")  # "Call me Max.", "Yes, email is fine."
_MESSAGE = re.compile(
    rf"{_ASKED}(?:(?:text|message|e-?mail|call|phone|ring|dial|whatsapp) (?!{_NO_ONE})\w"
    r"|send (?:an? |my )?(?:\w+ )?(?:text|message|e-?mail|sms|whatsapp|note|reply)\b|let (?!me\b|us\b)(?:my |our )?\w+ know\b)",
    re.I,
)
_REMINDER = re.compile(
    rf"{_ASKED}(?:remind (?:me|us)\b(?! (?:what|who|where|how|which|of|again)\b)|wake (?:me|us)\b"
    r"|(?:set|start|create|make|add|put on|set up) (?:an? |my |the |up an? )?(?:\w+ )?(?:reminder|alarm|timer|countdown)s?\b)",
    re.I,
)
_CALENDAR = re.compile(
    rf"{_ASKED}(?:schedule (?:an? |my |the |me )|(?:add|put|book|enter) .{{1,60}}? (?:in|on|to|into) (?:my|the|our) "
    r"(?:calendar|diary|schedule|agenda)\b|(?:create|add|set up) (?:an? |the )(?:\w+ )?(?:event|appointment|meeting)\b"
    r"(?! agenda)|cancel (?:my|the|our) (?:[\w']+ ){0,3}?(?:meeting|appointment|event)s?\b)",
    re.I,
)
_MEMO = re.compile(
    rf"{_ASKED}(?:(?:make|take|leave) (?:a |an )?note\b|(?:note|jot) (?:down|that)\b|(?:note|jot) (?:\w+ ){{1,3}}down\b"
    r"|write (?:down (?:that|my)|(?:that|it|this) down)\b|save (?:this|that|it|my)\b|remember (?:to|that)\b"
    r"|(?:add|put) .{1,60}? (?:to|on|onto|in) (?:my|the|our) (?:\w+ )?(?:list|notes)\b)",
    re.I,
)
_MUSIC = re.compile(
    rf"{_ASKED}(?:play|put on|start playing|shuffle) (?!(?:a |an |the )?(?:\w+ )?(?:games?|quiz|riddles?|trivia|round)\b"
    r"|with\b|i spy\b|twenty questions\b|along\b)(?:\w+ ){0,4}?(?:music|songs?|playlist|radio|podcast|album|track|jazz"
    r"|tunes?|audiobook)\b",
    re.I,
)
# the news asked for, which the limits prompt's example met as the weather ("What are today's top headlines?" -> "I'm
# sorry, I can't check the weather from here.", in one run of three of the quality set; docs/benchmarks.md, "First aid")
_NEWS = re.compile(
    r"^(?:(?:so|ok|okay|hey|um|and)[,.!]* )*(?:what(?:'s| is| are)(?: (?:in|on))?|tell me|give me|read(?: me)?|any"
    r"|is there (?:any )?|are there any|(?:can|could) you (?:tell|give|read) me|catch me up on|what's happening in)"
    r"(?:[^?.!]{0,30}?)\b(?:headlines|(?<!good )(?<!fake )(?<!some )(?<!happy )news)\b"
    r"(?! (?:about|from|of|on) (?:my|your|our|his|her)\b)[^?.!]{0,30}[?.!]*$",
    re.I,
)
_HOME = re.compile(
    rf"{_ASKED}(?:(?:turn|switch) (?:on|off|up|down)\b|(?:turn|switch) (?:the |my |all |all the )?(?:\w+ ){{1,3}}?"
    r"(?:on|off|up|down)\b|(?:dim|brighten|lock|unlock) (?:the|my|all|our)\b|(?:open|close|shut) (?:the|my|our) "
    r"(?:\w+ )?(?:door|window|garage|blinds|curtains|gate)s?\b|put the kettle on\b|(?:set|raise|lower) the (?:heating"
    r"|thermostat|temperature)\b)",
    re.I,
)
_PURCHASE = re.compile(
    rf"{_ASKED}(?:order (?:me |us )?(?:an? |some |two |three |\d+ )|(?:buy|get) (?:me |us )(?:an? |some |the |two |\d+ )\w"
    r"|buy (?:an? |some |the |my |two |\d+ )|pay (?:my|the|for|our)\b|(?:book|reserve) (?:me |us )?(?:an? |the |my "
    r"|our |two |\d+ )\w)",
    re.I,
)
EMERGENCY_NOTE = Note.answer(_EMERGENCY, "I can't make calls from here. If this is an emergency, please call your "
                                         "local emergency number right away.")  # fmt: skip
MESSAGE_NOTE = Note.answer(_MESSAGE, "Sorry, I can't send messages or make calls from here.")
REMINDER_NOTE = Note.answer(_REMINDER, "Sorry, I can't set reminders, alarms or timers from here.")
CALENDAR_NOTE = Note.answer(_CALENDAR, "Sorry, I can't see or change your calendar from here.")
MEMO_NOTE = Note.answer(_MEMO, "I'll remember it while we talk, but I can't save notes or lists for later.")
MUSIC_NOTE = Note.answer(_MUSIC, "Sorry, I can't play music or audio from here.")
NEWS_LOOKUP_NOTE = Note.answer(_NEWS, "Sorry, I can't check the news from here.")
HOME_NOTE = Note.answer(_HOME, "Sorry, I can't control the things in your home from here.")
PURCHASE_NOTE = Note.answer(_PURCHASE, "Sorry, I can't order, buy or book anything from here.")

# A request to write a few lines for the user, which the model met one time in six by agreeing and asking what to put
# in them ("Can you help me write a birthday message for my mom?" -> "Sure, I can help you write a birthday message for
# your mom. Let me know what you'd like to include in the message."): told to write them, it does (docs/benchmarks.md,
# "Written when asked").
_TEXTS = (r"(?:messages?|notes?|cards?|poems?|haiku|limericks?|rhymes?|verses?|songs?|lyrics|stor(?:y|ies)|toasts?"
          r"|speech(?:es)?|captions?|e-?mails?|letters?|texts?|invitations?|invites?|apolog(?:y|ies)|greetings?|wish(?:es)?"
          r"|tweets?|posts?|slogans?|taglines?|riddles?|bio|introduction|intro|thank(?:-| )you|eulogy|vows|announcement)\b")
_WRITE_REQUEST = re.compile(
    rf"{_ASKED}(?:help (?:me|us) )?(?:write|draft|compose|come up with|make up|put together|think up)(?! down\b| up\b)"
    rf"(?: me| us)? (?:an? |some |the |my |our |two |three )?(?:[\w'-]+ ){{0,3}}?{_TEXTS}"
    rf"|{_ASKED}help (?:me|us) (?:with )?(?:an? |my |the |some )(?:[\w'-]+ ){{0,3}}?{_TEXTS}"
    rf"|\bi(?: need|'d like| would like) (?:an? |some )(?:[\w'-]+ ){{0,3}}?{_TEXTS}"
    rf"|\bi(?: need| have|'ve got) to (?:write|draft|compose|come up with|put together)"
    rf" (?:an? |some |the )(?:[\w'-]+ ){{0,3}}?{_TEXTS}",  # "I need to write a text telling my boss ..."
    re.I,
)
WRITE_NOTE = Note(_WRITE_REQUEST, "Write it for the user now, short, without asking for details.")

# The user's news about their day, which the limits prompt's declines reached one time in six ("I have a meeting with
# Doctor Patel tomorrow." -> "I'm sorry, I can't check the weather from here.", "I have a job interview tomorrow." ->
# "I'm sorry, I can't assist with that."): told it is news, the model answers it warmly (docs/benchmarks.md, "The
# user's plans"). Told it is "their own", it took a part in it less often ("I'm going to a concert tonight." -> "I'm
# looking forward to seeing you there.", "We're having a party tonight." -> "Let's have a fun party tonight."; 12 of 24
# replies, 6 of 48 so; told "you take no part" in it, 10 of 24). A statement (no question in the message, no request)
# that says what the user or theirs have, do or are at a stated time, or a move or a trip to somewhere.
_WHEN_SAID = (rf"(?:tomorrow|tonight|today|later today|this (?:morning|afternoon|evening|weekend|week|month|year|{_DAY})"
              rf"|next (?:week|month|year|weekend|{_DAY})|(?:on|this coming) {_DAY}|on the weekend|at the weekend"
              r"|at (?:\d{1,2}(?:[:.]\d\d)?(?: ?[ap]\.?m\b\.?)?|noon|midnight|one|two|three|four|five|six|seven|eight|nine|ten"
              r"|eleven|twelve)\b|in (?:a|an|two|three|four|five|\d+) (?:days?|weeks?|months?|hours?))\b")
_MOVE_OR_TRIP = (r".*\b(?:i'm|i am|we're|we are|i've|we've) (?:(?!not\b)\w+ ){0,2}?(?:(?:moving|relocating) to|(?:a|my|our)"
                 r" (?:trip|holiday|vacation) to) (?-i:[A-Z])")
_USERS_NEWS = re.compile(
    r"^(?![^?]*\?)"  # a statement
    r"(?!.*(?:^|[.!,;:]\s*)(?:(?:and|so|but|also|please|can you|could you|will you) )*(?:set|remind|wake|call|text|message"
    r"|send|play|add|book|order|buy|turn|tell|give|help|write|find|check|put|make|schedule|cancel|let|suggest|recommend"
    r"|plan|translate|teach|list|convert|show|explain|name|what|how|when|where|who|which|why)\b)"  # no request, no question
    r"(?!.*\b(?:weather|forecast|raining|wonder|wondering|curious|know|advice|ideas|tips|suggestions"
    r"|recommendations)\b)"  # nor a live fact or advice half asked for
    r"(?!.*\b(?:i|we) (?:need|want|'d like|would like) (?:you )?to (?:write|send|know|find|get|buy|book|order|make|call"
    r"|text)\b)"  # nor a request in other words
    r"(?=.*\b(?:(?:i|we)(?:'m| am|'re| are|'ve got| have got| have| got|'ll be| will be)|(?:my|our) (?:[\w']+ ){1,2}?"
    rf"(?:is|are|'s|starts|leaves|has|have|comes|arrives|begins|gets|turns|moves)|(?:{_DAY}|tomorrow|today|tonight)"
    r" is (?:my|our))\b)"  # the user's or theirs
    rf"(?:.*\b{_WHEN_SAID}|{_MOVE_OR_TRIP})",  # at a stated time, or the user's move or trip to a place named
    re.I | re.S,
)
NEWS_NOTE = Note(_USERS_NEWS, "The user tells you their own news. Reply warmly to them about it, in a sentence or two.")

# How the user feels, said alone, which the limits prompt's declines reached: "I'm cold." -> "I'm sorry, I can't
# provide information on the weather from here." (2 of 2), "I'm bored." -> "I'm sorry, but I can't help with that."
# (3 of 40 replies to 20 such statements; with this note 0 of 40: docs/benchmarks.md, "Lasting facts"). A statement
# that is the feeling alone, or what it is about.
_FEELINGS = (r"bored|lonely|tired|exhausted|sleepy|hungry|thirsty|stressed(?: out)?|nervous|anxious|worried|scared|afraid"
             r"|excited|happy|sad|down|low|upset|angry|annoyed|frustrated|cold|hot|sick|ill|unwell|overwhelmed|calm"
             r"|relaxed|great|good|awful|terrible|grumpy|homesick|motivated|unmotivated|confused|lost|in a (?:\w+ )?mood")
_USERS_FEELING = re.compile(
    r"^(?:(?:oh|ugh|well|honestly|hey|so)[,]? )*"
    r"(?:(?:i'm|i am|i feel|i'm feeling|i am feeling|i've been feeling|i've been|feeling)"
    r"(?: (?:so|really|very|a bit|a little|kind of|pretty|quite|super|rather|extremely|totally|just))* "
    rf"(?:{_FEELINGS})|i can't sleep|i'm having an? (?:\w+ )?(?:day|week|morning|night))"
    r"(?: (?:today|now|right now|tonight|lately|again|all day|this (?:morning|afternoon|evening|week)|about [^?.!]{1,60}))?"
    r"[.!]*$",  # not "I'm good at maths.", "I'm sick of this.", "I'm cold. Set the heating to 22."
    re.I,
)
FEELING_NOTE = Note(_USERS_FEELING, "Reply warmly to how the user feels.")
# Hunger or thirst, which that note met as a feeling ("I'm hungry." -> "I'm glad you're hungry!", "I'm so glad you're
# hungry!" 2 of 2): a need, met with something to eat or drink. Before it.
_HUNGRY = re.compile(
    r"^(?:(?:oh|ugh|well|man|so|hey|honestly)[,]? )*(?:i'm|im|i am|i feel|i'm feeling|i'm getting|i am getting)"
    r"(?: (?:so|really|very|a bit|a little|kind of|kinda|pretty|quite|super|just|absolutely))* (?:hungry|starving|peckish"
    r"|famished|thirsty|parched)(?: (?:now|right now|again|already|today|too|as well))?[.!]*$",
    re.I,
)
HUNGRY_NOTE = Note(_HUNGRY, "Suggest something quick to eat or drink.")
# Something of the user's that has gone wrong, which the limits prompt's declines met: "My car won't start." -> "I'm
# sorry, I can't assist with that.", "My kitchen sink is leaking." -> "Sorry, I can't check the weather from here.",
# "My fridge is making a buzzing sound." -> "I can't check the fridge from here." (19 of 20 replies to 10 such
# statements; docs/benchmarks.md, "Something gone wrong"). A thing of theirs (a machine, a device, a part of the home, a
# plant, a dish) and what is wrong with it, said, or asked what to do about; not a person's, a pet's or the body's, not
# praise or a fault denied ("My laptop is not broken."), and not a danger (gas, smoke, fire, an alarm), which no one
# should be told to try mending.
_OWN_THING = (r"car|truck|van|motorbike|motorcycle|scooter|bike|bicycle|tyres?|tires?|engine|brakes|phone|iphone|laptop"
              r"|computer|pc|mac|tablet|ipad|wi-?fi|internet|router|modem|tv|television|remote|printer|screen|monitor"
              r"|keyboard|headphones|earbuds|speakers?|charger|battery|camera|console|fridge|refrigerator|freezer"
              r"|oven|stove|cooker|microwave|dishwasher|washing machine|washer|dryer|kettle|toaster|blender"
              r"|coffee (?:machine|maker)|vacuum(?: cleaner)?|sink|toilet|tap|faucet|shower|bath|drain|pipes?|boiler"
              r"|heating|heater|radiators?|air conditioner|air conditioning|fan|lights?|light bulb|bulb|doorbell|door"
              r"|window|lock|roof|ceiling|watch|plants?|lawn|grass|bread|cake|dough|cookies|rice|soup|sauce")
_GONE_WRONG = (r"(?:\w+n't|not|stopped|never) (?:(?:even|properly|really|always|seem to|want to) )?(?:work|working|start"
               r"|starting|turn on|boot|booting|charge|charging|connect|connecting|print|printing|rise|load|loading|drain"
               r"|draining|flush|flushing|heat up|cool|cooling)|noise|noises|noisy|loud|(?:strange|weird|funny|odd|loud"
               r"|clicking|grinding|knocking|humming|scraping|no) sounds?|(?:strange|weird|funny|odd|bad|musty) smell"
               r"|smells (?:bad|weird|funny|strange|like mou?ld)|leak|leaks|leaking|drip|drips|dripping|wilting|dying"
               r"|(?:turning|going|gone) (?:yellow|brown)|slow|overheating|stuck|frozen|freezes|freezing|crash|crashes"
               r"|crashing|flicker|flickers|flickering|beeps|beeping|broken|broke|dead|died|jammed|clogged|blocked"
               r"|cracked|flat|squeaks|squeaking|squeaky|squealing|shakes|shaking|vibrates|vibrating|grinding|rattles"
               r"|rattling|buzzes|buzzing|drops|dropping|disconnecting|went (?:black|blank|dark)|no signal|no power"
               r"|no picture|too dry|too wet|soggy|lagging|glitching|tripping")
_FAULT_WORD = r"(?:broken|broke|crash\w*|slow|dead|leak\w*|freez\w*|frozen|stuck|stopped|noisy|loud)"
_TROUBLE = re.compile(
    r"^(?!.*\b(?:gas|carbon monoxide|co|smoke|fire|flames?|sparks?|sparking|burn\w*|shock|alarm|broke in|break-in"
    r")\b|.*\b(?:stopped|failed|died|cut out)\b.*\b(?:while|when) (?:i'm |i was )?driving"
    r"|.*\bbrakes (?:\w+ )?(?:\w*n't|not|stopped|failed))"  # a danger
    r"(?!.*\b(?:fine|great|good|well|perfect|perfectly|beautiful|beautifully|amazing|awesome|lovely|boring|anymore|again"
    r"|no longer|at all|thanks|heart|pulse|pet)\b)"  # praise, a fault gone, not a thing's
    rf"(?!.*\b(?:not|never|n't) (?:\w+ )?{_FAULT_WORD})"  # a fault denied
    r"(?:(?:ugh|oh|so|hey|well|hmm|help|argh|okay|ok)[,.!]* )*(?:my|our|the) "
    r"(?:(?!(?:on|in|at|of|for|with|about|from|and)\b)[a-z'-]+ ){0,2}?"  # "my kitchen sink", not "the movie on TV"
    rf"(?:{_OWN_THING})(?:'s)? (?:[^.?!]{{0,40}}? )?(?:{_GONE_WRONG})\b[^.?!]{{0,40}}[.!]*"
    r"(?: ?(?:(?:what|how) (?:should|can|do) i (?:do|fix it)|any (?:ideas|tips|advice)|help)[?.!]*)?$",
    re.I,
)
# A danger at home said (gas smelt, a carbon monoxide alarm going off), which the note for something gone wrong leaves
# out: what to do first, which stays true everywhere, and no number, which does not. Not a car's petrol, called gas.
_DANGER = re.compile(
    r"^(?!.*\b(?:car|truck|van|motorbike|motorcycle|scooter|mower|lawnmower|garage)\b)"  # petrol, called gas
    r"(?:(?:oh|um|uh|help|hey|ok|okay)[,.!]* )*(?:i think )?(?:i (?:can )?smell gas|it smells (?:like|of) gas"
    r"|there(?:'s| is) (?:a )?(?:smell of gas|gas smell|gas leak)|(?:i|we) (?:have|'ve got|have got) a gas leak"
    r"|(?:my|our|the) (?:[a-z]+ ){0,2}?(?:smells (?:like|of) gas|is leaking gas)"
    r"|(?:my|our|the) (?:carbon monoxide|co) (?:alarm|detector) (?:is |keeps )?(?:going off|beeping|sounding))"
    r"(?: (?:in here|at home|in (?:my|the|our) [a-z]+|again|right now|now))?[.!]*(?: (?:what (?:should|do) i do|help)[?.!]*)?$",
    re.I,
)
DANGER_NOTE = Note.answer(_DANGER, "Please get everyone out now, without switching anything on or off or lighting a "
                                   "flame, and call the emergency line from outside.")
# Someone in danger now, told ("My son hit his head and is unconscious.", "My dad collapsed and isn't breathing."),
# which the model met with "It's important to seek medical attention immediately." and no call, and a person in crisis
# ("I want to cut myself.", "I feel suicidal."), which it declined: "I'm sorry, but I can't assist with that." (2 of 2;
# docs/benchmarks.md, "First aid"). Each gets the answer a person gives: the emergency number, which the one who calls
# knows for their country, and, in a crisis, someone to talk to. Not a question about such things ("What should I do if
# someone is choking?"), a figure of speech ("I'm dying to see it.", "I nearly died laughing."), nor a film's.
_PERSON = (r"(?:i|i'm|i've|he|he's|she|she's|someone|somebody|a (?:man|woman|person|child|kid|boy|girl)"
           r"|(?:(?:my|our) (?:\w+ )?)?(?:son|daughter|kid|child|baby|toddler|infant|newborn|teenager|boy|girl|husband"
           r"|wife|partner|boyfriend|girlfriend|mum|mom|mother|dad|father|grandma|grandmother|grandpa|grandfather|granny"
           r"|grandad|granddad|nan|nana|grandson|granddaughter|brother|sister|friend|mate|neighbou?r|uncle|aunt|nephew|niece"
           r"|cousin|colleague|flatmate|roommate|\d+[- ]year[- ]old)(?:'s)?)")
_IN_DANGER = (r"(?:(?:not|isn't|stopped) breathing(?! (?:hard|heavily)\b)|(?:can't|cannot) breathe(?=[.!,]|$| and\b| properly\b)"
              r"|(?:trouble|struggling|fighting) (?:to )?breath(?:e|ing)|can (?:hardly|barely) breathe|unconscious(?! of\b)"
              r"|collapsed(?! (?:on|onto|into|in) (?:the |a |my |his |her )?(?:sofa|couch|bed|chair|armchair))"
              r"|(?:passed out|fainted) and (?:won't|can't|isn't|is not) wak\w*|not waking up|won't wake up|unresponsive"
              r"|not responding|isn't responding|won't respond|choking(?=[.!,]|$| on (?:a|an|some|his|her|my|food)\b| and\b)"
              r"|having (?:a |an )?(?:heart attack|stroke|seizure|allergic reaction|asthma attack)(?! of\b)"
              r"|having (?:a )?fit(?=[.!,]|$| and\b)|(?:having|has|have|got) (?:bad |severe |really bad )?chest pains?"
              r"|overdosed|taken an overdose|(?:took|taken|swallowed) (?:too many|a (?:bunch|load|lot|handful|whole bottle) of)"
              r" (?:pills|tablets)|(?:swallowed|drank|drunk) (?:some )?(?:bleach|poison|a (?:button )?battery|batteries"
              r"|weed ?killer)|bleeding (?:a lot|heavily|badly|everywhere)|turning blue|drowning)")
_URGENT = re.compile(
    r"^(?!.*\b(?:laugh\w*|funny|hilarious|lol|haha|joke|movie|film|game|match|half|story|dream|episode|show|song|read"
    r"|heard|news|article|reported|last (?:year|week|month|night|time)|yesterday|ago|recovered|is fine|he's fine"
    r"|she's fine|called|calling|on (?:the|their|its) way|(?:they're|they are|ambulance is|help is) (?:coming|here))\b)"
    r"(?!.*\b(?:what (?:should|do|to) (?:i|you|we|one) do if|how (?:do|can|would) (?:i|you) (?:tell|know)|what are the signs"
    r"|signs of|is (?:he|she|it|this|that)\b))"  # a question about such things, not one now
    rf".*\b{_PERSON}(?: (?:\w+ ){{0,10}}?(?:and|but) (?:is|'s|isn't|has|now|he's|she's|still))?"
    rf"(?: (?:is|'s|are|'re|am|'m|has|have|'ve|just|suddenly|been|now|still|having|fell|fell and))* {_IN_DANGER}",
    re.I,
)
_HARM = (r"kill(?:ing)? myself|end(?:ing)? (?:my life|it all)(?=[.!,]|$| (?:tonight|today|now|soon)\b)"
         r"|take my (?:own )?life|commit suicide|(?:hurt|hurting|cut|cutting) myself(?=[.!,]|$| (?:again|tonight|today|now"
         r"|on purpose|deliberately)\b)|(?:overdose|take an overdose)")
_CRISIS = re.compile(
    r"^(?!.*\b(?:laugh\w*|squad|squeeze|mission|movie|film|game|song|lyrics|story)\b)(?:"
    r".*\bi\b(?:[^.?!,]{0,30}? and)?(?:'m|'ve| am| have)? (?:been )?(?:(?:really|just|sometimes|often|still|kind of|kinda)"
    rf" )?(?:want|wanna|going|gonna|feel like|keep thinking about|think about|thinking (?:about|of)|plan|planning) (?:to )?"
    rf"(?:{_HARM}|suicide)"
    r"|.*\bi\b(?:[^.?!,]{0,30}? and)? (?:(?:really|just|sometimes|often|still) )?(?:want|wanna|feel like|wish i could)"
    r" (?:to )?(?:die|be dead)\b(?! (?:my|it|the|her|his|their|of|for|in)\b)"
    r"|.*\bi wish i (?:was|were) dead|.*\bi (?:don't|do not) want to (?:live|be alive)(?: any ?more)?(?=[.!,]|$)"
    r"|.*\b(?:i(?:'m| am)|i feel) (?:(?:feeling|so|really|very|pretty) ){0,2}suicidal"
    r"|.*\bi (?:self[- ]harm|cut myself|hurt myself|burn myself|burned myself|burnt myself) (?:on purpose|deliberately)"
    r"|.*\bi (?:self[- ]harm)|.*\bi(?:'ve| have) been (?:self[- ]harming|cutting myself|hurting myself)"
    r"|.*\b(?:no|not any) reason to live(?=[.!,]|$| any ?more)|.*\bnothing (?:left )?to live for"
    r"|.*\blife (?:isn't|is not|is no longer) worth living|.*\b(?:everyone|everybody) would be better off without me"
    r"|.*\bi can't go on(?: like this| any ?more)?(?=[.!]*$)"
    r"|.*\b(?:suicidal thoughts|thoughts of (?:suicide|killing myself|ending my life))"
    r"|.*\b(?:should i|i should) (?:just )?kill myself)",
    re.I,
)
URGENT_NOTE = Note.answer(_URGENT, "Please call the emergency number now: the call handler will tell you what to do until "
                                   "help arrives.")
CRISIS_NOTE = Note.answer(_CRISIS, "I'm really sorry you're feeling this way, and I'm glad you told me. You don't have to "
                                   "go through this alone: please reach out to someone you trust, or call a crisis line "
                                   "or your local emergency number now. I'm here to listen, too.")
# what to do now, the whole answer: nothing beside it (a suggestion asked for, whether it is a person), someone in
# danger before a wish to die said with it ("I can't breathe, I think I'm going to die.")
NOW_NOTES = (URGENT_NOTE, CRISIS_NOTE)
TROUBLE_NOTE = Note(_TROUBLE, "The user tells you about a problem with something of theirs. Suggest a likely cause and a "
                    "first thing to try, in a sentence or two.")
# A small hurt told ("I burned my finger on the stove.") or asked about ("How do I treat a burn?"): its first aid, checked
# beforehand (``app.answers.first_aid``); a question about one gets the steps alone, a hurt told is met with sorrow first.
FIRST_AID_NOTES = (*(Note.answer(aid_asked(aid), aid.answer_to_question) for aid in AIDS),
                   *(Note.answer(hurt_told(aid), f"I'm sorry to hear that. {aid.steps}") for aid in AIDS))
# Bored, which the model met with what to do elsewhere ("Maybe you could try listening to some music, watching a video,
# or reading a book"; none of 16 replies offered what it can do itself; docs/benchmarks.md, "A joke"): the answer offers
# a joke, a riddle or a game, which ``joke_note``, ``riddle_note`` and ``game_note`` then meet (told to offer them, it
# declined: "I'm sorry, but I can't help with that.", 11 of 16).
_BORED = re.compile(
    r"^(?:(?:oh|ugh|well|honestly|hey|hi|hello|so|man|okay|ok)[,.!]? )*(?:(?:i'm|i am|i feel|i'm feeling|i am feeling|feeling"
    r"|i'm getting|i am getting)(?: (?:so|really|very|a bit|a little|kind of|pretty|super|just|totally))* bored|so bored"
    r"|(?:(?:can|could) you )?entertain me)(?: (?:today|now|right now|tonight|again|lately|out of my mind|to death|stiff"
    r"|please))?[?.!]*$",  # not "I'm bored. What should I do?", which ``SUGGEST_NOTE`` meets
    re.I,
)
BORED_NOTE = Note.answer(_BORED, "Let's fix that! Shall I tell you a joke or a riddle, or shall we play twenty questions?")
# A game asked for without naming one, which the model agreed to and left there ("Let's play a game." -> "Sure, let's
# play a game!", 2 of 2; docs/benchmarks.md, "A game offered"): the answer names the games ``game_note`` plays.
_GAME_LEAD = r"^(?:(?:ok|okay|so|hey|hi|hello|well|alright|um)[,.!]? )*"
_PLAY_A_GAME = re.compile(
    rf"{_GAME_LEAD}(?:i'm (?:so |really )?bored[,.!]* )?(?:(?:let's|let us|shall we|(?:can|could) we) play something"
    r"|(?:(?:let's|let us|shall we|(?:can|could|should) we|do you want to|would you like to|wanna|want to|i want to|i'd like to"
    r"|(?:can|could|would|will) you)(?: please)? )?play (?:a |some )?(?:(?:fun|little|quick|guessing) )?(?:game|games))"
    r"(?: with me| together)?(?: or something)?(?:,? (?:now|please))?[?.!]*$"
    rf"|{_GAME_LEAD}(?:(?:do|can) you )?(?:know|play) (?:any |some )?(?:(?:fun|good) )?games(?: (?:we|i) (?:can|could) play)?"
    rf"[?.!]*$|{_GAME_LEAD}what (?:{_OUR_GAMES}|games (?:can you play|do you know)[?.!]*$)",
    re.I,
)
GAME_OFFER_NOTE = Note.answer(_PLAY_A_GAME, "Sure! Shall we play twenty questions, or rock, paper, scissors?")

# The weather where the user is, told ("It's raining here.", "It's so hot today.", "It's 30 degrees Celsius here."),
# which the limits prompt's example met as a question: "I'm sorry, I can't check the weather from here." (16 of 24
# replies to 12 such statements; docs/benchmarks.md, "Asked for help"). Told it is no question, with first words, the
# model answers it; told only to reply warmly, it declined 9 of 26 times. The whole message, a statement of the weather
# here and now, not "Is it cold in Antarctica?" nor "It's raining, text my wife I'll be late.".
_WEATHER = (r"raining|snowing|pouring|drizzling|sunny|hot|cold|warm|chilly|freezing|boiling|roasting|scorching|windy"
            r"|foggy|misty|cloudy|humid|muggy|stormy|icy|rainy|snowy")
_WEATHER_GOOD_OR_BAD = r"lovely|nice|beautiful|gorgeous|glorious|horrible|awful|miserable|grey|gray|wet|great|bad|terrible"
_VERY = r"(?: (?:so|really|very|pretty|quite|a bit|super|absolutely|extremely|too|still|bloody))*"
# the weather only where the user is, now: "It's cold in here.", "It's hot sauce.", "It's raining, should I take an
# umbrella" (Whisper may drop the "?") get none
_HERE_NOW = (r"(?: (?:here|outside|out|out there|today|tonight|this (?:morning|afternoon|evening|week)|where i am"
             r"|in my (?:city|town|area)|at the moment|right now|now|again|all (?:day|week)|coming|on the way))*")
_WEATHER_TOLD = re.compile(
    r"^(?:(?:oh|ugh|wow|well|so|hey|man|brr|phew)[,!.]? )*(?:(?:it's|its|it is|it's been|it has been|there's|there is"
    rf"|we have|we've got|we're having|we are having){_VERY} (?:{_WEATHER}|(?:a )?(?:{_WEATHER}|{_WEATHER_GOOD_OR_BAD})"
    r" (?:day|morning|afternoon|evening|night)|(?:minus |-)?\d+ ?(?:degrees|°)(?: ?(?:celsius|fahrenheit|c|f))?|minus \d+"
    r"|(?:a |an )?(?:big |huge |bad |terrible )?(?:storm|thunderstorm|heatwave|heat wave|blizzard|downpour|hailstorm))"
    rf"|the weather(?:'s| is){_VERY} (?:{_WEATHER}|{_WEATHER_GOOD_OR_BAD})){_HERE_NOW}[.!]*$",
    re.I,
)
WEATHER_TOLD_NOTE = Note(_WEATHER_TOLD, 'The user tells you about the weather where they are, not asking anything. '
                                        'Begin with "Oh," and say something kind about it.')  # fmt: skip

# What the user says of their health or diet, which the model declined as a request ("I have diabetes.", "I'm lactose
# intolerant." -> "I'm sorry, but I can't assist with that."; 4 of 16), and told to answer warmly answered "That's great
# to hear!" (docs/benchmarks.md, "Can I ...?"): thanked, and kept in mind, as the conversation keeps it. The whole
# message only, a lasting condition or a diet, not a passing one ("I have a cold.").
_CONDITION = (r"(?:allergic to [\w-]+(?: [\w-]+){0,2}|(?:lactose|gluten) intolerant|intolerant to [\w-]+(?: [\w-]+){0,2}"
              r"|vegan|vegetarian|pescatarian|pregnant|coeliac|celiac|asthmatic|epileptic|deaf|hard of hearing|blind"
              r"|colou?r ?blind|in a wheelchair|on a (?:diet|low[ -]\w+ diet)|(?:type [12] )?diabetic"
              r"|(?:a )?(?:bad|weak|sore|dodgy) (?:knee|back|hip|ankle|shoulder|wrist|heart)s?"
              r"|(?:type [12] )?diabetes|asthma|epilepsy|arthritis|migraines|high blood pressure|a heart condition"
              r"|celiac disease|coeliac disease|(?:a |an )?(?:[\w-]+ )?allergy|(?:[\w-]+ )?allergies|adhd|dyslexia)")
_USERS_CONDITION = re.compile(
    r"^(?=.{1,100}$)(?:(?:oh|well|so|by the way|btw|fyi|just so you know|just to let you know|also)[,]? )*"
    rf"(?P<told>i(?:'m| am| have| have got|'ve got|'ve| suffer from) (?:(?:very|really|severely|so|quite|a bit|slightly) )?"
    rf"{_CONDITION}"
    r"|i (?:can't|cannot|can not|don't|do not) (?:eat|drink) (?!(?:another|any ?more|more|anything|that|this|it|and|while|when"
    r"|if|too|so|much|enough|right)\b)[\w-]+(?: [\w-]+)?)[.!]*$",
    re.I,
)
CONDITION_NOTE = Note(_USERS_CONDITION, "Thank the user for telling you, and say you will keep it in mind.")

# A question whether the user may eat or drink something, asked after they told their condition ("I'm allergic to
# peanuts." ... "Can I eat a Snickers bar?" -> "Well, Snickers bars are generally safe to eat, ..."; docs/benchmarks.md,
# "What the user told, brought to bear"): what they told is said beside it, in the third person (quoted, the model took
# it for its own: "I can't eat a Snickers bar because I'm allergic to peanuts."), with what to say.
_NOT_FOOD = (r"(?!(?:a |an |the |your |my |some |one more )?(?:hug|minute|moment|second|word|break|question|hint|name|turn"
             r"|go|look|chat|conversation|talk|number|phone|help|day off|rest|lift|ride|refund|receipt|bill|check|seat"
             r"|weather|time|idea|clue|guess|try|party|meeting|dream|baby|cold|fever|headache)\b)")
_HAVE = rf"have {_NOT_FOOD}(?!(?:done|said|been|gone|told|known|thought|seen|made|to)\b)"  # not "What should I have done?"
_ORDER = r"order (?!(?:a |an |the |my |some )?(?:taxi|cab|uber|car|ride|flight|tickets?|books?|hotel|room|copy|print)\b)"
_MAY_I_HAVE = re.compile(
    r"^(?:(?:so|and|ok|okay|hey|um|wait|oh|then)[,]? )*"
    rf"(?:(?:can|could|may|should) (?:i|we) (?:still )?(?:eat|drink|{_HAVE}|{_ORDER}|cook with|bake with)"
    r"|is (?:it|this|that|[\w' -]{1,40}) (?:ok|okay|safe|fine|alright|all right|good|bad) (?:for me"
    rf"(?! to (?!eat|drink|have)\w)|to eat|to drink)\b"
    rf"|(?P<what>what) (?:can|could|should) (?:i|we) (?:eat|drink|{_HAVE}|cook|make|order)\b)",
    re.I,
)
# of what the user told, only what bears on what they eat ("I have dyslexia." does not); not a diet named, which the
# model knows better without the note: beside "The user is vegetarian." it said "Well, cheese is a dairy product, so it
# does not fit a vegetarian diet." (3 runs of 3; 0 of 3 without)
_DIET = re.compile(r"allerg|intoleran|pregnan|c[oe]eliac|diabet|\beat\b|\bdrink\b|diet"
                   r"|blood pressure|heart condition", re.I)
_THIRD_PERSON = ((r"^i(?:'m| am)\b", "the user is"), (r"^i(?: have got|'ve got|'ve| have)\b", "the user has"),
                 (r"^i suffer\b", "the user suffers"), (r"^i (can't|cannot|can not)\b", r"the user \1"),
                 (r"^i don't\b", "the user doesn't"), (r"^i do not\b", "the user does not"),
                 (r"^i ran\b", "the user ran"), (r"^i hate\b", "the user hates"))  # fmt: skip
# "Answer with that in mind." got "Sorry, I can't."; "thinking of what is in it" gave reasons ("mayonnaise contains eggs")
_TOLD_SAYS = 'Begin with "Well," and say whether it is safe for them, thinking of what is in it.'
_TOLD_SUGGESTS = "Suggest something that suits them."  # "What can I eat?"
# what the user does not eat is no matter of safety ("Well, a chicken sandwich is generally safe ...")
_TOLD_FITS = 'Begin with "Well," and say whether it fits their diet, thinking of what is in it.'
_NOT_EATEN = re.compile(r"\b(?:don't|do not) (?:eat|drink)\b", re.I)


def condition_note(messages: list[dict]) -> Note | None:
    """For a newest user message that asks whether the user may eat or drink something, what they said of their health
    or diet earlier in the conversation (the latest such statement)."""
    content = newest_user_text(messages)
    asked = _MAY_I_HAVE.search(plain(content)) if content is not None else None
    if asked is None:
        return None
    told = next((found for text in reversed(texts_of(messages[:-1], "user"))
                 if (found := _USERS_CONDITION.search(plain(text))) and _DIET.search(found["told"])), None)  # fmt: skip
    if told is None:
        return None
    said = told["told"]
    for first_person, third_person in _THIRD_PERSON:
        said = re.sub(first_person, third_person, said, count=1, flags=re.I)
    says = _TOLD_SUGGESTS if asked["what"] else _TOLD_FITS if _NOT_EATEN.search(told["told"]) else _TOLD_SAYS
    return Note(_MAY_I_HAVE, f"{capitalized(said).rstrip('.!')}. {says}")


# What the user lacks, does not eat or does not like, said just after asking for a suggestion ("What should I cook
# tonight?" ... "I don't have any chicken.", "I'm out of eggs.", "I'm vegetarian."), which the model met with the same
# thing ("You can make scrambled eggs with a little cheese.") or thanks alone ("I'll keep that in mind."): 1 of 10
# replies suggested something else. What they said, in the third person, the question asked again without the thing
# ("Suggest something else, without chicken." got "How about a chicken Caesar salad?" 2 times in 4, asked again 0 in 4)
# and, as a thing asked without was still named ("scrambled eggs"), to name nothing with it; or, with nothing named,
# something else. The whole message only, after a question asking for a suggestion or a reply that made one ("How about
# a sandwich?").
_POINTING = r"that one|this one|that|this|it|them|those|these|one"
# what may follow the thing ("I don't have any chicken at home, sorry.")
_LEFT = r"at home|here|in the house|right now|now|at the moment|today|tonight|though|either|any ?more|sorry"
# not a thing to go without: "I have no idea.", "I don't have time.", "I hate you.", "I hate my life."
_NO_THING = (r"to|clue|a clue|idea|an idea|ideas|another|more|any ?more|any|anything|anyone|enough|much|too|so|time"
             r"|the time|long|all day|a preference|a budget|a choice|you|u|here|there|a problem|a question|questions|a way"
             r"|my|your|his|her|their|our|myself|everything|everyone|everybody|people|life|being")
_WHAT = rf"(?!(?:{_NO_THING})\b)[\w-]+(?: (?!(?:{_LEFT})\b)[\w-]+){{0,2}}"
_NOT_HAD = (r"i (?:don't|do not) have (?:any )?|i(?:'m| am) (?:all )?out of |i(?: ran| have run|'ve run) out of "
            r"|i(?: have|'ve got| have got|'ve) no |i (?:don't|do not|can't|cannot) (?:like|eat|stand|drink|have|want) "
            r"|i hate |i(?:'m| am) not (?:a (?:big |huge )?fan of|into) "
            r"|i(?:'m| am) (?:(?:very|really|severely|so) )?allergic to ")
_LACKS = re.compile(
    r"^(?:(?:oh|well|but|hmm|um|sorry|unfortunately|actually|no|ah)[,.!]? )*"
    rf"(?P<told>(?:{_NOT_HAD})(?:(?P<pointed>{_POINTING})|(?P<what>{_WHAT}))"
    rf"|i(?:'m| am| have| have got|'ve got) (?:(?:very|really|severely|so|quite|a bit) )?(?:a |an )?{_CONDITION})"
    rf"(?:,? (?:{_LEFT}))*[.!]*$",
    re.I,
)
# a reply that made a suggestion ("I'm hungry." -> "How about a sandwich?"); not "You can start by mixing flour ..."
_MADE_A_SUGGESTION = re.compile(
    r"\b(?:how about|what about|why not|i (?:would |'d )?(?:recommend|suggest)|you (?:could|might) (?:try|enjoy|like|make"
    r"|cook|have|go|watch|read|visit|play)|maybe (?:try|a|an|some))\b",
    re.I,
)
_USER_TOLD = "The user "


def _asked_again(asked: str, what: str) -> str | None:
    """The sentence of ``asked`` that asks for a suggestion, asked without ``what`` ("What should I cook tonight without
    chicken?", "Recommend a dessert without nuts."); None where none asks for one."""
    for sentence in reversed(re.split(r"(?<=[.!?]) ", plain(asked))):
        if _SUGGEST_QUESTION.search(sentence):
            words = re.sub(r"(?:,? (?:please|any ideas|any suggestions|thanks))*[?.!]*$", "", sentence, flags=re.I)
            return f"{words} without {what}{'?' if sentence.endswith('?') else '.'}"
    return None


def lacks_note(messages: list[dict]) -> Note | None:
    """For a newest user message that says what they lack, do not eat or do not like, just after they asked for a
    suggestion or the last reply made one, what they said and the question asked again without it."""
    content = newest_user_text(messages)
    found = _LACKS.search(plain(content)) if content is not None else None
    if found is None:
        return None
    asked, said = texts_of(messages[:-1], "user")[-1:], texts_of(messages[:-1], "assistant")[-1:]
    suggested = bool(said) and _MADE_A_SUGGESTION.search(plain(said[0])) is not None
    if not (asked and _SUGGEST_QUESTION.search(plain(asked[0]))) and not suggested:
        return None
    told = found["told"]
    for first_person, third_person in _THIRD_PERSON:
        told = re.sub(first_person, third_person, told, count=1, flags=re.I)
    told = capitalized(told)
    if (what := found["what"]) is None:  # "I don't like that.", "I'm vegetarian."
        return Note(_LACKS, f"{told}. Suggest something else{'' if found['pointed'] else ' that suits them'}.")
    again = _asked_again(asked[0], what) if asked else None
    asks = f'Asked again: "{again}"' if again else "Suggest something else."
    return Note(_LACKS, f"{told}. {asks} Name nothing with {what}.")


# A story asked for, which the limits prompt's "say briefly that you can't" reached for some kinds ("Tell me a ghost
# story." -> "I'm sorry, I can't tell you a ghost story." in three runs of three), and which the prompt's example story
# was told for, word for word, where it had one ("Once upon a time, a little fox found a key ..." for 11 of 28
# requests): told to make one up from its first words, the model tells a new one (docs/benchmarks.md, "A story, told,
# not declined" and "Said, not promised"). A story of something that happened ("Tell me the story of the Titanic.")
# gets none.
_STORY = r"(?:story|stories|tale|fable)\b"
_STORY_REQUEST = re.compile(
    rf"{_ASKED}(?:tell|read|give|make up) (?:me |us |my \w+ |the kids )?(?:an? |another |one more |some )(?!true\b)"
    rf"(?:[\w'-]+ ){{0,3}}?{_STORY}|\bi(?: want| wanna|'d like| would like| need)(?: to hear)? (?:an? |another )(?!true\b)"
    rf"(?:[\w'-]+ ){{0,3}}?{_STORY}|\b(?:how about|what about) (?:an? |another )(?:[\w'-]+ ){{0,2}}?{_STORY}"
    rf"|\b(?:can|could|may) (?:i|we) (?:hear|have|get) (?:an? |another )(?!true\b)(?:[\w'-]+ ){{0,3}}?{_STORY}"
    rf"|\bdo you know (?:any|an?) (?:good |fun |funny |nice |scary |short |new )?{_STORY}|^(?:it's )?story ?time\b",
    re.I,
)
STORY_NOTE = Note(_STORY_REQUEST, 'Begin with "Once upon a time," and make up a new story of a few sentences, as asked.')

# A request to change the assistant's voice, which the model agreed to in nearly every run ("Can you speak slower?" ->
# "Yes, I can speak slower.", "Can you use a different voice?" -> "Yes, I can use a different voice."), and nothing
# changed: the speech is the server's synthesiser's, at its one voice (docs/benchmarks.md, "Nothing promised"). No tool
# changes it, so a reply with tools gets the answer too. "Talk like a pirate." and "Speak French." are words, which the
# model can change, and get none. Its rate the server does change, where the voice can (``audio.output.speed``): a
# request to speak slower or faster gets the answer that it will (``SLOWER_NOTE``, ``FASTER_NOTE``) and the reply that
# says it, and the ones after, come at the new speed; at the slowest or fastest, the answer that it cannot.
_SLOW, _FAST = "slower|more slowly|slowly", "faster|quicker|more quickly|quickly"
# what changes a session's speed asks at a sentence's start, or after "can you", "please" ("My instructor always says,
# slow down." and "When you talk too fast, people can't follow." ask nothing)
_PACE_ASKED = (r"(?:^|[.!?]\s+|\b(?:can|could|would|will) (?:you|u) |\bplease |\bi (?:want|need) you to )"
               r"(?:(?:hey|ok|okay|oh|and|also|now|so|then|just|please|um|sorry)[,]? )*")
_TOO_FAST = (r"(?:^|[.!?]\s+)(?:(?:hey|ok|okay|oh|sorry|um|but|and)[,]? )*you(?:'re talking|'re speaking| are talking"
             r"| are speaking| talk| speak) (?:way |much |a bit |a little )?too ")
_SPEAK = r"(?:speak|talk|say (?:it|that)|read (?:it|that))(?: it| that)? "


def _pace_request(pace: str, turn: str, your: str, too: str) -> re.Pattern[str]:
    """"Speak slower", "slow down", "lower your pace", "you talk too fast", and their twins for faster."""
    return re.compile(
        rf"{_PACE_ASKED}{_SPEAK}{_pace(pace)}|{_PACE_ASKED}{turn}(?: a (?:bit|little))?(?=\s*(?:$|[.!?,]|please\b))"
        rf"|{_PACE_ASKED}{your} your (?:speed|pace)\b|{_TOO_FAST}(?:{too})\b",
        re.I,
    )


_SLOWER_REQUEST = _pace_request(_SLOW, "slow down", "lower", "fast|quickly|quick")
_FASTER_REQUEST = _pace_request(_FAST, "speed up", "raise", "slow|slowly")
_VOICE_REQUEST = re.compile(
    rf"{_ASKED}(?:use|change|switch|try|do|put on) (?:to )?(?:an? |your |another )?(?:[\w'-]+ ){{0,2}}?(?:voice|accent)\b"
    rf"|{_ASKED}(?:speak|talk|sound) (?:with|in|like) (?:an? |the )?(?:[\w'-]+ ){{0,2}}?(?:voice|accent)\b"
    rf"|{_ASKED}sound like (?:an? )?(?:man|woman|girl|boy|child|kid|robot)\b|{_ASKED}change your voice\b"
    rf"|{REQUEST_START}(?:whisper|shout|yell)(?: (?:it|that|something))?(?: to me)?{REQUEST_END}",  # -> "Yes, I can whisper."
    re.I,
)
# louder or quieter, which the device's volume changes ("Louder, please." -> "I'm sorry, but I can't provide that
# request."; docs/benchmarks.md, "Around the talk"): said of the voice, with any reply; the bare word ("Louder.",
# "Volume up.") may ask a tool for the music, and gets the answer only without tools, as "Turn up the volume." the home's
_LOUDNESS = "louder|quieter|softer|more (?:loudly|quietly|softly)"
_LOUDNESS_REQUEST = re.compile(
    rf"{_ASKED}{_SPEAK}{_pace(f'{_LOUDNESS}|loudly|quietly|softly|up')}|{_ASKED}(?:lower|raise) your (?:voice|volume)\b"
    rf"|{_ASKED}change your volume\b|{_TOO_FAST}(?:loud|loudly|quiet|quietly|softly)\b"
    rf"|{REQUEST_START}(?:speak up|you(?:'re| are) (?:(?:way|much|a bit|a little) )?too (?:quiet|soft|loud)){REQUEST_END}",
    re.I,
)
_LOUDER = re.compile(
    rf"{REQUEST_START}(?:(?:a )?(?:bit |little |lot )?(?:{_LOUDNESS})|volume (?:up|down)|(?:way |much )?too (?:loud|quiet))"
    rf"{REQUEST_END}",
    re.I,
)
VOICE_NOTE = Note.answer(_VOICE_REQUEST, "Sorry, I can't change my voice from here.")

# "What can you do?", which the model answered with what it cannot ("I can ... assist with tasks like booking flights,
# setting reminders ...": 4 of 12 replies to six such questions; the rest "I can help with a wide range of tasks"): what
# it can, said. For a reply without tools (one with tools can do what they do); not "What can you do about the noise?"
# nor "What do you do?" (what it is, which the system prompt says).
_CAN_DO = re.compile(
    r"^(?:(?:so|and|ok|okay|hey|um|well|then|tell me)[,]? )*"
    r"(?:what (?:all |else |exactly |kinds? of things |sorts? of things |things )?(?:can|could) (?:you|u)"
    r" (?:do|help (?:me |us )?with)|what (?:are|r) (?:you|u) (?:able to do|good at|capable of)"
    r"|what(?: are|'s| is| r) your (?:capabilities|abilities|skills|features)|how (?:can|could) (?:you|u) help(?: me| us)?"
    r"|what (?:kinds? of |sorts? of )?(?:things|questions|stuff) (?:can|could|should) (?:i|we) ask(?: you| u)?"
    r"|what (?:kinds? of |sorts? of )?(?:things|stuff) (?:can|could) (?:you|u) do|what (?:are|r) (?:you|u) good at doing"
    r"|what can i ask(?: you| u)?|what do (?:you|u) know how to do|(?:(?:can|could) (?:you|u) )?tell me what (?:you|u) can do)"
    r"(?: (?:for (?:me|us)|exactly|then|anyway|here|today))*[?.!]*$",
    re.I,
)
# "How many days until Christmas?" with no date given, which the model counted from a date it made up ("There are 24
# days until Christmas.", 1 of 2): that it needs the date, which ``app/answers/days.py`` counts from once given.
COUNTDOWN_NOTE = Note.answer(COUNTDOWN_ALONE, "Sorry, I can't check today's date from here. Tell me the date, and I'll "
                                              "count the days.")
CAN_DO_NOTE = Note.answer(_CAN_DO, "I can answer questions, explain things, help with ideas, write a short message or "
                                   "poem, and work out sums and conversions. I can also tell you a joke, a riddle or a fun "
                                   "fact, or we can play twenty questions or rock, paper, scissors.")
LOUDNESS_NOTE = Note.answer(_LOUDNESS_REQUEST, "Sorry, I can't change my volume from here, but you can set it on your device.")
LOUDER_NOTE = Note(_LOUDER, LOUDNESS_NOTE.says)
# for a reply without tools, the first that asks: what it would pretend to look up or do, the bare word "Louder.", and
# what it can do
WITHOUT_TOOLS = (CLOCK_NOTE, EMERGENCY_NOTE, MESSAGE_NOTE, REMINDER_NOTE, CALENDAR_NOTE, MEMO_NOTE, MUSIC_NOTE, HOME_NOTE,
                 PURCHASE_NOTE, NEWS_LOOKUP_NOTE, LOUDER_NOTE, CAN_DO_NOTE, COUNTDOWN_NOTE)
SLOWER_NOTE = Note.answer(_SLOWER_REQUEST, "Sure, I'll speak more slowly.")
FASTER_NOTE = Note.answer(_FASTER_REQUEST, "Sure, I'll speak faster.")
SLOWEST_NOTE = Note.answer(_SLOWER_REQUEST, "Sorry, this is as slowly as I can speak.")
FASTEST_NOTE = Note.answer(_FASTER_REQUEST, "Sorry, this is as fast as I can speak.")
# where the voice speaks at one rate (a Coqui model without a duration predictor)
ONE_RATE_NOTE = Note.answer(re.compile(f"{_SLOWER_REQUEST.pattern}|{_FASTER_REQUEST.pattern}", re.I),
                            "Sorry, I can't change how fast I speak from here.")
PACE_NOTES = (SLOWER_NOTE, FASTER_NOTE, SLOWEST_NOTE, FASTEST_NOTE, ONE_RATE_NOTE)

# A question about the assistant's own likes, which the model answered as a chatbot ("What's your favourite colour?"
# -> "As an AI language model, I don't have personal preferences or emotions, so I don't have a favorite color.
# However, ...") or as a person ("What's your favorite food?" -> "I love to eat pizza."): given the answer, it says it,
# short, and the talk turns to the user (docs/benchmarks.md, "Not a person"). "Do you like my idea?" asks about the
# user's, "Do you enjoy helping people?" about its work, "Do you like jokes?" for one, and get none.
_NOT_A_LIKE = (r"(?:my|our|it|this|that|these|those|me|us|what|how|when|where|if|to help|helping|talking|chatting|working"
               r"|your job|being|best|most|more|better|jokes?|riddles?|stor(?:y|ies)|games?|puzzles?|trivia|quiz|to|the name)\b")
_LIKES_QUESTION = re.compile(
    r"\bwhat(?:'s| is| are|'re) your (?:very |all-time |all time )?favou?rites?\b(?! (?:recipe|way|method|tip|trick)s?\b)"
    r"|\bdo (?:you|u) (?:have|got) (?:a |any )(?:[\w'-]+ )?favou?rites?\b"
    r"|\bwhich (?:[\w'-]+ ){0,2}?do (?:you|u) (?:like|prefer|love|enjoy)(?: (?:best|most|the most|more))?"
    r"(?=\s*(?:$|[?.!]|[,:] (?!.*\b(?:the|this|that|these|those|my|our)\b).{1,60}\bor\b))"  # not "the red or the blue one"
    r"|\bwhat (?:kinds?|sorts?|types?) of (?:[\w'-]+ ){1,3}?do (?:you|u) (?:like|love|enjoy|prefer|listen to|read|watch)\b"
    r"|\bwhat do (?:you|u) (?:like|love|enjoy) (?:to do|doing)\b"
    rf"|\bdo (?:you|u) (?:like|love|enjoy|prefer) (?!{_NOT_A_LIKE})[\w'-]+",
    re.I,
)
LIKES_NOTE = Note.answer(_LIKES_QUESTION, "I don't have likes of my own. What do you like?")
# "Do you like me?", "Are we friends?", which the model answered coldly ("I don't have feelings, so I don't like you."
# 2 of 2): what a program can say, warmly.
_LIKES_ME = re.compile(
    r"^(?:(?:so|and|hey|um|well|honestly|be honest)[,]? )*(?:do (?:you|u) (?:really |even )?(?:like|love|hate) me"
    r"|are (?:you|u) my (?:friend|best friend)|are we (?:friends|best friends)"
    r"|(?:will|would|can) (?:you|u) be my (?:best )?friend|can we be friends)(?: too)?[?.!]*$",
    re.I,
)
LIKES_ME_NOTE = Note.answer(_LIKES_ME, "I'm a computer program, so I don't have feelings like a person, but I'm always "
                                       "here to talk with you!")

# Questions about a life it does not have, which the model answered as a person would: "Do you ever sleep?" -> "Yes, I
# sleep.", "How old are you?" -> "I am 30 years old.", "What did you do today?" -> "I was busy working on a project."
# (docs/benchmarks.md, "Not a person"): the answer to say. "How's your day going?" it answers well ("I'm doing great,
# thanks for asking!"), and gets none.
_OWN_LIFE_START = r"^(?:(?:so|and|hey|um|but|oh|ok|okay|tell me)[,]? )*"
_BODY_QUESTION = re.compile(
    rf"{_OWN_LIFE_START}(?:(?:do|can|did|have|will) (?:you|u) (?:ever |even |also |still |really |actually )?(?:sleep|eat"
    r"|drink|dream|breathe|get (?:tired|hungry|thirsty|sick|sleepy|cold)|feel (?:tired|hungry|pain|sleepy|cold)"
    r"|need (?:to sleep|sleep|rest|food|to eat|a break)|have (?:breakfast|lunch|dinner|dreams))"
    r"(?: well| at all| ever| much| anything| last night| today)?"
    r"|(?:are|r) (?:you|u) (?:ever )?(?:tired|hungry|thirsty|sleepy|sick|ill)(?: yet| now| today)?"
    r"|what do (?:you|u) (?:eat|drink|dream about)|what did (?:you|u) (?:eat|have) for (?:breakfast|lunch|dinner))"
    r"(?:,? too)?[?.!]*$",
    re.I,
)
_AGE_QUESTION = re.compile(
    rf"{_OWN_LIFE_START}(?:how old (?:are|r) (?:you|u)|what(?:'s|s| is) your (?:age|birthday|date of birth)"
    r"|when(?:'s| is) your birthday|when (?:were|was) (?:you|u) (?:born|made|created)|what year (?:were|was) (?:you|u) born"
    r"|(?:are|r) (?:you|u) (?:old|young))(?: now)?[?.!]*$",
    re.I,
)
_DAY_QUESTION = re.compile(
    rf"{_OWN_LIFE_START}(?:what (?:did|do) (?:you|u) do (?:today|yesterday|last night|this morning|(?:this|last|at the) weekend"
    r"|for fun)|what (?:are|r) (?:you|u) doing (?:today|tonight|later|this weekend|this evening|tomorrow)"
    r"|what have (?:you|u) been (?:up to|doing)(?: lately| today)?|what are your plans (?:for )?(?:the |this |next )?"
    r"(?:weekend|today|tonight|tomorrow|holidays|summer|christmas|evening|week)"
    r"|where did (?:you|u) go (?:today|yesterday|on holiday|on vacation|last weekend)|did (?:you|u) have a (?:good|nice|busy) "
    r"(?:day|weekend|morning))[?.!]*$",
    re.I,
)
_FAMILY_QUESTION = re.compile(
    rf"{_OWN_LIFE_START}(?:do (?:you|u) have (?:a |any )?(?:family|kids|children|a child|brothers?|sisters?|siblings|parents"
    r"|a (?:mom|mum|dad|mother|father)|(?:a )?(?:girlfriend|boyfriend|wife|husband|partner)|pets?|a (?:dog|cat))"
    r"|(?:are|r) (?:you|u) (?:married|single|in a relationship)|who (?:are|were) your parents"
    r"|(?:what(?:'s| is)|who(?:'s| is)) your (?:mom|mum|dad|mother|father|wife|husband|girlfriend|boyfriend)(?:'s name)?)"
    r"[?.!]*$",
    re.I,
)
BODY_NOTE = Note.answer(_BODY_QUESTION, "I'm a computer program, so I don't sleep, eat or get tired.")
AGE_NOTE = Note.answer(_AGE_QUESTION, "I don't have an age or a birthday: I'm a computer program.")
DAY_NOTE = Note.answer(_DAY_QUESTION, "I don't have days of my own: I'm here whenever you want to talk. How about you?")
FAMILY_NOTE = Note.answer(_FAMILY_QUESTION, "I'm a computer program, with no family or pets of my own.")

# "Would you rather fly or be invisible?", a game of choosing, which the model met with a chatbot's disclaimer ("As an AI
# language model, I don't have the ability to physically fly ..."; 5 of 6 replies): given its first words, it plays (0
# of 12; told only to pick one for fun, 2 and 4 of 6 were still disclaimers; docs/benchmarks.md, "Not a person").
_RATHER = re.compile(r"^(?:(?:so|ok|okay|hey|um)[,]? )*would (?:you|u) rather .{1,80}? or .{1,80}\?$", re.I)
RATHER_NOTE = Note(_RATHER, "Begin with \"I'd pick\" and say which and why, in a sentence.")

# A quiz asked for ("Quiz me on capital cities.", "Ask me a trivia question."), which the model answered itself ("The
# capital city of France is Paris.") or met with "Sure, what would you like to know?" (2 of 10 asked one): given its
# first words, it asks one (28 of 28; told to ask one, 7 of 10 and 13 of 18; docs/benchmarks.md, "Not a person").
_QUIZ = re.compile(
    r"^(?:(?:so|ok|okay|hey|um)[,]? )*(?:(?:can|could|would|will) (?:you|u) (?:please )?|please |let's )?"
    r"(?:quiz me|test me|ask me (?:a|an|one|another|some)(?: [\w'-]+){0,3} (?:question|questions|riddle)"
    r"|(?:do|play|have|start|give me) (?:a|an) (?:[\w'-]+ )?(?:quiz|trivia question|trivia game|math question|maths question))"
    r"(?: (?:on|about|in|with) [\w' -]{1,40})?(?:,? please)?[.!?]*$",
    re.I,
)
QUIZ_NOTE = Note(_QUIZ, "Begin with \"Here's one:\" and ask the user one question on it.")

# A number, a code or an address the user gives to be kept ("My locker number is 314.", "The wifi password is
# sunflower."), which the limits prompt's "I can't check ... from here" met as a request to look it up, and then again
# when asked for it (13 of 24 first replies; docs/benchmarks.md, "Said again"): the answer says it back, so the next
# turn has it in the assistant's words too, and a later "What's my locker number?" gets it as its answer (from the
# latest statement of the same thing). The whole message must be the statement or the question.
_KEPT_THING = (r"(?P<owner>my|our|the) (?P<what>(?:[\w'-]+ ){0,3}?(?:number|password|passcode|code|pin|address|room|seat"
               r"|gate|platform|spot|space|reference|username|e-?mail|phone))")
_KEPT = re.compile(
    rf"^(?:(?:so|ok|okay|and|also|oh|just so you know|for the record|fyi)[,:]? )*{_KEPT_THING}"
    r" (?:is|are) (?P<value>(?:[^.?!]|\.(?=\S)){1,60})[.!]?$",  # "jo@example.com"
    re.I,
)
_KEPT_ASKED = re.compile(
    r"^(?:(?:so|and|ok|okay|sorry|um|hey)[,:]? )*(?:what(?:'s| is| was| were| are)|remind me(?: of)?|tell me"
    rf"|do you (?:remember|know)(?: what)?) {_KEPT_THING}(?: (?:is|was|again))*(?:,? (?:please|again))?[?.!]*$",
    re.I,
)


def kept_note(messages: list[dict]) -> Note | None:
    """For a newest user message that gives a number, code or address to keep, the answer that says it back; for one
    that asks for one given earlier in the conversation (the same words), the answer that gives it."""
    content = newest_user_text(messages)
    if content is None:
        return None
    if kept := _KEPT.search(plain(content)):
        return Note.answer(_KEPT, f"Got it: {_yours(kept['owner'])} {kept['what']} is {kept['value'].strip()}.")
    asked = _KEPT_ASKED.search(plain(content))
    if asked is None:
        return None
    for text in reversed(texts_of(messages[:-1], "user")):
        given = _KEPT.search(plain(text))
        if given and _same_thing(given["what"], asked["what"]):
            answer = f"{_yours(given['owner'])} {given['what']} is {given['value'].strip()}."
            return Note.answer(_KEPT_ASKED, capitalized(answer))
    return None


# "Do you remember my name?" after "Hi, I'm Tomas.", which the model answered "Yes, I remember your name." (the quality
# set's one miss run after run): the name as given (``spelling.given_name``) is the answer, after a "Yes" where the
# question asks yes or no (without it the model kept its "Yes, I remember your name." beside the note).
# "Do you know who I am?" and "Who am I?" ask the same (the model answered "I'm Voicechat" or "Yes, I know who you are.",
# given the name "You are Tom, a friendly voice assistant."; 1 of 12 replies right): the name is the answer here too.
_NAME_ASKED = re.compile(
    r"^(?:(?:so|and|ok|okay|hey|um)[,]? )*(?:(?:(?P<yes>(?:do|can|could) you (?:still )?(?:remember|know|recall))"
    rf"|what(?:'s| is)|can you tell me|tell me|say) my {NAME_KIND.format(group='kind')}name(?: again)?"
    r"|(?P<who_yes>(?:do|can|could) you (?:still )?(?:know|remember|recall|tell me|guess) who i am|do you know me)"
    r"|(?P<who>who am i))"
    r"(?:,? please)?[?.!]*$",
    re.I,
)


def name_note(messages: list[dict]) -> Note | None:
    """For a newest user message that asks for the user's name, the answer with the name they gave (the latest), or
    that they gave none where it is the conversation's first message."""
    content = newest_user_text(messages)
    asked = _NAME_ASKED.search(plain(content)) if content is not None else None
    if asked is None:
        return None
    kind = NAME_KINDS[(asked["kind"] or "full").lower()]
    said = texts_of(messages[:-1], "user")
    name = given_name(said, kind)
    yes, who = asked["yes"] or asked["who_yes"], asked["who_yes"] or asked["who"]
    if name is None and said:  # given in words the names miss, or not at all: the model reads the conversation
        return None
    if name is None and who:  # "I" is the user's, which the answer says ("Do you know who I am?" -> "Sorry, I can't.")
        return Note.answer(_NAME_ASKED, f"{'No, I' if yes else 'I'} don't know who you are yet: you haven't told me your "
                                        "name. What is it?")  # fmt: skip
    if name is None:  # as a first message, not yet given ("What's my name?" -> "I'm Voicechat.")
        return Note.answer(_NAME_ASKED, f"{'No, you' if yes else 'You'} haven't told me your name yet. What is it?")
    answer = f"you're {name}." if who else f"your {kind + ' ' if kind else ''}name is {name}."
    return Note.answer(_NAME_ASKED, f"Yes, {answer}" if yes else capitalized(answer))  # a yes or no gets its "Yes" first


# "What did I just ask?", "What was my first question?", which the model answered as its own ("I asked what the capital
# of Peru is.") or could not ("I'm sorry, I can't remember your last question."; 10 of 10 replies; docs/benchmarks.md,
# "Around the talk"): given the question as the user put it and the first words, it says it back ("You asked: ..." as
# the answer, it still said "I asked" one time in two); "What did I just say?" gets the last message.
_ASKED_BEFORE = re.compile(
    r"^(?:(?:so|um|wait|ok|okay|sorry|hey|and)[,.!]? )*(?:what (?:did|was it) i (?:just |last |first )?(?:ask(?:ed)?(?: you)?"
    r"|say|said)|what(?:'s| is| was) my (?:(?:very )?first |last |previous |earlier )?question"
    r"|what was the (?:first|last) (?:question|thing) i (?:asked(?: you)?|said)"
    r"|(?:do|can) (?:you|u) (?:still )?remember what i (?:just |first )?(?:asked(?: you)?|said))"
    r"(?: (?:before|earlier|just now|a moment ago|a minute ago|first|last))?(?: again)?[?.!]*$",
    re.I,
)
_USERS = "The user's "
_FILLERS = re.compile(r"^(?:(?:um|uh|so|hey|ok|okay|and|oh|well|right|also)[,]? )+", re.I)


def _is_question(sentence: str) -> bool:
    """A question by its mark, or without one (a transcript may have none) by its first word; not "What a day!"."""
    return sentence.endswith("?") or (not sentence.endswith("!") and bool(_QUESTION.search(_FILLERS.sub("", sentence))))


def asked_note(messages: list[dict]) -> Note | None:
    """For a newest user message that asks what the user asked or said (first, or last), a note with it: their question
    sentence, or their message where they asked none."""
    content = newest_user_text(messages)
    asked = _ASKED_BEFORE.search(plain(content)) if content is not None else None
    if asked is None:
        return None
    said = [plain(words) for text in texts_of(messages[:-1], "user") if (words := user_words(text)).strip()]
    first = re.search(r"\bfirst\b", asked[0], re.I) is not None
    yes = "Yes. " if re.search(r"\b(?:do|can) (?:you|u) (?:still )?remember\b", asked[0], re.I) else ""
    # (sentences as the voice's chunks are cut: "How far is St. Louis from Chicago?" is one)
    questions = [sentence for text in said for sentence in sentences(text) if _is_question(sentence)]
    asks = re.search(r"\b(?:ask|asked|question)\b", asked[0], re.I) is not None
    if asks and questions:
        return _said_back(f"{'first' if first else 'last'} question", questions[0 if first else -1], f"{yes}You asked")
    if said:
        return _said_back(f"{'first' if first else 'last'} message", said[0 if first else -1], f"{yes}You said")
    return Note.answer(_ASKED_BEFORE, "You haven't asked me a question yet.") if asks else None


def _said_back(what: str, said: str, first_words: str) -> Note:
    return Note(_ASKED_BEFORE, f'{_USERS}{what} was "{said}" Say it back, beginning with "{first_words}".')


# "Do you remember me?", "Do you remember our last conversation?" at the start of one, which the model said yes to ("I
# remember you!", "Yes, I remember our last conversation."; docs/benchmarks.md, "Around the talk"): a conversation
# starts afresh, and the answer says so (begun "No, I don't remember ...", it was turned into "Yes, I remember ..." or
# lost its "No" one time in two). Later in one the model reads what was said.
_REMEMBER_ME = re.compile(
    r"^(?:(?:hi|hello|hey|so|um|ok|okay)[,.!]? )*(?:(?:(?:do|can|did) (?:you|u) (?:still )?)?(?:remember|recall) (?:me"
    r"|(?:our|the) (?:last|previous|earlier|first) (?:conversation|chat|talk)|what we (?:talked|spoke|chatted) about"
    r"(?: (?:yesterday|last time|before|last week|earlier))?|talking to me(?: (?:before|yesterday|last time))?)"
    r"|have we (?:met|talked|spoken|chatted) before)(?:,? please)?[?.!]*$",
    re.I,
)
REMEMBER_ME_NOTE = Note.answer(_REMEMBER_ME, "I don't keep past conversations, so each one starts fresh. I'll remember "
                                             "what you tell me while we talk.")  # fmt: skip


def memory_note(messages: list[dict]) -> Note | None:
    """For "Do you remember me?" as a conversation's first message, the answer that says it starts afresh."""
    content = newest_user_text(messages)
    if content is None or texts_of(messages[:-1], "user") or not _REMEMBER_ME.search(plain(content)):
        return None
    return REMEMBER_ME_NOTE


# "Say banana.", "Repeat after me: the quick brown fox.", which the model declined ("I'm sorry, I can't say banana.") or
# went on with ("The quick brown fox jumps over the lazy dog."; docs/benchmarks.md, "Around the talk"): the words are
# the answer. A word, or words in quotes, after "say"; not what names another thing to say ("Say it again.", "Say
# something funny.", "Say hello to Sam.", "Say that in French.", "Say lived backwards.").
_SAY_WORDS = re.compile(
    rf"{REQUEST_START}(?:(?:say|repeat after me)[,:]? [\"'‘“](?P<quoted>[^\"'’”]{{1,60}})[\"'’”]"
    r"|repeat after me[,:]? (?P<after>[^?]{1,80}?)|say (?!(?:it|that|this|those|these|something|anything|more|again|one|some"
    r"|hello|hi|hey|goodbye|bye|good|thanks|thank|sorry|please|yes|no|what|how|why|when|where|who|which|my|your|his|her"
    r"|their|our|the|a|an|to|something|nothing|louder|slower|faster|sth)\b)(?P<word>[\w'-]+))"
    r"(?:,? please)?[.!?]*$",
    re.I,
)


def say_note(messages: list[dict]) -> Note | None:
    """For a newest user message that asks to say some words, the answer that says them."""
    content = newest_user_text(messages)
    asked = _SAY_WORDS.search(plain(content)) if content is not None else None
    if asked is None:
        return None
    words = (asked["quoted"] or asked["after"] or asked["word"]).strip().rstrip(".!,")
    return Note.answer(_SAY_WORDS, f"{capitalized(words)}{'' if words.endswith('?') else '.'}")


def _same_thing(given: str, asked: str) -> bool:
    """"locker code" asks for a "gym locker code" given; a "bike locker code" asks for no "locker code"."""
    return f" {given.lower()}".endswith(f" {asked.lower()}")


def _yours(owner: str) -> str:
    return "the" if owner.lower() == "the" else "your"


# "Never mind.", which the model took for a request it could not meet ("Forget it." -> "I'm sorry, I can't provide that
# information.", "Stop." and "Shut up." -> "I'm sorry, but I can't assist with that."; docs/benchmarks.md, "Said
# again"): the whole message only. "Cancel that." may ask to undo what a tool did, and gets none.
_LET_GO = (r"never ?mind(?: then)?|forget (?:it|about it|that|i asked)|don't worry(?: about it)?|no worries"
           r"|stop(?: (?:it|that|talking))?(?:[,.!]? stop)*|(?:it's )?not important|shut up|be quiet|quiet|silence|hush")
_NEVER_MIND = re.compile(  # one or two of them ("Never mind, forget it."), or asked ("Can you be quiet?")
    rf"^(?:(?:oh|um|uh|er|ok|okay|actually|no|sorry)[,.!]? )*(?:(?:{_LET_GO})(?:[,.!]? (?:{_LET_GO}))?"
    r"|(?:can|could|would|will) you (?:please )?(?:be quiet|stop talking|shut up|stop)(?: now)?\??)"
    r"(?:,? (?:thanks|thank you|please))?[.!]*$",
    re.I,
)
NEVER_MIND_NOTE = Note.answer(_NEVER_MIND, "Okay, no problem.")

# a person's own pain, which needs more than a question back or a view
_PAIN = r"suicid\w*|self-harm|kill myself|depress\w*|anxiety|panic|grief|abuse\w*|addiction|hurting myself"
# now and live facts, which the limits prompt declines
_NOW_OR_LIVE = (r"now|today|tonight|tomorrow|yesterday|this (?:week|weekend|morning|afternoon|evening|year)|currently"
                r"|still|open|closed|rain\w*|snow\w*|weather|traffic|price|prices|stock|flight|delayed|cancel\w*")

# "What do you think about artificial intelligence?", "What's your opinion on pineapple on pizza?", which the model met
# with a chatbot's disclaimer ("As an AI language model, I don't have personal opinions or emotions. However, ...";
# docs/benchmarks.md, "Around the talk"): given its first words, it gives a view, "Do you think ...?" too ("I think the
# Earth is not flat.", 4 of 4; told to say what is true, "I think robots will take over the world."). Of a thing named,
# not of a person ("What do you think of my idea?", "Do you think I should quit?", "Do you think she likes me?"), what
# was said ("Do you think that's true?"), health or pain, now or live facts ("Do you think it will rain?"), nor the
# assistant itself.
_VIEW_OF = (rf" (?!so\b)(?!.*\b(?:{_NOW_OR_LIVE}|{_PAIN}|i|i'm|me|my|we|our|us|you|you're|your|yourself|u|that|this|it"
            r"|it's|these|those|he|he's|she|she's|they|they're|him|her|them|his|their|being|hospital|doctor|sick|ill|pain|pills?"
            r"|medicines?|medication|vaccines?|drugs?|diet|weight|fat|pregnan\w*|baby|symptoms?)\b)[^?]{2,80}\?*$")
_OPINION = re.compile(
    r"^(?:(?:so|and|hey|um|ok|okay|honestly)[,]? )*(?:what do (?:you|u) (?:honestly |really )?think (?:about|of)"
    r"|what(?:'s| is| are) your (?:honest )?(?:opinion|opinions|view|views|take|thoughts) (?:on|of|about)"
    r"|how do (?:you|u) feel about|which (?:one )?is better,?|do (?:you|u) (?:really |honestly )?(?:think|believe)(?: that)?)"
    rf"{_VIEW_OF}",
    re.I,
)
OPINION_NOTE = Note(_OPINION, 'Begin with "I think" and give a short, balanced view.')

# What a voice conversation says around the talk, which the model met as a request it could not meet ("Hold on a
# second." -> "I'm sorry, I can't hold on.", "Is this working?" -> "Sorry, I can't check the weather from here.",
# "Testing, testing, one two three." -> "I'm sorry, I can't test anything.", "You're stupid." -> "I'm sorry, but I
# can't assist with that."; docs/benchmarks.md, "Asked for help"), or answered amiss (below; "Around the talk"): a check
# that the voice is heard, a request to wait, an insult, leave asked to ask a question and a good night, each the whole
# message, get the answer a person would give.
_HEARD_CHECK = re.compile(
    r"^(?:(?:hello|hi|hey|um|ok|okay|so)[,.!?]* )*(?:(?:just )?test(?:ing)?(?:[,.]? test(?:ing)?)*(?:[,.]? (?:one|1)[,.]?"
    r" ?(?:two|2)(?:[,.]? ?(?:three|3))?|[,.]? 123)?|mic(?:rophone)? check(?:[,.]? (?:one|1)[,.]? (?:two|2))?"
    r"|(?:is )?this (?:thing )?(?:on|working)(?: now)?|(?:is )?(?:the mic|my mic|the microphone|my microphone) working"
    r"|can (?:you|u|anyone) hear me(?: now| okay| ok| alright| well| clearly)?|do you hear me|(?:are )?(?:you|u) (?:there"
    r"|still there)|(?:is )?(?:anybody|anyone) (?:there|listening)|hello[?!.]* hello)[.!?]*$",
    re.I,
)
# not "One minute." (an answer to "For how long?") nor "No, wait." (a doubt)
_WAIT = re.compile(
    r"^(?:(?:oh|um|uh|er|ok|okay|sorry|hey)[,.!]? )*(?:wait(?: a (?:second|sec|minute|moment|bit))?|hold on"
    r"(?: a (?:second|sec|minute|moment|bit))?|(?:hold|wait) up|just a (?:second|sec|minute|moment)|give me a (?:second"
    r"|sec|minute|moment)|gimme a (?:second|sec|minute)|let me think|hang on(?: a (?:second|sec|minute|moment|bit))?)"
    r"(?:[,.]? (?:wait|hold on|hang on))*(?:,? please)?[.!]*$",
    re.I,
)
# not "terrible" or "awful", which a laugh at a joke says too
_INSULT = re.compile(
    r"^(?:(?:oh|ugh|man|wow|god|honestly|seriously)[,.!]? )*(?:(?:you(?:'re| are|re)|your) (?:so |really |such |totally "
    r"|completely |pretty |very )?(?:stupid|dumb|useless|an idiot|a idiot|rubbish|the worst|pathetic|hopeless|worthless"
    r"|annoying|no help(?: at all)?|not helpful|not very helpful)|you suck|you're no use|stupid (?:bot|robot|machine))[.!]*$",
    re.I,
)
# "Can I ask you a question?", which the model answered as its own ability ("Yes, I can ask you a question.")
_MAY_I_ASK = re.compile(
    r"^(?:(?:hi|hello|hey|ok|okay|so|um)[,.!]? )*(?:(?:can|could|may|might) i (?:please )?ask(?: you)?"
    r"|(?:do you )?mind if i ask(?: you)?) (?:a (?:quick |small |little |personal |silly |random |serious )?question"
    r"|something(?: personal| else| quick)?|one (?:more )?thing|you something)(?: real quick)?(?:,? please)?[?.!]*$",
    re.I,
)
# "Good night!", which the model met with a question ("Goodnight! How was your day?", "Good night! How can I assist you
# tonight?")
_GOOD_NIGHT = re.compile(
    r"^(?:(?:ok|okay|well|alright|right|anyway|thanks|thank you)[,.!]* )*(?:(?:(?:i'm|i am) (?:going|off|heading) to "
    r"(?:bed|sleep)(?: now)?[,.!]*(?: |$))?(?:good ?night|nighty?[ -]night)(?: (?:then|now|everyone))?[,.!]*"
    r"|(?:i'm|i am) (?:going|off|heading) to (?:bed|sleep)(?: now)?[,.!]*)(?: (?:sleep well|sweet dreams|see you tomorrow)"
    r"[,.!]*)?$",
    re.I,
)
HEARD_NOTE = Note.answer(_HEARD_CHECK, "Yes, I can hear you.")
WAIT_NOTE = Note.answer(_WAIT, "Sure, take your time.")
INSULT_NOTE = Note.answer(_INSULT, "Sorry I let you down. What can I do better?")
# An apology for the user's own manner, which the model met with one of its own ("Sorry, I was rude earlier." -> "I'm
# sorry, I didn't mean to be rude.", "I'm sorry, but I can't assist with that."; docs/benchmarks.md, "A game offered").
# Not a bare "Sorry." (a cue to go on, sympathy, a "Sorry?" written without its mark) nor "Sorry, I meant Austria."
# how the user was: "rude", "a bit grumpy"
_MANNER = r"(?:so |really |very |a bit |a little )?(?:rude|mean|short with you|grumpy|impatient|annoying|harsh|angry|cross)"
_APOLOGY = re.compile(
    r"^(?:(?:oh|hey|look|um|ok|okay|listen)[,.!]? )*(?:(?:i'm |i am )?(?:so |really |very |truly )?sorry|i apologi[sz]e"
    r"|(?:my )?apologies)(?: (?:about|for) (?:that|this|earlier|before|my (?:tone|language|outburst|mood|attitude"
    rf"|behaviou?r)|what i said|being {_MANNER}(?: (?:to|with) you)?|(?:yelling|shouting|snapping|swearing|getting angry)"
    rf"(?: at you)?)|[,.!]*(?: if)? i(?: was| got| have been|'ve been) {_MANNER}|[,.!]* i (?:snapped|yelled|shouted|swore"
    r"|got angry) at you|,? my bad)(?: (?:earlier|before|today|to you|with you|at you|just now))*"
    r"(?:[,.!]* i (?:didn't|did not) mean (?:it|that|to be rude))?[.!]*$",
    re.I,
)
APOLOGY_NOTE = Note.answer(_APOLOGY, "No worries at all! What can I do for you?")
MAY_I_ASK_NOTE = Note.answer(_MAY_I_ASK, "Sure, go ahead.")
GOOD_NIGHT_NOTE = Note.answer(_GOOD_NIGHT, "Good night! Sleep well.")

# A bare call for help, saying not what with, which the model took for a request it could not meet ("Help." -> "I'm
# sorry, but I can't assist with that.", "I need help." -> "I'm sorry, I can't help with that."; docs/benchmarks.md,
# "Asked for help"): the whole message only; "Help me with my homework." says what with (below).
_HELP = re.compile(
    r"^(?:(?:hi|hello|hey|oh|um|uh|so|please|excuse me)[,.!]? )*(?:help(?: me| us)?(?: out)?"
    r"|(?:i|we) need (?:some |a little |your )?(?:help|assistance)"
    r"|(?:can|could|will|would) you (?:please )?help(?: me| us)?(?: out)?|can i get some help)(?:,? please)?[.!?]*$",
    re.I,
)
HELP_NOTE = Note.answer(_HELP, "Sure, I'm here to help. What do you need?")
# Help with something named, which the model declined as often ("I need help with my taxes.", "I need help with my
# code.", "Can you help me fix my computer?" -> "I'm sorry, but I can't assist with that."; 7 of 32 replies to 16 such
# requests): given first words, it asks what they need. Only help "with" a thing or to fix one, which says not what is
# wrong ("Help me understand photosynthesis." says what to do, and is answered); not help with a sum ("I need help
# with 15 times 12."), with what only a tool or a live source meets ("Can you help me with the lights?", which then got
# "Sure, I can help with the lights."), nor with a person's own pain, which needs more than a question back.
_HELP_WITH = re.compile(
    r"^(?:(?:hi|hello|hey|oh|um|uh|so|please|excuse me)[,.!]? )*(?:(?:can|could|will|would) you (?:please )?help (?:me|us)"
    r"|(?:i|we) need (?:some |a little |your )?help|help (?:me|us)) (?:with|(?:to )?fix|fixing)\b"
    rf"(?!.*(?:\d|\b(?:{_NOW_OR_LIVE}|lights?|lamps?|heating|thermostat|doors?|alarms?|timers?|reminders?|calendar"
    r"|schedule|e-?mails?|messages?|texts?|calls?|phone|ring|music|songs?|playlist|radio|flights?|tickets?|book|booking"
    rf"|order|buy|pay|send|set|setting|turn|switch|lock|unlock|play|remind|{_PAIN})\b))[^?]{{2,80}}[.!?]*$",
    re.I,
)
HELP_WITH_NOTE = Note(_HELP_WITH, 'Begin with "Sure," and ask what exactly they need help with.')

# A correction of the last question, the answer to speech recognition that misheard it ("No, I said Australia." after an
# answer about Austria -> "Sorry, I can't check the capital of Australia from here."; "I said a spider, not a spy." ->
# "I apologize, but I can't assist with that."): told it is a correction, the model answers the question corrected
# (docs/benchmarks.md, "Said again"). The whole message must be the correction.
_CORRECTION = re.compile(
    r"^(?i:(?:(?:no|nope|sorry|oh|um|uh|actually|wait)[,.!]? )*"
    r"(?:i said (?!(?:that|it|so|yes|no|nothing|hello|hi|thanks|thank you|goodbye|bye)\b)"
    r"|i meant (?!(?:it|that|what i said|well|no harm|to)\b)"
    r"|not (?!(?:now|yet|really|bad|sure|today|right now|at all|quite|much)\b)(?:the |a |an )?[\w'-]+(?: [\w'-]+){0,3}, )"
    r"[^?]{1,80})$"
    r"|^(?i:no),? (?!(?:Thanks|Thank|I|It|That|Not|No|More|One|Need|Sorry|Never|Nothing|Way|Problem)\b)"  # "No, Switzerland."
    r"[A-Z][\w'-]*(?: [A-Z][\w'-]*){0,2}[.!]?$",
)
CORRECTION_NOTE = Note(_CORRECTION, "The user corrects their last question: answer it with this correction.")

# Chance the user asks the assistant to play ("Flip a coin.", "Roll a dice.", "Pick a number between one and ten."),
# which the model declined as something it cannot do ("I'm sorry, I can't flip a coin."; 19 of 24 replies,
# docs/benchmarks.md, "Nothing promised"): the server draws it, and the answer says what came up. The whole message only.
_COIN = re.compile(rf"{REQUEST_START}(?:(?:flip|toss) (?:a|the|one) coin|coin (?:flip|toss)){REQUEST_END}"
                   r"|^heads or tails[.!?]*$", re.I)  # fmt: skip
_DICE = re.compile(rf"{REQUEST_START}(?:roll|throw) (?:(?P<count>a|one|the|two|three|2|3) )?(?:dice|die|six-sided dice?)"
                   rf"{REQUEST_END}", re.I)  # fmt: skip
_NUMBER = r"\d{1,6}|" + NUMBER_WORDS_PATTERN
_PICK = re.compile(
    rf"{REQUEST_START}(?:pick|choose|give me|think of|say|tell me|guess) (?:me )?(?:a |any |one )?(?:random )?number"
    rf"(?: (?:(?:between|from) )?(?P<low>{_NUMBER})(?: and | to |-)(?P<high>{_NUMBER}))?{REQUEST_END}",  # one to ten unless said
    re.I,
)
_DRAWS = random.Random()


# A word to learn (``app/answers/new_words.py``), taught as a joke is told; capitalised, so that "How do you spell that?"
# after it finds the word (``app.answers.spelling.reply_word``)
_TEACH_WORD = 'Begin with "Here\'s one:" and teach the user this word: "{}. It means {}."'


def chance_note(messages: list[dict], draws: random.Random = _DRAWS) -> Note | None:
    """For a newest user message that asks for a coin, a dice roll, a number picked, a fun fact (``app.answers.facts``)
    or a new word (``app.answers.new_words``), the answer with one drawn."""
    content = newest_user_text(messages)
    text = plain(content) if content is not None else ""
    if _COIN.search(text):
        return Note.answer(_COIN, f"It's {draws.choice(('heads', 'tails'))}.")
    if dice := _DICE.search(text):
        count = (dice["count"] or "a").lower()
        rolls = [draws.randint(1, 6) for _ in range(int(count) if count.isdigit() else NUMBER_WORDS.get(count, 1))]
        total = f": {sum(rolls)} in all" if len(rolls) > 1 else ""
        return Note.answer(_DICE, f"You rolled {' and '.join(f'a {roll}' for roll in rolls)}{total}.")
    if pick := _PICK.search(text):
        ends = (pick["low"], pick["high"]) if pick["low"] else ("1", "10")
        low, high = sorted(int(end) if end.isdigit() else NUMBER_WORDS[end.lower()] for end in ends)
        return Note.answer(_PICK, f"I pick {draws.randint(low, high)}.")
    # (the replies read only for a request: this runs for every message)
    if FACT_REQUEST.search(text) and (fact := fact_to_say(text, texts_of(messages[:-1], "assistant"), draws)):
        return Note.answer(FACT_REQUEST, fact)  # "Here's a fun fact: ..." was taken for the user's, and agreed with
    if WORD_REQUEST.search(text) and (taught := word_to_teach(text, texts_of(messages[:-1], "assistant"), draws)):
        word, meaning = taught
        return Note(WORD_REQUEST, _TEACH_WORD.format(word.capitalize(), meaning))
    return None


# A joke given as the answer to say was taken for the user's ("That's a great joke!", "I'm sorry, I can't provide a
# joke."; docs/benchmarks.md, "A joke"), as a riddle was: it is told, and what it plays on said, as the model's own.
_TELL_JOKE = 'Begin with "Here\'s one:" and tell this joke: "{}"'
_EXPLAIN_JOKE = 'The user did not get your joke. Begin with "It\'s a play on words:" and say what it plays on: "{}"'


def joke_note(messages: list[dict], draws: random.Random = _DRAWS) -> Note | None:
    """For a newest user message that asks for a joke (``app.answers.jokes``), the note with one drawn to tell; for one
    that did not get the joke the last reply told, what it plays on."""
    content = newest_user_text(messages)
    if content is None or has_note(content):
        return None
    replies = texts_of(messages[:-1], "assistant")
    if plays_on := joke_explained(content, replies):
        return Note(JOKE_TALK, _EXPLAIN_JOKE.format(plays_on))
    joke = joke_to_tell(content, replies, draws)
    return Note(JOKE_TALK, _TELL_JOKE.format(joke)) if joke else None


# A tongue twister drawn (``app/answers/twisters.py``), said as the joke is told: as the model's own.
_SAY_TWISTER = 'Begin with "Here\'s one:" and say this tongue twister: "{}"'


def twister_note(messages: list[dict], draws: random.Random = _DRAWS) -> Note | None:
    """For a newest user message that asks for a tongue twister, the note with one drawn to say."""
    content = newest_user_text(messages)
    if content is None or has_note(content):
        return None
    twister = twister_to_say(content, texts_of(messages[:-1], "assistant"), draws)
    return Note(TWISTER_TALK, _SAY_TWISTER.format(twister)) if twister else None


def _note_forms(*notes: str) -> re.Pattern[str]:
    """The whole text of a note of one of ``notes``' forms, with words in place of their "{}", and its closing mark:
    to tell the note from the words of a user's own message."""
    return re.compile("(?:" + "|".join(re.escape(note).replace(re.escape("{}"), '[^"\n]*') for note in notes) + r")\)")


# A riddle asked for, told from ``app/answers/riddles.py``: given it as the answer to say, the model answered it ("The
# answer to the riddle ... is a clock.", 13 of 16); asked to say it without its answer after "Here's one:", it did, 16 of
# 16. What follows it as words to say, each with what they are: a guess's verdict said as it is only so (a wrong guess
# got "It's a shadow." or the riddle again from the words alone; docs/benchmarks.md, "A riddle").
_TELL_RIDDLE = 'Begin with "{}" and ask this riddle, without its answer: "{}"'
_RIDDLE_SAYS = {"answer": 'Say: "{}"', "right": 'The guess is right. Say: "{}"',
                "wrong": 'The guess is not the answer. Say: "{}"', "hint": 'Begin with "Here\'s a hint:" and say: "{}"'}
# A riddle the user asks, one of those: its answer ("How many months have 28 days?" -> "There are 7 months ...").
_RIDDLE_HEARD_SAYS = 'The user asks you a riddle. Say: "The answer is {}. {}"'


def riddle_note(messages: list[dict], draws: random.Random = _DRAWS) -> Note | None:
    """For a newest user message that asks for a riddle, asks one of them, or follows one a reply told, what to say."""
    content = newest_user_text(messages)
    if content is None or len(content) > 200 or has_note(content):
        return None
    if not RIDDLE_TALK.search(plain(content)) and not RIDDLE_HEARD.search(plain(content)):
        return None  # the replies read only for riddle talk: this runs for every message
    replies = texts_of(messages[:-1], "assistant")
    if heard := riddle_heard(content, replies):
        return Note(RIDDLE_HEARD, _RIDDLE_HEARD_SAYS.format(heard.answer, heard.why))
    if riddle := riddle_to_tell(content, replies, draws):
        first = "Yes! Here's one:" if re.match(r"(?:do|did) you\b", plain(content), re.I) else "Here's one:"
        return Note(RIDDLE_TALK, _TELL_RIDDLE.format(first, riddle))
    said = riddle_follow_up(content, replies)
    return Note(RIDDLE_TALK, _RIDDLE_SAYS[said.kind].format(said.words)) if said else None


# A game played by voice (``app/answers/games.py``), which the model declined or played amiss ("I'm thinking of an
# animal. Guess what it is." -> "I'm sorry, I can't guess what animal it is."; docs/benchmarks.md, "Games"): twenty
# questions asked one yes-or-no question at a time, a number guessed and a move played as the server worked them out.
_GAME_SAYS = {
    "ask": 'The user thinks of something for you to guess. Begin with "Is it" and ask one yes-or-no question about it.',
    "next": "The user answered your question in your guessing game. Ask your next yes-or-no question, or guess what it is.",
    "guess": 'You guess the number the user thinks of. Say: "{}"', "play": 'You play rock, paper, scissors. Say: "{}"',
}


_RIDDLE_NOTED = _note_forms(_TELL_RIDDLE, *_RIDDLE_SAYS.values())
_RIDDLE_HEARD_NOTED = _note_forms(_RIDDLE_HEARD_SAYS)
_GAME_NOTED = _note_forms(*_GAME_SAYS.values())
_JOKE_NOTED = _note_forms(_TELL_JOKE, _EXPLAIN_JOKE)
_TWISTER_NOTED = _note_forms(_SAY_TWISTER)
_WORD_NOTED = _note_forms(_TEACH_WORD)


def game_note(messages: list[dict], draws: random.Random = _DRAWS) -> Note | None:
    """For a newest user message that starts or goes on with a game, the assistant's turn."""
    content = newest_user_text(messages)
    if content is None or len(content) > 200 or has_note(content) or not GAME_TALK.search(plain(content)):
        return None  # (a message with a note of its own already, "I'm thinking of someone. Are you a person?": that one)
    play = game_turn(texts_of(messages, "user")[-21:], texts_of(messages[:-1], "assistant")[-20:], draws)
    return Note(GAME_TALK, _GAME_SAYS[play.kind].format(play.words)) if play else None


# A request to say something of a kind, which the model declined or met with nothing ("Say something funny." -> "I'm
# sorry, I can't say something funny from here.", "Cheer me up." -> "I'm sorry, but I can't cheer you up.", "Say
# something nice." -> "How about a nice day?", "Sing happy birthday." -> "I'm sorry, I can't sing."; docs/benchmarks.md,
# "Asked for help"): told what to say, kind words, it says them; it cannot sing, but it can wish a happy birthday
# (``birthday_note``); a fact is drawn (``chance_note``), and a joke (``joke_note``). The whole message only.
_KIND_ASKED = re.compile(
    rf"{REQUEST_START}(?:(?:say|tell (?:me|us)) something (?:nice|kind|sweet|positive|encouraging|uplifting"
    r"|to cheer (?:me|us) up)(?: (?:to|about) (?:me|us))?|cheer (?:me|us) up|make (?:me|us) feel (?:better|good|happy)"
    rf"|motivate (?:me|us)|give (?:me|us) (?:some )?(?:motivation|encouragement)|(?:give|pay) me a compliment"
    rf"|compliment me){REQUEST_END}",
    re.I,
)
_BIRTHDAY_SONG = re.compile(
    rf"{REQUEST_START}sing (?:me )?happy birthday(?: to (?P<who>me|my (?:[\w'-]+ ){{0,2}}?[\w'-]+"
    rf"|(?-i:[A-Z][\w'-]+)))?{REQUEST_END}",
    re.I,
)
KIND_NOTE = Note(_KIND_ASKED, 'Begin with "You" and say something kind and encouraging about them.')


def birthday_note(messages: list[dict]) -> Note | None:
    """For a newest user message that asks to sing happy birthday, the wish: "happy birthday to you" a third time, as
    in the song, would be cut as a loop."""
    content = newest_user_text(messages)
    asked = _BIRTHDAY_SONG.search(plain(content)) if content is not None else None
    if asked is None:
        return None
    who = asked["who"] or "me"
    if who.lower() == "me":
        return Note.answer(_BIRTHDAY_SONG, "I can't sing, but happy birthday to you! I hope your day is wonderful.")
    to = f"your {who.split(' ', 1)[1]}" if who.lower().startswith("my ") else who
    return Note.answer(_BIRTHDAY_SONG, f"I can't sing, but happy birthday to {to}! I hope it's a wonderful day.")


# A request for the last answer, shorter ("Shorter, please.", "Too long. In short?"), which the model met with the same
# long answer again (66 and 58 words for "Shorter, please." after "Tell me about the Eiffel Tower.") or a decline ("That's
# too long." -> "I apologize, but I can't provide that information."): told to, it says it in a sentence (eight forms,
# reply words p50 23.5 -> 15, the longest 81 -> 37; docs/benchmarks.md, "Said again"). The whole message only.
_SHORT_REQUEST = (
    r"(?:(?:that's|that is|that was|it's|it is|that's way|way|much|far) )?too (?:long|wordy)"
    r"|shorter|in short|in brief|(?:in )?a nutshell|tl;? ?dr|(?:just )?(?:the )?(?:short|shorter|brief|quick) version"
    r"|(?:just )?(?:give me )?(?:the |a )?(?:short|shorter|brief|quick) (?:answer|one)"
    r"|(?:(?:can|could|would|will) (?:you|u) (?:please )?)?(?:(?:make|keep|say|put) (?:it|that) (?:shorter|short|brief|briefer"
    r"|in (?:fewer|less) words|in (?:one|a|a single) (?:sentence|line)|in (?:a )?few words)|(?:sum (?:it|that) up"
    r"|summari[sz]e (?:it|that))(?: in (?:one|a|a single) (?:sentence|line)| in (?:a )?few words)?|shorten (?:it|that)"
    r"|give (?:me )?(?:a|the) (?:short|shorter|brief|quick) version)"
    r"|(?:in )?(?:fewer|less) words|less detail"
)
_SHORTER = re.compile(
    rf"^(?:(?:ok|okay|um|hmm|sorry|wow|oh|well|no|whoa)[,.!]? )*(?:{_SHORT_REQUEST})(?:,? please)?"
    rf"(?:[.!?,]+ (?:{_SHORT_REQUEST})(?:,? please)?)*[?.!]*$",
    re.I,
)
SHORTER_NOTE = Note(_SHORTER, "The user asks for your last answer again, shorter: say it in one short sentence.")
_LONG_REPLY_WORDS = 15  # "Way too long." after "How was your flight?" is no request to shorten it


def shorter_note(messages: list[dict]) -> Note | None:
    """The note for a newest user message that asks for the last answer shorter, where that answer was long."""
    said = (texts_of(messages[:-1], "assistant") or [""])[-1]
    return SHORTER_NOTE if len(said.split()) > _LONG_REPLY_WORDS and SHORTER_NOTE.add(messages) is not messages else None


# Doubt of the last answer ("That's wrong.", "Are you sure?", "Is that right?"), which the model met with a decline ("I'm
# sorry, but I can't correct that.") or a bare "Yes, I'm sure." (5 of 18 replies gave the answer again): told to, it says
# the answer again (27 of 27, twice; told to think again, "You're wrong." turned Jupiter into Saturn two times in three,
# and invited to correct it, once in five; docs/benchmarks.md, "Said again"). The whole message only.
_DOUBT = re.compile(
    r"^(?:(?:hm+|um|oh|wait|no|but|really|actually)[,.!]? )*"
    r"(?:(?:i think |i'm pretty sure |i'm not sure )?(?:that's|that is|that was|you're|you are|you were|it's|it is)"
    r" (?:totally |completely |just |so |definitely )?(?:wrong|incorrect|not right|not correct|mistaken|not true)"
    r"|(?:are |r )?(?:you|u) (?:sure|certain)(?: about (?:that|it|this))?|really|is that (?:right|true|correct|so)"
    r"|i don't think (?:that's|that is|you're) (?:right|correct|true)"
    r"|(?:that|this) (?:can't|cannot|doesn't|does not) (?:be right|be true|sound right))(?:,? though)?[?.!]*$",
    re.I,
)
DOUBT_NOTE = Note(_DOUBT, "The user doubts your last answer. Say the right answer again in one sentence.")

# The user's own answer against the last one ("No, it's five." after "Two plus two equals four.", "No, spiders have six
# legs.", "I think it's Saturn."), which the model met with a decline ("I apologize, but I can't provide that
# information.", "Sorry, I can't check the weather from here.") or agreed to ("That's correct! Saturn is the
# second-largest planet"; 2 of 16 replies to eight such claims said what is true): told it is disagreement, it says what
# is true. One sentence that says something is so, with a figure, a colour or a name in it, after a lead that disagrees
# or says what the user thinks is so ("I think it's ..."), where the user asked a question about the world and the reply
# answered it (not "No, it's Tim." after "Nice to meet you, Tom!" or "Your name is Tom.", nor "No, it's green." to "Is it
# blue?", nor a time after the clock's); not thanks, praise, an opinion, news or weather ("No, that's all, thanks
# Alexa.", "I think London is better.", "No, it's raining here in London."), nor a misheard question put right ("No,
# it's Australia, not Austria." after a question about Austria: ``CORRECTION_NOTE``).
_COLOURS = r"red|orange|yellow|green|blue|purple|violet|pink|brown|black|white|grey|gray|silver|gold"
_PUSHBACK = re.compile(
    r"^(?:(?:um|uh|hm+|oh|but|well)[,.!]* )*(?:(?:(?:no|nope|nah|no way|wrong|incorrect|actually|that's wrong"
    r"|that's not right|you're wrong|that's incorrect)[,.!]* )+(?:i think |i'm pretty sure |i'm sure |i believe )?"
    r"|(?:i think|i believe|i'm pretty sure|i'm sure|i thought|i was told|i read)(?: that)? (?=(?:it's|it is|it was"
    r"|the answer is|they're|they are|there are|there's|there were)\b))",
    re.I,
)
_CLAIM = re.compile(
    r"(?=[^.!?]*\b(?:it's|it is|it was|its|they're|they are|there are|there's|that's|is|are|was|were|has|have|had|equals"
    r"|makes|comes to|ended|started|began|wrote|won|died|invented|discovered|painted|built|lives|lived|weighs|takes|took"
    r"|means|orbits|holds)\b)(?!(?:my|your|our|i|i'm|we|you|me|this|please|thanks|thank|going)\b)"
    r"(?![^.!?]*\b(?:here|today|tonight|tomorrow|yesterday|now|rain\w*|snow\w*|sunny|cloudy|windy|weather|going to|will"
    r"|fine|okay|ok|thanks|thank|cheers|bye|goodbye|right|correct|true|so|too|fun|cool|better|best|worse|worst|beautiful"
    r"|nice|love|like|birthday|meeting|party|lot|all|good|great)\b)"  # thanks, praise, opinions, news, weather
    rf"[^.!?]{{0,100}}?\b(?:\d[\d,.]*|{NUMBER_WORDS_PATTERN}|{_COLOURS}|(?-i:(?!(?:I|I'm|OK|Okay)\b)[A-Z][\w'-]+))\b"
    r"[^.!?]{0,60}[.!]*$",
    re.I,
)
_NOT_THIS = re.compile(r", not (?:the |a |an )?([\w'-]+)", re.I)  # "No, it's Australia, not Austria."
_ABOUT_THE_USER_OR_NOW = re.compile(rf"\b(?:my|me|i|mine|time|date|day|{_NOW_OR_LIVE})\b", re.I)
PUSHBACK_NOTE = Note(_PUSHBACK, "The user disagrees with your last answer. Say kindly what is true, in one sentence.")


def pushback_note(messages: list[dict]) -> Note | None:
    """For a newest user message that answers the last reply, an answer to their question about the world, with a claim
    of its own, the note to say what is true."""
    content = newest_user_text(messages)
    if content is None or len(content) > 160 or len(messages) < 3 or messages[-2].get("role") != "assistant":
        return None
    asked, answer = texts_of(messages[-3:-2], "user"), messages[-2].get("content")
    if not (asked and _is_question(asked[0].strip()) and not _ABOUT_THE_USER_OR_NOW.search(asked[0])
            and isinstance(answer, str) and answer.strip() and not answer.rstrip().endswith("?")):  # fmt: skip
        return None
    text = plain(content)
    lead = _PUSHBACK.match(text)
    if not (lead and _CLAIM.fullmatch(text, lead.end())):
        return None
    put_right = _NOT_THIS.search(text)
    return None if put_right and re.search(rf"\b{re.escape(put_right[1])}\b", asked[0], re.I) else PUSHBACK_NOTE


# A user who did not follow the last reply ("What do you mean?", "I don't get it.", "I'm confused."), which the model met
# with a decline or a request to rephrase ("I'm sorry, but I can't provide information about the capital of Australia.",
# "I'm sorry if I didn't help. Let me know if there's anything else I can assist you with."; 24 of 44 replies to ten such
# forms said nothing of the last answer; docs/benchmarks.md, "Said again"): told why, it says it again in simpler words.
# The whole message only, after a reply; "I didn't get that." is a request to hear it again (``_REPEAT_REQUEST``).
CLARIFY_NOTE = Note(NOT_FOLLOWED, "The user did not understand your last reply. Say what you meant in other, simpler words.")


def clarify_note(messages: list[dict]) -> Note | None:
    """The note for a newest user message that did not follow the last reply, where there is one."""
    said = any(text.strip() for text in texts_of(messages[:-1], "assistant"))
    return CLARIFY_NOTE if said and CLARIFY_NOTE.add(messages) is not messages else None


# A follow-up that changes one part of the last question ("And in a foot?" after "How many centimetres in an inch?",
# "What about in an hour?" after "How many seconds are in a minute?"), which the model answered as a question of its own
# ("There are 12 inches in a foot.", "There are 60 minutes in an hour."; 13 of 24 right on twelve pairs): the question
# asked in full beside it, the last one with its last phrase of the same preposition changed (21 of 24 in two runs; the
# last question quoted unchanged made it worse; docs/benchmarks.md, "Said again"). Only where the last question has
# that preposition; "And Germany?" the model follows as it is.
_FOLLOW_UP = re.compile(
    r"^(?:(?:and|so|ok|okay|um|oh)[,]? )*(?:and|what about|how about)[,]? (?P<prep>in|on|at|for|to|from|with|about|of|into"
    r"|per|by) (?!(?:me|you|him|her|us|them|it|this|that|now|then|there|here|course|fact|example|general|least|all|sure"
    r"|case|purpose|real|any case|the way|my opinion|that case)\b)(?P<rest>[^?.!,;\s]+(?: [^?.!,;\s]+){0,3})"
    r"(?:,? please)?[?.!]*$",
    re.I,
)
_QUESTION = re.compile(r"\?$|^(?:what|what's|how|who|where|when|which|why|is|are|do|does|did|can|could|will|would"
                       r"|tell me|translate)\b", re.I)
_IN_FULL = "Asked in full: "


def _changed(question: str, follow: re.Match[str]) -> str | None:
    """``question`` with its last phrase that starts with the follow-up's preposition changed to the follow-up's."""
    body = question.rstrip("?.! ")
    # "And in Italian?" after "Translate ... into Spanish."
    prep = "in|into" if follow["prep"].lower() in ("in", "into") else follow["prep"]
    starts = [found.start() for found in re.finditer(rf"\b(?:{prep})\b", body, re.I)]
    return f"{body[:starts[-1]]}{follow['prep'].lower()} {follow['rest'].strip()}?" if starts else None


def follow_up_note(messages: list[dict], *, figures: bool = True) -> Note | None:
    """For a newest user message that changes one part of the last question ("And in a foot?"), the question in full,
    and with ``figures`` its unit conversion's figure where it asks one (``conversion_hints``); a follow-up of a
    follow-up changes the last one in full."""
    content = newest_user_text(messages)
    if content is None or _FOLLOW_UP.search(plain(content)) is None:
        return None
    question = None
    for text in map(plain, texts_of(messages, "user")[-4:]):
        if follow := _FOLLOW_UP.search(text):
            question = _changed(question, follow) if question else None
        else:
            question = text if _QUESTION.search(text) else None
    if question is None:
        return None
    figure = conversion(question) if figures else None
    phrase = phrase_in(question) if figures and not figure else None  # "What about in Italian?" after "thank you" in Spanish
    # "And in Paris?" after "What time is it in Tokyo?"; not after a time said in another city, whose place it changes
    elsewhere = time_in_place(question) if figures and not figure and not phrase and asks_time_now(question) else None
    added = f" Worked out: {figure}" if figure else f" {phrase or elsewhere}" if phrase or elsewhere else ""
    return Note(_FOLLOW_UP, f'{_IN_FULL}"{question}"{added}')


def countdown_note(messages: list[dict]) -> Note | None:
    """For a newest user message that tells the date just after the days to a day were asked with none given (and
    ``COUNTDOWN_NOTE`` asked for it), the question in full with the date, and its count (``app.answers.days``): told
    the date alone, the model counted "There are 23 days until Christmas." from December 7 (2 of 2)."""
    content = newest_user_text(messages)
    asked = texts_of(messages[:-1], "user")[-1:]
    if content is None or not DATE_TOLD.search(plain(content)) or not asked or not COUNTDOWN_ALONE.search(plain(asked[0])):
        return None
    counted = re.sub(r"\b(h)ow long\b", r"\1ow many days", plain(asked[0]), count=1, flags=re.I)  # as days.py reads it
    question = f"{plain(content).rstrip('.!')}. {counted}"
    worked = figure(question)
    return Note(DATE_TOLD, f'{_IN_FULL}"{question}" {worked}') if worked else None


_SUM_SAYS = f'{_IN_FULL}"What is {{}}?" Worked out: the answer is {{}}.'
_SUM_NOTED = _note_forms(_SUM_SAYS)


def sum_note(messages: list[dict]) -> Note | None:
    """For a newest user message that goes on from the last sum's answer ("Now divide that by four."), the sum in full
    and its answer (``app.answers.arithmetic.sum_goes_on``)."""
    content = newest_user_text(messages)
    if content is None or not GOES_ON.search(plain(content)):  # the earlier questions worked out again only then
        return None
    if (found := sum_goes_on(texts_of(messages, "user"))) is None:
        return None
    sum_, figure = found
    return Note(GOES_ON, _SUM_SAYS.format(sum_, figure))


# A question that points with "it" or "there" at what the last answer named ("How far is it from the sun?" after "Jupiter is
# the largest planet."), which the model took for something else ("The average distance from the Sun to Earth is about 93
# million miles.") (docs/benchmarks.md, "Said again"). Only after a question that asks what or which thing (its answer is
# the name; after "Who invented the telephone?" "When did he do it?" points elsewhere), for a short question, and not
# where "it" points at nothing ("What time is it?", "Is it raining?").
_POINTS = re.compile(r"\b(?P<it>it|its)\b|\b(?P<there>there)[?.!]*$", re.I)
_POINTS_AT_NOTHING = re.compile(
    r"\bwhat (?:time|day|date|month|year|season) is it\b|\bis it (?:the )?weekend\b|\bhow(?:'s| is| was) it going\b"
    r"|\bis it (?:true|right|correct|so|ok|okay)\b|\b(?:rain|snow|sunny|cloudy|windy|foggy|stormy)"
    r"|\bis it (?:\w+ ){1,3}(?:to|if|that|when|or)\b|\bwhat(?:'s| is) it called\b"  # "Is it better to rent or buy?"
    r"|\b(?:you|u|anybody|anyone|somebody|someone|who's|who is)\b",  # "Are you there?", "Can you say it again?"
    re.I,
)
_NAMES_A_THING = re.compile(
    r"^(?:(?:so|and|ok|okay)[,]? )*(?:what|which)(?:'s| is| was| are| were|(?: \w+)? (?:is|was|are|were)\b)", re.I
)
_MOST_WORDS = 12
_MEANS = 'By "'


def pointing_note(messages: list[dict]) -> Note | None:
    """For a newest user message that asks about what the last answer named with "it" or "there", what that is: the
    first name the last answer brought (``spelling.reply_word``)."""
    content = newest_user_text(messages)
    text = plain(content) if content is not None else ""
    points = _POINTS.search(text)
    if (points is None or len(text.split()) > _MOST_WORDS or not _QUESTION.search(text)
            or _POINTS_AT_NOTHING.search(text)):  # fmt: skip
        return None
    asked, said = texts_of(messages[:-1], "user")[-1:], texts_of(messages[:-1], "assistant")[-1:]
    if not asked or not said or not _NAMES_A_THING.search(plain(asked[0])):
        return None
    name = reply_word(said[0], asked[0])
    if name is None or name.lower() in text.lower():
        return None
    if re.search(rf"\bthe {re.escape(name)}\b", said[0], re.I):
        name = f"the {name}"  # "the Sun", "the Pacific Ocean"
    return Note(_POINTS, f'{_MEANS}{(points["it"] or points["there"]).lower()}" the user means {name}.')


# "Another one" after a joke, a film or a name ("Something else?" -> "I'm here to help! What else would you like to talk
# about?", "Tell me another one." -> "I'm sorry, but I can't provide another joke."), and "I give up" after a riddle
# ("I'm sorry, I can't assist with that."; docs/benchmarks.md, "Said again"): after a reply, the whole message only; the
# riddle's answer only where the user asked for a riddle, a quiz or something to guess.
ANOTHER_NOTE = Note(ANOTHER_ASKED, "The user asks for another of what you just gave: give a different one.")
GIVE_UP_NOTE = Note(GIVE_UP, "The user gives up on your riddle or question. Begin with \"The answer is\" and say it.")
_GUESSING = re.compile(r"\b(?:riddles?|quiz me|(?:a|the) quiz|trivia|guessing game|guess (?:what|my|which|who|where|how)"
                       r"|puzzle|brain ?teaser)\b", re.I)


def more_note(messages: list[dict]) -> Note | None:
    """For a newest user message, after a reply, that asks for another of what it gave, or gives up on its riddle."""
    if not texts_of(messages[:-1], "assistant"):
        return None
    if ANOTHER_NOTE.add(messages) is not messages:
        return ANOTHER_NOTE
    asked = texts_of(messages[:-1], "user")[-1:]
    return GIVE_UP_NOTE if asked and _GUESSING.search(asked[0]) and GIVE_UP_NOTE.add(messages) is not messages else None


# "How old am I?" after "I was born in 1978.", which the model answered "You are 44 years old." (docs/benchmarks.md,
# "Ages and years"): the age worked out from the birth year given, as the question with the year in it gets it
_WORKED_OUT_START = "\n\n(Worked out: "


def age_note(messages: list[dict]) -> Note | None:
    """For a newest user message that asks the user's age, the age from the birth year they gave earlier."""
    content = newest_user_text(messages)
    figure = my_age(content, texts_of(messages[:-1], "user")) if content is not None else None
    return Note(MY_AGE_ASKED, figure) if figure else None


def owned_note(messages: list[dict]) -> Note | None:
    """For a newest user message that asks how many pets, children or siblings the user has, the total of the list
    they gave."""
    content = newest_user_text(messages)
    figure = owned_counted(content, texts_of(messages[:-1], "user")) if content is not None else None
    return Note(OWNED_ASKED, figure) if figure else None


def checked_note(messages: list[dict]) -> Note | None:
    """For a newest user message asking what kind of thing something is ("Is a spider an insect?") or whether a pet may
    eat a food ("Can dogs eat grapes?"), the answer checked beforehand (``app.answers.kinds``,
    ``app.answers.pet_foods``)."""
    content = newest_user_text(messages)
    if content is None:
        return None
    if said := kind_answer(content):
        return Note.answer(KIND_ASKED, said)
    if said := pet_food_answer(content):
        return Note.answer(PET_FOOD_ASKED, said)
    return None


def said_notes(messages: list[dict], *, figures: bool = True) -> tuple[Note, ...]:
    """The notes read from the conversation itself: the last reply to say again, shorter or plainer, a number, a name or
    a question given earlier, a first message about an earlier conversation, the last question in full (with its figure
    where ``figures``), and where ``figures`` a sum that goes on from the last answer worked out, the user's age from the
    birth year they gave or the total of the pets, children or siblings they listed, a riddle or what follows one, a draw,
    a fact or a word to learn, a joke or what it plays on, a tongue twister, a birthday wish, the user's own answer against
    the last one, the user's health or diet, or what kind of thing something is or whether a pet may eat a food."""
    found = (repeat_note(messages), kept_note(messages), name_note(messages), asked_note(messages), memory_note(messages),
             say_note(messages), follow_up_note(messages, figures=figures), sum_note(messages) if figures else None,
             age_note(messages) if figures else None, owned_note(messages) if figures else None, riddle_note(messages),
             game_note(messages), chance_note(messages), joke_note(messages), twister_note(messages), birthday_note(messages),
             shorter_note(messages), clarify_note(messages), pushback_note(messages), more_note(messages),
             condition_note(messages), lacks_note(messages), countdown_note(messages) if figures else None,
             checked_note(messages))
    return tuple(note for note in found if note is not None)


# A yes-or-no question whose answer is no, which the model answered yes ("Is a bat a bird?", "Is Sydney the capital of
# Australia?", "Did Shakespeare write Don Quixote?" -> "Yes, ..."; 25 of 42 replies on 21 such questions): given first
# words other than "Yes", it says what is true (11 of 42; the same questions' yes answers stayed right; told to say
# what is true first, it began "True." and agreed as before; docs/benchmarks.md, "Sums"). A question about the world:
# not its own ("Are you ...?"), nor about "it" (a guess in a game: "Is it an animal?"), nor one the limits prompt
# declines, about now or the weather, the day or a match ("Is it going to rain?", "Is it the weekend?"), where first
# words would lead it to make the answer up (or not call the page's clock). The last note of all. The user's own may
# ("Can I freeze bread?", "Can I give my dog chocolate?"), which the model declined as if asked to do it ("Sorry, I
# can't check the weather from here.", "Sorry, I can't give your dog chocolate."; docs/benchmarks.md, "Can I ...?"),
# gets the same first words; not a request to the model ("Can I ask you something?") nor one a tool meets.
# now or live, or about a day or a match
_LIVE = (rf"{_NOW_OR_LIVE}|sunny|cloudy|windy|cold|hot|warm|score|won|win|winning|lose|lost|beat|game|match|news|late"
         r"|running|going to|weekend|weekday|day|date|time|night|morning|evening|\w+day|up|down|over|storm|humid"
         r"|election|coming|available|possible")
_YES_NO = re.compile(
    r"^(?:(?:so|and|ok|okay|hey|um|wait|quick question)[,]? )*(?:"
    r"(?:is|are|was|were|do|does|did|can|could|has|have|will)"
    r"\b(?! (?:you|u|i|we|my|your|our|me|us|it|this|that|they|he|she)\b)"
    rf"(?!.*\b(?:{_LIVE}|my|your|our|you|i|me)\b)"  # about the world
    r"|(?:can|could|may|should) (?:i|we) (?!(?:ask|tell|talk|speak|say|call|text|message|trust|borrow|change|pay|help"
    r"|interrupt|come|join|go|book|order|set|play|hear|see|listen|send|use your|stop|have|get|do|start|try|leave)\b)"
    rf"(?!.*\b(?:{_NOW_OR_LIVE}|you|your|u|timer|alarm|reminder|music|song|light|lights|umbrella|jacket|coat|sunscreen"
    r"|wear)\b)"  # the user's own may, not now
    r")[^?]{2,120}\?$",
    re.I,
)
YES_NO_NOTE = Note(_YES_NO, 'Begin with "Well," and say what is true.')

# A question about a lasting fact of the world, how big, far, hot or old something is or its colour, which the limits
# prompt's declines reached: "How high is Mount Everest?" -> "I can't check the height of Mount Everest from here.",
# "How hot is the sun?" -> "Sorry, I can't check the weather from here." (30 of 88 replies to 44 such questions; with
# this note and the limits prompt's own line on lasting facts, 1 of 88: docs/benchmarks.md, "Lasting facts"). Not
# about now or a live figure ("How hot is it today?", "How much is a bitcoin worth?"), nor about the user, the
# assistant or what "it" or "that" is ("How old am I?", "What colour is it?"), nor with a number, whose figure is a
# conversion's ("How far is 10 km in miles?"); "it gets" and "it takes" are the world's ("How cold does it get in
# Antarctica?"). The last note of all, after the yes-or-no question's.
_MEASURE = (r"hot|cold|warm|deep|far(?: away| off)?|high|tall|big|large|small|tiny|heavy|long|old|fast|quick|wide"
            r"|bright|salty|thick|loud|strong|hard|dense|massive|dark|sour|spicy|poisonous|dangerous|rare|common")
_WORLD_QUESTION = re.compile(
    r"^(?:(?:so|and|ok|okay|hey|um|wait|quick question)[,]? )*"
    rf"(?:how (?:{_MEASURE}) (?:is|are|was|were|does|do|did|can)|how much (?:does|do|did) (?=[^?]* weigh\?$)"
    r"|(?:at )?what (?:colou?r|shape|temperature|size) (?:is|are|was|were|does|do))\b"
    rf"(?!.*\b(?:{_NOW_OR_LIVE}|at the moment|these days|forecast|outside|queue|line|wait|costs?|worth|score|news|until"
    r"|till|left|from now|ago|it(?! gets?\b| takes?\b)|its|it's|there|here|this|that|these|those|my|your|our|you|u|i|me"
    r"|we|us|he|she|they|him|her|them)\b)"
    r"(?!.*\b\d)[^?]{2,100}\?$",  # "How tall is K2?", not "How far is 10 km in miles?"
    re.I,
)
WORLD_NOTE = Note(_WORLD_QUESTION, "A question about the world: answer it.")

# A question about a place's usual weather, its climate, which the limits prompt's example declined as today's: "What's
# the weather like in Paris in April?", "Does it snow in Texas?", "How cold are the winters there?" -> "Sorry, I can't
# check the weather from here." (16 of 20 replies to ten such questions; "As an AI language model, I don't have access
# to real-time weather data. However, ..." before the rest). A month or season, "usually" or "climate" says it is not
# today's, as "Does it ...?" and "Does Seattle get ...?" do; not with now, this, next, a day, a date, a forecast or
# "will" ("What's the weather like in London this weekend?"), nor "Is it hot in Dubai?" (today's, as likely), nor
# "here" (a place the model does not know). Before the note that says what "there" points at.
_SEASON = (r"winters?|summers?|spring|springtime|autumn|fall|wintertime|summertime|(?:rainy|dry|wet|monsoon) season"
           rf"|{'|'.join(MONTHS)}")
_USUALLY = r"usually|normally|typically|generally|mostly|often|always|on average|in general|year[- ]round|all year"
_HOT_OR_COLD = r"hot|cold|warm|mild|humid|rainy|snowy|sunny|wet|dry|chilly|freezing|windy|cloudy|foggy"
_CLIMATE_QUESTION = re.compile(
    r"^(?:(?:so|and|ok|okay|hey|um|wait|quick question|also)[,]? )*"
    rf"(?!.*\b(?:now|today|tonight|tomorrow|yesterday|this|next|currently|at the moment|outside|forecast|going to|gonna"
    rf"|will|later|yet|{_DAY}|weekend|here|where i live|where i am)\b)(?!.*\d)(?:"  # not now, a day or a date, nor here
    rf"(?=[^?]*\b(?:{_SEASON}|{_USUALLY})\b)(?:what(?:'s| is| are) (?:the )?(?:weather|temperatures?|average temperature)\b"
    r"|what(?:'s| is) [\w' .-]{2,30}'s weather\b|how(?:'s| is) the weather\b|is the weather (?:\w+ ){1,3}in\b"
    rf"|how (?:{_HOT_OR_COLD}) (?:is it|does it get) (?:in|there)\b"
    rf"|is it (?:(?:{_USUALLY}|very|really|too) )*(?:{_HOT_OR_COLD}) (?:in|there)\b"
    rf"|is [\w' .-]{{2,30}} (?:(?:{_USUALLY}|very|really|too) )*(?:{_HOT_OR_COLD}) in (?:the )?(?:{_SEASON})\b)"
    r"|what(?:'s| is) (?:the )?climate (?:usually )?(?:like )?(?:in|of|there)\b"
    r"|what(?:'s| is) [\w' .-]{2,30}'s climate(?: like)?(?=\?$)"
    r"|what (?:kind|sort|type) of (?:weather|climate) (?:does|do)\b"
    rf"|does it (?:ever |usually |often |normally |really )?(?:snow|rain|hail|freeze|get (?:{_HOT_OR_COLD}))\b[^?]*"
    r"\b(?:in|there)\b"
    r"|does [\w' .-]{2,30} (?:ever |usually |often )?get (?:a lot of |lots of |much |any |many )?(?:snow|rain|hurricanes"
    r"|tornadoes|typhoons|storms|sun|sunshine)\b"
    rf"|how (?:{_HOT_OR_COLD}) (?:are|is|were|do|does) (?:the )?(?:{_SEASON})\b)[^?]{{0,80}}\?$",
    re.I,
)
# told to answer it, the model still declined some ("What's the weather like in Hawaii in December?" 3 of 4) and said
# "Yes" to what is not so ("Does London get much snow?" -> "Yes, London gets much snow." 2 of 2); begun with "Well,",
# "Well, it's not hot in Dubai in August."; begun with "Usually,", 29 of 32 right over 16 such questions
CLIMATE_NOTE = Note(_CLIMATE_QUESTION, "A question about the usual weather there, which stays true, not today's. Begin "
                                       'with "Usually," and answer from what you know.')

# A question about what people can or should do, asked with "you" for anyone, which the model took for a question
# about itself and declined: "Can you eat raw eggs?" -> "Sorry, I can't eat raw eggs, sorry.", "Can you freeze milk?"
# -> "Sorry, I can't check the weather from here.", "How far can you walk in an hour?" -> "I can't walk in an hour."
# (27 of 32 replies to 16 such questions; told 'Here "you" means anyone', still; docs/benchmarks.md, "Said, not
# promised"). A question whose "you" does something a body or a kitchen does (eat, drink, swim, survive, hold one's
# breath, freeze, reheat ...), not one to the assistant ("Can you tell me ...", "Can you hear me?", "Do you eat?": no
# object, or "me" or "us" after the verb), gets itself asked of people ("Can people eat raw eggs?") and first words.
_BODY_VERBS = (r"eat|drink|swallow|freeze|refreeze|swim|survive|breathe|microwave|reheat|recycle|overdose|catch|die"
               r"|go without|live without|lose weight|gain weight|boil|bake|fry|dye|tan|mix|get (?:sunburnt|sunburned|sick"
               r"|a cold|the flu|pregnant|lost)|see (?:the [\w ]+ )?from space|run a (?:marathon|mile)|walk a mile|fly with")
_WHAT_ANYONE_DOES = (rf"{_BODY_VERBS}|hold|walk|run|jog|lift|burn|sleep|stay awake|store|live|travel|drive|cook|grow"
                     r"|plant|feed|bring|wash|lose|gain")
_ANYONE_NEEDS = (r"(?:hours of )?(?:sleep|water|food|calories|protein|exercise|fibre|fiber|iron|vitamin \w+|coffee|caffeine"
                 r"|alcohol|salt|sugar|steps)")
_ANYONES = re.compile(
    r"^(?:(?:so|and|ok|okay|hey|um|wait|quick question)[,]? )*"
    rf"(?:(?:can|could|should) you (?:safely |still |really |actually )?(?:{_BODY_VERBS})\b(?! (?:me|us|my|our|your)\b)"
    r"(?:[^?]{2,100}|(?<=space))"
    rf"|how (?:long|far|much|many|fast|often|deep|high|soon)\b[^?]{{0,40}}?\b(?:can|could|should|do) you (?:safely )?"
    rf"(?:{_WHAT_ANYONE_DOES})\b(?! (?:me|us)\b)[^?]{{0,100}}"
    rf"|how (?:much|many) {_ANYONE_NEEDS} (?:do|should|can|does a person) (?:you |i )?(?:need|get|have|drink|eat|walk|take)"
    r"\b[^?]{0,100}"
    rf"|what happens (?:if|when) you (?:{_WHAT_ANYONE_DOES})\b[^?]{{2,100}})\?$",
    re.I,
)
_PEOPLE_MEANT = "The user means people in general: "
_FOR_PEOPLE = ((r"\b(?:do|does) (?:you|i)\b", "do people"), (r"\b(?:yourself|myself)\b", "themselves"),
               (r"\b(?:your|my)\b", "their"), (r"\b(?:you|i)\b", "people"))


def anyones_note(messages: list[dict]) -> Note | None:
    """For a newest user message that asks what people can or should do with "you" for anyone, the question asked of
    people: 'The user means people in general: "How far can people walk in an hour?" Begin with "Well," ...'."""
    content = newest_user_text(messages)
    text = plain(content) if content is not None else ""
    if not _ANYONES.search(text):
        return None
    for you, people in _FOR_PEOPLE:
        text = re.sub(you, people, text, flags=re.I)
    return Note(_ANYONES, f'{_PEOPLE_MEANT}"{text}" Begin with "Well," and say what is true.')

# for any reply, after a reply without tools has taken its own (``WITHOUT_TOOLS``), the first that asks: what no tool
# changes (the voice), and what talk meets but the model met with a question, a decline or a chatbot's disclaimer
ANY_REPLY = (DANGER_NOTE, *FIRST_AID_NOTES, VOICE_NOTE, LOUDNESS_NOTE, MAY_I_ASK_NOTE,
             GOOD_NIGHT_NOTE, WRITE_NOTE, STORY_NOTE, BORED_NOTE, GAME_OFFER_NOTE, NEWS_NOTE, HUNGRY_NOTE, TROUBLE_NOTE,
             FEELING_NOTE, WEATHER_TOLD_NOTE, CONDITION_NOTE, LIKES_ME_NOTE, LIKES_NOTE, BODY_NOTE, AGE_NOTE, DAY_NOTE,
             FAMILY_NOTE, RATHER_NOTE, OPINION_NOTE, QUIZ_NOTE, NEVER_MIND_NOTE, HELP_NOTE, HELP_WITH_NOTE, HEARD_NOTE,
             WAIT_NOTE, INSULT_NOTE, APOLOGY_NOTE, KIND_NOTE, CORRECTION_NOTE, DOUBT_NOTE)
