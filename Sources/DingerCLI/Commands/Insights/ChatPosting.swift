import Base
import Components
import FoundationEssentials
import Glibc
import Providers

/// What `--format` and `--post` together mean for `digest` and `remind`: the format (the
/// address chooses it when `--format` is not given), and the posting itself.
enum ChatPosting {
  /// Every format, as `--format` lists them.
  static var formats: String { DigestViews.Format.allCases.map(\.rawValue).joined(separator: ", ") }
  /// The formats a chat service takes.
  static var services: String { ChatService.allCases.map(\.rawValue).joined(separator: ", ") }

  /// `--format`'s help.
  static let help =
    "text (the default), markdown, json, or a chat service's: slack, mattermost, rocketchat, teams, discord, matrix. With --post, the address chooses it where it can (matrix://, Slack's, Discord's and Teams' webhook addresses)."

  /// The format: `--format` when given, else the one the address means, else text.
  static func format(_ option: String?, post: String?) throws -> DigestViews.Format {
    if let option {
      guard let format = DigestViews.Format(rawValue: option.lowercased()) else {
        throw CLIError("--format '\(option)' is not one dinger writes; use one of: \(formats)")
      }
      if let post {
        guard let service = format.service else {
          throw CLIError(
            "--post sends a chat service's message, and no service takes --format \(format.rawValue); use one of: \(services)"
          )
        }
        let matrixAddress = ChatService.forAddress(post) == .matrix
        if matrixAddress != (service == .matrix) {
          throw CLIError(
            matrixAddress
              ? "a Matrix room takes Matrix's messages: leave --format out, or write --format matrix"
              : "--format matrix posts to a Matrix room: write its address as matrix://HOST/#alias:server (matrix+http:// for a homeserver on this machine)"
          )
        }
      }
      return format
    }
    guard let post else { return .text }
    guard let service = ChatService.forAddress(post) else {
      guard URL(string: post)?.host != nil else {
        throw CLIError(
          "--post takes a webhook's https address or a Matrix room (matrix://HOST/#alias:server); this one does not read as either"
        )
      }
      throw CLIError(
        "name the chat service this webhook belongs to with --format: mattermost or rocketchat for a team's own server, or one of: \(services)"
      )
    }
    return DigestViews.Format(rawValue: service.rawValue)!
  }

  /// Posts `messages` (of `service`) to `post`, each acknowledged message remembered for
  /// `period`, so that a rerun sends only the rest (`ChatPoster`).
  static func post(
    _ messages: [String], to post: String, service: ChatService, repository: Workspace,
    period: String
  ) throws -> ChatPoster.Outcome {
    try ChatPoster.post(
      messages, to: post, matrix: service == .matrix, pause: service.pause,
      repository: repository, period: period, wait: retryWait)
  }
}
