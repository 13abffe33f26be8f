import Base
import FoundationEssentials
import Processes
import Storage

/// Shows a reminder on the desktop with `notify-send` (libnotify), started with an argument
/// vector (never a shell). The text is a teammate's (a scrum title, names): it reaches the
/// notification server escaped for its markup and bounded in length.
public enum DesktopNotifier {
  /// The longest body sent, in characters (servers show a few lines anyway).
  public static let bodyLimit = 1_000

  /// The notification's arguments after the program: an app name, the summary and the body.
  public static func arguments(summary: String, body: String) -> [String] {
    ["--app-name=dinger", "--", clipped(summary, 200), escaped(clipped(body, bodyLimit))]
  }

  /// Runs `notify-send`; throws with what it said when it cannot show the notification (no
  /// desktop session, no notification server, not installed).
  public static func notify(summary: String, body: String, program: String = "notify-send")
    throws
  {
    let result: ChildProcess.Result
    do {
      result = try ChildProcess.run(
        ChildProcess.Launch([program] + arguments(summary: summary, body: body)), timeout: 30)
    } catch {
      throw StorageError(
        "could not start notify-send (\(error)); install libnotify-bin, or post the reminder with --post instead"
      )
    }
    guard result.termination.succeeded else {
      let said = String(
        String(result.errorText.prefix(300)).unicodeScalars.map {
          $0.value < 0x20 || $0.value == 0x7f ? " " : Character($0)
        }
      ).split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
      throw StorageError(
        "notify-send could not show the reminder (\(result.termination)\(said.isEmpty ? "" : ": " + said)); it needs a desktop session with a notification server"
      )
    }
  }

  /// The body as notification markup reads it: `&`, `<` and `>` as entities, control
  /// characters as spaces.
  static func escaped(_ text: String) -> String { text.markupEscaped() }

  static func clipped(_ text: String, _ limit: Int) -> String {
    text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
  }
}
