import ArgumentParser
import Base
import Components
import FoundationEssentials
import Glibc
import Models
import Providers

/// `dinger check [PATH...]`: validates record files and reports every problem.
struct Check: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "check",
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

  @Flag(help: "Also warn about meetings recorded far (over 2 hours) from their scrum's schedule.")
  var strict = false

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
      let targets =
        paths.isEmpty ? [try global.checkTarget()] : try CheckProvider.targets(paths)
      for target in targets {
        var report = try target.provider.check(only: target.only)
        if strict {
          report.diagnostics += CheckProvider.offSchedule(root: target.root, only: target.only)
        }
        reports.append((displayPrefix(target.root), report))
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

  /// How to show paths of a directory: relative to the working directory.
  private func displayPrefix(_ root: URL) -> String {
    let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL
    if root.path == cwd.path { return "" }
    let cwdPath = cwd.path.hasSuffix("/") ? cwd.path : cwd.path + "/"
    if root.path.hasPrefix(cwdPath) {
      return String(root.path.dropFirst(cwdPath.count)) + "/"
    }
    return root.path + "/"
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
