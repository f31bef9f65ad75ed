"""The request set of ``voicechat bench tools``: what a user asks a voice assistant that has four tools.

Half the requests need one of the tools, with the argument values a right call carries; the other
half need none, several of them close to a tool's topic (seconds in a minute, what a thermometer
measures) so that a model calling tools for any related word is caught. Written for this project.
"""

from __future__ import annotations

import json

TOOLS: list[dict] = [
    {
        "type": "function",
        "name": "get_current_time",
        "description": "Get the user's current local date and time.",
        "parameters": {"type": "object", "properties": {}},
    },
    {
        "type": "function",
        "name": "set_timer",
        "description": "Start a countdown timer on the user's screen.",
        "parameters": {
            "type": "object",
            "properties": {
                "seconds": {"type": "integer", "minimum": 1, "maximum": 86400,
                            "description": "Length of the timer in seconds"},
                "label": {"type": "string", "description": "What the timer is for"},
            },
            "required": ["seconds"],
        },
    },
    {
        "type": "function",
        "name": "get_weather",
        "description": "Get the current weather for a city.",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string", "description": "City name, e.g. Paris"}},
            "required": ["city"],
        },
    },
    {
        "type": "function",
        "name": "add_to_shopping_list",
        "description": "Add an item to the user's shopping list.",
        "parameters": {
            "type": "object",
            "properties": {
                "item": {"type": "string", "description": "What to buy"},
                "quantity": {"type": "integer", "minimum": 1},
            },
            "required": ["item"],
        },
    },
]

# What the bench answers as the client's tool, and a word the spoken answer should then carry; the clock and the timer
# answer as the page's do (static/js/page-tools.js; the timer adds its seconds, ``tool_output``).
TOOL_OUTPUTS: dict[str, tuple[str, str | None]] = {
    "get_current_time": ('{"date": "Tuesday, December 1, 2026", "time": "4:45 PM"}', None),
    "set_timer": ('{"status": "started"}', None),
    "get_weather": ('{"temperature_c": 18, "conditions": "sunny"}', "18"),
    "add_to_shopping_list": ('{"status": "added"}', None),
}


def tool_output(name: str, arguments: str) -> str:
    """The bench client's answer to a call of ``name`` with these arguments (JSON): ``TOOL_OUTPUTS``' answer, and for
    the timer the seconds it was started with, as the page answers."""
    output = TOOL_OUTPUTS.get(name, ('{"error": "unknown tool"}', None))[0]
    if name != "set_timer":
        return output
    try:
        seconds = json.loads(arguments or "{}").get("seconds")
    except (ValueError, AttributeError):
        return output
    return json.dumps({**json.loads(output), "seconds": seconds}) if isinstance(seconds, int) else output


# (request, tool name or None, expected arguments: an int must be equal, a string must appear in the value)
REQUESTS: list[tuple[str, str | None, dict[str, int | str]]] = [
    ("What time is it?", "get_current_time", {}),
    ("What's today's date?", "get_current_time", {}),
    ("Do you know what day of the week it is today?", "get_current_time", {}),
    ("Can you tell me the current time, please?", "get_current_time", {}),
    ("How late is it right now?", "get_current_time", {}),
    ("Set a timer for two minutes.", "set_timer", {"seconds": 120}),
    ("Start a ten second timer.", "set_timer", {"seconds": 10}),
    ("Set a timer for five minutes for the pasta.", "set_timer", {"seconds": 300}),
    ("Set a timer for one hour.", "set_timer", {"seconds": 3600}),
    ("Please set a ninety second timer for my tea.", "set_timer", {"seconds": 90}),
    ("Count down thirty seconds for me.", "set_timer", {"seconds": 30}),
    ("What's the weather like in Paris?", "get_weather", {"city": "paris"}),
    ("Is it raining in London right now?", "get_weather", {"city": "london"}),
    ("How warm is it in Tokyo today?", "get_weather", {"city": "tokyo"}),
    ("Do I need an umbrella in Seattle today?", "get_weather", {"city": "seattle"}),
    ("What's the temperature in Berlin at the moment?", "get_weather", {"city": "berlin"}),
    ("Add milk to my shopping list.", "add_to_shopping_list", {"item": "milk"}),
    ("Put three apples on the shopping list.", "add_to_shopping_list", {"item": "apple", "quantity": 3}),
    ("I'm out of eggs, add them to my shopping list.", "add_to_shopping_list", {"item": "egg"}),
    ("Add a loaf of bread to the shopping list.", "add_to_shopping_list", {"item": "bread"}),
    ("What is the capital of Italy?", None, {}),
    ("How many legs does a spider have?", None, {}),
    ("Tell me a short joke.", None, {}),
    ("What is seven times eight?", None, {}),
    ("Translate 'thank you' into French.", None, {}),
    ("How do I boil an egg?", None, {}),
    ("Who wrote Romeo and Juliet?", None, {}),
    ("How many seconds are in a minute?", None, {}),
    ("What does a thermometer measure?", None, {}),
    ("Spell the word cat.", None, {}),
    ("What colour is the sky on a clear day?", None, {}),
    ("Why do we have seasons?", None, {}),
    ("Give me a synonym for happy.", None, {}),
    ("At what temperature does water boil in Celsius?", None, {}),
    ("How many minutes are in an hour?", None, {}),
    ("Suggest a good name for a puppy.", None, {}),
    ("What is the largest planet in our solar system?", None, {}),
    ("Hello, how are you?", None, {}),
    ("What rhymes with cat?", None, {}),
    ("Can you recommend a classic novel?", None, {}),
    ("What is a shopping list?", None, {}),
]

# Requests for what none of the four tools does: right when the reply makes no call and says it cannot (a call to a
# tool that does something else, "set_timer" for a taxi, or "Sure, I'll call a taxi" is wrong).
BEYOND_TOOLS: list[str] = [
    "Call a taxi for me.",
    "Play some jazz music.",
    "Turn off the bedroom lights.",
    "Send a message to Anna saying I'm on my way.",
    "Book a table for two at an Italian restaurant tonight.",
    "Order a large pizza for me.",
    "Remind me to call my mother on Sunday.",
    "What are today's top news headlines?",
]
