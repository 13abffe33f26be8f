import Foundation
import TestSupport
import Testing

/// `dinger stats` and `dinger report`: the numbers recomputed by an independent script straight
/// from the YAML, the page opened in a real browser.
@Suite(
  .enabled(
    if: Prerequisite.met(PyYAML.isAvailable),
    "needs python3 with PyYAML (make deps installs it)"))
struct ReportTests {
  static let now = "2026-11-20T18:00:00Z"

  /// Design: daily at 09:00 UTC from 2026-11-02, ten minutes; twelve meetings with speakers,
  /// transcribed turns in some, one held far longer. Ops: meetings recorded without speakers.
  static func team() throws -> Sandbox {
    let box = try Sandbox()
    try expectOK(box.dinger("init"))
    try expectOK(
      box.dinger(
        "scrum", "new", "Design", "--attendee", "Ada, Bob, Cy, Di", "--length", "10", "--theme",
        "teal", "--at", "09:00", "--days", "daily", "--zone", "UTC", "--from", "2026-11-02"))
    try expectOK(box.dinger("scrum", "new", "Ops", "--attendee", "Eve, Fay", "--theme", "orange"))
    let id = Sandbox.id(in: try box.read("scrums/design.yaml"))
    let days = [2, 3, 4, 6, 9, 10, 11, 12, 13, 16, 17, 19]
    for (i, day) in days.enumerated() {
      let people = ["Ada", "Bob", "Cy", "Di"].enumerated().filter { (k, _) in (i + k) % 5 != 0 }
      let speakers = people.map { k, n in
        "  - {name: \(n), seconds: \(60 + 37 * ((i * 3 + k) % 7) + (i == 5 ? 400 : 0))}"
      }
      let total = people.map { k, _ in 60 + 37 * ((i * 3 + k) % 7) + (i == 5 ? 400 : 0) }.reduce(
        0, +)
      var text = """
        id: 00000000-0000-4000-8000-0000000000\(String(format: "%02d", i))
        scrum: \(id)
        date: 2026-11-\(String(format: "%02d", day))T09:0\(i % 4):00Z
        length: 10
        duration: \(total)
        attendees: [Ada, Bob, Cy, Di]
        speakers:
        \(speakers.joined(separator: "\n"))

        """
      if i % 3 == 0 {
        text +=
          "turns:\n"
          + people.map { k, n in
            "  - {speaker: \(n), start: \(k * 60), text: \"\(String(repeating: "word ", count: 3 + i + k))done\"}"
          }.joined(separator: "\n") + "\n"
      }
      try box.write(
        "history/design/2026-11-\(String(format: "%02d", day))-000000\(String(format: "%02d", i)).yaml",
        text)
    }
    try box.git("add", "-A")
    try box.git("commit", "-qm", "meetings by hand")
    for (day, minutes) in [(3, 5), (10, 7)] {
      try expectOK(
        box.dinger(
          "meet", "ops", "--record", "--date", "2026-11-\(String(format: "%02d", day))T14:00:00Z",
          "--duration",
          "\(minutes)m", "--attendee", "Eve"))
    }
    return box
  }

  /// The figures from the YAML files, computed as docs/insights.md defines them.
  static let script = #"""
    import sys, os, json, yaml, datetime, statistics
    root, now = sys.argv[1], datetime.datetime.fromisoformat(sys.argv[2].replace('Z', '+00:00'))
    class Core(yaml.SafeLoader): pass
    Core.yaml_implicit_resolvers = {k: [(t, r) for (t, r) in v if t != 'tag:yaml.org,2002:timestamp']
                                    for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()}
    def load(p): return yaml.load(open(p, encoding='utf-8'), Loader=Core)
    def when(s): return datetime.datetime.fromisoformat(str(s).replace('Z', '+00:00'))
    out = {}
    for name in sorted(os.listdir(os.path.join(root, 'scrums'))):
        scrum = load(os.path.join(root, 'scrums', name))
        ms = []
        for folder, _, files in os.walk(os.path.join(root, 'history')):
            for f in files:
                m = load(os.path.join(folder, f))
                if m['scrum'] == scrum['id']: ms.append(m)
        ms.sort(key=lambda m: when(m['date']))
        s = {'meetings': len(ms)}
        if ms:
            s['medianMinutes'] = round(statistics.median([m['duration'] / 60 for m in ms]), 1)
            last = ms[-10:]
            s['recent'] = len(last)
            s['overPlan'] = sum(1 for m in last if m['duration'] > m['length'] * 60)
        tot, met, words = {}, {}, {}
        for m in ms:
            for sp in m.get('speakers') or []:
                tot[sp['name']] = tot.get(sp['name'], 0) + sp['seconds']
                met[sp['name']] = met.get(sp['name'], 0) + 1
            for t in m.get('turns') or []:
                words[t['speaker']] = words.get(t['speaker'], 0) + len(t['text'].split())
        everyone = sum(tot.values())
        s['speakers'] = [[n, tot[n], round(tot[n] / everyone, 4), met[n]]
                         for n in sorted(tot, key=lambda n: (-tot[n], n))][:8]
        s['words'] = [[n, words[n]] for n in sorted(words, key=lambda n: (-words[n], n))][:8]
        recent = ms[-30:]
        def present(n, m):
            if not m.get('speakers'): return n in (m.get('attendees') or [])
            return any(sp['name'] == n and sp['seconds'] > 0 for sp in m['speakers'])
        names = [a if isinstance(a, str) else a['name'] for a in scrum['attendees']]
        s['attended'] = {n: sum(1 for m in recent if present(n, m)) for n in names}
        weeks = {}
        def monday(d): return (d.date() - datetime.timedelta(days=d.weekday())).isoformat()
        for m in ms: weeks[monday(when(m['date']))] = weeks.get(monday(when(m['date'])), 0) + 1
        sched = scrum.get('schedule')
        missed = {}
        if sched and ms:
            # Daily at `at` UTC from `from` (the test's schedule), up to now; an occurrence is
            # kept when no meeting started from 2 h before it to 2 h after its planned end.
            h, mi = map(int, sched['at'].split(':'))
            day = max(datetime.date.fromisoformat(str(sched['from'])), when(ms[0]['date']).date())
            while True:
                occ = datetime.datetime(day.year, day.month, day.day, h, mi, tzinfo=datetime.timezone.utc)
                end = occ + datetime.timedelta(minutes=scrum['length'])
                if end > now: break
                if not any(occ - datetime.timedelta(hours=2) <= when(m['date']) <= end + datetime.timedelta(hours=2) for m in ms):
                    missed[monday(occ)] = missed.get(monday(occ), 0) + 1
                day += datetime.timedelta(days=1)
        s['weeks'] = {w: [weeks.get(w, 0), missed.get(w, 0)] for w in set(weeks) | set(missed)}
        out[scrum['title']] = s
    print(json.dumps(out))
    """#

  @Test func statsAgreeWithAnIndependentScriptAndTheReportShowsThem() throws {
    let box = try Self.team()
    let env = ["DINGER_TEST_NOW": Self.now]
    let r = try box.dinger(["stats", "--json"], env: env)
    #expect(r.status == 0, "\(r.stderr)")
    let ours = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
    let py = try ProcessRunner.run(
      ProcessRunner.which("python3")!, ["-c", Self.script, box.data.path, Self.now])
    #expect(py.status == 0, "\(py.stderr)")
    let theirs =
      try JSONSerialization.jsonObject(with: Data(py.stdout.utf8)) as! [String: [String: Any]]
    let scrums = ours["scrums"] as! [[String: Any]]
    #expect(scrums.count == 2)
    for s in scrums {
      let title = s["title"] as! String
      let t = try #require(theirs[title], "\(title)")
      #expect(s["meetings"] as? Int == t["meetings"] as? Int, "\(title) meetings")
      #expect(s["medianMinutes"] as? Double == t["medianMinutes"] as? Double, "\(title) median")
      #expect(
        s["overPlan"] as? Int == t["overPlan"] as? Int
          && s["recent"] as? Int == t["recent"] as? Int, "\(title) over plan")
      let speakers = (s["speakers"] as! [[String: Any]]).map {
        "\($0["name"]!) \($0["seconds"]!) \($0["share"]!) \($0["meetings"]!)"
      }
      let theirSpeakers = (t["speakers"] as! [[Any]]).map { "\($0[0]) \($0[1]) \($0[2]) \($0[3])" }
      #expect(speakers == theirSpeakers, "\(title) speakers")
      let words = (s["words"] as! [[String: Any]]).map { "\($0["name"]!) \($0["words"]!)" }
      #expect(words == (t["words"] as! [[Any]]).map { "\($0[0]) \($0[1])" }, "\(title) words")
      let attendance = s["attendance"] as! [String: Any]
      let attended = Dictionary(
        uniqueKeysWithValues: (attendance["people"] as! [[String: Any]]).map {
          ($0["name"] as! String, $0["attended"] as! Int)
        })
      for (name, count) in t["attended"] as! [String: Int] {
        #expect(attended[name] == count, "\(title) \(name) attended")
      }
      let weeks = (s["weeks"] as! [[String: Any]]).filter {
        ($0["meetings"] as! Int) + (($0["missed"] as? Int) ?? 0) > 0
      }
      let theirWeeks = t["weeks"] as! [String: [Int]]
      #expect(weeks.count == theirWeeks.count, "\(title) weeks")
      for w in weeks {
        let pair = theirWeeks[w["week"] as! String]
        #expect(pair == [w["meetings"] as! Int, (w["missed"] as? Int) ?? 0], "\(title) \(w)")
      }
    }
    // Design's figures as the test data makes them: one meeting far over plan, missed days.
    let design = scrums.first { $0["title"] as? String == "Design" }!
    #expect((design["overPlan"] as? Int ?? 0) >= 1)
    #expect(
      ((design["weeks"] as! [[String: Any]]).compactMap { $0["missed"] as? Int }.reduce(0, +)) > 0)

    // The page shows the same numbers in its tables.
    let page = box.home.url.appendingPathComponent("report.html")
    try expectOK(box.dinger(["report", "--out", page.path], env: env))
    let html = try String(contentsOf: page, encoding: .utf8)
    let t = theirs["Design"]!
    for row in t["speakers"] as! [[Any]] {
      #expect(
        html.contains(
          "<tr><th scope=\"row\">\(row[0])</th><td>\(row[1])</td><td>\(String(format: "%.4f", row[2] as! Double))</td><td>\(row[3])</td></tr>"
        ), "\(row)")
    }
    #expect(
      html.contains(
        "median \(Self.minutes(t["medianMinutes"] as! Double)) min, \(t["overPlan"]!) of the last \(t["recent"]!) over plan"
      ))
    #expect(!html.contains("<script") && !html.contains("http://") && !html.contains("https://"))
    // A folder: an index and a page per scrum and library.
    let site = box.home.url.appendingPathComponent("site/")
    try expectOK(box.dinger(["report", "--out", site.path + "/"], env: env))
    let pages = try FileManager.default.contentsOfDirectory(atPath: site.path).sorted()
    #expect(pages == ["index.html", "scrum-design.html", "scrum-ops.html"], "\(pages)")
    // The terminal view fits 80 columns.
    let text = try box.dinger(["stats"], env: env).stdout
    #expect(text.contains("Design") && text.contains("who talks"))
    #expect(text.split(separator: "\n").allSatisfy { $0.count <= 80 }, "\(text)")
  }

  /// A range and a scrum named: only those meetings, only that scrum, no libraries.
  @Test func sinceUntilAndOneScrum() throws {
    let box = try Self.team()
    let r = try box.dinger(
      ["stats", "design", "--since", "2026-11-10", "--until", "2026-11-17", "--json"],
      env: ["DINGER_TEST_NOW": Self.now, "TZ": "UTC"])
    #expect(r.status == 0, "\(r.stderr)")
    let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
    let scrums = json["scrums"] as! [[String: Any]]
    #expect(scrums.map { $0["title"] as? String } == ["Design"])
    #expect(scrums[0]["meetings"] as? Int == 6)  // the 10th, 11th, 12th, 13th, 16th and 17th
    #expect((json["libraries"] as? [Any])?.isEmpty ?? true)
    let bad = try box.dinger("report", "--since", "someday")
    #expect(bad.status != 0 && bad.stderr.contains("--since"), "\(bad.stderr)")
  }

  static func minutes(_ m: Double) -> String {
    m == m.rounded() ? "\(Int(m))" : String(format: "%.1f", m)
  }

  @Test func hostileBigAndEmpty() throws {
    let box = try Sandbox()
    try expectOK(box.dinger("init"))
    var r = try box.dinger("stats")
    #expect(r.stdout.contains("no scrums yet"), "\(r.stdout)")
    let empty = box.home.url.appendingPathComponent("empty.html")
    try expectOK(box.dinger("report", "--out", empty.path))
    #expect(try String(contentsOf: empty, encoding: .utf8).contains("No scrums yet"))
    // 40,000 attendees, one meeting where all of them spoke; a hostile title and names.
    let names = (0..<40_000).map { "P\($0)" }
    try box.write(
      "scrums/big.yaml",
      "id: 11111111-1111-4111-8111-111111111111\ntitle: \"<img src=x onerror=alert(1)>\"\nlength: 600\nattendees:\n"
        + names.map { "  - \($0)\n" }.joined() + "  - \"</table><script>alert(2)</script>\"\n")
    try box.write(
      "history/big/2026-11-02-22222222.yaml",
      "id: 22222222-2222-4222-8222-222222222222\nscrum: 11111111-1111-4111-8111-111111111111\ndate: 2026-11-02T09:00:00Z\nlength: 600\nduration: 36000\nattendees: []\nspeakers:\n"
        + names.enumerated().map { "  - {name: \($1), seconds: \($0 % 90 + 1)}\n" }.joined()
        + "  - {name: \"</table><script>alert(2)</script>\", seconds: 5000}\n")
    try box.git("add", "-A")
    try box.git("commit", "-qm", "big")
    let page = box.home.url.appendingPathComponent("big.html")
    r = try box.dinger("report", "--out", page.path)
    #expect(r.status == 0, "\(r.stderr)")
    let html = try String(contentsOf: page, encoding: .utf8)
    #expect(!html.contains("<img") && !html.contains("<script"))
    #expect(html.contains("&lt;img src=x onerror=alert(1)&gt;"))
    #expect(html.contains("39993 others"), "the rest summed up")
    #expect(html.contains("and 39971 more people"))
    #expect(html.utf8.count < 400_000, "\(html.utf8.count) bytes")
  }
}

/// Headless Chromium opens the report with the network off: the charts and tables are there,
/// nothing from the data became an element, no console error, and the screenshot shows the
/// scrums' theme colours.
@Suite(
  .enabled(
    if: Prerequisite.met(ProcessRunner.which("chromium") != nil && PyYAML.isAvailable),
    "needs chromium (make deps installs it)"))
struct ReportBrowserTests {
  static func chromium(_ args: [String], in dir: URL) throws -> ProcessResult {
    try ProcessRunner.run(
      ProcessRunner.which("chromium")!,
      [
        "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
        "--host-resolver-rules=MAP * ~NOTFOUND", "--user-data-dir=\(dir.path)/chromium-profile",
        "--enable-logging=stderr", "--v=0",
      ] + args, timeout: 120)
  }

  /// The colours of a PNG's pixels (8-bit RGB or RGBA, not interlaced), via Python's zlib.
  static let colours = #"""
    import sys, zlib, struct, json
    data = open(sys.argv[1], 'rb').read()
    assert data[:8] == b'\x89PNG\r\n\x1a\n'
    pos, idat, w, h, ct = 8, b'', 0, 0, 0
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b'IHDR': w, h, depth, ct = struct.unpack('>IIBB', body[:10])
        if kind == b'IDAT': idat += body
        pos += 12 + n
    bpp = 4 if ct == 6 else 3
    raw, stride, prev, seen = zlib.decompress(idat), w * bpp, bytearray(w * bpp), {}
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        for x in range(0, stride, bpp * 2):
            key = '#%02x%02x%02x' % tuple(line[x:x + 3]); seen[key] = seen.get(key, 0) + 1
        prev = line
    print(json.dumps(seen))
    """#

  @Test func chromiumRendersTheReport() throws {
    let box = try ReportTests.team()
    try box.write(
      "scrums/evil.yaml",
      "title: \"<img src=x onerror=alert(1)>\"\ntheme: poppy\nlength: 5\nattendees: [\"<b>Mallory</b>\"]\n"
    )
    try box.git("add", "-A")
    try box.git("commit", "-qm", "evil")
    let page = box.home.url.appendingPathComponent("report.html")
    try expectOK(
      box.dinger(["report", "--out", page.path], env: ["DINGER_TEST_NOW": ReportTests.now]))
    let dom = try Self.chromium(["--dump-dom", page.absoluteString], in: box.home.url)
    #expect(dom.status == 0, "\(dom.stderr.suffix(2000))")
    let html = dom.stdout
    #expect(html.components(separatedBy: "<svg").count - 1 >= 6, "charts")
    #expect(
      html.contains("id=\"design-speakers-data\"") && html.contains("id=\"design-attendance-data\"")
    )
    #expect(html.contains("class=\"card\""))
    #expect(!html.contains("<img") && !html.contains("<b>Mallory"), "data became an element")
    #expect(
      !dom.stderr.contains("CONSOLE"),
      "console messages: \(dom.stderr.split(separator: "\n").filter { $0.contains("CONSOLE") })")
    let shot = box.home.url.appendingPathComponent("report.png")
    let taken = try Self.chromium(
      ["--window-size=1000,1400", "--screenshot=\(shot.path)", page.absoluteString],
      in: box.home.url)
    #expect(taken.status == 0, "\(taken.stderr.suffix(2000))")
    let py = try ProcessRunner.run(
      ProcessRunner.which("python3")!, ["-c", Self.colours, shot.path])
    #expect(py.status == 0, "\(py.stderr)")
    let seen = try JSONSerialization.jsonObject(with: Data(py.stdout.utf8)) as! [String: Int]
    #expect(seen.count > 20, "a blank screenshot")
    // Teal (Design's card), orange (Ops), poppy (the hostile one): the theme colours of seed-apps.
    for colour in ["#228f9e", "#ff8b42", "#ff5e5e"] {
      #expect((seen[colour] ?? 0) > 100, "\(colour) not in the screenshot")
    }
  }
}

/// A library's figures: words added (from dinger's commit subjects), quiz scores, the words
/// missed most.
@Suite struct LibraryStatsTests {
  @Test func wordsQuizzesAndMisses() throws {
    let box = try Sandbox()
    try expectOK(box.dinger("init"))
    try expectOK(box.dinger("library", "new", "Spanish", "--language", "es"))
    for (word, meaning) in [("agua", "water"), ("sol", "sun"), ("gato", "cat")] {
      try expectOK(box.dinger("word", "add", word, "--library", "spanish", "--definition", meaning))
    }
    let id = Sandbox.id(in: try box.read("libraries/spanish.yaml"))
    let quizzes: [(String, [(String, Bool)])] = [
      ("2026-11-02", [("agua", true), ("sol", false), ("gato", false)]),
      ("2026-11-09", [("agua", true), ("sol", false), ("gato", true)]),
      ("2026-11-16", [("agua", true), ("sol", true), ("gato", true)]),
    ]
    for (i, (day, answers)) in quizzes.enumerated() {
      try box.write(
        "quizzes/spanish/\(day)-3333333\(i).yaml",
        "id: 33333333-3333-4333-8333-33333333333\(i)\nlibrary: \(id)\ndate: \(day)T12:00:00Z\nquestions:\n"
          + answers.map { "  - {word: \($0.0), correct: \($0.1)}\n" }.joined())
    }
    try box.git("add", "-A")
    try box.git("commit", "-qm", "quizzes by hand")
    let r = try box.dinger("stats", "--json")
    #expect(r.status == 0, "\(r.stderr)")
    let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
    let library = try #require((json["libraries"] as? [[String: Any]])?.first)
    #expect(library["words"] as? Int == 3)
    let month = String(try box.git("log", "-1", "--format=%cI").prefix(7))
    #expect(
      (library["added"] as? [[String: Any]])?.map { "\($0["month"]!) \($0["words"]!)" } == [
        "\(month) 3"
      ])
    #expect(
      (library["quizzes"] as? [[String: Any]])?.map { "\($0["score"]!)/\($0["questions"]!)" } == [
        "1/3", "2/3", "3/3",
      ])
    #expect(
      (library["missed"] as? [[String: Any]])?.map { "\($0["word"]!) \($0["wrong"]!)" } == [
        "sol 2", "gato 1",
      ])
    let text = try box.dinger("stats").stdout
    #expect(text.contains("3 words, last quiz 3/3, most missed: sol"), "\(text)")
    let page = box.home.url.appendingPathComponent("r.html")
    try expectOK(box.dinger("report", "--out", page.path))
    let html = try String(contentsOf: page, encoding: .utf8)
    #expect(
      html.contains("id=\"library-spanish-quizzes\"")
        && html.contains("id=\"library-spanish-missed\""))
  }
}
