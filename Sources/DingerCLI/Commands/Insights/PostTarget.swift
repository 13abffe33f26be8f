import Base
import Components
import FoundationEssentials

/// `--post`'s value: an address, or `env:NAME` for the address held in the environment variable
/// NAME. NB: a webhook's address is its secret; on the command line it would be in every
/// process list (`ps`, `/proc/PID/cmdline`) and the shell's history for as long as the post
/// takes, where an environment variable is readable only by the user who runs it.
enum PostTarget {
  /// The address `value` names; nil for nil.
  static func resolve(
    _ value: String?, environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws -> String? {
    guard let value else { return nil }
    guard value.hasPrefix("env:") else { return value }
    let name = String(value.dropFirst("env:".count))
    guard let first = name.unicodeScalars.first, !("0"..."9").contains(first),
      name.unicodeScalars.allSatisfy({
        $0 == "_" || ("A"..."Z").contains($0) || ("a"..."z").contains($0)
          || ("0"..."9").contains($0)
      })
    else {
      throw CLIError(
        "--post env:NAME takes the name of an environment variable (letters, digits and _), found '\(Printable.escaped(value))'"
      )
    }
    guard let address = environment[name]?.trimmed, !address.isEmpty else {
      throw CLIError(
        "--post env:\(name): the environment variable \(name) is not set or is empty; set it to the webhook's address (in CI, from the secret store)"
      )
    }
    return address
  }
}
