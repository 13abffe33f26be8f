import Foundation

/// `dinger import scrumdinger` and `dinger export scrumdinger` of 10,000 meetings (20 scrums of
/// 6 people, a short transcript each), against a floor doing the same work with other tools:
/// for import, Python's JSON parse of the file, the same record files copied in, and one
/// `git add -A && git commit`; for export, `cat` of the same record files and Python's JSON
/// parse and write of the same file. Target: 1.5x each. Median of 5, interleaved.
enum InterchangeBench {
  static func run(dinger: String, root: URL) throws {
    print("Import and export: 10,000 meetings from and to Scrumdinger")
    let work = root.appendingPathComponent("bench-interchange-v1")
    let file = work.appendingPathComponent("scrums.data")
    let done = work.appendingPathComponent("imported")
    if !FileManager.default.fileExists(atPath: done.appendingPathComponent(".git").path) {
      try? FileManager.default.removeItem(at: work)
      try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
      try JSONSerialization.data(withJSONObject: scrums(), options: [.sortedKeys])
        .write(to: file)
      try Shell.dataRepository(at: done, dinger: dinger)
      try Shell.run(dinger, ["import", "scrumdinger", file.path], in: done, env: Shell.identity)
    }
    let python = Shell.which("python3") ?? "/usr/bin/python3"
    // NB: each import goes into a new empty data repository, made outside the timing, and the
    // disk is synced before each timed run: removing 10,000 files just before a run doubled it.
    let runs = work.appendingPathComponent("runs")
    try? FileManager.default.removeItem(at: runs)
    defer { try? FileManager.default.removeItem(at: runs) }
    func fresh(_ name: String) throws -> URL {
      let repo = runs.appendingPathComponent(name)
      try Shell.dataRepository(at: repo, dinger: dinger)
      try Shell.run("/bin/sync", [])
      return repo
    }
    var imports: [Double] = []
    var floors: [Double] = []
    var exports: [Double] = []
    var exportFloors: [Double] = []
    let env = Shell.identity
    for n in 0..<5 {
      imports.append(
        try Shell.time(
          "'\(dinger)' import scrumdinger '\(file.path)' >/dev/null", in: try fresh("import-\(n)"),
          env: env))
      let floorRepo = try fresh("floor-\(n)")
      floors.append(
        try Shell.time(
          "'\(python)' -c 'import json,sys; json.load(open(sys.argv[1]))' '\(file.path)'"
            + " && cp -r '\(done.path)/scrums' '\(done.path)/history' ."
            + " && git add -A && git commit -qm import", in: floorRepo, env: env))
      try Shell.run("/bin/sync", [])
      exports.append(
        try Shell.time(
          "'\(dinger)' export scrumdinger --out '\(work.path)/out.data'", in: done, env: env))
      exportFloors.append(
        try Shell.time(
          "cat scrums/*.yaml history/*/*.yaml >/dev/null && '\(python)' -c 'import json,sys;"
            + " json.dump(json.load(open(sys.argv[1])), open(sys.argv[2], \"w\"), indent=2)'"
            + " '\(file.path)' '\(work.path)/floor.data'", in: done, env: env))
    }
    let (i, f, e, ef) = (
      Shell.median(imports), Shell.median(floors), Shell.median(exports),
      Shell.median(exportFloors)
    )
    print(String(format: "  dinger import scrumdinger                 %8.1f ms", i * 1000))
    print(String(format: "  floor: json parse, cp, git add+commit     %8.1f ms", f * 1000))
    print(String(format: "  dinger export scrumdinger                 %8.1f ms", e * 1000))
    print(String(format: "  floor: cat, json parse and write          %8.1f ms", ef * 1000))
    Measure.ratio("import / floor", i / f, target: 1.5)
    Measure.ratio("export / floor", e / ef, target: 1.5)
  }

  /// 20 scrums of 6 people, 500 meetings each, one a working day from 2020 on, as the
  /// Scrumdinger app of 2022-24 writes them.
  static func scrums() -> [[String: Any]] {
    var rng = BenchRandom(state: 54)
    let names = [
      "Ada", "Bo", "Chen", "Dee", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lea",
    ]
    func uuid() -> String {
      let hex = String(format: "%016llX%016llX", rng.next(), rng.next())
      let c = Array(hex)
      return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(c[$0]) }
        .joined(separator: "-")
    }
    return (0..<20).map { s in
      let people = (0..<6).map { ["id": uuid(), "name": names[(s + $0) % names.count]] }
      let history: [[String: Any]] = (0..<500).map { m in
        [
          "id": uuid(), "date": 600_000_000.0 + Double(m) * 86_400 + Double(s) * 60,
          "attendees": Array(people.prefix(rng.int(4...6))),
          "transcript": "We talked about ticket \(rng.int(1...900)) and the release.",
        ]
      }
      return [
        "id": uuid(), "title": "Team \(s + 1)", "attendees": people, "lengthInMinutes": 15,
        "theme": ["orange", "sky", "teal", "poppy"][s % 4], "history": history,
      ]
    }
  }
}
