import ArgumentParser
import Components
import Foundation
import Models
import Providers
import Storage

/// `dinger check [PATH...]`: validates record files and reports every problem.
struct Check: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Validate the records of a data repository and report every problem.",
    discussion: """
      Reads every record file (scrums/, history/, libraries/, quizzes/, .dinger/config.yaml), \
      reports all problems of each file, then the ones between files: an id used twice, a \
      meeting whose scrum does not exist, a record filed under the wrong folder.

      Formats (--format): text (default; compiler-style, problems on stderr), json, github \
      (GitHub Actions annotations on the changed lines of a pull request), sarif (SARIF 2.1.0 \
      for code-scanning tools). docs/ci.md has workflows to copy.

      Exit status: 0 when there are no errors (warnings are fine), 1 when there are.

      Examples:
        dinger check
        dinger check ~/team-scrums
        dinger check scrums/design.yaml history/design/2026-11-21-3f2c0a1b.yaml
        dinger check --json | jq '.diagnostics[] | select(.severity == "error")'
        dinger check --format github          # in a GitHub Actions step
        dinger check --format sarif > dinger.sarif
      """)

  @OptionGroup var global: GlobalOptions
  @OptionGroup var output: OutputOptions

  @Option(help: "text, json, github or sarif.")
  var format: CheckFormat?

  @Argument(help: "Data directories or record files (default: the data repository).")
  var paths: [String] = []

  /// How `check` reports.
  enum CheckFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, github, sarif
  }

  func run() throws {
    try reporting {
      var reports: [(display: String, report: CheckReport)] = []
      for (directory, only) in try targets() {
        let report = try CheckProvider.live(directory: directory).check(only: only)
        reports.append((displayPrefix(directory), report))
      }
      var all = CheckReport(files: 0, diagnostics: [])
      for (prefix, report) in reports {
        all.files += report.files
        all.diagnostics += report.diagnostics.map { d in
          var d = d
          d.file = prefix + d.file
          return d
        }
      }
      switch format ?? (output.json ? .json : .text) {
      case .json:
        Terminal.output(try JSONView.render(CheckJSON(all)))
      case .github:
        Terminal.output(GitHubAnnotationsView(all.diagnostics).render())
        Terminal.output(
          CheckSummaryView(files: all.files, errors: all.errors, warnings: all.warnings).render())
      case .sarif:
        Terminal.output(SARIFView(all.diagnostics, version: DingerVersion.current).render())
      case .text:
        Terminal.error(DiagnosticsView(all.diagnostics, color: Terminal.colorOnStderr).render())
        Terminal.output(
          CheckSummaryView(files: all.files, errors: all.errors, warnings: all.warnings).render())
      }
      if all.errors > 0 { throw ExitCode.failure }
    }
  }

  /// The data directories to check, each with the files asked for (nil: all of them).
  private func targets() throws -> [(DataDirectory, [String]?)] {
    if paths.isEmpty { return [(try global.dataDirectory(), nil)] }
    var result: [(DataDirectory, [String]?)] = []
    for path in paths {
      var isDir: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
        throw CLIError("'\(path)' does not exist")
      }
      let url = URL(fileURLWithPath: path)
      if isDir.boolValue {
        result.append(
          (
            DataDirectory.enclosing(url).flatMap { $0.root == url.standardizedFileURL ? $0 : nil }
              ?? DataDirectory(root: url), nil
          ))
        continue
      }
      guard let directory = DataDirectory.holding(file: url),
        let relative = directory.relativePath(url), RecordLayout.kind(ofPath: relative) != nil
      else {
        throw CLIError(
          "can't tell what kind of record '\(path)' is; record files live in \(RecordLayout.folders) or .dinger/config.yaml"
        )
      }
      if let index = result.firstIndex(where: { $0.0.root == directory.root && $0.1 != nil }) {
        result[index].1?.append(relative)
      } else {
        result.append((directory, [relative]))
      }
    }
    return result
  }

  /// How to show paths of a directory: relative to the working directory.
  private func displayPrefix(_ directory: DataDirectory) -> String {
    let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL
    if directory.root.path == cwd.path { return "" }
    let cwdPath = cwd.path.hasSuffix("/") ? cwd.path : cwd.path + "/"
    if directory.root.path.hasPrefix(cwdPath) {
      return String(directory.root.path.dropFirst(cwdPath.count)) + "/"
    }
    return directory.root.path + "/"
  }
}

/// The JSON shape of `check --json`.
struct CheckJSON: Encodable {
  var files: Int
  var errors: Int
  var warnings: Int
  var diagnostics: [Diagnostic]

  init(_ report: CheckReport) {
    files = report.files
    errors = report.errors
    warnings = report.warnings
    diagnostics = report.diagnostics
  }
}
