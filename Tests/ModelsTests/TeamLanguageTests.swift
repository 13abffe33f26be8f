import Foundation
import Models
import Testing

/// The team's language model: sentences from its text, probabilities that sum to one, and an
/// ARPA file that says the same as the model (read back here by ARPA's back-off rule).
@Suite struct TeamLanguageTests {
  static let text = """
    Yesterday I fixed the Kubernetes deploy. Today I review Ana's pull request!
    Blocked on the staging database; Bo will help.
    Today I pair with Chella on the deploy script: 3 bugs left, naïve café.
    """

  @Test func sentencesAreLowercaseWordsTheDictionaryCouldHave() {
    var corpus = TeamCorpus()
    corpus.add(Self.text)
    #expect(
      corpus.sentences == [
        ["yesterday", "i", "fixed", "the", "kubernetes", "deploy"],
        ["today", "i", "review", "ana's", "pull", "request"],
        ["blocked", "on", "the", "staging", "database"],
        ["bo", "will", "help"],
        ["today", "i", "pair", "with", "chella", "on", "the", "deploy", "script"],
        ["bugs", "left"],
      ])
  }

  /// A pasted transcript as big as a meeting file may be (8 MiB) gives one text's share of
  /// words, and reading stops there; the whole corpus stays within its bound however many
  /// such texts come, and its model with it.
  @Test func aHugeTextGivesABoundedCorpus() {
    var corpus = TeamCorpus()
    let sentence = "alpha beta gamma delta epsilon. "
    let huge = String(repeating: sentence, count: 8 << 20 / sentence.utf8.count)
    corpus.add(huge)
    let first = corpus.sentences.joined().count
    #expect(first <= TeamCorpus.mostWordsPerText && first > TeamCorpus.mostWordsPerText - 10)
    for _ in 0..<40 { corpus.add(huge) }
    #expect(corpus.isFull)
    #expect(corpus.sentences.joined().count <= TeamCorpus.mostWords)
    corpus.add("one more sentence")
    #expect(corpus.sentences.last != ["one", "more", "sentence"])
    // Distinct words at the bound: the model file stays tens of megabytes, not hundreds.
    var distinct = TeamCorpus()
    let letters = Array("abcdefghijklmnopqrstuvwxyz".unicodeScalars)
    let words = (0..<TeamCorpus.mostWordsPerText).map { i in
      var (n, word) = (i, String.UnicodeScalarView())
      repeat {
        word.append(letters[n % 26])
        n /= 26
      } while n > 0
      return "w" + String(word)
    }
    distinct.add(words.joined(separator: " "))
    #expect(NGramModel(distinct.sentences).arpa.utf8.count < 4 << 20)
  }

  func model() -> NGramModel {
    var corpus = TeamCorpus()
    corpus.add(Self.text)
    corpus.add("the deploy is green. the deploy is red. today the deploy")
    return NGramModel(corpus.sentences)
  }

  @Test func probabilitiesAfterAnyHistorySumToOne() {
    let m = model()
    let outcomes = m.words.filter { $0 != "<s>" } + ["</s>", "\u{0}unknown"]
    for history in [
      [], ["the"], ["the", "deploy"], ["deploy", "is"], ["never", "seen"], ["<s>"],
    ] {
      let sum = outcomes.reduce(0.0) { $0 + pow(10, m.probability($1, after: history)) }
      #expect(abs(sum - 1) < 1e-6, "after \(history): \(sum)")
    }
  }

  @Test func theARPAFileSaysWhatTheModelSays() throws {
    let m = model()
    var prob: [String: Double] = [:]
    var backoff: [String: Double] = [:]
    var section = 0
    var declared: [Int: Int] = [:]
    var listed: [Int: Int] = [:]
    for line in m.arpa.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("ngram ") {
        let parts = line.dropFirst(6).split(separator: "=")
        declared[Int(parts[0])!] = Int(parts[1])!
      } else if line.hasPrefix("\\") && line.hasSuffix("-grams:") {
        section = Int(line.dropFirst().prefix(1))!
      } else if section > 0, !line.isEmpty, !line.hasPrefix("\\") {
        let fields = line.split(separator: " ").map(String.init)
        let gram = fields[1...section].joined(separator: " ")
        prob[gram] = Double(fields[0])!
        if fields.count == section + 2 { backoff[gram] = Double(fields[section + 1])! }
        listed[section, default: 0] += 1
      }
    }
    #expect(declared == listed, "counts in \\data\\ match the sections")
    func arpa(_ words: [String]) -> Double {
      if let p = prob[words.joined(separator: " ")] { return p }
      if words.count == 1 { return prob["<unk>"]! }
      return (backoff[words.dropLast().joined(separator: " ")] ?? 0)
        + arpa(Array(words.dropFirst()))
    }
    for history in [[], ["the"], ["the", "deploy"], ["i", "review"], ["zzz", "the"]] {
      for word in m.words + ["</s>"] where word != "<s>" {
        let expected = m.probability(word, after: history)
        #expect(abs(arpa(history + [word]) - expected) < 1e-5, "\(history) \(word)")
      }
    }
  }
}
