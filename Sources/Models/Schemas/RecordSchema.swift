/// JSON Schemas (draft 2020-12) of dinger's files, for YAML editors (yaml-language-server in VS
/// Code, Neovim, Helix, Zed; JetBrains): they validate and complete while you type, and show
/// the descriptions as hover text. Built from the same constants the validators use (lengths,
/// themes, keys, the id pattern), so the two cannot drift; a test runs an independent validator
/// over the samples and the malformed-file corpus.
///
/// What a schema cannot say is left to `dinger check`: names unique within a scrum (ignoring
/// case), ids unique across files, a meeting's scrum existing, speakers adding up to more than
/// the duration (a warning).
public enum RecordSchema {
  /// The files that have a schema.
  public enum Kind: String, CaseIterable, Sendable {
    case scrum, meeting, library, quiz, config, conflict, standup

    /// `scrum.schema.json`.
    public var fileName: String { "\(rawValue).schema.json" }
  }

  /// Where `dinger init` writes the schemas, from the data root.
  public static let folder = ".dinger/schemas"

  /// The first line of a file dinger creates at `path` (from the data root): a comment that
  /// points YAML editors at its schema by relative path; plain YAML readers ignore it.
  public static func modeline(_ kind: Kind, forFileAt path: String) -> String {
    let depth = path.split(separator: "/").count - 1
    let up = String(repeating: "../", count: depth)
    return "# yaml-language-server: $schema=\(up)\(folder)/\(kind.fileName)\n"
  }

  /// The schema of `kind`.
  public static func schema(_ kind: Kind) -> JSONValue {
    switch kind {
    case .scrum: return scrum
    case .meeting: return meeting
    case .library: return library
    case .quiz: return quiz
    case .config: return config
    case .conflict: return conflict
    case .standup: return standup
    }
  }

  // MARK: Pieces

  static func object(_ members: (String, JSONValue)...) -> JSONValue {
    .object(members.map { JSONValue.Member($0.0, $0.1) })
  }

  static func properties(_ members: [(String, JSONValue)]) -> JSONValue {
    .object(members.map { JSONValue.Member($0.0, $0.1) })
  }

  /// A record's top level: its keys, the required ones, and unknown keys allowed but described.
  static func record(
    _ title: String, _ description: String, required: [String], _ members: [(String, JSONValue)]
  ) -> JSONValue {
    object(
      ("$schema", "https://json-schema.org/draft/2020-12/schema"),
      ("title", .string(title)),
      ("description", .string(description)),
      ("type", "object"),
      ("required", .array(required.map { .string($0) })),
      ("properties", properties(members)),
      ("additionalProperties", unknownKey))
  }

  /// What an unknown key is: kept, and warned about.
  static let unknownKey = object(
    (
      "description",
      "A key dinger does not know: kept as written when dinger edits the file, and 'dinger check' warns about it (naming the key it is probably a typo of)."
    ))

  static func nested(_ description: String, required: [String], _ members: [(String, JSONValue)])
    -> JSONValue
  {
    object(
      ("description", .string(description)), ("type", "object"),
      ("required", .array(required.map { .string($0) })), ("properties", properties(members)),
      ("additionalProperties", unknownKey))
  }

  /// Lowercase or uppercase hex in 8-4-4-4-12 groups.
  public static let idPattern =
    "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"

  static func id(_ description: String) -> JSONValue {
    object(
      ("description", .string(description)), ("type", "string"), ("pattern", .string(idPattern)),
      ("examples", ["6a4f0c1e-2b3d-4c5e-8f90-1a2b3c4d5e6f"]))
  }

  /// Text with at least one character that is not a space.
  static func text(_ description: String, examples: [String] = [], maxLength: Int? = nil)
    -> JSONValue
  {
    var members = [
      JSONValue.Member("description", .string(description)), .init("type", "string"),
      .init("pattern", "\\S"),
    ]
    if let maxLength { members.append(.init("maxLength", .integer(maxLength))) }
    if !examples.isEmpty { members.append(.init("examples", .array(examples.map { .string($0) }))) }
    return .object(members)
  }

  static func optionalText(_ description: String) -> JSONValue {
    object(("description", .string(description)), ("type", "string"))
  }

  static func integer(_ description: String, _ range: ClosedRange<Int>? = nil, minimum: Int? = nil)
    -> JSONValue
  {
    var members = [JSONValue.Member("description", .string(description)), .init("type", "integer")]
    if let range {
      members += [
        .init("minimum", .integer(range.lowerBound)), .init("maximum", .integer(range.upperBound)),
      ]
    } else if let minimum {
      members.append(.init("minimum", .integer(minimum)))
    }
    return .object(members)
  }

  /// The dates `ISODate` reads: a day, or a day and a time with an optional fraction and
  /// offset (a format checker is optional in JSON Schema; the pattern always applies).
  public static let datePattern =
    "^[0-9]{4}-[0-9]{2}-[0-9]{2}([Tt ][0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?([Zz]|[+-][0-9]{2}(:?[0-9]{2})?)?)?$"

  static func dateTime(_ description: String) -> JSONValue {
    object(
      ("description", .string(description)), ("type", "string"), ("format", "date-time"),
      ("pattern", .string(datePattern)), ("examples", ["2026-11-20T09:00:00Z"]))
  }

  /// A BCP 47 language tag as `LanguageCode` accepts it.
  static let languagePattern = "^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$"

  static func language(_ description: String) -> JSONValue {
    object(
      ("description", .string(description)), ("type", "string"),
      ("pattern", .string(languagePattern)), ("examples", ["es", "en-GB", "pt-BR"]))
  }

  // MARK: The files

  static let theme: JSONValue = {
    let themes = Theme.allCases
    // NB: SyncUps' `app` spellings (`appTeal`) are accepted and kept, listed after the 16.
    let app = Theme.appSpellings.sorted().compactMap { name in
      Theme(spelling: name).map { (name, $0) }
    }
    func hex(_ t: Theme) -> String {
      let (r, g, b) = t.rgb
      return [r, g, b].map { v -> String in
        let n = Int((v * 255).rounded())
        return (n < 16 ? "0" : "") + String(n, radix: 16)
      }.joined()
    }
    return object(
      (
        "description",
        .string(
          "The scrum's colour in the meeting screen and lists; \(Theme.default.rawValue) when left out."
        )
      ),
      ("type", "string"),
      ("enum", .array(themes.map { .string($0.rawValue) } + app.map { .string($0.0) })),
      (
        "enumDescriptions",
        .array(
          themes.map { .string("#\(hex($0)), \($0.hasLightText ? "light" : "dark") text") }
            + app.map { .string("\($0.1.rawValue), as one revision of SyncUps spells it") })
      ),
      ("default", .string(Theme.default.rawValue)))
  }()

  static let length = integer(
    "Planned minutes for the whole meeting, \(Scrum.lengthRange.lowerBound) to \(Scrum.lengthRange.upperBound); each speaker gets an equal share.",
    Scrum.lengthRange)

  static let attendee: JSONValue = object(
    (
      "description",
      "A person who speaks: a plain name, or a mapping with 'name' when it carries more. Names are unique within the scrum, ignoring case ('dinger check' says which repeat)."
    ),
    (
      "anyOf",
      [
        text("The attendee's name.", examples: ["Ada"], maxLength: Attendee.maxName),
        nested(
          "An attendee with more than a name.", required: ["name"],
          [
            ("name", text("The attendee's name.", maxLength: Attendee.maxName)),
            (
              "zone",
              zone(
                "The attendee's own time zone: 'dinger agenda' shows them the meeting at their local time."
              )
            ),
            (
              "email",
              text(
                "The attendee's email: 'dinger standup' knows you by it (git's user.email), or by your name (user.name)."
              )
            ),
            (
              "away",
              object(
                (
                  "description",
                  "Days the attendee is away: left out of the meeting's rotation, not expected in the written stand-up, not counted absent."
                ),
                ("type", "array"),
                (
                  "items",
                  nested(
                    "A stretch of days away, both ends included.", required: ["from"],
                    [
                      (
                        "from",
                        pattern("First day away, YYYY-MM-DD.", dayPattern, examples: ["2026-12-21"])
                      ),
                      (
                        "until",
                        pattern(
                          "Last day away, YYYY-MM-DD (default: 'from').", dayPattern,
                          examples: ["2027-01-01"])
                      ),
                      ("note", text("Why, for the team (holiday, conference).")),
                    ])
                )
              )
            ),
            (
              "aka",
              object(
                (
                  "description",
                  "Other names the person had (in a tool the team came from, before a rename): stats, the digest, the report and imports count them as this attendee."
                ),
                ("type", "array"),
                ("items", text("Another name of the attendee.", maxLength: Attendee.maxName)),
              )
            ),
            (
              "matrix",
              pattern(
                "The person's Matrix user id: 'dinger collect' writes their replies to the stand-up reminder in the team's room as their entries.",
                Attendee.matrixPattern, examples: ["@nia:example.org"])
            ),
          ]),
      ]
    ))

  static func pattern(_ description: String, _ pattern: String, examples: [String]) -> JSONValue {
    object(
      ("description", .string(description)), ("type", "string"), ("pattern", .string(pattern)),
      ("examples", .array(examples.map { .string($0) })))
  }

  static func zone(_ description: String) -> JSONValue {
    pattern(
      description, "^[A-Za-z0-9_+.-]+(/[A-Za-z0-9_+.-]+)*$",
      examples: ["Europe/Berlin", "America/New_York", "UTC"])
  }

  static let timePattern = "^([01]?[0-9]|2[0-3]):[0-5][0-9]$"
  static let dayPattern = "^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$"
  static let daysPattern =
    "^\\s*((mon|tue|wed|thu|fri|sat|sun)[a-z]*(-(mon|tue|wed|thu|fri|sat|sun)[a-z]*)?|weekdays?|weekends?|daily|every day)(\\s*[, ]\\s*((mon|tue|wed|thu|fri|sat|sun)[a-z]*(-(mon|tue|wed|thu|fri|sat|sun)[a-z]*)?|weekdays?|weekends?|daily|every day))*\\s*$"

  static let schedule = nested(
    "When the scrum meets (docs/schedules.md). 'dinger agenda' lists the coming stand-ups, 'dinger calendar' writes them for calendar apps.",
    required: ["at", "days", "zone"],
    [
      ("at", pattern("Start, HH:MM (24-hour), in 'zone'.", timePattern, examples: ["09:30"])),
      (
        "days",
        object(
          (
            "description",
            "Days of the week: 'weekdays', 'daily', 'mon-thu', 'mon, wed, fri', or a list of days."
          ),
          (
            "anyOf",
            [
              object(("type", "string"), ("pattern", .string(daysPattern))),
              object(
                ("type", "array"), ("minItems", 1),
                ("items", object(("type", "string"), ("pattern", .string(daysPattern))))),
            ]
          ),
          ("examples", ["weekdays", "mon, wed, fri"]))
      ),
      (
        "every",
        pattern(
          "Every N weeks, counted from 'from' (which it then needs): '2 weeks'. Left out: every week.",
          "^\\s*([0-9]{1,2}\\s*(w|wk|wks|weeks?)?|week|weekly|other week|fortnight)\\s*$",
          examples: ["2 weeks"])
      ),
      (
        "zone",
        zone(
          "The IANA time zone 'at' is in; the meeting stays at that time there across daylight saving changes."
        )
      ),
      ("from", pattern("First day, YYYY-MM-DD.", dayPattern, examples: ["2026-12-01"])),
      ("until", pattern("Last day, YYYY-MM-DD.", dayPattern, examples: ["2027-06-30"])),
      (
        "skip",
        object(
          ("description", "Days the scrum does not meet though the schedule says so."),
          ("type", "array"),
          ("items", pattern("A day off, YYYY-MM-DD.", dayPattern, examples: ["2026-12-24"])))
      ),
      (
        "moved",
        object(
          ("description", "Occurrences at another time of the same day: day -> HH:MM."),
          ("type", "object"),
          ("propertyNames", object(("pattern", .string(dayPattern)))),
          (
            "additionalProperties",
            pattern("The time it happens instead.", timePattern, examples: ["11:00"])
          ))
      ),
    ])

  static let scrum = record(
    "dinger scrum", "A team's stand-up meeting: scrums/<slug>.yaml.",
    required: ["title", "length", "attendees"],
    [
      ("id", id("Identity, made by dinger (leave it as it is). Meetings point at it.")),
      (
        "title",
        text(
          "The scrum's name as people say it.", examples: ["Design review"],
          maxLength: Scrum.maxTitle)
      ),
      ("theme", theme),
      ("length", length),
      ("schedule", schedule),
      (
        "attendees",
        object(
          ("description", "Who speaks, in speaking order; at least one."), ("type", "array"),
          ("minItems", 1), ("items", attendee))
      ),
      ("standup", standupSettings),
    ])

  static let questionKeyPattern = "^[a-z][a-z0-9-]{0,39}$"

  static let standupSettings = nested(
    "The written stand-up (docs/standups.md): its questions and the days an entry is expected.",
    required: [],
    [
      (
        "questions",
        object(
          (
            "description",
            "The questions asked, in order (default: yesterday, today; blockers are always asked)."
          ),
          ("type", "array"), ("maxItems", 20),
          (
            "items",
            nested(
              "A question: the key its answers are written under, and how it is asked.",
              required: ["key"],
              [
                (
                  "key",
                  pattern("The answer's key in an entry.", questionKeyPattern, examples: ["risks"])
                ),
                (
                  "ask",
                  text("The question as it is asked.", examples: ["Anything that could slip?"])
                ),
                (
                  "kind",
                  object(
                    (
                      "description",
                      "What an answer is: text (anything, the default), mood (1 low to 5 great, then a word if you like; the digest shows the team's average only) or choice (one of options)."
                    ),
                    ("type", "string"),
                    ("enum", .array(StandupSettings.Question.kinds.map { .string($0) })))
                ),
                (
                  "options",
                  object(
                    ("description", "A choice question's answers."), ("type", "array"),
                    ("items", text("One answer.")))
                ),
              ])
          ))
      ),
      (
        "days",
        object(
          (
            "description",
            "Days an entry is expected (default: the schedule's days, else Monday to Friday)."
          ),
          ("type", "array"),
          (
            "items",
            pattern(
              "A day of the week.", "^(mon|tue|wed|thu|fri|sat|sun)[a-z]*$", examples: ["mon"])
          ))
      ),
      (
        "remind",
        pattern(
          "When each person is reminded to write, HH:MM in their own time zone (the attendee's 'zone', else the scrum's): 'dinger remind' mentions each at their own morning.",
          timePattern, examples: ["09:00"])
      ),
    ])

  static let blockerID = pattern(
    "A blocker's id: 'b' and 8 hex digits ('dinger blockers' lists them).", "^b[0-9a-f]{8}$",
    examples: ["b1f0c2a9d"])

  static let standup = object(
    ("$schema", "https://json-schema.org/draft/2020-12/schema"),
    ("title", "dinger stand-up entry"),
    (
      "description",
      "One teammate's written stand-up for one day: standups/<scrum-slug>/<yyyy-mm-dd>-<person>.yaml. Every key besides scrum, date, by, blockers and resolved answers one of the scrum's questions."
    ),
    ("type", "object"),
    ("required", ["scrum", "date", "by"]),
    (
      "properties",
      properties([
        ("scrum", id("The id of the scrum.")),
        (
          "date",
          pattern("The writer's local day, YYYY-MM-DD.", dayPattern, examples: ["2026-11-27"])
        ),
        ("by", text("The attendee who wrote it.", maxLength: Attendee.maxName)),
        (
          "blockers",
          object(
            (
              "description",
              "What blocks you: a line opens a blocker; {id, text} carries an open one over."
            ),
            ("type", "array"), ("maxItems", .integer(StandupEntry.maxBlockers)),
            (
              "items",
              object(
                (
                  "anyOf",
                  [
                    text("A new blocker."),
                    nested(
                      "An open blocker carried over.", required: ["id"],
                      [("id", blockerID), ("text", text("Its text, reworded if you like."))]),
                  ]
                ))
            ))
        ),
        (
          "resolved",
          object(
            ("description", "Blockers you resolved that day."), ("type", "array"),
            (
              "items",
              object(
                (
                  "anyOf",
                  [
                    blockerID,
                    nested(
                      "A resolved blocker with a note.", required: ["id"],
                      [("id", blockerID), ("note", text("How it was resolved."))]),
                  ]
                ))
            ))
        ),
      ])
    ),
    ("propertyNames", object(("pattern", .string("^[a-z][a-z0-9-]{0,39}$")))),
    (
      "additionalProperties",
      // NB: an empty answer (`today: ''`, `today:`) is no answer, and dinger itself writes
      // `today: ''` for `--today ""`: the schema takes both.
      object(
        (
          "description",
          "The answer to the scrum's question of this key (empty: no answer)."
        ),
        ("type", .array([.string("string"), .string("null")])),
        ("maxLength", .integer(StandupEntry.maxAnswer)),
        ("examples", .array([.string("Cut the release candidate.")]))
      )
    ))

  static let meeting = record(
    "dinger meeting",
    "One meeting of a scrum, recorded by 'dinger meet': history/<scrum-slug>/<yyyy-mm-dd>-<id8>.yaml.",
    required: ["scrum", "date"],
    [
      ("id", id("Identity, made by dinger.")),
      (
        "scrum", id("The id of the scrum this meeting belongs to (the 'id' in scrums/<slug>.yaml).")
      ),
      ("date", dateTime("When the meeting started, in UTC (ISO 8601).")),
      ("length", length),
      ("duration", integer("How long the meeting actually took, in seconds.", minimum: 0)),
      (
        "imported",
        text(
          "The app the meeting was imported from ('dinger import'): scrumdinger or syncups. Such a meeting may leave out the length and duration the app never kept.",
          examples: ["scrumdinger"])
      ),
      (
        "attendees",
        object(
          ("description", "Who was expected, as the scrum listed them at the time."),
          ("type", "array"),
          ("items", text("An attendee's name.")))
      ),
      (
        "speakers",
        object(
          ("description", "Time per speaker, in speaking order."), ("type", "array"),
          (
            "items",
            nested(
              "How long one person spoke.", required: ["name", "seconds"],
              [
                ("name", text("The speaker's name.")),
                ("seconds", integer("Seconds spoken.", minimum: 0)),
              ])
          ))
      ),
      ("transcript", optionalText("Notes typed after the meeting.")),
      (
        "turns",
        object(
          (
            "description",
            "What was said, by speaker, as 'dinger meet --transcribe' heard it; in the order spoken."
          ),
          ("type", "array"),
          (
            "items",
            nested(
              "One speaker's turn.", required: ["speaker", "start"],
              [
                ("speaker", text("Who spoke (an attendee's name).")),
                ("start", integer("Seconds from the start of the meeting.", minimum: 0)),
                ("text", optionalText("What the recognizer heard (empty when it heard nothing).")),
              ])
          ))
      ),
    ]
  ).adding(
    "anyOf",
    [
      object(("required", ["length", "duration"])),
      object(
        ("description", "An imported meeting may leave its unknown length or duration out."),
        ("required", ["imported"])),
    ])

  static let library = record(
    "dinger word library", "A shared word list for quizzes: libraries/<slug>.yaml.",
    required: ["name", "language"],
    [
      ("id", id("Identity, made by dinger. Quiz results point at it.")),
      ("name", text("The library's name.", examples: ["Spanish basics"])),
      ("language", language("The words' language, as a BCP 47 tag.")),
      (
        "words",
        object(
          ("description", "The words; each text once, ignoring case."), ("type", "array"),
          (
            "items",
            nested(
              "A word and what it means.", required: ["text"],
              [
                ("text", text("The word as written.", examples: ["agua"])),
                ("phonetic", optionalText("How it sounds, in IPA.")),
                (
                  "meanings",
                  object(
                    ("description", "Its meanings."), ("type", "array"),
                    (
                      "items",
                      nested(
                        "One meaning.", required: ["definition"],
                        [
                          ("partOfSpeech", optionalText("noun, verb, adjective, ...")),
                          ("definition", text("What it means.", examples: ["water"])),
                          ("example", optionalText("A sentence that uses it.")),
                        ])
                    ))
                ),
              ])
          ))
      ),
    ])

  static let quiz = record(
    "dinger quiz result",
    "One quiz over a word library: quizzes/<library-slug>/<yyyy-mm-dd>-<id8>.yaml.",
    required: ["library", "date", "questions"],
    [
      ("id", id("Identity, made by dinger.")),
      ("library", id("The id of the word library quizzed.")),
      ("date", dateTime("When the quiz started, in UTC (ISO 8601).")),
      ("seconds", integer("Seconds allowed per question.", minimum: 1)),
      (
        "questions",
        object(
          ("description", "The questions asked, in order; at least one."), ("type", "array"),
          ("minItems", 1),
          (
            "items",
            nested(
              "One question and its answer.", required: ["word", "correct"],
              [
                ("word", text("The word asked about.")),
                (
                  "correct",
                  object(("description", "Whether the answer was right."), ("type", "boolean"))
                ),
              ])
          ))
      ),
    ])

  static let config = record(
    "dinger data repository settings", ".dinger/config.yaml: the data format and team defaults.",
    required: ["format"],
    [
      (
        "format",
        object(
          (
            "description",
            .string("The data format version; this dinger writes \(RepoConfig.currentFormat).")
          ),
          ("type", "integer"), ("minimum", 1), ("maximum", .integer(RepoConfig.currentFormat)))
      ),
      ("language", language("The team's default language for new word libraries.")),
      (
        "meet",
        nested(
          "Settings for 'dinger meet'.", required: [],
          [
            (
              "sound",
              object(
                (
                  "description",
                  "Play a ding through the sound server at each speaker change, as --sound does (the terminal bell where no sound server runs)."
                ),
                ("type", "boolean"))
            )
          ])
      ),
      (
        "quiz",
        nested(
          "Defaults for 'dinger quiz'.", required: [],
          [
            ("questions", integer("Questions per quiz.", 1...100)),
            ("seconds", integer("Seconds per question.", 1...600)),
          ])
      ),
      (
        "dictionary",
        nested(
          "Where 'dinger word lookup' and 'word random' ask.", required: [],
          [
            (
              "definitions",
              object(
                ("description", "A Free-Dictionary-API-compatible server."), ("type", "string"),
                ("format", "uri"), ("examples", ["https://api.dictionaryapi.dev"]))
            ),
            (
              "randomWords",
              object(
                ("description", "A random-word server."), ("type", "string"), ("format", "uri"))
            ),
            (
              "timeout",
              object(
                ("description", "Seconds to wait for an answer, more than 0 and at most 120."),
                ("type", "number"), ("exclusiveMinimum", 0), ("maximum", 120))
            ),
          ])
      ),
    ])

  static let origin = nested(
    "Who wrote this value, and in which commit.", required: ["side", "author", "commit"],
    [
      ("side", object(("type", "string"), ("enum", ["ours", "theirs"]))),
      ("author", text("Name and email.")),
      ("commit", object(("type", "string"), ("pattern", "^[0-9a-f]{4,40}$"))),
    ])

  static let conflict = record(
    "dinger conflict record",
    "A value a sync could not place: .dinger/conflicts/<id8>.yaml, settled with 'dinger resolve'. Written by dinger; edit only to fix it.",
    required: ["id", "file", "field", "path", "kind", "kept_from", "other_from", "recorded"],
    [
      ("id", id("Identity of this conflict.")),
      ("file", text("The data file the value belongs in.")),
      ("record", object(("description", "The id of the record in that file."), ("type", "string"))),
      ("field", text("The field, as people read it (attendees[Bob].name).")),
      (
        "path",
        object(
          ("description", "The field as stored."), ("type", "array"), ("items", ["type": "string"]))
      ),
      (
        "kind",
        object(
          (
            "description", "edit: both changed it; delete: one side removed what the other changed."
          ), ("type", "string"), ("enum", ["edit", "delete"]))
      ),
      ("kept", object(("description", "The value now in the data."))),
      ("kept_from", origin),
      ("other", object(("description", "The value not taken (null when that side deleted it)."))),
      ("other_from", origin),
      ("recorded", dateTime("When the sync recorded it.")),
    ])
}

extension JSONValue: ExpressibleByDictionaryLiteral {
  public init(dictionaryLiteral elements: (String, JSONValue)...) {
    self = .object(elements.map { Member($0.0, $0.1) })
  }
}
