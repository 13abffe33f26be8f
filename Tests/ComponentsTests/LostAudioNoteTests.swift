import Components
import Foundation
import Testing

/// Audio dropped on a loaded machine reads as one account (it was 273 separate sub-second spans
/// in one ten-minute meeting).
@Suite struct LostAudioNoteTests {
  @Test func hundredsOfShortDropsAreOneAccount() {
    // 273 drops of 0.3 s every 2 s, from 1:00 on.
    let drops = (0..<273).map { (start: 60 + Double($0) * 2, seconds: 0.3) }
    let note = LostAudioNote.text(drops, elapsed: 600)
    #expect(
      note
        == "Transcription fell behind and dropped 82 s of audio in 273 short drops (1:00-10:05): what was said then is not in the turns.",
      "\(note)")
  }

  @Test func farApartDropsAreListedAndManyStretchesSummed() {
    let two = LostAudioNote.text([(start: 10, seconds: 2), (start: 300, seconds: 0)], elapsed: 420)
    #expect(
      two.contains("dropped 122 s of audio in 2 short drops (0:10-0:12, 5:00-7:00)"), "\(two)")
    let many = (0..<8).map { (start: Double($0) * 60, seconds: 1.0) }
    let note = LostAudioNote.text(many, elapsed: 600)
    #expect(note.contains("(8 stretches between 0:00 and 7:01)"), "\(note)")
  }
}
