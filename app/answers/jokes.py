"""A joke asked for, drawn from jokes written down with what they play on, and that when the user does not get it.

Asked for a joke, the 1.5B told the same three (atoms that make up everything, a math book with too many problems, a
tomato that saw the salad dressing), and asked "I don't get it." after one it told it again or made up what it plays on
("The word "math" is a play on the word "maths", which means "to measure""; none of 24 replies to six such follow-ups
explained one; docs/benchmarks.md, "A joke"). As a fact is drawn for "Tell me a fun fact." (``app/answers/facts.py``),
the server draws a joke not told yet in the conversation, on the subject asked where one is about it; "Another one."
after one draws the next, and "I don't get it." or "Why is that funny?" after one gets what it plays on. A joke on a
subject none is about ("Tell me a joke about taxes.") is the model's to make.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from app.answers.wording import ANOTHER_ASKED, NOT_FOLLOWED, REQUEST_END, REQUEST_START, draw_unsaid, plain


@dataclass(frozen=True)
class Joke:
    says: str
    plays_on: str  # why it is funny, as said
    about: tuple[str, ...] = ()  # subjects a request may name, singular (``_singulars`` finds them from plurals)


JOKES = (
    Joke("Why don't scientists trust atoms? Because they make up everything!",
         "Atoms are what everything is made of, so they make up everything; and to make something up also means to "
         "invent it, like a lie. That's why you shouldn't trust them.", ("science", "atom", "chemistry", "scientist")),
    Joke("Why did the scarecrow win an award? Because he was outstanding in his field!",
         "A scarecrow stands out in a farmer's field, and being outstanding in your field also means being excellent at "
         "your job.", ("farm", "farmer", "work", "scarecrow")),
    Joke("What do you call a fake noodle? An impasta!",
         "'Impasta' sounds like 'impostor', a fake, with 'pasta' in it.", ("food", "pasta", "noodle", "italian")),
    Joke("Why did the bicycle fall over? Because it was two tired!",
         "A bicycle has two tyres, and 'two tired' sounds like 'too tired', as if it was too sleepy to stand up.",
         ("bike", "bicycle", "cycling")),
    Joke("What do you call a bear with no teeth? A gummy bear!",
         "With no teeth it can only gum its food, and a gummy bear is also a chewy sweet.", ("bear", "animal", "candy")),
    Joke("Why was the math book sad? Because it had too many problems!",
         "A math book is full of problems to solve, and having too many problems also means having a lot of troubles.",
         ("math", "maths", "book", "school")),
    Joke("What did the ocean say to the beach? Nothing, it just waved!",
         "The sea moves in waves, and waving is also how people say hello without a word.",
         ("ocean", "sea", "beach", "summer")),
    Joke("Why do cows wear bells? Because their horns don't work!",
         "A cow's horns are the pointed things on its head, but a horn is also what a car honks with, so a cow needs a "
         "bell instead.", ("cow", "animal", "farm")),
    Joke("What do you call a sleeping dinosaur? A dino-snore!",
         "'Dino-snore' sounds like 'dinosaur', with a snore in it, the noise a sleeper makes.", ("dinosaur", "sleep")),
    Joke("Why did the golfer bring two pairs of trousers? In case he got a hole in one!",
         "A hole in one is the best shot in golf, but a hole in your trousers is a tear, so he brought a spare pair.",
         ("golf", "sport")),
    Joke("What do you call cheese that isn't yours? Nacho cheese!",
         "Nacho cheese is the cheese sauce on nachos, and it sounds like 'not your cheese'.", ("cheese", "food")),
    Joke("Why couldn't the leopard play hide and seek? Because he was always spotted!",
         "A leopard is covered in spots, and being spotted also means being seen, which loses the game.",
         ("leopard", "animal", "game")),
    Joke("Why was the broom late? It over-swept!",
         "A broom sweeps the floor, and 'over-swept' sounds like 'overslept', sleeping too long.",
         ("broom", "cleaning", "sleep", "morning")),
    Joke("What do you call a dog that does magic tricks? A labracadabrador!",
         "It mixes 'Labrador', a kind of dog, with 'abracadabra', the word magicians say.", ("dog", "animal", "magic")),
    Joke("Why did the cookie go to the doctor? Because it felt crummy!",
         "A cookie breaks into crumbs, and feeling crummy also means feeling unwell.", ("cookie", "food", "doctor")),
    Joke("What do you call a pig that knows karate? A pork chop!",
         "A pork chop is a cut of meat from a pig, and a chop is also a karate strike.", ("pig", "animal", "karate")),
    Joke("Why don't eggs tell jokes? They'd crack each other up!",
         "Eggs crack when they break, and to crack someone up also means to make them laugh.", ("egg", "food", "breakfast")),
    Joke("What did one wall say to the other wall? I'll meet you at the corner!",
         "Two walls of a room really do meet at a corner, as people meet at a street corner.", ("wall", "house", "home")),
    Joke("Why did the tomato turn red? Because it saw the salad dressing!",
         "Salad dressing is the sauce on a salad, but it sounds as if the salad was getting dressed, so the tomato "
         "blushed red.", ("tomato", "food", "salad", "vegetable")),
    Joke("Why are fish so smart? Because they live in schools!",
         "A group of fish is called a school, and a school is also where people go to learn.", ("fish", "animal", "school")),
    Joke("What did the big flower say to the little flower? Hi, bud!",
         "A bud is a young flower that hasn't opened yet, and 'bud' is also a friendly word for a friend.",
         ("flower", "garden", "plant", "spring")),
    Joke("Why did the computer go to the doctor? Because it had a virus!",
         "A computer virus is a program that harms a computer, and a virus is also what makes people ill.",
         ("computer", "technology", "doctor")),
    Joke("What do you call a belt made of watches? A waist of time!",
         "A belt goes round your waist, and 'a waist of time' sounds like 'a waste of time'.", ("time", "watch", "clothes")),
    Joke("Why shouldn't you trust stairs? They're always up to something!",
         "Stairs go up to the next floor, and being up to something also means secretly planning mischief.",
         ("stairs", "house", "home")),
    Joke("What do you call a snowman with a six-pack? An abdominal snowman!",
         "A six-pack is strong stomach muscles, the abdominals, and 'abdominal snowman' sounds like the Abominable "
         "Snowman, the yeti.", ("snowman", "snow", "winter", "christmas", "gym")),
    Joke("What do you call a boomerang that doesn't come back? A stick!",
         "A boomerang is a throwing stick made to fly back to you, so one that doesn't come back is just a stick.",
         ("boomerang", "sport")),
    Joke("Why did the cat sit on the computer? To keep an eye on the mouse!",
         "Cats hunt mice, and a mouse is also the little thing you point with on a computer.",
         ("cat", "kitten", "animal", "computer")),
    Joke("What kind of music do mummies like? Wrap music!",
         "Mummies are wrapped in bandages, and 'wrap music' sounds like rap music.", ("mummy", "music", "halloween")),
    Joke("Why was six afraid of seven? Because seven eight nine!",
         "Said aloud, 'seven eight nine' sounds like 'seven ate nine', as if seven had eaten the number nine.",
         ("number", "math", "maths")),
    Joke("What do you call an alligator in a vest? An investigator!",
         "An alligator in a vest is an 'in-vest-igator', which sounds like investigator, a detective.",
         ("alligator", "crocodile", "animal")),
    Joke("Why did the picture go to jail? Because it was framed!",
         "A picture is put in a frame, and being framed also means being blamed for a crime you didn't do.",
         ("picture", "art", "painting", "police")),
)  # fmt: skip

_ABOUT = r"(?: (?:about|on|with) (?:a |an |the |some |my )?(?P<{}>[a-z]+))?"  # the group's name by ``format``
# "Tell me a joke.", "Do you know any jokes?", "Say something funny.", "Make me laugh."
_JOKE_ASKED = re.compile(
    rf"{REQUEST_START}(?:(?:(?:can|could|would|will) (?:you|u) )?(?:tell|give) (?:me|us) (?:a|an|another|one more|some|your"
    rf" best|a good|a funny|a silly|a short|a quick|a clean|a dad|a new)(?: (?:good|funny|silly|short|quick|clean|dad|new))?"
    rf" jokes?{_ABOUT.format('about')}|(?:(?:an?|another|one more) (?:(?:good|funny|silly|short|dad|new) )?)?joke"
    rf"{_ABOUT.format('about_a')}"
    rf"|(?:(?:say|tell (?:me|us)) something (?:funny|silly|hilarious|to make (?:me|us) (?:laugh|smile))"
    rf"|make (?:me|us) (?:laugh|smile|giggle))){REQUEST_END}"
    rf"|{REQUEST_START}(?:(?:can|could) (?:you|u) tell (?:me |us )?a|tell (?:me|us)(?: some)?|i(?: want|'d like| would like)"
    rf" to hear a|(?:you )?got any) (?:(?:good|funny) )?jokes?{_ABOUT.format('about_to')}{REQUEST_END}"
    rf"|^(?:do|did) (?:you|u) (?:know|have) (?:any|a) (?:(?:good|funny) )?jokes?{_ABOUT.format('about_any')}\?*$",
    re.I,
)
# after a joke: what it plays on ("I don't get it.", "What do you mean?", "Why is that funny?")
_NOT_GOT = re.compile(
    rf"{NOT_FOLLOWED.pattern}|^(?:(?:sorry|um|uh|hm+|oh|wait|but|huh|ok|okay)[,.!?]* )*(?:(?:(?:can|could) you |please )?"
    r"explain (?:it|that|the joke|that joke|your joke)|why(?:'s| is) (?:that|it|this) (?:funny|a joke)|what's (?:so )?funny"
    r" about (?:that|it|this)|i (?:don't|do not|didn't) (?:get|understand) (?:the|that|your) joke|what's the joke"
    r"|where's the joke)(?:,? please)?[?.!]*$",
    re.I,
)
JOKE_TALK = re.compile(f"{_JOKE_ASKED.pattern}|{ANOTHER_ASKED.pattern}|{_NOT_GOT.pattern}", re.I)
_LONGEST = 120  # characters: such a request is short


def joke_to_tell(question: str, replies: list[str], draws: random.Random) -> str | None:
    """For a request for a joke (on a subject one is about, or on none), one of ``JOKES`` not in the conversation's
    ``replies`` (on no subject, all told: any but the last); "Another one." only where the last reply told one or what
    one plays on."""
    text = plain(question)
    if len(text) > _LONGEST:
        return None
    if ANOTHER_ASKED.search(text):
        last = replies[-1] if replies else ""
        if _told(last) is None and not any(joke.plays_on[:40] in last for joke in JOKES):  # a joke, or what it played on
            return None
        about = None
    elif asked := _JOKE_ASKED.search(text):
        about = next((said.lower() for said in asked.group("about", "about_a", "about_to", "about_any") if said), None)
    else:
        return None
    if about is None:
        return draw_unsaid(draws, JOKES, _said, replies).says
    untold = [joke for joke in JOKES if _singulars(about) & set(joke.about) and not any(_said(joke, r) for r in replies)]
    return draws.choice(untold).says if untold else None  # none (yet) on that subject: the model's to make


def joke_explained(question: str, replies: list[str]) -> str | None:
    """What the joke the last reply told plays on, for a message that did not get it; else None."""
    text = plain(question)
    if len(text) > _LONGEST or not _NOT_GOT.search(text):
        return None
    joke = _told(replies[-1] if replies else "")
    return joke.plays_on if joke else None


def _singulars(word: str) -> set[str]:
    """``word`` and what it may be the plural of: "cats", "tomatoes", "mummies", "watches", "snowmen"."""
    return {word, word.removesuffix("s"), word.removesuffix("es"), re.sub(r"ies$", "y", word), re.sub(r"men$", "man", word)}


def _told(reply: str) -> Joke | None:
    return next((joke for joke in JOKES if _said(joke, reply)), None)


def _said(joke: Joke, reply: str) -> bool:
    """Whether ``reply`` told ``joke``: its punch line, as a reply may open it in words of its own."""
    return joke.says.partition("? ")[2][:24].lower() in reply.lower()
