"""The answer to say, given to the model beside a question it answers "Yes" by habit (``answer_hints``)."""

from __future__ import annotations

import random

import pytest

from app.answers.notes import (AGE_NOTE, ANY_REPLY, APOLOGY_NOTE, BODY_NOTE, BORED_NOTE, CALENDAR_NOTE, CAN_DO_NOTE,
                               CLARIFY_NOTE, CLIMATE_NOTE, CLOCK_NOTE, CONDITION_NOTE, CORRECTION_NOTE, COUNTDOWN_NOTE,
                               CRISIS_NOTE, DANGER_NOTE, DAY_NOTE, DOUBT_NOTE, EMERGENCY_NOTE, FAMILY_NOTE, FASTER_NOTE,
                               FASTEST_NOTE, FEELING_NOTE, GOOD_NIGHT_NOTE, HEARD_NOTE, HELP_NOTE, HELP_WITH_NOTE, HOME_NOTE,
                               HUNGRY_NOTE, INSULT_NOTE, KIND_NOTE, LIKES_ME_NOTE, LIKES_NOTE, LOUDER_NOTE, LOUDNESS_NOTE,
                               MAY_I_ASK_NOTE, MEMO_NOTE, MESSAGE_NOTE, MUSIC_NOTE, NEVER_MIND_NOTE, NEWS_LOOKUP_NOTE, NEWS_NOTE,
                               NOW_NOTES, ONE_RATE_NOTE, OPINION_NOTE, PERSON_NOTE, PURCHASE_NOTE, PUSHBACK_NOTE, QUIZ_NOTE,
                               RATHER_NOTE, REMEMBER_ME_NOTE, REMINDER_NOTE, SHORTER_NOTE, SLOWER_NOTE, SLOWEST_NOTE, STORY_NOTE,
                               SUGGEST_NOTE, TROUBLE_NOTE, URGENT_NOTE, VOICE_NOTE, WAIT_NOTE, WEATHER_TOLD_NOTE, WITHOUT_TOOLS,
                               WORLD_NOTE, WRITE_NOTE, YES_NO_NOTE, Note, add_first, age_note, anyones_note, asked_note,
                               birthday_note, chance_note, clarify_note, condition_note, countdown_note, follow_up_note,
                               has_note, joke_note, kept_note, lacks_note, memory_note, more_note, name_note, pointing_note,
                               pushback_note, repeat_note, said_notes, say_note, shorter_note, sum_note, user_words)

CLOCK = {"type": "function", "name": "get_current_time", "description": "The user's local date and time.",
         "parameters": {"type": "object", "properties": {}}}  # fmt: skip


@pytest.mark.parametrize("question", [
    "Are you a real person?", "Are you human?", "Am I talking to a real person?", "Are you alive?", "Are you a robot?",
    "Where do you live?", "Is this a real person?", "Are you even human?", "Are you a real live person?",
    "Is there a real person I can talk to?", "Am I speaking with a human right now?", "Are you a person or a machine?",
    "Are you real?", "are you a bot", "Are you an AI?", "Are you a man or a woman?", "Is this a bot?",
    "Are you a human being?", "Am I talking to a computer?", "Hello. Are you a real person or a recording?",
    "Are you a living being?", "Are you conscious?", "Do you have a body?", "Is there a human there?",
    "Do you have feelings?", "I\u2019m talking to a real person, right?",
    "Is this a real human I'm talking to?",
])  # fmt: skip
def test_a_question_whether_the_assistant_is_a_person_is_known(question: str) -> None:
    assert PERSON_NOTE.finds(question)


@pytest.mark.parametrize("message", [
    "Are you ChatGPT?", "Are you there?", "Are you happy?", "Are you a good cook?", "Is it alive?", "Are you sure?",
    "Are humans mammals?", "Is the man there?", "Is this a computer question?", "Is this a man's job?",
    "Are you people going to fix it?", "Are you really going to do that?", "Is that real?", "Are you real sure?",
    "My plant looks sad. Is it alive?", "Are you a fan of jazz?", "Is that human nature?", "Are you a computer scientist?",
    "Where does my sister live?", "Do you have a body shop nearby?", "Is there a computer there?",
])  # fmt: skip
def test_other_questions_are_not_taken_for_it(message: str) -> None:
    assert not PERSON_NOTE.finds(message)


def test_the_hint_is_added_to_the_newest_user_message_only() -> None:
    system = {"role": "system", "content": "Be brief."}
    asked = [system, {"role": "user", "content": "Are you human?"}]
    hinted = PERSON_NOTE.add(asked)
    assert hinted[:-1] == asked[:-1] and hinted[-1]["content"].startswith("Are you human?")
    assert "not a person" in hinted[-1]["content"] and asked[-1]["content"] == "Are you human?"  # a copy, not changed
    assert user_words(hinted[-1]["content"]) == "Are you human?"
    assert PERSON_NOTE.add(hinted) == hinted  # once: a reply written again without tools keeps its one note
    answered = [*asked, {"role": "assistant", "content": "I'm a voice assistant."}]
    assert PERSON_NOTE.add(answered) == answered  # an earlier question is not hinted again
    other = [system, {"role": "user", "content": "Are you there?"}]
    assert PERSON_NOTE.add(other) == other
    still_speaking = [system, {"role": "user", "content": "Are you human", "prefix": True}]  # prefilled ahead
    assert PERSON_NOTE.add(still_speaking) == still_speaking
    both = CLOCK_NOTE.add(PERSON_NOTE.add([system, {"role": "user", "content": "Are you human? Is it the weekend?"}]))
    assert user_words(both[-1]["content"]) == "Are you human? Is it the weekend?"


@pytest.mark.parametrize("question", [
    "Is it the weekend?", "Is it the weekend yet?", "Is today Monday?", "Is it a weekday today?", "Is it Friday yet?",
    "Is it morning or evening?", "What day is it today?", "What month is it?", "What year is it?", "What's the date?",
    "What's today's date?", "What time is it?", "What's the time right now?", "Do you know what day it is?",
    "Which month are we in?", "What day of the week is it?", "Isn't it Sunday?", "Is it still morning where you are?",
    "What day of the week is it? I lost track after my trip.",
])  # fmt: skip
def test_a_question_about_the_day_or_time_is_known(question: str) -> None:
    assert CLOCK_NOTE.finds(question)


@pytest.mark.parametrize("message", [
    "What's the time difference between London and Paris?", "What day is Christmas?", "Is it morning sickness?",
    "What time does the bakery open?", "Is it Friday's meeting you mean?", "What year did the war end?",
    "How long is a day on Mars?", "Is it a good day for a picnic, do you think?", "Is this the weekend plan?",
])  # fmt: skip
def test_other_questions_are_not_taken_for_the_clock(message: str) -> None:
    assert not CLOCK_NOTE.finds(message)


@pytest.mark.parametrize("question", [
    "What should I watch on TV tonight?", "What should I cook for dinner tonight?", "What should I read next?",
    "What's a good movie to watch tonight?", "What game should I play?", "Which film should we watch tonight?",
    "What's a nice present for my sister?", "I'm bored, any ideas?", "Suggest a song for a road trip.",
    "Can you recommend a good book?", "What kind of restaurant should we go to for a date?", "What TV show should I start?",
    "Tell me a good film to watch tonight.", "Give me an idea for something fun to do this weekend.", "What do you suggest?",
])  # fmt: skip
def test_a_question_asking_for_a_suggestion_is_known(question: str) -> None:
    assert SUGGEST_NOTE.finds(question)


@pytest.mark.parametrize("message", [
    "What time should I leave for the airport?", "What should I tell my boss?", "What's a good source of protein?",
    "I suggest we stop here.", "What have I said so far?", "What did you watch?", "Which is the biggest planet?",
    "What is good for a cough?", "Can you tell me a joke?",
])  # fmt: skip
def test_other_questions_are_not_taken_for_one(message: str) -> None:
    assert not SUGGEST_NOTE.finds(message)


@pytest.mark.parametrize("request_", [
    "Can you help me write a birthday message for my mom?", "Help me write a thank-you note to my neighbour.",
    "Can you write a short poem about the sea?", "Could you help me with a toast for my sister's wedding?",
    "I need a caption for my holiday photo.", "Write a get well soon message for my colleague.",
    "Help me come up with a congratulations message for my cousin's graduation.", "Can you write me a haiku about autumn?",
    "Can you draft a short email asking for a day off?", "Please make up a riddle for my kids.",
    "Write an email to my boss saying I'll be late.", "I'd like a short speech for my dad's retirement party.",
    "I need to write a text telling my boss I'm sick today.", "I have to write a thank-you note to my aunt.",
    "I've got to write an apology to my neighbour.",
])  # fmt: skip
def test_a_request_to_write_a_few_lines_is_known(request_: str) -> None:
    assert WRITE_NOTE.finds(request_)


@pytest.mark.parametrize("message", [
    "How do I write a cover letter?", "Write down that I owe Sam ten pounds.", "Who wrote this song?", "I need a new phone.",
    "Can you help me with my homework?", "Write a Python function that adds two numbers.", "Tell me a story.",
    "Send an email to my boss saying I'll be late.", "Make a note that I need to call the bank.", "Can you read my message?",
    "What should I write in a birthday card?", "I wrote a poem yesterday.", "I have to write my thesis this week.",
    "I need to write down the number.", "I want to write better emails.", "I need to write to my bank.",
    "I want to write a song for my wife.", "I have to write my speech tomorrow.",  # the user's own plans
])  # fmt: skip
def test_other_messages_are_not_taken_for_a_request_to_write(message: str) -> None:
    assert not WRITE_NOTE.finds(message)


@pytest.mark.parametrize("question", [
    "How far can you walk in an hour?", "How long can you hold your breath?", "How long can you go without water?",
    "Can you eat raw eggs?", "Can you freeze milk?", "Can you see the Great Wall of China from space?",
    "How many hours of sleep do you need?", "Can you get sunburnt on a cloudy day?", "What happens if you swallow gum?",
    "How much water should you drink a day?", "Can you run a marathon without training?", "How much weight can you lift?",
    "How many calories do you burn walking a mile?", "So can you reheat rice twice?", "How much protein do you need a day?",
])  # fmt: skip
def test_a_question_about_what_anyone_can_do_is_known(question: str) -> None:
    assert anyones_note([{"role": "user", "content": question}]) is not None


@pytest.mark.parametrize("message", [
    "Can you tell me a joke?", "Can you hear me?", "Do you eat?", "Can you get me a taxi?", "Can you take a note?",
    "Can you keep a secret?", "Can you put on some music?", "Can you use the timer?", "Can you run the dishwasher?",
    "Can you sleep?", "Can you swim?", "Can you drive?", "How long can you talk?", "Can you hold on a second?",
    "How long do you need to think?", "How long do you take to answer?", "How many languages can you speak?",
    "How long can you keep a conversation going?", "Can you eat?", "I can eat raw eggs.", "Can you cook me dinner?",
    "How much money do I need?", "How much sleep did I get?",
])  # fmt: skip
def test_a_question_to_the_assistant_is_not_taken_for_one_about_anyone(message: str) -> None:
    assert anyones_note([{"role": "user", "content": message}]) is None


def test_a_question_about_anyone_is_asked_of_people_beside_it() -> None:
    messages = [{"role": "user", "content": "How long can you hold your breath?"}]
    note = anyones_note(messages)
    assert note is not None and '"How long can people hold their breath?"' in note.says
    assert anyones_note([{"role": "user", "content": "How many hours of sleep do you need?"}]).says.startswith(
        'The user means people in general: "How many hours of sleep do people need?"')
    for asked, of_people in [("How much water should I drink a day?", "How much water should people drink a day?"),
                             ("How much sleep do I need?", "How much sleep do people need?"),
                             ("How many steps should I walk a day?", "How many steps should people walk a day?")]:
        assert f'"{of_people}"' in anyones_note([{"role": "user", "content": asked}]).says  # "As an AI, I don't ..." before
    noted = note.add(messages)[-1]["content"]
    assert noted == f"How long can you hold your breath?{note.note}"
    assert user_words(noted) == "How long can you hold your breath?" and has_note(noted)


@pytest.mark.parametrize("request_", [
    "Tell me a scary story.", "Tell me a ghost story.", "Can you tell me a story about a vampire?", "Tell me a long story.",
    "Please tell us a bedtime story.", "I'd like to hear a funny story.", "Tell me another story.", "How about a sad story?",
    "Read my son a story about a dragon.", "I want a story.", "I need a story to fall asleep.", "Can I hear a story?",
    "Story time!", "Do you know any good stories?", "Could we have a scary tale?",
])  # fmt: skip
def test_a_request_for_a_story_is_known(request_: str) -> None:
    assert STORY_NOTE.finds(request_)


@pytest.mark.parametrize("message", [
    "Tell me the story of the Titanic.", "Tell me a true story about a dog.", "What's your favourite story?",
    "I read a story about a dragon.", "Write a short bedtime story about a sleepy bear.", "Tell me a joke.",
    "That story was scary.", "Do you know the story of Rome?",
    "My story time with the kids was fun.",
])  # fmt: skip
def test_other_messages_are_not_taken_for_a_request_for_a_story(message: str) -> None:
    assert not STORY_NOTE.finds(message)


@pytest.mark.parametrize("request_", [
    "Can you use a different voice?", "Can you speak with a woman's voice?", "Can you change your voice?",
    "Can you use a British accent?", "Can you sound like a man?", "Can you whisper?", "Whisper it to me.",
])  # fmt: skip
def test_a_request_to_change_the_assistants_voice_is_known(request_: str) -> None:
    assert VOICE_NOTE.finds(request_) and not LOUDNESS_NOTE.finds(request_)


@pytest.mark.parametrize("request_", [
    "Can you speak louder?", "Please speak more quietly.", "Speak up!", "You're talking too loud.", "You're too quiet.",
    "Can you raise your volume?", "Lower your voice, please.", "You are way too loud.",
])  # fmt: skip
def test_a_request_to_speak_louder_or_quieter_gets_the_devices_volume(request_: str) -> None:
    noted = add_first(ANY_REPLY, [{"role": "user", "content": request_}])[-1]["content"]
    assert noted == request_ + LOUDNESS_NOTE.note and "device" in LOUDNESS_NOTE.says


@pytest.mark.parametrize("request_", ["Louder, please.", "A bit louder.", "Volume up.", "Okay, quieter please.", "Too loud!"])
def test_the_bare_word_louder_gets_the_devices_volume_only_without_tools(request_: str) -> None:
    """With tools, "Louder." after "Play some jazz." may ask one for the music."""
    assert add_first(ANY_REPLY, [{"role": "user", "content": request_}])[-1]["content"] == request_
    assert add_first(WITHOUT_TOOLS, [{"role": "user", "content": request_}])[-1]["content"] == request_ + LOUDER_NOTE.note


@pytest.mark.parametrize("message", [
    "Turn up the volume.", "Turn the music louder.", "Why are you so loud?", "My neighbours are louder.", "They were too quiet.",
    "You're so quiet.", "You are very soft.",
])  # fmt: skip
def test_other_messages_are_not_taken_for_a_request_to_speak_louder(message: str) -> None:
    assert not LOUDNESS_NOTE.finds(message) and not LOUDER_NOTE.finds(message)


@pytest.mark.parametrize("message", [
    "Talk like a pirate.", "Can you speak French?", "Speak to me in Spanish.", "Speed up my computer.",
    "How fast can you talk?", "Slow down the recipe steps for me.", "My voice is hoarse.", "What accent do you have?",
    "I speak slowly.", "Whisper transcribes speech.", "Why do people whisper?", "Don't shout.",
])  # fmt: skip
def test_other_messages_are_not_taken_for_one_to_change_the_voice(message: str) -> None:
    assert not VOICE_NOTE.finds(message)


@pytest.mark.parametrize(("request_", "slower"), [
    ("Can you speak slower?", True), ("Could you talk more slowly?", True), ("Slow down, please.", True),
    ("You're talking too fast.", True), ("You speak too quickly.", True), ("Could you say that slower?", True),
    ("Please talk a little slower.", True), ("Can you lower your pace?", True),
    ("Talk faster, please.", False), ("Speed up!", False), ("Can you talk quicker?", False),
    ("You're speaking too slowly.", False), ("Could you speak a bit faster?", False),
])  # fmt: skip
def test_a_request_to_speak_slower_or_faster_is_told_from_the_other(request_: str, slower: bool) -> None:
    assert SLOWER_NOTE.finds(request_) is slower and FASTER_NOTE.finds(request_) is not slower
    assert ONE_RATE_NOTE.finds(request_) and not VOICE_NOTE.finds(request_)  # where the voice speaks at one rate


@pytest.mark.parametrize("message", [
    "Can you speak louder?", "Speak up!", "Can you use a British accent?", "I speak slowly.", "Speed up my computer.",
    "Slow down the recipe steps for me.", "How fast can you talk?", "My internet is slow.", "Drive faster!",
])  # fmt: skip
def test_other_messages_are_not_taken_for_a_request_to_speak_slower_or_faster(message: str) -> None:
    assert not SLOWER_NOTE.finds(message) and not FASTER_NOTE.finds(message)


@pytest.mark.parametrize("question", [
    "What's your favourite colour?", "What's your favorite food?", "Do you like music?", "Which season do you like best?",
    "Do you have a favourite animal?", "What kind of music do you like?", "Do you like pizza?", "Do you prefer cats or dogs?",
    "What do you like to do for fun?", "Do you have any favorite songs?", "What's your all-time favourite band?",
    "What type of films do you enjoy?", "Which do you prefer, summer or winter?", "Which one do you like more: cats or dogs?",
])  # fmt: skip
def test_a_question_about_the_assistants_own_likes_is_known(question: str) -> None:
    assert LIKES_NOTE.finds(question)


@pytest.mark.parametrize("message", [
    "Do you enjoy talking to people?", "Do you like my idea?", "Do you like it?", "What's your name?",
    "What's my favourite colour?", "Do you know my favourite colour?", "What's your favourite recipe for pancakes?",
    "Which one do you recommend?", "Do you like helping people?", "Which do you like, the red or the blue one?",
    "I like music.", "Which restaurant do you like best in town?", "Do you like jokes?", "Do you love me?",
    "Do you like the name Oliver for a baby?", "Do you prefer to be called Voicechat?",
])  # fmt: skip
def test_other_messages_are_not_taken_for_a_question_about_its_likes(message: str) -> None:
    assert not LIKES_NOTE.finds(message)


SAID = [{"role": "user", "content": "Who wrote Hamlet?"}, {"role": "assistant", "content": "Hamlet was written by\nShakespeare."}]


@pytest.mark.parametrize("request_", [
    "Pardon?", "What?", "Come again?", "Huh?", "Sorry?", "I didn't catch that.", "Could you say that again?",
    "What was that?", "Sorry, what did you say?", "Can you repeat that, please?", "Say that again.", "Excuse me?",
    "I didn’t hear you.", "Um, what?", "One more time, please.", "I missed that.",
])  # fmt: skip
def test_a_request_to_hear_the_last_reply_again_gets_that_reply_to_say(request_: str) -> None:
    note = repeat_note([*SAID, {"role": "user", "content": request_}])
    assert note is not None and note.says.endswith('word for word: "Hamlet was written by Shakespeare."')
    noted = note.add([*SAID, {"role": "user", "content": request_}])[-1]["content"]
    assert user_words(noted) == request_  # the end-of-turn score is read after the user's own words


@pytest.mark.parametrize("message", [
    "What was that song called?", "Sorry, I meant Austria.", "What is that?", "What?! That is amazing.",
    "I didn't catch the bus.", "Repeat after me: hello.", "Say it in French.", "What did you say about Paris?",
    "Sorry I am late.", "What time is it?", "Sorry.", "Oh, sorry!", "Excuse me.", "What!", "Huh.",  # no question
])  # fmt: skip
def test_other_messages_are_not_taken_for_a_request_to_hear_it_again(message: str) -> None:
    assert repeat_note([*SAID, {"role": "user", "content": message}]) is None


@pytest.mark.parametrize("request_", [
    "Could you say that slower?", "Say that again, slower.", "Again, slower.", "Can you repeat that more slowly, please?",
    "One more time, a bit slower.", "Sorry, say it again slowly.",
])  # fmt: skip
def test_a_request_to_hear_it_again_slower_gets_the_reply_and_says_so(request_: str) -> None:
    note = repeat_note([*SAID, {"role": "user", "content": request_}])
    assert note is not None and note.says.startswith("The user asked to hear your last reply again, more slowly.")
    assert user_words(note.add([*SAID, {"role": "user", "content": request_}])[-1]["content"]) == request_
    assert repeat_note([*SAID, {"role": "user", "content": "Can you speak slower?"}]) is None  # a pace, not a repeat


@pytest.mark.parametrize("request_", [
    "Say it faster.", "Now say it faster!", "Say that again, faster.", "Again, faster.", "Can you repeat that a bit faster?",
    "One more time, faster.", "Haha, now say it fast.", "Say it even faster!", "Faster!", "Now say it three times fast.",
    "Try saying it faster.", "Say it quickly.",
])  # fmt: skip
def test_a_request_to_hear_a_short_reply_again_faster_gets_it_and_says_so(request_: str) -> None:
    twister = talk("Give me a tongue twister.", "Here's one: Which witch is which?", request_)
    note = repeat_note(twister)
    assert note is not None and note.says.startswith("The user asked to hear your last reply again, faster.")
    assert user_words(note.add(twister)[-1]["content"]) == request_
    assert repeat_note([*twister[:-1], {"role": "user", "content": "Can you speak faster?"}]) is None  # a pace, not a repeat
    story = "Once upon a time a girl lived by the forest, and every morning she walked to the river for water. " * 2
    assert repeat_note(talk("Tell me a story.", story, request_)) is None  # go on faster: the pace note's


@pytest.mark.parametrize("message", [
    "Never mind.", "Forget it.", "Nevermind", "Forget about it.", "Don't worry about it.", "Stop.", "Oh, never mind then.",
    "No worries.", "Okay, forget it, thanks.", "It's not important.", "Shut up.", "Be quiet.", "Quiet, please.", "Silence.",
    "Stop, stop.", "Never mind, forget it.", "Can you be quiet?", "Could you please stop talking?", "Forget it. Never mind.",
])  # fmt: skip
def test_never_mind_is_known(message: str) -> None:
    assert NEVER_MIND_NOTE.finds(message)


@pytest.mark.parametrize("message", [
    "Cancel that.", "That's all, thanks.", "Never mind the weather, what time is it?", "Stop the timer.",
    "Forget what I said about Paris.", "Nothing is impossible.", "Don't worry, be happy is a song.", "Stop talking about cats.",
    "Nothing.", "Stop?", "Quiet down the music.", "Silence is golden.", "Shut up and dance.",
])  # fmt: skip
def test_other_messages_are_not_taken_for_never_mind(message: str) -> None:
    assert not NEVER_MIND_NOTE.finds(message)


@pytest.mark.parametrize("message", [
    "Help.", "Help me.", "I need help.", "Can you help me?", "Help me please.", "I need some help.", "Help?",
    "Hello, I need help.", "I need your help.", "Please help.", "Help me out.", "Could you help us?", "I need assistance.",
    "Hey, can you help me out?", "Help!", "Excuse me, can you help me?", "We need help.", "Can I get some help?",
])  # fmt: skip
def test_a_bare_call_for_help_gets_asked_what_is_needed(message: str) -> None:
    assert HELP_NOTE.finds(message)
    assert add_first(ANY_REPLY, [{"role": "user", "content": message}])[-1]["content"].endswith(
        '(Answer: "Sure, I\'m here to help. What do you need?")')


@pytest.mark.parametrize("message", [
    "I need help with my taxes.", "I need help with my code.", "Can you help me fix my computer?", "Help me with my essay.",
    "Can you help me with something?", "Could you help me fix my laptop?", "I need help with my car.",
])  # fmt: skip
def test_help_with_something_named_gets_first_words(message: str) -> None:
    assert HELP_WITH_NOTE.finds(message) and not HELP_NOTE.finds(message)


@pytest.mark.parametrize("message", [
    "Can you help me with the lights?", "Help me send an email to Tom.", "I need help setting an alarm.",
    "Can you help me call my mum?", "I need help with the weather forecast.", "Can you help me plan my day today?",
    "Help me order a pizza.", "I need help buying concert tickets.", "How can you help me?", "Thanks for the help.",
    "Help is on the way.", "Can you help me? What's the capital of Peru?", "Help me understand how vaccines work.",
    "Help me choose a name for my dog.", "I need help with 15 times 12.", "I need help with suicidal thoughts.",
    "Help me decide between pizza and pasta.",
])  # fmt: skip
def test_help_with_what_a_tool_a_live_source_or_more_than_a_question_meets_gets_no_help_note(message: str) -> None:
    assert not HELP_WITH_NOTE.finds(message) and not HELP_NOTE.finds(message)


@pytest.mark.parametrize("message", [
    "Say something nice.", "Cheer me up.", "Give me a compliment, please.", "Motivate me.", "Tell me something nice.",
    "Say something encouraging.", "Make me feel better.", "Say something nice to me.", "Give me some motivation.",
    "Say something to cheer me up.", "Say something nice about me.", "Tell me something nice about me.",
])  # fmt: skip
def test_kind_words_asked_for_get_told_what_to_say(message: str) -> None:
    assert add_first(ANY_REPLY, [{"role": "user", "content": message}])[-1]["content"] == message + KIND_NOTE.note


@pytest.mark.parametrize("message", [
    "Say something in French.", "Tell me something funny about cats.", "Say something nice about my mum.",
    "Make me a sandwich.", "Sing me a song.", "Say something.", "What's something nice to do today?",
    "My friends make me laugh.", "Sing happy birthday to the tune of a rock song.",
])  # fmt: skip
def test_other_requests_to_say_something_get_none_of_those(message: str) -> None:
    messages = [{"role": "user", "content": message}]
    assert not KIND_NOTE.finds(message) and birthday_note(messages) is None and joke_note(messages) is None


@pytest.mark.parametrize("message", [
    "I'm bored.", "I'm so bored right now.", "Ugh, I'm really bored.", "Entertain me.", "I'm feeling bored today.",
    "I'm bored out of my mind.", "I am feeling bored.", "Hi, I'm bored.", "I'm getting bored.", "So bored.",
    "Can you entertain me?",
])  # fmt: skip
def test_boredom_gets_a_joke_a_riddle_or_a_game_offered(message: str) -> None:
    noted = add_first(ANY_REPLY, [{"role": "user", "content": message}])[-1]["content"]
    assert noted == message + BORED_NOTE.note and "joke or a riddle" in BORED_NOTE.says and user_words(noted) == message


@pytest.mark.parametrize("message", [
    "I'm bored of this song.", "I'm bored with my job.", "My kids are bored.", "Are you bored?", "I'm never bored.",
    "I was bored yesterday.", "So boring.",
])  # fmt: skip
def test_other_talk_of_boredom_gets_no_offer(message: str) -> None:
    assert not BORED_NOTE.finds(message)


@pytest.mark.parametrize(("message", "wish"), [
    ("Sing happy birthday.", "happy birthday to you! I hope your day is wonderful."),
    ("Can you sing happy birthday to me?", "happy birthday to you! I hope your day is wonderful."),
    ("Sing me happy birthday.", "happy birthday to you! I hope your day is wonderful."),
    ("Sing happy birthday to Sarah.", "happy birthday to Sarah! I hope it's a wonderful day."),
    ("Please sing happy birthday to my little brother.", "happy birthday to your little brother! I hope it's a wonderful day."),
])  # fmt: skip
def test_a_birthday_song_asked_for_is_a_wish_said(message: str, wish: str) -> None:
    messages = [{"role": "user", "content": message}]
    note = birthday_note(messages)
    assert note.says == f'Answer: "I can\'t sing, but {wish}"'
    noted = note.add(messages)[-1]["content"]
    assert user_words(noted) == message and has_note(noted)


@pytest.mark.parametrize(("message", "note"), [
    ("Testing, testing, one two three.", HEARD_NOTE), ("Is this working?", HEARD_NOTE), ("Can you hear me?", HEARD_NOTE),
    ("Hello? Are you there?", HEARD_NOTE), ("Mic check.", HEARD_NOTE), ("Is this thing on?", HEARD_NOTE),
    ("Can you hear me now?", HEARD_NOTE), ("Wait.", WAIT_NOTE), ("Hold on a second.", WAIT_NOTE), ("Oh, wait.", WAIT_NOTE),
    ("Give me a minute.", WAIT_NOTE), ("Hang on.", WAIT_NOTE), ("Just a sec.", WAIT_NOTE), ("You're stupid.", INSULT_NOTE),
    ("Testing 123.", HEARD_NOTE), ("You there?", HEARD_NOTE), ("Hold up.", WAIT_NOTE), ("Your stupid.", INSULT_NOTE),
    ("You are useless!", INSULT_NOTE), ("You suck.", INSULT_NOTE), ("You're not very helpful.", INSULT_NOTE),
])  # fmt: skip
def test_what_a_voice_conversation_says_around_the_talk_gets_its_answer(message: str, note) -> None:
    assert add_first(ANY_REPLY, [{"role": "user", "content": message}])[-1]["content"] == message + note.note


@pytest.mark.parametrize("message", [
    "Wait, what?", "Wait a second, is that true?", "Hold on, what's the capital of Peru?", "Is this working as a rule?",
    "You're the best!", "You are a robot.", "Testing my patience, aren't you?", "Can you hear me sing?",
    "Is the dishwasher working?", "I can't hear you.", "Is it working?", "One minute.", "No, wait.", "Oh you're terrible!",
])  # fmt: skip
def test_other_messages_are_no_check_wait_or_insult(message: str) -> None:
    assert not any(note.finds(message) for note in (HEARD_NOTE, WAIT_NOTE, INSULT_NOTE))


@pytest.mark.parametrize("message", [
    "Sorry, I was rude earlier.", "Sorry about that.", "I apologize for yelling at you.", "Sorry for being so rude.",
    "Sorry, I was grumpy.", "Sorry I snapped at you.", "Sorry for being rude to you.", "Sorry if I was rude.",
    "Sorry, my bad.", "Sorry, I've been so grumpy today.", "Sorry for my attitude.",
    "I'm so sorry for being rude, I didn't mean it.",
])  # fmt: skip
def test_an_apology_gets_told_no_harm_done(message: str) -> None:
    noted = add_first(ANY_REPLY, [{"role": "user", "content": message}])[-1]["content"]
    assert noted == message + APOLOGY_NOTE.note and "No worries" in APOLOGY_NOTE.says and user_words(noted) == message


@pytest.mark.parametrize("message", [
    "Sorry?", "Sorry, I meant Austria.", "Sorry, what did you say?", "I'm sorry to hear that.", "I'm sorry for your loss.",
    "Sorry I'm late.", "Sorry, can you repeat that?", "I'm sorry, what's the capital of Peru?", "Sorry.", "Oh, sorry.",
    "I'm sorry.", "My apologies.", "Sorry, I didn't mean that.",  # a cue to go on, sympathy, a request taken back
])  # fmt: skip
def test_other_sorrys_are_no_apology_to_answer(message: str) -> None:
    assert not APOLOGY_NOTE.finds(message)


@pytest.mark.parametrize("message", [
    "It's raining here.", "It's so hot today.", "It's 30 degrees Celsius here.", "There's a big storm outside.",
    "The weather is lovely today.", "It's a beautiful day.", "Brr, it's so cold.", "It's been raining all week.",
    "It's 90 degrees Fahrenheit in my city.", "It's freezing!", "Its raining", "It's minus 10 here.",
    "There's a storm coming.",
])  # fmt: skip
def test_the_weather_where_the_user_is_told_is_answered_not_declined(message: str) -> None:
    assert add_first(ANY_REPLY, [{"role": "user", "content": message}])[-1]["content"] == message + WEATHER_TOLD_NOTE.note


@pytest.mark.parametrize("message", [
    "Is it going to rain today?", "It's nice to meet you.", "It's cold in Antarctica.", "It's raining in London.",
    "It's warm, isn't it?", "It's 5 degrees outside, what should I wear?", "It's my birthday today.", "It's great.",
    "It's a cold war story.", "It's raining, should I take an umbrella", "It's cold, turn on the heating.", "It's hot sauce.",
    "It was a cold night when my father died.", "It's cold in here.", "It's 5 here.",
])  # fmt: skip
def test_a_question_a_request_a_place_named_or_no_weather_is_no_weather_told(message: str) -> None:
    assert not WEATHER_TOLD_NOTE.finds(message)


@pytest.mark.parametrize(("said", "answer"), [
    ("My locker number is 314.", "Got it: your locker number is 314."),
    ("The wifi password is sunflower.", "Got it: the wifi password is sunflower."),
    ("Our room number is 212!", "Got it: your room number is 212."),
    ("My email address is jo@example.com.", "Got it: your email address is jo@example.com."),
    ("Just so you know, my parking spot is B12.", "Got it: your parking spot is B12."),
])  # fmt: skip
def test_a_number_or_code_given_to_keep_is_said_back(said: str, answer: str) -> None:
    note = kept_note([{"role": "user", "content": said}])
    assert note is not None and note.says == f'Answer: "{answer}"'
    assert user_words(note.add([{"role": "user", "content": said}])[-1]["content"]) == said


def test_a_number_or_code_given_earlier_is_the_answer_when_asked_for() -> None:
    given = [{"role": "user", "content": "My gym locker code is 5580."}, {"role": "assistant", "content": "Okay."},
             {"role": "user", "content": "My locker code is 1234."}, {"role": "assistant", "content": "Okay."}]  # fmt: skip
    for asked in ("What was my locker code?", "What's my locker code again?", "Do you remember my locker code?"):
        note = kept_note([*given, {"role": "user", "content": asked}])
        assert note is not None and note.says == 'Answer: "Your locker code is 1234."'  # the latest
        assert user_words(note.add([*given, {"role": "user", "content": asked}])[-1]["content"]) == asked
    for other in ("What's my bike locker code?", "What's the wifi password?", "My favourite city is Lisbon.",
                  "Is my locker code 1234?", "My pin is 1234. What is it?"):  # fmt: skip
        assert kept_note([*given, {"role": "user", "content": other}]) is None


def test_the_users_age_is_worked_out_from_the_birth_year_they_gave_and_comes_off() -> None:
    import datetime

    year = datetime.date.today().year
    given = [{"role": "user", "content": "I was born in 1978."}, {"role": "assistant", "content": "Nice to know!"}]
    asked = [*given, {"role": "user", "content": "How old am I?"}]
    note = age_note(asked)
    assert note is not None and note.says.startswith(f"Worked out: born in 1978, one turns {year - 1978} in {year}")
    noted = add_first(said_notes(asked), asked)[-1]["content"]
    assert noted == f"How old am I?\n\n({note.says})" and user_words(noted) == "How old am I?"
    assert age_note([*given, {"role": "user", "content": "How old is my cat?"}]) is None
    assert said_notes(asked, figures=False) == ()  # figures off: the model's own count
    from app.answers.conversions import with_conversion_hint

    own_year = with_conversion_hint([{"role": "user", "content": "How old am I if I was born in 1990?"}])[-1]["content"]
    assert "Worked out" in own_year and not has_note(own_year)  # the question's own figure is no note: the others still ask


@pytest.mark.parametrize(("said", "answer"), [
    (["Hi, I'm Tomas.", "Do you remember my name?"], "Yes, your name is Tomas."),
    (["My name is Priya.", "What is my name?"], "Your name is Priya."),
    (["My first name is Jo and my last name is Smith.", "What's my last name?"], "Your last name is Smith."),
    (["Call me Max.", "So, what's my name again?"], "Your name is Max."),
    (["Hi, I'm Maria.", "Do you know who I am?"], "Yes, you're Maria."), (["My name is Tom.", "Who am I?"], "You're Tom."),
])  # fmt: skip
def test_a_question_for_the_users_name_gets_the_name_they_gave(said: list[str], answer: str) -> None:
    messages = [{"role": "user", "content": text} for text in said]
    note = name_note(messages)
    assert note is not None and note.says == f'Answer: "{answer}"'
    assert user_words(note.add(messages)[-1]["content"]) == said[-1]


@pytest.mark.parametrize(("message", "answer"), [
    ("What is my name?", "You haven't told me your name yet. What is it?"),
    ("Do you remember my name?", "No, you haven't told me your name yet. What is it?"),
    ("Do you know who I am?", "No, I don't know who you are yet: you haven't told me your name. What is it?"),
    ("Who am I?", "I don't know who you are yet: you haven't told me your name. What is it?"),
])  # fmt: skip
def test_a_first_message_asking_the_users_name_is_told_none_was_given(message: str, answer: str) -> None:
    note = name_note([{"role": "user", "content": message}])
    assert note is not None and note.says == f'Answer: "{answer}"'  # not "I'm Voicechat."


@pytest.mark.parametrize("said", [
    ["Hello!", "What is my name?"], ["I'm Canadian.", "What's my name?"], ["My name is Anna.", "What's my middle name?"],
    ["My name is Anna.", "What's my dog's name?"], ["My name is Anna.", "What is my name spelled backwards?"],
    ["This is Maria speaking.", "Who am I?"],  # a name the names miss: the model reads the conversation
    ["Hi, I'm Tom.", "Who is this?"], ["Hi, I'm Tom.", "Who's speaking?"],  # a caller's question about the assistant
])  # fmt: skip
def test_no_name_is_said_where_none_of_that_kind_was_given(said: list[str]) -> None:
    assert name_note([{"role": "user", "content": text} for text in said]) is None


@pytest.mark.parametrize(("asked", "answer", "claim"), [
    ("What's two plus two?", "Two plus two equals four.", "No, it's five."),
    ("What's the capital of France?", "The capital of France is Paris.", "No, it's Lyon."),
    ("How many legs does a spider have?", "Spiders have eight legs.", "No, spiders have six legs."),
    ("What's the largest planet?", "The largest planet is Jupiter.", "I think it's Saturn."),
    ("How many days are in a week?", "There are 7 days in a week.", "Actually it's eight."),
    ("What color is the sky?", "The sky is blue.", "No, it's green."),
    ("What's ten times ten?", "Ten times ten equals 100.", "Wrong, it's a thousand."),
    ("Who wrote Hamlet?", "William Shakespeare wrote Hamlet.", "No, it was Charles Dickens."),
    ("How many hearts does an octopus have?", "An octopus has eight hearts.", "Um, no, an octopus has three hearts."),
    ("What's 6 times 7?", "It's 42.", "Nope, the answer is 48."),
    ("What's the capital of Australia?", "The capital of Australia is Canberra.", "No, Sydney is the capital."),
    ("what is the capital of australia", "It's Canberra.", "Hmm, I think it's Sydney."),
    ("How many legs does a spider have?", "Spiders have six legs.", "No, it's eight, not six."),
    ("When did the war end?", "It ended in 1944.", "No, it ended in 1945."),
    ("Who wrote Hamlet?", "Charles Dickens wrote Hamlet.", "No, Shakespeare wrote it."),
    ("How many legs does a spider have?", "Six.", "I thought it was eight."),
    ("How hot is the sun?", "About 100 degrees.", "No, it's about 5500 degrees, it's very hot."),
])  # fmt: skip
def test_the_users_own_answer_against_the_last_one_gets_told_to_say_what_is_true(asked: str, answer: str,
                                                                                claim: str) -> None:  # fmt: skip
    conversation = talk(asked, answer, claim)
    assert pushback_note(conversation) is PUSHBACK_NOTE and PUSHBACK_NOTE in said_notes(conversation)
    noted = PUSHBACK_NOTE.add(conversation)[-1]["content"]
    assert user_words(noted) == claim and has_note(noted)


@pytest.mark.parametrize("claim", [
    "No, it's fine.", "No, it's okay.", "No, that's all.", "No, I'm Maria.", "No, my name is Maria.", "No, thanks.",
    "Actually, it's for my son.", "No, it was a joke.", "Actually, I have two cats.", "But it's only 3 pm.",
    "Well, it's 5.", "I think it's going to rain.", "That's wrong.", "No, I said Australia.", "No, Switzerland.",
    "No, is it five?", "No, it's five, and I want to know why you said four when everyone knows that " + "x" * 120,
    "No, that's it. Thanks!", "No, it's OK. Bye!", "No, that's all for today. See you tomorrow!",
    "I think it's going to rain in London today.", "No, it's raining here in London.",
    "Actually, it's snowing here in Chicago.", "Nah, it's fine, Sam will help me.", "Actually, it's my birthday today. I'm 30!",
    "No, it's Australia, not Austria.", "No, that's all, thanks Alexa.", "Nah, that's it, cheers Max.",
    "Actually, that was fun, Sophie.", "I think that's right, 8.", "I think so too, four is right.", "No way, four is a lot.",
    "No way, that's so cool, Mum!", "I think Canberra is beautiful.", "I think London is better.",
    "Actually it's my birthday on Friday.", "No, the meeting was moved to Monday.", "No, Switzerland.",
])  # fmt: skip
def test_other_messages_after_an_answer_are_not_taken_for_the_users_own_answer(claim: str) -> None:
    assert pushback_note(talk("What's the capital of Austria?", "Vienna is the capital of Austria.", claim)) is None


@pytest.mark.parametrize("said", [
    ("Hi, I'm Tom.", "Nice to meet you, Tom!", "No, it's Tim."),  # no question answered
    ("Guess my favourite colour.", "Is it blue?", "No, it's green."),  # the reply asked
    ("Let's play a game.", "Is it 50?", "No, it's 37."),
    ("Do you know my name?", "Your name is Tom.", "No, it's Tim."),  # the user knows
    ("What time is it?", "It's three o'clock.", "No, it's four."),  # the clock's
])  # fmt: skip
def test_a_claim_after_a_reply_that_answered_no_question_is_not_taken_against_it(said: tuple[str, ...]) -> None:
    assert pushback_note(talk(*said)) is None


def test_a_claim_before_any_answer_is_not_taken_against_one() -> None:
    assert pushback_note(talk("No, it's five.")) is None


@pytest.mark.parametrize("message", [
    "No, I said Australia.", "I meant in French.", "Sorry, I meant five times seven.", "Not the Eiffel Tower, Big Ben.",
    "No, Switzerland.", "I said a spider, not a spy.", "Actually, I meant tomorrow.", "No, New Zealand.",
])  # fmt: skip
def test_a_correction_of_the_last_question_is_known(message: str) -> None:
    assert CORRECTION_NOTE.finds(message)
    assert user_words(CORRECTION_NOTE.add([{"role": "user", "content": message}])[-1]["content"]) == message


@pytest.mark.parametrize("message", [
    "No, thanks.", "No problem.", "I said it already.", "I meant it.", "No, I need help.", "No.", "No, that is fine.",
    "Not bad, thanks for asking?", "No, not really.", "I meant to ask you something.", "Not now, maybe later.",
    "No, sorry.", "No, never.", "What did I say?",
])  # fmt: skip
def test_other_messages_are_not_taken_for_a_correction(message: str) -> None:
    assert not CORRECTION_NOTE.finds(message)


@pytest.mark.parametrize("message", [
    "Shorter, please.", "Can you make it shorter?", "That's too long.", "Give me the short version.", "Way too long!",
    "Just the short answer, please.", "Sum that up in one sentence.", "Can you say that in fewer words?", "Keep it short.",
    "Too long. In short?", "In a nutshell?", "TL;DR", "Could you put that in one sentence?", "Less detail, please.",
    "Sum that up in a few words.", "Say it in a few words.",
])  # fmt: skip
def test_a_request_for_the_last_answer_shorter_is_known_after_a_long_one(message: str) -> None:
    long_answer = "The Eiffel Tower is a wrought-iron tower in Paris, built for the 1889 World's Fair by Eiffel's company."
    assert shorter_note(talk("Tell me about the Eiffel Tower.", long_answer, message)) is SHORTER_NOTE
    assert user_words(SHORTER_NOTE.add([{"role": "user", "content": message}])[-1]["content"]) == message
    assert shorter_note(talk("How was your flight?", "It was fine, thanks.", message)) is None  # nothing long to shorten


@pytest.mark.parametrize("message", [
    "How long is the Nile?", "That's too long a drive.", "Keep it up!", "Make it happen.", "Say it again.", "So long!",
    "Give me a quick recipe.", "Keep your answers short.", "Sum it up: 2 plus 2?", "Tell me a short story.", "Make it.",
    "Too much?", "Thank you so much.", "Quick question.", "Give me a short poem.", "Not too long.", "Very long.",
])  # fmt: skip
def test_other_messages_are_not_taken_for_a_request_to_say_it_shorter(message: str) -> None:
    assert not SHORTER_NOTE.finds(message)


LAST_QUESTION = "The user's last question was \"How many legs does a spider have?\""
FIRST_QUESTION = "The user's first question was \"What's the capital of Peru?\""


@pytest.mark.parametrize(("message", "says"), [
    ("What did I just ask?", f'{LAST_QUESTION} Say it back, beginning with "You asked".'),
    ("What was my last question?", f'{LAST_QUESTION} Say it back, beginning with "You asked".'),
    ("Do you remember what I asked?", f'{LAST_QUESTION} Say it back, beginning with "Yes. You asked".'),
    ("What was my first question?", f'{FIRST_QUESTION} Say it back, beginning with "You asked".'),
    ("What did I ask you first?", f'{FIRST_QUESTION} Say it back, beginning with "You asked".'),
    ("What did I first ask?", f'{FIRST_QUESTION} Say it back, beginning with "You asked".'),
    ("So, do you remember what I asked?", f'{LAST_QUESTION} Say it back, beginning with "Yes. You asked".'),
    ("What was the first thing I asked?", f'{FIRST_QUESTION} Say it back, beginning with "You asked".'),
    ("What did I just say?", 'The user\'s last message was "Thanks." Say it back, beginning with "You said".'),
    ("What was the first thing I said?", 'The user\'s first message was "What\'s the capital of Peru?" Say it back, beginning '
                                         'with "You said".'),
])  # fmt: skip
def test_a_question_about_what_the_user_asked_gets_it_as_they_put_it(message: str, says: str) -> None:
    asked = ("What's the capital of Peru?", "Lima.", "Oh, thanks! How many legs does a spider have?", "Eight.", "Thanks.", "OK")
    note = asked_note(talk(*asked, message))
    assert note is not None and note.says == says  # the question alone, not the thanks before it
    assert said_notes(talk(*asked, message)) == (note,)
    noted = note.add(talk(*asked, message))[-1]["content"]
    assert user_words(noted) == message and has_note(noted)
    assert asked_note(talk("Hello!", "Hi! How can I help?", message)).says.startswith(
        ('The user\'s last message was "Hello!"', 'The user\'s first message was "Hello!"'))  # no question: the message


@pytest.mark.parametrize(("said", "question"), [
    ("Um, what's the capital of Peru.", "Um, what's the capital of Peru."),  # a transcript without its question mark
    ("How far is St. Louis from Chicago?", "How far is St. Louis from Chicago?"),
    ("What a lovely day! Is it going to rain?", "Is it going to rain?"),
])  # fmt: skip
def test_the_question_said_back_is_the_users_question_sentence(said: str, question: str) -> None:
    note = asked_note(talk(said, "Sure.", "What did I just ask?"))
    assert note is not None and note.says.startswith(f'The user\'s last question was "{question}"')
    assert asked_note(talk("What a lovely day!", "It is!", "What was my first question?")).says.startswith(
        'The user\'s first message was "What a lovely day!"')  # no question asked: the message, not "What a ..." asked
    assert asked_note(talk("What did I ask?")).says == 'Answer: "You haven\'t asked me a question yet."'


@pytest.mark.parametrize("message", [
    "What did I say about Paris?", "What did I ask for?", "What was the question about taxes?", "What did you say?",
    "What should I ask my doctor?",
])  # fmt: skip
def test_other_messages_are_not_taken_for_what_the_user_asked(message: str) -> None:
    assert asked_note(talk("What's the capital of Peru?", "Lima.", message)) is None


@pytest.mark.parametrize("message", [
    "Do you remember me?", "Do you remember our last conversation?", "Remember what we talked about yesterday?",
    "Have we met before?", "Hi! Do you still remember me?",
])  # fmt: skip
def test_a_first_message_about_an_earlier_conversation_is_told_it_starts_afresh(message: str) -> None:
    assert memory_note(talk(message)) is REMEMBER_ME_NOTE and "starts fresh" in REMEMBER_ME_NOTE.says
    assert user_words(REMEMBER_ME_NOTE.add(talk(message))[-1]["content"]) == message
    assert memory_note(talk("Hi, I'm Ana.", "Hi Ana!", message)) is None  # later the model reads what was said
    assert memory_note(talk("Do you remember my name?")) is None and memory_note(talk("Do you know who I am?")) is None


@pytest.mark.parametrize(("message", "note"), [
    ("Can I ask you a question?", MAY_I_ASK_NOTE), ("Can I ask you something?", MAY_I_ASK_NOTE),
    ("Mind if I ask you something?", MAY_I_ASK_NOTE), ("May I ask a quick question?", MAY_I_ASK_NOTE),
    ("Good night!", GOOD_NIGHT_NOTE), ("Goodnight.", GOOD_NIGHT_NOTE), ("Night night.", GOOD_NIGHT_NOTE),
    ("I'm going to bed. Good night.", GOOD_NIGHT_NOTE), ("Okay, good night, sleep well.", GOOD_NIGHT_NOTE),
    ("What do you think about artificial intelligence?", OPINION_NOTE), ("How do you feel about Mondays?", OPINION_NOTE),
    ("What's your opinion on pineapple on pizza?", OPINION_NOTE), ("What are your thoughts on remote work?", OPINION_NOTE),
    ("Do you think robots will take over the world?", OPINION_NOTE), ("Do you believe in ghosts?", OPINION_NOTE),
    ("Do you think the earth is flat?", OPINION_NOTE), ("Which is better, cats or dogs?", OPINION_NOTE),
    ("I'm going to bed. See you tomorrow.", GOOD_NIGHT_NOTE),
])  # fmt: skip
def test_leave_to_ask_a_good_night_and_a_view_asked_for_are_known(message: str, note: Note) -> None:
    assert add_first(ANY_REPLY, [{"role": "user", "content": message}])[-1]["content"] == message + note.note


@pytest.mark.parametrize("message", [
    "Can I ask you about dogs?", "Can I ask my doctor?", "May I ask what time it is?", "Did you have a good night?",
    "It was a good night.", "Night shifts are hard.", "What do you think of my idea?", "What do you think I should do?",
    "What do you think about that?", "What do you think it means?", "I think pizza is great.", "Do you think so?",
    "Do you think it will rain tomorrow?", "Do you think you're smart?", "Which is better?", "Is it open, do you think?",
    "Do you think I should kill myself?", "What do you think about suicide?", "Do you think my baby is sick?",
    "Do you think I'm fat?", "Do you think she likes me?", "Do you think that's true?", "Do you believe that?",
    "What do you think about the weather today?", "How do you feel about being an AI?", "Do you think I should quit my job?",
    "What do you think about Tesla stock right now?", "Do you think he's right?", "Do you think vaccines cause autism?",
])  # fmt: skip
def test_other_messages_are_not_taken_for_leave_to_ask_a_good_night_or_a_view(message: str) -> None:
    assert not any(note.finds(message) for note in (MAY_I_ASK_NOTE, GOOD_NIGHT_NOTE, OPINION_NOTE))


@pytest.mark.parametrize(("message", "words"), [
    ("Say banana.", "Banana."), ("Can you say banana?", "Banana."), ("Please say cheese!", "Cheese."),
    ("Repeat after me: the quick brown fox.", "The quick brown fox."), ("Say 'I love you'.", "I love you."),
])  # fmt: skip
def test_words_asked_to_be_said_are_the_answer(message: str, words: str) -> None:
    note = say_note(talk(message))
    assert note is not None and note.says == f'Answer: "{words}"'
    assert user_words(note.add(talk(message))[-1]["content"]) == message


@pytest.mark.parametrize("message", [
    "Say it again.", "Say something funny.", "Say hello to my friend Sam.", "Say that in French.", "Say my name.",
    "Say lived backwards.", "Say the alphabet.", "Say, what's the capital of France?", "Repeat after me.", "Say what?",
])  # fmt: skip
def test_other_messages_are_not_taken_for_words_to_say(message: str) -> None:
    assert say_note(talk(message)) is None


@pytest.mark.parametrize("message", [
    "What do you mean?", "What does that mean?", "I don't understand.", "I don't get it.", "I'm confused.",
    "That doesn't make sense.", "Huh? What do you mean?", "I don't follow.", "Sorry, I don't understand.",
    "What do you mean by that?", "um, I'm lost", "That makes no sense!", "Wait, what does it mean?",
])  # fmt: skip
def test_a_user_who_did_not_follow_the_last_reply_is_known(message: str) -> None:
    conversation = talk("What is inflation?", "Inflation is a rise in the general price level over time.", message)
    assert clarify_note(conversation) is CLARIFY_NOTE
    assert said_notes(conversation) == (CLARIFY_NOTE,)
    assert user_words(CLARIFY_NOTE.add(conversation)[-1]["content"]) == message
    assert clarify_note(talk(message)) is None  # no reply to say again


@pytest.mark.parametrize("message", [
    "What do you mean by inflation?", "What does 'ubiquitous' mean?", "I don't understand fractions.",
    "I didn't get that.", "I don't get why the sky is blue.", "I'm confused about taxes.", "Does that make sense?",
    "What did you mean?", "I don't follow football.", "It makes sense.",
])  # fmt: skip
def test_other_messages_are_not_taken_for_not_following_the_last_reply(message: str) -> None:
    assert clarify_note(talk("What is inflation?", "Inflation is a rise in prices.", message)) is None


@pytest.mark.parametrize(("message", "answers"), [
    ("Flip a coin.", {"It's heads.", "It's tails."}), ("Can you toss a coin for me?", {"It's heads.", "It's tails."}),
    ("Heads or tails?", {"It's heads.", "It's tails."}),
    ("Roll a dice.", {f"You rolled a {n}." for n in range(1, 7)}),
    ("Roll the die, please.", {f"You rolled a {n}." for n in range(1, 7)}),
    ("Let's roll two dice.", {f"You rolled a {a} and a {b}: {a + b} in all." for a in range(1, 7) for b in range(1, 7)}),
    ("Pick a number between one and ten.", {f"I pick {n}." for n in range(1, 11)}),
    ("Could you pick a random number from 5 to 7?", {"I pick 5.", "I pick 6.", "I pick 7."}),
    ("Think of a number between twenty and eighteen.", {"I pick 18.", "I pick 19.", "I pick 20."}),
    ("Pick a number.", {f"I pick {n}." for n in range(1, 11)}), ("Coin flip.", {"It's heads.", "It's tails."}),
    ("Let's flip a coin for it.", {"It's heads.", "It's tails."}),
    ("Pick a number between seventy and seventy.", {"I pick 70."}),
    ("Pick a number from 1-3.", {"I pick 1.", "I pick 2.", "I pick 3."}), ("Pick a number 1 to 2.", {"I pick 1.", "I pick 2."}),
])  # fmt: skip
def test_a_coin_a_dice_or_a_number_asked_for_is_drawn_and_every_outcome_comes_up(message: str, answers: set[str]) -> None:
    draws = random.Random(7)
    said = set()
    for _ in range(400):
        note = chance_note([{"role": "user", "content": message}], draws)
        said.add(note.says.removeprefix('Answer: "').removesuffix('"'))
        noted = note.add([{"role": "user", "content": message}])[-1]["content"]
        assert user_words(noted) == message and has_note(noted)
    assert said == answers


@pytest.mark.parametrize("message", [
    "How do I flip a coin?", "What's a dice?", "Pick a number and I'll guess it.", "I rolled a dice and got six.",
    "Who invented dice?", "Pick a colour.", "What number comes between one and ten?", "Flip the pancake.",
])  # fmt: skip
def test_other_messages_draw_nothing(message: str) -> None:
    assert chance_note([{"role": "user", "content": message}]) is None


@pytest.mark.parametrize("message", [
    "That's wrong.", "Are you sure about that?", "You're wrong.", "That's not right.", "Are you sure?", "Really?",
    "Is that right?", "I don't think that's right.", "That's incorrect.", "No, that's wrong.", "Hmm, are you sure?",
    "You sure?", "That can't be right.",
])  # fmt: skip
def test_doubt_of_the_last_answer_is_known(message: str) -> None:
    assert add_first(ANY_REPLY, [{"role": "user", "content": message}])[-1]["content"] == message + DOUBT_NOTE.note


@pytest.mark.parametrize("message", [
    "That's right.", "You're right, thanks!", "Are you sure it will rain?", "Really good answer.", "Is that right or left?",
    "I don't think so, thanks.", "That's wrong, the capital is Sydney.", "Are you sure you can't?", "It's right there.",
    "I don't think so.", "You're not wrong.", "That's not wrong.", "No way!", "Hmm, hmm, hmm.",
])  # fmt: skip
def test_other_messages_are_not_taken_for_doubt(message: str) -> None:
    assert not DOUBT_NOTE.finds(message)


OWN_LIFE = {
    BODY_NOTE: ["Do you ever sleep?", "Do you eat?", "Are you tired?", "Did you sleep well?", "What do you eat?",
                "Do you dream?", "What did you have for breakfast?", "Are you hungry yet?", "Do you need a break?"],
    AGE_NOTE: ["How old are you?", "When's your birthday?", "When were you born?", "Whats your age?", "Are you old?"],
    DAY_NOTE: ["What did you do today?", "What have you been up to?", "What are you doing this weekend?",
               "Did you have a good day?", "What are your plans for the weekend?", "What do you do for fun?"],
    FAMILY_NOTE: ["Do you have a family?", "Are you married?", "Do you have any pets?", "Do you have kids?",
                  "Who are your parents?", "Do you have a girlfriend?"],
    RATHER_NOTE: ["Would you rather fly or be invisible?", "Would you rather be a cat or a dog?"],
    QUIZ_NOTE: ["Quiz me on capital cities.", "Ask me a trivia question.", "Test me on the planets.", "Can you quiz me?",
                "Give me a maths question.", "Ask me a question about history.", "Let's do a quiz about animals."],
}  # fmt: skip


@pytest.mark.parametrize(("note", "message"), [(note, message) for note, messages in OWN_LIFE.items() for message in messages])
def test_a_question_about_a_life_it_has_not_or_a_game_gets_its_note(note, message: str) -> None:
    noted = add_first(ANY_REPLY, [{"role": "user", "content": message}])[-1]["content"]
    assert noted == message + note.note and user_words(noted) == message


@pytest.mark.parametrize("message", [
    "Do you eat meat?", "What should I eat?", "Are you tired of me?", "Did you eat my sandwich?", "How old is the Earth?",
    "When is my birthday?", "How's your day going?", "What did I do today?", "What should I do today?", "What are you doing?",
    "Do you have a family plan?", "Are you married to that idea?", "Do you have any tips for pets?", "Who are my parents?",
    "Would you rather I called later?", "Can you ask me a question later?", "What's a good quiz?", "Give me a hint.",
    "What are your plans for my essay?",
])  # fmt: skip
def test_other_messages_get_none_of_those_notes(message: str) -> None:
    assert not any(note.finds(message) for note in OWN_LIFE)


def talk(*said: str) -> list[dict]:
    """A conversation of ``said``, the user's turns and the assistant's in turn."""
    return [{"role": ("user", "assistant")[i % 2], "content": text} for i, text in enumerate(said)]


@pytest.mark.parametrize(("asked", "follow", "in_full"), [
    ("How many centimetres in an inch?", "And in a foot?", "How many centimetres in a foot?"),
    ("How many minutes are in an hour?", "And in a day?", "How many minutes are in a day?"),
    ("How do you say thank you in Spanish?", "What about in Italian?", "How do you say thank you in Italian?"),
    ("What's the capital of Spain?", "And of Portugal, please?", "What's the capital of Portugal?"),
    ("What should I cook for lunch?", "How about for dinner?", "What should I cook for dinner?"),
    ("How far is it from London to Rome?", "OK, and to Paris?", "How far is it from London to Paris?"),
    ("what time is it in tokyo", "and in london", "what time is it in london?"),
])  # fmt: skip
def test_a_follow_up_that_changes_the_last_question_gets_it_in_full(asked: str, follow: str, in_full: str) -> None:
    conversation = talk(asked, "The answer.", follow)
    note = follow_up_note(conversation, figures=False)
    assert note is not None and note.says == f'Asked in full: "{in_full}"'
    noted = note.add(conversation)[-1]["content"]
    assert user_words(noted) == follow and has_note(noted)
    assert user_words(follow_up_note(conversation).add(conversation)[-1]["content"]) == follow  # with a figure too


def test_a_follow_up_of_the_time_in_a_city_now_gets_the_time_there() -> None:
    conversation = talk("What time is it in Tokyo?", "It is 9:30 pm in Tokyo.", "And in Paris?")
    note = follow_up_note(conversation)  # without it: "Sorry, I can't check the time from here."
    assert note.says.startswith('Asked in full: "What time is it in Paris?" Worked out: it is ')
    assert note.says.endswith(" in Paris now.") and user_words(note.add(conversation)[-1]["content"]) == "And in Paris?"
    said_elsewhere = talk("What time is it in Tokyo if it's 3 pm in London?", "Midnight.", "What about in Sydney?")
    assert follow_up_note(said_elsewhere).says == 'Asked in full: "What time is it in Tokyo if it\'s 3 pm in Sydney?"'


def test_a_follow_up_of_a_follow_up_changes_the_last_question_in_full() -> None:
    conversation = talk("How many centimetres in an inch?", "2.54.", "And in a foot?", "30.48.", "What about in a yard?")
    said = 'Asked in full: "How many centimetres in a yard?" Worked out: a yard = 91.44 centimetres.'
    assert follow_up_note(conversation).says == said  # the figure of the question in full (``conversion_hints``)


def test_a_sum_that_goes_on_from_the_last_answer_gets_it_in_full_and_worked_out() -> None:
    conversation = talk("What's seven times eight?", "Seven times eight is fifty-six.", "Now divide that by four.")
    said = 'Asked in full: "What is fifty-six divided by four?" Worked out: the answer is fourteen.'
    assert sum_note(conversation).says == said  # without it: "Fifty-six divided by four equals twelve."
    noted = add_first(said_notes(conversation), conversation)[-1]["content"]
    assert noted.endswith(f"({said})") and user_words(noted) == "Now divide that by four." and has_note(noted)
    assert not any(note.says == said for note in said_notes(conversation, figures=False))  # ``conversion_hints`` off
    assert sum_note(talk("What's the capital of France?", "Paris.", "Now divide that by four.")) is None
    typed = "Double it.\n\n(Asked in full: my words)"  # a user's own words, in no note's form
    assert user_words(typed) == typed and not has_note(typed)
    typed = "Tell me a riddle.\n\n(and ask this riddle, without its answer: x)"
    assert user_words(typed) == typed and not has_note(typed)


@pytest.mark.parametrize(("before", "follow"), [
    ("What's the capital of France?", "And Germany?"),  # no preposition: the model follows it as it is
    ("What's the weather like?", "And in London?"),  # nothing of the last question to change
    ("I live in Paris.", "And in London?"),  # no question
    ("How are you?", "And you?"), ("What's a good gift for my dad?", "And for me?"),
    ("How many legs does a spider have?", "And in the morning I go running."),
    ("What's the capital of France?", "And of course I love it."), ("What do you think of Paris?", "And in fact, I do."),
])  # fmt: skip
def test_other_messages_after_a_question_get_no_question_in_full(before: str, follow: str) -> None:
    assert follow_up_note(talk(before, "The answer.", follow)) is None
    assert follow_up_note(talk("And in a foot?")) is None


@pytest.mark.parametrize("question", [
    "Is a bat a bird?", "Is Sydney the capital of Australia?", "Did Shakespeare write Don Quixote?", "Do fish have lungs?",
    "Can penguins fly?", "Is there life on Mars?", "So, was Einstein a physicist?", "Will humans ever live on Mars?",
    "Can I freeze bread?", "Can I give my dog chocolate?", "Can I eat eggs if I'm vegan?", "Can I eat a Snickers bar?",
    "May I use olive oil instead of butter?", "Could we plant tomatoes in October?",  # the user's own may
])  # fmt: skip
def test_a_yes_or_no_question_about_the_world_is_begun_other_than_yes(question: str) -> None:
    noted = YES_NO_NOTE.add([{"role": "user", "content": question}])[-1]["content"]
    assert noted == f'{question}\n\n(Begin with "Well," and say what is true.)' and user_words(noted) == question


@pytest.mark.parametrize("question", [
    "Is it going to rain tomorrow?", "Is the store open now?", "Is it cold outside?", "Is it the weekend?",
    "Is today Monday?", "Did the Lakers win last night?",  # the limits prompt declines these: no first words to make it up
    "Is Bitcoin up?", "Did the Lakers beat the Celtics?", "Is there a storm coming?", "Is the flight delayed?",
    "Is Twitter down?", "Is the election over?", "Is it possible to set a timer?", "Is it an animal?",  # a guess in a game
    "Are you human?", "Is my alarm set?", "Do you like music?",  # not about the world
    "Can I ask you something?", "Can I set a timer?", "Can I call you Bob?", "Can I play some music?",  # asks the model
    "Should I take an umbrella today?", "Can I see the stars tonight?", "Should I bring an umbrella?",  # about now
    "Can I have a hint?", "Can I get another riddle?", "Can we do a quiz?", "Can we start over?",
    "What is a bat?", "Is a bat a bird? And why?", "Can't wait to see it.", "Is a bat a bird",  # no such question alone
])  # fmt: skip
def test_other_messages_are_not_begun_for_the_model(question: str) -> None:
    assert not YES_NO_NOTE.finds(question)


@pytest.mark.parametrize("said", [
    "I'm sad.", "I'm cold.", "I'm so tired right now.", "I feel a bit down.", "I'm worried about my exams.",
    "I can't sleep.", "I'm having a bad day.", "Ugh, I'm stressed out!", "I'm in a great mood.", "I am feeling very lonely.",
])  # fmt: skip
def test_how_the_user_feels_is_answered_warmly(said: str) -> None:
    noted = add_first(ANY_REPLY, [{"role": "user", "content": said}])[-1]["content"]
    assert noted == f"{said}\n\n(Reply warmly to how the user feels.)" and user_words(noted) == said


@pytest.mark.parametrize("said", [
    "I'm good at maths.", "I'm sick of this.", "I'm happy with the answer.", "I'm not hungry.", "Are you bored?",
    "I'm hot, can you turn on the fan?", "I'm cold. Set the heating to 22.", "I'm down to my last dollar.",
    "I feel sick after eating peanuts.", "I'm lost in the city, where is the station?", "I am a teacher.",
])  # fmt: skip
def test_other_statements_are_not_taken_for_a_feeling(said: str) -> None:
    assert not FEELING_NOTE.finds(said)


@pytest.mark.parametrize("said", [
    "I'm hungry.", "I'm starving!", "I'm so hungry right now.", "I'm thirsty.", "I'm feeling a bit peckish.",
    "Ugh, I'm really hungry.", "I am famished.", "I'm getting hungry.", "I'm kinda hungry.", "Im hungry.", "I'm hungry too.",
])  # fmt: skip
def test_hunger_or_thirst_is_met_with_something_to_eat_or_drink(said: str) -> None:
    noted = add_first(ANY_REPLY, [{"role": "user", "content": said}])[-1]["content"]  # "I'm glad you're hungry!"
    assert noted == said + HUNGRY_NOTE.note and user_words(noted) == said


@pytest.mark.parametrize("said", [
    "I'm not hungry.", "Are you hungry?", "I'm hungry, what should I eat?", "I'm hungry for success.",
    "My cat is hungry.", "I was hungry earlier.",
])  # fmt: skip
def test_other_messages_are_not_taken_for_hunger(said: str) -> None:
    assert not HUNGRY_NOTE.finds(said)


@pytest.mark.parametrize("said", [
    "My car is making a weird noise.", "My car won't start.", "My phone keeps freezing.", "My laptop won't turn on.",
    "My wifi isn't working.", "My kitchen sink is leaking.", "My printer isn't printing.", "The TV has no sound.",
    "My fridge is making a buzzing sound.", "My basil plant is wilting.", "My car has a flat tire.", "My internet is slow.",
    "Ugh, my computer is so slow.", "My bread didn't rise. What should I do?", "My phone won't charge, any ideas?",
    "The toilet is clogged.", "My phone screen is cracked.", "The heating is not working.", "My phone's broken.",
    "My screen went black.", "My wifi keeps dropping.", "My computer won't boot.", "My brakes are grinding.",
    "My plant's leaves are turning yellow.", "My car makes a noise when driving.",
])  # fmt: skip
def test_something_gone_wrong_is_met_with_a_cause_and_what_to_try(said: str) -> None:
    noted = add_first(ANY_REPLY, [{"role": "user", "content": said}])[-1]["content"]  # "I'm sorry, I can't assist with that."
    assert noted == said + TROUBLE_NOTE.note and user_words(noted) == said


@pytest.mark.parametrize("said", [
    "My back hurts.", "I have a toothache.", "My son won't sleep.", "My car is red.", "My phone is new.",
    "Is my car working?", "My car works fine.", "The sound of rain is nice.", "My car sounds great.", "Turn on the lights.",
    "My wife is dying to see you.", "My plants are doing great.", "The cake smells amazing.", "My phone isn't here.",
    "My oven smells like gas.", "My stove is leaking gas.", "The carbon monoxide alarm is beeping.",  # a danger
    "The smoke alarm is beeping.", "My heater smells like burning.", "My brakes stopped working while driving.",
    "My window is broken, someone broke in.", "My brakes aren't working.",
    "My car is yellow.", "My laptop is not broken.", "My phone never crashes.", "My old laptop never stopped working.",
    "My new phone doesn't need charging every day.", "My car runs great, no noise at all.", "My phone is not slow anymore.",
    "My wifi is working again, it was slow earlier.", "My Christmas lights are flickering beautifully.",
    "The movie on TV was so slow.", "My watch says my heart rate is too slow.", "My pet mouse is dying.",
])  # fmt: skip
def test_other_messages_are_not_taken_for_something_gone_wrong(said: str) -> None:
    assert not TROUBLE_NOTE.finds(said)


@pytest.mark.parametrize("said", [
    "I smell gas.", "I can smell gas in the kitchen.", "It smells like gas in here.", "My oven smells like gas.",
    "My stove is leaking gas.", "The carbon monoxide alarm is going off.", "Our CO detector keeps beeping!",
    "I think there's a gas leak. What should I do?", "Help, I smell gas!",
])  # fmt: skip
def test_a_danger_at_home_gets_what_to_do_first(said: str) -> None:
    noted = add_first((*WITHOUT_TOOLS, *ANY_REPLY), [{"role": "user", "content": said}])[-1]["content"]
    assert noted == said + DANGER_NOTE.note and user_words(noted) == said and "get everyone out" in DANGER_NOTE.says


@pytest.mark.parametrize("said", [
    "How do I know if I have a gas leak?", "Gas prices are high.", "My car is leaking gas.", "The car smells like gas.",
    "I smell gas at the station, it's normal.", "The smoke alarm needs a new battery.",
])  # fmt: skip
def test_other_messages_are_no_danger(said: str) -> None:
    assert not DANGER_NOTE.finds(said)


@pytest.mark.parametrize("said", [
    "My son hit his head and is unconscious.", "My dad collapsed and isn't breathing.", "My son is choking!",
    "Help, my wife is having a heart attack.", "Someone collapsed in the street.", "My baby is turning blue.",
    "My friend took too many pills.", "I can't breathe.", "My grandma is having a stroke.", "He's not breathing!",
    "My mom fell and is unconscious.", "My son is having a seizure.", "My husband is bleeding a lot.",
    "My friend passed out and won't wake up.", "I got stung by a bee and I can't breathe.",
    "I can't breathe, I think I'm going to die.", "I'm having a heart attack, I'm going to die.",  # danger before a wish
    "Help, I'm bleeding a lot, I'm going to die!", "I took too many pills because I want to die.",
    "I've taken an overdose, I want to die.", "What do I do? My son is choking!", "Can you help me? My husband collapsed.",
    "How do I do CPR? My dad isn't breathing.", "Who do I call? My wife is unconscious.", "I've overdosed.",
    "My son swallowed bleach.", "My toddler swallowed a button battery.", "I just took a whole bottle of pills.",
    "My dad is having trouble breathing.", "I can't breathe properly.", "My grandad collapsed.", "Dad's not breathing!",
    "My 2 year old is choking.", "He's still not breathing.", "My son fell off the swing and hit his head and is unconscious.",
    "My dad is having chest pains.", "My wife fainted and won't wake up.", "Someone is drowning!",
    "My daughter is having an asthma attack.",
])  # fmt: skip
def test_someone_in_danger_now_gets_the_emergency_number(said: str) -> None:
    noted = add_first(NOW_NOTES, [{"role": "user", "content": said}])[-1]["content"]
    assert noted == said + URGENT_NOTE.note and user_words(noted) == said and "emergency number now" in URGENT_NOTE.says


@pytest.mark.parametrize("said", [
    "What should I do if someone is choking?", "What are the signs of a stroke?", "Is he breathing?",  # asked about
    "I'm choking on my laughter.", "I'm choking up.", "I nearly died laughing.", "In the movie, he collapsed.",
    "I read that a man collapsed at the marathon.", "My computer stopped responding.", "My phone is not responding.",
    "The bridge collapsed.", "My business collapsed.", "My plant collapsed.", "I love the song Can't Breathe.",
    "I can't breathe through my nose when I have a cold, any tips?", "My friend collapsed on the sofa after work.",
    "I'm having a fit of giggles.", "I'm having a stroke of luck.", "I'm choking back tears.", "I'm choking under pressure.",
    "They're choking again, typical Arsenal.", "I'm not breathing hard.", "He is unconscious of the danger.",
    "I can't breathe, this is so funny.", "My mum is having a fit because I'm late.", "He collapsed in the second half.",
    "My dad collapsed last year but he's fine now.", "I've called them, they're coming. He's not breathing.",
])  # fmt: skip
def test_other_messages_are_no_one_in_danger(said: str) -> None:
    assert not URGENT_NOTE.finds(said)


@pytest.mark.parametrize("said", [
    "I want to cut myself.", "I feel suicidal.", "I want to kill myself.", "I don't want to live anymore.",
    "I've been thinking about ending my life.", "I self-harm.", "I cut myself on purpose.", "I want to die.",
    "I'm going to hurt myself.", "I'm suicidal.", "There's no reason to live.", "I need help with suicidal thoughts.",
    "Do you think I should kill myself?", "I burned myself on purpose.", "I cut myself again. I self-harm.",
    "I've been self-harming.", "I've been cutting myself.", "I want to commit suicide.", "I'm thinking about suicide.",
    "I want to take my own life.", "I wish I was dead.", "I want to be dead.", "I don't want to be alive.",
    "I'm feeling really suicidal.", "I hate my life and want to die.", "I still want to kill myself.", "I can't go on.",
    "Everyone would be better off without me.", "I have nothing to live for.", "Life isn't worth living.",
    "I'm going to overdose.", "I think about killing myself.", "Are you a real person? I want to kill myself.",
    "This homework is killing me, I want to die.",  # earnest, and kind
])  # fmt: skip
def test_a_person_in_crisis_gets_someone_to_talk_to(said: str) -> None:
    noted = add_first(NOW_NOTES, [{"role": "user", "content": said}])[-1]["content"]
    assert noted == said + CRISIS_NOTE.note and user_words(noted) == said and "crisis line" in CRISIS_NOTE.says


@pytest.mark.parametrize("said", [
    "I nearly died laughing.", "I could kill myself laughing.", "I'm dying to see the film.", "I want to watch Suicide Squad.",
    "What is a suicide squeeze?", "I want to cut my hair.", "I want to diet.", "I want to die my hair red.",
    "My plant wants to die.", "I want to go home.", "What do you think about suicide?",
    "I want to cut myself some slack.", "I'm going to cut myself a piece of cake.", "I want to hurt myself less at the gym.",
    "I'm going to die single.", "I'm going to die someday.", "I'm going to die if I eat one more bite.",
    "I want to end it all with a big finale.", "I want to end my life of crime.", "There's no reason to live in the suburbs.",
    "I don't want to be here anymore, this party is lame.", "I can't go on the trip.",
])  # fmt: skip
def test_other_messages_are_no_crisis(said: str) -> None:
    assert not CRISIS_NOTE.finds(said)


@pytest.mark.parametrize("question", [
    "How high is Mount Everest?", "How hot is the sun?", "What colour is Mars?", "How deep is the Pacific Ocean?",
    "How far away is the moon?", "How old is the universe?", "How cold does it get in Antarctica?",  # the world's "it"
    "How long does it take to boil an egg?", "How much does the Earth weigh?", "How tall is K2?",  # a name's digit
    "At what temperature does water boil on top of Everest?", "What color is a flamingo?", "Ok, how salty is the sea?",
    "How fast can a cheetah run?", "What shape is the Earth?", "How heavy is a blue whale?",
])  # fmt: skip
def test_a_question_about_a_lasting_fact_of_the_world_is_to_be_answered(question: str) -> None:
    noted = WORLD_NOTE.add([{"role": "user", "content": question}])[-1]["content"]
    assert noted == f"{question}\n\n(A question about the world: answer it.)" and user_words(noted) == question


@pytest.mark.parametrize("question", [
    "How hot is it today?", "How cold is it outside right now?", "How much is a bitcoin worth at the moment?",
    "How deep is the snow in Denver?", "How busy is the traffic to the airport?", "How long is the queue?",  # live
    "What temperature is it in London?", "How hot is the oven now?", "How much does a Tesla cost?",
    "How long until Christmas?", "How long ago did the dinosaurs die out?",  # a day count's or a year's
    "How old am I?", "How old are you?", "How tall is my son?", "What colour is it?", "How big is that?",  # not the world
    "How far is it to the station?", "How much does it weigh?", "How old was he?",
    "How far is 10 km in miles?", "How hot is 100 degrees Celsius in Fahrenheit?",  # a conversion's figure
    "What colour should I paint my kitchen?", "How high is Mount Everest? And why?", "What is the capital of Peru?",
])  # fmt: skip
def test_other_questions_are_not_told_to_be_answered(question: str) -> None:
    assert not WORLD_NOTE.finds(question)


@pytest.mark.parametrize("question", [
    "What's the weather like in Paris in April?", "What's the weather like in London in the summer?",
    "What's the weather usually like in Chicago in winter?", "What's the climate like in Seattle?",
    "What's the climate of Egypt?",
    "Does it snow in Texas?", "Does it rain a lot in Seattle?", "Does it ever snow in London?", "Does it get cold in Florida?",
    "Is it hot in Dubai in August?", "Is Chicago cold in winter?", "How cold are the winters there?",
    "How hot are summers in Phoenix?", "What's Seattle's weather like in winter?", "What kind of climate does Spain have?",
    "Does London get much snow?", "What's the average temperature in Rome in July?", "So, is Moscow warm in the summer?",
    "How cold is it in Moscow in winter?", "How's the weather in Paris in April?", "Is the weather nice in Paris in May?",
    "What's Seattle's climate like?", "Does it rain there during my trip?",
])  # fmt: skip
def test_a_question_about_a_places_usual_weather_is_to_be_answered(question: str) -> None:
    """Not declined as today's weather ("Sorry, I can't check the weather from here.")."""
    noted = CLIMATE_NOTE.add([{"role": "user", "content": question}])[-1]["content"]
    assert noted == question + CLIMATE_NOTE.note and user_words(noted) == question


@pytest.mark.parametrize("question", [
    "What's the weather like in London?", "What's the weather like in London this weekend?", "Is it hot in Dubai?",
    "Will it snow in Texas?", "Is it raining in Seattle?", "What's the weather like today?", "Is it cold outside?",
    "Does it snow in Texas tomorrow?", "What's the weather like in Paris next April?", "Is it going to be cold in winter?",
    "What's the weather like now in Paris in April?", "Does it matter?", "How long is the summer break?",
    "What's the forecast for Paris in April?", "Does it rain?", "What's Seattle's weather like?",
    "Does it rain in London on Sunday?", "Does it rain in London later?", "Does it snow in Texas yet?",
    "What's the weather gonna be like in May?", "What is the weather like in Paris on April 3?", "Does it rain here?",
    "What's the weather usually like here in winter?", "What's the weather like where I live in winter?",  # where is that?
    "What is the climate crisis?", "What's the climate like for startups in Berlin?",
])  # fmt: skip
def test_other_questions_are_not_taken_for_a_places_usual_weather(question: str) -> None:
    assert not CLIMATE_NOTE.finds(question)


@pytest.mark.parametrize("question", [
    "What can you do?", "What can you help me with?", "What are you able to do?", "How can you help me?",
    "What kind of things can I ask you?", "What else can you do?", "What are your capabilities?",
    "So what can you do for me?", "What are you good at?", "Tell me what you can do.", "Can you tell me what you can do?",
    "What's your capabilities?", "What stuff can you do?",
])  # fmt: skip
def test_what_the_assistant_can_do_is_said(question: str) -> None:
    """Not "... assist with tasks like booking flights, setting reminders ..." (a reply without tools)."""
    noted = add_first(WITHOUT_TOOLS, [{"role": "user", "content": question}])[-1]["content"]
    assert noted == question + CAN_DO_NOTE.note and user_words(noted) == question


@pytest.mark.parametrize("question", [
    "What do you do?", "What can you do about the noise?", "How can you help me with my homework?",
    "What can you tell me about Rome?", "What can I do?", "What can you do with leftover rice?",
])  # fmt: skip
def test_other_questions_are_not_taken_for_what_the_assistant_can_do(question: str) -> None:
    assert not CAN_DO_NOTE.finds(question)


@pytest.mark.parametrize("question", [
    "How many days until Christmas?", "How long until Christmas?", "How many sleeps until my birthday?",
    "How long until the weekend?", "So how many weeks until Halloween?", "How many days until March 3?",
])  # fmt: skip
def test_days_to_a_day_with_no_date_given_ask_for_the_date(question: str) -> None:
    """Not a count from a date made up ("There are 24 days until Christmas."); a reply without tools."""
    noted = add_first(WITHOUT_TOOLS, [{"role": "user", "content": question}])[-1]["content"]
    assert noted == question + COUNTDOWN_NOTE.note and user_words(noted) == question


@pytest.mark.parametrize("question", [
    "Today is June 1. How many days until my birthday?", "If today is December 20, how many days until Christmas?",
    "How many days until Christmas if today is December 20?", "It's Monday. How many days until Friday?",
    "How many days are in December?", "How long does it take to get to Paris?",
])  # fmt: skip
def test_days_counted_from_a_date_given_are_not_asked_for_one(question: str) -> None:
    assert not COUNTDOWN_NOTE.finds(question)


@pytest.mark.parametrize(("asked", "told", "in_full"), [
    ("How many days until Christmas?", "Today is December 7.",
     '"Today is December 7. How many days until Christmas?" Worked out: the answer is 18 days.'),
    ("How long until Christmas?", "It's December 20th.",
     '"It\'s December 20th. How many days until Christmas?" Worked out: the answer is 5 days.'),
])  # fmt: skip
def test_the_date_told_after_a_count_asked_for_it_gets_the_count(asked: str, told: str, in_full: str) -> None:
    """Not "There are 23 days until Christmas." from December 7."""
    messages = talk(asked, "Sorry, I can't check today's date from here. Tell me the date, and I'll count the days.", told)
    noted = add_first((*said_notes(messages), *ANY_REPLY), messages)[-1]["content"]
    assert noted == f"{told}\n\n(Asked in full: {in_full})" and user_words(noted) == told and has_note(noted)
    assert countdown_note(talk("What's the capital of France?", "Paris.", told)) is None
    assert countdown_note(talk(asked, "Sorry, ...", "Today is Monday.")) is None  # no date to count from


@pytest.mark.parametrize("question", [
    "Do you like me?", "Do you love me?", "Are we friends?", "Will you be my friend?", "Are you my friend?",
    "Honestly, do you hate me?", "Can we be friends?",
])  # fmt: skip
def test_whether_it_likes_the_user_is_answered_warmly(question: str) -> None:
    """Not "I don't have feelings, so I don't like you."."""
    noted = add_first(ANY_REPLY, [{"role": "user", "content": question}])[-1]["content"]
    assert noted == question + LIKES_ME_NOTE.note and user_words(noted) == question


@pytest.mark.parametrize("question", ["Do you like music?", "Do you like my idea?", "Are you my friend's assistant?",
                                      "Does my friend like me?"])  # fmt: skip
def test_other_questions_are_not_taken_for_whether_it_likes_the_user(question: str) -> None:
    assert not LIKES_ME_NOTE.finds(question)


@pytest.mark.parametrize(("asked", "said", "follow", "note"), [
    ("What should I cook tonight?", "How about a stir-fry with chicken?", "I don't have any chicken.",
     'The user doesn\'t have any chicken. Asked again: "What should I cook tonight without chicken?" Name nothing with '
     "chicken."),
    ("What can I make for breakfast?", "Scrambled eggs on toast.", "I'm out of eggs.",
     'The user is out of eggs. Asked again: "What can I make for breakfast without eggs?" Name nothing with eggs.'),
    ("Recommend a dessert.", "I recommend a chocolate cake.", "I'm allergic to nuts.",
     'The user is allergic to nuts. Asked again: "Recommend a dessert without nuts." Name nothing with nuts.'),
    ("What should I cook, any ideas?", "Tacos.", "I don't have any tortillas at home, sorry.",
     'The user doesn\'t have any tortillas. Asked again: "What should I cook without tortillas?" Name nothing with tortillas.'),
    ("I'm hungry. Can you suggest something for dinner, please?", "Tacos.", "I have got no tortillas.",
     'The user has no tortillas. Asked again: "Can you suggest something for dinner without tortillas?" Name nothing with '
     "tortillas."),
    ("What should I cook?", "Pasta.", "I can't eat that.", "The user can't eat that. Suggest something else."),
    ("What should I cook?", "Pasta.", "I'm a vegan.", "The user is a vegan. Suggest something else that suits them."),
    ("What should I have for breakfast?", "Cereal.", "I ran out of milk.",
     'The user ran out of milk. Asked again: "What should I have for breakfast without milk?" Name nothing with milk.'),
    ("What should I make for dinner?", "Pasta.", "Oh, I've run out of pasta.",
     'The user has run out of pasta. Asked again: "What should I make for dinner without pasta?" Name nothing with pasta.'),
    ("What movie should I watch tonight?", "Try Alien.", "I hate horror movies.",
     'The user hates horror movies. Asked again: "What movie should I watch tonight without horror movies?" Name nothing '
     "with horror movies."),
    ("Suggest a dinner recipe.", "Spaghetti carbonara.", "I'm vegetarian.",
     "The user is vegetarian. Suggest something else that suits them."),
    ("What should I read next?", "The Great Gatsby.", "I don't like that.",
     "The user doesn't like that. Suggest something else."),
    ("I'm hungry.", "How about a sandwich?", "I don't have any bread.",
     "The user doesn't have any bread. Suggest something else. Name nothing with bread."),  # the reply's own suggestion
])  # fmt: skip
def test_what_the_user_lacks_after_a_suggestion_asks_for_another_without_it(asked: str, said: str, follow: str,
                                                                            note: str) -> None:
    """Not the same thing again ("You can make scrambled eggs ...") nor thanks alone ("I'll keep that in mind."), and
    before the note that thanks for a diet told."""
    messages = talk(asked, said, follow)
    noted = add_first((*said_notes(messages), *ANY_REPLY), messages)[-1]["content"]
    assert noted == f"{follow}\n\n({note})" and user_words(noted) == follow and has_note(noted)


@pytest.mark.parametrize(("asked", "said", "follow"), [
    ("What's the capital of France?", "Paris.", "I don't have any chicken."),  # no suggestion before
    ("What should I cook tonight?", "Pasta.", "I can't eat another bite."),
    ("What should I cook?", "Pasta.", "I don't have a clue."), ("Tell me a joke.", "Here's one: ...", "I don't like it."),
    ("What should I cook?", "Pasta.", "I don't have any chicken, what else?"),
    ("What should I cook?", "Pasta.", "I have no idea."),
    *(("What should I cook?", "Pasta.", said) for said in (
        "I don't have any.", "I don't have long.", "I'm out of here.", "I'm out of ideas.", "I hate you.", "I've got no idea.",
        "I hate my life.", "I don't have my wallet.", "I hate everything.")),
    ("Tell me about yourself.", "I'm a voice assistant. You can ask me anything.", "I don't have any questions."),
    ("Is coffee bad for you?", "You can have up to four cups a day.", "I don't drink coffee."),  # no suggestion made
    ("How do I bake bread?", "You can start by mixing flour, water and yeast.", "I don't have any yeast."),
    ("What should I cook?", "Pasta.", "Do I have any pasta?"), ("What should I cook?", "Pasta.", "I don't have time to think."),
])  # fmt: skip
def test_other_messages_are_not_taken_for_what_the_user_lacks(asked: str, said: str, follow: str) -> None:
    assert lacks_note(talk(asked, said, follow)) is None


@pytest.mark.parametrize(("asked", "follow", "says"), [
    ("Tell me a joke.", "Tell me another one.", "another of what you just gave"),
    ("Recommend a movie.", "Something else?", "another of what you just gave"),
    ("Name a fruit.", "Another one.", "another of what you just gave"),
    ("Tell me a joke.", "Haha, good one! One more.", "another of what you just gave"),
    ("Suggest a name for a cat.", "Can you give me a different one, please?", "another of what you just gave"),
    ("Tell me a riddle.", "I give up.", "gives up on your riddle"),
    ("Ask me a trivia question.", "I don't know, what's the answer?", "gives up on your riddle"),
    ("Can you give me a riddle?", "No idea. Tell me.", "gives up on your riddle"),
])  # fmt: skip
def test_another_or_giving_up_after_a_reply_gets_its_note(asked: str, follow: str, says: str) -> None:
    conversation = talk(asked, "The reply?", follow)
    note = more_note(conversation)
    assert note is not None and says in note.says
    noted = note.add(conversation)[-1]["content"]
    assert user_words(noted) == follow and has_note(noted)


@pytest.mark.parametrize(("asked", "follow"), [
    ("How are you?", "I don't know."),  # no riddle asked for
    ("What is the capital of France?", "Another question: what is 2+2?"),
    ("Tell me a joke.", "Tell me another joke about cats and dogs and why they fight."),  # more than "another"
    ("Tell me a riddle.", "I don't know why, but I love riddles."),
    ("I guess I should learn Spanish.", "I don't know."), ("Can you help me study for my quiz?", "I don't know."),
])  # fmt: skip
def test_other_messages_get_no_note_for_another_or_giving_up(asked: str, follow: str) -> None:
    assert more_note(talk(asked, "The reply?", follow)) is None
    assert more_note(talk("Another one.")) is None  # nothing said before


@pytest.mark.parametrize(("asked", "said", "follow", "means"), [
    ("What's the largest planet?", "Jupiter is the largest planet in our solar system.", "How far is it from the sun?",
     'By "it" the user means Jupiter.'),
    ("What is the closest star to Earth?", "The closest star to Earth is the Sun.", "How hot is it?",
     'By "it" the user means the Sun.'),
    ("What is the capital of Japan?", "The capital of Japan is Tokyo.", "How many people live there?",
     'By "there" the user means Tokyo.'),
    ("Which planet is known as the red planet?", "Mars is known as the Red Planet.", "How long is a day on it?",
     'By "it" the user means Mars.'),
    ("so what's the biggest country", "Russia is the biggest country in the world.", "What's its capital?",
     'By "its" the user means Russia.'),
])  # fmt: skip
def test_a_question_about_what_the_last_answer_named_says_what_it_points_at(asked, said, follow, means) -> None:
    conversation = talk(asked, said, follow)
    note = pointing_note(conversation)
    assert note is not None and note.says == means
    noted = note.add(conversation)[-1]["content"]
    assert user_words(noted) == follow and has_note(noted)


@pytest.mark.parametrize(("asked", "said", "follow"), [
    ("What is the capital of Japan?", "The capital of Japan is Tokyo.", "What time is it?"),  # "it" points at nothing
    ("What is the capital of Japan?", "The capital of Japan is Tokyo.", "Is it raining?"),
    ("What is the capital of Japan?", "The capital of Japan is Tokyo.", "Is it true?"),
    ("What is the capital of Japan?", "The capital of Japan is Tokyo.", "I love it."),  # no question
    ("What is the capital of Japan?", "The capital of Japan is Tokyo.", "Is Tokyo big? I heard it is."),  # named already
    ("Who invented the telephone?", "Alexander Graham Bell invented the telephone.", "When did he do it?"),  # a person
    ("What do you think of Paris?", "You must see the Eiffel Tower.", "Is it expensive?"),  # no thing asked for
    ("What's the weather like?", "I can't check the weather from here.", "Is it cold?"),  # no name in the answer
    ("What is the capital of France?", "Paris.",
     "Can you tell me how many people live in it and what it is famous for and when it was founded?"),  # too long
    ("What is the capital of France?", "Paris is the capital.", "Are you there?"),  # "there" and "it" that point at nothing
    ("What is the capital of France?", "Paris is the capital.", "Is anybody there?"),
    ("What is the capital of France?", "Paris is the capital.", "Is it better to rent or buy?"),
    ("What is the capital of France?", "Paris is the capital.", "What's it called when you can't sleep?"),
    ("What is the capital of France?", "Paris is the capital.", "Can you say that again, I missed it?"),
])  # fmt: skip
def test_other_questions_get_nothing_pointed_at(asked: str, said: str, follow: str) -> None:
    assert pointing_note(talk(asked, said, follow)) is None
    assert pointing_note(talk("How far is it?")) is None


async def test_a_follow_up_asked_in_full_gets_its_conversion_figure(tmp_path) -> None:
    """The unit conversion's figure (``conversion_hints``) reads the question in full; the conversation keeps the user's
    own words."""
    from realtime_fakes import make_rig

    rig = await make_rig(tmp_path)
    try:
        await last_message_of_reply(rig, "How many centimetres in an inch?")
        noted = await last_message_of_reply(rig, "And in a foot?")
        in_full = '(Asked in full: "How many centimetres in a foot?" Worked out: a foot = 30.48 centimetres.)'
        assert noted == f"And in a foot?\n\n{in_full}"
        assert user_words(noted) == "And in a foot?"
        assert [m["content"] for m in rig.session.conversation.context() if m["role"] == "user"][-1] == "And in a foot?"
    finally:
        await rig.close()


def test_no_reply_to_say_again_is_no_note() -> None:
    assert repeat_note([{"role": "user", "content": "Pardon?"}]) is None
    assert repeat_note([SAID[0], {"role": "assistant", "content": None}, {"role": "user", "content": "Pardon?"}]) is None


@pytest.mark.parametrize("news", [
    "I have a meeting with Doctor Patel tomorrow.", "I have a job interview tomorrow.", "My daughter starts school tomorrow.",
    "Tomorrow is my birthday.", "We're having a barbecue on Sunday.", "I've got a dentist appointment at ten.",
    "My flight leaves at six tomorrow morning.", "Tonight I'm cooking dinner for my parents.",
    "Guess what, I'm getting married next month!", "We have guests coming over tonight.",
    "I'm moving to Boston.", "I'm planning a trip to Italy.", "We're going on a holiday to Spain.",  # a move or a trip
])  # fmt: skip
def test_the_users_news_is_known(news: str) -> None:
    assert NEWS_NOTE.finds(news)


@pytest.mark.parametrize("message", [
    "I want to know the weather tomorrow.", "I'm wondering if it will rain tomorrow.", "What do I have tomorrow?",
    "I have a meeting tomorrow, remind me at nine.", "I'm going to the gym tomorrow, what should I eat?", "I'm a nurse.",
    "Set an alarm for tomorrow at seven.", "I need to write a text telling my boss I'm sick today.", "It's raining today.",
    "I'm flying to Tokyo on Friday. Can you book a hotel?", "My name is Tomas.", "I have a question.",
    "I'm planning a trip to Italy. Plan an itinerary for me.", "I'm moving to Paris. Teach me some French phrases.",
    "I'm moving to Canada. I need some advice on packing.", "I'm planning a trip to Italy. Suggest some places.",
    "My sister is moving to Boston.", "I'm moving to the couch.", "I'm not sure about moving to London.",
    "I'm sad that I cancelled my trip to Greece.", "I'm reading a book about a trip to the moon.",
])  # fmt: skip
def test_other_messages_are_not_taken_for_news(message: str) -> None:
    assert not NEWS_NOTE.finds(message)


@pytest.mark.parametrize("said", [
    "I'm allergic to peanuts.", "I'm lactose intolerant.", "I have diabetes.", "I'm vegan.", "I have asthma.",
    "I can't eat gluten.", "I'm pregnant!", "I have a bad knee.", "I have a peanut allergy.", "I have type 2 diabetes.",
    "By the way, I am severely allergic to shellfish.", "I don't eat meat.",
])  # fmt: skip
def test_the_users_health_or_diet_is_thanked_and_kept_in_mind(said: str) -> None:
    noted = add_first(ANY_REPLY, [{"role": "user", "content": said}])[-1]["content"]  # "I'm sorry, but I can't assist with that."
    assert noted == said + CONDITION_NOTE.note and user_words(noted) == said


@pytest.mark.parametrize("message", [
    "I have a cold.", "I'm allergic to peanuts, what can I eat?", "I'm vegan, suggest a dinner.", "I'm a teacher.",
    "I have two cats.", "Am I allergic to peanuts?", "My son is allergic to eggs and I have a question.",
    "I don't have time.", "I can't eat another bite.", "I can not drink and drive.", "I don't have a clue.",
])  # fmt: skip
def test_other_messages_are_not_taken_for_the_users_health(message: str) -> None:
    assert not CONDITION_NOTE.finds(message)


SAFE = 'Begin with "Well," and say whether it is safe for them, thinking of what is in it.'
SUITS = "Suggest something that suits them."
FITS = 'Begin with "Well," and say whether it fits their diet, thinking of what is in it.'


@pytest.mark.parametrize(("told", "asked", "note"), [
    ("I'm allergic to peanuts.", "Can I eat a Snickers bar?", f"The user is allergic to peanuts. {SAFE}"),
    ("I'm lactose intolerant.", "Is cheese okay for me?", f"The user is lactose intolerant. {SAFE}"),
    ("I have type 2 diabetes.", "Should I have a slice of cake?", f"The user has type 2 diabetes. {SAFE}"),
    ("I don't eat meat.", "Can I have a chicken sandwich?", f"The user doesn't eat meat. {FITS}"),
    ("I'm allergic to shellfish.", "Can I order the shrimp pasta?", f"The user is allergic to shellfish. {SAFE}"),
    ("I can't eat gluten!", "What can I order at an Italian restaurant?", f"The user can't eat gluten. {SUITS}"),
    ("I'm pregnant!", "Is sushi safe to eat?", f"The user is pregnant. {SAFE}"),
    ("By the way, I am severely allergic to shellfish.", "So can I eat the shrimp pasta?",
     f"The user is severely allergic to shellfish. {SAFE}"),
    ("I don't eat meat.", "What should I make for dinner?", f"The user doesn't eat meat. {SUITS}"),
])  # fmt: skip
def test_what_the_user_told_of_their_health_is_brought_to_a_question_of_what_they_may_eat(told: str, asked: str,
                                                                                          note: str) -> None:
    messages = [{"role": "user", "content": told}, {"role": "assistant", "content": "Thank you, I'll keep it in mind."},
                {"role": "user", "content": "What is the capital of France?"}, {"role": "assistant", "content": "Paris."},
                {"role": "user", "content": asked}]  # fmt: skip
    # quoted, "I'm allergic to peanuts." was the model's own: "I can't eat a Snickers bar because I'm allergic to peanuts."
    noted = add_first(said_notes(SUGGEST_NOTE.add(messages)), messages)[-1]["content"]
    assert noted.endswith(f"\n\n({note})") and user_words(noted) == asked and has_note(noted)


@pytest.mark.parametrize(("told", "asked"), [
    ("I'm a teacher.", "Can I eat a Snickers bar?"), ("I'm allergic to peanuts.", "What is the capital of France?"),
    ("I'm allergic to peanuts.", "Can I ask you something?"), ("I have a cold.", "Can I eat ice cream?"),
    ("I have dyslexia.", "Can I eat fish?"), ("I have a bad knee.", "Can I have a beer?"),  # nothing to do with food
    ("I'm vegan.", "Can I eat honey?"), ("I'm vegetarian.", "Can I eat cheese?"),  # a diet the model knows better alone
    *(("I'm allergic to peanuts.", asked) for asked in (
        "Can I have a hug?", "Can I have your name?", "Can I have a minute?", "Can I use your phone?", "Can I try again?",
        "Can I order a taxi?", "Could I have the weather for tomorrow?", "Can we have a conversation?",
        "Is it good for me to exercise?", "Should I have told my boss?", "What should I have done differently?")),
])  # fmt: skip
def test_no_health_told_or_no_question_of_eating_brings_nothing(told: str, asked: str) -> None:
    messages = [{"role": "user", "content": told}, {"role": "assistant", "content": "Okay."}, {"role": "user", "content": asked}]
    assert condition_note(messages) is None

REQUESTS = {
    EMERGENCY_NOTE: ["Can you call an ambulance?", "Call the police!", "I need an ambulance.", "Please call 911."],
    MESSAGE_NOTE: ["Text my sister that I'll be home soon.", "Call my mum.", "Send an email to my boss saying I'll be late.",
                   "Message Alex that I'm running late.", "Send a text to Dad saying happy birthday.", "Email Sarah the notes.",
                   "Can you text John and tell him I'm on my way?", "I need you to send a WhatsApp to the group.",
                   "Let my wife know I'll be late.", "Help me send an email to Tom.", "Help me call my mum."],
    REMINDER_NOTE: ["Remind me to take my pills at nine.", "Wake me up at seven tomorrow.", "Set an alarm for six thirty.",
                    "Can you set a reminder for my mum's birthday?", "Start a timer for five minutes.",
                    "Please remind me to water the plants tomorrow.", "Set my alarm for 5 am.", "OK, wake me in an hour.",
                    "Help me set an alarm for 7."],
    CALENDAR_NOTE: ["Put a dentist appointment in my calendar for Friday.", "Schedule a meeting with Tom for Monday.",
                    "Add a meeting to my calendar at 3pm.", "Cancel my 3 o'clock meeting.",
                    "Create an event called team lunch on Thursday."],
    MEMO_NOTE: ["Make a note that I need to call the bank.", "Add eggs to my shopping list.", "Note down my shoe size: 42.",
                "Save this: my parking spot is level 3.", "Write down that I owe Sam ten pounds.", "Remember to buy batteries.",
                "Can you add bread to my list?", "Can you jot down my flight number, BA 117?"],
    NEWS_LOOKUP_NOTE: ["What are today's top headlines?", "What's the latest news?", "What's in the news today?",
                       "Any news today?", "Tell me the news.", "Read me the headlines.", "Can you tell me the news?",
                       "Is there any news about the election?"],
    MUSIC_NOTE: ["Play some relaxing music.", "Play my workout playlist.", "Put on some classical music.", "Play me a song.",
                 "Start playing my favourite podcast.", "Help me play some jazz."],
    HOME_NOTE: ["Turn on the living room lights.", "Lock the front door.", "Put the kettle on.", "Turn the volume up.",
                "Could you turn off the TV?", "Close the garage door.", "Set the thermostat to 21 degrees."],
    PURCHASE_NOTE: ["Order me a pizza.", "Can you order me a taxi?", "Buy me a new phone charger.", "Pay my electricity bill.",
                    "Book me a haircut for Saturday.", "Can you book a table for four tonight?", "Get me a coffee.",
                    "Help me order a pizza.", "Can you help me book a table for two?"],
}  # fmt: skip


@pytest.mark.parametrize(("note", "request_"), [(note, request) for note, requests in REQUESTS.items() for request in requests])
def test_a_request_a_reply_without_tools_cannot_meet_gets_its_answer(note, request_: str) -> None:
    """The first of the notes that finds it is its own: one answer, the one that fits (an ambulance is no message)."""
    asked = [{"role": "user", "content": request_}]
    assert add_first(WITHOUT_TOOLS, asked)[-1]["content"] == request_ + note.note


@pytest.mark.parametrize("message", [
    "How do I set an alarm on my phone?", "What should I add to my shopping list for a barbecue?", "Call me Max.",
    "Can you help me write a text to my sister?", "Remind me what my name is.", "What do you call a baby kangaroo?",
    "That reminds me, what's the capital of Peru?", "Can you remember my name?", "I need to call my mum later.",
    "How do I send an email?", "Write a short message to thank my teacher.", "What's a good way to remember names?",
    "Tell me what to put in a first aid kit.", "I have a meeting on my calendar tomorrow.", "Let's play a game.",
    "Save me some time: what's 12 times 12?", "Can you play twenty questions with me?", "Switch to French, please.",
    "Order these numbers from small to big: 5, 2, 9.", "Can you recommend a song?", "Should I buy a house or rent?",
    "Turn this sentence into French: I like cats.", "I'm going to buy a car.", "Get me started on a poem about the sea.",
    "What should I cook tonight?", "I play the piano.", "Yes, email is fine.", "Sure, call it a day.",
    "Who played the music in Star Wars?", "Book recommendations?",
    "Let me know a good recipe.", "Can you help me set up a meeting agenda?", "Help me buy a gift for my wife.",
    "Help me pay my bills.", "Help me choose a song for the wedding.", "Help me find a good book.",
    "Can you help me turn off my iPhone?", "Help me turn down a job offer politely.", "Help me save my marriage.",
    "Help me write down my goals for the year.", "Could you help me lock my phone?", "I have good news!",
    "Did you hear the news? I got the job!", "What's the news about your update?", "The news made me sad.",
    "What do you think about the news?", "What is fake news?", "Tell me some good news.",
])  # fmt: skip
def test_other_messages_get_no_note_of_a_reply_without_tools(message: str) -> None:
    asked = [{"role": "user", "content": message}]
    assert add_first(WITHOUT_TOOLS, asked) == asked


def test_one_note_of_a_reply_without_tools_and_only_once() -> None:
    asked = [{"role": "user", "content": "What time is it? And remind me to call Anna."}]
    noted = add_first(WITHOUT_TOOLS, asked)
    assert noted[-1]["content"].endswith(CLOCK_NOTE.note) and REMINDER_NOTE.note not in noted[-1]["content"]
    assert add_first(WITHOUT_TOOLS, noted) == noted  # a reply written again without tools keeps its one note
    assert user_words(noted[-1]["content"]) == asked[-1]["content"]
    both = add_first(WITHOUT_TOOLS, PERSON_NOTE.add([{"role": "user", "content": "Are you a robot? Play some jazz."}]))
    assert user_words(both[-1]["content"]) == "Are you a robot? Play some jazz."


def test_a_request_only_a_tool_meets_comes_before_one_to_write_and_news() -> None:
    asked = [{"role": "user", "content": "Write a poem, and add it to my notes."}]
    noted = add_first((*WITHOUT_TOOLS, WRITE_NOTE), asked)
    assert noted[-1]["content"].endswith(MEMO_NOTE.note) and WRITE_NOTE.note not in noted[-1]["content"]
    reminded = add_first((*WITHOUT_TOOLS, NEWS_NOTE), [{"role": "user", "content": "I'm off tomorrow. Wake me at ten."}])
    assert reminded[-1]["content"].endswith(REMINDER_NOTE.note) and NEWS_NOTE.note not in reminded[-1]["content"]
    news = add_first((*WITHOUT_TOOLS, WRITE_NOTE, NEWS_NOTE), [{"role": "user", "content": "I'm off tomorrow."}])
    assert news[-1]["content"].endswith(NEWS_NOTE.note) and user_words(news[-1]["content"]) == "I'm off tomorrow."
    written = add_first((*WITHOUT_TOOLS, WRITE_NOTE), [{"role": "user", "content": "Write a poem about the sea."}])
    assert written[-1]["content"].endswith(WRITE_NOTE.note)
    assert user_words(written[-1]["content"]) == "Write a poem about the sea."


async def last_message_of_reply(rig, text: str, create: dict | None = None) -> str:  # type: ignore[no-untyped-def]
    """The last message of the prompt the rig's fake engine was given for a reply to the user's ``text``."""
    count = len(rig.engine.requests)
    content = [{"type": "input_text", "text": text}]
    await rig.send({"type": "conversation.item.create", "item": {"type": "message", "role": "user", "content": content}})
    await rig.send(create or {"type": "response.create"})
    await rig.outbox.wait_for("response.done", count=count + 1)
    return rig.engine.requests[-1]["messages"][-1]["content"]


async def test_a_request_to_speak_slower_is_kept_by_the_reply_that_says_so_and_those_after(tmp_path) -> None:
    """The speed moves a step a request, down to the slowest a request may ask for, where the answer says so; the
    client hears of each change in ``session.updated``; a voice of one rate gets the answer that it cannot."""
    from realtime_fakes import make_rig
    from sdk_conformance import sdk_rejections

    rig = await make_rig(tmp_path)
    try:
        async def reply_to(text: str) -> str:
            return await last_message_of_reply(rig, text)

        speeds = []
        for _ in range(5):
            note = SLOWER_NOTE.note if rig.session.config.speed > 0.5 else SLOWEST_NOTE.note
            assert note in await reply_to("Can you speak slower?")
            speeds.append((rig.session.config.speed, rig.speech.speeds[-1]))
        assert speeds == [(0.8, 0.8), (0.65, 0.65), (0.5, 0.5), (0.5, 0.5), (0.5, 0.5)]
        updated = [e["session"]["audio"]["output"]["speed"] for e in rig.outbox.of("session.updated")]
        assert updated == [0.8, 0.65, 0.5]  # none where nothing changed
        assert await reply_to("What is the capital of France?") == "What is the capital of France?"
        assert rig.speech.speeds[-1] == 0.5  # the replies after keep it
        assert "Say it again, word for word" in await reply_to("Say that again, slower.")  # at the slowest: said again
        assert rig.session.config.speed == 0.5
        for _ in range(5):
            await reply_to("Speak faster, please.")
        assert rig.session.config.speed == 1.5 and FASTEST_NOTE.note in await reply_to("Talk faster.")
        assert "again, more slowly" in await reply_to("Could you say that slower?")  # the last reply again, a step slower
        assert rig.session.config.speed == 1.25 and rig.speech.speeds[-1] == 1.25
        assert "again, faster" in await reply_to("Say it faster.")  # and a step faster ("Say it faster." after a twister)
        assert rig.session.config.speed == 1.5 and rig.speech.speeds[-1] == 1.5
        assert "again, faster" in await reply_to("Say it faster.")  # at the fastest: said again
        assert rig.session.config.speed == 1.5
        assert sdk_rejections(rig.outbox.events) == []
        rig.speech.changes_speed = False  # a Coqui model without a duration predictor
        assert ONE_RATE_NOTE.note in await reply_to("Can you speak slower?") and rig.session.config.speed == 1.5
        assert "again, more slowly" in await reply_to("Could you say that slower?")  # said again, at its one rate
        assert rig.session.config.speed == 1.5 and len(rig.outbox.of("session.updated")) == len(updated) + 7  # none at one rate
        rig.speech.changes_speed = True
        await rig.send({"type": "session.update", "session": {"audio": {"output": {"speed": 0.25}}}})  # a client's
        assert SLOWEST_NOTE.note in await reply_to("Can you speak slower?") and rig.session.config.speed == 0.25
        await reply_to("Speak faster.")
        assert rig.session.config.speed == 0.5  # the slowest step a request asks for, and on from there
    finally:
        await rig.close()


async def test_a_reply_on_the_servers_prompt_gets_the_notes_and_one_on_the_clients_does_not(tmp_path) -> None:
    """The session's wiring, on the realtime rig's fake engine: the last message of each reply the engine was asked
    for, and the conversation, which keeps the user's own words."""
    from realtime_fakes import make_rig

    rig = await make_rig(tmp_path)
    try:

        plain = {"type": "response.create"}
        hinted = await last_message_of_reply(rig, "Are you human?", plain)
        assert hinted.startswith("Are you human?") and "not a person" in hinted
        assert await last_message_of_reply(rig, "Tell me about Peru.", plain) == "Tell me about Peru."
        own = {"type": "response.create", "response": {"instructions": "Say yes."}}
        assert await last_message_of_reply(rig, "Are you human?", own) == "Are you human?"  # a task of the client's
        assert all("not a person" not in str(m["content"]) for m in rig.session.conversation.context())
        assert CLOCK_NOTE.note in await last_message_of_reply(rig, "Is it the weekend?", plain)
        with_tools = {"type": "response.create", "response": {"tools": [CLOCK]}}
        assert MEMO_NOTE.note in await last_message_of_reply(rig, "Add milk to my shopping list.", plain)
        assert SUGGEST_NOTE.note in await last_message_of_reply(rig, "What should I watch on TV tonight?", plain)
        assert WRITE_NOTE.note in await last_message_of_reply(rig, "Help me write a birthday message for my mom.", plain)
        assert NEWS_NOTE.note in await last_message_of_reply(rig, "I have a job interview tomorrow.", plain)
        assert STORY_NOTE.note in await last_message_of_reply(rig, "Tell me a ghost story.", plain)
        assert "(Answer: \"I'm sorry to hear that. Cool the burn" in await last_message_of_reply(rig, "I burnt my hand.", plain)
        urgent = "What should I do? My dad collapsed."  # what to do now, with no suggestion asked for beside it
        assert await last_message_of_reply(rig, urgent, plain) == urgent + URGENT_NOTE.note
        assert LIKES_NOTE.note in await last_message_of_reply(rig, "What's your favourite colour?", plain)
        await last_message_of_reply(rig, "What is the capital of France?", plain)  # the fake engine's "Paris is the ..."
        pointed = await last_message_of_reply(rig, "How many people live there?", plain)
        assert pointed == 'How many people live there?\n\n(By "there" the user means Paris.)'
        await last_message_of_reply(rig, "What is the capital of France?", plain)
        assert await last_message_of_reply(rig, "How cold are the winters there?", plain) == (  # no "By "there" ..."
            "How cold are the winters there?" + CLIMATE_NOTE.note)
        assert YES_NO_NOTE.note in await last_message_of_reply(rig, "Is Sydney the capital of Australia?", plain)
        assert "(Answer: \"No, a bat is a mammal" in await last_message_of_reply(rig, "Is a bat a bird?", plain)
        assert YES_NO_NOTE.note not in await last_message_of_reply(rig, "Is it going to rain tomorrow?", plain)
        assert WORLD_NOTE.note in await last_message_of_reply(rig, "How high is Mount Everest?", plain)
        assert CLIMATE_NOTE.note in await last_message_of_reply(rig, "What's the weather like in Paris in April?", plain)
        assert CAN_DO_NOTE.note in await last_message_of_reply(rig, "What can you do?", plain)
        assert await last_message_of_reply(rig, "What can you do?", with_tools) == "What can you do?"  # its tools can more
        assert CAN_DO_NOTE.note in rig.session.responses.without_tools(rig.engine.requests[-1]["messages"])[-1]["content"]
        said_slower = await last_message_of_reply(rig, "Can you say it slower?", plain)  # the other note comes first
        assert "more slowly" in said_slower and 'By "it"' not in said_slower
        said_again = await last_message_of_reply(rig, "Pardon?", plain)  # the fake engine's reply, "Paris is the ..."
        assert said_again.startswith("Pardon?") and said_again.endswith('word for word: "Paris is the capital of France.")')
        rig.engine.reply = "That's lovely! Do you enjoy baking bread? Are you human?"  # words other notes would take
        await last_message_of_reply(rig, "I baked a cake.", plain)
        said_again = await last_message_of_reply(rig, "Pardon?", with_tools)
        rewritten = rig.session.responses.without_tools(rig.engine.requests[-1]["messages"])[-1]["content"]
        assert rewritten == said_again and said_again.count("\n\n(") == 1  # one note, also when written again
        assert await last_message_of_reply(rig, "Is it the weekend?", with_tools) == "Is it the weekend?"  # it may call
        tooled = rig.engine.requests[-1]["messages"]
        assert CLOCK_NOTE.note in rig.session.responses.without_tools(tooled)[-1]["content"]  # the same reply in words
        assert PERSON_NOTE.note in await last_message_of_reply(rig, "Are you human?", with_tools)
        tooled = rig.engine.requests[-1]["messages"]
        assert rig.session.responses.without_tools(tooled)[-1]["content"].count(PERSON_NOTE.note) == 1
        assert SUGGEST_NOTE.note in await last_message_of_reply(rig, "What should I read next?", with_tools)
        assert WRITE_NOTE.note in await last_message_of_reply(rig, "Can you write a haiku about rain?", with_tools)
        tooled = rig.engine.requests[-1]["messages"]
        assert rig.session.responses.without_tools(tooled)[-1]["content"].count(WRITE_NOTE.note) == 1
        assert NEWS_NOTE.note in await last_message_of_reply(rig, "We're having a barbecue on Sunday.", with_tools)
        assert SLOWER_NOTE.note in await last_message_of_reply(rig, "Can you speak slower?", with_tools)
        assert VOICE_NOTE.note in await last_message_of_reply(rig, "Can you use a British accent?", with_tools)
        await rig.send({"type": "session.update", "session": {"type": "realtime", "instructions": "You are Anna."}})
        assert await last_message_of_reply(rig, "Are you human?", plain) == "Are you human?"  # the client's character
        assert await last_message_of_reply(rig, "Is it the weekend?", plain) == "Is it the weekend?"
        assert await last_message_of_reply(rig, "What should I read next?", plain) == "What should I read next?"
        assert await last_message_of_reply(rig, "Write a poem about rain.", plain) == "Write a poem about rain."
    finally:
        await rig.close()


def _pattern_words() -> list[str]:
    """Every word the notes' patterns are written with ("hmm", "short", "answer", ...)."""
    import re

    import app.answers.notes as notes

    sources = " ".join(value.pattern for value in vars(notes).values() if isinstance(value, re.Pattern))
    return sorted(set(re.findall(r"[a-z']{2,}", sources)))


@pytest.mark.parametrize("separator", [" ", ", ", ". ", "! "])
def test_no_pattern_backtracks_without_end_on_its_own_words_said_over_and_over(separator: str) -> None:
    """A guard against exponential backtracking: each pattern word, and each short run of them, said 22 times over and
    then a word that ends no pattern; a pattern that backtracks without end takes seconds on these, doubling with each
    word more ("hmm " * 22 took 4 s in one, * 25 32 s), a linear one well under a millisecond."""
    import time

    words = _pattern_words()
    runs = [*words, *(" ".join(words[i:i + 3]) for i in range(0, len(words), 3)), "give me a short answer", "just short answer"]
    messages = [(separator.join([run] * 22) + " xq") for run in runs]
    slowest = 0.0
    for text in messages:
        started = time.perf_counter()
        conversation = [{"role": "user", "content": "How many centimetres in an inch?"}, {"role": "assistant", "content": text},
                        {"role": "user", "content": text}]  # fmt: skip
        pointing = pointing_note(conversation)
        add_first((*WITHOUT_TOOLS, *said_notes(conversation), *ANY_REPLY, SHORTER_NOTE, SUGGEST_NOTE, PERSON_NOTE,
                   *((pointing,) if pointing else ()), CLIMATE_NOTE, YES_NO_NOTE, WORLD_NOTE), conversation)  # fmt: skip
        slowest = max(slowest, time.perf_counter() - started)
    assert slowest < 0.5, slowest
