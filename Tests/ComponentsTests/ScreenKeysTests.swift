import Components
import Models
import Testing

/// The meeting and quiz screens driven by scripted key bytes, as a terminal delivers them:
/// arrow keys (whole or split across reads), a lone Esc, Esc Esc, Ctrl-C.
@Suite struct ScreenKeysTests {
  let esc: UInt8 = 27
  func bytes(_ s: String) -> [UInt8?] { s.utf8.map { $0 } }

  /// Runs keys through the meeting's rules; returns the timer afterwards.
  func meeting(_ script: [UInt8?], speakers: [String] = ["Ada", "Grace"]) -> MeetingTimer {
    var timer = MeetingTimer(attendees: speakers, minutes: 5)
    for key in ScriptedKeys.keys(script) {
      if let action = MeetingKeys.action(key, in: timer) { MeetingKeys.apply(action, to: &timer) }
    }
    return timer
  }

  @Test func arrowKeysDoNothingEvenWhenSplitAcrossReads() {
    // ← → ↑ ↓ as CSI and SS3 (each byte its own read), then ← with a pause after `ESC [` (a
    // slow link): the cut sequence is dropped whole and its tail `D` does nothing.
    let script: [UInt8?] =
      [esc] + bytes("[D") + [esc] + bytes("[C") + [esc] + bytes("OA") + [esc] + bytes("[B")
      + [esc] + bytes("[") + [nil] + bytes("D")
    let timer = meeting(script)
    #expect(timer.phase == .running && timer.current == 0)
  }

  @Test func aLoneEscAsksAndDDiscardsOnlyFromTheQuestion() {
    var timer = meeting([esc, nil])
    #expect(timer.phase == .confirmingEnd(resumePaused: false))
    timer = meeting([esc, nil] + bytes("r"))
    #expect(timer.phase == .running)
    timer = meeting([esc, nil] + bytes("d"))
    #expect(timer.phase == .finished(saved: false))
    // `d` on its own does nothing: only the question discards.
    #expect(meeting(bytes("d")).phase == .running)
  }

  @Test func escEscIsTwoEscapes() {
    // The first asks, the second (Esc in the question) resumes.
    #expect(meeting([esc, esc, nil]).phase == .running)
  }

  @Test func nextMovesOnAndOnTheLastSpeakerAsks() {
    var timer = meeting(bytes("n"))
    #expect(timer.current == 1)
    timer = meeting(bytes("nn"))
    #expect(timer.phase == .confirmingEnd(resumePaused: false))
    timer = meeting(bytes("nns"))
    #expect(timer.phase == .finished(saved: true))
    timer = meeting(bytes("p") + [3])  // pause, then Ctrl-C asks (and remembers the pause)
    #expect(timer.phase == .confirmingEnd(resumePaused: true))
  }

  @Test func helpIsTheScreens() {
    let timer = MeetingTimer(attendees: ["Ada"], minutes: 1)
    #expect(MeetingKeys.action(.byte(UInt8(ascii: "?")), in: timer) == .toggleHelp)
  }

  @Test func leavingAQuizWithAnswersAsksFirst() {
    func actions(_ script: [UInt8?], answered: Int) -> [QuizKeys.Action] {
      var asking = false
      var out: [QuizKeys.Action] = []
      for key in ScriptedKeys.keys(script) {
        guard let action = QuizKeys.action(key, answered: answered, asking: asking) else {
          continue
        }
        out.append(action)
        asking = action == .askToQuit
      }
      return out
    }
    #expect(actions(bytes("q"), answered: 0) == [.quit])
    #expect(actions(bytes("q"), answered: 2) == [.askToQuit])
    #expect(actions(bytes("qx2"), answered: 2) == [.askToQuit, .stay, .answer(1)])
    #expect(actions(bytes("q") + [esc, nil], answered: 2) == [.askToQuit, .quit])
    // Arrow keys (they ended the quiz) do nothing at all.
    #expect(actions([esc] + bytes("[A") + [esc] + bytes("[D"), answered: 2).isEmpty)
  }
}
