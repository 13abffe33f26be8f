import Foundation
import TestSupport
import Testing

/// The steps of the team simulation: what each teammate may do next, chosen by the seed.
extension TeamSimulation {
  static let people = ["Ada", "Grace", "Linus", "Kiran", "Maya", "Zoe"]
  static let zones = ["Europe/Berlin", "America/Los_Angeles", "Asia/Kolkata", "UTC"]
  static let themes = ["sky", "teal", "poppy", "navy", "tan", "yellow"]

  /// Runs `count` steps, each followed by the read commands and invariants, then converges.
  func run(steps count: Int) throws {
    for _ in 0..<count {
      let member = members.randomElement(using: &rng)!
      if member == Self.plain {
        try plainStep()
      } else {
        try dingerStep(member)
      }
      try checkInvariants(member)
      // NB: a seed's first failure is the one worth reading; later ones follow from it.
      if !failures.isEmpty { return }
    }
    try converge()
  }

  func pick<T>(_ items: [T]) -> T? { items.isEmpty ? nil : items.randomElement(using: &rng) }

  func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &rng) < percent }

  func fresh() -> Int {
    counter += 1
    return counter
  }

  func day(_ offset: Int) -> String {
    let f = DateFormatter()
    f.locale = Locale(identifier: "en_US_POSIX")
    f.timeZone = TimeZone(identifier: "UTC")
    f.dateFormat = "yyyy-MM-dd"
    return f.string(from: now.addingTimeInterval(TimeInterval(offset * 86_400)))
  }

  /// The scrum slugs a clone has.
  func scrumSlugs(_ member: String) throws -> [String] {
    try git(member, ["ls-files", "scrums"]).stdout.split(separator: "\n")
      .map { String($0.dropFirst("scrums/".count).dropLast(".yaml".count)) }.sorted()
  }

  func librarySlugs(_ member: String) throws -> [String] {
    try git(member, ["ls-files", "libraries"]).stdout.split(separator: "\n")
      .map { String($0.dropFirst("libraries/".count).dropLast(".yaml".count)) }.sorted()
  }

  /// A dinger command as a step: 0 (done) and 1 (refused, with a message) are answers; anything
  /// else is a failure of dinger or of the simulation.
  func command(_ member: String, _ args: [String]) throws -> Bool {
    let r = try dinger(member, args)
    if r.status != 0 && r.status != 1 {
      fail(
        "dinger \(args.joined(separator: " ")) in \(member)'s clone: status \(r.status): \(r.stderr.suffix(300))"
      )
    }
    if r.status == 1 && r.stderr.isEmpty {
      fail("dinger \(args.joined(separator: " ")) failed without a word")
    }
    return r.status == 0
  }

  /// One step by a teammate who uses dinger.
  func dingerStep(_ member: String) throws {
    let slugs = try scrumSlugs(member)
    // NB: a scrum a step broke is named more often than the rest, and sometimes by its title
    // as its file's text gives it: a name must never fall through to another scrum.
    let broken = slugs.filter { brokenOnPurpose.contains("scrums/\($0).yaml") }
    var picked = chance(30) && !broken.isEmpty ? pick(broken) : pick(slugs)
    let target = picked.map { "scrums/\($0).yaml" }
    if let file = target, chance(30),
      let text = try? String(
        contentsOf: team.dir(member).appendingPathComponent(file), encoding: .utf8),
      let line = text.split(separator: "\n").first(where: { $0.hasPrefix("title: ") })
    {
      picked = String(line.dropFirst("title: ".count))
        .trimmingCharacters(in: CharacterSet(charactersIn: "'\" "))
    }
    let slug = picked
    let roll = Int.random(in: 0..<100, using: &rng)
    var args: [String]
    switch roll {
    case 0..<8:
      let n = fresh()
      args = ["scrum", "new", title(n), "--length", "\(Int.random(in: 1...60, using: &rng))"]
      for person in Self.people.shuffled(using: &rng).prefix(Int.random(in: 1...3, using: &rng)) {
        args += ["--attendee", person]
      }
    case 8..<17:
      guard let slug else { return try timePasses() }
      args = ["scrum", "edit", slug, "--length", "\(Int.random(in: 1...90, using: &rng))"]
    case 17..<20:
      guard let slug else { return try timePasses() }
      args = ["scrum", "edit", slug, "--title", title(fresh())]
    case 20..<22:
      guard let slug else { return try timePasses() }
      args = ["scrum", "edit", slug, "--theme", pick(Self.themes)!]
    case 22..<29:
      guard let slug else { return try timePasses() }
      args = ["scrum", "attendee", "add", slug, pick(Self.people)!]
    case 29..<32:
      guard let slug else { return try timePasses() }
      args = ["scrum", "attendee", "rm", slug, pick(Self.people)!]
    case 32..<38:
      guard let slug else { return try timePasses() }
      let hour = Int.random(in: 0...23, using: &rng)
      args = [
        "scrum", "edit", slug, "--at",
        String(format: "%02d:%02d", hour, [0, 15, 30, 45][hour % 4]),
        "--days", pick(["weekdays", "daily", "mon-thu", "tue,thu", "mon,wed,fri"])!,
        "--zone", pick(Self.zones)!, "--from", day(Int.random(in: -40...40, using: &rng)),
      ]
      if chance(40) { args += ["--until", day(Int.random(in: -10...80, using: &rng))] }
      if chance(25) { args += ["--every", "2w"] }
    case 38..<43:
      guard let slug else { return try timePasses() }
      let date = day(Int.random(in: -20...40, using: &rng))
      args =
        chance(60)
        ? ["scrum", "edit", slug, "--skip", date]
        : [
          "scrum", "edit", slug, "--move",
          "\(date)=\(String(format: "%02d:30", Int.random(in: 6...20, using: &rng)))",
        ]
    case 43..<47:
      guard let slug else { return try timePasses() }
      args = ["scrum", "rename", slug, "s\(fresh())"]
    case 47..<49:
      guard let slug else { return try timePasses() }
      args = ["scrum", "rm", slug] + (chance(50) ? ["--with-history"] : [])
    case 49..<58:
      guard let slug else { return try timePasses() }
      args = [
        "meet", slug, "--record", "--date", ISO8601DateFormatter().string(from: now),
        "--duration", "\(Int.random(in: 1...30, using: &rng))m",
      ]
    case 58..<60:
      args = ["library", "new", "Words \(fresh())", "--language", "es"]
    case 60..<64:
      guard let library = pick(try librarySlugs(member)) else { return try timePasses() }
      args = ["word", "add", "palabra\(fresh())", "--library", library, "--definition", "a word"]
    case 64..<67:
      args = ["undo"]
    case 67..<69:
      args = ["redo"]
    case 69..<73:
      return try resolveStep(member)
    case 73..<92:
      return try syncStep(member)
    case 92..<96:
      // The written stand-up: the member's own entry (their git name is an attendee's, or the
      // command says why not), some days with a blocker.
      guard let slug else { return try timePasses() }
      args = [
        "standup", slug, "--today", "task \(fresh())", "--date",
        day(-Int.random(in: 0...2, using: &rng)),
      ]
      if chance(40) { args += ["--blocker", "blocked \(fresh())"] }
    case 96..<98:
      // Someone resolves an open blocker of any scrum (the list names its scrum).
      let listed = try json(dinger(member, ["blockers", "--json"]).stdout)["blockers"] as? [Any]
      guard let b = pick((listed ?? []).compactMap { $0 as? [String: Any] }),
        let id = b["id"] as? String, let scrum = b["scrum"] as? String
      else { return try timePasses() }
      args = ["blocker", "resolve", id, "--scrum", scrum, "--note", "fixed \(fresh())"]
    case 99..<100:
      return try chance(50) ? remindStep(member) : interchangeStep(member)
    case 98..<99:
      guard let slug else { return try timePasses() }
      let from = Int.random(in: -5...20, using: &rng)
      args = [
        "scrum", "attendee", "away", slug, pick(Self.people)!, "--from", day(from), "--until",
        day(from + Int.random(in: 0...5, using: &rng)),
      ]
    default:
      return try timePasses()
    }
    // NB: the step names the scrum in `target` when its arguments hold the name picked.
    let named = slug.map { args.contains($0) } ?? false
    try write(
      member, "dinger " + args.map { $0.contains(" ") ? "'\($0)'" : $0 }.joined(separator: " "),
      target: named && args.first != "library" && args.first != "word" ? target : nil
    ) {
      try command(member, args)
    }
  }

  /// `remind` twice in a row: the second sends nothing (once per window), and no reminder
  /// names a teammate who is away that day.
  func remindStep(_ member: String) throws {
    // NB: posted, as a team's cron job does, to a local receiver that records each request.
    let (base, log) = try webhookReceiver()
    let hook = "\(base)/\(member)/\(fresh())"
    let args = ["remind", "--before", "120m", "--format", "slack", "--post", hook]
    note("\(member): dinger \(args.joined(separator: " ")) (twice)")
    func posted() -> [String] {
      let lines = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
      return lines.compactMap { line -> String? in
        guard let entry = try? json(String(line)),
          entry["path"] as? String == String(hook.dropFirst(base.count)),
          let body = entry["body"] as? String, let message = try? json(body)
        else { return nil }
        return (message["text"] as? String)?.replacingOccurrences(of: "&amp;", with: "&")
          .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
      }
    }
    let first = try dinger(member, args)
    let sent = posted()
    let second = try dinger(member, args)
    for r in [first, second] where r.status != 0 && r.status != 1 {
      fail("dinger remind in \(member)'s clone: status \(r.status): \(r.stderr.suffix(300))")
    }
    if posted().count != sent.count {
      fail(
        "dinger remind reminded twice in one window in \(member)'s clone: \(posted().dropFirst(sent.count))"
      )
    }
    let today = day(0)
    let state = try snapshot(member).values
    for line in sent {
      guard let names = line.components(separatedBy: "not written yet: ").dropFirst().first else {
        continue
      }
      // NB: the scrums of that title (absences are per scrum).
      let title = line.components(separatedBy: " starts in ").first ?? ""
      let ids = Set(
        state.filter { $0.key.hasSuffix("/title") && $0.value == title }.map {
          SimulationLedger.record(of: $0.key)
        })
      for name in names.components(separatedBy: ", ") {
        let away = state.contains { key, until in
          guard ids.contains(SimulationLedger.record(of: key)),
            let range = key.range(of: "/away:\(name.lowercased()):")
          else { return false }
          let from = String(key[range.upperBound...])
          return from <= today && today <= until
        }
        if away { fail("dinger remind named \(name), who is away today: \(line)") }
      }
    }
  }

  /// Export then import changes nothing: everything an export carries is here (by id), so
  /// importing it back makes no commit; the CSV tables answer too.
  func interchangeStep(_ member: String) throws {
    let kind = pick(["scrumdinger", "syncups"])!
    let file = team.box.home.url.appendingPathComponent("\(member)-export.json").path
    note("\(member): dinger export \(kind) --out \(file); dinger import \(kind) \(file)")
    let before = try head(member)
    let out = try dinger(member, ["export", kind, "--out", file])
    guard out.status == 0 else {
      return fail("dinger export \(kind) in \(member)'s clone failed: \(out.stderr.suffix(300))")
    }
    let back = try dinger(member, ["import", kind, file])
    if back.status != 0 || !back.stdout.hasPrefix("nothing to import") {
      fail(
        "importing \(member)'s own \(kind) export changed something (status \(back.status)): \(back.stdout.suffix(300))\(back.stderr.suffix(300))"
      )
    }
    if try head(member) != before { fail("importing an export made a commit in \(member)'s clone") }
    let csv = try dinger(
      member, ["export", "csv", "--table", pick(["scrums", "meetings", "entries"])!])
    if csv.status != 0 { fail("dinger export csv in \(member)'s clone: \(csv.stderr.suffix(300))") }
  }

  /// A title: half the time one of a few a team would use (so two teammates may pick one at
  /// once, and a title may equal another scrum's file name), else a fresh one.
  func title(_ n: Int) -> String {
    chance(50) ? pick(["Platform", "Design", "Ops", "Mobile", "Infra", "Web"])! : "Team \(n)"
  }

  func timePasses() throws {
    let hours = Int.random(in: 1...72, using: &rng)
    now = now.addingTimeInterval(TimeInterval(hours * 3600))
    note("time passes: \(hours) h (now \(ISO8601DateFormatter().string(from: now)))")
  }

  /// Settles a recorded conflict one way or the other.
  func resolveStep(_ member: String) throws {
    let listing = try json(dinger(member, ["conflicts", "--json"]).stdout)
    let conflicts = (listing["conflicts"] as? [Any] ?? []).compactMap { $0 as? [String: Any] }
    let ids = conflicts.compactMap { $0["id"] as? String }
    guard let id = pick(ids.sorted()) else { return try syncStep(member) }
    let side = chance(50) ? "--ours" : "--theirs"
    var settled = false
    try write(member, "dinger resolve \(id.prefix(8)) \(side)") {
      settled = try command(member, ["resolve", String(id.prefix(8)), side])
      return settled
    }
    // NB: whoever resolves a conflict saw both values: the changes to its record made so far
    // are settled by that choice (a removal kept as a record, or the reverse, is no loss).
    if settled, let c = conflicts.first(where: { $0["id"] as? String == id }) {
      if let record = c["record"] as? String { ledger.settle(record: record) }
      if let file = c["file"] as? String {
        ledger.settle(record: SimulationLedger.fileRecord(file))
      }
    }
  }

  // MARK: Linus: plain git and an editor

  func plainStep() throws {
    let member = Self.plain
    let files = try git(member, ["ls-files", "scrums"]).stdout.split(separator: "\n").map(
      String.init)
    let roll = Int.random(in: 0..<100, using: &rng)
    guard let file = pick(files), roll >= 35 else { return try syncStep(member) }
    let url = team.dir(member).appendingPathComponent(file)
    guard let text = try? String(contentsOf: url, encoding: .utf8) else { return }
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var description = ""
    var broke: [String] = []
    switch roll {
    case 35..<55:
      guard let i = lines.firstIndex(where: { $0.hasPrefix("length: ") }) else { return }
      lines[i] = "length: \(Int.random(in: 1...90, using: &rng))"
      description = "sets \(lines[i]) in \(file) by hand"
    case 55..<65:
      guard let i = lines.firstIndex(of: "attendees:") else { return }
      let name = pick(Self.people)!
      // NB: an attendee with more than a name (an absence) is a mapping: `- name: X`.
      guard !lines.contains("  - \(name)"), !lines.contains("  - name: \(name)") else { return }
      lines.insert("  - \(name)", at: i + 1)
      description = "adds attendee \(name) to \(file) by hand"
    case 65..<70:
      guard let i = lines.firstIndex(where: { $0.hasPrefix("theme:") }) else { return }
      lines[i] = "  " + lines[i]
      description = "breaks the indentation of \(file)"
      broke = [file]
    case 70..<74:
      guard !lines.contains(where: { $0.hasPrefix("colour:") }) else { return }
      lines.insert("colour: red", at: max(1, lines.count - 1))
      description = "adds an unknown key to \(file)"
    case 74..<78:
      guard let other = pick(files.filter { $0 != file }),
        let otherText = try? String(
          contentsOf: team.dir(member).appendingPathComponent(other), encoding: .utf8),
        let title = otherText.split(separator: "\n").first(where: { $0.hasPrefix("title: ") }),
        let i = lines.firstIndex(where: { $0.hasPrefix("title: ") })
      else { return }
      lines[i] = String(title)
      description = "gives \(file) the title of \(other)"
      broke = [file, other]
    case 78..<82:
      guard let i = lines.firstIndex(where: { $0.hasPrefix("length: ") }) else { return }
      lines.replaceSubrange(
        i...i, with: ["<<<<<<< HEAD", lines[i], "=======", "length: 12", ">>>>>>> theirs"])
      description = "commits conflict markers in \(file)"
      broke = [file]
    case 82..<90:
      guard let broken = pick(files.filter { brokenOnPurpose.contains($0) }) else {
        return try syncStep(member)
      }
      return try fix(broken)
    default:
      let target =
        "scrums/\(file.dropFirst("scrums/".count).dropLast(".yaml".count))-m\(fresh()).yaml"
      try write(member, "git mv \(file) \(target) && git commit") {
        guard try git(member, ["mv", file, target]).status == 0 else { return false }
        if brokenOnPurpose.contains(file) { brokenOnPurpose.insert(target) }
        return try git(member, ["commit", "-qm", "Rename \(file) by hand"]).status == 0
      }
      return
    }
    brokenOnPurpose.formUnion(broke)
    for path in broke {
      let text = try? String(
        contentsOf: team.dir(member).appendingPathComponent(path), encoding: .utf8)
      if let id = text.map(Self.idLine), !id.isEmpty { brokenIDs.insert(id) }
    }
    try write(member, "\(description) && git commit -a") {
      try lines.joined(separator: "\n").write(to: url, atomically: true, encoding: .utf8)
      return try git(member, ["commit", "-qam", "Edit \(file) by hand"]).status == 0
    }
  }

  /// Linus mends a file a step broke: the last version of it that dinger could read.
  func fix(_ file: String) throws {
    let member = Self.plain
    let versions = try git(member, ["log", "--format=%H", "--", file]).stdout.split(separator: "\n")
    for commit in versions {
      guard let text = try? git(member, ["show", "\(commit):\(file)"]).stdout,
        !text.contains("<<<<<<<"), !text.contains("\n  theme:")
      else { continue }
      try write(member, "mends \(file) from \(commit.prefix(8)) && git commit -a") {
        try text.write(
          to: team.dir(member).appendingPathComponent(file), atomically: true, encoding: .utf8)
        return try git(member, ["commit", "-qam", "Mend \(file)"]).status == 0
      }
      return
    }
  }
}
