import FoundationEssentials

/// The team's own words, as sentences for a language model: what its people said (meeting
/// turns, hand-corrected ones best of all), its notes, scrum titles, attendees' names and the
/// words of its libraries. Words are lowercase ASCII letters and apostrophes, as the
/// recognizer's dictionary spells them; a token with a digit or another letter is left out.
public struct TeamCorpus: Sendable, Equatable {
  /// Sentences, each a list of words.
  public private(set) var sentences: [[String]] = []
  /// Words in all, bounded: `add` takes no more sentences past it (about a year of daily
  /// 15-minute meetings; the model takes the newest text first). A 2,000,000-word bound let a
  /// pasted 30 MB transcript cost 107 s and a 120 MB model file.
  public static let mostWords = 300_000
  /// Words one text (a transcript, a notes field) may give: a two-hour meeting's worth.
  public static let mostWordsPerText = 20_000
  private var words = 0

  public init() {}

  /// Whether the corpus took all the words it may: further text is not read.
  public var isFull: Bool { words >= Self.mostWords }

  /// Adds `text`, cut into sentences at `.`, `?`, `!`, `;`, `:` and line ends, up to
  /// `mostWordsPerText` of its words; reading stops there (so a huge text costs no more than a
  /// bounded one).
  public mutating func add(_ text: String) {
    let before = words
    let limit = min(Self.mostWords, before + Self.mostWordsPerText)
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
      if !sentence.isEmpty && words + sentence.count <= limit {
        sentences.append(sentence)
        words += sentence.count
      }
      sentence = []
    }
    for scalar in text.unicodeScalars {
      // NB: a sentence of more words than the room left is dropped whole, and reading stops.
      if words + sentence.count > limit { return }
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
