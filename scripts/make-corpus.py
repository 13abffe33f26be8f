# Writes the inputs of the malformed-file corpus: one folder per case, a small data directory inside.
import os, shutil
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "StorageTests", "Corpus")
# Inputs only: each case's expected.txt is written by hand and reviewed.
SCRUM_ID = "0f6d1a52-4c0e-4b8e-9a57-2d1f3c8b7e01"
LIB_ID = "7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e05"
good_scrum = f"id: {SCRUM_ID}\ntitle: Design\ntheme: yellow\nlength: 10\nattendees:\n  - Ada\n  - Grace\n"
good_lib = f"id: {LIB_ID}\nname: Spanish basics\nlanguage: es\nwords:\n  - text: hola\n    meanings:\n      - definition: hello\n"
def meeting(extra="", date="2026-11-20T09:00:00Z", scrum=SCRUM_ID, duration="612"):
    return f"id: 3f2c0a1b-6d4e-4a7f-9b3c-5e8d2f1a0c04\nscrum: {scrum}\ndate: {date}\nlength: 10\nduration: {duration}\nattendees: [Ada, Grace]\n{extra}"
cases = {
  "unclosed-quote": {"scrums/a.yaml": 'title: "Design\nlength: 5\nattendees: [Ada]\n'},
  "bad-indentation": {"scrums/a.yaml": "title: X\n  length: 5\n"},
  "tab-indentation": {"scrums/a.yaml": "title: X\nlength: 5\nattendees:\n\t- Ada\n"},
  "colon-in-plain-value": {"scrums/a.yaml": "title: Design: Review\nlength: 5\nattendees: [Ada]\n"},
  "unclosed-flow-list": {"scrums/a.yaml": "title: X\nattendees: [Ada, Grace\nlength: 5\n"},
  "length-as-words": {"scrums/a.yaml": "title: X\nlength: ten\nattendees: [Ada]\n"},
  "length-as-fraction": {"scrums/a.yaml": "title: X\nlength: 7.5\nattendees: [Ada]\n"},
  "length-quoted": {"scrums/a.yaml": "title: X\nlength: '10'\nattendees: [Ada]\n"},
  "title-is-a-list": {"scrums/a.yaml": "title: [a, b]\nlength: 5\nattendees: [Ada]\n"},
  "attendees-is-a-mapping": {"scrums/a.yaml": "title: X\nlength: 5\nattendees:\n  Ada: lead\n"},
  "missing-title": {"scrums/a.yaml": "# no title here\nlength: 5\nattendees: [Ada]\n"},
  "empty-mapping": {"scrums/a.yaml": "{}\n"},
  "empty-file": {"scrums/a.yaml": ""},
  "scalar-document": {"scrums/a.yaml": "just some text\n"},
  "duplicate-key": {"scrums/a.yaml": "title: X\nlength: 5\ntitle: Y\nattendees: [Ada]\n"},
  "invalid-utf8": {"scrums/a.yaml": b"title: X\nlength: 5\nattendees:\n  - Ren\xe9\n"},
  "control-character": {"scrums/a.yaml": b"title: X\x01\nlength: 5\nattendees: [Ada]\n"},
  "bom-is-accepted": {"scrums/a.yaml": b"\xef\xbb\xbf" + good_scrum.encode()},
  "crlf-is-accepted": {"scrums/a.yaml": good_scrum.replace("\n", "\r\n")},
  "crlf-error-lines": {"scrums/a.yaml": "title: X\r\nlength: ten\r\nattendees:\r\n  - Ada\r\n  - ada\r\n"},
  "alias-bomb": {"scrums/a.yaml": "title: X\nlength: 5\n" + "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(f"a{i}: &a{i} [" + ", ".join([f"*a{i-1}"]*10) + "]\n" for i in range(1, 9)) + "attendees: *a8\n"},
  "deep-nesting": {"scrums/a.yaml": "title: X\nlength: 5\nattendees: " + "["*100 + "]"*100 + "\n"},
  "unknown-theme": {"scrums/a.yaml": "title: X\ntheme: pnik\nlength: 5\nattendees: [Ada]\n"},
  "theme-wrong-case": {"scrums/a.yaml": "title: X\ntheme: Yellow\nlength: 5\nattendees: [Ada]\n"},
  "negative-length": {"scrums/a.yaml": "title: X\nlength: -5\nattendees: [Ada]\n"},
  "length-over-limit": {"scrums/a.yaml": "title: X\nlength: 601\nattendees: [Ada]\n"},
  "no-attendees": {"scrums/a.yaml": "title: X\nlength: 5\nattendees: []\n"},
  "duplicate-attendee": {"scrums/a.yaml": "title: X\nlength: 5\nattendees:\n  - Ada Lovelace\n  - Grace\n  - ada lovelace \n"},
  "empty-attendee-name": {"scrums/a.yaml": "title: X\nlength: 5\nattendees:\n  - Ada\n  - ''\n"},
  "attendee-mapping-without-name": {"scrums/a.yaml": "title: X\nlength: 5\nattendees:\n  - Ada\n  - {role: lead}\n"},
  "blank-title": {"scrums/a.yaml": "title: '   '\nlength: 5\nattendees: [Ada]\n"},
  "misspelled-key": {"scrums/a.yaml": "titel: X\nlength: 5\nattendees: [Ada]\n"},
  "unknown-key-kept": {"scrums/a.yaml": "title: X\nlength: 5\nattendees: [Ada]\nowner: Bob  # who runs it\n"},
  "every-problem-reported": {"scrums/a.yaml": "title: X\ntheme: pink\nlength: ten\nattendees:\n  - Ada\n  - Ada\nlenght: 5\n"},
  "id-not-a-uuid": {"scrums/a.yaml": "id: 42\ntitle: X\nlength: 5\nattendees: [Ada]\n"},
  "two-documents": {"scrums/a.yaml": "title: X\nlength: 5\nattendees: [Ada]\n---\ntitle: Y\n"},
  "unknown-alias": {"scrums/a.yaml": "title: X\nlength: 5\nattendees: *people\n"},
  "duplicate-ids": {"scrums/a.yaml": good_scrum, "scrums/b.yaml": good_scrum.replace("Design", "Copy of Design")},
  "meeting-bad-date": {"scrums/design.yaml": good_scrum, "history/design/m.yaml": meeting(date="next tuesday")},
  "meeting-impossible-date": {"scrums/design.yaml": good_scrum, "history/design/m.yaml": meeting(date="2026-02-30")},
  "meeting-unknown-scrum": {"scrums/design.yaml": good_scrum, "history/design/m.yaml": meeting(scrum="11111111-2222-4333-8444-555555555555")},
  "meeting-wrong-folder": {"scrums/design.yaml": good_scrum, "history/web/m.yaml": meeting()},
  "meeting-negative-duration": {"scrums/design.yaml": good_scrum, "history/design/m.yaml": meeting(duration="-3")},
  "meeting-speakers-overrun": {"scrums/design.yaml": good_scrum, "history/design/m.yaml": meeting(extra="speakers:\n  - {name: Ada, seconds: 500}\n  - {name: Grace, seconds: 200}\n")},
  "meeting-speaker-missing-seconds": {"scrums/design.yaml": good_scrum, "history/design/m.yaml": meeting(extra="speakers:\n  - {name: Ada}\n")},
  "library-bad-language": {"libraries/l.yaml": "name: Spanish\nlanguage: Spanish\nwords: []\n"},
  "library-duplicate-word": {"libraries/l.yaml": "name: Spanish\nlanguage: es\nwords:\n  - text: hola\n  - text: adiós\n  - text: Hola\n"},
  "library-one-broken-word": {"libraries/l.yaml": "name: Spanish\nlanguage: es\nwords:\n  - text: hola\n    meanings:\n      - definition: hello\n  - text: gracias\n    meanings: thank you\n  - text: adiós\n"},
  "library-empty-word": {"libraries/l.yaml": "name: Spanish\nlanguage: es\nwords:\n  - text: ''\n  - phonetic: /x/\n"},
  "library-empty-definition": {"libraries/l.yaml": "name: Spanish\nlanguage: es\nwords:\n  - text: hola\n    meanings:\n      - definition: ''\n"},
  "config-future-format": {".dinger/config.yaml": "format: 2\nlanguage: en\n"},
  "config-bad-quiz": {".dinger/config.yaml": "format: 1\nquiz:\n  questions: 0\n  seconds: fast\n"},
  "quiz-missing-questions": {"libraries/spanish.yaml": good_lib, "quizzes/spanish/q.yaml": f"library: {LIB_ID}\ndate: 2026-11-21T10:00:00Z\n"},
  "quiz-correct-not-boolean": {"libraries/spanish.yaml": good_lib, "quizzes/spanish/q.yaml": f"library: {LIB_ID}\ndate: 2026-11-21T10:00:00Z\nquestions:\n  - {{word: hola, correct: yes}}\n"},
  "yml-extension": {"scrums/design.yml": good_scrum},
  "hand-written-minimal": {"scrums/design.yaml": "title: Design Review\ntheme: yellow\nlength: 10\nattendees:\n  - Ada Lovelace\n  - Grace Hopper\n"},
  "yaml11-strings-are-text": {"scrums/a.yaml": "title: no\nlength: 5\nattendees: [on, off, yes, 'null', 2026-01-01, 1.0]\n"},
  # Written stand-up entries: a clean day (a blocker opened, carried and resolved), and the
  # mistakes people make (a day that does not exist, ids that are not ids, a blocker that says
  # nothing, a writer who is not an attendee, an entry filed under another scrum's folder).
  "standup-entry-clean": {
    "scrums/design.yaml": good_scrum,
    "standups/design/2026-11-27-ada.yaml": f"scrum: {SCRUM_ID}\ndate: 2026-11-27\nby: Ada\nyesterday: Shipped it.\ntoday: |\n  Review.\n  Pair with Grace.\nblockers:\n  - Waiting on the key\n  - {{id: b1f0c2a9d, text: CI is full}}\nresolved:\n  - {{id: b1f0c2a9d, note: done}}\n",
    "standups/design/2026-11-26-grace.yaml": f"scrum: {SCRUM_ID}\ndate: 2026-11-26\nby: Grace\ntoday: x\nblockers: [CI is full]\n",
  },
  "standup-entry-mistakes": {
    "scrums/design.yaml": good_scrum,
    "standups/design/2026-11-27-ada.yaml": f"scrum: {SCRUM_ID}\ndate: 2026-11-31\nby: Ada\ntodya: typo\nblockers:\n  - {{id: B-1, text: x}}\n  - ''\nresolved: [nope]\n",
    "standups/design/2026-11-27-eve.yaml": f"scrum: {SCRUM_ID}\ndate: 2026-11-27\nby: Evee\ntoday: x\n",
    "standups/other/2026-11-27-grace.yaml": f"scrum: {SCRUM_ID}\ndate: 2026-11-27\nby: Grace\ntoday: x\nresolved: [b12345678]\n",
  },
}
for name, files in cases.items():
    for path, content in files.items():
        full = os.path.join(root, name, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            f.write(content if isinstance(content, bytes) else content.encode())
print(len(cases), "cases")
