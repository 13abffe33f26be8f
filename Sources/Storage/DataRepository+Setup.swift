import Base
import FoundationEssentials
import Git
import Glibc
import Models

extension DataRepository {
  /// Where the data repository was found, for messages.
  public enum Origin: Sendable, Equatable {
    case option, environment, enclosing
    /// The per-user default, and whether this run created it.
    case userDefault(created: Bool)
  }

  /// The data repository a command works on: `--repo`, else `DINGER_REPO`, else the enclosing
  /// repository that has `.dinger/`, else the default the user chose in their settings
  /// (`repository:` in `${XDG_CONFIG_HOME:-~/.config}/dinger/config.yaml`), created on first
  /// use; else an error, as git's "not a git repository".
  public static func locate(
    option: String?, environment: [String: String], workingDirectory: URL
  ) throws -> (repository: DataRepository, origin: Origin) {
    if let option {
      return (try open(URL(fileURLWithPath: option, relativeTo: workingDirectory)), .option)
    }
    if let env = environment["DINGER_REPO"], !env.isEmpty {
      return (try open(URL(fileURLWithPath: env, relativeTo: workingDirectory)), .environment)
    }
    if let enclosing = DataDirectory.enclosing(workingDirectory) {
      return (try open(enclosing.root), .enclosing)
    }
    // NB: as git: outside a repository, refuse; a default is used only when the user chose one.
    guard let chosen = try UserSettings.load(environment: environment).repository else {
      if let plain = Repository.discover(from: workingDirectory), let top = plain.workdir {
        let path = top.standardizedFileURL.path
        throw StorageError(
          "the git repository at \(path) is not a dinger data repository (it has no .dinger/): run 'dinger init \(path)' to keep dinger's data in it, or use --repo PATH / DINGER_REPO"
        )
      }
      throw StorageError(
        "not a dinger data repository (or any of the parent directories): run 'dinger init' to make one, or use --repo PATH / DINGER_REPO, or set a default 'repository:' in \(UserSettings.file(environment: environment).path)"
      )
    }
    let url = URL(fileURLWithPath: chosen)
    if FileManager.default.fileExists(atPath: url.appendingPathComponent(".dinger").path) {
      return (try open(url), .userDefault(created: false))
    }
    // NB: made on first use only in a new or empty folder: a settings file saying
    // `repository: /etc` (or a home folder, or /dev/null) must not turn it into a repository.
    let settings = UserSettings.file(environment: environment).path
    var st = stat()
    if stat(url.path, &st) == 0 {
      guard st.st_mode & S_IFMT == S_IFDIR else {
        throw StorageError(
          "'repository: \(chosen)' in \(settings) is not a folder; name a folder for dinger's data there (a new one is made on first use)"
        )
      }
      // NB: a new git repository there (only `.git`) is fine: `dinger init` takes it too.
      let inside = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [""]
      guard inside.allSatisfy({ $0 == ".git" }) else {
        throw StorageError(
          "'repository: \(chosen)' in \(settings) is a folder that is not a dinger data repository (it has no .dinger/) and is not empty; dinger makes its default repository only in a new or empty folder (or a new git repository): run 'dinger init \(chosen)' if you mean to keep dinger's data there, or change 'repository:'"
        )
      }
    }
    return (try initialize(at: url), .userDefault(created: true))
  }

  /// Makes `url` a data repository: a new git repository there (or the existing one whose top
  /// it is), the scaffold from the built-in templates, and a first commit.
  public static func initialize(at url: URL) throws -> DataRepository {
    let url = url.standardizedFileURL
    let fm = FileManager.default
    if fm.fileExists(atPath: url.appendingPathComponent(".dinger").path) {
      throw StorageError("'\(url.path)' is already a dinger data repository")
    }
    let git: Repository
    // NB: from the nearest folder that exists: a new folder inside a repository is inside it
    // too (a nested repository is refused, as docs/storage.md says).
    var probe = url
    while !fm.fileExists(atPath: probe.path) && probe.path != "/" {
      probe = probe.deletingLastPathComponent()
    }
    if let existing = Repository.discover(from: probe) {
      guard let workdir = existing.workdir?.standardizedFileURL,
        workdir.path == url.path || workdir.path == url.path + "/"
      else {
        let top = existing.workdir?.path ?? existing.gitDirectory.path
        throw StorageError(
          "'\(url.path)' is inside the git repository at \(top); run 'dinger init \(top)' to keep the data at its top, or choose a folder outside it"
        )
      }
      git = existing
    } else {
      do {
        git = try Repository.create(at: url)
      } catch {
        throw StorageError("could not create a git repository at '\(url.path)': \(error.message)")
      }
    }
    let repository = DataRepository(root: url, git: git)
    var change = Change(
      subject: "Set up dinger data repository",
      trailers: [("Dinger-Action", "init"), ("Dinger-Format", "\(RepoConfig.currentFormat)")])
    for (path, text) in EmbeddedTemplates.scaffold {
      switch path {
      case ".gitattributes":
        let current = repository.read(path).map { String(decoding: $0, as: UTF8.self) } ?? ""
        if current.containsText("merge=dinger") && current.containsText("diff=dinger") { continue }
        if current.containsText("merge=dinger") {
          // An older scaffold: its line gains the diff driver.
          change.write(
            path,
            current.replacingText(
              "*.yaml merge=dinger\n", with: "*.yaml merge=dinger diff=dinger\n"))
          continue
        }
        change.write(
          path,
          current.isEmpty || current.unicodeScalars.last == "\n"
            ? current + text : current + "\n" + text)
      default:
        if repository.read(path) != nil { continue }
        change.write(path, text)
      }
    }
    // JSON Schemas for YAML editors: the files dinger writes point at them (RecordSchema).
    for kind in RecordSchema.Kind.allCases {
      let path = "\(RecordSchema.folder)/\(kind.fileName)"
      if repository.read(path) == nil { change.write(path, RecordSchema.schema(kind).text) }
    }
    try repository.commit(change)
    for folder in ["scrums", "history", "libraries", "quizzes"] {
      try? fm.createDirectory(
        at: url.appendingPathComponent(folder), withIntermediateDirectories: true)
    }
    return repository
  }
}

extension DataRepository {
  /// The commented template for a new record of a kind (`scrum`): the repository's own
  /// `.dinger/templates/<kind>.yaml` when it has one, else the one built into dinger.
  public func template(for kind: RecordKind) -> String? {
    let name = "\(kind.rawValue).yaml"
    if let own = read(".dinger/templates/\(name)") { return String(decoding: own, as: UTF8.self) }
    return EmbeddedTemplates.records.first { $0.path == name }?.text
  }
}
