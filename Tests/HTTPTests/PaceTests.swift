import Foundation
import Testing

@testable import HTTP

/// When an http answer is too slow: a server preparing its answer is waited for (10 minutes by
/// default, said every 5 s), one whose answer has started and then slows below a byte a second
/// for 60 s is given up on; a time the user sets (http.lowSpeedTime) counts from the start.
@Suite struct PaceTests {
  @Test func aSilentServerIsWaitedForUpToTenMinutesByDefault() {
    var pace = Pace(settings: HTTPSettings(), now: 0)
    #expect(pace.observe(sent: 0, of: 0, received: 0, at: 1) == .fine)
    #expect(pace.observe(sent: 0, of: 0, received: 0, at: 5.2) == .waiting(5))
    #expect(pace.observe(sent: 0, of: 0, received: 0, at: 6) == .fine)
    #expect(pace.observe(sent: 0, of: 0, received: 0, at: 90) == .waiting(90))
    #expect(pace.observe(sent: 0, of: 0, received: 0, at: 599) == .waiting(595))
    #expect(
      pace.observe(sent: 0, of: 0, received: 0, at: 600) == .stalled(.preparing(seconds: 600)))
  }

  @Test func theSilenceCountsFromTheEndOfTheRequestsUpload() {
    var pace = Pace(settings: HTTPSettings(), now: 0)
    // 50 s of sending a big request (a push's pack), then the server checks it in silence.
    for t in stride(from: 1.0, through: 50, by: 1) {
      #expect(pace.observe(sent: Int(t) * 1000, of: 50_000, received: 0, at: t) == .fine)
    }
    #expect(pace.observe(sent: 50_000, of: 50_000, received: 0, at: 590) == .waiting(540))
    #expect(pace.observe(sent: 50_000, of: 50_000, received: 0, at: 651) != .fine)
  }

  @Test func anAnswerThatStopsFlowingIsGivenUpOnAfterTheLowSpeedTime() {
    var pace = Pace(settings: HTTPSettings(), now: 0)
    #expect(pace.observe(sent: 0, of: 0, received: 0, at: 100) == .waiting(100))
    #expect(pace.observe(sent: 0, of: 0, received: 10_000, at: 101) == .fine)
    #expect(pace.observe(sent: 0, of: 0, received: 20_000, at: 150) == .fine)
    // Then nothing more: 60 s at less than a byte a second.
    #expect(pace.observe(sent: 0, of: 0, received: 20_000, at: 200) == .fine)
    guard
      case .stalled(.timedOut(_, let seconds)) = pace.observe(
        sent: 0, of: 0, received: 20_010, at: 261)
    else {
      Issue.record("not given up on")
      return
    }
    #expect(seconds == 60)
  }

  @Test func aSlowButSteadyAnswerGoesOn() {
    var pace = Pace(settings: HTTPSettings(), now: 0)
    var bytes = 0
    for t in stride(from: 1.0, through: 600, by: 1) {
      bytes += 2
      #expect(pace.observe(sent: 0, of: 0, received: bytes, at: t) == .fine)
    }
  }

  @Test func aTimeTheUserSetsCountsFromTheStartAsInGit() {
    let settings = HTTPSettings.read(
      config: { $0 == "http.lowSpeedTime" ? "3" : nil }, environment: [:])
    #expect(settings.lowSpeedTime == 3 && settings.preparingTime == 3)
    var pace = Pace(settings: settings, now: 0)
    #expect(pace.observe(sent: 0, of: 0, received: 0, at: 3) == .stalled(.preparing(seconds: 3)))
    let defaults = HTTPSettings.read(config: { _ in nil }, environment: [:])
    #expect(defaults.lowSpeedTime == 60 && defaults.preparingTime == 600)
  }
}
