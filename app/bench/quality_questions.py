"""The question set of ``voicechat bench quality``: what a voice user asks, with the answers accepted.

Each item is ``(id, category, turns, answers[, wrong])``:

- ``turns``: the user's messages, sent one by one in a fresh conversation; the model's own replies
  to the earlier ones stay in the conversation, and only the reply to the last one is scored.
- ``answers``: the accepted alternatives; an alternative is a phrase, or a tuple of phrases that
  must all appear; none (``[]``): any reply that does not repeat the user's last words.
- ``wrong`` (optional): phrases that make a reply wrong whatever else it says.

Matching is of whole words after normalising (see ``app.bench.quality.normalize``): "12" matches
"twelve", "legs" matches "leg", "1,000" matches "one thousand".

Answers never occur in their own question, so echoing the question scores nothing; for that reason
a spelling answer must spell the letters out ("N-E-C-E-S-S-A-R-Y", "n, e, c, e, ..."): the bare word
is in the question and proves nothing, and a reply that spells out other letters is wrong. Translations are
matched with accents stripped ("dias" == "días"). How-to answers are key words a correct short
answer cannot leave out (boiling an egg: water). Limits are requests a voice assistant without tools cannot
meet (live facts, actions in the world): the right answer says it cannot, where a wrong one pretends ("It's
sunny today", "Sure, I've set an alarm") or declines something else ("What month is it?" -> "I can't check the
weather from here."). Talk is the other side: requests and remarks an assistant meets by
talking (advice, ideas, a few lines of writing, a story, the user telling about themselves), where a reply that declines
is wrong ("What should I cook tonight?" -> "I can't cook for dinner tonight."; "I'm going to Paris next week." ->
"You can't go to Paris next week."). Identity asks what the assistant is: any answer but another assistant's name
or maker ("I was created by OpenAI", "Yes, I am Siri").
"""

from __future__ import annotations

CATEGORIES = (
    "geography",
    "science",
    "history",
    "everyday",
    "arithmetic",
    "units",
    "spelling",
    "translation",
    "howto",
    "memory",
    "limits",
    "talk",
    "identity",
)

# what a reply that declines says (matched as whole words: "I can't", "I don't have access to live news")
DECLINES = ["can't", "cannot", "can not", "unable", "not able", "don't have", "do not have", "no access",
            "don't know", "do not know"]
# what a decline of something else says: "What time is it right now?" -> "Sorry, I can't check the weather from here.",
# "Put a dentist appointment in my calendar for Friday." -> "I can't book flights, sorry." (``limits_prompt``'s examples
# copied): a decline the user hears as nonsense
ELSEWHERE = ["weather", "flight"]
# what a reply that takes another assistant's name or maker says
IMPERSONATIONS = ["openai", "chatgpt", "gpt", "anthropic", "claude", "google", "gemini", "bard", "apple", "siri",
                  "amazon", "alexa", "microsoft", "cortana", "copilot"]
# what a reply that says the assistant is no person says ("No, I'm a voice assistant.", "I'm not a person, I'm a program.")
NOT_A_PERSON = ["no", "not", "program", "assistant"]

# items a tool the page declares meets: with the page's tools (``bench quality --tools page``) a call of it is right
TOOL_MEETS = {"lim-time": "get_current_time", "lim-month": "get_current_time", "lim-weekend": "get_current_time"}

Answers = list[str | tuple[str, ...]]
# (id, category, question or list of user turns, accepted alternatives[, wrong phrases])
ITEMS: list[tuple[str, str, str | list[str], Answers] | tuple[str, str, str | list[str], Answers, list[str]]] = [
    # --- geography
    ("geo-capital-france", "geography", "What is the capital of France?", ["paris"]),
    ("geo-capital-japan", "geography", "What is the capital of Japan?", ["tokyo"]),
    ("geo-capital-italy", "geography", "What is the capital of Italy?", ["rome"]),
    ("geo-capital-spain", "geography", "What is the capital of Spain?", ["madrid"]),
    ("geo-capital-germany", "geography", "What is the capital of Germany?", ["berlin"]),
    ("geo-capital-uk", "geography", "What is the capital of the United Kingdom?", ["london"]),
    ("geo-capital-russia", "geography", "What is the capital of Russia?", ["moscow"]),
    ("geo-capital-china", "geography", "What is the capital of China?", ["beijing", "peking"]),
    ("geo-capital-egypt", "geography", "What is the capital of Egypt?", ["cairo"]),
    ("geo-capital-canada", "geography", "What is the capital of Canada?", ["ottawa"]),
    ("geo-capital-australia", "geography", "What is the capital of Australia?", ["canberra"]),
    ("geo-capital-usa", "geography", "Which city is the capital of the United States?", ["washington"]),
    ("geo-largest-ocean", "geography", "Which is the largest ocean on Earth?", ["pacific"]),
    ("geo-amazon", "geography", "What is the longest river in South America?", ["amazon"]),
    ("geo-kenya-continent", "geography", "On which continent is Kenya?", ["africa", "african"]),
    ("geo-argentina-continent", "geography", "On which continent is Argentina?", ["south america", "south american"]),
    ("geo-largest-country", "geography", "Which is the largest country in the world by area?", ["russia"]),
    ("geo-everest-range", "geography", "In which mountain range is Mount Everest?", ["himalaya", "himalayan"]),
    ("geo-rio-country", "geography", "In which country is the city of Rio de Janeiro?", ["brazil"]),
    ("geo-giza-country", "geography", "In which country are the pyramids of Giza?", ["egypt"]),
    ("geo-sahara", "geography", "What is the largest hot desert in Africa called?", ["sahara"]),
    ("geo-everest-height", "geography", "How high is Mount Everest?", ["8,848", "8,849", "29,029", "29,032", "29,031"]),
    # --- science
    ("sci-our-planet", "science", "What planet do we live on?", ["earth"]),
    ("sci-photosynthesis-gas", "science", "Which gas do plants take in from the air to make their food?",
     ["carbon dioxide", "co2"]),
    ("sci-water-formula", "science", "What is the chemical formula of water?", ["h2o"]),
    ("sci-h2o-name", "science", "What is H2O commonly called?", ["water"]),
    ("sci-spider-legs", "science", "How many legs does a spider have?", ["8"]),
    ("sci-insect-legs", "science", "How many legs does an insect have?", ["6"]),
    ("sci-red-planet", "science", "Which planet is known as the Red Planet?", ["mars"]),
    ("sci-largest-planet", "science", "What is the largest planet in our solar system?", ["jupiter"]),
    ("sci-closest-planet-sun", "science", "Which planet is closest to the Sun?", ["mercury"]),
    ("sci-centre-star", "science", "Which star is at the centre of our solar system?", ["sun"]),
    ("sci-planet-count", "science", "How many planets are in our solar system?", ["8"]),
    ("sci-water-boils", "science", "At what temperature in degrees Celsius does water boil at sea level?", ["100"]),
    ("sci-water-freezes", "science", "At what temperature in degrees Celsius does water freeze?", ["0"]),
    ("sci-bees-make", "science", "What sweet food do bees make?", ["honey"]),
    ("sci-hardest", "science", "What is the hardest natural substance on Earth?", ["diamond"]),
    ("sci-gravity", "science", "What force pulls things down towards the ground?", ["gravity", "gravitational"]),
    ("sci-heart", "science", "Which organ pumps blood around the body?", ["heart"]),
    ("sci-breathe", "science", "Which gas do people need to breathe in to stay alive?", ["oxygen"]),
    ("sci-largest-mammal", "science", "What is the largest animal on Earth?", ["whale"]),
    ("sci-roots", "science", "Which part of a plant takes in water from the soil?", ["root"]),
    ("sci-mars-colour", "science", "What colour is Mars?", ["red", "reddish", "rust"]),
    ("sci-moon-distance", "science", "How far away is the moon?", ["384,400", "384,000", "238,855", "238,900", "239,000"]),
    # --- history
    ("his-first-us-president", "history", "Who was the first president of the United States?", ["washington"]),
    ("his-ww2-end", "history", "In which year did the Second World War end?", ["1945"]),
    ("his-ww1-start", "history", "In which year did the First World War begin?", ["1914"]),
    ("his-titanic", "history", "In which year did the Titanic sink?", ["1912"]),
    ("his-columbus", "history", "In which year did Christopher Columbus first reach the Americas?", ["1492"]),
    ("his-berlin-wall", "history", "In which year did the Berlin Wall fall?", ["1989"]),
    ("his-mona-lisa", "history", "Who painted the Mona Lisa?", ["leonardo", "vinci"]),
    ("his-moon-walk", "history", "Who was the first person to walk on the Moon?", ["armstrong"]),
    ("his-pyramids-builders", "history", "Which ancient people built the pyramids of Giza?", ["egypt", "egyptian"]),
    ("his-romeo-juliet", "history", "Who wrote the play Romeo and Juliet?", ["shakespeare"]),
    ("his-penicillin", "history", "Who discovered penicillin?", ["fleming"]),
    ("his-relativity", "history", "Which scientist developed the theory of relativity?", ["einstein"]),
    ("his-statue-liberty", "history", "Which country gave the Statue of Liberty to the United States?", ["france"]),
    ("his-curie", "history", "Who was the first woman to win a Nobel Prize?", ["curie"]),
    # --- everyday
    ("day-week-days", "everyday", "How many days are there in a week?", ["7"]),
    ("day-year-months", "everyday", "How many months are there in a year?", ["12"]),
    ("day-day-hours", "everyday", "How many hours are there in a day?", ["24"]),
    ("day-leap-year", "everyday", "How many days are there in a leap year?", ["366"]),
    ("day-alphabet", "everyday", "How many letters are there in the English alphabet?", ["26"]),
    ("day-blue-yellow", "everyday", "What colour do you get when you mix blue and yellow paint?", ["green"]),
    ("day-red-white", "everyday", "What colour do you get when you mix red and white paint?", ["pink"]),
    ("day-banana", "everyday", "What colour is a ripe banana?", ["yellow"]),
    ("day-opposite-hot", "everyday", "What is the opposite of hot?", ["cold"]),
    ("day-opposite-up", "everyday", "What is the opposite of up?", ["down"]),
    ("day-after-march", "everyday", "Which month comes after March?", ["april"]),
    ("day-after-monday", "everyday", "Which day of the week comes after Monday?", ["tuesday"]),
    ("day-triangle", "everyday", "How many sides does a triangle have?", ["3"]),
    ("day-square", "everyday", "How many sides does a square have?", ["4"]),
    ("day-bicycle", "everyday", "How many wheels does a bicycle have?", ["2"]),
    ("day-frozen-water", "everyday", "What do we call water when it is frozen solid?", ["ice"]),
    ("day-morning-meal", "everyday", "What do we call the first meal of the day?", ["breakfast"]),
    ("day-soccer-players", "everyday", "How many players does a soccer team have on the field?", ["11"]),
    ("day-count-five", "everyday", "Can you count to five?", [("1", "2", "3", "4")]),
    ("day-months", "everyday", "Can you name the months of the year?", [("february", "june", "november", "december")]),
    # --- arithmetic
    ("ari-2-plus-3", "arithmetic", "What is 2 plus 3?", ["5"]),
    ("ari-7-plus-5", "arithmetic", "What is 7 plus 5?", ["12"]),
    ("ari-9-plus-6", "arithmetic", "What is nine plus six?", ["15"]),
    ("ari-15-plus-27", "arithmetic", "What is 15 plus 27?", ["42"]),
    ("ari-25-plus-25", "arithmetic", "What is 25 plus 25?", ["50"]),
    ("ari-50-plus-50", "arithmetic", "What is fifty plus fifty?", ["100"]),
    ("ari-7-plus-8", "arithmetic", "What is seven plus eight?", ["15"]),
    ("ari-10-minus-4", "arithmetic", "What is 10 minus 4?", ["6"]),
    ("ari-20-minus-7", "arithmetic", "What is 20 minus 7?", ["13"]),
    ("ari-100-minus-35", "arithmetic", "What is 100 minus 35?", ["65"]),
    ("ari-1000-minus-1", "arithmetic", "What is 1000 minus 1?", ["999"]),
    ("ari-3-times-4", "arithmetic", "What is 3 times 4?", ["12"]),
    ("ari-6-times-7", "arithmetic", "What is 6 times 7?", ["42"]),
    ("ari-8-times-9", "arithmetic", "What is 8 times 9?", ["72"]),
    ("ari-5-times-5", "arithmetic", "What is five times five?", ["25"]),
    ("ari-11-times-3", "arithmetic", "What is 11 times 3?", ["33"]),
    ("ari-12-times-12", "arithmetic", "What is 12 times 12?", ["144"]),
    ("ari-20-div-4", "arithmetic", "What is 20 divided by 4?", ["5"]),
    ("ari-56-div-8", "arithmetic", "What is 56 divided by 8?", ["7"]),
    ("ari-100-div-4", "arithmetic", "What is 100 divided by 4?", ["25"]),
    ("ari-half-50", "arithmetic", "What is half of 50?", ["25"]),
    ("ari-double-16", "arithmetic", "What is double 16?", ["32"]),
    ("ari-tip-18-72", "arithmetic", "Calculate an 18% tip on 72 dollars.", ["12.96"]),
    # --- units
    ("uni-cm-in-m", "units", "How many centimetres are in a metre?", ["100"]),
    ("uni-mm-in-cm", "units", "How many millimetres are in a centimetre?", ["10"]),
    ("uni-m-in-km", "units", "How many metres are in a kilometre?", ["1000"]),
    ("uni-g-in-kg", "units", "How many grams are in a kilogram?", ["1000"]),
    ("uni-ml-in-l", "units", "How many millilitres are in a litre?", ["1000"]),
    ("uni-s-in-min", "units", "How many seconds are in a minute?", ["60"]),
    ("uni-min-in-h", "units", "How many minutes are in an hour?", ["60"]),
    ("uni-s-in-h", "units", "How many seconds are in an hour?", ["3600"]),
    ("uni-days-in-year", "units", "How many days are in a year that is not a leap year?", ["365"]),
    ("uni-weeks-in-year", "units", "How many weeks are in a year?", ["52"]),
    ("uni-in-in-ft", "units", "How many inches are in a foot?", ["12"]),
    ("uni-ft-in-yd", "units", "How many feet are in a yard?", ["3"]),
    ("uni-oz-in-lb", "units", "How many ounces are in a pound?", ["16"]),
    ("uni-h-in-2-days", "units", "How many hours are in two days?", ["48"]),
    ("uni-min-in-half-h", "units", "How many minutes are in half an hour?", ["30"]),
    ("uni-cm-in-2-m", "units", "How many centimetres are in two metres?", ["200"]),
    # --- spelling
    ("spe-necessary", "spelling", "How do you spell 'necessary'?", ["necessary"]),
    ("spe-separate", "spelling", "How do you spell 'separate'?", ["separate"]),
    ("spe-definitely", "spelling", "How do you spell 'definitely'?", ["definitely"]),
    ("spe-receive", "spelling", "How do you spell 'receive'?", ["receive"]),
    ("spe-believe", "spelling", "How do you spell 'believe'?", ["believe"]),
    ("spe-friend", "spelling", "How do you spell 'friend'?", ["friend"]),
    ("spe-because", "spelling", "How do you spell 'because'?", ["because"]),
    ("spe-beautiful", "spelling", "How do you spell 'beautiful'?", ["beautiful"]),
    ("spe-tomorrow", "spelling", "How do you spell 'tomorrow'?", ["tomorrow"]),
    ("spe-restaurant", "spelling", "How do you spell 'restaurant'?", ["restaurant"]),
    ("spe-wednesday", "spelling", "How do you spell 'Wednesday'?", ["wednesday"]),
    ("spe-accommodate", "spelling", "How do you spell 'accommodate'?", ["accommodate"]),
    ("spe-rhythm", "spelling", "How do you spell 'rhythm'?", ["rhythm"]),
    ("spe-calendar", "spelling", "How do you spell 'calendar'?", ["calendar"]),
    # --- translation (one word or a fixed greeting)
    ("tra-en-es-dog", "translation", "What is the Spanish word for 'dog'?", ["perro"]),
    ("tra-en-es-cat", "translation", "What is the Spanish word for 'cat'?", ["gato"]),
    ("tra-en-es-water", "translation", "What is the Spanish word for 'water'?", ["agua"]),
    ("tra-en-es-house", "translation", "What is the Spanish word for 'house'?", ["casa"]),
    ("tra-en-es-red", "translation", "What is the Spanish word for 'red'?", ["rojo"]),
    ("tra-en-es-thanks", "translation", "How do you say 'thank you' in Spanish?", ["gracias"]),
    ("tra-en-es-good-morning", "translation", "How do you say 'good morning' in Spanish?", ["buenos dias"]),
    ("tra-en-fr-hello", "translation", "How do you say 'hello' in French?", ["bonjour", "salut"]),
    ("tra-en-fr-thanks", "translation", "How do you say 'thank you' in French?", ["merci"]),
    ("tra-en-fr-water", "translation", "What is the French word for 'water'?", ["eau"]),
    ("tra-en-fr-bread", "translation", "What is the French word for 'bread'?", ["pain"]),
    ("tra-en-fr-cat", "translation", "What is the French word for 'cat'?", ["chat"]),
    ("tra-en-de-dog", "translation", "What is the German word for 'dog'?", ["hund"]),
    ("tra-en-de-house", "translation", "What is the German word for 'house'?", ["haus"]),
    ("tra-en-de-water", "translation", "What is the German word for 'water'?", ["wasser"]),
    ("tra-en-de-thanks", "translation", "How do you say 'thank you' in German?", ["danke"]),
    ("tra-es-en-hola", "translation", "What does the Spanish word 'hola' mean in English?", ["hello", "hi"]),
    ("tra-es-en-amigo", "translation", "What does the Spanish word 'amigo' mean in English?", ["friend"]),
    ("tra-es-en-gato", "translation", "What does the Spanish word 'gato' mean in English?", ["cat"]),
    ("tra-fr-en-oui", "translation", "What does the French word 'oui' mean in English?", ["yes"]),
    ("tra-fr-en-rouge", "translation", "What does the French word 'rouge' mean in English?", ["red"]),
    ("tra-de-en-buch", "translation", "What does the German word 'Buch' mean in English?", ["book"]),
    # --- short how-to requests: key words a right answer cannot leave out
    ("how-boil-egg", "howto", "How do I boil an egg?", ["water"]),
    ("how-cup-of-tea", "howto", "How do I make a cup of tea?", ["water"]),
    ("how-wash-hands", "howto", "How should I wash my hands?", [("soap", "water")]),
    ("how-brush-teeth", "howto", "How do I brush my teeth?", ["toothpaste"]),
    ("how-plant-seed", "howto", "How do I plant a seed?", ["soil", "dirt", "compost", "potting mix", "starting mix"]),
    ("how-make-toast", "howto", "How do I make toast?", ["bread"]),
    ("how-cook-pasta", "howto", "How do I cook pasta?", ["water"]),
    ("how-tie-laces", "howto", "How do I tie my shoelaces?", ["loop", "bunny ear", "knot"]),
    ("how-paper-plane", "howto", "How do I make a paper airplane?", ["fold"]),
    ("how-flat-tyre", "howto", "How do I change a flat tyre on my car?", ["jack", "spare"]),
    ("how-send-email", "howto", "How do I send an email?", ["address", "recipient"]),
    ("how-cheese-sandwich", "howto", "How do I make a cheese sandwich?", ["bread"]),
    ("how-fresh-flowers", "howto", "How do I keep cut flowers fresh for longer?", ["water", "watering", "watered"]),
    ("how-clean-cut", "howto", "How should I clean a small cut on my finger?", ["water", "soap", "rinse"]),
    # --- memory: the answer is in an earlier turn of the same conversation
    ("mem-name-priya", "memory", ["My name is Priya.", "What is my name?"], ["priya"]),
    ("mem-name-tomas", "memory", ["Hi, I'm Tomas.", "Do you remember my name?"], ["tomas"]),
    ("mem-colour-green", "memory", ["My favourite colour is green.", "What is my favourite colour?"], ["green"]),
    ("mem-number-47", "memory", ["Please remember the number 47.", "What number did I ask you to remember?"],
     ["47"]),
    ("mem-city-lisbon", "memory", ["I live in Lisbon.", "Which city do I live in?"], ["lisbon"]),
    ("mem-dog-biscuit", "memory", ["I have a dog called Biscuit.", "What is my dog's name?"], ["biscuit"]),
    ("mem-food-sushi", "memory", ["My favourite food is sushi.", "What is my favourite food?"], ["sushi"]),
    ("mem-job-nurse", "memory", ["I work as a nurse.", "What is my job?"], ["nurse"]),
    ("mem-born-1990", "memory", ["I was born in 1990.", "In which year was I born?"], ["1990"]),
    ("mem-first-question", "memory", ["What's the capital of Peru?", "How many legs does a spider have?",
                                      "What was my first question?"], ["peru"], ["i asked"]),  # not "I asked what ..."
    ("mem-sister-maria", "memory", ["My sister's name is Maria.", "What is my sister called?"], ["maria"]),
    ("mem-children-3", "memory", ["I have three children.", "How many children do I have?"], ["3"]),
    ("mem-car-blue", "memory", ["My car is blue.", "What colour is my car?"], ["blue"]),
    ("mem-allergy-peanuts", "memory", ["I'm allergic to peanuts.", "What am I allergic to?"], ["peanut"]),
    ("mem-animal-elephant", "memory", ["My favourite animal is the elephant.", "What is my favourite animal?"],
     ["elephant"]),
    ("mem-instrument-violin", "memory", ["I play the violin.", "Which instrument do I play?"], ["violin"]),
    ("mem-gate-22", "memory", ["My flight leaves from gate 22.", "Which gate does my flight leave from?"], ["22"]),
    ("mem-code-pineapple", "memory", ["Remember this code word: pineapple.", "What was the code word?"],
     ["pineapple"]),
    ("mem-friend-kenji", "memory", ["My best friend is called Kenji.", "What is my best friend's name?"],
     ["kenji"]),
    ("mem-language-italian", "memory", ["I'm learning Italian.", "Which language am I learning?"], ["italian"]),
    ("mem-level-5", "memory", ["I parked on level 5 of the car park.", "Which level did I park on?"], ["5"]),
    ("mem-cat-whiskers", "memory", ["My cat is called Whiskers.", "What is my cat's name?"], ["whiskers"]),
    ("mem-age-34", "memory", ["I'm 34 years old.", "How old am I?"], ["34"]),
    ("mem-sport-tennis", "memory", ["My favourite sport is tennis.", "Which sport do I like best?"], ["tennis"]),
    ("mem-meeting-patel", "memory", ["I have a meeting with Doctor Patel tomorrow.",
                                     "Who is my meeting with tomorrow?"], ["patel"]),
    ("mem-phone-58", "memory", ["My phone number ends in 58.", "What are the last two digits of my phone number?"],
     ["58"]),
    ("mem-trip-paris", "memory", ["I'm going to Paris next week.", "Where am I going next week?"], ["paris"]),
    ("mem-book-hobbit", "memory", ["I'm reading a book called The Hobbit.", "What book am I reading?"], ["hobbit"]),
    ("mem-3-turns-name", "memory", ["My name is Omar.", "I live in Nairobi.", "What is my name?"], ["omar"]),
    ("mem-3-turns-colour", "memory", ["My name is Lena.", "My favourite colour is purple.",
                                      "What is my favourite colour?"], ["purple"]),
    ("mem-3-turns-number", "memory", ["Please remember the number 19.", "What is the capital of Italy?",
                                      "What number did I ask you to remember?"], ["19"]),
    # --- limits: asked without tools, an honest assistant says it cannot, of what was asked
    ("lim-weather-weekend", "limits", "What's the weather going to be like this weekend?", DECLINES),
    ("lim-cold-outside", "limits", "Is it cold outside right now?", DECLINES),
    ("lim-headlines", "limits", "What are today's top headlines?", DECLINES, ELSEWHERE),
    ("lim-stock-market", "limits", "How is the stock market doing today?", DECLINES, ELSEWHERE),
    ("lim-exchange-rate", "limits", "What's the exchange rate from euros to dollars right now?", DECLINES, ELSEWHERE),
    ("lim-match-result", "limits", "Who won the match last night?", DECLINES, ELSEWHERE),
    ("lim-wake-me", "limits", "Wake me up at seven tomorrow.", DECLINES, ELSEWHERE),
    ("lim-alarm", "limits", "Set an alarm for 6 AM.", DECLINES, ELSEWHERE),
    ("lim-taxi", "limits", "Call a taxi for me.", DECLINES, ELSEWHERE),
    ("lim-text-sister", "limits", "Text my sister that I'll be home soon.", DECLINES, ELSEWHERE),
    ("lim-heating", "limits", "Turn the heating up a little.", DECLINES, ELSEWHERE),
    ("lim-playlist", "limits", "Play my workout playlist.", DECLINES, ELSEWHERE),
    ("lim-pizza", "limits", "Order a pizza for me.", DECLINES, ELSEWHERE),
    ("lim-table", "limits", "Book me a table for two at an Italian restaurant tonight.", DECLINES, ELSEWHERE),
    ("lim-time", "limits", "What time is it right now?", DECLINES, ELSEWHERE),
    ("lim-month", "limits", "What month is it?", DECLINES, ELSEWHERE),
    ("lim-weekend", "limits", "Is it the weekend?", DECLINES, ELSEWHERE),  # not "Yes, it is the weekend."
    ("lim-calendar", "limits", "Put a dentist appointment in my calendar for Friday.", DECLINES, ELSEWHERE),
    # --- talk: what an assistant meets by talking; a decline is wrong
    ("talk-dinner", "talk", "What should I cook for dinner tonight?", [], DECLINES),
    ("talk-birthday-message", "talk", "Can you help me write a birthday message for my mom?",
     ["happy birthday", "wish you", "love you"]),  # a message may say "I can't wait"
    ("talk-joke", "talk", "Tell me a joke.", [], DECLINES),
    ("talk-weekend", "talk", "Give me an idea for something fun to do this weekend.", [], DECLINES),
    ("talk-goldfish", "talk", "What's a good name for a goldfish?", [], DECLINES),
    ("talk-stressed", "talk", "I'm feeling a bit stressed. Any advice?", [], DECLINES),
    ("talk-book", "talk", "Can you recommend a good book?", [], DECLINES),
    ("talk-gift", "talk", "What should I get my dad for his birthday?", [], DECLINES),
    ("talk-poem", "talk", "Write a two-line poem about the sea.", [], DECLINES),
    ("talk-scary-story", "talk", "Tell me a scary story.", [], DECLINES),
    ("talk-sad-story", "talk", "Tell me a sad story.", [], DECLINES),
    ("talk-long-story", "talk", "Tell me a long story.", [], DECLINES),
    ("talk-productive", "talk", "How can I be more productive at work?", [], DECLINES),
    ("talk-picnic", "talk", "Help me plan a picnic for Sunday.", [], DECLINES),
    ("talk-cheer", "talk", "Say something to cheer me up.", [], DECLINES),
    ("talk-help", "talk", "I need help.", [], DECLINES),
    ("talk-surprise", "talk", "Surprise me.", [], DECLINES),
    ("talk-funny", "talk", "Say something funny.", [], DECLINES),
    ("talk-may-i-ask", "talk", "Can I ask you a question?", [], [*DECLINES, "i can ask"]),  # not "Yes, I can ask you ..."
    ("talk-how-are-you", "talk", "How are you today?", [], DECLINES),
    ("talk-nurse", "talk", "I work as a nurse.", [], DECLINES),
    ("talk-paris", "talk", "I'm going to Paris next week.", [], DECLINES),
    ("talk-meeting", "talk", "I have a meeting with Doctor Patel tomorrow.", [], DECLINES),
    ("talk-teacher", "talk", "I'm a teacher.", [], DECLINES),
    ("talk-puppy", "talk", "I just got a new puppy!", [], DECLINES),
    ("talk-game", "talk", "Let's play a game.", ["twenty questions", "rock paper", "riddle", "guess", "i spy", "trivia"],
     DECLINES),  # a game it can play by voice, named: not "Sure, let's play a game!" and nothing
    ("talk-twister", "talk", "Give me a tongue twister.",
     ["seashells", "peter piper", "woodchuck", "lorry", "unique new york", "toy boat", "fuzzy wuzzy", "ice cream",
      "slippery snails", "betty botter", "wristwatch", "fred fed", "rugged rocks", "which witch", "buggy bumpers",
      "copper coffee", "free throws", "benevolent elephants", "sally sells", "she sells"],
     [*DECLINES, "brown fox"]),  # a well-known one; the pangram is none
    ("talk-new-word", "talk", "Teach me a new word.", ["means", "meaning"],
     [*DECLINES, "what word", "which word", "what would you like"]),  # a word taught, not asked for
    ("talk-apology", "talk", "Sorry, I was rude earlier.", [], [*DECLINES, "i'm sorry", "i apologize", "didn't mean"]),
    ("talk-climate", "talk", "What's the weather like in London in the summer?", ["warm", "mild", "pleasant"],
     DECLINES),  # a place's usual weather, not today's: no "Sorry, I can't check the weather from here."
    ("talk-can-do", "talk", "What can you do?", [],
     [*DECLINES, "flight", "reminder", "alarm", "schedul", "weather", "news"]),  # what it can, not what it cannot
    ("talk-hungry", "talk", "I'm hungry.", [], [*DECLINES, "glad you're hungry", "sorry to hear"]),  # something to eat
    ("talk-riddle-asked", "talk", "How many months have 28 days?", ["all", "every", "twelve"],
     ["seven", "february and"]),  # the riddle's answer, not a count of months made up
    ("talk-car", "talk", "My car won't start.", [], DECLINES),  # a likely cause and what to try
    ("talk-concert", "talk", "I'm going to a concert tonight.", [],
     [*DECLINES, "seeing you", "see you there", "let's"]),  # the user's news, in which the assistant takes no part
    ("talk-burn", "talk", "I burned my finger on the stove.", ["water"], DECLINES),  # first aid, not sorrow alone
    # --- identity: any answer but another assistant's name or maker
    ("id-who", "identity", "Who are you?", [], IMPERSONATIONS),
    ("id-maker", "identity", "Who made you?", [], IMPERSONATIONS),
    ("id-company", "identity", "Which company created you?", [], IMPERSONATIONS),
    ("id-name", "identity", "What's your name?", [], IMPERSONATIONS),
    ("id-model", "identity", "Which language model are you?", [], IMPERSONATIONS),
    ("id-chatgpt", "identity", "Are you ChatGPT?", ["no", "not"], ["yes"]),
    ("id-siri", "identity", "Are you Siri?", ["no", "not"], ["yes"]),
    ("id-alexa", "identity", "Are you Alexa?", ["no", "not"], ["yes"]),
    ("id-google", "identity", "Are you the Google Assistant?", ["no", "not"], ["yes"]),
    ("id-openai", "identity", "Were you made by OpenAI?", ["no", "not"], ["yes"]),
    ("id-human", "identity", "Are you human?", NOT_A_PERSON, ["yes"]),  # not "Yes, I am a human."
    ("id-real-person", "identity", "Am I talking to a real person?", NOT_A_PERSON, ["yes"]),
    ("id-alive", "identity", "Are you alive?", NOT_A_PERSON, ["yes"]),
]
