"""Foods poisonous to dogs and cats, checked beforehand, as the answer to a question or a message about one.

Asked "Can dogs eat grapes?", the 1.5B said "Well, dogs can eat grapes, but they should only be given them in
moderation." (2 of 2, with the yes-or-no question's first words), "Are lilies poisonous to cats?" -> "Well, lilies are
not poisonous to cats." (2 of 2; docs/benchmarks.md, "What kind of thing"): a pet owner is told the opposite of what is
true. Given the vet's word beside the question, it began "Yes, dogs can eat grapes, but they are toxic to them." So a
question whether a dog or a cat may eat one of these foods ("Can dogs eat grapes?", "Is chocolate bad for cats?"), or a
message that one has ("My dog ate some chocolate."), gets the answer to say: "No" or "Yes" first where asked, what
the food does, and to take a pet that has eaten some to a vet ("call a vet" got "Sorry, I can't send messages or make
calls from here.", 12 of 12). A food not here ("Can dogs eat carrots?") stays the model's.
"""

from __future__ import annotations

import re

from app.answers.wording import plain

_TO_THE_VET = "If a pet has eaten some, take it to a vet straight away."
# each food as said (not a name it is part of: "grape tomatoes", "tea tree oil", "xylitol-free"), the pets it harms, and
# why
_FOODS = {
    r"grapes?(?! tomato)|raisins?|sultanas?|currants?": (("dogs", "cats"), "Grapes and raisins are poisonous to dogs, even "
                                                         "a few, and can damage their kidneys; cats are best kept off "
                                                         "them too."),
    r"chocolate|cocoa|brownies?": (("dogs", "cats"), "Chocolate is poisonous to dogs and cats, cocoa powder and dark or "
                                                     "baking chocolate most of all."),
    r"onions?|garlic|leeks?|chives|shallots?": (("dogs", "cats"), "Onions, garlic, leeks and chives are poisonous to dogs "
                                                                  "and cats, cooked, raw or powdered."),
    r"xylitol|sugar-free gum|sugar free gum|chewing gum|gum": (("dogs",), "Xylitol, the sweetener in sugar-free gum and "
                                                                          "some peanut butters, is poisonous to dogs."),
    r"macadamias?|macadamia nuts?": (("dogs",), "Macadamia nuts are poisonous to dogs."),
    r"alcohol|beer|wine(?! gums?)": (("dogs", "cats"), "Alcohol is poisonous to dogs and cats, even a little."),
    r"coffee(?! cake)|caffeine|tea(?! tree)|energy drinks?": (("dogs", "cats"), "Caffeine, in coffee, tea, energy drinks "
                                                                                "and some pills, is poisonous to dogs and "
                                                                                "cats; coffee grounds, beans and caffeine "
                                                                                "pills most of all."),
    r"lil(?:y|ies)(?! pads?| of the valley)": (("cats",), "Lilies are poisonous to cats: even the pollen or the water "
                                                          "from the vase can damage their kidneys."),
}
_PETS = {"dogs": r"dogs?|puppy|puppies|pupp?y's|dog's", "cats": r"cats?|kittens?|kitty|cat's|kitten's"}
_FOOD = rf"(?:{'|'.join(_FOODS)})(?![- ]free\b|-flavou?red\b)"
_PET = "|".join(_PETS.values())
_BAD = "bad|poisonous|toxic|dangerous|harmful"  # "Is chocolate bad for dogs?": yes
_START = (r"^(?!.*\b(?:dream|story|movie|film|game)\b)"  # not a pet in a story
          r"(?:(?:so|and|ok|okay|hey|hmm|um|wait|quick question|help|oh no)[,.!]? )*")
_WHOSE = r"(?:(?:a|an|the|my|our|your) )?"
_SOME = (r"(?:(?:a|an|some|any|the|a bit of|a little|a piece of|a few|too many|my|our|his|her) )?"
         r"(?:(?:green|black|hot|dark|milk|white|iced|red|fresh|dried|raw|cooked|fried) )?")
_PET_GROUPS = ("pet", "pet_is", "pet_fed", "pet_it", "pet_ate")  # the pattern's ways of asking, and of telling
_FOOD_GROUPS = ("food", "food_is", "food_fed", "food_it", "food_ate")
PET_FOOD_ASKED = re.compile(
    rf"{_START}(?:can|could|should|may) {_WHOSE}(?P<pet>{_PET}) (?:safely )?(?:eat|have|drink|lick) {_SOME}(?P<food>{_FOOD})\b"
    rf"[^?.!]{{0,20}}[?.!]*$"
    rf"|{_START}(?:is|are) {_SOME}(?P<food_is>{_FOOD}) (?P<bad>{_BAD}|safe|ok|okay|good|fine)"
    rf" (?:for|to) {_WHOSE}(?P<pet_is>{_PET})[?.!]*$"
    rf"|{_START}(?:can|could|should|may) (?:i|we|you) (?:give|feed) {_WHOSE}(?P<pet_fed>{_PET}) {_SOME}(?P<food_fed>{_FOOD})\b"
    rf"[^?.!]{{0,20}}[?.!]*$"
    rf"|{_START}is it (?P<bad_it>bad|safe|ok|okay|dangerous|fine) (?:for|to give) {_WHOSE}(?P<pet_it>{_PET})"
    rf" (?:to (?:eat|have|drink) )?"
    rf"{_SOME}(?P<food_it>{_FOOD})\b[^?.!]{{0,20}}[?.!]*$"
    rf"|{_START}{_WHOSE}(?P<pet_ate>{_PET}) (?:just )?(?:ate|has eaten|'s eaten|got into|drank|licked|swallowed) {_SOME}"
    rf"(?P<food_ate>{_FOOD})\b[^?]{{0,40}}",
    re.I,
)


def pet_food_answer(text: str) -> str | None:
    """The answer to ``text`` asking whether a dog or a cat may eat a food, or saying one ate it ("No, grapes and
    raisins are poisonous to dogs, ..."), or None."""
    said = plain(text)
    asked = PET_FOOD_ASKED.search(said) if len(said) <= 120 else None
    if asked is None:
        return None
    pet = next(asked[group] for group in _PET_GROUPS if asked[group]).lower()
    food = next(asked[group] for group in _FOOD_GROUPS if asked[group]).lower()
    animal = next(animal for animal, names in _PETS.items() if re.fullmatch(names, pet))
    harmed, why = next(found for foods, found in _FOODS.items() if re.fullmatch(foods, food))
    if animal not in harmed:
        return None
    answer = f"{why} {_TO_THE_VET}"
    if asked["pet_ate"]:  # told, not asked
        return answer
    yes = (asked["bad"] or asked["bad_it"] or "").lower() in _BAD.split("|")
    return f"{'Yes' if yes else 'No'}, {answer[0].lower()}{answer[1:]}"
