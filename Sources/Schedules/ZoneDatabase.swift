import Base
import FoundationEssentials
import Glibc
import Models
import Synchronization

/// The system's time zone data (`$TZDIR`, else /usr/share/zoneinfo), read file by file as zones
/// are asked for and kept. Zone names come from teammates' files: only plain IANA-style names
/// are looked up (letters, digits, `_+-.`, `/` between parts; no `..`), so a name never leaves
/// the zone directory.
public final class ZoneDatabase: ZoneDirectory {
  /// The folder the zone files are in.
  public let directory: String
  private let loaded = Mutex<[String: ZoneRules?]>([:])
  private let allNames = Mutex<[String]?>(nil)

  /// The zones in `directory`.
  public init(directory: String) { self.directory = directory }

  /// `$TZDIR` or /usr/share/zoneinfo.
  public static let system = ZoneDatabase(
    directory: ProcessInfo.processInfo.environment["TZDIR"].flatMap { $0.isEmpty ? nil : $0 }
      ?? "/usr/share/zoneinfo")

  /// The rules of the zone `name`, or nil when there is no such zone (or its file is damaged).
  public func rules(_ name: String) -> ZoneRules? {
    if name == "UTC" || name == "Etc/UTC" { return rulesOrUTC(name) }
    if let known = loaded.withLock({ $0[name] }) { return known }
    let rules = Self.isPlainName(name) ? load(name) : nil
    loaded.withLock { $0[name] = .some(rules) }
    return rules
  }

  private func rulesOrUTC(_ name: String) -> ZoneRules {
    if let known = loaded.withLock({ $0[name] }), let known { return known }
    let rules = load(name) ?? ZoneRules(name: name, fixedOffset: 0, abbreviation: "UTC")
    loaded.withLock { $0[name] = .some(rules) }
    return rules
  }

  private func load(_ name: String) -> ZoneRules? {
    guard let bytes = Self.readBounded(directory + "/" + name, limit: ZoneRules.maxBytes) else {
      return nil
    }
    return try? ZoneRules(name: name, tzif: bytes)
  }

  public func knows(_ zone: String) -> Bool { rules(zone) != nil }

  public func suggestion(for zone: String) -> String? {
    let names = self.names()
    let lowered = zone.lowercased()
    if let exact = names.first(where: { $0.lowercased() == lowered }) { return exact }
    let spaced = lowered.replacingText(" ", with: "_")
    if let city = names.first(where: { $0.lowercased().hasSuffix("/" + spaced) }) { return city }
    let last = String(spaced.split(separator: "/").last ?? "")
    let byCity = names.filter { $0.contains("/") }.map {
      (String($0.split(separator: "/").last!), $0)
    }
    if let near = Suggestions.closest(to: last, in: byCity.map(\.0), limit: 1).first {
      return byCity.first { $0.0 == near }?.1
    }
    return Suggestions.closest(to: zone, in: names, limit: 1).first
  }

  /// Every zone name in the directory (the `posix/` and `right/` copies left out).
  public func names() -> [String] {
    if let names = allNames.withLock({ $0 }) { return names }
    var found: [String] = []
    let skip: Set<String> = ["posix", "right", "posixrules", "localtime", "Factory"]
    // NB: a walk of our own; FileManager's enumerator lives in full Foundation (ICU).
    func walk(_ relative: String, depth: Int) {
      let full = relative.isEmpty ? directory : directory + "/" + relative
      guard depth < 4, let names = try? FileManager.default.contentsOfDirectory(atPath: full)
      else { return }
      for name in names {
        let path = relative.isEmpty ? name : relative + "/" + name
        guard !skip.contains(path), let first = name.unicodeScalars.first,
          ("A"..."Z").contains(first), !name.hasSuffix(".tab"), !name.hasSuffix(".zi"),
          Self.isPlainName(path)
        else { continue }
        var info = stat()
        guard stat(directory + "/" + path, &info) == 0 else { continue }
        if info.st_mode & S_IFMT == S_IFDIR {
          walk(path, depth: depth + 1)
        } else if info.st_mode & S_IFMT == S_IFREG {
          found.append(path)
        }
      }
    }
    walk("", depth: 0)
    found.sort()
    allNames.withLock { $0 = found }
    return found
  }

  /// The user's zone: `$TZ` (a zone name, `:name`, or a POSIX TZ string), else the zone
  /// /etc/localtime links to, else /etc/timezone, else UTC.
  public func local(environment: [String: String] = ProcessInfo.processInfo.environment)
    -> ZoneRules
  {
    if var tz = environment["TZ"], !tz.isEmpty {
      if tz.hasPrefix(":") { tz.removeFirst() }
      if let rules = rules(tz) { return rules }
      if let posix = PosixRule(tz) {
        return ZoneRules(name: tz, rule: posix)
      }
      return .utc
    }
    if let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/etc/localtime"),
      let range = link.firstRange(ofText: "zoneinfo/"),
      let rules = rules(String(link[range.upperBound...]))
    {
      return rules
    }
    if let bytes = Self.readBounded("/etc/timezone", limit: 256),
      let rules = rules(
        String(decoding: bytes, as: UTF8.self).trimmed())
    {
      return rules
    }
    return .utc
  }

  /// Letters, digits, `_+-.` in `/`-separated parts, none of them `.` or `..`, at most 64 bytes.
  static func isPlainName(_ name: String) -> Bool {
    guard !name.isEmpty, name.utf8.count <= 64 else { return false }
    for part in name.split(separator: "/", omittingEmptySubsequences: false) {
      guard !part.isEmpty, part != ".", part != "..",
        part.utf8.allSatisfy({
          (65...90).contains($0) || (97...122).contains($0) || (48...57).contains($0)
            || $0 == 95 || $0 == 43 || $0 == 45 || $0 == 46
        })
      else { return false }
    }
    return true
  }

  /// At most `limit` bytes of a regular file; nil when it is not one, or is larger.
  static func readBounded(_ path: String, limit: Int) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, Int(st.st_size) <= limit else {
      return nil
    }
    var out = [UInt8](repeating: 0, count: Int(st.st_size))
    var got = 0
    while got < out.count {
      let n = out.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + got, $0.count - got) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { break }
      got += n
    }
    return Array(out.prefix(got))
  }
}

extension ZoneRules {
  /// A zone described by a POSIX TZ string only (a `$TZ` like `EST5EDT,M3.2.0,M11.1.0`).
  init(name: String, rule: PosixRule) {
    self.init(
      name: name, fixedOffset: rule.standard.offset, abbreviation: rule.standard.abbreviation,
      rule: rule)
  }
}
