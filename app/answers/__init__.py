"""What the server works out or looks up beside a user's words, so that the model's reply repeats a right answer.

A small model guesses sums, dates, ages, unit conversions, rhymes and spellings, and a person hears the guess. Before
a reply is asked for, the realtime layer (``app/web/realtime/responses.py``) adds to the newest user message of the
reply's prompt what these modules find: a word's letters (``spelling``, setting ``spelling_hints``), the figure a
question asks for (``conversions.figure``: units, sums, days and times, money, counts, ages and years, rhymes, Roman
numerals, a phrase in another language, the time in another city; ``conversion_hints``), and notes for requests the
model answers wrongly by habit (``notes``; ``answer_hints``). The conversation keeps the user's own words; where the
engine needs them back (the end-of-turn probe) ``notes.user_words`` strips what was added.
"""
