import ArgumentParser
import Base
import Components
import FoundationEssentials
import Glibc
import Models
import Providers

/// Waits `seconds` between attempts to post; `DINGER_TEST_RETRY_MS` (tests only) is how many
/// milliseconds a second of waiting lasts.
func retryWait(_ seconds: Double) {
  let scale =
    ProcessInfo.processInfo.environment["DINGER_TEST_RETRY_MS"].flatMap(Double.init) ?? 1000
  usleep(UInt32(max(0, seconds * scale * 1000)))
}

/// `dinger digest [S...]`: what happened, for the team's channel.
struct DigestCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "digest",
    abstract: "What happened: written entries, blockers, meetings held and missed, who is away.",
    discussion: """
      The period is today (your local day) unless --since or --until say otherwise. Formats: \
      text, markdown, json, and the messages chat services take: slack (Block Kit), \
      mattermost and rocketchat (Slack's webhook form), teams (an Adaptive Card), discord, \
      matrix (m.room.message with an HTML body). A digest longer than a service takes is \
      several messages: then a JSON array of them is printed.

      Examples:
        dinger digest
        dinger digest platform --since yesterday --format markdown
        dinger digest --since "7 days ago" --format slack
        dinger digest --post env:DISCORD_WEBHOOK
      """)

  @OptionGroup var global: GlobalOptions
  @Argument(help: "Only these scrums (default: all).", completion: Completions.scrums)
  var scrums: [String] = []
  @Option(help: "The first day (default: today).") var since: String?
  @Option(help: "The last day (default: today).") var until: String?
  @Option(help: ArgumentHelp(ChatPosting.help)) var format: String?
  @Option(
    help:
      "Send it to a chat service's incoming webhook: env:NAME reads its secret address from the environment variable NAME (an https address here is visible in the process list). Or a Matrix room (matrix://HOST/#alias:server; the token from MATRIX_ACCESS_TOKEN)."
  )
  var post: String?
  @Flag(help: "With --post: print what would be sent, send nothing.") var dryRun = false

  func run() throws {
    try reporting {
      let post = try PostTarget.resolve(self.post)
      let format = try ChatPosting.format(self.format, post: post)
      let repository = try global.repository()
      let insights = InsightsProvider.live(repository: repository)
      let only = scrums.isEmpty ? nil : try scrums.map { try insights.scrums.find($0) }
      let today = localDay(currentDate())
      let to = try until.map { try typedDay($0, option: "--until") } ?? today
      let from = try since.map { try typedDay($0, option: "--since") } ?? to
      guard from <= to else {
        throw CLIError("--since \(from) is after --until \(to); give the first day first")
      }
      let start = userDate(from.description) ?? currentDate()
      let end = min(userDateEnd(to.description) ?? currentDate(), currentDate())
      let digest = try insights.digest(only: only, from: from, to: to, start: start, end: end)
      let messages = try DigestViews.messages(digest, format: format, zone: userZone)
      if let post, !dryRun, let service = format.service {
        let period = from == to ? "\(from)" : "\(from)..\(to)"
        // NB: one digest posting at a time: a second waits, then sends only what is missing.
        let done = try repository.exclusively("post.lock") {
          try ChatPosting.post(
            messages, to: post, service: service, repository: repository, period: period)
        }
        Terminal.output(done.sentence + "\n")
        return
      }
      if messages.count == 1 || format == .text || format == .markdown {
        Terminal.output(messages.joined(separator: "\n"))
      } else {
        Terminal.output("[\n" + messages.map { $0.trimmed }.joined(separator: ",\n") + "\n]\n")
      }
    }
  }
}
