import Foundation
import TestSupport
import Testing

/// The written stand-up's figures: an independent script (PyYAML) recomputes participation and
/// the blocker figures from the files dinger wrote and matches `stats --json`; the report shows
/// the entries and the blockers chart in headless Chromium at 1280 and 420 px, with whole-number
/// ticks and no text out of its box.
@Suite(
  .serialized,
  .enabled(if: Prerequisite.met(PyYAML.isAvailable), "needs PyYAML (make deps installs it)"))
struct StandupInsightsTests {
  static let people = ["Ada", "Bo", "Chen", "Dee"]

  /// Three weeks of entries, written by dinger (`--as`: the sandbox's git user is none of them),
  /// from a seeded generator: who writes which day, blockers opened, carried, resolved by others.
  static func team() throws -> Sandbox {
    let box = try Sandbox()
    expectOK(try box.dinger("init"))
    try box.git("config", "user.name", "Robot")
    try box.git("config", "user.email", "robot@example.com")
    var args = ["scrum", "new", "Platform", "--length", "15"]
    for p in people { args += ["--attendee", p] }
    expectOK(try box.dinger(args))
    var scrum = try box.read("scrums/platform.yaml")
    scrum = scrum.replacingOccurrences(
      of: "  - Dee\n",
      with:
        "  - name: Dee\n    away:\n      - {from: 2026-11-04, until: 2026-11-10, note: holiday}\n")
    try box.write("scrums/platform.yaml", scrum)
    try box.git("commit", "-qam", "Dee's holiday")
    var rng = SeededGenerator(seed: 40)
    var open: [String] = []
    for day in 2...20 {  // 2026-11-02 is a Monday
      let date = "2026-11-\(day < 10 ? "0" : "")\(day)"
      let env = ["DINGER_TEST_NOW": "\(date)T10:00:00Z"]
      for person in people where Int.random(in: 0..<10, using: &rng) < 7 {
        var a = ["standup", "platform", "--as", person, "--today", "\(person) works on \(date)"]
        if Int.random(in: 0..<4, using: &rng) == 0 {
          a += ["--blocker", "\(person) blocked on \(date)"]
        }
        if let id = open.first, Int.random(in: 0..<3, using: &rng) == 0 { a += ["--resolve", id] }
        let r = try box.dinger(a, env: env)
        expectOK(r)
        // The blockers still open, as dinger says.
        let listed = try box.dinger(["blockers", "platform", "--json"], env: env).stdout
        open = listed.split(separator: "\"").filter { $0.count == 9 && $0.hasPrefix("b") }
          .map(String.init)
      }
    }
    return box
  }

  static let now = "2026-11-20T18:00:00Z"

  /// Participation and blockers from the YAML files, as docs/standups.md defines them.
  static let script = #"""
    import sys, os, json, yaml, datetime
    root, today = sys.argv[1], datetime.date.fromisoformat(sys.argv[2][:10])
    class Core(yaml.SafeLoader): pass
    Core.yaml_implicit_resolvers = {k: [(t, r) for (t, r) in v if t != 'tag:yaml.org,2002:timestamp']
                                    for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()}
    def load(p): return yaml.load(open(p, encoding='utf-8'), Loader=Core)
    def fnv(parts):
        h = 0xcbf29ce484222325
        for i, part in enumerate(parts):
            if i: h = ((h ^ 0) * 0x100000001b3) & 0xffffffffffffffff
            for b in part.encode(): h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
        return 'b%08x' % (h & 0xffffffff)
    reserved = {'scrum', 'date', 'by', 'blockers', 'resolved'}
    scrum = load(os.path.join(root, 'scrums', 'platform.yaml'))
    entries = []
    for f in sorted(os.listdir(os.path.join(root, 'standups', 'platform'))):
        entries.append(load(os.path.join(root, 'standups', 'platform', f)))
    def written(e):
        return any(k not in reserved and str(v).strip() for k, v in e.items() if v is not None) or bool(e.get('blockers'))
    first = min(datetime.date.fromisoformat(e['date']) for e in entries)
    people = []
    for a in scrum['attendees']:
        name = a if isinstance(a, str) else a['name']
        away = [] if isinstance(a, str) else a.get('away') or []
        wrote = {e['date'] for e in entries if e['by'].strip().lower() == name.lower() and written(e)}
        expected = done = 0
        d = first
        while d <= today:
            off = any(datetime.date.fromisoformat(x['from']) <= d <= datetime.date.fromisoformat(x.get('until', x['from'])) for x in away)
            if d.weekday() < 5 and not off:
                expected += 1
                done += d.isoformat() in wrote
            d += datetime.timedelta(days=1)
        people.append([name, expected, done])
    # Blockers: a day's mentions, then its resolutions.
    blockers, order = {}, []
    for day in sorted({e['date'] for e in entries}):
        todays = sorted([e for e in entries if e['date'] == day], key=lambda e: e['by'].lower())
        for e in todays:
            for b in e.get('blockers') or []:
                if isinstance(b, str): bid, text = fnv([scrum['id'], e['date'], e['by'].strip().lower(), b.strip()]), b
                else: bid, text = b['id'], b.get('text', '')
                if bid not in blockers:
                    blockers[bid] = {'opened': day, 'resolved': None}; order.append(bid)
                elif blockers[bid]['resolved'] and blockers[bid]['resolved'] < day:
                    blockers[bid]['resolved'] = None
        for e in todays:
            for r in e.get('resolved') or []:
                rid = r if isinstance(r, str) else r['id']
                if rid in blockers and not blockers[rid]['resolved']: blockers[rid]['resolved'] = day
    def workdays(a, b):
        a, b = datetime.date.fromisoformat(a), datetime.date.fromisoformat(b)
        n, d = 0, a
        while d < b:
            d += datetime.timedelta(days=1); n += d.weekday() < 5
        return n
    spans = sorted(workdays(b['opened'], b['resolved']) for b in blockers.values() if b['resolved'])
    median = None
    if spans:
        m = len(spans) // 2
        median = spans[m] if len(spans) % 2 else (spans[m - 1] + spans[m]) / 2
    print(json.dumps({'people': people, 'open': sum(1 for b in blockers.values() if not b['resolved']),
                      'resolved': sum(1 for b in blockers.values() if b['resolved']), 'median': median,
                      'opened': len(blockers)}))
    """#

  @Test func statsAgreeWithAnIndependentScript() throws {
    let box = try Self.team()
    let r = try box.dinger(["stats", "--json"], env: ["DINGER_TEST_NOW": Self.now])
    expectOK(r)
    let ours = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
    let st = try #require((ours["scrums"] as! [[String: Any]])[0]["standups"] as? [String: Any])
    let py = try ProcessRunner.run(
      ProcessRunner.which("python3")!, ["-c", Self.script, box.data.path, Self.now])
    #expect(py.status == 0, "\(py.stderr)")
    let theirs = try JSONSerialization.jsonObject(with: Data(py.stdout.utf8)) as! [String: Any]
    let participation = (st["participation"] as! [[String: Any]]).map {
      "\($0["person"]!) \($0["expected"]!) \($0["written"]!)"
    }
    let theirParticipation = (theirs["people"] as! [[Any]]).map { "\($0[0]) \($0[1]) \($0[2])" }
    #expect(participation == theirParticipation)
    #expect(st["open"] as? Int == theirs["open"] as? Int)
    #expect(st["resolved"] as? Int == theirs["resolved"] as? Int)
    #expect((st["medianDaysToResolve"] as? Double) == (theirs["median"] as? Double))
    let opened = (st["weeks"] as! [[String: Any]]).reduce(0) { $0 + ($1["opened"] as! Int) }
    #expect(opened == theirs["opened"] as? Int)
    // The data is what the test means it to be: blockers opened and resolved, Dee away.
    #expect((theirs["opened"] as! Int) >= 4 && (theirs["resolved"] as! Int) >= 2, "\(theirs)")
    #expect(participation.contains { $0.hasPrefix("Dee 10 ") }, "\(participation)")
  }

  /// A page that loads the report in a frame and writes what it measures into its own DOM,
  /// which `--dump-dom` prints (the report's own policy runs no script).
  static let probe = #"""
    <!DOCTYPE html><html><body><iframe id="f" src="report.html" style="width:WIDTHpx;height:4000px;border:0"></iframe>
    <pre id="out">waiting</pre>
    <script>
    document.getElementById('f').onload = function () {
      var d = this.contentDocument, out = [];
      // Text wider than its box: every card, entry and figure caption.
      d.querySelectorAll('.card, .card *, .entry, .entry *, figcaption *, .headline *').forEach(function (e) {
        if (e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX === 'visible' && e.clientWidth > 0)
          out.push('overflow ' + e.tagName + ' ' + (e.textContent || '').slice(0, 40));
      });
      d.querySelectorAll('.card').forEach(function (c) {
        var r = c.getBoundingClientRect();
        c.querySelectorAll('*').forEach(function (e) {
          var s = e.getBoundingClientRect();
          if (s.right > r.right + 1) out.push('outside ' + e.tagName + ' ' + e.textContent.slice(0, 40));
        });
      });
      // Axis text tall enough to read (a 720-unit chart drawn 400 px wide had 6 px text).
      d.querySelectorAll('svg text').forEach(function (t) {
        var h = t.getBoundingClientRect().height;
        if (h > 0 && h < 8) out.push('small ' + h.toFixed(1) + ' ' + t.textContent);
      });
      // Ticks of count charts are whole numbers.
      d.querySelectorAll('[id$=-blockers] svg text.axis, [id$=-weeks] svg text.axis').forEach(function (t) {
        var s = t.textContent;
        if (/^[0-9.]+$/.test(s) && s.indexOf('.') >= 0) out.push('tick ' + s);
      });
      out.push('entries ' + d.querySelectorAll('.entry').length);
      out.push('blockers-chart ' + d.querySelectorAll('[id$=-blockers] svg rect').length);
      document.getElementById('out').textContent = out.join('\n');
    };
    </script></body></html>
    """#

  @Test(
    .enabled(if: Prerequisite.met(ProcessRunner.which("chromium") != nil), "needs chromium"),
    arguments: [1280, 420])
  func theReportShowsEntriesAndBlockersAndFitsItsBoxes(width: Int) throws {
    let box = try Self.team()
    let site = box.home.url.appendingPathComponent("site")
    try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
    let page = site.appendingPathComponent("report.html")
    expectOK(try box.dinger(["report", "--out", page.path], env: ["DINGER_TEST_NOW": Self.now]))
    let probe = site.appendingPathComponent("probe.html")
    try Self.probe.replacingOccurrences(of: "WIDTH", with: "\(width)")
      .write(to: probe, atomically: true, encoding: .utf8)
    let dom = try ReportBrowserTests.chromium(
      [
        "--allow-file-access-from-files", "--virtual-time-budget=10000",
        "--window-size=\(width),4000", "--dump-dom", probe.absoluteString,
      ], in: box.home.url)
    #expect(dom.status == 0, "\(dom.stderr.suffix(1000))")
    let found =
      dom.stdout.components(separatedBy: "<pre id=\"out\">").last?
      .components(separatedBy: "</pre>").first ?? ""
    let lines = found.split(separator: "\n").map(String.init)
    #expect(!lines.contains { $0.hasPrefix("overflow") || $0.hasPrefix("outside") }, "\(lines)")
    #expect(!lines.contains { $0.hasPrefix("small") }, "\(lines)")
    #expect(!lines.contains { $0.hasPrefix("tick") }, "\(lines)")
    let entries = lines.first { $0.hasPrefix("entries ") }.flatMap { Int($0.dropFirst(8)) } ?? 0
    #expect(entries >= 20, "\(lines)")
    let bars =
      lines.first { $0.hasPrefix("blockers-chart ") }.flatMap { Int($0.dropFirst(15)) } ?? 0
    #expect(bars >= 3, "\(lines)")
    // And a screenshot at that width is the page, not a blank.
    let shot = box.home.url.appendingPathComponent("report-\(width).png")
    let taken = try ReportBrowserTests.chromium(
      ["--window-size=\(width),2400", "--screenshot=\(shot.path)", page.absoluteString],
      in: box.home.url)
    #expect(taken.status == 0)
    let py = try ProcessRunner.run(
      ProcessRunner.which("python3")!, ["-c", ReportBrowserTests.colours, shot.path])
    let seen = try JSONSerialization.jsonObject(with: Data(py.stdout.utf8)) as! [String: Int]
    #expect(seen.count > 20, "a blank screenshot")
  }
}
