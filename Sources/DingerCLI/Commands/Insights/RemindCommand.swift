import ArgumentParser
import Base
import Components
import FoundationEssentials
import Glibc
import Models
import Providers

/// `dinger remind [--before 10m] [--post WEBHOOK --format F]`.
struct RemindCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "remind",
    abstract: "Remind the team of each stand-up about to start (run it every few minutes).",
    discussion: """
      For each stand-up starting within --before, prints (or posts) a reminder with each \
      attendee's local time and who has not written their entry yet (the absent are named \
      nowhere). Run it from cron, a systemd timer or a CI schedule: it remembers what it sent \
      (.git/dinger/reminders-v1.tsv), so running it twice in one window reminds once.

      Examples:
        dinger remind
        dinger remind --before 15m --format slack --post env:SLACK_WEBHOOK
        dinger remind --notify             (a desktop notification)
        */5 * * * * cd ~/standups && dinger sync -q; dinger remind --post env:HOOK ...
      """)

  @OptionGroup var global: GlobalOptions
  @Option(parsing: .unconditional, help: "How long before a stand-up to remind: 10m, 1h.")
  var before: MinutesArgument = MinutesArgument(argument: "10m")!
  @Option(help: "text, markdown, json, slack, mattermost, rocketchat, teams, discord or matrix.")
  var format: String = "text"
  @Option(
    help:
      "Send each reminder to a chat service's incoming webhook: env:NAME reads its secret address from the environment variable NAME. Or a Matrix room (matrix://HOST/#alias:server)."
  )
  var post: String?
  @Flag(help: "Show each reminder on this desktop (notify-send).") var notify = false
  @Flag(help: "Print what would be sent; remember nothing.") var dryRun = false

  func run() throws {
    try reporting {
      let repository = try global.repository()
      let reminders = Reminders(repository: repository)
      if notify, post != nil {
        throw CLIError("--notify and --post send to different places; run remind once for each")
      }
      let post = try PostTarget.resolve(self.post)
      let target = notify ? "notify-send" : post ?? "stdout"
      let due = try reminders.due(
        before: before.minutes * 60, viewer: ViewerClock(now: currentDate()), target: target)
      guard !due.isEmpty else { return }
      guard let format = DigestViews.Format(rawValue: format.lowercased()) else {
        throw CLIError(
          "--format '\(format)' is not one dinger writes; use one of: \(DigestViews.Format.allCases.map(\.rawValue).joined(separator: ", "))"
        )
      }
      if notify {
        for reminder in due {
          if dryRun {
            Terminal.output(try DigestViews.note(reminder.text, format: .text))
            continue
          }
          try DesktopNotifier.notify(summary: "Stand-up: \(reminder.scrum)", body: reminder.text)
          reminders.remember([reminder])
        }
        return
      }
      let payloads = try due.map { r in try DigestViews.note(r.text, format: format) }
      if let post, !dryRun, post.lowercased().hasPrefix("matrix") {
        // NB: one message per reminder, each remembered once sent.
        for (reminder, payload) in zip(due, payloads) {
          _ = try postToMatrix([payload], post, format: format)
          reminders.remember([reminder])
        }
        Terminal.output(
          "reminded of \(due.count) stand-up\(due.count == 1 ? "" : "s") in \(MatrixPoster.target(post).map { "\($0.room) on \($0.host)" } ?? "the Matrix room")\n"
        )
        return
      }
      if let post, !dryRun {
        guard let url = URL(string: post), url.host != nil else {
          throw CLIError("--post takes a webhook's https address; this one does not read as one")
        }
        guard ![.text, .markdown, .json, .matrix].contains(format) else {
          throw CLIError(
            "--post sends a chat service's message: choose its format with --format slack, mattermost, rocketchat, teams or discord"
          )
        }
        for (reminder, payload) in zip(due, payloads) {
          _ = try DigestPoster.post(
            [payload], to: url,
            wait: retryWait)
          // NB: remembered one by one: a failure after the first keeps the first sent.
          reminders.remember([reminder])
        }
        Terminal.output(
          "reminded of \(due.count) stand-up\(due.count == 1 ? "" : "s") at \(DigestPoster.shown(url))\n"
        )
        return
      }
      Terminal.output(payloads.joined())
      if !dryRun { reminders.remember(due) }
    }
  }
}
