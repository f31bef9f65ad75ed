"""First aid for a small hurt (a burn, a cut, a nosebleed, a sting), checked beforehand, for the message about it.

Told "I burned my finger on the stove.", "I cut my finger." or "I have a headache.", the 1.5B said it was sorry and
offered nothing ("It's important to take care of your hands and avoid burns. If you have any questions about how to
treat a burn, I'd be happy to help."), or what does harm ("use a bandage or ice pack to help stop the bleeding";
docs/benchmarks.md, "First aid"). Given the steps beside the message, as a record's holder is, it still said "I'm
sorry, I can't help with that." or "Please follow the first aid steps provided." to half of them. So, as a fact asked
for is drawn from facts checked beforehand (``app.answers.facts``), a message telling of one of these hurts, or asking
what to do for one, gets the answer to say (``app.answers.notes``): what to do first, and when to get help. The steps
are those the public health services give; they say "it" and "the", not "you", as the one hurt may be the user's
child. Not a hurt denied or to be avoided ("How do I avoid burning myself?"), nor a question of why ("Why do nosebleeds
happen?"), which stay the model's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_BODY = (r"(?:finger|thumb|hand|arm|wrist|elbow|leg|knee|shin|ankle|foot|toe|head|forehead|face|lip|chin|tongue|nose|ear"
         r"|palm|skin|neck|shoulder|heel)s?")
_WHOSE = r"(?:my|his|her|their|our|the)"
_SELF = r"(?:myself|himself|herself|themselves|ourselves)"
_HURT_PART = rf"(?:{_SELF}|{_WHOSE} (?:\w+ )?{_BODY}\b(?! ?nails?\b))"  # "my finger", "his left knee", not "my toenails"
_SPRAINED = r"(?:ankle|wrist|knee)s?"


@dataclass(frozen=True)
class Aid:
    """A hurt as it is told ("I burned my finger") or named in a question ("a burn"), and its first aid."""

    name: str
    told: str
    named: str
    steps: str

    @property
    def for_it(self) -> str:
        """The first aid as the answer to a question about the hurt: "For sunburn, get out of the sun, ..."."""
        return f"For {self.name}, {self.steps[0].lower()}{self.steps[1:]}"


AIDS = (
    Aid("a burn",
        rf"(?:burn(?:ed|t)|scald(?:ed)?) {_HURT_PART}|(?:got|have|'ve got) a (?:bad )?(?:burn|scald)\b",
        r"(?:an? )?(?:bad |small |minor )?(?:burns?|scalds?)|(?:a )?burn(?:ed|t) (?:finger|hand|skin)",
        "Cool the burn under cool running water for twenty minutes, and don't put ice, butter or cream on it. Then cover "
        "it loosely with cling film or a clean plastic bag. See a doctor if it's bigger than the hand, looks white or "
        "charred, or blisters on the face or hands."),
    Aid("a cut or a graze",
        rf"(?:cut|sliced|nicked|gashed|grazed|scraped|skinned) {_HURT_PART}|(?:got|have|'ve got) a (?:bad |deep )?cut\b",
        r"(?:an? )?(?:bad |small |minor |deep )?(?:cuts?|grazes?|scrapes?)|(?:a )?(?:cut|grazed|scraped) (?:finger|knee)",
        "Press on it firmly with a clean cloth until the bleeding stops, rinse it under running water, and cover it with "
        "a plaster. Get medical help if it's deep or gaping, or still bleeding after ten minutes of pressure."),
    Aid("a nosebleed",
        r"(?:got|have|'ve got|having) a nose ?bleed|nose (?:is|keeps|won't stop|will not stop) bleeding",
        r"(?:a )?nose ?bleeds?|(?:a )?bleeding nose",
        "Sit down and lean forward, then pinch the soft part of the nose, just above the nostrils, for ten to fifteen "
        "minutes, breathing through the mouth. Get medical help if it goes on for more than twenty minutes, or came from "
        "a blow to the head."),
    Aid("a sting",
        r"(?:got|get|been|was|were|just) stung\b|\b(?:bee|wasp|hornet) (?:just )?stung\b",
        r"(?:an? )?(?:bee|wasp|hornet) stings?|(?:a )?stings?|(?:get |got |been )?stung",
        "If the sting is still in the skin, scrape it out sideways with a fingernail or a card, then wash the spot and "
        "hold something cold on it for ten minutes. Call the emergency number at once if there's any trouble breathing, "
        "or the face, lips or throat swell."),
    Aid("a sprain",
        rf"(?:sprained|twisted|rolled|turned|hurt|injured) {_WHOSE} (?:\w+ )?{_SPRAINED}",
        rf"(?:an? )?sprains?|(?:sprain|twist|roll)(?:ed)? (?:\w+ )?{_SPRAINED}",
        "Rest it, hold an ice pack or a bag of frozen peas wrapped in a towel on it for up to twenty minutes every two to "
        "three hours, and keep it raised. See a doctor if it can't take any weight, looks out of shape, or goes numb."),
    Aid("a bump on the head",
        rf"(?:bumped|hit|banged|knocked|bashed) {_WHOSE} head",
        r"(?:an? )?(?:bump|knock|blow) (?:on|to) the head|(?:a )?(?:bumped|banged) head",
        "Sit down and rest, and hold something cold wrapped in a cloth on the bump for ten minutes. Get medical help "
        "straight away after being knocked out, or with being sick, drowsiness, confusion or a headache that gets worse."),
    Aid("a splinter",
        r"(?:got|have|'ve got) a splinter",
        r"(?:a )?splinters?",
        "Wash the hands and the skin around it, then pull the splinter out with clean tweezers at the angle it went in, "
        "and wash the spot again. See a nurse or doctor if it's deep, won't come out, or the spot gets red and sore."),
    Aid("sunburn",
        r"(?:got|have|'ve got|i'm|i am|am|is|got a) (?:really |very |badly |bad |a bit |a )?sunburn(?:t|ed)?\b"
        r"|got burn(?:ed|t) in the sun",
        r"(?:a )?(?:bad )?sunburns?",
        "Get out of the sun, cool the skin with a cool shower or a damp towel, drink plenty of water, and soothe it with "
        "after-sun or aloe vera. See a doctor if it blisters badly, or comes with a fever, chills or dizziness."),
    Aid("a blister",
        r"(?:got|have|'ve got) a (?:big |bad )?blister",
        r"(?:a )?blisters?",
        "Leave it unpopped if possible and cover it with a plaster or a soft dressing; if it bursts, let the fluid drain, "
        "leave the skin on top, and cover it. See a doctor if it gets red, hot or fills with pus."),
    Aid("a headache",
        r"(?:got|have|'ve got|having) a (?:bad |terrible |splitting |really bad )?headache\b(?! of\b)"
        r"|head (?:hurts|aches|is killing)",
        r"(?:an? )?(?:bad )?headaches?",
        "Drink some water and rest somewhere quiet, and a painkiller such as paracetamol or ibuprofen can help. Get "
        "medical help at once if it came on suddenly and very badly, followed a blow to the head, or comes with a stiff "
        "neck, a rash or confusion."),
)

_LEAD = r"^(?:(?:ok|okay|so|hey|um|oh|ow|ouch|oops|help|argh|ugh|quick question|well)[,.!]* )*"
# what to do, asked: "What should I do for a burn?", "How do you stop a nosebleed?", "What's good for sunburn?"
_ASK = (r"(?:what (?:should|do|can|must|could) (?:i|you|we|one) do (?:for|about|with|if|when|after)"
        r"|how (?:do|should|can|could) (?:i|you|we|one) (?:treat|stop|help|soothe|heal|fix|get rid of|deal with"
        r"|take care of|look after|get out|remove|ease)|how (?:do|can|could) (?:i|you|we) get(?= [\w' ]{1,30} out\b)"
        r"|how to (?:treat|stop|help|soothe|heal|get rid of|deal with|take care of|get out|remove|ease)"
        r"|what(?:'s| is) (?:good|best|the best thing|the treatment|the first aid) for"
        r"|what helps(?: with)?|(?:tell me )?(?:the )?first aid for|is there anything (?:good )?for)")
# a message about a small hurt is short; not one denied, to be avoided, asked why of, or a figure of speech
_ABOUT_A_HURT = (r"^(?=.{1,120}$)(?!.*(?:\b(?:not|never|didn't|don't|doesn't|avoid|prevent|without|careful|why|causes?"
                 r"|almost|nearly|what if you|in a (?:game|dream|film|movie|story)|against (?:a|the) (?:brick )?wall)\b"
                 r"|n't (?:burn|cut|get|have)))")


def hurt_told(aid: Aid) -> re.Pattern[str]:
    """A message telling of ``aid``'s hurt: "I burned my finger on the stove.", "My son fell and hit his head."."""
    return re.compile(rf"{_ABOUT_A_HURT}.*\b(?:{aid.told})", re.I)


def aid_asked(aid: Aid) -> re.Pattern[str]:
    """A message asking what to do for ``aid``'s hurt: "How do I treat a burn?", "What should I do if I cut myself?"."""
    return re.compile(rf"{_ABOUT_A_HURT}{_LEAD}{_ASK} (?:[\w']+ ){{0,3}}?(?:{aid.named})\b", re.I)
