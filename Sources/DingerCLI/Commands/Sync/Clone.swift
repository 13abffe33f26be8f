import ArgumentParser
import Foundation
import Git
import Storage
import Sync

/// `dinger clone URL [DIR]`: a teammate's copy of a shared data repository.
struct Clone: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Copy a shared data repository and set it up for 'dinger sync'.",
    discussion: """
      Clones with libgit2 (paths, file://, git://, ssh://, https://), checks that it is a dinger \
      data repository, and configures the merge driver for plain git (see 'dinger setup-git').

      Examples:
        dinger clone git@example.com:team/scrums.git
        dinger clone /srv/git/scrums.git ~/scrums
      """)

  @Argument(help: "Where the shared repository is.") var url: String
  @Argument(help: "The folder to create (default: the repository's name).") var directory: String?

  func run() throws {
    try reporting {
      let name =
        directory
        ?? String(
          (url.split(whereSeparator: { $0 == "/" || $0 == ":" }).last ?? "dinger-data")
            .replacingOccurrences(of: ".git", with: ""))
      let target = URL(
        fileURLWithPath: name,
        relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
      ).standardizedFileURL
      if let contents = try? FileManager.default.contentsOfDirectory(atPath: target.path),
        !contents.isEmpty
      {
        throw CLIError("'\(target.path)' already exists and is not empty; choose another folder")
      }
      if let local = Repository.localPath(of: url),
        !FileManager.default.fileExists(atPath: local.path)
      {
        throw CLIError(
          "there is no repository at \(local.path); check the path (or the URL's scheme)")
      }
      let progress = ProgressLine()
      let session = TransferSession(onProgress: progress.show)
      defer { for warning in session.warnings { Terminal.error("warning: \(warning)\n") } }
      do {
        _ = try Repository.clone(url, to: target, session: session)
      } catch let error as GitError {
        progress.finish()
        try? FileManager.default.removeItem(at: target)
        // NB: the transfer's advice speaks of syncing; here nothing exists yet to sync.
        throw CLIError(
          "could not clone \(RemoteURL.redacted(url)): "
            + error.message.replacingOccurrences(
              of: "; nothing local changed, run 'dinger sync' again when it is back",
              with: "; nothing was created, run 'dinger clone' again when it is back"))
      } catch {
        progress.finish()
        try? FileManager.default.removeItem(at: target)
        throw error
      }
      progress.finish()
      guard FileManager.default.fileExists(atPath: target.appendingPathComponent(".dinger").path)
      else {
        throw CLIError(
          "cloned \(RemoteURL.redacted(url)) into \(target.path), but it has no .dinger/ folder: it is not a dinger data repository (run 'dinger init \(target.path)' to make it one)"
        )
      }
      let repository = try DataRepository.open(target)
      try GitSetup.configure(repository, executable: Executable.path)
      Terminal.output(
        "cloned \(RemoteURL.redacted(url)) into \(target.path)\nnext: cd \(name) && dinger scrum list\n")
    }
  }
}
