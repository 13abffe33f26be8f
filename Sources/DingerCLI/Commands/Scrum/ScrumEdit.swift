import ArgumentParser
import Components
import Foundation
import Models
import Providers

extension ScrumCommand {
  /// `dinger scrum edit S [--title --theme --length]`, or `$EDITOR` on the file.
  struct Edit: ParsableCommand {
    static let configuration = CommandConfiguration(
    commandName: "edit",
      abstract: "Change a scrum's title, theme or length, or edit its file in $EDITOR.",
      discussion: """
        With no options, opens the scrum's file in $VISUAL or $EDITOR (else vi). When you save \
        and quit, dinger checks the file; if it has errors it opens it again with the errors \
        on top, like git commit. Saving an unchanged file, or an empty one, changes nothing. \
        What you typed is committed byte for byte, comments included.

        Examples:
          dinger scrum edit design --length 15
          dinger scrum edit design --title "Design Sync" --theme sky
          EDITOR=nano dinger scrum edit design
        """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var fields: ScrumFields

    @Argument(help: "The scrum: slug, title or id prefix.", completion: Completions.scrums)
    var scrum: String

    @Option(help: "A new title.")
    var title: String?

    func validate() throws {
      if let length = fields.length?.minutes, !Scrum.lengthRange.contains(length) {
        throw ValidationError("--length must be from 1 to 600 minutes, found \(length)")
      }
      if let title, title.trimmingCharacters(in: .whitespaces).isEmpty {
        throw ValidationError("--title must not be empty")
      }
    }

    func run() throws {
      try reporting {
        let repository = try global.repository()
        let provider = ScrumProvider.live(repository: repository)
        let stored = try provider.find(scrum)
        guard title != nil || fields.theme != nil || fields.length != nil else {
          try editInEditor(stored, provider: provider, root: repository.root)
          return
        }
        report(
          try provider.update(stored) { new in
            if let title { new.title = title }
            if let theme = fields.theme { new.theme = theme.theme }
            if let length = fields.length?.minutes { new.length = length }
          })
      }
    }

    private func editInEditor(_ stored: StoredScrum, provider: ScrumProvider, root: URL) throws {
      let original = try String(
        contentsOf: root.appendingPathComponent(stored.path), encoding: .utf8)
      let result = try Editor.editUntilValid(
        original, name: stored.slug,
        emptyMessage:
          "the file was left empty; nothing changed (remove a scrum with 'dinger scrum rm')",
        errorsMessage: "the edited file has errors; nothing changed"
      ) { (edited: String) throws -> Result<ScrumCommit, DiagnosticList>? in
        guard edited != original else { return nil }
        do {
          return try provider.replace(stored, with: edited, original: original)
        } catch let conflict as EditConflict {
          let saved = try Editor.keep(edited, name: stored.slug, root: root)
          let fields = conflict.fields.isEmpty ? "" : " (\(conflict.fields.joined(separator: ", ")))"
          throw CLIError(
            "\(stored.path) was changed by someone else while you edited it, in the same places\(fields); nothing was written, and your text is kept in \(saved.path): run 'dinger scrum edit \(stored.slug)' and copy your changes over"
          )
        }
      }
      guard let result else {
        Terminal.output("nothing to change\n")
        return
      }
      report(result)
    }

    private func report(_ result: ScrumCommit) {
      if result.commit == nil {
        Terminal.output("nothing to change\n")
        return
      }
      Terminal.output(result.subject + "\n")
      for warning in result.warnings { Terminal.error("warning: \(warning)\n") }
    }
  }
}

/// Runs the user's editor on a temporary copy of a file.
enum Editor {
  /// Opens `text` in the editor until `attempt` accepts what was written: its diagnostics are
  /// shown on top for the next try (without a terminal they are printed and the command fails).
  /// `attempt` returns nil for "nothing to do"; an empty file ends with `emptyMessage`.
  static func editUntilValid<T>(
    _ text: String, name: String, emptyMessage: String, errorsMessage: String,
    attempt: (String) throws -> Result<T, DiagnosticList>?
  ) throws -> T? {
    var text = text
    var errors: [Diagnostic] = []
    while true {
      let written = try edit(text, header: errors.map { DiagnosticsView.render($0) }, name: name)
      guard !written.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
        throw CLIError(emptyMessage)
      }
      switch try attempt(written) {
      case nil: return nil
      case .success(let value)?: return value
      case .failure(let list)?:
        errors = list.items
        text = written
        if !isInteractive {
          Terminal.error(DiagnosticsView(errors).render())
          // NB: what was written is not thrown away: it is kept where the message says.
          let kept = FileManager.default.temporaryDirectory
            .appendingPathComponent("dinger-kept-\(name)-\(UUID().uuidString.prefix(8)).yaml")
          if (try? written.write(to: kept, atomically: true, encoding: .utf8)) != nil {
            throw CLIError("\(errorsMessage); what you wrote is kept in \(kept.path)")
          }
          throw CLIError(errorsMessage)
        }
      }
    }
  }

  static let marker = "# dinger: "

  /// Keeps text that could not be committed in `.git/dinger/edits/`, and says where.
  static func keep(_ text: String, name: String, root: URL) throws -> URL {
    let folder = root.appendingPathComponent(".git/dinger/edits")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let stamp = ISO8601DateFormatter().string(from: Date()).replacingOccurrences(of: ":", with: "")
    let file = folder.appendingPathComponent("\(name)-\(stamp).yaml")
    try text.write(to: file, atomically: true, encoding: .utf8)
    return file
  }

  /// False when dinger runs without a terminal and the editor is a script (tests, CI): errors are
  /// then reported instead of reopening the editor forever.
  static var isInteractive: Bool { isatty(0) == 1 && isatty(1) == 1 }

  /// Lets the user edit `text`; `header` lines (the errors of the last try) are shown on top as
  /// comments and removed again afterwards.
  static func edit(_ text: String, header: [String], name: String) throws -> String {
    let env = ProcessInfo.processInfo.environment
    let chosen = [env["VISUAL"], env["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty }
    // NB: vi on a pipe is no editor: without a terminal only an editor someone chose runs.
    if chosen == nil && (isatty(0) == 0 || isatty(1) == 0) {
      throw CLIError(
        "there is no terminal to run an editor in, and EDITOR is not set; give the fields as options (see --help), or set EDITOR"
      )
    }
    let editor = chosen ?? "vi"
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("dinger-\(name)-\(UUID().uuidString.prefix(8)).yaml")
    var prefix = ""
    if !header.isEmpty {
      prefix += marker + "fix these errors, then save and quit (these lines are removed):\n"
      for line in header.joined().split(separator: "\n", omittingEmptySubsequences: false)
      where !line.isEmpty {
        prefix += marker + line + "\n"
      }
    }
    try (prefix + text).write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "\(editor) \"$1\"", "dinger-editor", file.path]
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw CLIError(
        "the editor '\(editor)' failed (exit status \(process.terminationStatus)); nothing changed")
    }
    let edited = try String(contentsOf: file, encoding: .utf8)
    return edited.components(separatedBy: "\n").filter { !$0.hasPrefix(marker) }.joined(
      separator: "\n")
  }
}
