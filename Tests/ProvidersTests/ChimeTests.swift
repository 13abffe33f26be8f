import Foundation
import Providers
import Testing

/// The ding falls back to the terminal bell when it can't be played.
@Suite struct ChimeTests {
  @Test func aDingThatCannotPlayRingsTheBellInstead() {
    for helper in ["/bin/false", "/nonexistent/dinger-transcribe"] {
      let rang = DispatchSemaphore(value: 0)
      Chime.play(environment: ["DINGER_TRANSCRIBE": helper]) { rang.signal() }
      #expect(rang.wait(timeout: .now() + 10) == .success, "\(helper)")
    }
  }

  @Test func aDingThatPlaysDoesNotRingTheBell() {
    let rang = DispatchSemaphore(value: 0)
    Chime.play(environment: ["DINGER_TRANSCRIBE": "/bin/true"]) { rang.signal() }
    #expect(rang.wait(timeout: .now() + 2) == .timedOut)
  }
}
