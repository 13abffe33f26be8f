import Foundation

/// Reads YAML documents with PyYAML, an independent parser (YAML 1.1 rules, its own scanner),
/// and returns each document as JSON text, so tests can compare what another tool sees.
public enum PyYAML {
  /// True when `python3 -c 'import yaml'` works (the Makefile installs it).
  public static var isAvailable: Bool {
    guard let python = ProcessRunner.which("python3") else { return false }
    return (try? ProcessRunner.run(python, ["-c", "import yaml"]).status) == 0
  }

  /// Parses each document with `yaml.safe_load` (pure-Python loader, not libyaml) and returns
  /// `json.dumps` of each, in order. Dates become ISO strings.
  public static func load(_ documents: [String]) throws -> [String] {
    let script = """
      import sys, json, yaml, datetime
      docs = json.load(sys.stdin)
      def conv(o):
          if isinstance(o, (datetime.date, datetime.datetime)): return o.isoformat()
          raise TypeError(repr(o))
      out = []
      for d in docs:
          try:
              out.append(json.dumps(yaml.load(d, Loader=yaml.SafeLoader), default=conv, ensure_ascii=False))
          except Exception as e:
              out.append("ERROR " + str(e).replace("\\n", " "))
      print(json.dumps(out))
      """
    let input = String(decoding: try JSONEncoder().encode(documents), as: UTF8.self)
    let result = try ProcessRunner.run(
      ProcessRunner.which("python3") ?? "/usr/bin/python3", ["-c", script], input: input)
    guard result.status == 0 else {
      throw NSError(
        domain: "PyYAML", code: Int(result.status),
        userInfo: [NSLocalizedDescriptionKey: result.stderr])
    }
    return try JSONDecoder().decode([String].self, from: Data(result.stdout.utf8))
  }
}
