import ArgumentParser
import Base
import Components
import FoundationEssentials
import Glibc
import Models
import Providers

extension ScrumCommand {
  /// `dinger scrum new TITLE`.
  struct New: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "new",
      abstract: "Add a scrum (one commit).",
      discussion: """
        Without --theme the scrum gets the first theme no scrum uses yet; without --length, 5 \
        minutes. Without a title, opens a commented template in $EDITOR (the repository's \
        .dinger/templates/scrum.yaml, else dinger's own) and keeps what you write, comments \
        too; the template's own instructions are left out of the file.

        Examples:
          dinger scrum new
          dinger scrum new "Design Review" --attendee Ada --attendee Grace
          dinger scrum new "App Dev" --theme orange --attendee Katie --attendee Gray
          dinger scrum new Ops --attendee Cy --at 09:30 --zone Europe/Berlin
        """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var fields: ScrumFields
    @OptionGroup(title: "Schedule") var schedule: ScheduleOptions

    @Argument(help: "The title (leave out to write the scrum in $EDITOR).")
    var title: String?

    @Option(
      name: .customLong("attendee"),
      help:
        "An attendee; repeat for each, in speaking order (or several with commas: \"Ada, Bob\").")
    var attendees: [String] = []

    func validate() throws {
      if title == nil {
        if !attendees.isEmpty || fields.theme != nil || fields.length != nil
          || fields.standupDays != nil || schedule.given
        {
          throw ValidationError(
            "give a title with --attendee, --theme or --length, or none of them to use $EDITOR")
        }
        return
      }
      if let length = fields.length?.minutes, !Scrum.lengthRange.contains(length) {
        throw ValidationError("--length must be from 1 to 600 minutes, found \(length)")
      }
    }

    func run() throws {
      // NB: here, not in validate(): ArgumentParser validates before it reports an unknown
      // option, so a misspelled --atendee read as "no attendee".
      if title != nil && attendees.isEmpty {
        throw ValidationError("a scrum needs at least one attendee; add --attendee NAME")
      }
      try reporting {
        let repository = try global.repository()
        let provider = ScrumProvider.live(repository: repository)
        guard let title else {
          try writeInEditor(
            repository.template(for: .scrum) ?? "", provider: provider, repository: repository)
          return
        }
        let scrum = Scrum(
          title: title, theme: fields.theme?.theme, length: fields.length?.minutes ?? 5,
          attendees: splitNames(attendees).map({ Attendee(name: $0) }))
        var withSchedule = scrum
        try fields.applyStandupDays(to: &withSchedule)
        if schedule.given {
          withSchedule.schedule = try schedule.change.apply(
            to: nil, viewer: ViewerClock(now: currentDate()))
        }
        let result = try provider.add(withSchedule)
        Terminal.output("\(result.subject) (\(result.stored.path))\n")
      }
    }

    private func writeInEditor(
      _ template: String, provider: ScrumProvider, repository: Workspace
    ) throws {
      let added = try Editor.editUntilValid(
        template, name: "new-scrum", repository: repository,
        instead: "'dinger scrum new TITLE --attendee NAME ...'",
        emptyMessage: "the file was left empty; no scrum added",
        errorsMessage: "the new scrum has errors; nothing was added"
      ) { try provider.add(text: TemplateText.withoutInstructions($0, template: template)) }
      if let added { Terminal.output("\(added.subject) (\(added.stored.path))\n") }
    }
  }
}
