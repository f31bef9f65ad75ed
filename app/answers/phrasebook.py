"""Everyday phrases in other languages, from a phrasebook, written into the question that asks for one.

The 1.5B knows single words of other languages ("gato", "Hund") but not the phrases a traveller asks for: "How do you
say thank you in Italian?" -> "Ciao", "Translate 'see you later' into Spanish." -> "¡Adiós!", "I love you" in Italian
-> "Mi piace te", "cheers" in German -> "Glückwunsch", and "Translate please into French." it took for a request to
translate something ("Please provide the text ..."); 5 of 20 right on ten such requests (docs/benchmarks.md, "A
phrase in another language"). As a sum gets its answer (``app.answers.arithmetic``), a question that asks for one of
these phrases in one of these languages gets the phrasebook's line beside it. Languages written in another script are
given in Latin letters, as the voice can say them. A phrase or a language not here gets nothing.
"""

from __future__ import annotations

import re

from app.answers.wording import plain

LANGUAGES = ("Spanish", "French", "German", "Italian", "Portuguese", "Dutch", "Japanese", "Chinese", "Russian")
_OTHER_NAMES = {"mandarin": "Chinese", "mandarin chinese": "Chinese", "brazilian portuguese": "Portuguese"}

# the phrase in English, its other English forms, and the phrase in each language, in LANGUAGES' order
_BOOK: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (("hello", "hi"), ("hola", "bonjour", "hallo", "ciao", "olá", "hallo", "konnichiwa", "ni hao", "privet")),
    (("goodbye", "good bye", "bye"), ("adiós", "au revoir", "auf Wiedersehen", "arrivederci", "tchau", "tot ziens",
                                      "sayonara", "zai jian", "do svidaniya")),
    (("thank you", "thanks"), ("gracias", "merci", "danke", "grazie", "obrigado (obrigada, said by a woman)",
                               "dank je wel", "arigato", "xie xie", "spasibo")),
    (("thank you very much", "thank you so much", "thanks a lot", "thanks so much", "many thanks"),
     ("muchas gracias", "merci beaucoup", "vielen Dank", "grazie mille", "muito obrigado (muito obrigada, said by a woman)",
      "heel erg bedankt", "domo arigato gozaimasu", "feichang ganxie", "bolshoye spasibo")),
    (("please",), ("por favor", "s'il vous plaît", "bitte", "per favore", "por favor", "alsjeblieft", "onegaishimasu",
                   "qing", "pozhaluysta")),
    (("yes",), ("sí", "oui", "ja", "sì", "sim", "ja", "hai", "shi de", "da")),
    (("no",), ("no", "non", "nein", "no", "não", "nee", "iie", "bu shi", "net")),
    (("good morning",), ("buenos días", "bonjour", "guten Morgen", "buongiorno", "bom dia", "goedemorgen", "ohayo gozaimasu",
                         "zao shang hao", "dobroye utro")),
    (("good afternoon",), ("buenas tardes", "bonjour", "guten Tag", "buon pomeriggio", "boa tarde", "goedemiddag",
                           "konnichiwa", "xia wu hao", "dobryy den")),
    (("good evening",), ("buenas noches", "bonsoir", "guten Abend", "buonasera", "boa noite", "goedenavond", "konbanwa",
                         "wan shang hao", "dobryy vecher")),
    (("good night", "goodnight"), ("buenas noches", "bonne nuit", "gute Nacht", "buonanotte", "boa noite", "welterusten",
                                   "oyasuminasai", "wan an", "spokoynoy nochi")),
    (("see you later",), ("hasta luego", "à plus tard", "bis später", "a più tardi", "até logo", "tot later", "mata ne",
                          "hui tou jian", "do vstrechi")),
    (("excuse me",), ("disculpe", "excusez-moi", "Entschuldigung", "mi scusi", "com licença", "pardon", "sumimasen",
                      "qing wen", "izvinite")),
    (("sorry", "i'm sorry", "i am sorry"), ("lo siento", "désolé", "es tut mir leid", "mi dispiace", "desculpe",
                                            "het spijt me", "gomen nasai", "dui bu qi", "prostite")),
    (("you're welcome", "you are welcome"), ("de nada", "de rien", "gern geschehen", "prego", "de nada", "graag gedaan",
                                             "do itashimashite", "bu ke qi", "pozhaluysta")),
    (("how are you",), ("¿cómo estás?", "comment ça va ?", "wie geht es dir?", "come stai?", "como vai?", "hoe gaat het?",
                        "o-genki desu ka?", "ni hao ma?", "kak dela?")),
    (("i love you",), ("te quiero", "je t'aime", "ich liebe dich", "ti amo", "eu te amo", "ik hou van jou", "aishiteru",
                       "wo ai ni", "ya tebya lyublyu")),
    (("cheers",), ("salud", "santé", "prost", "cin cin", "saúde", "proost", "kanpai", "gan bei", "za zdorovye")),
    (("happy birthday",), ("feliz cumpleaños", "joyeux anniversaire", "alles Gute zum Geburtstag", "buon compleanno",
                           "feliz aniversário", "gefeliciteerd met je verjaardag", "otanjobi omedeto", "sheng ri kuai le",
                           "s dnyom rozhdeniya")),
    (("good luck",), ("buena suerte", "bonne chance", "viel Glück", "buona fortuna", "boa sorte", "veel succes", "ganbatte",
                      "zhu ni hao yun", "udachi")),
    (("welcome",), ("bienvenido", "bienvenue", "willkommen", "benvenuto", "bem-vindo", "welkom", "yokoso", "huan ying",
                    "dobro pozhalovat")),
    (("nice to meet you", "pleased to meet you"), ("mucho gusto", "enchanté", "freut mich", "piacere", "muito prazer",
                                                   "leuk je te ontmoeten", "hajimemashite", "hen gao xing ren shi ni",
                                                   "ochen priyatno")),
    (("where is the bathroom", "where's the bathroom", "where is the toilet", "where's the toilet", "where is the restroom",
      "where are the toilets"),
     ("¿dónde está el baño?", "où sont les toilettes ?", "wo ist die Toilette?", "dov'è il bagno?", "onde fica o banheiro?",
      "waar is het toilet?", "toire wa doko desu ka?", "xi shou jian zai na li?", "gde tualet?")),
    (("i don't understand", "i do not understand"), ("no entiendo", "je ne comprends pas", "ich verstehe nicht",
                                                     "non capisco", "não entendo", "ik begrijp het niet", "wakarimasen",
                                                     "wo bu dong", "ya ne ponimayu")),
    (("what's your name", "what is your name"), ("¿cómo te llamas?", "comment tu t'appelles ?", "wie heißt du?",
                                                 "come ti chiami?", "como você se chama?", "hoe heet je?",
                                                 "o-namae wa nan desu ka?", "ni jiao shen me ming zi?", "kak tebya zovut?")),
    (("merry christmas",), ("feliz Navidad", "joyeux Noël", "frohe Weihnachten", "buon Natale", "feliz Natal",
                            "vrolijk kerstfeest", "meri kurisumasu", "sheng dan kuai le", "s Rozhdestvom")),
    (("happy new year",), ("feliz año nuevo", "bonne année", "frohes neues Jahr", "buon anno", "feliz Ano Novo",
                           "gelukkig nieuwjaar", "akemashite omedeto", "xin nian kuai le", "s Novym godom")),
    (("enjoy your meal", "bon appetit", "bon appétit"), ("buen provecho", "bon appétit", "guten Appetit", "buon appetito",
                                                         "bom apetite", "eet smakelijk", "itadakimasu", "man man chi",
                                                         "priyatnogo appetita")),
    (("congratulations",), ("felicidades", "félicitations", "herzlichen Glückwunsch", "congratulazioni", "parabéns",
                            "gefeliciteerd", "omedeto", "gong xi", "pozdravlyayu")),
)
PHRASES = {english: dict(zip(LANGUAGES, said, strict=True)) for forms, said in _BOOK for english in forms}
# the numbers from zero to ten, for a count in another language (``app.answers.sequences``)
NUMBERS = {language: tuple(said.split()) for language, said in zip(LANGUAGES, (
    "cero uno dos tres cuatro cinco seis siete ocho nueve diez",
    "zéro un deux trois quatre cinq six sept huit neuf dix",
    "null eins zwei drei vier fünf sechs sieben acht neun zehn",
    "zero uno due tre quattro cinque sei sette otto nove dieci",
    "zero um dois três quatro cinco seis sete oito nove dez",
    "nul een twee drie vier vijf zes zeven acht negen tien",
    "zero ichi ni san shi go roku shichi hachi kyu ju",
    "ling yi er san si wu liu qi ba jiu shi",
    "nol odin dva tri chetyre pyat shest sem vosem devyat desyat",
), strict=True)}  # fmt: skip
LANGUAGE_NAMES = "|".join([*LANGUAGES, *(name.title() for name in _OTHER_NAMES)])

_LANGUAGE = rf"(?P<language>{LANGUAGE_NAMES})"
_OPEN, _CLOSE = "\"'“‘", "\"'”’"
_PHRASE = rf"(?:the (?:word|phrase|expression) )?(?P<open>[{_OPEN}])?(?P<phrase>[a-z' ]{{1,40}}?)[?!.,]?(?(open)[{_CLOSE}])"
_ASKS = (
    re.compile(rf"\bhow (?:do|would|can|could|should) (?:you|i|we|u|one) (?:say|write) {_PHRASE} in {_LANGUAGE}\b", re.I),
    re.compile(rf"\btranslate {_PHRASE} (?:in|into|to) {_LANGUAGE}\b", re.I),
    re.compile(rf"\bwhat(?:'s| is| does) {_PHRASE} (?:in|mean in) {_LANGUAGE}\b", re.I),
    re.compile(rf"\bwhat(?:'s| is) (?:the )?{_LANGUAGE} (?:word |phrase |expression )?for {_PHRASE}(?=[?.!]|$)", re.I),
    re.compile(rf"^(?:(?:can|could) you |please )?(?:say|tell me) {_PHRASE} in {_LANGUAGE}\b", re.I),
)
_LONGEST = 160  # characters: such a question is short


def phrase_in(text: str) -> str | None:
    """The phrasebook's line for the everyday phrase ``text`` asks for in another language ('The user asks how to say
    "thank you" in Italian. Phrasebook: "grazie".'), else None."""
    if len(text) > _LONGEST:
        return None
    text = plain(text)
    for asks in _ASKS:
        if found := asks.search(text):
            said = found["phrase"].strip(" '")
            language = language_named(found["language"])
            if (phrases := PHRASES.get(said.lower())) is not None:
                return f'The user asks how to say "{said}" in {language}. Phrasebook: "{phrases[language]}".'
    return None


def language_named(name: str) -> str:
    """The language of ``LANGUAGES`` that ``name`` (one of ``LANGUAGE_NAMES``, in any case) names."""
    return _OTHER_NAMES.get(name.lower(), name.capitalize())
