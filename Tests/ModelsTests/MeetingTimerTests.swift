import Clocks
import Foundation
import Models
import Testing

@Suite struct MeetingTimerTests {
  @Test(arguments: [
    (300, 7, [43, 43, 43, 43, 43, 43, 42]), (600, 4, [150, 150, 150, 150]), (60, 0, []),
    (5, 7, [1, 1, 1, 1, 1, 0, 0]), (0, 3, [0, 0, 0]),
  ])
  func sharesAddUpExactly(total: Int, count: Int, expected: [Int]) {
    let shares = MeetingTimer.shares(total: total, count: count)
    #expect(shares == expected)
    if count > 0 { #expect(shares.reduce(0, +) == total) }
  }

  @Test func aMeetingWithNoAttendeesHasOneSpeakerAndNoCrash() {
    var timer = MeetingTimer(attendees: [], minutes: 1)
    #expect(timer.speakers == ["Speaker 1"])
    for _ in 0..<60 { timer.tick() }
    #expect(timer.phase == .finished(saved: true))
    #expect(timer.speakerTimes == [SpeakerTime(name: "Speaker 1", seconds: 60)])
  }

  @Test func unevenLengthsEndExactlyOnTime() {
    // 5 minutes over 7 people: the seed apps ended at 294 s.
    var timer = MeetingTimer(attendees: (1...7).map { "P\($0)" }, minutes: 5)
    var ticks = 0
    while !timer.isFinished {
      timer.tick()
      ticks += 1
    }
    #expect(ticks == 300)
    #expect(timer.dings == 7)
    #expect(timer.speakerTimes.map(\.seconds) == [43, 43, 43, 43, 43, 43, 42])
  }

  @Test func moreSpeakersThanSecondsNeverStall() {
    var timer = MeetingTimer(attendees: (1...90).map { "P\($0)" }, minutes: 1)
    var ticks = 0
    while !timer.isFinished && ticks < 1000 {
      timer.tick()
      ticks += 1
    }
    #expect(ticks == 60)
    #expect(timer.spoken.reduce(0, +) == 60)
  }

  /// With overtime the last speaker goes on past the planned length: one ding at the planned
  /// end, the time over counted, and the meeting ends only when asked.
  @Test func overtimeLetsTheLastSpeakerRunOver() {
    var timer = MeetingTimer(attendees: ["Ada", "Grace"], minutes: 1, overtime: true)
    var events: [MeetingTimer.Event] = []
    for _ in 0..<90 { if let e = timer.tick() { events.append(e) } }
    #expect(events == [.ding, .ding])
    #expect(timer.phase == .running && timer.isLastSpeaker)
    #expect(timer.elapsed == 90 && timer.over == 30 && timer.remaining == 0)
    #expect(timer.speakerTimes.map(\.seconds) == [30, 60])
    #expect(timer.next() == .finished)
    #expect(timer.phase == .finished(saved: true))
    // Without it the meeting ends on time.
    var strict = MeetingTimer(attendees: ["Ada", "Grace"], minutes: 1)
    for _ in 0..<90 { strict.tick() }
    #expect(strict.isFinished && strict.elapsed == 60 && strict.over == 0)
  }

  @Test func nextMovesOnWithoutADingAndFinishesAfterTheLast() {
    var timer = MeetingTimer(attendees: ["Ada", "Grace"], minutes: 1)
    timer.tick()
    #expect(timer.next() == .ding)
    #expect(timer.current == 1)
    #expect(timer.dings == 0)
    #expect(timer.isLastSpeaker)
    #expect(timer.next() == .finished)
    #expect(timer.phase == .finished(saved: true))
    #expect(
      timer.speakerTimes == [
        SpeakerTime(name: "Ada", seconds: 1), SpeakerTime(name: "Grace", seconds: 0),
      ])
  }

  @Test func pauseStopsTheClock() {
    var timer = MeetingTimer(attendees: ["Ada"], minutes: 1)
    timer.tick()
    timer.pause()
    for _ in 0..<10 { timer.tick() }
    #expect(timer.elapsed == 1)
    timer.resume()
    timer.tick()
    #expect(timer.elapsed == 2)
  }

  @Test func endingEarlyAsksAndEachAnswerDoesItsThing() {
    var timer = MeetingTimer(attendees: ["Ada", "Grace"], minutes: 2)
    for _ in 0..<5 { timer.tick() }
    timer.requestEnd()
    #expect(timer.phase == .confirmingEnd(resumePaused: false))
    timer.tick()
    #expect(timer.elapsed == 5, "the clock stops while the question shows")
    timer.confirmEnd(.resume)
    #expect(timer.phase == .running)
    timer.pause()
    timer.requestEnd()
    timer.confirmEnd(.resume)
    #expect(timer.phase == .paused)
    timer.requestEnd()
    var discarded = timer
    discarded.confirmEnd(.discard)
    #expect(discarded.phase == .finished(saved: false))
    timer.confirmEnd(.saveAndEnd)
    #expect(timer.phase == .finished(saved: true))
    #expect(timer.speakerTimes == [SpeakerTime(name: "Ada", seconds: 5)])
  }

  /// The session on a test clock: ticks once a second, dings heard, stops at the end.
  // NB: the clock is stepped a second at a time until the timer reaches each state (with a cap):
  // under a loaded machine the session may not be asleep again when one big step finishes.
  @Test func aSessionOnATestClock() async {
    let clock = TestClock()
    let dings = DingCounter()
    let session = MeetingSession(MeetingTimer(attendees: ["Ada", "Grace", "Linus"], minutes: 1)) {
      event, _ in
      dings.add(event)
    }
    let task = Task { await session.run(clock: clock) }
    defer { task.cancel() }
    func step(until done: () async -> Bool) async {
      var steps = 0
      while await !done() && steps < 2_000 {
        await clock.advance(by: .seconds(1))
        steps += 1
      }
    }
    await step { await session.timer.elapsed >= 20 }
    #expect(await session.timer.elapsed == 20)
    #expect(await session.timer.current == 1)
    #expect(dings.dings == 1)
    await session.update {
      $0.togglePause(); return nil
    }
    for _ in 0..<30 { await clock.advance(by: .seconds(1)) }
    #expect(await session.timer.elapsed == 20)
    await session.update {
      $0.togglePause(); return nil
    }
    await step { await session.timer.isFinished }
    #expect(await session.timer.phase == .finished(saved: true))
    #expect(await session.timer.elapsed == 60)
    #expect(dings.dings == 2)
    #expect(dings.finished == 1)
  }
}

final class DingCounter: @unchecked Sendable {
  private let lock = NSLock()
  private(set) var dings = 0
  private(set) var finished = 0
  func add(_ event: MeetingTimer.Event) {
    lock.withLock {
      if event == .ding { dings += 1 } else { finished += 1 }
    }
  }
}
