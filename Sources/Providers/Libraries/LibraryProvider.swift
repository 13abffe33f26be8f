import Base
import FoundationEssentials
import Glibc
import Models
import Storage
import YAML

/// A library as stored.
public struct StoredLibrary: Sendable, Equatable {
  /// Data-relative path (`libraries/spanish-basics.yaml`).
  public var path: String
  /// The library; without its broken words when `broken` is not empty.
  public var library: Library
  /// Errors inside some words of the file: those words are left out of `library`, and nothing
  /// is written to the file until they are fixed.
  public var broken: [Diagnostic] = []

  /// The file name without `.yaml`: how commands name it.
  public var slug: String { RecordLayout.slug(ofPath: path) }

  /// Creates a stored library.
  public init(path: String, library: Library, broken: [Diagnostic] = []) {
    (self.path, self.library, self.broken) = (path, library, broken)
  }
}

/// A word and the library it belongs to.
public struct LibraryWord: Sendable, Equatable {
  /// The library.
  public var library: StoredLibrary
  /// The word.
  public var word: Word

  /// Pairs a word with its library.
  public init(library: StoredLibrary, word: Word) {
    (self.library, self.word) = (library, word)
  }
}

/// Word libraries: listing, finding, and changes to libraries and their words as commits.
/// A word is identified within its library by its text (case-insensitive, NFC-normalised).
public struct LibraryProvider: Sendable {
  /// The storage verbs (the same as scrums use).
  public let dependencies: ScrumProvider.Dependencies

  /// Wraps dependencies.
  public init(_ dependencies: ScrumProvider.Dependencies) { self.dependencies = dependencies }

  /// Libraries of a git-backed data repository.
  public static func live(repository: DataRepository) -> LibraryProvider {
    LibraryProvider(ScrumProvider.live(repository: repository).dependencies)
  }

  /// Libraries in memory.
  public static func inMemory(_ store: InMemoryStore) -> LibraryProvider {
    LibraryProvider(ScrumProvider.inMemory(store).dependencies)
  }

  // MARK: Reading

  /// Every library that can be read (by name), and the diagnostics of files that cannot. A file
  /// whose errors are all inside words is listed without those words, with its errors in `broken`.
  public func list() throws -> (libraries: [StoredLibrary], problems: [Diagnostic]) {
    let (libraries, problems, _) = try listWithUnreadable()
    return (libraries, problems)
  }

  /// `list`, and the files that do not read (not even salvaged), as names can point at them.
  private func listWithUnreadable() throws -> (
    libraries: [StoredLibrary], problems: [Diagnostic], unreadable: [UnreadableRecord]
  ) {
    var libraries: [StoredLibrary] = []
    var problems: [Diagnostic] = []
    let files = try dependencies.load(.library)
    for file in files {
      let errors = file.diagnostics.filter { $0.severity == .error }
      if case .library(let library) = file.record {
        libraries.append(StoredLibrary(path: file.path, library: library))
      } else if let salvaged = file.salvaged {
        libraries.append(StoredLibrary(path: file.path, library: salvaged, broken: errors))
      } else {
        problems += errors
      }
    }
    libraries.sort {
      ($0.library.name.lowercased(), $0.path) < ($1.library.name.lowercased(), $1.path)
    }
    let unreadable = UnreadableRecord.all(
      in: files.filter { $0.salvaged == nil }, titleKey: "name")
    return (libraries, problems, unreadable)
  }

  /// The library a person means: its slug, its name (any case) or a unique id prefix. The
  /// error suggests close matches.
  public func find(_ query: String) throws -> StoredLibrary {
    let (libraries, _, unreadable) = try listWithUnreadable()
    let q = query.trimmed
    try UnreadableRecord.refuse(
      q, kind: "library", among: unreadable, readableSlug: libraries.contains { $0.slug == q },
      readableTitle: libraries.contains { $0.library.name.lowercased() == q.lowercased() },
      looksLikeID: Self.looksLikeID(q))
    if let i = Self.match(q, libraries.map { ($0.slug, $0.library.name, $0.library.id) }) {
      return libraries[i]
    }
    let byName = libraries.filter { $0.library.name.lowercased() == q.lowercased() }
    if byName.count > 1 {
      throw StorageError(
        "\(byName.count) libraries are named '\(q)'; name one by its file: \(byName.map(\.slug).joined(separator: ", "))"
      )
    }
    if Self.looksLikeID(q) {
      let byID = libraries.filter { $0.library.id?.lowercased.hasPrefix(q.lowercased()) == true }
      if byID.count > 1 {
        throw StorageError("id prefix '\(q)' matches \(byID.count) libraries; give more of it")
      }
    }
    var message = "no library '\(q)'"
    let names = libraries.flatMap { [$0.slug, $0.library.name] }
    var seen = Set<String>()
    // NB: a word of a longer name ('spanish' for 'Spanish basics') is as good a hint as a typo.
    let containing = names.filter { name in
      name.lowercased().containsText(q.lowercased())
        || !Suggestions.closest(
          to: q, in: name.split(whereSeparator: { $0 == " " || $0 == "-" }).map(String.init),
          limit: 1
        ).isEmpty
    }
    let close = (containing + Suggestions.closest(to: q, in: names, limit: 6))
      .filter { seen.insert($0.lowercased()).inserted }.prefix(3)
    if !close.isEmpty {
      message += "; did you mean " + close.map { "'\($0)'" }.joined(separator: " or ") + "?"
    } else if libraries.isEmpty {
      message +=
        "; there are no libraries yet (add one with 'dinger library new NAME --language CODE')"
    } else {
      message += "; 'dinger library list' shows them all"
    }
    throw StorageError(message, kind: .notFound(q))
  }

  /// The library `q` names by `find`'s rules (its slug; else its name, any case, when only one
  /// has it; else a unique id prefix); nil when none does or it is ambiguous.
  static func match(_ q: String, _ candidates: [(slug: String, name: String, id: UUID?)]) -> Int? {
    if let bySlug = candidates.firstIndex(where: { $0.slug == q }) { return bySlug }
    let byName = candidates.indices.filter { candidates[$0].name.lowercased() == q.lowercased() }
    if byName.count == 1 { return byName[0] }
    guard byName.isEmpty, looksLikeID(q) else { return nil }
    let byID = candidates.indices.filter {
      candidates[$0].id?.lowercased.hasPrefix(q.lowercased()) == true
    }
    return byID.count == 1 ? byID[0] : nil
  }

  static func looksLikeID(_ q: String) -> Bool {
    q.count >= 4 && (q.allSatisfy(\.isHexDigit) || q.containsText("-"))
  }

  /// The words `word list` shows, as packed rows by library (libraries in name order, empty
  /// ones left out), when they can be had without decoding words: no search, every library
  /// file clean, and `library` (when given) naming exactly one. Nil otherwise: `wordsByLibrary`
  /// then gives them, or the error `find` gives.
  public func wordListing(library query: String?, language: String?) -> [(
    library: String, rows: WordRows
  )]? {
    guard var listings = dependencies.listings() else { return nil }
    listings.sort { ($0.name.lowercased(), $0.path) < ($1.name.lowercased(), $1.path) }
    if let query {
      guard let i = Self.match(query.trimmed, listings.map { ($0.slug, $0.name, $0.id) }) else {
        return nil
      }
      listings = [listings[i]]
    }
    return
      listings
      .filter { language == nil || Self.sameLanguage($0.language, language!) }
      .filter { $0.rows.count > 0 }
      .map { ($0.name, $0.rows) }
  }

  /// Words of every library (or of `library`), optionally only of a language and only those
  /// whose text, phonetic or definitions contain `search` (any case); by library, then as listed.
  public func words(
    in library: StoredLibrary? = nil, language: String? = nil, search: String? = nil
  )
    throws -> [LibraryWord]
  {
    try wordsByLibrary(in: library, language: language, search: search).flatMap { stored, words in
      words.map { LibraryWord(library: stored, word: $0) }
    }
  }

  /// The same words as `words`, each library's together: a library's own word list is passed
  /// on as it is when nothing is searched (50,000 words need no copy each).
  public func wordsByLibrary(
    in library: StoredLibrary? = nil, language: String? = nil, search: String? = nil
  ) throws -> [(library: StoredLibrary, words: [Word])] {
    let libraries = try library.map { [$0] } ?? list().libraries
    let needle = search?.trimmed.lowercased()
    var out: [(library: StoredLibrary, words: [Word])] = []
    for stored in libraries {
      if let language, !Self.sameLanguage(stored.library.language, language) { continue }
      guard let needle, !needle.isEmpty else {
        if !stored.library.words.isEmpty { out.append((stored, stored.library.words)) }
        continue
      }
      let found = stored.library.words.filter { Self.word($0, contains: needle) }
      if !found.isEmpty { out.append((stored, found)) }
    }
    return out
  }

  /// The word a person means in a library: its text, any case or accent composition.
  public func word(_ text: String, in stored: StoredLibrary) throws -> Word {
    let key = Word(text: text).naturalKey
    if let word = stored.library.words.first(where: { $0.naturalKey == key }) { return word }
    var message = "no word '\(text.trimmed)' in \(stored.library.name)"
    let close = Suggestions.closest(to: text, in: stored.library.words.map(\.text), limit: 3)
    if !close.isEmpty {
      message += "; did you mean " + close.map { "'\($0)'" }.joined(separator: " or ") + "?"
    }
    throw StorageError(message, kind: .notFound(text))
  }

  /// `es` matches `es` and `es-MX`; `es-MX` matches only `es-MX`.
  public static func sameLanguage(_ code: String, _ wanted: String) -> Bool {
    let (a, b) = (code.lowercased(), wanted.lowercased())
    return a == b || a.hasPrefix(b + "-")
  }

  static func word(_ word: Word, contains needle: String) -> Bool {
    if word.text.lowercased().containsText(needle) { return true }
    if word.phonetic?.lowercased().containsText(needle) == true { return true }
    return word.meanings.contains { $0.definition.lowercased().containsText(needle) }
  }

  // MARK: Changes

  /// What a change did.
  public struct Committed: Sendable, Equatable {
    /// The library after the change.
    public var stored: StoredLibrary
    /// The commit's subject.
    public var subject: String
    /// The commit id (hex), nil when nothing changed.
    public var commit: String?

    init(stored: StoredLibrary, subject: String, commit: String? = nil) {
      (self.stored, self.subject, self.commit) = (stored, subject, commit)
    }
  }

  /// Adds an empty library: "Add library Spanish basics". The name is checked, and the file
  /// named, under the writer lock.
  public func create(name: String, language: String) throws -> Committed {
    let library = Library(id: UUID(), name: name.trimmed, language: language.trimmed)
    if let issue = library.validate().first { throw StorageError(issue.message) }
    var path = ""
    let subject = "Add library \(library.name)"
    let commit = try dependencies.commit { snapshot in
      if let same = try list().libraries.first(where: {
        $0.library.name.lowercased() == library.name.lowercased()
      }) {
        throw StorageError(
          "there is already a library named '\(same.library.name)' (\(same.path)); pick another name"
        )
      }
      path = try Slug.uniquePath(
        folder: "libraries", title: library.name, in: snapshot, fallback: "library")
      var change = Change(
        subject: subject,
        trailers: [("Dinger-Action", "library.add"), ("Dinger-Record", library.id!.lowercased)])
      change.write(path, try RecordCodec.newFile(.library(library), at: path))
      return change
    }
    return Committed(
      stored: StoredLibrary(path: path, library: library), subject: subject, commit: commit)
  }

  /// Removes a library; with `withQuizzes`, its quiz results too (refused otherwise when it has
  /// some; counted under the writer lock).
  public func remove(_ stored: StoredLibrary, withQuizzes: Bool) throws -> Committed {
    let (subject, commit) = try dependencies.remove(
      stored.path, id: stored.library.id, kind: "library", title: stored.library.name,
      dependents: (noun: "quiz result", shortNoun: "quiz result", flag: "--with-quizzes"),
      allowed: withQuizzes
    ) { snapshot in
      guard try snapshot.read(stored.path) != nil else {
        throw StorageError(
          "library '\(stored.library.name)' (\(stored.path)) was removed meanwhile")
      }
      return try quizPaths(of: stored)
    }
    return Committed(stored: stored, subject: subject, commit: commit)
  }

  /// Adds a word, or extends the word with that text: a new meaning is appended unless the
  /// word already has that definition, and a phonetic fills an empty one.
  /// "Spanish basics: add hola" / "Spanish basics: hola: add a meaning".
  public func addWord(_ word: Word, to stored: StoredLibrary) throws -> Committed {
    var word = word
    word.text = word.text.trimmed
    guard !word.naturalKey.isEmpty else {
      throw StorageError("a word needs some text; give it as the first argument")
    }
    return try modify(stored, action: "word.add") { library in
      guard let i = library.words.firstIndex(where: { $0.naturalKey == word.naturalKey }) else {
        library.words.append(word)
        return "\(library.name): add \(word.text)"
      }
      var existing = library.words[i]
      var added: [String] = []
      for meaning in word.meanings
      where !existing.meanings.contains(where: {
        $0.definition.trimmed.lowercased() == meaning.definition.trimmed.lowercased()
      }) {
        existing.meanings.append(meaning)
        added.append("add a meaning")
      }
      if existing.phonetic == nil, let phonetic = word.phonetic {
        existing.phonetic = phonetic
        added.append("phonetic \(phonetic)")
      }
      guard !added.isEmpty else { return nil }
      library.words[i] = existing
      return "\(library.name): \(existing.text): " + added.joined(separator: "; ")
    }
  }

  /// Adds many words as one commit ("Spanish basics: import 120 words from words.csv"), each
  /// as `addWord` would: a word already here gains only the meanings and phonetic it lacked.
  /// Returns the commit and how many words were new and how many gained something.
  public func addWords(_ words: [Word], to stored: StoredLibrary, from source: String) throws
    -> (Committed, new: Int, extended: Int)
  {
    var new = 0
    var extended = 0
    let committed = try modify(stored, action: "word.import") { library in
      (new, extended) = (0, 0)
      var index = Dictionary(
        library.words.enumerated().map { ($1.naturalKey, $0) }, uniquingKeysWith: { a, _ in a })
      for var word in words {
        word.text = word.text.trimmed
        guard !word.naturalKey.isEmpty else { continue }
        guard let i = index[word.naturalKey] else {
          index[word.naturalKey] = library.words.count
          library.words.append(word)
          new += 1
          continue
        }
        var existing = library.words[i]
        let before = existing
        for meaning in word.meanings
        where !existing.meanings.contains(where: {
          $0.definition.trimmed.lowercased() == meaning.definition.trimmed.lowercased()
        }) {
          existing.meanings.append(meaning)
        }
        if existing.phonetic == nil { existing.phonetic = word.phonetic }
        if existing != before {
          library.words[i] = existing
          extended += 1
        }
      }
      guard new + extended > 0 else { return nil }
      var parts: [String] = []
      if new > 0 { parts.append("\(new) new word\(new == 1 ? "" : "s")") }
      if extended > 0 { parts.append("\(extended) with more meanings") }
      return "\(library.name): import \(parts.joined(separator: " and ")) from \(source)"
    }
    return (committed, new, extended)
  }

  /// Changes a word (found by `text`, any case): `operation` gets the word as committed at the
  /// moment of the change; a new text must not clash with another word.
  public func updateWord(
    _ text: String, in stored: StoredLibrary, _ operation: (inout Word) throws -> Void
  ) throws -> Committed {
    try modify(stored, action: "word.edit") { library in
      let old = try word(text, in: StoredLibrary(path: stored.path, library: library))
      let i = library.words.firstIndex { $0.naturalKey == old.naturalKey }!
      var new = old
      try operation(&new)
      new.text = new.text.trimmed
      if new.naturalKey != old.naturalKey,
        library.words.contains(where: { $0.naturalKey == new.naturalKey })
      {
        throw StorageError("\(library.name) already has a word '\(new.text)'")
      }
      guard new != old else { return nil }
      library.words[i] = new
      let what = new.text == old.text ? "edit \(old.text)" : "rename \(old.text) to \(new.text)"
      return "\(library.name): \(what)"
    }
  }

  /// Removes a word.
  public func removeWord(_ text: String, from stored: StoredLibrary) throws -> Committed {
    try modify(stored, action: "word.remove") { library in
      let old = try word(text, in: StoredLibrary(path: stored.path, library: library))
      library.words.removeAll { $0.naturalKey == old.naturalKey }
      return "\(library.name): remove \(old.text)"
    }
  }

  /// Changes a library as one commit: `operation` edits the library as committed at that
  /// moment (under the writer lock) and returns the subject, or nil for "nothing to change".
  /// The file is written back in place, so comments and layout stay.
  func modify(
    _ stored: StoredLibrary, action: String, _ operation: (inout Library) throws -> String?
  ) throws -> Committed {
    var result = Committed(stored: stored, subject: "nothing to change", commit: nil)
    result.commit = try dependencies.commit { snapshot in
      let (current, source) = try Self.committed(stored, in: snapshot)
      var library = current
      guard let subject = try operation(&library) else { return nil }
      if let issue = library.validate().first(where: { $0.severity == .error }) {
        throw StorageError(issue.message)
      }
      var body: String?
      if library.id == nil {
        library.id = UUID()
        body = "Gives the library the id dinger uses to recognise it."
      }
      var change = Change(
        subject: subject, body: body,
        trailers: [("Dinger-Action", action), ("Dinger-Record", library.id!.lowercased)])
      change.write(
        stored.path, try RecordCodec.encode(.library(library), updating: source).text)
      result = Committed(
        stored: StoredLibrary(path: stored.path, library: library), subject: subject)
      return change
    }
    return result
  }

  /// The library as committed now at `stored`'s path, with its text. A file with broken
  /// words is refused: writing it would drop them.
  static func committed(_ stored: StoredLibrary, in snapshot: Snapshot) throws -> (
    Library, SourceText
  ) {
    guard let bytes = try snapshot.read(stored.path) else {
      throw StorageError(
        "library '\(stored.library.name)' (\(stored.path)) is not committed: it was removed meanwhile, or is new and not committed yet; 'dinger library list' shows the libraries there are"
      )
    }
    let file = RecordCodec.decode(bytes, path: stored.path, kind: .library)
    let errors = file.diagnostics.filter { $0.severity == .error }
    guard case .library(let library) = file.record else {
      if !errors.isEmpty, file.salvaged != nil {
        try refuseBroken(StoredLibrary(path: stored.path, library: stored.library, broken: errors))
      }
      throw StorageError(
        "\(stored.path) has errors as committed; run 'dinger check \(stored.path)'")
    }
    if let want = stored.library.id, let have = library.id, want != have {
      throw StorageError(
        "\(stored.path) holds another library since it was read (id \(have.lowercased)); run this again"
      )
    }
    return (library, file.source)
  }

  /// Writing a library with broken words would drop them: refuse and say where they are.
  static func refuseBroken(_ stored: StoredLibrary) throws {
    guard let first = stored.broken.first else { return }
    let at = first.line.map { "\(first.file):\($0)" } ?? first.file
    throw StorageError(
      "\(at): \(first.message); fix the broken word\(stored.broken.count == 1 ? "" : "s") in \(stored.path) first ('dinger check \(stored.path)' shows \(stored.broken.count == 1 ? "it" : "them all")), so that no word is lost"
    )
  }

  // MARK: Quiz results

  /// The paths of a library's quiz results.
  public func quizPaths(of stored: StoredLibrary) throws -> [String] {
    try quizzes(of: stored).map(\.path)
  }

  /// A library's quiz results, oldest first.
  public func quizzes(of stored: StoredLibrary) throws -> [(path: String, result: QuizResult)] {
    guard let id = stored.library.id else { return [] }
    return try dependencies.load(.quiz).compactMap { file -> (String, QuizResult)? in
      guard case .quiz(let q) = file.record, q.library == id else { return nil }
      return (file.path, q)
    }
    .sorted { ($0.1.date, $0.0) < ($1.1.date, $1.0) }
  }

  /// Records a quiz as one commit: "Quiz on Spanish basics: 8/10". A library without an id gets
  /// one in the same commit.
  public func record(_ result: QuizResult, on stored: StoredLibrary) throws -> (
    path: String, subject: String
  ) {
    var result = result
    if result.id == nil { result.id = UUID() }
    result.date = Date(timeIntervalSince1970: result.date.timeIntervalSince1970.rounded(.down))
    let id = result.id!.lowercased
    let path =
      "quizzes/\(stored.slug)/\(ISODate.format(result.date).prefix(10))-\(id.prefix(8)).yaml"
    var subject = ""
    _ = try dependencies.commit { snapshot in
      var change = Change(subject: "")
      var library = stored.library
      if library.id == nil {
        // NB: only then is the library file written (and so read as committed now).
        var source: SourceText
        (library, source) = try Self.committed(stored, in: snapshot)
        library.id = library.id ?? UUID()
        change.write(
          stored.path, try RecordCodec.encode(.library(library), updating: source).text)
      }
      result.library = library.id!
      if let issue = result.validate().first(where: { $0.severity == .error }) {
        throw StorageError(issue.message)
      }
      change.subject = "Quiz on \(library.name): \(result.score)/\(result.questions.count)"
      change.trailers = [
        ("Dinger-Action", "quiz.record"), ("Dinger-Record", id),
        ("Dinger-Library", library.id!.lowercased),
      ]
      change.write(path, try RecordCodec.newFile(.quiz(result), at: path))
      subject = change.subject
      return change
    }
    return (path, subject)
  }
}
