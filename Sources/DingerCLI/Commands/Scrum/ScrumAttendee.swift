import ArgumentParser
import Base
import FoundationEssentials
import Glibc
import Models
import Providers

extension ScrumCommand {
  /// `dinger scrum attendee add|rm S NAME...`.
  struct AttendeeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "attendee",
      abstract: "Add or remove attendees of a scrum.",
      discussion: """
        Examples:
          dinger scrum attendee add design Bob "Eve Smith"
          dinger scrum attendee rm design Bob
          dinger scrum attendee away design Bob --from 2026-12-21 --until 2027-01-01
        """,
      subcommands: [Add.self, Remove.self, Rename.self, Away.self])

    /// `dinger scrum attendee add S NAME...`.
    struct Add: ParsableCommand {
      static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add attendees (at the end, in order).")

      @OptionGroup var global: GlobalOptions
      @Argument(help: "The scrum: slug, title or id prefix.", completion: Completions.scrums)
      var scrum: String
      @Argument(help: "Names to add (several in one with commas: \"Ada, Bob\").") var names:
        [String]

      func validate() throws {
        if names.isEmpty { throw ValidationError("give at least one name to add") }
        if names.contains(where: { $0.trimmingSpaces().isEmpty }) {
          throw ValidationError("an attendee's name must not be empty")
        }
      }

      func run() throws {
        try changeAttendees(global: global, scrum: scrum) { stored, new in
          for name in splitNames(names) {
            let key = Attendee(name: name).naturalKey
            if let existing = new.attendees.first(where: { $0.naturalKey == key }) {
              throw CLIError("'\(existing.name)' is already an attendee of \(stored.scrum.title)")
            }
            new.attendees.append(Attendee(name: name))
          }
        }
      }
    }

    /// `dinger scrum attendee rename S OLD NEW`.
    struct Rename: ParsableCommand {
      static let configuration = CommandConfiguration(
        commandName: "rename",
        abstract: "Rename an attendee across the scrum's whole history, in one commit.",
        discussion: """
          The scrum, every meeting that names them (attendees and speakers) and every written \
          stand-up entry of theirs (its file moves to the new name's) change together; their \
          blockers keep their ids. Other names a person goes by (from a tool the team came \
          from) can stay as they are: list them under the attendee's 'aka:' instead.

          Examples:
            dinger scrum attendee rename platform Nia "Nia Newcomer"
            dinger scrum attendee rename design "Grace H" "Grace Hopper"
          """)

      @OptionGroup var global: GlobalOptions
      @Argument(help: "The scrum: slug, title or id prefix.", completion: Completions.scrums)
      var scrum: String
      @Argument(help: "The attendee's name now.") var old: String
      @Argument(help: "The new name.") var new: String

      func run() throws {
        try reporting {
          let repository = try global.repository()
          let provider = ScrumProvider.live(repository: repository)
          let stored = try provider.find(scrum)
          let done = try provider.renameAttendee(stored, from: old, to: new)
          Terminal.output(done.subject + "\n")
        }
      }
    }

    /// `dinger scrum attendee rm S NAME...`.
    struct Remove: ParsableCommand {
      static let configuration = CommandConfiguration(
        commandName: "rm", abstract: "Remove attendees (a scrum keeps at least one).")

      @OptionGroup var global: GlobalOptions
      @Argument(help: "The scrum: slug, title or id prefix.", completion: Completions.scrums)
      var scrum: String
      @Argument(help: "Names to remove (any case).") var names: [String]

      func validate() throws {
        if names.isEmpty { throw ValidationError("give at least one name to remove") }
      }

      func run() throws {
        try changeAttendees(global: global, scrum: scrum) { stored, new in
          for name in names {
            let key = Attendee(name: name).naturalKey
            guard let index = new.attendees.firstIndex(where: { $0.naturalKey == key }) else {
              let hint = Suggestions.hint(for: name, in: new.attendees.map(\.name))
              throw CLIError("'\(name)' is not an attendee of \(stored.scrum.title)\(hint)")
            }
            new.attendees.remove(at: index)
          }
          if new.attendees.isEmpty {
            throw CLIError(
              "a scrum needs at least one attendee; add someone before removing the last")
          }
        }
      }
    }
  }
}

extension ScrumCommand.AttendeeCommand {
  /// `dinger scrum attendee away S NAME --from D [--until D] [--note T]`, or `--back`.
  struct Away: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "away",
      abstract: "Mark an attendee away for some days (or, with --back, no longer away).",
      discussion: """
        Someone away is left out of the meeting's rotation, not expected in the written \
        stand-up, not counted absent in stats and report, and named in agenda and the calendar.

        Examples:
          dinger scrum attendee away design Bob --from 2026-12-21 --until 2027-01-01
          dinger scrum attendee away design Bob --from tomorrow --note dentist
          dinger scrum attendee away design Bob --back --from 2026-12-21
        """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The scrum: slug, title or id prefix.", completion: Completions.scrums)
    var scrum: String
    @Argument(help: "The attendee.") var name: String
    @Option(help: "The first day away (2026-12-21, tomorrow).") var from: String
    @Option(help: "The last day away (default: the first).") var until: String?
    @Option(help: "Why, for the team (holiday, conference).") var note: String?
    @Flag(help: "Remove the absence that starts on --from.") var back = false

    func run() throws {
      let first = try typedDay(from, option: "--from").description
      let last = try until.map { try typedDay($0, option: "--until").description } ?? first
      try changeAttendees(global: global, scrum: scrum) { stored, new in
        let key = Attendee(name: name).naturalKey
        guard let i = new.attendees.firstIndex(where: { $0.naturalKey == key }) else {
          let hint = Suggestions.hint(for: name, in: new.attendees.map(\.name))
          throw CLIError("'\(name)' is not an attendee of \(stored.scrum.title)\(hint)")
        }
        if back {
          let before = new.attendees[i].away.count
          new.attendees[i].away.removeAll { $0.from == first }
          if new.attendees[i].away.count == before {
            throw CLIError("\(new.attendees[i].name) has no absence from \(first)")
          }
          return
        }
        let absence = Absence(from: first, until: last, note: note)
        if let problem = Absence.problem(absence) { throw CLIError(problem) }
        if let note, let problem = OneLineText.problem(note, field: "note") {
          throw CLIError(problem)
        }
        guard !new.attendees[i].away.contains(absence) else {
          throw CLIError("\(new.attendees[i].name) is already away then")
        }
        new.attendees[i].away.append(absence)
      }
    }
  }
}

extension ParsableCommand {
  /// Finds the scrum, lets `change` edit its attendees as committed at the moment of the
  /// change (under the writer lock), and commits the result.
  func changeAttendees(
    global: GlobalOptions, scrum: String, _ change: (StoredScrum, inout Scrum) throws -> Void
  ) throws {
    try reporting {
      let provider = ScrumProvider.live(repository: try global.repository())
      let stored = try provider.find(scrum)
      let result = try provider.update(stored) { new in try change(stored, &new) }
      Terminal.output(result.subject + "\n")
      for warning in result.warnings { Terminal.error("warning: \(warning)\n") }
    }
  }
}
