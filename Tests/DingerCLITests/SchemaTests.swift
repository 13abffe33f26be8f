import Foundation
import TestSupport
import Testing

/// Runs Python's `jsonschema` (an independent validator) over record files with the schemas
/// `dinger schema` writes; YAML is read with PyYAML set to YAML 1.2's core types (timestamps stay
/// text, only true/false are booleans), as dinger reads it.
enum SchemaValidator {
  static var available: Bool {
    guard let python = ProcessRunner.which("python3") else { return false }
    return (try? ProcessRunner.run(python, ["-c", "import yaml, jsonschema"]).status) == 0
  }

  static let script = #"""
    import json, os, re, sys, yaml, jsonschema
    schemas, root = sys.argv[1], sys.argv[2]
    class Core(yaml.SafeLoader): pass
    Core.yaml_implicit_resolvers = {
        k: [(t, r) for (t, r) in v if t not in ("tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:bool")]
        for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()}
    Core.add_implicit_resolver("tag:yaml.org,2002:bool",
        re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))
    def kind(path):
        parts = path.split("/")
        if path == ".dinger/config.yaml": return "config"
        if parts[0] == ".dinger" and len(parts) == 3 and parts[1] == "conflicts": return "conflict"
        if parts[0] == "scrums" and len(parts) == 2: return "scrum"
        if parts[0] == "libraries" and len(parts) == 2: return "library"
        if parts[0] == "history" and len(parts) == 3: return "meeting"
        if parts[0] == "quizzes" and len(parts) == 3: return "quiz"
        if parts[0] == "standups" and len(parts) == 3: return "standup"
        return None
    def fmt(path):
        out = ""
        for p in path:
            out += "[%d]" % p if isinstance(p, int) else ("." if out else "") + str(p)
        return out
    result = {}
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in (".git", "schemas")]
        for name in files:
            full = os.path.join(folder, name)
            rel = os.path.relpath(full, root)
            k = kind(rel) if name.endswith(".yaml") else None
            if not k: continue
            with open(os.path.join(schemas, k + ".schema.json")) as f: schema = json.load(f)
            try:
                with open(full, encoding="utf-8-sig") as f: doc = yaml.load(f, Loader=Core)
            except Exception as e:
                result[rel] = ["<not YAML>"]
                continue
            paths = set()
            def walk(error):
                path = list(error.absolute_path)
                if error.validator == "required":
                    m = re.match(r"'(.*)' is a required property", error.message)
                    if m: path.append(m.group(1))
                paths.add(fmt(path))
                for c in error.context or []: walk(c)
            for e in jsonschema.Draft202012Validator(schema).iter_errors(doc): walk(e)
            result[rel] = sorted(paths)
    print(json.dumps(result))
    """#

  /// Each record file under `root` and the fields the schema finds wrong ("" for the whole
  /// file); an empty list for a valid file.
  static func validate(_ root: URL, schemas: URL) throws -> [String: [String]] {
    let r = try ProcessRunner.run(
      ProcessRunner.which("python3") ?? "/usr/bin/python3", ["-c", script, schemas.path, root.path])
    guard r.status == 0 else { throw CancellationError() }
    return try JSONDecoder().decode([String: [String]].self, from: Data(r.stdout.utf8))
  }
}

@Suite(
  .enabled(
    if: Prerequisite.met(SchemaValidator.available),
    "needs python3 with PyYAML and jsonschema (make deps installs them)"))
struct SchemaTests {
  static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("StorageTests/Corpus")
  static let templates = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Templates")

  func schemas(_ box: Sandbox) throws -> URL {
    let folder = box.home.url.appendingPathComponent("schemas")
    let r = try box.dinger(["schema", "all", "--out", folder.path], in: box.home.url)
    #expect(r.status == 0, "\(r.stderr)")
    return folder
  }

  /// The samples, the scaffold, and every kind of file dinger creates are valid; each created
  /// file's first line points at its schema, which `init` wrote where the line says.
  @Test func whatDingerWritesIsValid() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    #expect(
      try box.dinger("scrum", "new", "Design", "--attendee", "Ada", "--attendee", "Grace").status
        == 0)
    #expect(try box.dinger("meet", "design", "--record", "--duration", "9m").status == 0)
    #expect(try box.dinger("library", "new", "Spanish basics", "--language", "es").status == 0)
    #expect(
      try box.dinger("word", "add", "agua", "--library", "spanish-basics", "--definition", "water")
        .status == 0)
    // An entry with an empty answer (dinger writes `today: ''` for `--today ""`) and an
    // answer that starts with a dash.
    #expect(
      try box.dinger(
        ["standup", "design", "--as", "Ada", "--today", "", "--yesterday", "-2+3"],
        env: ["DINGER_TEST_NOW": "2026-11-24T10:00:00Z"]
      ).status == 0)
    let entry = try box.read("standups/design/2026-11-24-ada.yaml")
    #expect(entry.contains("yesterday: -2+3") || entry.contains("yesterday: '-2+3'"), "\(entry)")
    let schemas = try schemas(box)
    let found = try SchemaValidator.validate(box.data, schemas: schemas)
    #expect(found.count == 5, "\(found)")
    for (file, problems) in found { #expect(problems.isEmpty, "\(file): \(problems)") }
    let samples = try SchemaValidator.validate(
      Self.templates.appendingPathComponent("samples"), schemas: schemas)
    #expect(samples.count >= 5, "\(samples)")
    for (file, problems) in samples { #expect(problems.isEmpty, "\(file): \(problems)") }
    // The modeline names a schema that exists, relative to the file.
    for file in found.keys {
      let first = try box.read(file).split(separator: "\n").first ?? ""
      #expect(first.hasPrefix("# yaml-language-server: $schema="), "\(file)")
      let target = box.data.appendingPathComponent(file).deletingLastPathComponent()
        .appendingPathComponent(String(first.dropFirst("# yaml-language-server: $schema=".count)))
      #expect(
        FileManager.default.fileExists(atPath: target.standardizedFileURL.path),
        "\(file) -> \(target.path)")
    }
    // `init` wrote the same schemas `dinger schema` prints.
    for kind in ["scrum", "meeting", "library", "quiz", "config", "conflict", "standup"] {
      #expect(
        try box.read(".dinger/schemas/\(kind).schema.json")
          == String(
            contentsOf: schemas.appendingPathComponent("\(kind).schema.json"), encoding: .utf8))
    }
  }

  /// The malformed-file corpus: where the problem is one the schema can see, the schema
  /// rejects the file on the very field `dinger check` names. Problems between files, or that
  /// a schema cannot express, are listed as outside its reach: the schema accepts those files.
  @Test func theSchemasRejectWhatCheckRejectsOnTheSameField() throws {
    let box = try Sandbox()
    let schemas = try schemas(box)
    let schemaLevel = [
      "blank-title", "length-as-words", "length-over-limit", "negative-length", "missing-title",
      "unknown-theme", "theme-wrong-case", "title-is-a-list", "attendees-is-a-mapping",
      "attendee-mapping-without-name", "no-attendees", "empty-attendee-name", "id-not-a-uuid",
      "length-as-fraction", "length-quoted", "library-bad-language", "library-empty-word",
      "library-empty-definition", "meeting-bad-date", "meeting-negative-duration",
      "meeting-speaker-missing-seconds", "quiz-correct-not-boolean", "quiz-missing-questions",
      "config-bad-quiz", "config-future-format",
    ]
    let outsideReach = [
      "duplicate-ids", "meeting-unknown-scrum", "duplicate-attendee", "library-duplicate-word",
      "meeting-impossible-date",
    ]
    for name in schemaLevel + outsideReach {
      let folder = Self.corpus.appendingPathComponent(name)
      let check = try ProcessRunner.run(dingerBinary, ["check", "--json", "."], in: folder)
      let report = try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any]
      let errors = ((report?["diagnostics"] as? [[String: Any]]) ?? []).filter {
        $0["severity"] as? String == "error"
      }
      #expect(!errors.isEmpty, "\(name): check finds no error")
      let found = try SchemaValidator.validate(folder, schemas: schemas)
      if outsideReach.contains(name) {
        for (file, problems) in found { #expect(problems.isEmpty, "\(name) \(file): \(problems)") }
        continue
      }
      for error in errors {
        let file = error["file"] as? String ?? ""
        let path = error["path"] as? String ?? ""
        let seen = found[file] ?? []
        #expect(!seen.isEmpty, "\(name): the schema accepts \(file)")
        #expect(
          seen.contains(path), "\(name): check names '\(path)' in \(file), the schema \(seen)")
      }
    }
  }
}
