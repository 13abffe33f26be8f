import Foundation
import Models
import Testing

@testable import Schedules

@Suite struct ZoneRulesTests {
  static let zones = [
    "Europe/Berlin", "America/New_York", "Australia/Sydney", "Asia/Kolkata", "America/Sao_Paulo",
    "Pacific/Chatham", "Europe/Dublin", "Africa/Casablanca", "America/Nuuk", "Asia/Tehran", "UTC",
  ]

  /// Our TZif reader against Foundation's zones (ICU's own copy of the data): the same offset at
  /// every 6 hours from 1990 to 2045, past the files' last transitions (the footer rule).
  @Test(arguments: zones) func offsetsAgreeWithFoundation(_ name: String) throws {
    let rules = try #require(ZoneDatabase.system.rules(name))
    let zone = try #require(TimeZone(identifier: name))
    var disagreements: [String] = []
    var t: Int64 = 631_152_000  // 1990
    while t < 2_366_841_600 {  // 2045
      let ours = rules.offset(at: t)
      let theirs = zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(t)))
      if ours != theirs { disagreements.append("\(t): \(ours) vs \(theirs)") }
      t += 6 * 3600
    }
    // NB: ICU's data may be a release older or newer than the system's; a few days may differ
    // where a zone changed its rules recently (Casablanca's Ramadan days, say). Not more.
    #expect(disagreements.count < 40, "\(disagreements.prefix(5))")
  }

  @Test func wallClockAcrossBerlinsDSTChanges() throws {
    let berlin = try #require(ZoneDatabase.system.rules("Europe/Berlin"))
    // 09:30 on 2027-03-27 (CET, +1) and 2027-03-29 (CEST, +2).
    let before = berlin.utc(forLocal: local("2027-03-27", 9, 30))
    let after = berlin.utc(forLocal: local("2027-03-29", 9, 30))
    #expect(before == utc("2027-03-27", 8, 30))
    #expect(after == utc("2027-03-29", 7, 30))
    // 02:30 on the spring-forward night does not exist: read with the offset before, 03:30 CEST.
    #expect(berlin.utc(forLocal: local("2027-03-28", 2, 30)) == utc("2027-03-28", 1, 30))
    // 02:30 on the fall-back night happens twice: the first one (CEST).
    #expect(berlin.utc(forLocal: local("2027-10-31", 2, 30)) == utc("2027-10-31", 0, 30))
    #expect(berlin.abbreviation(at: before) == "CET")
    #expect(berlin.abbreviation(at: after) == "CEST")
  }

  @Test func southernAndHalfHourZones() throws {
    let sydney = try #require(ZoneDatabase.system.rules("Australia/Sydney"))
    #expect(sydney.offset(at: utc("2027-01-15", 0, 0)) == 11 * 3600)
    #expect(sydney.offset(at: utc("2027-07-15", 0, 0)) == 10 * 3600)
    let kolkata = try #require(ZoneDatabase.system.rules("Asia/Kolkata"))
    #expect(kolkata.offset(at: utc("2031-07-15", 0, 0)) == 5 * 3600 + 1800)
    #expect(kolkata.wallClock(at: utc("2031-07-15", 4, 0)).time.description == "09:30")
  }

  @Test func posixStrings() throws {
    let berlin = try #require(PosixRule("CET-1CEST,M3.5.0,M10.5.0/3"))
    #expect(berlin.standard == .init(abbreviation: "CET", offset: 3600))
    #expect(berlin.dst?.part == .init(abbreviation: "CEST", offset: 7200))
    #expect(berlin.dst?.end.time == 3 * 3600)
    let kolkata = try #require(PosixRule("IST-5:30"))
    #expect(kolkata.standard.offset == 19_800 && kolkata.dst == nil)
    let quoted = try #require(PosixRule("<-02>2<-01>,M3.5.0/-1,M10.5.0/0"))
    #expect(quoted.standard.offset == -7200 && quoted.dst?.start.time == -3600)
    let us = try #require(PosixRule("EST5EDT"))
    #expect(us.dst?.part.offset == -4 * 3600)
    for bad in ["", "C", "CET", "CET-1CEST,M13.5.0,M10.5.0", "CET-1CEST,M3.5.0", "X1", "CET-99"] {
      #expect(PosixRule(bad) == nil, "\(bad)")
    }
    // Last Sunday of March 2027 is the 28th; first Sunday of April the 4th.
    #expect(
      PosixRule.Day.monthWeekDay(month: 3, week: 5, weekday: 0).date(in: 2027).description
        == "2027-03-28")
    #expect(
      PosixRule.Day.monthWeekDay(month: 4, week: 1, weekday: 0).date(in: 2027).description
        == "2027-04-04")
    #expect(PosixRule.Day.julian(60).date(in: 2028).description == "2028-03-01")
    #expect(PosixRule.Day.zeroBased(59).date(in: 2028).description == "2028-02-29")
  }

  @Test func refusesDamagedFiles() throws {
    let good = try #require(
      ZoneDatabase.readBounded("/usr/share/zoneinfo/Europe/Berlin", limit: ZoneRules.maxBytes))
    #expect((try? ZoneRules(name: "x", tzif: good)) != nil)
    #expect(throws: ZoneRules.Invalid.self) {
      try ZoneRules(name: "x", tzif: Array(good.prefix(40)))
    }
    #expect(throws: ZoneRules.Invalid.self) {
      try ZoneRules(name: "x", tzif: Array("TZjf".utf8) + good.dropFirst(4))
    }
    // Every prefix and every single-byte change: an error or a zone, never a crash.
    for n in stride(from: 0, to: good.count, by: 7) {
      _ = try? ZoneRules(name: "x", tzif: Array(good.prefix(n)))
    }
    for i in stride(from: 0, to: good.count, by: 3) {
      var bent = good
      bent[i] ^= 0xA5
      if let rules = try? ZoneRules(name: "x", tzif: bent) { _ = rules.offset(at: 1_800_000_000) }
    }
  }

  @Test func namesStayInTheZoneFolder() {
    let db = ZoneDatabase.system
    for hostile in [
      "../../etc/passwd", "/etc/passwd", "Europe/../../etc/passwd", "Europe//Berlin", "", "a\nb",
      "Europe/Berlin\0x",
    ] {
      #expect(db.rules(hostile) == nil, "\(hostile)")
    }
    #expect(db.knows("Europe/Berlin"))
    #expect(!db.knows("Europe/Berlinn"))
    #expect(db.suggestion(for: "Europe/Berlinn") == "Europe/Berlin")
    #expect(db.suggestion(for: "europe/berlin") == "Europe/Berlin")
    #expect(db.suggestion(for: "New York") == "America/New_York")
    #expect(db.names().contains("Asia/Kolkata"))
    #expect(!db.names().contains { $0.hasPrefix("posix/") || $0.hasPrefix("right/") })
  }

  @Test func localZoneFromTZ() {
    let db = ZoneDatabase.system
    #expect(db.local(environment: ["TZ": "America/New_York"]).name == "America/New_York")
    #expect(db.local(environment: ["TZ": ":Asia/Kolkata"]).name == "Asia/Kolkata")
    let posix = db.local(environment: ["TZ": "ABC-3XYZ,M3.5.0,M10.5.0/3"])
    #expect(posix.offset(at: utc("2027-01-10", 12, 0)) == 3 * 3600)
    #expect(posix.offset(at: utc("2027-07-10", 12, 0)) == 4 * 3600)
    #expect(db.local(environment: ["TZ": "Nowhere/Land"]).name == "UTC")
  }
}

func local(_ day: String, _ h: Int, _ m: Int) -> Int64 {
  Int64(CivilDate(day)!.dayNumber) * 86_400 + Int64(h * 3600 + m * 60)
}

func utc(_ day: String, _ h: Int, _ m: Int) -> Int64 { local(day, h, m) }
