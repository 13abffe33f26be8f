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
        dinger remind --before 15m --post env:SLACK_WEBHOOK
        dinger remind --notify             (a desktop notification)
        */5 * * * * cd ~/standups && dinger sync -q; dinger remind --post env:HOOK ...
      """)

  @OptionGroup var global: GlobalOptions
  @Option(parsing: .unconditional, help: "How long before a stand-up to remind: 10m, 1h.")
  var before: MinutesArgument = MinutesArgument(argument: "10m")!
  @Option(help: ArgumentHelp(ChatPosting.help)) var format: String?
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
      let format = try ChatPosting.format(self.format, post: post)
      let target = notify ? "notify-send" : post ?? "stdout"
      guard !dryRun else {
        let due = try reminders.due(
          before: before.minutes * 60, viewer: ViewerClock(now: currentDate()), target: target)
        let shown: DigestViews.Format = notify ? .text : format
        Terminal.output(try due.map { try DigestViews.note($0.text, format: shown) }.joined())
        return
      }
      // NB: what is due, its sending and its memory, one dinger at a time: two runs started
      // together (a slow sync; remind overlapping the next cron tick) remind once.
      let said = try repository.exclusively("remind.lock") {
        let due = try reminders.due(
          before: before.minutes * 60, viewer: ViewerClock(now: currentDate()), target: target)
        guard !due.isEmpty else { return "" }
        if notify {
          for reminder in due {
            try DesktopNotifier.notify(summary: "Stand-up: \(reminder.scrum)", body: reminder.text)
            reminders.remember([reminder])
          }
          return ""
        }
        guard let post, let service = format.service else {
          reminders.remember(due)
          return try due.map {
            let note = try DigestViews.note($0.text, format: format)
            return format == .matrix ? try Self.mentioning($0.mentions, in: note) : note
          }.joined()
        }
        var shown = ""
        let scrums = ScrumProvider.live(repository: repository)
        for reminder in due {
          var message = try DigestViews.note(reminder.text, format: format)
          if service == .matrix, let stored = try? scrums.find(reminder.slug) {
            message = try Self.threadRoot(message, reminder: reminder, scrum: stored)
          }
          // NB: each reminder remembered once it is sent: a failure after the first keeps the
          // first sent.
          shown = try ChatPosting.post(
            [message], to: post, service: service, repository: repository, period: reminder.key
          ).shown
          reminders.remember([reminder])
        }
        return "reminded of \(due.count) stand-up\(due.count == 1 ? "" : "s") at \(shown)\n"
      }
      Terminal.output(said)
    }
  }

  /// A Matrix reminder as the root of the stand-up's thread: its text says how to answer
  /// (`dinger collect` reads the replies), and its content names the scrum
  /// (`org.dinger.standup`), which only the token's own user's events are trusted for.
  static func threadRoot(_ message: String, reminder: Reminders.Reminder, scrum: StoredScrum)
    throws -> String
  {
    let asked = (scrum.scrum.standup ?? StandupSettings()).asked
    let hint = ChatReply.howToAnswer(asked)
    var text = try DigestViews.note(reminder.text + ". " + hint, format: .matrix)
    struct Root: Encodable {
      var scrum: String
      var id: String?
    }
    let root = String(
      decoding: try JSONEncoder().encode(
        Root(scrum: scrum.slug, id: scrum.scrum.id?.lowercased)), as: UTF8.self)
    guard text.hasPrefix("{") else { return message }
    text.insert(
      contentsOf: "\"org.dinger.standup\":\(root),", at: text.index(after: text.startIndex))
    return try mentioning(reminder.mentions, in: text)
  }

  /// A Matrix message that mentions `ids` on purpose (`m.mentions.user_ids`): a personal
  /// reminder pings exactly the people whose morning it is, and no one else.
  static func mentioning(_ ids: [String], in message: String) throws -> String {
    guard !ids.isEmpty, message.containsText("\"m.mentions\":{}") else { return message }
    struct Mentions: Encodable { var user_ids: [String] }
    let json = String(decoding: try JSONEncoder().encode(Mentions(user_ids: ids)), as: UTF8.self)
    return message.replacingText("\"m.mentions\":{}", with: "\"m.mentions\":\(json)")
  }
}
