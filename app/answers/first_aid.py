"""First aid for a small hurt (a burn, a cut, a nosebleed, a sting), checked beforehand, for the message about it.

Told "I burned my finger on the stove.", "I cut my finger." or "I have a headache.", the 1.5B said it was sorry and
offered nothing ("It's important to take care of your hands and avoid burns. If you have any questions about how to
treat a burn, I'd be happy to help."), or little that helps ("use a bandage or ice pack to help stop the bleeding";
docs/benchmarks.md, "First aid"). Given the steps beside the message, as a record's holder is, it still said "I'm
sorry, I can't help with that." or "Please follow the first aid steps provided." to half of them. So, as a fact asked
for is drawn from facts checked beforehand (``app.answers.facts``), a message telling of one of these hurts, or asking
what to do for one, gets the answer to say (``app.answers.notes``): what to do first, and when to get help. The steps
are those the public health services give; they say "it" and "the", not "you", as the one hurt may be the user's
child. Not a hurt denied, to be avoided or long healed ("How do I avoid burning myself?"), a question of why ("Why do
nosebleeds happen?"), a hurt in a story, a quote or a figure of speech ("I burned myself out at work."), an animal's,
nor one with a sign of something worse (knocked out, trouble breathing, an allergy, a baby, a chemical burn, self-harm):
those get the emergency number or someone to talk to (``URGENT_NOTE``, ``CRISIS_NOTE``) or stay the model's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_BODY = (r"(?:finger|thumb|hand|arm|wrist|elbow|leg|knee|shin|ankle|foot|feet|toe|head|forehead|face|chin|nose|ear|palm"
         r"|skin|neck|shoulder|heel|back|chest|stomach|belly|tummy)s?\b(?! ?nails?\b)")  # not "my toenails"
_WHOSE = r"(?:my|his|her|their|our)"
_PART = rf"{_WHOSE} (?:\w+ )?{_BODY}"  # "my finger", "his left knee"
# a hurt to oneself, said plainly: "I cut myself.", "I burnt myself cooking.", not "I burned myself out"
_SELF = (r"(?:myself|himself|herself|themselves|ourselves)(?=[.!,;]|$| (?:on|with|while|when|cooking|shaving|chopping"
         r"|badly|just now|earlier|today|this morning)\b)")
_HURT_PART = rf"(?:{_SELF}|{_PART})"
_JOINT = r"(?:ankle|wrist|knee)s?\b(?! ?(?:watch|strap|band|brace|guard|pad|support)\b)"
_HAS = r"(?:got|have|has|having)"  # "I've got", "my son has"
_ON_OR_FROM = rf"(?= on {_PART}| in {_PART}| from\b|[.!,]|$)"  # "a cut on my finger", not "a cut of the profits"


@dataclass(frozen=True)
class Aid:
    """A hurt as it is told ("I burned my finger") or named in a question ("a burn"), and its first aid."""

    name: str
    told: str
    named: str
    steps: str

    @property
    def answer_to_question(self) -> str:
        """The first aid as the answer to a question about the hurt: "For sunburn, get out of the sun, ..."."""
        return f"For {self.name}, {self.steps[0].lower()}{self.steps[1:]}"


AIDS = (
    Aid("a burn",
        rf"(?:burn(?:ed|t)|scald(?:ed)?) {_HURT_PART}|{_HAS} a (?:bad |small )?(?:burn|scald){_ON_OR_FROM}"
        rf"|spilled (?:hot|boiling) [a-z]+ on {_HURT_PART}",
        r"(?:a )?(?:bad |small |minor )?(?:burns?|scalds?)|burn(?:ed|t)? (?:my|your|a|his|her) (?:\w+ )?(?:finger|hand)s?",
        "Cool the burn under cool running water for twenty minutes, and take off any rings or tight clothing near it, but "
        "don't put ice, butter or cream on it. Then cover it loosely with cling film or a clean plastic bag. See a doctor "
        "if it's bigger than the hand, looks white or charred, or blisters on the face or hands."),
    Aid("a cut or a graze",
        rf"(?:cut|sliced|nicked|grazed|scraped|skinned) {_HURT_PART}|{_HAS} a (?:bad |small |deep |paper )?cut{_ON_OR_FROM}"
        r"|got a paper cut",
        r"(?:a )?(?:bad |small |minor |deep |paper )?(?:cuts?|grazes?|scrapes?)|(?:cut|graze|scrape) (?:my|your)(?:self| \w+)",
        "Press on it firmly with a clean cloth until the bleeding stops, rinse it under running water, and cover it with "
        "a plaster. Get medical help if it's deep or gaping, or still bleeding after ten minutes of pressure."),
    Aid("a nosebleed",
        rf"{_HAS} a nose ?bleed|nose (?:is|keeps|won't stop|will not stop|started|has started|just started) bleeding",
        r"(?:a )?nose ?bleeds?|(?:a )?bleeding nose",
        "Sit down and lean forward, then pinch the soft part of the nose, just above the nostrils, for ten to fifteen "
        "minutes, breathing through the mouth. Get medical help if it goes on for more than twenty minutes, or came from "
        "a blow to the head."),
    Aid("a bee or wasp sting",
        r"stung by (?:a |an )?(?:bee|wasp|hornet|bumblebee|yellow ?jacket)s?\b|(?:bee|wasp|hornet) (?:just )?stung\b"
        r"|(?:got|been|was|were|just) stung(?=[.!,]|$| on\b)",
        r"(?:an? )?(?:bee|wasp|hornet) stings?|(?:get |got |been )?stung by (?:a |an )?(?:bee|wasp|hornet)",
        "If the sting is still in the skin, scrape it out sideways with a fingernail or a card, then wash the spot and "
        "hold something cold on it for ten minutes. Call the emergency number at once if there's any trouble breathing, "
        "or the face, lips or throat swell."),
    Aid("a sprain",
        rf"(?:sprained|twisted|rolled|turned|hurt|injured) {_WHOSE} (?:\w+ )?{_JOINT}",
        rf"(?:an? )?sprains?|(?:sprain|twist|roll)(?:ed)? (?:\w+ )?{_JOINT}",
        "Rest it, hold an ice pack or a bag of frozen peas wrapped in a towel on it for up to twenty minutes every two to "
        "three hours, and keep it raised. See a doctor if it can't take any weight, looks out of shape, or goes numb."),
    Aid("a bump on the head",
        rf"(?:bumped|hit|banged|knocked|bashed) {_WHOSE} head\b",
        r"(?:an? )?(?:bump|knock|blow) (?:on|to) the head|(?:a )?(?:bumped|banged) head",
        "Sit down and rest, and hold something cold wrapped in a cloth on the bump for ten minutes. Get medical help "
        "straight away after being knocked out, or with being sick, drowsiness, confusion or a headache that gets worse."),
    Aid("a bump or a bruise",
        rf"(?:banged|bumped|knocked|bashed|stubbed|hit) {_WHOSE} (?:\w+ )?(?:knee|elbow|shin|toe|leg|arm|hand|finger|thumb"
        rf"|hip|foot)s?\b|{_HAS} a (?:bad |big )?bruise(?= on {_PART}|[.!,]|$)",
        r"(?:a )?(?:bad |big )?bruises?|(?:a )?stubbed toe",
        "Hold something cold wrapped in a cloth on it for ten minutes, and rest it. See a doctor if it swells a lot, can't "
        "be moved, or the pain gets worse."),
    Aid("an insect bite",
        r"(?:got|been|was|were|just) bitten by (?:a |an )?(?:mosquito|midge|gnat|flea|horsefly|horse fly|bug|insect)e?s?\b"
        rf"|{_HAS} (?:a |some )?(?:mosquito|midge|gnat|flea|bug|insect) bites?",
        r"(?:an? )?(?:mosquito|midge|gnat|flea|bug|insect) bites?",
        "Wash it with soap and water, hold something cold on it, and try not to scratch; an antihistamine or a soothing "
        "cream can ease the itch. See a doctor if it spreads, swells a lot, or gets hot and painful, and call the "
        "emergency number at once if there's any trouble breathing."),
    Aid("a splinter",
        rf"{_HAS} a splinter(?= in {_PART}|[.!,]|$)",
        r"(?:a )?splinters?",
        "Wash the hands and the skin around it, then pull the splinter out with clean tweezers at the angle it went in, "
        "and wash the spot again. See a nurse or doctor if it's deep, won't come out, or the spot gets red and sore."),
    Aid("sunburn",
        r"(?:got|have|has|am|i'm|is|are|we're) (?:really |very |badly |bad |a bit |a |so )?sunburn(?:t|ed)?\b"
        r"|got burn(?:ed|t) in the sun",
        r"(?:a )?(?:bad )?sunburns?",
        "Get out of the sun, cool the skin with a cool shower or a damp towel, drink plenty of water, and soothe it with "
        "after-sun or aloe vera. See a doctor if it blisters badly, or comes with a fever, chills or dizziness."),
    Aid("a blister",
        rf"{_HAS} (?:a )?(?:big |bad )?blisters?(?= on {_PART}|[.!,]|$)",
        r"(?:a )?blisters?",
        "Leave it unpopped if possible and cover it with a plaster or a soft dressing; if it bursts, let the fluid drain, "
        "leave the skin on top, and cover it. See a doctor if it gets red, hot or fills with pus."),
    Aid("a headache",
        rf"(?:{_HAS} a (?:bad |terrible |splitting |really bad )?headache|head (?:hurts|aches|is killing (?:me|him|her)))"
        r"(?=[.!,;]|$| (?:all day|since|today|now|this morning|right now|and)\b)",
        r"(?:an? )?(?:bad )?headaches?",
        "Drink some water and rest somewhere quiet, and a painkiller such as paracetamol or ibuprofen can help. Get "
        "medical help at once if it came on suddenly and very badly, followed a blow to the head, or comes with a stiff "
        "neck, a rash or confusion."),
)

_LEAD = r"^(?:(?:ok|okay|so|hey|um|oh|ow|ouch|oops|help|argh|ugh|quick question|well)[,.!]* )*"
# what to do, asked: "What should I do for a burn?", "How do you stop a nosebleed?", "What's good for sunburn?"
_ASK = (r"(?:what (?:should|do|can|must|could) (?:i|you|we|one) do (?:for|about|with|if|when|after)"
        r"|what to do (?:for|about|with|if|when|after)"
        r"|how (?:do|should|can|could) (?:i|you|we|one) (?:treat|stop|help|soothe|heal|get rid of|deal with"
        r"|take care of|look after|get out|remove|ease)|how (?:do|can|could) (?:i|you|we) get(?= [\w' ]{1,30} out\b)"
        r"|how to (?:treat|stop|help|soothe|heal|get rid of|deal with|take care of|get out|remove|ease)"
        r"|what(?:'s| is) (?:good|best|the best thing|the treatment|the first aid) for"
        r"|what helps(?: with)?|(?:tell me )?(?:the )?first aid for|is there anything (?:good )?for)")
# between the question's words and the hurt: "a", "my son's", "I get"
_BETWEEN = r"(?:(?:a|an|the|my|his|her|their|our|your|i|you|we|one|someone|get|got|have|has|bad|small|minor|[a-z]+'s) ){0,3}"
_NAMED_END = (rf"(?=[?.!,]|$| out\b| (?:on|in) (?:{_WHOSE}|your|the|a) (?:\w+ )?{_BODY}| by (?:a|an) \w+$"
              r"| (?:fast|quickly|at home))")
_HURT_VERBS = (r"burn|cut|scald|graze|scrape|sprain|twist|hit|bump|bang|get stung"
               r"|(?:have|had|get|got) (?:a )?(?:bad )?(?:headache|blister|splinter|nose ?bleed|burn|cut|sunburn)")
# not a hurt had now: denied, to be avoided, asked why of, long healed, in a story, a quote or a game, or an animal's
_NOT_A_HURT = (rf"(?:\bnot|\bnever|n't) (?:(?:even|really|actually) )?(?:{_HURT_VERBS})"
               r"|\b(?:avoid\w*|prevent\w*|careful|without|why|causes?|almost|nearly|rather|pretend\w*|against|ago|scars?"
               r"|healed|fine now|better now|translat\w*|how do you say|story|stories|movie|film|episode"
               r"|dream|song|lyrics?|dog|cat|puppy|kitten|pet|horse|rabbit|hamster)\b|[\"“”]")
# a sign that it is more than a small hurt: the model's, or the emergency note's
_WORSE = (r"\b(?:unconscious|not waking|won't wake|passed out|knocked out|blacked out|fainted|seizure|can't breathe"
          r"|cannot breathe|trouble breathing|breathing|allerg\w*|anaphyla\w*|epipen|baby|infant|newborn|toddler"
          r"|ambulance|emergency|911|999|112|hospital|a lot of blood|so much blood|spurting|bone|broken|chemical|acid"
          r"|bleach|electric\w*|fire|jellyfish|scorpion|stingray|snake|spider|nettles?|worst|sudden\w*|stiff neck|vomit\w*"
          r"|throwing up|confused|drowsy|tongue|lips?|mouth|eyes?|on purpose|deliberately|self-harm|self harm|want to"
          r"|going to|gonna|suicid\w*|kill myself|again)\b")
# a message about a small hurt is short, and plainly one
_PLAINLY_SMALL = rf"^(?=.{{1,120}}$)(?!.*(?:{_NOT_A_HURT}))(?!.*{_WORSE})"
_QUESTION = r"(?:do|does|did|have|has|is|are|was|were|will|would|can|could|should|what|how|why|when|where|who|which)\b"


def hurt_told(aid: Aid) -> re.Pattern[str]:
    """A message telling of ``aid``'s hurt, the user's or their family's: "I burned my finger on the stove.", "My son fell
    and hit his head."; not a question ("Do you have a headache?") nor another's ("Lebron hit his head.")."""
    return re.compile(rf"{_PLAINLY_SMALL}(?=.*\b(?:i|i'm|i've|me|my|we|we're|our|us)\b)(?!{_LEAD}{_QUESTION})"
                      rf".*\b(?:{aid.told})", re.I)


def aid_asked(aid: Aid) -> re.Pattern[str]:
    """A message asking what to do for ``aid``'s hurt: "How do I treat a burn?", "What should I do if I cut myself?"."""
    return re.compile(rf"{_PLAINLY_SMALL}{_LEAD}{_ASK} {_BETWEEN}(?:{aid.named}){_NAMED_END}", re.I)
