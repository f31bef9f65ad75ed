"""First aid for a small hurt (app.answers.first_aid), the answer to a message about one."""

from __future__ import annotations

import pytest

from app.answers.first_aid import AIDS
from app.answers.notes import ANY_REPLY, FIRST_AID_NOTES, add_first, user_words


def first_aid(said: str) -> str | None:
    """The answer the first of the first aid notes that finds ``said`` gives, or None."""
    return next((note.says for note in FIRST_AID_NOTES if note.finds(said)), None)


@pytest.mark.parametrize(("said", "first_words"), [
    ("I burned my finger on the stove.", "Cool the burn"), ("I scalded my hand with boiling water.", "Cool the burn"),
    ("I burnt myself cooking.", "Cool the burn"), ("I got a burn from the iron.", "Cool the burn"),
    ("How do I treat a burn?", "Cool the burn"), ("What should I do if I burn my hand?", "Cool the burn"),
    ("What should I do for my son's burn?", "Cool the burn"),
    ("I cut my finger.", "Press on it"), ("Ouch, I just cut my thumb.", "Press on it"),
    ("My daughter scraped her knee.", "Press on it"), ("What should I do if I cut myself?", "Press on it"),
    ("How to treat a cut?", "Press on it"),
    ("I have a nosebleed.", "Sit down and lean forward"), ("My nose won't stop bleeding.", "Sit down and lean forward"),
    ("How do you stop a nosebleed?", "Sit down and lean forward"),
    ("I got stung by a bee.", "If the sting"), ("A wasp just stung me!", "If the sting"),
    ("What should I do for a bee sting?", "If the sting"), ("What do I do if I get stung by a wasp?", "If the sting"),
    ("I think I sprained my ankle.", "Rest it"), ("I twisted my ankle playing football.", "Rest it"),
    ("How do I treat a sprained ankle?", "Rest it"), ("What should I do if I twist my ankle?", "Rest it"),
    ("I bumped my head.", "Sit down and rest"), ("My son fell and hit his head.", "Sit down and rest"),
    ("I've got a splinter in my finger.", "Wash the hands"), ("How do I get a splinter out?", "Wash the hands"),
    ("I got sunburnt.", "Get out of the sun"), ("I'm really sunburned.", "Get out of the sun"),
    ("What's good for sunburn?", "Get out of the sun"),
    ("I have a blister on my heel.", "Leave it unpopped"), ("What helps with blisters?", "Leave it unpopped"),
    ("I have a headache.", "Drink some water"), ("My head hurts.", "Drink some water"),
    ("I've got a terrible headache.", "Drink some water"), ("How do I get rid of a headache?", "Drink some water"),
    ("I burnt my hand on hot coffee.", "Cool the burn"), ("I spilled hot tea on my leg.", "Cool the burn"),
    ("What to do for a burn?", "Cool the burn"), ("I've cut myself.", "Press on it"), ("I got a paper cut.", "Press on it"),
    ("I've got a cut on my finger.", "Press on it"), ("What to do if you cut yourself?", "Press on it"),
    ("I cut my finger and I don't have a plaster.", "Press on it"), ("I cut my finger yesterday.", "Press on it"),
    ("My nose started bleeding.", "Sit down and lean forward"), ("My kid has a nosebleed.", "Sit down and lean forward"),
    ("I've got blisters on my feet.", "Leave it unpopped"), ("My son has a headache.", "Drink some water"),
    ("My daughter has a splinter.", "Wash the hands"), ("I banged my knee.", "Hold something cold"),
    ("I stubbed my toe on the bed.", "Hold something cold"), ("I have a bruise on my arm.", "Hold something cold"),
    ("What should I do for a bruise?", "Hold something cold"), ("I got bitten by a mosquito.", "Wash it with soap"),
    ("I have mosquito bites.", "Wash it with soap"), ("What helps with insect bites?", "Wash it with soap"),
    ("I hit my head.", "Sit down and rest"),  # the head's, not a bruise's
])  # fmt: skip
def test_a_small_hurt_told_or_asked_about_gets_its_first_aid(said: str, first_words: str) -> None:
    answer = first_aid(said) or ""
    if said.startswith(("How", "What")):  # a question: "For a burn, cool the burn ..."
        assert answer.startswith('Answer: "For ') and f", {first_words[0].lower()}{first_words[1:]}" in answer
    else:  # a hurt told
        assert answer.startswith(f'Answer: "I\'m sorry to hear that. {first_words}')
    noted = add_first(ANY_REPLY, [{"role": "user", "content": said}])[-1]["content"]
    assert noted == f"{said}\n\n({answer})"  # no note before it in the reply's takes it


@pytest.mark.parametrize("said", [
    "I burned the toast.", "I cut my hair.", "I cut the cake.", "I cut my budget.", "How do I cut an onion?",
    "I cut my finger nails.", "How do I burn a CD?", "My friend burned me a CD.", "I got burned by my ex.",
    "I'm going to burn some calories.", "I love the band Sting.", "That joke was a bit of a sting.", "Cut it out!",
    "How do I avoid burning myself?", "What's the best sunscreen to avoid sunburn?", "I didn't cut myself.",
    "I almost burned my hand.", "Why do nosebleeds happen?", "What causes headaches?",  # none, or why: the model's
    "I hit my head against a wall with this problem.", "I'm having a headache of a day at work.", "I hurt my feelings.",
    "My phone has a cut on the screen.",
    # more than a small hurt: the model's, or the emergency note's
    "My baby hit her head and isn't waking up.", "My son hit his head and is unconscious.", "My baby burned her hand.",
    "I got stung by a bee and I can't breathe.", "I'm allergic to bees and just got stung.", "I burned my hand with acid.",
    "My son hit his head, call an ambulance!", "I cut myself again. I self-harm.", "I cut myself last night on purpose.",
    "I want to cut myself.", "I burned myself on purpose.", "I scalded my tongue.", "I burned my tongue on hot coffee.",
    "I got stung by a jellyfish.", "What happens if you get stung by a jellyfish?",
    # words about something else: food, things, headlines, slang, money, scams, a figure of speech, a quote, a story
    "The story hit the headlines.", "I knocked my headphones off the desk.", "I hit the headlights on my car.",
    "I twisted my wrist watch strap.", "I cut the skin off the salmon.", "I burned the skin of the peppers.",
    "I cut the legs off my jeans.", "I sliced the heel of the loaf.", "I cut the head off the fish.", "I need to hit the head.",
    "I hit the head of the nail with a hammer.", "I've got a cut of the profits.", "I got a bad cut of meat.",
    "I have a burn book.", "I've got a burn on my tv.", "Have you got a burn cream?", "I've got a splinter group in my party.",
    "I have a blister pack of pills.", "I was stung by the criticism.", "I got stung by a scam.", "Is sunburn dangerous?",
    "What is sunburn?", "Do you have a headache?", "I burned myself out at work.", "I cut myself some slack.",
    "I cut myself a slice of cake.", "I cut myself off from social media.", "I have a headache from this code.",
    "My head hurts from all this math.", "I bashed my head against this bug all day.",
    "How do you say 'I cut my finger' in Spanish?", "Translate 'I have a headache' into French.",
    "Write a story about a girl who burned her hand.", "He cut his finger in the movie.", "I'd rather cut my finger.",
    "I burned my hand twenty years ago, it left a scar.", "Lebron hit his head on the floor last night.", "My dog hit his head.",
    "Will I get stung if I touch a bee?", "What should I do if there's a power cut?", "How do we deal with the budget cuts?",
    "How do I fix a scrape on my car?", "How do I treat a cut of beef so it's tender?", "How do I get rid of burns on my pan?",
    "What helps with burn-in on an OLED?", "How do I deal with the sting of rejection?",
    "What should I do for the splinters in my deck?", "I hit my brother.", "I banged my car.", "I have a bruise on my ego.",
    "I got bitten by a dog.", "I have a bug in my code.",
])  # fmt: skip
def test_other_messages_get_no_first_aid(said: str) -> None:
    assert first_aid(said) is None


def test_each_aid_says_what_to_do_first_and_when_to_get_help() -> None:
    for aid in AIDS:
        assert aid.steps[0].isupper() and aid.steps.endswith(".") and '"' not in aid.steps
        assert any(help_ in aid.steps for help_ in ("See a doctor", "See a nurse", "Get medical help", "emergency number"))


def test_the_first_aid_is_the_answer_to_the_message_and_comes_off() -> None:
    said = "I burned my finger on the stove."
    noted = add_first(ANY_REPLY, [{"role": "user", "content": said}])[-1]["content"]
    assert noted == (f'{said}\n\n(Answer: "I\'m sorry to hear that. Cool the burn under cool running water for twenty '
                     "minutes, and take off any rings or tight clothing near it, but don't put ice, butter or cream on "
                     "it. Then cover it loosely with cling film or a clean plastic bag. See a doctor if it's bigger than "
                     'the hand, looks white or charred, or blisters on the face or hands.")')
    assert user_words(noted) == said
