import ArgumentParser
import Base
import Components
import FoundationEssentials
import Glibc
import Models
import Providers

extension ScrumCommand {
  /// `dinger scrum edit S [--title --theme --length]`, or `$EDITOR` on the file.
  struct Edit: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "edit",
      abstract: "Change a scrum's title, theme, length or schedule, or edit its file in $EDITOR.",
      discussion: """
        With no options, opens the scrum's file in $VISUAL or $EDITOR (else vi). When you save \
        and quit, dinger checks the file; if it has errors it opens it again with the errors \
        on top, like git commit. Saving an unchanged file, or an empty one, changes nothing. \
        What you typed is committed byte for byte, comments included.

        Examples:
          dinger scrum edit design --length 15
          dinger scrum edit design --title "Design Sync" --theme sky
          dinger scrum edit design --at 09:30 --days mon-fri --zone Europe/Berlin
          dinger scrum edit design --every 2w --days tue,thu
          dinger scrum edit design --skip 2026-12-24 --move 2027-01-07=11:00
          dinger scrum edit design --no-schedule
          EDITOR=nano dinger scrum edit design
        """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var fields: ScrumFields
    @OptionGroup(title: "Schedule") var schedule: ScheduleOptions

    @Argument(help: "The scrum: slug, title or id prefix.", completion: Completions.scrums)
    var scrum: String

    @Option(help: "A new title.")
    var title: String?

    func validate() throws {
      if let length = fields.length?.minutes, !Scrum.lengthRange.contains(length) {
        throw ValidationError("--length must be from 1 to 600 minutes, found \(length)")
      }
      if let title, title.trimmingSpaces().isEmpty {
        throw ValidationError("--title must not be empty")
      }
    }

    func run() throws {
      try reporting {
        let repository = try global.repository()
        let provider = ScrumProvider.live(repository: repository)
        let stored = try provider.find(scrum)
        guard
          title != nil || fields.theme != nil || fields.length != nil || fields.standupDays != nil
            || schedule.given
        else {
          try editInEditor(stored, provider: provider, repository: repository)
          return
        }
        report(
          try provider.update(stored) { new in
            if let title { new.title = title }
            if let theme = fields.theme { new.theme = theme.theme }
            if let length = fields.length?.minutes { new.length = length }
            try fields.applyStandupDays(to: &new)
            if schedule.given {
              new.schedule = try schedule.change.apply(
                to: new.schedule, viewer: ViewerClock(now: currentDate()))
            }
          })
      }
    }

    private func editInEditor(
      _ stored: StoredScrum, provider: ScrumProvider, repository: Workspace
    ) throws {
      let root = repository.root
      let original = try String(
        contentsOf: root.appendingPathComponent(stored.path), encoding: .utf8)
      let result = try Editor.editUntilValid(
        original, name: stored.slug, repository: repository,
        instead: "'dinger scrum edit \(stored.slug) --title T --theme C --length 15'",
        emptyMessage:
          "the file was left empty; nothing changed (remove a scrum with 'dinger scrum rm')",
        errorsMessage: "the edited file has errors; nothing changed"
      ) { (edited: String) throws -> Result<ScrumCommit, DiagnosticList>? in
        guard edited != original else { return nil }
        do {
          return try provider.replace(stored, with: edited, original: original)
        } catch let conflict as EditConflict {
          let saved = try Editor.keep(edited, name: stored.slug, root: root)
          let fields =
            conflict.fields.isEmpty ? "" : " (\(conflict.fields.joined(separator: ", ")))"
          throw CLIError(
            "\(stored.path) was changed by someone else while you edited it, in the same places\(fields); nothing was written, and your text is kept in \(saved.path): run 'dinger scrum edit \(stored.slug)' and copy your changes over"
          )
        }
      }
      guard let result else {
        Terminal.output("nothing to change\n")
        return
      }
      report(result)
    }

    private func report(_ result: ScrumCommit) {
      if result.commit == nil {
        Terminal.output("nothing to change\n")
        return
      }
      Terminal.output(result.subject + "\n")
      for warning in result.warnings { Terminal.error("warning: \(warning)\n") }
      for issue in result.stored.scrum.schedule?.validate(at: []) ?? []
      where issue.severity == .warning {
        Terminal.error("warning: \(issue.message)\n")
      }
    }
  }
}
