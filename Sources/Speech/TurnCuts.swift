/// A word the recognizer heard, with where it lies in the recording (samples).
public struct HeardWord: Sendable, Equatable {
  public var text: String
  public var start: Int
  public var end: Int

  public init(_ text: String, start: Int, end: Int) {
    (self.text, self.start, self.end) = (text, start, end)
  }
}

/// Where a speaker change falls among the words heard. A key pressed late (the next speaker had
/// begun) or early would cut where it came: the word under it split, the words after it given
/// to the wrong speaker (0.7 s late moved 2.7 words per change). The cut moves to the nearest
/// pause within `reach` of the key (a second either side), else to the nearest gap between
/// words; a word is never split.
public enum TurnCuts {
  /// The shortest silence between words taken for a pause (0.15 s at 16 kHz).
  public static let shortestPause = 2400

  /// `words` (one utterance, in order) split at each key (`at`: the sample where the key came,
  /// in order; `turn`: the turn that begins), the first part going to `current`.
  public static func split(
    _ words: [HeardWord], current: Int, keys: [(at: Int, turn: Int)], reach: Int = 16_000
  ) -> [(turn: Int, words: [String])] {
    var groups: [(turn: Int, words: [String])] = []
    var from = 0
    var turn = current
    for key in keys {
      let cut = cutPoint(words, at: key.at, notBefore: from, reach: reach)
      if cut > from { groups.append((turn, words[from..<cut].map(\.text))) }
      from = cut
      turn = key.turn
    }
    if from < words.count { groups.append((turn, words[from...].map(\.text))) }
    return groups
  }

  /// How many words go before the cut for a key at `at`.
  static func cutPoint(_ words: [HeardWord], at: Int, notBefore first: Int, reach: Int) -> Int {
    var best: (index: Int, pause: Bool, distance: Int, gap: Int)?
    for b in first...words.count {
      let gapStart = b == 0 ? Int.min / 2 : words[b - 1].end
      let gapEnd = b == words.count ? Int.max / 2 : words[b].start
      let distance = at < gapStart ? gapStart - at : at > gapEnd ? at - gapEnd : 0
      let gap = gapEnd - gapStart
      let pause = gap >= shortestPause && distance <= reach
      let better: Bool
      if let best {
        if pause != best.pause {
          better = pause
        } else if distance != best.distance {
          better = distance < best.distance
        } else {
          better = gap > best.gap
        }
      } else {
        better = true
      }
      if better { best = (b, pause, distance, gap) }
    }
    return best?.index ?? first
  }
}
