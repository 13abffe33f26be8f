import Base
import FoundationEssentials

/// A word library as Anki's text import reads it (File > Import, "Text separated by tabs"):
/// header lines say the separator, that fields are HTML, the note type, the deck and which
/// columns are what; then one note per meaning: the word (with its phonetic) on the front, the
/// definition and example on the back, the part of speech as a tag, and a stable id per
/// meaning so that importing again updates the notes instead of adding copies.
public enum AnkiText {
  public static func render(_ library: Library) -> String {
    var out = """
      #separator:tab
      #html:true
      #notetype:Basic
      #deck:\(line(library.name))
      #columns:Front\tBack\tTags\tGUID
      #tags column:3
      #guid column:4

      """
    let scope = library.id?.lowercased ?? library.name
    for word in library.words {
      let front =
        html(word.text)
        + (word.phonetic.map { " <span class=\"phonetic\">\(html($0))</span>" } ?? "")
      for (i, meaning) in word.meanings.enumerated() {
        var back = html(meaning.definition)
        if let example = meaning.example, !example.trimmed.isEmpty {
          back += "<br><i>\(html(example))</i>"
        }
        var tags = ["dinger"]
        if let pos = meaning.partOfSpeech, !pos.trimmed.isEmpty { tags.append(tag(pos)) }
        out +=
          [front, back, tags.joined(separator: " "), guid(scope, word.naturalKey, i)].joined(
            separator: "\t") + "\n"
      }
    }
    return out
  }

  /// Text as an HTML field: markup escaped (a quote too, so no field starts a CSV quote),
  /// line breaks as `<br>`, tabs as spaces.
  static func html(_ text: String) -> String {
    text.markupEscaped(quotes: true, lineBreak: "<br>")
  }

  /// A header value on one line.
  static func line(_ text: String) -> String {
    String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 })
  }

  /// A tag: Anki separates tags by spaces, so `phrasal verb` becomes `phrasal_verb`.
  static func tag(_ text: String) -> String {
    text.trimmed.map { $0.isWhitespace || $0 == "\"" ? "_" : $0 }.reduce(into: "") { $0.append($1) }
  }

  /// A stable id for one meaning: its library, word and place.
  static func guid(_ scope: String, _ word: String, _ index: Int) -> String {
    var h = FNV1a()
    h.add(scope.utf8)
    h.add(0)
    h.add(word.utf8)
    h.add(0)
    h.add(String(index).utf8)
    return "dinger-" + String(h.value, radix: 36)
  }
}

/// RFC 4180 text read into rows (`library import --csv`): quoted fields with doubled quotes
/// and line breaks inside, CRLF or LF row ends, a byte-order mark skipped. Bounded: at most
/// `maxRows` rows of at most `maxFields` fields.
public enum CSVReader {
  public static let maxRows = 200_000
  public static let maxFields = 64

  public struct Failure: Error, CustomStringConvertible, Sendable {
    public var description: String
  }

  public static func rows(_ bytes: [UInt8]) throws -> [[String]] {
    var rows: [[String]] = []
    var row: [String] = []
    var field: [UInt8] = []
    var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    var line = 1
    var quoted = false
    var wasQuoted = false
    func endField() throws {
      guard row.count < maxFields else {
        throw Failure(description: "line \(line) has more than \(maxFields) fields")
      }
      row.append(String(decoding: field, as: UTF8.self))
      field.removeAll(keepingCapacity: true)
      wasQuoted = false
    }
    func endRow() throws {
      try endField()
      if !(row.count == 1 && row[0].isEmpty) { rows.append(row) }
      row.removeAll()
      guard rows.count <= maxRows else {
        throw Failure(description: "more than \(maxRows) rows")
      }
    }
    while i < bytes.count {
      let b = bytes[i]
      if quoted {
        if b == 34 {
          if i + 1 < bytes.count, bytes[i + 1] == 34 {
            field.append(34)
            i += 2
            continue
          }
          quoted = false
          wasQuoted = true
        } else {
          if b == 10 { line += 1 }
          field.append(b)
        }
        i += 1
        continue
      }
      switch b {
      case 34 where field.isEmpty && !wasQuoted: quoted = true
      case 34:
        throw Failure(
          description:
            "line \(line): a quote inside an unquoted field (quote the field and double the quote)")
      case 44: try endField()
      case 13 where i + 1 < bytes.count && bytes[i + 1] == 10: break
      case 10, 13:
        try endRow()
        line += 1
      default:
        guard !wasQuoted else {
          throw Failure(description: "line \(line): text after a quoted field's closing quote")
        }
        field.append(b)
      }
      i += 1
    }
    if quoted { throw Failure(description: "line \(line): a quoted field is never closed") }
    if !field.isEmpty || !row.isEmpty || wasQuoted { try endRow() }
    return rows
  }
}

/// Words from a spreadsheet's CSV: a header row naming the columns (`text`, `phonetic`,
/// `partOfSpeech`, `definition`, `example`; any case, `word` and `part of speech` too), then one
/// meaning per row; rows with one text are one word's meanings.
public enum LibraryCSV {
  public static func words(_ bytes: [UInt8]) throws -> (words: [Word], notes: [String]) {
    let rows = try CSVReader.rows(bytes)
    guard let header = rows.first else {
      throw CSVReader.Failure(
        description: "the file is empty; it needs a header row: text,definition")
    }
    func column(_ names: [String]) -> Int? {
      header.firstIndex { h in
        names.contains(
          h.trimmed.lowercased().replacingText("_", with: "").replacingText(" ", with: ""))
      }
    }
    guard let text = column(["text", "word"]), let definition = column(["definition", "meaning"])
    else {
      throw CSVReader.Failure(
        description:
          "the header row must name a 'text' and a 'definition' column (found: \(header.map { "'\(OneLineText.excerpt($0, limit: 30))'" }.joined(separator: ", ")))"
      )
    }
    let phonetic = column(["phonetic"])
    let pos = column(["partofspeech", "pos"])
    let example = column(["example"])
    var words: [Word] = []
    var index: [String: Int] = [:]
    var notes: [String] = []
    for (n, row) in rows.dropFirst().enumerated() {
      func cell(_ i: Int?) -> String? {
        guard let i, i < row.count else { return nil }
        // NB: a cell dinger's export guarded against formulas ('=...) reads back as written.
        let v = CSVTables.unguarded(row[i].trimmed)
        return v.isEmpty ? nil : v
      }
      guard let t = cell(text) else {
        notes.append("row \(n + 2) has no text; left out")
        continue
      }
      guard let d = cell(definition) else {
        notes.append("row \(n + 2) ('\(OneLineText.excerpt(t))') has no definition; left out")
        continue
      }
      let meaning = Meaning(partOfSpeech: cell(pos), definition: d, example: cell(example))
      var word = Word(text: t, phonetic: cell(phonetic), meanings: [meaning])
      if let i = index[word.naturalKey] {
        words[i].meanings.append(meaning)
        if words[i].phonetic == nil { words[i].phonetic = word.phonetic }
      } else {
        word.meanings = [meaning]
        index[word.naturalKey] = words.count
        words.append(word)
      }
    }
    return (words, notes)
  }
}
