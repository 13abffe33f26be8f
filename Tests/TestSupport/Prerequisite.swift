import Foundation

/// Whether a test that needs a tool from outside (sshd, apache, PyYAML...) runs. Where the tool
/// is missing a developer's run skips it; under CI (`CI=true`, as `.ci/run` is run) it runs
/// anyway and fails, so that a missing install step can never pass CI by skipping tests.
public enum Prerequisite {
  public static var underCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

  /// True when the test should run.
  public static func met(_ available: Bool) -> Bool { available || underCI }
}
