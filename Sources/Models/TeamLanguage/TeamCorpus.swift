import FoundationEssentials

/// The team's own words, as sentences for a language model: what its people said (meeting
/// turns, hand-corrected ones best of all), its notes, scrum titles, attendees' names and the
/// words of its libraries. Words are lowercase ASCII letters and apostrophes, as the
/// recognizer's dictionary spells them; a token with a digit or another letter is left out.
public struct TeamCorpus: Sendable, Equatable {
  /// Sentences, each a list of words.
  public private(set) var sentences: [[String]] = []
  /// Words in all, bounded: `add` takes no more sentences past it.
  public static let mostWords = 2_000_000
  private var words = 0

  public init() {}

  /// Adds `text`, cut into sentences at `.`, `?`, `!`, `;`, `:` and line ends.
  public mutating func add(_ text: String) {
    var sentence: [String] = []
    var token = String.UnicodeScalarView()
    func endToken() {
      defer { token = String.UnicodeScalarView() }
      var scalars = token[...]
      while scalars.first == "'" { scalars = scalars.dropFirst() }
      while scalars.last == "'" { scalars = scalars.dropLast() }
      guard !scalars.isEmpty, scalars.allSatisfy({ ("a"..."z").contains($0) || $0 == "'" })
      else { return }
      sentence.append(String(String.UnicodeScalarView(scalars)))
    }
    func endSentence() {
      endToken()
      if !sentence.isEmpty && words + sentence.count <= Self.mostWords {
        sentences.append(sentence)
        words += sentence.count
      }
      sentence = []
    }
    for scalar in text.unicodeScalars {
      switch scalar {
      case "A"..."Z": token.append(Unicode.Scalar(scalar.value + 32)!)
      case "’": token.append("'")
      case ".", "?", "!", "\n", "\r", ";", ":": endSentence()
      case _
      where scalar == "'" || scalar.properties.isAlphabetic || scalar.properties.numericType != nil:
        token.append(scalar)
      default: endToken()
      }
    }
    endSentence()
  }

  /// Every word used, once.
  public var vocabulary: Set<String> { Set(sentences.joined()) }
}
