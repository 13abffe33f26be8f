import Foundation

/// SSH host-key checking against OpenSSH's known_hosts files. libgit2 1.5 accepts any host key
/// unless the caller checks it (it checks by default only from 1.6), so dinger does what ssh
/// does: a host must be known, with this key.
public enum HostKeys {
  /// What the known_hosts files say about a host's key.
  public enum Verdict: Equatable, Sendable {
    case trusted
    /// The host is known with other keys (or this key is revoked).
    case mismatch
    /// The host is not in any known_hosts file.
    case unknown
  }

  /// The files ssh reads by default.
  public static var defaultFiles: [URL] {
    let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()
    return [
      URL(fileURLWithPath: home).appendingPathComponent(".ssh/known_hosts"),
      URL(fileURLWithPath: "/etc/ssh/ssh_known_hosts"),
    ]
  }

  /// Checks a server's key (its raw blob, as in a known_hosts line, base64-decoded) for `host`.
  public static func check(host: String, key: [UInt8], files: [URL] = defaultFiles) -> Verdict {
    var known = false
    for file in files where FileManager.default.fileExists(atPath: file.path) {
      // `ssh-keygen -F` finds the host's lines, hashed host names included.
      guard let found = run("/usr/bin/ssh-keygen", ["-F", host, "-f", file.path]) else { continue }
      for line in found.split(separator: "\n") where !line.hasPrefix("#") {
        var fields = line.split(separator: " ").map(String.init)
        let revoked = fields.first == "@revoked"
        if fields.first?.hasPrefix("@") == true { fields.removeFirst() }
        guard fields.count >= 3, let blob = Data(base64Encoded: fields[2]) else { continue }
        known = true
        if [UInt8](blob) == key { return revoked ? .mismatch : .trusted }
      }
    }
    return known ? .mismatch : .unknown
  }

  /// What to tell the user when a key is not trusted.
  public static func message(_ verdict: Verdict, host: String) -> String {
    switch verdict {
    case .trusted: return ""
    case .unknown:
      return
        "the ssh host key of \(host) is not known; connect once with 'ssh \(host)' (or add it with 'ssh-keyscan \(host) >> ~/.ssh/known_hosts' after checking its fingerprint) and sync again"
    case .mismatch:
      return
        "the ssh host key of \(host) does NOT match the one in known_hosts: someone may be intercepting the connection. If the server's key really changed, remove the old one with 'ssh-keygen -R \(host)' and connect once with 'ssh \(host)'"
    }
  }

  private static func run(_ executable: String, _ arguments: [String]) -> String? {
    guard FileManager.default.isExecutableFile(atPath: executable) else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch { return nil }
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
  }
}
