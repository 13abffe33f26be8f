import Foundation

/// `git daemon` on 127.0.0.1 serving a folder of bare repositories, pushes allowed; started in
/// its own session and stopped (and reaped) when the test ends.
public final class GitDaemon: @unchecked Sendable {
  public let port: Int
  public let pid: pid_t

  public init(base: URL) throws {
    let execPath = try ProcessRunner.run("/usr/bin/git", ["--exec-path"]).stdout
      .trimmingCharacters(in: .whitespacesAndNewlines)
    for _ in 0..<5 {
      let port = Self.freePort()
      let pid = try ProcessRunner.start(
        execPath + "/git-daemon",
        [
          "--reuseaddr", "--export-all", "--enable=receive-pack", "--base-path=\(base.path)",
          "--listen=127.0.0.1", "--port=\(port)", base.path,
        ])
      if Self.waitListening(port) {
        (self.port, self.pid) = (port, pid)
        return
      }
      ProcessRunner.stop(pid)
    }
    throw CancellationError()
  }

  public func url(_ name: String) -> String { "git://127.0.0.1:\(port)/\(name)" }

  private var stopped = false

  public func stop() {
    guard !stopped else { return }
    stopped = true
    ProcessRunner.stop(pid)
  }

  deinit { stop() }

  /// A port the system just handed out (and we closed).
  public static func freePort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    addr.sin_port = 0
    var len = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &addr) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { p in
        _ = bind(fd, p, len)
        return getsockname(fd, p, &len)
      }
    }
    return Int(UInt16(bigEndian: addr.sin_port))
  }

  public static func waitListening(_ port: Int) -> Bool {
    for _ in 0..<100 {
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      var addr = sockaddr_in()
      addr.sin_family = sa_family_t(AF_INET)
      addr.sin_addr.s_addr = inet_addr("127.0.0.1")
      addr.sin_port = UInt16(port).bigEndian
      let ok = withUnsafePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
        }
      }
      close(fd)
      if ok { return true }
      usleep(50_000)
    }
    return false
  }
}
