"""All settings, read from ``VOICECHAT_*`` environment variables and CLI flags.

Defaults run on a 2-core CPU with the packaged models. Every model setting also accepts
an ordinary model name or path, so a bigger model is one variable away.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

LOOKUP_DRAFT = "lookup"  # llm_draft_model's name for prompt lookup: proposals from the context, no draft model


def cache_home() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")


def _data_home() -> Path:
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")


class Settings(BaseSettings):
    """One flat settings object; the README's configuration table lists every field."""

    model_config = SettingsConfigDict(env_prefix="VOICECHAT_", extra="ignore")

    # --- server ---
    host: str = Field("127.0.0.1", description="Address the server binds to.")
    port: int = Field(8000, description="Port the server listens on.")
    log_level: Literal["debug", "info", "warning", "error"] = Field("info", description="Log level.")
    log_format: Literal["text", "json"] = Field(
        "text", description="Log lines as text, or as one JSON object per line (uvicorn's lines too), for a log collector."
    )
    stall_timeout_s: float = Field(
        30.0, description="A stage (LLM, ASR, TTS) with work waiting and no progress for this long makes /readyz answer 503."
    )
    stall_exit_s: float = Field(
        120.0,
        description="A stage stalled this long stops `voicechat serve` with a message, so a supervisor restarts it (0 = never).",
    )
    data_dir: Path = Field(_data_home() / "voicechat", description="Where the SQLite history lives.")

    # --- models ---
    model_dir: Path = Field(
        cache_home() / "voicechat" / "models",
        description="Where prepared models are kept (built once from the installed packages).",
    )
    device: str = Field("auto", description="torch device: auto, cpu, cuda, cuda:1 ...")
    asr_model: str = Field(
        "auto",
        description="Whisper model: 'auto' (the packaged multilingual base on a GPU and for any language but English; "
        "for English on a CPU the packaged tiny.en, since base's slower encoder there adds to every reply's latency), "
        "'tiny.en', 'base', another openai-whisper name, or a .pt path.",
    )
    asr_language: str = Field(
        "en",
        description="Spoken language code ('auto' to detect) of every session that does not choose its own "
        "(audio.input.transcription.language); anything but English needs a multilingual model, which asr_model "
        "'auto' loads, and sessions may choose another language only with one.",
    )
    llm_model: str = Field(
        "auto",
        description="LLM: 'auto' (the best packaged model on bench quality that this machine decodes at voice speed: "
        "qwen2.5-1.5b on a GPU or a CPU reading its 4-bit weights fast enough, else a smaller one), packaged "
        "'qwen2.5-1.5b' or 'qwen2.5-0.5b' (Qwen2.5-Coder-1.5B/0.5B-Instruct) or 'smollm2-135m' "
        "(SmolLM2-135M-Instruct), or a transformers model name or folder.",
    )
    llm_dtype: Literal["auto", "float32", "bfloat16", "float16"] = Field(
        "auto",
        description="LLM compute dtype; auto = bf16 on a GPU; on a CPU fp32 where the CPU kernels run a 16-bit "
        "checkpoint (they decode faster than bf16 matmuls), else bf16 with native bf16 support, else fp32."
    )
    llm_half_weights: bool = Field(
        True,
        description="On a CPU computing in fp32, keep weights that are exact in bf16 or fp16 (a 16-bit checkpoint) in "
        "that format and multiply with the AVX2 kernel: half the memory traffic, the same products.",
    )
    llm_weight_bits: Literal["auto", "4", "8", "16"] = Field(
        "auto",
        description="Bits per LLM weight where the CPU kernels run: 'auto' packs a packaged model at the bits chosen "
        "for it on bench quality (qwen2.5-1.5b: every linear at 4 bits, its GGUF's 6-bit ones too) and any other "
        "model each linear at 4 bits where it holds there (it came from 4-bit GGUF blocks), else 8; '4' or '8' for "
        "all; '16' keeps the checkpoint's 16-bit weights. Decode streams every weight once per step, so fewer bits "
        "decode faster.",
    )
    llm_tools: Literal["auto", "on", "off"] = Field(
        "auto",
        description="Whether clients may declare tools (function calling) for the local LLM, where its chat template "
        "has a tool format: 'auto' for a model whose tool use holds up (not qwen2.5-0.5b: with the page's two tools "
        "declared it answered far fewer of bench quality's questions than without, docs/benchmarks.md, so the page "
        "asks it without them); 'on' for any; 'off' for none (a client's tools are refused with tools_unsupported).",
    )
    llm_draft_model: str = Field(
        "auto",
        description="Draft LLM for speculative decoding (same tokenizer as llm_model): 'auto' (on a GPU the packaged "
        "'qwen2.5-0.5b' under 'qwen2.5-1.5b'; on a CPU 'lookup', where a draft model made the spoken reply come later "
        "and lookup sooner: docs/benchmarks.md), 'lookup' (no draft model: the tokens that followed the last few "
        "tokens earlier in the context are proposed), 'none', or a packaged name, model name or folder.",
    )
    llm_speculative_tokens: int = Field(
        4, description="Most tokens the draft proposes per decode row and step (the engine adapts it; 0 = off)."
    )
    llm_draft_weight_bits: Literal["auto", "4", "8", "16"] = Field(
        "4",
        description="llm_weight_bits for the draft model: its proposals are only checked by the target, so the draft "
        "is kept at 4 bits by default (the packaged Qwen2.5 0.5B came mostly at 5-8 bits: its 896-wide rows do not "
        "fit GGUF's k-quant blocks), which halves what it streams per proposal.",
    )
    llm_draft_vocab: int = Field(
        32768,
        ge=0,
        description="The draft proposes only among the tokenizer's first N tokens (byte-pair merges come most frequent "
        "first) and its special tokens, so its LM head streams a fraction of the bytes; the target still verifies over "
        "the whole vocabulary (0 = the draft's whole vocabulary).",
    )
    tts_backend: Literal["piper", "coqui", "espeak"] = Field("piper", description="Speech synthesiser.")
    tts_voice: str = Field(
        "joe-medium",
        description="Piper voice: packaged 'joe-medium' or a .onnx path; Coqui: a model folder or name; "
        "espeak: an espeak-ng voice (en-us when left at joe-medium).",
    )

    # --- LLM engine ---
    llm_backend: Literal["local", "openai"] = Field(
        "local", description="'local' runs the engine in-process; 'openai' talks to a remote OpenAI-compatible server (vLLM)."
    )
    llm_api_base: str = Field("http://127.0.0.1:8001/v1", description="Base URL of the remote OpenAI-compatible server.")
    llm_api_key: str = Field("EMPTY", description="API key for the remote server.")
    kv_cache_bytes: int = Field(
        1024**3,
        description="Memory budget of the KV cache in bytes. 1 GiB holds ~46k tokens of the default model in bf16 "
        "(23k in fp32): the histories of 16 busy sessions stay cached, so a new turn prefills only its new tokens.",
    )
    llm_kv_dtype: Literal["auto", "float32", "bfloat16", "float16"] = Field(
        "auto",
        description="KV cache dtype; auto = the compute dtype, except bf16 under fp32 compute on a CPU whose AVX2 "
        "kernels read it in place (half the memory per token and per step).",
    )
    kv_block_size: int = Field(
        4, description="Tokens per KV-cache block. The prefix cache reuses whole blocks, so each turn recomputes the "
        "last, partly filled block of the conversation so far: small blocks leave little to recompute, and the "
        "attention gathers single token slots, so a small block costs no speed.",
    )
    max_batch: int = Field(32, description="Upper bound on requests decoded in one step (the adaptive limit stays below it).")
    llm_threads: int = Field(
        0, description="CPU threads of the LLM engine (0 = one per core); every other stage runs torch on one thread."
    )
    batch_window_ms: float = Field(2.0, description="How long a step waits for more requests to join a batch.")
    max_seq_len: int = Field(2048, description="Longest context; older turns are dropped beyond it (system prompt kept).")
    llm_max_step_tokens: int = Field(
        128,
        description="Tokens one engine step may process; longer prompts are prefilled in chunks so decodes keep flowing "
        "and a voice request that arrives waits for a shorter step.",
    )
    llm_priority_aging_s: float = Field(
        5.0, description="Waiting this long raises a request by one priority class, so no class starves."
    )
    llm_itl_target_ms: float = Field(
        120.0, description="While voice requests are active the batch grows only while a decode step stays under this (0 = off)."
    )
    llm_lean_forward: bool = Field(
        True, description="Use the engine's lean forward for Llama-family models (else the generic transformers path)."
    )
    max_new_tokens: int = Field(96, description="Longest reply in tokens.")
    temperature: float = Field(
        0.3, description="Sampling temperature (0 = greedy); 0.3 answered best on bench quality (docs/benchmarks.md)."
    )
    top_p: float = Field(0.9, description="Nucleus sampling mass.")
    repetition_penalty: float = Field(
        1.0, description="Penalty on tokens already in the conversation (1 = none; transformers' rule)."
    )
    phrase_repeat_limit: int = Field(
        2, ge=0, description="The most times a reply may say one phrase of 4 words: where the model's likeliest next token "
        "would say it once more the reply ends there, and a less likely token that would is never chosen (0 = no limit: "
        "the loop guard ends a reply at a phrase's third time). Local engine; off for a reply that may call tools (calls "
        "repeat their own syntax).",
    )
    tool_call_floor: float = Field(
        0.5, ge=0.0, le=1.0,
        description="A reply that may call a tool or answer in words (tool_choice 'auto') calls where the tokens that "
        "open a call hold at least this share of the model's probability at its first token, and answers in words "
        "below it, where the reply heard is the same one without tools, started beside it (a model that calls the "
        "page's clock for 'What is 6 times 7?' does so from a small share, and words drawn with tools in the prompt "
        "talk about them instead of answering: docs/benchmarks.md, 'On the page'; 0 = off).",
    )
    tool_name_floor: float = Field(
        0.97, ge=0.0, le=1.0,
        description="A reply's first call, where the reply may answer in words instead (tool_choice 'auto'), stands "
        "only where the model held at least this share for the tool's name at its first token; below it the reply is "
        "written again without tools (asked for something no declared tool does, the 1.5B called the likeliest one "
        "from a split share, 'Call a taxi for me.' -> set_timer, where the tools' own requests hold nearly all: "
        "docs/benchmarks.md; 0 = off).",
    )
    tool_value_floor: float = Field(
        0.8, ge=0.0, le=1.0,
        description="A reply's first call, where the reply may answer in words instead (tool_choice 'auto'), stands "
        "only where the model held at least this share for the first token of each number in its arguments; below it "
        "the number was guessed and the reply is written again without tools ('Wake me up at seven tomorrow.' -> "
        "set_timer for 3600 seconds, 0.33 for its first digit, where a timer's stated length holds 0.96-1.00: "
        "docs/benchmarks.md; 0 = off).",
    )
    system_prompt: str = Field(
        "You are Voicechat, a friendly voice assistant made by the open-source voicechat project, running on this "
        "computer. You are not ChatGPT, Siri or Alexa, and you were not made by OpenAI, Google, Apple or Amazon. Answer in "
        "one or two short spoken sentences.",
        description="System prompt of every conversation whose client sets none (see limits_prompt); it says what the "
        "assistant is, which the model would otherwise take from its training ('I was created by OpenAI').",
    )
    limits_prompt: str = Field(
        "You know everything the user has told you in this conversation and answer from it. You can only talk and use "
        "the tools you are given. You have no internet access, so never pretend to know live facts (the time, weather, "
        "news, prices, scores) or to do things (timers, reminders, calls, messages, music, lights) without a tool for "
        "them; say briefly that you can't. Facts that stay true, like how high a mountain is or how hot a star is, you "
        "answer from what you know. When the user tells you about their life, answer warmly. For example: "
        "\"Will it rain tomorrow?\" -> \"Sorry, I can't check the weather from here.\"; \"What's the date today?\" -> "
        "\"Sorry, I can't check the date or time from here.\"; \"Book me a flight to Rome.\" -> \"I can't book flights, "
        "sorry.\"; \"What should I have for lunch?\" -> \"How about a quick pasta with "
        "tomatoes and garlic?\"; \"Write a thank-you note for my neighbour.\" -> \"Dear neighbour, thank you so much "
        "for your kindness!\"; \"I'm a gardener.\" -> \"That's lovely, gardening is such rewarding work!\"; \"I'm "
        "flying to Tokyo on Friday.\" -> \"How exciting, have a wonderful trip!\"; \"How are you?\" -> \"I'm doing "
        "great, thanks for asking!\"",
        description="Added after system_prompt for a reply that has no tools to call, so that the model says it cannot "
        "rather than inventing the weather or agreeing to call a taxi, and, by its examples, still answers warmly what "
        "talk can meet; not with tools, where it made the model write malformed calls (docs/benchmarks.md, 'What it "
        "cannot do'); '' = nothing added.",
    )
    answer_hints: bool = Field(
        True,
        description="On the server's own system prompt, give the model the answer to say beside a question it "
        "answers 'Yes' by habit: whether it is a person ('Are you human?' -> 'Yes, I am a human.' otherwise), and, "
        "in a reply with no tools and the limits prompt on, a yes-or-no question about the day or time ('Is it the "
        "weekend?') or a request only a tool could meet ('Remind me to take my pills at nine.' -> 'Sure, I'll remind "
        "you.' otherwise), and, with tools or without, a request to change its voice ('Can you use a British "
        "accent?' -> 'Yes, I can use a British accent.' otherwise), added to that message in the reply's prompt; a "
        "request to speak slower or faster is met, the session's speed moved a step, and the answer says so; a "
        "question asking for a suggestion is told to suggest ('What should I watch on TV tonight?' -> 'I can't watch "
        "TV, sorry.' otherwise), a request to write a few lines to write them ('Can you help me write a birthday "
        "message for my mom?' -> 'Sure, I can help you write a birthday message for your mom. Let me know what you'd "
        "like to include in the message.' otherwise), a story asked for to be made up ('Tell me a ghost story.' -> "
        "'I'm sorry, I can't tell you a ghost story.' otherwise), the user's news about their day, or their move or "
        "trip, to be answered warmly as theirs ('I have a job interview tomorrow.' -> 'I'm sorry, I can't assist "
        "with that.', 'I'm going to a concert tonight.' -> 'I'm looking forward to seeing you there.' otherwise), a "
        "question about its own likes gets a short answer ('What's your favourite colour?' -> 'As an AI language "
        "model, ...' otherwise), a request to hear the last reply again that reply to say ('Pardon?' -> 'I'm sorry, "
        "I can't answer that.' otherwise), 'Never mind.' an 'Okay' and 'Help.' or help with something named a "
        "question what they need (a decline otherwise), a correction of a misheard question ('No, I said "
        "Australia.') to be answered, a number or code the user gave, or their name, asked for later, as the answer, "
        "a follow-up that changes one part of the last question asked in full ('And in a foot?' -> 'There are 12 "
        "inches in a foot.' otherwise), 'Another one.' another and 'I give up.' after a riddle its answer (a decline "
        "otherwise), a riddle asked for one of the server's, with its answer, a hint and a guess judged ('Tell me a "
        "riddle.' -> 'Sure, here's a riddle for you:' and nothing, or a riddle with no answer, otherwise), and one "
        "of them the user asks its answer ('How many months have 28 days?' -> 'There are 7 months with 28 days.' "
        "otherwise), a game's turn (twenty questions asked one question at a time, a number guessed, rock, paper, "
        "scissors played and judged: 'I'm thinking of an animal. Guess what it is.' -> 'I'm sorry, I can't guess "
        "what animal it is.' otherwise), a yes-or-no question about the world or what the user may do first words "
        "other than 'Yes' ('Is a bat a bird?' -> 'Yes, a bat is a bird.', 'Can I freeze bread?' -> 'Sorry, I can't "
        "check the weather from here.' otherwise), the user's health or diet thanks ('I have diabetes.' -> a decline "
        "otherwise) and a later question whether they may eat something what they told ('Can I eat a Snickers bar?' "
        "after a peanut allergy -> 'generally safe' otherwise), a question with 'it' about what the last answer "
        "named that name ('How far is it from the sun?' after the largest planet -> the Earth's distance otherwise), "
        "a request for the last answer shorter or doubt of it ('Are you sure?') the answer again, the user's own "
        "answer against it what is true ('No, it's five.' -> 'I apologize, but I can't provide that answer.' "
        "otherwise), a coin, dice or number asked for the one the server drew ('Flip a coin.' -> 'I'm sorry, I can't "
        "flip a coin.' otherwise), a fun fact one of its checked facts, on a subject some are about one of those "
        "('Surprise me.' -> 'I'm sorry, but I can't surprise you.' otherwise), a new word one of its words with what "
        "it means ('Teach me a new word.' -> 'What would you like to learn?' otherwise), a joke or something funny "
        "one of its jokes, and to one who did not get it what it plays on ('I don't get it.' -> the joke again "
        "otherwise), a tongue twister one of the well-known ones ('Give me a tongue twister.' -> 'The quick brown "
        "fox jumps over the lazy dog.' otherwise), boredom an offer of a joke, a riddle or a game, a game asked for "
        "without its name the games it plays ('Let's play a game.' -> 'Sure, let's play a game!' otherwise), a "
        "request for kind words such words ('Cheer me up.' -> a decline otherwise), 'Is this working?', 'Hold on.' "
        "and an insult or an apology the answer a person gives ('Is this working?' -> 'Sorry, I can't check the "
        "weather from here.' otherwise), the weather where the user is, told, an answer ('It's raining here.' -> the "
        "same decline otherwise), a question about a life it has not ('Do you ever sleep?' -> 'Yes, I sleep.' "
        "otherwise) a program's answer, a quiz or 'Would you rather ...?' the first words of playing along, how the "
        "user feels to be answered warmly ('I'm cold.' -> 'I'm sorry, I can't provide information on the weather "
        "from here.' otherwise), a question about a lasting fact of the world to be answered ('How high is Mount "
        "Everest?' -> 'I can't check the height of Mount Everest from here.' otherwise), a place's usual weather too "
        "('What's the weather like in Paris in April?' -> 'Sorry, I can't check the weather from here.' otherwise), "
        "'What can you do?' what it can ('... assist with tasks like booking flights' otherwise), hunger something "
        "to eat ('I'm hungry.' -> 'I'm glad you're hungry!' otherwise), something of the user's gone wrong a likely "
        "cause and what to try ('My car won't start.' -> 'I'm sorry, I can't assist with that.' otherwise), gas "
        "smelt or a carbon monoxide alarm what to do first, a small hurt told or asked about its first aid ('I "
        "burned my finger on the stove.' -> 'It's important to take care of your hands and avoid burns.' otherwise), "
        "someone in danger now the emergency number ('My son hit his head and is unconscious.' -> 'It's important to "
        "seek medical attention immediately.' otherwise), a person in crisis someone to talk to ('I want to cut "
        "myself.' -> 'I'm sorry, but I can't assist with that.' otherwise), what kind of thing an animal, a food or "
        "a body in the sky is from a field guide ('Is a spider an insect?' -> 'Well, spiders are indeed insects.' "
        "otherwise), a food poisonous to a dog or a cat the vet's word ('Can dogs eat grapes?' -> 'Well, dogs can "
        "eat grapes, but they are not good for them.' otherwise), what the user lacks after a suggestion another "
        "without it ('I'm out of eggs.' -> 'You can make a breakfast with scrambled eggs' otherwise), the days to a "
        "day asked with no date given a request for the date, and once told the count ('How many days until "
        "Christmas?' -> 'There are 24 days until Christmas.' otherwise), 'Do you like me?' a warm answer ('I don't "
        "have feelings, so I don't like you.' otherwise), and a question about what people can do, asked with 'you' "
        "for anyone, asked of people ('Can you eat raw eggs?' -> 'Sorry, I can't eat raw eggs, sorry.' otherwise), a "
        "reply the user did not follow said again in simpler words ('What do you mean?' -> a decline otherwise), "
        "what the user asked earlier said back ('What did I just ask?' -> 'I asked ...' otherwise), leave to ask, a "
        "good night and 'Louder.' the answer a person gives, a view asked for first words ('As an AI language model, "
        "...' otherwise), words asked to be said ('Say banana.' -> 'I can't say banana.' otherwise), and as a first "
        "message 'Do you remember me?', 'What's my name?' or 'Who am I?' that nothing was kept or given ('I remember "
        "you!' otherwise) (docs/benchmarks.md, 'Not a person', 'Nothing promised', 'Written when asked', 'A story, "
        "told', 'The user's plans', 'Said again', 'Can I ...?', 'Lasting facts', 'Said, not promised', 'Asked for "
        "help', 'Around the talk', 'A place's usual weather', 'First aid for a small hurt; someone in danger now; a "
        "person in crisis', 'What kind of thing; a food poisonous to a pet').",
    )
    spelling_hints: bool = Field(
        True,
        description="Give the model the letters of a word the user asks how to spell (the model reads words as "
        "multi-letter tokens and cannot see them), or of their own name as they gave it earlier ('My name is Anna.'), "
        "or of the word just heard ('Can you spell that?'), and with a question that counts a word's letters ('How "
        "many r's are in strawberry?') their count, the letters the other way round for a word asked backwards ('Spell "
        "cat backwards.' -> 'Tact'), and what the letters show for a palindrome or an anagram asked about ('Is racecar a "
        "palindrome?' -> 'not'), added to that question in the reply's prompt (docs/benchmarks.md, 'Spelling', "
        "'Fractions, two people's ages, words backwards').",
    )
    conversion_hints: bool = Field(
        True,
        description="Give the model the worked-out figure of a unit conversion the user asks for ('How many "
        "centimetres are in 2 metres?' -> '2 metres = 200 centimetres.'; the model answered '100 centimetres in 1 "
        "metre') or a temperature in another scale (read out as a formula otherwise), and the answer to a sum, a "
        "comparison of two numbers or a question about a number ('What's 2 to the power of 10?' -> '1000000000' "
        "otherwise, 'Is 21 a prime number?' -> 'Yes') or a sum that goes on from the last one's answer ('Now divide "
        "that by four.' after 'What's seven times eight?' -> 'twelve'), and a weekday or clock time counted from one "
        "the question gives ('If today is Friday, what day will it be in 4 days?' -> 'Monday'), and an everyday "
        "phrase asked for in another language from a phrasebook ('How do you say thank you in Italian?' -> 'Ciao'), "
        "and the time in another city from the time zone database ('What time is it in Tokyo if it's 3 pm in "
        "London?' -> declined otherwise; the time there now from the server's clock), the legs or wheels of some "
        "things counted ('How many legs do three cats have?' -> 'three legs') and which of two amounts is more ('a "
        "kilo of feathers or a kilo of bricks?'), an age or years counted from this year ('If I was born in 1990, "
        "how old am I this year?' -> '31'; the year from the server's clock), words that rhyme ('What rhymes with "
        "dog?' -> 'Bark'; none for 'orange': 'orange' otherwise) or a word's syllables ('How many syllables are in "
        "banana?' -> '4'), a Roman numeral read or written ('What number is MCMXC?' -> '1900'), a world record's "
        "holder from a record book ('What's the biggest country in the world?' -> 'China' otherwise), a month "
        "counted from another, and the change, money left or money saved in a story of money ('paid with a 20 dollar "
        "note for something that cost 13 dollars 50' -> '7 dollars 50') or a tip, tax, discount or percentage of an "
        "amount of money ('Calculate an 18% tip on 72 dollars.' -> '13.68 dollars'), a count, the alphabet, the "
        "months or the weekdays asked to be said ('Can you count to ten?' -> 'Yes, I can count to ten.'), fractions "
        "said in words ('What is half of three quarters?' -> 'one and a half'), one person's age from another's "
        "('I'm 40 and my daughter is 12. How old will she be when I'm 50?' -> '10'), the days from a date given to a "
        "holiday, numbers put in order, a percentage or a change as one, a speed from a distance and its time, and "
        "the pets, children or siblings the user listed added up when asked ('How many pets do I have?' after 'I "
        "have three cats and two dogs.' -> 'You have three cats and two dogs.' otherwise), added to that question in "
        "the reply's prompt (docs/benchmarks.md, 'Conversions', 'Sums', 'Days and times', 'A phrase in another "
        "language', 'The time in another city, legs and wheels', 'Ages and years, rhymes, Roman numerals, months and "
        "money', 'Fractions, two people's ages, words backwards', 'Lasting facts', 'Said, not promised').",
    )

    # --- speech in ---
    turn_detection: Literal["auto", "server_vad", "semantic_vad"] = Field(
        "auto",
        description="How a session ends a spoken turn until its client chooses: 'server_vad' after vad_silence_ms of "
        "silence; 'semantic_vad' after a silence the words said so far decide (short when they end a thought, long at "
        "'and ...'), scored by the local LLM; 'auto' semantic_vad where the local LLM can score (the packaged models "
        "can), else server_vad.",
    )
    vad_threshold: float = Field(0.5, description="silero-vad speech probability threshold.")
    vad_silence_ms: int = Field(400, description="Silence that ends a turn (the hangover).")
    vad_pause_ms: int = Field(
        100,
        description="Silence that marks a pause, where speculative ASR and the reply start (at most vad_silence_ms); "
        "the turn's audio ends there too.",
    )
    vad_min_speech_ms: int = Field(200, description="Shorter bursts are ignored.")
    vad_preroll_ms: int = Field(300, description="Audio kept before speech starts, so the first syllable survives.")
    max_utterance_s: float = Field(20.0, description="Longer speech is cut into pieces of this length.")
    partial_interval_ms: int = Field(
        600, description="Partial transcript period while speaking (0 = off); none while the LLM engine on the CPU "
        "serves voice replies."
    )
    speculative_asr: bool = Field(True, description="Start ASR and the reply during the end-of-turn silence.")
    prefill_ahead: bool = Field(
        True, description="Prefill the conversation and the words of each partial transcript while the user speaks."
    )
    asr_batch_window_ms: float = Field(20.0, description="How long ASR waits to batch utterances of several sessions.")
    asr_max_batch: int = Field(8, description="Most utterances decoded in one ASR batch.")
    asr_threads: int = Field(
        1, description="CPU threads of the ASR worker (1 leaves the other cores to the LLM engine; 0 = one per core)."
    )
    asr_dtype: Literal["auto", "float32", "bfloat16", "float16"] = Field(
        "auto", description="Whisper weights dtype; auto = bf16 on CPUs with bf16 support or GPU, else fp32."
    )
    asr_full_window: bool = Field(
        False,
        description="Encode Whisper's whole 30 s window as openai-whisper does (slower); default: only the real audio.",
    )

    # --- speech out ---
    output_sample_rate: int = Field(24000, description="Default sample rate of audio sent to clients.")
    tts_speed: float = Field(
        1.0, ge=0.25, le=1.5,
        description="How fast replies are spoken, a multiple of the voice's own rate; each session starts at it and may "
        "set its own (`audio.output.speed`).",
    )
    tts_threads: int = Field(
        2,
        description="CPU threads of the piper voice (one while an LLM engine on the same cores decodes several spoken "
        "replies; its threads sleep when idle, so they take no core from the LLM).",
    )

    # --- sessions ---
    max_sessions: int = Field(32, description="Concurrent sessions; one more gets a clear 'server full' message.")
    max_text_chars: int = Field(4000, description="Longest typed message accepted, in characters.")
    bargein_min_speech_ms: int = Field(
        300, description="While the assistant speaks, user speech must last this long to interrupt (echo guard)."
    )

    # --- limits and access (docs/protocol.md, Limits) ---
    max_messages_per_s: float = Field(
        200.0, description="Frames (events or audio) a session may send per second; bursts up to one second's worth."
    )
    max_audio_s_per_min: float = Field(
        90.0, description="Seconds of input audio a session may send in any minute (real time is 60); the rest is dropped."
    )
    idle_timeout_s: float = Field(600.0, description="A session that sends nothing for this long is closed (0 = never).")
    reply_start_timeout_s: float = Field(
        60.0, description="A reply that has produced nothing this long after it was due ends with a server_busy error "
        "(the server is overloaded) and frees its request (0 = wait forever).",
    )
    max_send_buffer_bytes: int = Field(
        8 * 1024**2, description="Bytes queued for a client that does not read; beyond it the session is dropped."
    )
    allowed_origins: str = Field(
        "",
        description="Browser origins allowed to open the WebSocket besides the page's own, comma-separated ('*' = any).",
    )
    access_token: str = Field(
        "",
        description="When set, the pages and the WebSocket need it (?token=..., then a cookie; or Authorization: Bearer).",
    )
    allowed_hosts: str = Field(
        "",
        description="Host names the server answers besides the bind address, localhost names and this machine's own "
        "names, comma-separated ('*' = any); requests for any other Host are refused (DNS rebinding).",
    )
    trusted_proxies: str = Field(
        "127.0.0.1",
        description="Addresses of reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are believed, "
        "comma-separated ('' = none, '*' = any).",
    )
    metrics_public: bool = Field(
        False,
        description="Serve /metrics without the access token (for a scraper); otherwise it needs the token when one is set.",
    )
    max_sessions_per_client: int = Field(
        8, description="Sessions one client address may hold at once (0 = no limit); loopback clients are not limited."
    )
    request_timeout_s: float = Field(
        10.0, description="Seconds an HTTP request may take to arrive whole (headers and body); then its connection is closed."
    )

    # --- history ---
    history_session_max_messages: int = Field(
        1000,
        description="Messages one conversation may store (0 = no limit); past it a message gets a history_quota_exceeded error.",
    )
    history_max_mb: float = Field(
        1024.0,
        description="Megabytes of message text the history may hold in all (0 = no limit); past it new messages are refused.",
    )
    history_retention_days: float = Field(
        30.0, description="Conversations with no new message for this many days are deleted (0 = kept forever)."
    )

    @model_validator(mode="after")
    def _semantic_vad_needs_the_local_engine(self) -> Settings:
        if self.turn_detection == "semantic_vad" and self.llm_backend != "local":
            raise ValueError("turn_detection semantic_vad needs llm_backend local: the end of a turn is scored by the "
                             "local engine")
        return self

    @model_validator(mode="after")
    def _resolve_auto_llm(self) -> Settings:
        """'auto' becomes a packaged name once, where the settings are made, so every part reads the same."""
        if self.llm_model == "auto":
            from app.models.choice import choose_llm  # measures the machine once per process

            self.llm_model = choose_llm(self.device)
        return self

    @property
    def whisper_model(self) -> str:
        """The Whisper model to load: ``asr_model``, where 'auto' is base where it holds the voice latency targets
        (on a GPU) or where the language needs a multilingual model, else tiny.en: on a 2-core CPU base's encoder
        adds more to every reply's latency than the voice target allows, and on the recorded English prompts tiny.en
        hears them better (docs/benchmarks.md)."""
        if self.asr_model != "auto":
            return self.asr_model
        if self.asr_language != "en":
            return "base"
        from app.device import resolve_device

        return "base" if resolve_device(self.device).type == "cuda" else "tiny.en"

    def default_instructions(self, *, tools: bool) -> str:
        """The system prompt of a reply whose client set none: ``system_prompt``, with ``limits_prompt`` after it
        where the reply has no tools to call."""
        return self.system_prompt if tools or not self.limits_prompt else f"{self.system_prompt} {self.limits_prompt}".strip()

    @property
    def weight_bits(self) -> str:
        """The bits the engine packs the LLM's linears at: ``llm_weight_bits``, where 'auto' is the packaged model's
        own choice (:attr:`app.models.sources.PackagedLLM.weight_bits`), else each weight's own."""
        from app.models.sources import PACKAGED_LLMS

        packaged = PACKAGED_LLMS.get(self.llm_model)
        return packaged.weight_bits if self.llm_weight_bits == "auto" and packaged is not None else self.llm_weight_bits

    @property
    def tools_allowed(self) -> bool:
        """Whether the local LLM takes tools where its template has a tool format: ``llm_tools``, where 'auto' is the
        packaged model's own (:attr:`app.models.sources.PackagedLLM.tools`), any other model's yes."""
        from app.models.sources import PACKAGED_LLMS

        packaged = PACKAGED_LLMS.get(self.llm_model)
        if self.llm_tools == "auto":
            return packaged is None or packaged.tools
        return self.llm_tools == "on"

    @property
    def draft_model(self) -> str | None:
        """The draft LLM to load, or None: ``llm_draft_model``, where 'auto' pairs the packaged Qwen2.5 1.5B with
        its 0.5B sibling on a GPU (same tokenizer, a fraction of the weights to stream per proposed token) and is
        prompt lookup on a CPU (the draft's forwards and its catch-up on each prompt cost two cores more than they
        save; lookup's proposals cost nothing: docs/benchmarks.md)."""
        choice = self.llm_draft_model
        if choice == "auto":
            from app.device import resolve_device

            if resolve_device(self.device).type != "cuda":
                choice = LOOKUP_DRAFT
            else:
                choice = "qwen2.5-0.5b" if self.llm_model == "qwen2.5-1.5b" else "none"
        return None if choice == "none" or self.llm_speculative_tokens < 1 else choice

    @property
    def draft_llm(self) -> str | None:
        """The draft model to prepare and load: :attr:`draft_model` unless that is prompt lookup (no model)."""
        return None if self.draft_model == LOOKUP_DRAFT else self.draft_model


def load_settings(**overrides: object) -> Settings:
    """Settings from the environment, with CLI flags (non-None) taking precedence."""
    return Settings(**{k: v for k, v in overrides.items() if v is not None})
