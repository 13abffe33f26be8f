import Foundation
import TestSupport

/// Sync over real servers on loopback, as teams use them: OpenSSH (sshd with its own config)
/// and https (`git http-backend` behind the tests' Python TLS server, basic auth). Two figures
/// per transport:
/// - a teammate's sync on the 2,000-commit repository: each side committed 50 meetings, the
///   other's are on the remote; `dinger sync` against `git pull --no-rebase && git push`
///   (target at most 1);
/// - the initial push of a 20,000-commit history to an empty remote: `dinger sync` against
///   `git push` (target at most 1.5);
/// - a catch-up: a clone 20,000 commits behind, with one meeting of its own, syncs; `dinger
///   sync` against `git pull --no-rebase && git push` (target at most 1, wall time).
enum TransportBench {
  /// `catchUpOnly`: the catch-up rows alone (`DingerBench catch-up`); with
  /// `DINGER_BENCH_PERF=FOLDER` each dinger sync of them runs under `perf record` there.
  static func run(dinger: String, root: URL, catchUpOnly: Bool = false) throws {
    print("Transports: sync over loopback ssh and https")
    // NB: in memory (/dev/shm) where there is one: on this disk, a file made soon after many
    // were removed (each round's reset, its clean-up) cost ext4 a scan of recently freed
    // inodes, which took most of both tools' time and varied threefold between runs.
    let base =
      FileManager.default.fileExists(atPath: "/dev/shm")
      ? URL(fileURLWithPath: "/dev/shm") : FileManager.default.temporaryDirectory
    let work = base.appendingPathComponent("dinger-transport-bench-\(UUID().uuidString.prefix(8))")
    defer { try? FileManager.default.removeItem(at: work) }
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    let small = try ScaleBench.prepare(size: 2_000, under: root)
    let large = try ScaleBench.prepare(size: 20_000, under: root)
    let served = work.appendingPathComponent("served")
    try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
    let https = try GitHTTPSServer(root: served)
    var transports: [(String, (String) -> String, [String: String])] = [
      (
        // NB: apache's workers run as nobody; each remote made is opened to them.
        "https",
        {
          https.share()
          return "https://dan:danpw@localhost:\(https.port)/\($0)"
        },
        ["GIT_SSL_CAINFO": https.caFile]
      )
    ]
    var ssh: SSHServer?
    if SSHServer.available {
      let server = try SSHServer()
      ssh = server
      transports.insert(
        (
          "ssh", { "ssh://root@127.0.0.1:\(server.port)\(served.path)/\($0)" },
          ["GIT_SSH_COMMAND": "ssh -F \(server.clientConfig)"]
        ), at: 0)
    } else {
      print("  (ssh skipped: no /usr/sbin/sshd; make deps installs openssh-server)")
    }
    defer { withExtendedLifetime((https, ssh)) {} }
    let identity = [
      "GIT_AUTHOR_NAME": "Bench", "GIT_AUTHOR_EMAIL": "b@example.com",
      "GIT_COMMITTER_NAME": "Bench", "GIT_COMMITTER_EMAIL": "b@example.com",
      "GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0",
    ]
    for (name, url, extra) in transports {
      let env = identity.merging(extra) { $1 }
      if catchUpOnly {
        try catchUp(
          over: name, url: url, env: env, dinger: dinger, large: large, served: served,
          work: work)
        continue
      }
      var times: [String: [Double]] = [:]
      for round in 0..<3 {
        for tool in ["dinger", "git"] {
          let dir = work.appendingPathComponent("\(name)-\(tool)-\(round)")
          let remoteName = "\(name)-\(tool)-\(round).git"
          let remote = served.appendingPathComponent(remoteName)
          try Shell.run("/usr/bin/git", ["clone", "-q", "--bare", small.path, remote.path])
          let first = dir.appendingPathComponent("first")
          let second = dir.appendingPathComponent("second")
          for clone in [first, second] {
            try Shell.run("/usr/bin/git", ["clone", "-q", remote.path, clone.path])
            try Shell.run(
              "/usr/bin/git", ["remote", "set-url", "origin", url(remoteName)], in: clone)
            try Shell.run("/usr/bin/git", ["config", "pull.rebase", "false"], in: clone)
          }
          try addMeetings(50, side: 0, in: first)
          try Shell.run("/usr/bin/git", ["push", "-q", remote.path, "main"], in: first)
          https.share()
          try addMeetings(50, side: 1, in: second)
          let command =
            tool == "dinger"
            ? "'\(dinger)' sync >/dev/null"
            : "git pull -q --no-rebase --no-edit >/dev/null && git push -q >/dev/null"
          times[tool, default: []].append(try Shell.time(command, in: second, env: env))
          let theirs = try Shell.run("/usr/bin/git", ["rev-list", "--count", "main"], in: remote)
          guard theirs.trimmingCharacters(in: .whitespacesAndNewlines) == "2102" else {
            throw BenchError("\(tool) over \(name) left \(theirs) commits on the remote, not 2102")
          }
        }
      }
      printAgainstPull(name, "sync, 2,000 commits + 50 each side  ", times)
      var push: [String: Double] = [:]
      for tool in ["dinger", "git"] {
        let remoteName = "\(name)-initial-\(tool).git"
        try Shell.run(
          "/usr/bin/git",
          ["init", "-q", "--bare", "-b", "main", served.appendingPathComponent(remoteName).path])
        let clone = work.appendingPathComponent("\(name)-initial-\(tool)")
        try Shell.run("/usr/bin/git", ["clone", "-q", large.path, clone.path])
        try Shell.run("/usr/bin/git", ["remote", "set-url", "origin", url(remoteName)], in: clone)
        let log = work.appendingPathComponent("\(name)-initial-\(tool).log").path
        let command =
          tool == "dinger"
          ? "'\(dinger)' sync >'\(log)' 2>&1" : "git push -q origin main >'\(log)' 2>&1"
        push[tool] = try Shell.time(command, in: clone, env: env)
        let count =
          (try? Shell.run(
            "/usr/bin/git", ["rev-list", "--count", "main"],
            in: served.appendingPathComponent(remoteName))) ?? "none"
        guard count.trimmingCharacters(in: .whitespacesAndNewlines) == "20001" else {
          throw BenchError(
            "\(tool)'s initial push over \(name) left \(count) commits, not 20001: "
              + ((try? String(contentsOfFile: log, encoding: .utf8)) ?? ""))
        }
      }
      let pd = push["dinger"]!
      let pg = push["git"]!
      print(
        "  \(name.padding(toLength: 5, withPad: " ", startingAt: 0)) initial push of 20,000 commits       "
          + String(
            format: "dinger %7.1f ms, git push %7.1f ms, ratio %.2f (target <= 1.5) %@",
            pd * 1000, pg * 1000, pd / pg, pd / pg <= 1.5 ? "ok" : "OVER TARGET"))
      try catchUp(
        over: name, url: url, env: env, dinger: dinger, large: large, served: served, work: work)
    }
    print("")
  }

  /// The catch-up row: the remote holds the whole 20,000-commit history; the clone stands at its
  /// first commit with one meeting of its own. The two tools alternate over three rounds, each
  /// on a fresh remote and clone, and the medians are compared.
  static func catchUp(
    over name: String, url: (String) -> String, env: [String: String], dinger: String,
    large: URL, served: URL, work: URL
  ) throws {
    let profile = ProcessInfo.processInfo.environment["DINGER_BENCH_PERF"]
    var times: [String: [Double]] = [:]
    for round in 0..<3 {
      for tool in ["dinger", "git"] {
        let remoteName = "\(name)-behind-\(tool)-\(round).git"
        let remote = served.appendingPathComponent(remoteName)
        try Shell.run("/usr/bin/git", ["clone", "-q", "--bare", large.path, remote.path])
        let clone = work.appendingPathComponent("\(name)-behind-\(tool)-\(round)")
        try Shell.run("/usr/bin/git", ["clone", "-q", large.path, clone.path])
        try Shell.run("/usr/bin/git", ["reset", "-q", "--hard", "main~20000"], in: clone)
        try Shell.run("/usr/bin/git", ["remote", "set-url", "origin", url(remoteName)], in: clone)
        try Shell.run("/usr/bin/git", ["config", "pull.rebase", "false"], in: clone)
        // NB: the clone's remote-tracking ref still names the whole history; a teammate 20,000
        // behind has never fetched it.
        try Shell.run(
          "/usr/bin/git", ["update-ref", "refs/remotes/origin/main", "main"], in: clone)
        try Shell.run("/usr/bin/git", ["reflog", "expire", "--expire=now", "--all"], in: clone)
        try Shell.run("/usr/bin/git", ["gc", "-q", "--prune=now"], in: clone)
        try addMeetings(1, side: 1, in: clone)
        let log = work.appendingPathComponent("\(name)-behind-\(tool)-\(round).log").path
        let perf =
          profile.map { "perf record -q -F 499 -g -o '\($0)/\(name)-\(round).data' " } ?? ""
        let command =
          tool == "dinger"
          ? "\(perf)'\(dinger)' sync >'\(log)' 2>&1"
          : "git pull -q --no-rebase --no-edit >'\(log)' 2>&1 && git push -q >>'\(log)' 2>&1"
        // NB: with DINGER_TRACE set, dinger's timings of each step, from its log, and git's
        // pull taken apart (fetch, merge, push timed one by one; their sum is the round's).
        if tool == "git", ProcessInfo.processInfo.environment["DINGER_TRACE"] != nil {
          var steps: [Double] = []
          for step in ["fetch -q origin", "merge -q --no-edit origin/main", "push -q"] {
            steps.append(try Shell.time("git \(step) >>'\(log)' 2>&1", in: clone, env: env))
          }
          print(
            String(
              format: "git: fetch %.0f ms, merge %.0f ms, push %.0f ms", steps[0] * 1000,
              steps[1] * 1000, steps[2] * 1000))
          times[tool, default: []].append(steps.reduce(0, +))
        } else {
          times[tool, default: []].append(try Shell.time(command, in: clone, env: env))
        }
        if tool == "dinger", ProcessInfo.processInfo.environment["DINGER_TRACE"] != nil {
          print((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
        }
        let count = try Shell.run("/usr/bin/git", ["rev-list", "--count", "main"], in: remote)
        guard count.trimmingCharacters(in: .whitespacesAndNewlines) == "20003" else {
          throw BenchError(
            "\(tool)'s catch-up over \(name) left \(count) commits, not 20003: "
              + ((try? String(contentsOfFile: log, encoding: .utf8)) ?? ""))
        }
      }
    }
    printAgainstPull(name, "catch-up, 20,000 commits behind      ", times)
  }

  /// A row of medians of dinger's sync against `git pull && git push` (target at most 1).
  static func printAgainstPull(_ name: String, _ row: String, _ times: [String: [Double]]) {
    let d = Shell.median(times["dinger"]!)
    let g = Shell.median(times["git"]!)
    print(
      "  \(name.padding(toLength: 5, withPad: " ", startingAt: 0)) \(row)"
        + String(
          format: "dinger %7.1f ms, git pull && git push %7.1f ms, ratio %.2f (target <= 1) %@",
          d * 1000, g * 1000, d / g, d / g <= 1 ? "ok" : "OVER TARGET"))
  }

  /// `count` meetings of team-`side`'s scrum committed on top of main (fast-import).
  static func addMeetings(_ count: Int, side: Int, in clone: URL) throws {
    let scrum = String(format: "6a4f0c1e-0000-4000-8000-%012d", side)
    var stream = ""
    for m in 0..<count {
      let id = String(format: "%08x-%04x-4000-8000-000000000000", m, side + 1)
      let date = ISO8601DateFormatter().string(
        from: Date(timeIntervalSince1970: 1_800_000_000 + Double(m) * 86_400))
      let text =
        "id: \(id)\nscrum: \(scrum)\ndate: \(date)\nlength: 15\nduration: 600\nattendees: [Ada]\nspeakers:\n  - {name: Ada, seconds: 600}\n"
      let subject = "Record meeting of Team \(side)\n"
      stream +=
        "commit refs/heads/main\ncommitter Side <s@example.com> \(1_800_000_000 + m * 60 + side) +0000\n"
      stream += "data \(subject.utf8.count)\n\(subject)"
      if m == 0 { stream += "from refs/heads/main^0\n" }
      stream += "M 100644 inline history/team-\(side)/\(date.prefix(10))-\(id.prefix(8)).yaml\n"
      stream += "data \(text.utf8.count)\n\(text)\n"
    }
    try Shell.run(
      "/usr/bin/git", ["fast-import", "--quiet", "--force"], in: clone, input: Data(stream.utf8))
    try Shell.run("/usr/bin/git", ["reset", "-q", "--hard", "main"], in: clone)
  }
}
