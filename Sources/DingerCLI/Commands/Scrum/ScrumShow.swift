import ArgumentParser
import Base
import Components
import FoundationEssentials
import Glibc
import Providers

extension ScrumCommand {
  /// `dinger scrum show S`.
  struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "show",
      abstract: "Show one scrum.",
      discussion: """
        Examples:
          dinger scrum show design
          dinger scrum show "Design Review" --json
        """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    @Argument(help: "The scrum: slug, title or id prefix.", completion: Completions.scrums)
    var scrum: String

    func run() throws {
      try reporting {
        let provider = ScrumProvider.live(repository: try global.repository())
        let stored = try provider.find(scrum)
        let meetings = try provider.meetingPaths(of: stored).count
        if output.json {
          Terminal.output(try JSONView.render(ScrumJSON(stored, meetings: meetings)))
        } else {
          Terminal.output(
            ScrumDetailView(
              scrum: stored.scrum, path: stored.path, meetings: meetings,
              color: Terminal.colorOnStdout
            ).render())
        }
      }
    }
  }
}
