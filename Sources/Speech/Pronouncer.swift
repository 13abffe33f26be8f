/// Pronunciations for words the recognizer's dictionary lacks (most often attendees' names), in
/// the CMU phone set the en-us model uses.
///
/// A name is first split into words the dictionary may know ("Mary-Jane" is "mary" and "jane").
/// A word it does not know is sounded out by letter-to-sound rules: the longest spelling that
/// matches at each point ("sch", "tch", "ph", "ee"...) gives its phones, with a few rules for
/// context (c and g before e, i and y; a final e that is silent; y as a vowel). The rules are
/// rough, as any for English spelling are, but a name that is near enough lets the language
/// model pick it among the words around it.
public enum Pronouncer {
  /// The words of a name, lowercased, letters only (as the dictionary spells its entries).
  /// Words longer than `longestWord` letters are no one's name and are not taught (a teammate's
  /// 150,000-letter "name" gave the decoder a word of as many phones).
  public static func words(of name: String) -> [String] {
    name.lowercased().split(whereSeparator: { !$0.isLetter && $0 != "'" }).map {
      String($0.filter { $0.isASCII && ($0.isLetter || $0 == "'") })
    }.filter { !$0.isEmpty && $0.utf8.count <= longestWord }
  }

  /// The longest word taught, in letters (the longest names in use are about 30).
  public static let longestWord = 48

  /// Phones for `word` (lowercase ASCII letters) by rule; never empty for a non-empty word.
  public static func phones(_ word: String) -> String {
    let letters = Array(word.lowercased().filter { $0.isASCII && $0.isLetter })
    var out: [String] = []
    var i = 0
    func at(_ k: Int) -> Character? { k >= 0 && k < letters.count ? letters[k] : nil }
    func isVowel(_ c: Character?) -> Bool { c.map { "aeiouy".contains($0) } ?? false }
    while i < letters.count {
      // A final e after a consonant is silent ("grace", "jane").
      if letters[i] == "e", i == letters.count - 1, i >= 2, !isVowel(at(i - 1)) {
        break
      }
      var matched = false
      for length in stride(from: 4, through: 2, by: -1) where i + length <= letters.count {
        if let phones = spellings[String(letters[i..<i + length])] {
          out += phones
          i += length
          matched = true
          break
        }
      }
      if matched { continue }
      let c = letters[i]
      let next = at(i + 1)
      switch c {
      case "c": out += (next == "e" || next == "i" || next == "y") ? ["S"] : ["K"]
      case "g": out += (next == "e" || next == "i" || next == "y") && i > 0 ? ["JH"] : ["G"]
      case "y":
        out += i == 0 ? ["Y"] : isVowel(next) ? ["Y"] : i == letters.count - 1 ? ["IY"] : ["IH"]
      case "a":
        // A vowel before one consonant and a final e is long ("jane", "kate").
        out += longVowel(letters, i) ? ["EY"] : i == letters.count - 1 ? ["AH"] : ["AE"]
      case "e": out += longVowel(letters, i) ? ["IY"] : i == letters.count - 1 ? ["IY"] : ["EH"]
      case "i": out += longVowel(letters, i) ? ["AY"] : i == letters.count - 1 ? ["IY"] : ["IH"]
      case "o": out += longVowel(letters, i) || i == letters.count - 1 ? ["OW"] : ["AA"]
      case "u": out += longVowel(letters, i) ? ["UW"] : ["AH"]
      default:
        if let phones = singles[c] { out += phones }
      }
      i += 1
    }
    // Doubled consonants sound once ("anna", "bella").
    var merged: [String] = []
    for p in out where merged.last != p || vowels.contains(p) { merged.append(p) }
    return merged.isEmpty ? "AH" : merged.joined(separator: " ")
  }

  static func longVowel(_ letters: [Character], _ i: Int) -> Bool {
    i + 2 == letters.count - 1 && letters[i + 2] == "e" && !"aeiouy".contains(letters[i + 1])
  }

  static let vowels: Set<String> = [
    "AA", "AE", "AH", "AO", "AW", "AY", "EH", "ER", "EY", "IH", "IY", "OW", "OY", "UH", "UW",
  ]

  static let spellings: [String: [String]] = [
    "tion": ["SH", "AH", "N"], "ough": ["AO"], "augh": ["AO"],
    "sch": ["SH"], "tch": ["CH"], "igh": ["AY"], "eau": ["OW"], "que": ["K"],
    "ch": ["CH"], "sh": ["SH"], "th": ["TH"], "ph": ["F"], "ck": ["K"], "ng": ["NG"],
    "qu": ["K", "W"], "wh": ["W"], "kn": ["N"], "gh": ["G"], "dg": ["JH"],
    "ee": ["IY"], "ea": ["IY"], "ie": ["IY"], "ei": ["EY"], "oo": ["UW"], "ou": ["AW"],
    "ow": ["OW"], "ai": ["EY"], "ay": ["EY"], "oa": ["OW"], "oi": ["OY"], "oy": ["OY"],
    "au": ["AO"], "aw": ["AO"], "ew": ["UW"], "ue": ["UW"], "ey": ["IY"],
    "ar": ["AA", "R"], "er": ["ER"], "ir": ["ER"], "ur": ["ER"], "or": ["AO", "R"],
  ]

  static let singles: [Character: [String]] = [
    "b": ["B"], "d": ["D"], "f": ["F"], "h": ["HH"], "j": ["JH"], "k": ["K"], "l": ["L"],
    "m": ["M"], "n": ["N"], "p": ["P"], "q": ["K"], "r": ["R"], "s": ["S"], "t": ["T"],
    "v": ["V"], "w": ["W"], "x": ["K", "S"], "z": ["Z"],
  ]
}
