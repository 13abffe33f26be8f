import Foundation
import TestSupport
import Testing

/// A team's weeks as a seeded, replayable sequence of steps (a state machine in the
/// QuickCheck / Jepsen sense): Ada and Grace use dinger, Linus plain git and an editor, each on
/// a clone of one bare remote. Every step is a write command, a hand edit (valid, or one of the
/// mistakes people make), a `git mv`, a sync, or time passing; after each, every read command
/// runs on that clone and the invariants are checked. At the end the clones converge and every
/// acknowledged change must be in the data or in a conflict record. docs/simulation.md tells
/// the steps, the invariants and how to replay a seed.
final class TeamSimulation {
  let seed: UInt64
  var rng: SeededGenerator
  let team: Team
  static let dingers = ["ada", "grace"]
  static let plain = "linus"
  var members: [String] { Self.dingers + [Self.plain] }

  /// The steps so far, as a person would type them (the replay of a failing seed).
  private(set) var steps: [String] = []
  /// What went wrong, each with its step.
  private(set) var failures: [String] = []
  var ledger = SimulationLedger()
  /// Files a step broke on purpose, by path and by the id their text holds (a merge may carry
  /// a broken file to a renamed path): check may name these, and only these.
  var brokenOnPurpose: Set<String> = []
  var brokenIDs: Set<String> = []
  /// Files the plain-git teammate kept as his side of a merge git would not finish (his edit
  /// against their removal or move). Git may so leave him two files with one id; that is git's
  /// doing, allowed in his clone only: a sync that brings the pair to a dinger clone keeps one.
  var keptByHand: Set<String> = []
  /// The simulated time, for `DINGER_TEST_NOW` and meeting dates.
  var now: Date
  /// Counts for fresh names.
  var counter = 0
  /// The webhook receiver reminders are posted to (started at the first reminder step): its
  /// address, its request log, and the pids to stop.
  var receiver: (base: String, log: String, pids: [pid_t])?

  deinit {
    for pid in receiver?.pids ?? [] where pid > 0 { kill(pid, SIGKILL) }
  }

  /// Starts the local webhook receiver (DigestPostTests'), once.
  func webhookReceiver() throws -> (base: String, log: String) {
    if let receiver { return (receiver.base, receiver.log) }
    try team.box.home.write("receiver.py", DigestPostTests.receiver)
    let ready = team.box.home.path("receiver-port")
    let started = try ProcessRunner.start(
      ProcessRunner.which("python3") ?? "/usr/bin/python3",
      [team.box.home.path("receiver.py"), ready])
    var line = ""
    for _ in 0..<400 where line.isEmpty {
      line = (try? String(contentsOfFile: ready, encoding: .utf8)) ?? ""
      usleep(25_000)
    }
    let parts = line.split(separator: " ")
    guard let port = parts.first.flatMap({ Int($0) }) else {
      ProcessRunner.stop(started)
      throw CancellationError()
    }
    let server = pid_t(parts[1].trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    receiver = ("http://127.0.0.1:\(port)", ready + ".log", [started, server])
    return ("http://127.0.0.1:\(port)", ready + ".log")
  }
  /// The read commands run after each step.
  var readsRun = 0

  init(seed: UInt64) throws {
    self.seed = seed
    rng = SeededGenerator(seed: seed)
    team = try Team(dingers: Self.dingers, plain: [Self.plain])
    // NB: the weeks start a month before today and run past it, so schedules are met in the
    // past, the present and the future; Europe's and America's DST changes are crossed in the
    // seeds that start in March or October (the time is moved on by steps).
    now = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 / 3600).rounded() * 3600)
      .addingTimeInterval(-30 * 86_400)
  }

  // MARK: Running commands

  var environment: [String: String] {
    ["DINGER_TEST_NOW": ISO8601DateFormatter().string(from: now), "TZ": "UTC"]
  }

  /// Runs dinger in a member's clone; a death by signal or a hang is a failure.
  @discardableResult
  func dinger(_ member: String, _ args: [String]) throws -> ProcessResult {
    let r = try ProcessRunner.run(
      dingerBinary, args, in: team.dir(member),
      environment: team.box.environment.merging(environment) { $1 }, timeout: 60)
    if r.status > 128 {
      fail(
        "dinger \(args.joined(separator: " ")) in \(member)'s clone died (status \(r.status)): \(r.stderr.suffix(400))"
      )
    }
    return r
  }

  /// Runs git in a member's clone.
  @discardableResult
  func git(_ member: String, _ args: [String]) throws -> ProcessResult {
    try ProcessRunner.run(
      ProcessRunner.which("git") ?? "/usr/bin/git", args, in: team.dir(member),
      environment: team.box.environment, timeout: 60)
  }

  func head(_ member: String) throws -> String {
    try git(member, ["rev-parse", "HEAD"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Whether `commit` is in the member's history as of `tip`.
  func knows(_ member: String, _ commit: String, at tip: String = "HEAD") -> Bool {
    (try? git(member, ["merge-base", "--is-ancestor", commit, tip]).status) == 0
  }

  func fail(_ message: String) {
    failures.append("step \(steps.count): \(message)")
  }

  func note(_ step: String) { steps.append(step) }

  // MARK: What a clone holds

  typealias Snapshot = (values: [String: String], errorFiles: Set<String>)
  /// The last snapshot of each clone, with the commit it was taken at (a clean clone at one
  /// commit holds the same records: the reads that make a snapshot are not repeated).
  private var snapshots: [String: (head: String, snapshot: Snapshot)] = [:]

  /// A clone's records, flattened to keys (see `SimulationLedger`), and the files check
  /// reports errors in.
  func snapshot(_ member: String) throws -> Snapshot {
    let head = try head(member)
    let clean = try git(member, ["status", "--porcelain"]).stdout.isEmpty
    if clean, let kept = snapshots[member], kept.head == head { return kept.snapshot }
    let taken = try takeSnapshot(member)
    if clean { snapshots[member] = (head, taken) }
    return taken
  }

  private func takeSnapshot(_ member: String) throws -> Snapshot {
    var values: [String: String] = [:]
    let scrums = try json(dinger(member, ["scrum", "list", "--json"]).stdout)["scrums"] as? [Any]
    for case let s as [String: Any] in scrums ?? [] {
      guard let id = s["id"] as? String else { continue }
      values["\(id)/exists"] = "1"
      for key in ["title", "theme", "path"] { values["\(id)/\(key)"] = "\(s[key] ?? "")" }
      values["\(id)/length"] = "\(s["length"] ?? "")"
      for case let name as String in s["attendees"] as? [Any] ?? [] {
        values["\(id)/attendee:\(name)"] = "1"
      }
      for (name, list) in s["away"] as? [String: Any] ?? [:] {
        for case let a as [String: Any] in list as? [Any] ?? [] {
          values["\(id)/away:\(name.lowercased()):\(a["from"] ?? "")"] = "\(a["until"] ?? "")"
        }
      }
      if let schedule = s["schedule"] as? [String: Any] {
        for key in ["at", "zone", "from", "until", "every"] {
          if let v = schedule[key] { values["\(id)/schedule.\(key)"] = "\(v)" }
        }
        let days = (schedule["days"] as? [Any] ?? []).map { "\($0)" }.joined(separator: ",")
        values["\(id)/schedule.days"] = days
        for case let day as String in schedule["skip"] as? [Any] ?? [] {
          values["\(id)/schedule.skip:\(day)"] = "1"
        }
        for (day, time) in schedule["moved"] as? [String: Any] ?? [:] {
          values["\(id)/schedule.moved:\(day)"] = "\(time)"
        }
      }
    }
    for path in try git(member, ["ls-files", "history"]).stdout.split(separator: "\n") {
      let name = path.split(separator: "/").last.map(String.init) ?? ""
      values["meeting:\(name)/exists"] = "1"
      // NB: where a meeting lives is the merge's to decide (it follows its scrum's folder).
    }
    // Written stand-ups: each entry, the blockers it lists and the ones it resolves (facts of
    // its file; whether a blocker is open is derived from every entry, and a teammate may
    // remove the entry that opened it, with its scrum's history).
    for path in try git(member, ["ls-files", "standups"]).stdout.split(separator: "\n") {
      let name = path.split(separator: "/").last.map(String.init) ?? ""
      let key = "meeting:standup-\(name)"
      values["\(key)/exists"] = "1"
      let text =
        (try? String(
          contentsOf: team.dir(member).appendingPathComponent(String(path)), encoding: .utf8))
        ?? ""
      var section = ""
      for line in text.split(separator: "\n") {
        if !line.hasPrefix(" ") { section = String(line.prefix { $0 != ":" }) }
        guard line.hasPrefix("  - ") else { continue }
        let item = line.dropFirst(4).trimmingCharacters(in: .whitespaces)
        if section == "blockers" { values["\(key)/blocker:\(item)"] = "1" }
        if section == "resolved" { values["\(key)/resolves:\(item)"] = "1" }
      }
    }
    let libraries =
      try json(dinger(member, ["library", "list", "--json"]).stdout)["libraries"] as? [Any]
    var librarySlugs: [String: String] = [:]
    for case let l as [String: Any] in libraries ?? [] {
      guard let id = l["id"] as? String else { continue }
      values["\(id)/exists"] = "1"
      values["\(id)/name"] = "\(l["name"] ?? "")"
      values["\(id)/path"] = "\(l["path"] ?? "")"
      librarySlugs["\(l["slug"] ?? "")"] = id
    }
    if !librarySlugs.isEmpty {
      let words = try json(dinger(member, ["word", "list", "--json"]).stdout)["words"] as? [Any]
      for case let w as [String: Any] in words ?? [] {
        guard let id = librarySlugs["\(w["library"] ?? "")"] else { continue }
        values["\(id)/word:\(w["text"] ?? "")"] = "1"
      }
    }
    let check = try json(dinger(member, ["check", "--json"]).stdout)
    var errorFiles: Set<String> = []
    for case let d as [String: Any] in check["diagnostics"] as? [Any] ?? [] {
      if "\(d["severity"] ?? "")" == "error" { errorFiles.insert("\(d["file"] ?? "")") }
    }
    return (values, errorFiles)
  }

  func json(_ text: String) throws -> [String: Any] {
    guard let data = text.data(using: .utf8), !text.isEmpty,
      let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    else { return [:] }
    return object
  }

  /// The records whose file (in either snapshot) is one check reports errors in.
  func brokenRecords(
    _ a: (values: [String: String], errorFiles: Set<String>),
    _ b: (values: [String: String], errorFiles: Set<String>)
  ) -> Set<String> {
    let errors = a.errorFiles.union(b.errorFiles)
    var out: Set<String> = []
    for snapshot in [a.values, b.values] {
      for (key, value) in snapshot where key.hasSuffix("/path") && errors.contains(value) {
        out.insert(SimulationLedger.record(of: key))
      }
    }
    return out
  }

  /// Runs a write step in a member's clone, recording what it changed as acknowledged when it
  /// committed.
  /// `target`: the scrum file the step names; a scrum it changes that lives in another file is
  /// an edit in the wrong place.
  func write(
    _ member: String, _ description: String, target: String? = nil, _ body: () throws -> Bool
  ) throws {
    note("\(member): \(description)")
    let before = try snapshot(member)
    let headBefore = try head(member)
    let ok = try body()
    let headAfter = try head(member)
    guard ok, headAfter != headBefore else { return }
    let after = try snapshot(member)
    if let target {
      for key in Set(before.values.keys).union(after.values.keys).sorted()
      where !key.hasPrefix("meeting:") && before.values[key] != after.values[key] {
        let record = SimulationLedger.record(of: key)
        let path = before.values["\(record)/path"] ?? after.values["\(record)/path"] ?? ""
        guard path.hasPrefix("scrums/"), path != target else { continue }
        fail("\(description) named \(target) but changed \(path) (\(key))")
        break
      }
    }
    ledger.exempt.formUnion(brokenRecords(before, after))
    let undoing = description == "dinger undo" || description == "dinger redo"
    ledger.record(
      before: before.values, after: after.values, member: member, step: steps.count,
      commit: headAfter, asserts: !undoing
    ) { commit in self.knows(member, commit, at: headBefore) }
  }

  // MARK: Invariants after every step

  /// Every read command answers on this clone, and the clone is sound.
  func checkInvariants(_ member: String) throws {
    let state = try snapshot(member)
    let scrums = state.values.keys.filter { $0.hasSuffix("/path") }
    var reads: [[String]] = [
      ["scrum", "list"], ["history"], ["log", "-n", "20"], ["agenda"], ["next"], ["stats"],
      ["calendar"], ["check"], ["library", "list"], ["word", "list"], ["conflicts"],
      ["report", "--out", team.box.home.url.appendingPathComponent("report-\(member).html").path],
      ["stats", "--since", "60 days ago"], ["standup", "show"], ["blockers"],
      ["digest", "--since", "3 days ago", "--format", "matrix"],
    ]
    if let one = scrums.sorted().randomElement(using: &rng), let path = state.values[one],
      path.hasPrefix("scrums/")
    {
      let slug = String(path.dropFirst("scrums/".count).dropLast(".yaml".count))
      reads += [
        ["scrum", "show", slug], ["history", slug], ["log", slug], ["standup", "show", slug],
        ["blockers", slug, "--all"],
      ]
    }
    for args in reads {
      let r = try dinger(member, args)
      readsRun += 1
      // NB: 1 is a refusal with a message (a broken file named); anything else is a crash or
      // a usage error the simulation did not mean.
      if r.status != 0 && r.status != 1 {
        fail(
          "dinger \(args.joined(separator: " ")) in \(member)'s clone: status \(r.status): \(r.stderr.suffix(300))"
        )
      }
      if r.status == 1 && r.stderr.isEmpty {
        fail("dinger \(args.joined(separator: " ")) in \(member)'s clone failed without a word")
      }
    }
    try checkIDsAreUnique(member)
    let errors = state.errorFiles
    for file in errors.sorted() where !brokenOnPurpose.contains(file) {
      let text = try? String(
        contentsOf: team.dir(member).appendingPathComponent(file), encoding: .utf8)
      if let text, brokenIDs.contains(Self.idLine(text)) { continue }
      // NB: two teammates may give two scrums one title at once (neither clone had the other):
      // check names that, rightly, and a person picks another title.
      let said = try dinger(member, ["check", file]).stderr
      let errorLines = said.split(separator: "\n").filter { $0.contains(": error: ") }
      if !errorLines.isEmpty, errorLines.allSatisfy({ $0.contains("has this title too") }) {
        continue
      }
      fail(
        "check reports an error in \(file) in \(member)'s clone, which no step broke on purpose: \(try dinger(member, ["check", file]).stderr.prefix(400))"
      )
    }
    let status = try git(member, ["status", "--porcelain"]).stdout
    if !status.isEmpty {
      fail("git status in \(member)'s clone is not clean: \(status.prefix(300))")
    }
    let fsck = try git(member, ["fsck", "--no-progress"])
    if fsck.status != 0 { fail("git fsck in \(member)'s clone: \(fsck.stderr.prefix(300))") }
  }

  /// The id a record file's `id:` line holds (quotes dropped), empty when none.
  static func idLine(_ text: String) -> String {
    Sandbox.id(in: text).trimmingCharacters(in: CharacterSet(charactersIn: "'\" "))
  }

  /// No two record files of a clone hold one id, and no two entry files one entry.
  func checkIDsAreUnique(_ member: String) throws {
    var seen: [String: String] = [:]
    for path in try git(member, ["ls-files", "scrums", "libraries", "history", "quizzes"]).stdout
      .split(separator: "\n")
    {
      let url = team.dir(member).appendingPathComponent(String(path))
      guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
      let id = Sandbox.id(in: text).trimmingCharacters(in: CharacterSet(charactersIn: "'\" "))
      guard !id.isEmpty else { continue }
      if let other = seen[id],
        member != Self.plain || !(keptByHand.contains(other) || keptByHand.contains(String(path)))
      {
        fail("\(other) and \(path) hold one id (\(id)) in \(member)'s clone")
      }
      seen[id] = String(path)
    }
    // A written entry is its scrum, day and writer: never two files for one.
    var entries: [String: String] = [:]
    for path in try git(member, ["ls-files", "standups"]).stdout.split(separator: "\n") {
      let url = team.dir(member).appendingPathComponent(String(path))
      guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
      let lines = text.split(separator: "\n")
      func value(_ key: String) -> String {
        lines.first { $0.hasPrefix(key + ": ") }.map {
          String($0.dropFirst(key.count + 2)).trimmingCharacters(
            in: CharacterSet(charactersIn: "'\" ")
          )
          .lowercased()
        } ?? ""
      }
      let key = [value("scrum"), value("date"), value("by")].joined(separator: "|")
      guard !key.hasPrefix("|") else { continue }
      if let other = entries[key] {
        fail("\(other) and \(path) hold one stand-up entry (\(key)) in \(member)'s clone")
      }
      entries[key] = String(path)
    }
  }

  // MARK: The end

  /// Everyone syncs until all hold one tree; then every acknowledged change must be there or in
  /// a conflict record.
  func converge() throws {
    note("everyone syncs until the clones agree")
    for _ in 0..<3 {
      for member in members { try syncStep(member, quiet: true) }
    }
    let trees = try members.map {
      try git($0, ["rev-parse", "HEAD^{tree}"]).stdout
    }
    if Set(trees).count != 1 {
      fail("the clones did not converge: \(zip(members, trees).map { "\($0): \($1.prefix(8))" })")
      return
    }
    for member in members { try checkInvariants(member) }
    let final = try snapshot(Self.dingers[0]).values
    var conflicted: Set<String> = []
    let listing = try json(dinger(Self.dingers[0], ["conflicts", "--json"]).stdout)
    for case let c as [String: Any] in listing["conflicts"] as? [Any] ?? [] {
      if let record = c["record"] as? String { conflicted.insert(record) }
      if let file = c["file"] as? String {
        for (key, value) in final where key.hasSuffix("/path") && value == file {
          conflicted.insert(SimulationLedger.record(of: key))
        }
        conflicted.insert(SimulationLedger.fileRecord(file))
      }
    }
    for line in ledger.lost(in: final, conflicted: conflicted) { fail(line) }
  }

  /// A member shares: dinger's sync, or Linus's `git pull` and `git push`.
  func syncStep(_ member: String, quiet: Bool = false) throws {
    if !quiet { note("\(member): sync") }
    if member == Self.plain {
      let pull = try git(member, ["pull", "-q", "--no-rebase", "origin", "main"])
      if pull.status != 0 { try finishPlainMerge(member, pull) }
      _ = try git(member, ["push", "-q", "origin", "HEAD:main"])
      return
    }
    let r = try dinger(member, ["sync"])
    // A twin scrum of ours the sync moved to a free name, as it said: its place is the sync's.
    for line in r.stdout.split(separator: "\n") where line.hasPrefix("note: ") {
      guard let range = line.range(of: "; yours is now ") else { continue }
      let moved = String(line[range.upperBound...])
      if let text = try? String(
        contentsOf: team.dir(member).appendingPathComponent(moved), encoding: .utf8)
      {
        let id = Sandbox.id(in: text).trimmingCharacters(in: CharacterSet(charactersIn: "'\" "))
        ledger.supersede(key: "\(id)/path")
      }
    }
    let conflicted = r.status == 1 && r.stderr.contains("error: the sync finished, but ")
    let refused = r.status == 1 && r.stderr.contains("uncommitted")
    if r.status != 0 && !conflicted && !refused {
      fail("dinger sync in \(member)'s clone: status \(r.status): \(r.stderr.suffix(400))")
    }
    // NB: what a push sends is complete: the remote reaches every object from its branch (a
    // merge is sent against each of its parents, so a walk that skips too much shows here).
    let fsck = try ProcessRunner.run(
      ProcessRunner.which("git") ?? "/usr/bin/git",
      ["fsck", "--connectivity-only", "--no-progress"],
      in: team.remote, environment: team.box.environment, timeout: 60)
    if fsck.status != 0 {
      fail("git fsck in the remote after \(member)'s sync: \(fsck.stderr.prefix(300))")
    }
  }

  /// What README tells a plain-git teammate to do when `git pull` stops: dinger's merge driver
  /// left valid records (the other values in .dinger/conflicts/), so `git add -A && git commit`
  /// finishes. Conflicts git reports itself (rename/rename, modify/delete) a person settles by
  /// hand: here by keeping HEAD's side; the records involved leave the ledger, since git named
  /// them to the person.
  func finishPlainMerge(_ member: String, _ pull: ProcessResult) throws {
    // NB: every path with an unmerged index entry (rename/rename leaves three: the old path,
    // and each side's new one).
    let unmerged = Array(
      Set(
        try git(member, ["ls-files", "-u"]).stdout.split(separator: "\n")
          .compactMap { $0.split(separator: "\t", maxSplits: 1).last.map(String.init) })
    ).sorted()
    guard !unmerged.isEmpty else {
      fail(
        "git pull in \(member)'s clone failed: \(pull.stdout.prefix(300)) \(pull.stderr.prefix(300))"
      )
      _ = try git(member, ["merge", "--abort"])
      return
    }
    var byHand: [String] = []
    for path in unmerged {
      let url = team.dir(member).appendingPathComponent(path)
      let text = try? String(contentsOf: url, encoding: .utf8)
      // NB: both sides had the file: the driver's merge (a valid record, the other values in
      // a conflict record) is what the person keeps.
      let stages = try git(member, ["ls-files", "-u", "--", path]).stdout
        .split(separator: "\n").compactMap {
          $0.split(separator: "\t").first?.split(separator: " ").dropFirst(2).first
        }
      // (Markers in it are Linus's own committed mistake: the driver never writes any.)
      if text != nil, stages.contains("2"), stages.contains("3") { continue }
      byHand.append(path)
      for id in [text, try git(member, ["show", "HEAD:\(path)"]).stdout].compactMap({ $0 }) {
        let value = Sandbox.id(in: id).trimmingCharacters(in: CharacterSet(charactersIn: "'\" "))
        if !value.isEmpty { ledger.exempt.insert(value) }
      }
      ledger.exempt.insert(SimulationLedger.fileRecord(path))
      // His side: what HEAD has; a path only theirs added (the other name of a rename/rename)
      // goes; a file git left in place that HEAD lacks (their rename of his edit) stays.
      if try git(member, ["cat-file", "-e", "HEAD:\(path)"]).status == 0 {
        _ = try git(member, ["checkout", "HEAD", "--", path])
        keptByHand.insert(path)
      } else if stages == ["3"] || text == nil {
        _ = try git(member, ["rm", "-q", "-f", "--", path])
      } else {
        _ = try git(member, ["add", "--", path])
      }
    }
    if text(pull).contains("<<<<<<<") {
      fail("git pull left conflict markers: \(text(pull).prefix(300))")
    }
    note(
      "\(member): git pull stopped; git add -A && git commit"
        + (byHand.isEmpty ? "" : " (kept HEAD's side of \(byHand.joined(separator: ", ")))"))
    _ = try git(member, ["add", "-A"])
    let commit = try git(member, ["commit", "-q", "--no-edit"])
    if commit.status != 0 {
      fail("finishing the merge in \(member)'s clone: \(commit.stdout)\(commit.stderr)")
    }
  }

  private func text(_ r: ProcessResult) -> String { r.stdout + r.stderr }

  /// The failure report: the seed, what went wrong, and the steps to replay it.
  var report: String {
    """
    team simulation, seed \(seed): \(failures.count) problem(s)
    \(failures.prefix(20).joined(separator: "\n"))
    replay: DINGER_SIM_SEED=\(seed) DINGER_SIM_STEPS=\(steps.count) swift test --filter TeamSimulationTests
    steps:
    \(steps.enumerated().map { "  \($0.offset + 1). \($0.element)" }.joined(separator: "\n"))
    """
  }
}
