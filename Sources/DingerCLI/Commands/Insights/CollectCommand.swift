import ArgumentParser
import Base
import Components
import FoundationEssentials
import Glibc
import Models
import Providers

/// `dinger collect --from matrix://HOST/#room:server [--answer]`.
struct CollectCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "collect",
    abstract: "Write the stand-up replies in the team's chat room as entries (run it from cron).",
    discussion: """
      The reminder 'dinger remind --post matrix://...' sends starts a thread; each reply in it \
      from an attendee whose 'matrix:' is the sender becomes their entry of their local day, \
      one line per question (yesterday: ..., today: ..., blocker: ..., resolve: ID; text before \
      the first key answers the first question), committed with them as its author. An edited \
      reply writes the new text; a second reply the same day adds its answers. A reply from \
      someone who is not an attendee is left alone and named. It remembers how far it read \
      (.git/dinger/), so a second run adds nothing; forgetting only means reading again. \
      The token is MATRIX_ACCESS_TOKEN, or the password git's credential helper keeps for the \
      homeserver.

      Examples:
        dinger collect --from matrix://matrix.example.org/#standup:example.org
        dinger collect --from env:STANDUP_ROOM --answer    (from cron, after sync)
      """)

  @OptionGroup var global: GlobalOptions
  @Option(
    help:
      "The room: matrix://HOST[:PORT]/#alias:server or /!id:server (matrix+http:// for a homeserver on this machine), or env:NAME."
  )
  var from: String
  @Flag(help: "Answer a reply that was left alone in its thread, saying why.") var answer = false
  @Option(help: "How many days back a first run reads (default 14).") var days: Int = 14

  func run() throws {
    try reporting {
      let repository = try global.repository()
      guard let address = try PostTarget.resolve(from), let target = MatrixPoster.target(address)
      else {
        throw CLIError(
          "--from takes a Matrix room: matrix://HOST/#alias:server (matrix+http:// for a homeserver on this machine)"
        )
      }
      guard (1...365).contains(days) else { throw CLIError("--days is from 1 to 365") }
      guard
        let token = MatrixPoster.token(
          for: target, environment: ProcessInfo.processInfo.environment)
      else {
        throw CLIError(
          "no access token for \(target.host): set MATRIX_ACCESS_TOKEN, or store it as the password for \(target.host) in git's credential helper"
        )
      }
      let session = MatrixPoster.Session(
        target: target, token: token,
        timeout: ProcessInfo.processInfo.environment["DINGER_TEST_POST_TIMEOUT"].flatMap(
          Double.init)
          ?? 30, repository: repository)
      let outcome = try repository.exclusively("collect.lock") {
        try StandupCollector(repository: repository).collect(
          session, address: address, answer: answer, now: currentDate(), days: days,
          fallbackZone: userZone)
      }
      var out = outcome.written.map { $0 + "\n" }.joined()
      for why in outcome.leftAlone { out += "left alone: \(why)\n" }
      if outcome.written.isEmpty {
        out += "nothing new in \(target.room)"
        out += outcome.unchanged > 0 ? " (\(outcome.unchanged) replies already written)\n" : "\n"
      }
      Terminal.output(out)
    }
  }
}
