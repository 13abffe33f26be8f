/// The transcript's note for audio the transcriber dropped on a loaded machine: one honest
/// account, not a list of hundreds of sub-second spans. Spans closer than `joinGap` seconds are
/// one stretch; past five stretches the note gives the first and last times and the count.
public enum LostAudioNote {
  /// Spans closer than this many seconds read as one stretch.
  public static let joinGap = 10

  /// The note; `elapsed` ends a span still open when the helper stopped.
  public static func text(_ lost: [(start: Double, seconds: Double)], elapsed: Int) -> String {
    var stretches: [(from: Int, to: Int)] = []
    var total = 0.0
    for span in lost.sorted(by: { $0.start < $1.start }) {
      let from = max(0, Int(span.start.isFinite ? span.start : 0))
      // NB: a span still open when the helper ended runs to the end of the meeting.
      let end = span.seconds > 0 ? (span.start + span.seconds).rounded(.up) : Double(elapsed)
      let to = max(from, Int(end.isFinite ? min(end, 1e9) : Double(elapsed)))
      total += Double(to - from) > 0 ? (span.seconds > 0 ? span.seconds : Double(to - from)) : 0
      if let last = stretches.last, from - last.to < joinGap {
        stretches[stretches.count - 1].to = max(last.to, to)
      } else {
        stretches.append((from, to))
      }
    }
    let seconds = Int(total.rounded())
    let parts = lost.count == 1 ? "" : " in \(lost.count) short drops"
    let when: String
    if stretches.count <= 5 {
      when = stretches.map { "\(MeetingScreen.clock($0.from))-\(MeetingScreen.clock($0.to))" }
        .joined(separator: ", ")
    } else {
      when =
        "\(stretches.count) stretches between \(MeetingScreen.clock(stretches[0].from)) and \(MeetingScreen.clock(stretches[stretches.count - 1].to))"
    }
    return
      "Transcription fell behind and dropped \(seconds) s of audio\(parts) (\(when)): what was said then is not in the turns."
  }
}
