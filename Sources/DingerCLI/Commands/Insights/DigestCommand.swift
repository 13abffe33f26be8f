import ArgumentParser
import Base
import Components
import FoundationEssentials
import Glibc
import Models
import Providers

/// Why `--post` can't send this: the address, or a format no webhook takes.
func postRefusal(_ post: String, format: DigestViews.Format) -> String {
  guard URL(string: post)?.host != nil else {
    return "--post takes a webhook's https address; this one does not read as one"
  }
  return
    "--post sends a chat service's message: choose its format with --format slack, mattermost, rocketchat, teams or discord (not \(format.rawValue))"
}

/// Waits `seconds` between attempts to post; `DINGER_TEST_RETRY_MS` (tests only) is how many
/// milliseconds a second of waiting lasts.
func retryWait(_ seconds: Double) {
  let scale =
    ProcessInfo.processInfo.environment["DINGER_TEST_RETRY_MS"].flatMap(Double.init) ?? 1000
  usleep(UInt32(max(0, seconds * scale * 1000)))
}

/// Posts to a Matrix room (`matrix://HOST/ROOM`), the token from `MATRIX_ACCESS_TOKEN` or git's
/// credential helper; what to print.
func postToMatrix(_ messages: [String], _ post: String, format: DigestViews.Format) throws
  -> String
{
  guard let target = MatrixPoster.target(post) else {
    throw CLIError(
      "'\(post)' is not a Matrix room's address: write matrix://HOST[:PORT]/!ROOM-ID or matrix://HOST/#alias:server (matrix+http:// for a homeserver on this machine)"
    )
  }
  guard format == .matrix else {
    throw CLIError("a Matrix room takes --format matrix")
  }
  guard
    let token = MatrixPoster.token(for: target, environment: ProcessInfo.processInfo.environment)
  else {
    throw CLIError(
      "no access token for \(target.host): set MATRIX_ACCESS_TOKEN, or store it as the password for \(target.host) in git's credential helper"
    )
  }
  let sent = try MatrixPoster.post(messages, to: target, token: token)
  return "posted \(sent) message\(sent == 1 ? "" : "s") to \(target.room) on \(target.host)\n"
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
        dinger digest --format discord --post env:DISCORD_WEBHOOK
      """)

  @OptionGroup var global: GlobalOptions
  @Argument(help: "Only these scrums (default: all).", completion: Completions.scrums)
  var scrums: [String] = []
  @Option(help: "The first day (default: today).") var since: String?
  @Option(help: "The last day (default: today).") var until: String?
  @Option(help: "text, markdown, json, slack, mattermost, rocketchat, teams, discord or matrix.")
  var format: String = "text"
  @Option(
    help:
      "Send it to a chat service's incoming webhook: env:NAME reads its secret address from the environment variable NAME (an https address here is visible in the process list). Or a Matrix room (matrix://HOST/#alias:server; the token from MATRIX_ACCESS_TOKEN)."
  )
  var post: String?
  @Flag(help: "With --post: print what would be sent, send nothing.") var dryRun = false

  func run() throws {
    try reporting {
      guard let format = DigestViews.Format(rawValue: format.lowercased()) else {
        throw CLIError(
          "--format '\(format)' is not one dinger writes; use one of: \(DigestViews.Format.allCases.map(\.rawValue).joined(separator: ", "))"
        )
      }
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
      let post = try PostTarget.resolve(self.post)
      if let post, !dryRun, post.lowercased().hasPrefix("matrix") {
        Terminal.output(try postToMatrix(messages, post, format: format))
        return
      }
      if let post, !dryRun {
        guard let url = URL(string: post),
          [.slack, .mattermost, .rocketchat, .teams, .discord].contains(format)
        else {
          throw CLIError(
            postRefusal(post, format: format))
        }
        let sent = try DigestPoster.post(
          messages, to: url,
          wait: retryWait)
        Terminal.output(
          "posted \(sent) message\(sent == 1 ? "" : "s") to \(DigestPoster.shown(url))\n")
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
