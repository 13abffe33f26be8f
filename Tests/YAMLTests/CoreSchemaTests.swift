import Testing

@testable import YAML

@Suite struct CoreSchemaTests {
  @Test(arguments: [
    ("null", CoreSchema.Resolved.null), ("~", .null), ("", .null), ("NULL", .null),
    ("true", .bool(true)), ("False", .bool(false)), ("no", .string("no")), ("on", .string("on")),
    ("10", .int(10)), ("-3", .int(-3)), ("+7", .int(7)), ("0x1F", .int(31)), ("0o17", .int(15)),
    ("1.0", .float(1)), ("1e3", .float(1000)), (".5", .float(0.5)), ("-.inf", .float(-.infinity)),
    ("2026-01-01", .string("2026-01-01")), ("0x", .string("0x")), ("1_000", .string("1_000")),
    ("12abc", .string("12abc")), ("-", .string("-")), (".", .string(".")),
  ])
  func resolvesLikeYAML12Core(text: String, expected: CoreSchema.Resolved) {
    #expect(CoreSchema.resolve(text) == expected)
  }

  @Test func nanResolvesToAFloat() {
    guard case .float(let d) = CoreSchema.resolve(".nan") else {
      Issue.record("not a float")
      return
    }
    #expect(d.isNaN)
  }

  @Test(arguments: [
    "no", "Yes", "on", "OFF", "y", "N", "null", "~", "10", "0x1F", "1e3", "1.0", "017", "1_000",
    "1:20", "2026-01-01", "2026-01-01T09:00:00Z", ".inf", ".NaN", "<<", "=", "-1", "+.5",
  ])
  func ambiguousStringsAreDetected(text: String) {
    #expect(CoreSchema.isAmbiguous(text))
  }

  @Test(arguments: [
    "Design Review", "10 minutes", "2026 planning", "Ada", "a1", "x-ray", "null-ish",
  ])
  func ordinaryTextIsNotAmbiguous(text: String) {
    #expect(!CoreSchema.isAmbiguous(text))
  }
}
