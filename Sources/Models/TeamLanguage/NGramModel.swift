import Base
import FoundationEssentials
import Glibc

/// A trigram language model of a team's sentences, written in the ARPA format the recognizer
/// reads. Interpolated absolute discounting (D = 0.5 at every order): a seen n-gram keeps its
/// count less D, and the mass taken goes to the shorter history, so that
/// `p(w | h) = max(c(hw) - D, 0) / c(h) + D * n(h) / c(h) * p(w | shorter h)`, where n(h) is
/// how many different words follow h. Written as ARPA does it: the interpolated probability of
/// each seen n-gram, and each history's back-off weight `D * n(h) / c(h)` (exact for an
/// interpolated model: an unseen word gets the back-off weight times the shorter history's
/// probability). Unigrams share their discount mass evenly over the vocabulary and `<unk>`.
public struct NGramModel: Sendable {
  public static let discount = 0.5
  /// Counts of each n-gram, by order (1 to 3); sentences begin with `<s>` and end with `</s>`.
  private var counts: [[[String]: Int]] = [[:], [:], [:]]
  /// For each history of one and two words: how often a word follows it, and how many
  /// different words do.
  private var histories: [[[String]: (count: Int, followers: Int)]] = [[:], [:]]
  private var total = 0

  /// The model of `sentences`.
  public init(_ sentences: [[String]]) {
    for sentence in sentences {
      let words = ["<s>"] + sentence + ["</s>"]
      for i in 0..<words.count {
        for n in 1...3 where i + 1 >= n {
          let gram = Array(words[(i + 1 - n)...i])
          if n == 1 && gram == ["<s>"] { continue }
          counts[n - 1][gram, default: 0] += 1
        }
      }
    }
    for n in 2...3 {
      for (gram, c) in counts[n - 1] {
        let h = Array(gram.dropLast())
        histories[n - 2][h, default: (0, 0)].count += c
        histories[n - 2][h, default: (0, 0)].followers += 1
      }
    }
    total = counts[0].values.reduce(0, +)
  }

  /// The vocabulary, `<s>` and `</s>` left out.
  public var words: [String] { counts[0].keys.map { $0[0] }.filter { $0 != "</s>" }.sorted() }

  /// log10 p(w | history) of the model (history of 0 to 2 words).
  public func probability(_ word: String, after history: [String]) -> Double {
    log10(p(word, history.suffix(2).map { $0 }))
  }

  private func p(_ word: String, _ history: [String]) -> Double {
    let d = Self.discount
    if history.isEmpty {
      let total = Double(self.total)
      let vocabulary = Double(counts[0].count + 1)  // and <unk>
      let seen = Double(counts[0][[word]] ?? 0)
      return max(seen - d, 0) / total + d * Double(counts[0].count) / total / vocabulary
    }
    let (c, followers) = context(history)
    guard c > 0 else { return p(word, Array(history.dropFirst())) }
    let seen = Double(counts[history.count][history + [word]] ?? 0)
    return max(seen - d, 0) / c + d * followers / c * p(word, Array(history.dropFirst()))
  }

  /// How often `history` is followed by a word, and by how many different words.
  private func context(_ history: [String]) -> (count: Double, followers: Double) {
    histories[history.count - 1][history].map { (Double($0.count), Double($0.followers)) }
      ?? (0, 0)
  }

  /// The model as an ARPA file.
  public var arpa: String {
    let index = histories
    let d = Self.discount
    func log(_ x: Double) -> String { String(cFormat: "%.6f", x > 0 ? log10(x) : -99) }
    var lines: [String] = []
    let unigrams = counts[0].keys.map { $0[0] } + ["<s>", "<unk>"]
    lines.append("\\data\\")
    lines.append("ngram 1=\(unigrams.count)")
    lines.append("ngram 2=\(counts[1].count)")
    lines.append("ngram 3=\(counts[2].count)")
    lines.append("")
    lines.append("\\1-grams:")
    for word in unigrams.sorted() {
      let prob = word == "<s>" ? "-99.000000" : log(p(word == "<unk>" ? "\u{0}" : word, []))
      var line = prob + " " + word
      if let h = index[0][[word]] {
        line += " " + log(d * Double(h.followers) / Double(h.count))
      } else if word != "</s>" && word != "<unk>" {
        line += " 0.000000"
      }
      lines.append(line)
    }
    for n in 2...3 {
      lines.append("")
      lines.append("\\\(n)-grams:")
      for gram in counts[n - 1].keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
        var line = log(p(gram.last!, Array(gram.dropLast()))) + " " + gram.joined(separator: " ")
        if n == 2, let h = index[1][gram] {
          line += " " + log(d * Double(h.followers) / Double(h.count))
        }
        lines.append(line)
      }
    }
    lines.append("")
    lines.append("\\end\\")
    return lines.joined(separator: "\n") + "\n"
  }
}
