import ArgumentParser
import Base
import FoundationEssentials
import Glibc
import Models

/// `dinger schema [KIND] [--out DIR]`: the JSON Schemas of dinger's files, for YAML editors.
struct SchemaCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "schema",
    abstract: "Print the JSON Schemas of dinger's files, for editors that check YAML as you type.",
    discussion: """
      YAML editors (VS Code, Neovim, Helix, Zed through yaml-language-server; JetBrains) \
      validate and complete a file against a JSON Schema (draft 2020-12). 'dinger init' writes \
      them into .dinger/schemas/, and every file dinger creates starts with the line that \
      points editors at its schema:

        # yaml-language-server: $schema=../.dinger/schemas/scrum.schema.json

      Kinds: scrum, meeting, library, quiz, config, conflict, or all (one JSON object with \
      each schema under its kind). Rules that span files (ids used twice, a meeting's scrum) \
      are 'dinger check''s.

      Examples:
        dinger schema scrum
        dinger schema all --out .dinger/schemas   # refresh them (an older repo)
      """)

  @Argument(help: "scrum, meeting, library, quiz, config, conflict or all.")
  var kind: String = "all"

  @Option(help: "Write <kind>.schema.json files into this folder instead of printing.")
  var out: String?

  func run() throws {
    try reporting {
      let kinds: [RecordSchema.Kind]
      if kind == "all" {
        kinds = RecordSchema.Kind.allCases
      } else if let one = RecordSchema.Kind(rawValue: kind) {
        kinds = [one]
      } else {
        throw CLIError(
          "no schema '\(kind)'; kinds are \(RecordSchema.Kind.allCases.map(\.rawValue).joined(separator: ", ")) and all"
        )
      }
      if let out {
        let folder = URL(fileURLWithPath: out)
        do {
          try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
          for kind in kinds {
            try Data(RecordSchema.schema(kind).text.utf8).write(
              to: folder.appendingPathComponent(kind.fileName), options: .atomic)
            Terminal.output("wrote \(folder.appendingPathComponent(kind.fileName).path)\n")
          }
        } catch {
          throw CLIError("could not write the schemas into '\(out)': \(error)")
        }
        return
      }
      if kinds.count == 1 {
        Terminal.output(RecordSchema.schema(kinds[0]).text)
      } else {
        Terminal.output(
          JSONValue.object(kinds.map { .init($0.rawValue, RecordSchema.schema($0)) }).text)
      }
    }
  }
}
