import Glibc
import Testing

@testable import Processes

/// The one way dinger starts programs: streams, groups, signals, timeouts, big outputs.
// NB: serialized: some tests change this process's signal dispositions, which others read.
@Suite(.serialized) struct ChildProcessTests {
  @Test func outputFarPastAPipeBufferIsReadWithoutBlocking() throws {
    // NB: 5 MB on stdout and 5 MB on stderr at once: a reader of one stream only deadlocks.
    let result = try ChildProcess.run(
      .init(["/bin/sh", "-c", "head -c 5000000 /dev/zero; head -c 5000000 /dev/zero >&2"]),
      timeout: 60)
    #expect(result.termination.succeeded)
    #expect(result.output.count == 5_000_000)
    #expect(result.errors.count == 5_000_000)
    #expect(!result.truncated && !result.timedOut)
  }

  @Test func outputPastTheLimitIsDrainedAndMarkedTruncated() throws {
    let result = try ChildProcess.run(
      .init(["/bin/sh", "-c", "head -c 3000000 /dev/zero; echo done >&2"]), limit: 1000,
      timeout: 60)
    #expect(result.termination.succeeded)
    #expect(result.output.count == 1000)
    #expect(result.truncated)
    #expect(result.errorText == "done")
  }

  @Test func largeInputAndOutputFlowAtOnce() throws {
    let input = (0..<4_000_000).map { UInt8($0 % 251) }
    let result = try ChildProcess.run(.init(["cat"]), input: input, timeout: 60)
    #expect(result.termination.succeeded)
    #expect(result.output == input)
  }

  @Test func aChildThatStopsReadingItsInputIsNoError() throws {
    let input = [UInt8](repeating: 65, count: 2_000_000)
    let result = try ChildProcess.run(
      .init(["/bin/sh", "-c", "head -c 10 >/dev/null; echo read"]), input: input, timeout: 60)
    #expect(result.outputText == "read\n")
  }

  @Test func aTimeoutKillsTheWholeGroup() throws {
    let start = ChildProcess.now()
    // NB: the background sleep holds the pipe open: only killing the group ends the read.
    let result = try ChildProcess.run(
      .init(["/bin/sh", "-c", "sleep 100 & echo started; sleep 100"]), timeout: 1)
    #expect(result.timedOut)
    #expect(result.termination.signal == SIGKILL)
    #expect(result.outputText == "started\n")
    #expect(ChildProcess.now() - start < 10)
  }

  @Test func theChildStartsWithNoBlockedOrIgnoredSignals() throws {
    var ignore = sigaction()
    ignore.__sigaction_handler.sa_handler = SIG_IGN
    var old = sigaction()
    sigaction(SIGINT, &ignore, &old)
    var blocked = sigset_t()
    sigemptyset(&blocked)
    sigaddset(&blocked, SIGTERM)
    var oldMask = sigset_t()
    pthread_sigmask(SIG_BLOCK, &blocked, &oldMask)
    defer {
      sigaction(SIGINT, &old, nil)
      pthread_sigmask(SIG_SETMASK, &oldMask, nil)
    }
    let result = try ChildProcess.run(.init(["cat", "/proc/self/status"]), timeout: 30)
    let lines = result.outputText.split(separator: "\n")
    #expect(lines.contains("SigBlk:\t0000000000000000"), "\(lines.filter { $0.hasPrefix("Sig") })")
    let ignored = lines.first { $0.hasPrefix("SigIgn:") }.flatMap {
      UInt64($0.dropFirst(8), radix: 16)
    }
    #expect(ignored.map { $0 & (1 << (UInt64(SIGINT) - 1)) } == 0)
  }

  /// The process group of a child, read from its /proc/self/stat (field 5).
  static func group(of launch: ChildProcess.Launch) throws -> (pid: pid_t, pgid: pid_t) {
    var launch = launch
    launch.arguments = ["cat", "/proc/self/stat"]
    let child = try ChildProcess(launch)
    let result = child.collect(timeout: 30)
    let text = result.outputText
    let fields = text[text.lastIndex(of: ")")!...].split(separator: " ")
    return (child.pid, pid_t(fields[3])!)
  }

  @Test func helpersGetAGroupOfTheirOwnAndTerminalProgramsShareDingers() throws {
    let own = try Self.group(of: .init([], group: .own))
    #expect(own.pgid == own.pid)
    let shared = try Self.group(of: .init([], group: .dingers))
    #expect(shared.pgid == getpgrp())
  }

  @Test func programsAreFoundInTheChildsPathAndAMissingOneIsNamed() throws {
    let result = try ChildProcess.run(
      .init(["env"], environment: ["PATH": "/usr/bin:/bin", "ONLY": "this"]), timeout: 30)
    #expect(result.outputText.contains("ONLY=this\n"))
    #expect(throws: ChildProcess.LaunchError.self) {
      try ChildProcess.run(.init(["no-such-program-dinger"], environment: ["PATH": "/usr/bin"]))
    }
    do {
      _ = try ChildProcess.run(.init(["no-such-program-dinger"]))
    } catch {
      #expect(
        "\(error)"
          == "cannot run 'no-such-program-dinger': not found (is it installed and in PATH?)")
    }
  }

  @Test func theShellFormKeepsDingersValuesOutOfTheCommandText() throws {
    let hostile = "x; echo INJECTED; $(echo also)"
    let result = try ChildProcess.run(
      .shell("printf '%s' \"$1\"", name: "test", arguments: [hostile]), timeout: 30)
    #expect(result.outputText == hostile)
  }

  @Test func aTerminalProgramOutlivesCtrlCSentToTheGroupAndDingerIgnoresIt() throws {
    var old = sigaction()
    sigaction(SIGINT, nil, &old)
    // NB: the child sends SIGINT to itself and to this process, as the terminal does to its
    // foreground group on Ctrl-C (not to the group: `swift test` shares it); this process
    // survives only because runInTerminal ignores SIGINT while the child runs.
    let ended = try ChildProcess.runInTerminal(
      .init(["/bin/sh", "-c", "trap 'exit 7' INT; kill -INT $PPID $$; sleep 5; exit 0"]))
    #expect(ended.status == 7)
    var now = sigaction()
    sigaction(SIGINT, nil, &now)
    #expect(handlerAddress(now) == handlerAddress(old))
  }

  @Test func terminationsReadLikeAShell() {
    #expect(ChildProcess.Termination(waitStatus: 3 << 8).description == "exit status 3")
    #expect(ChildProcess.Termination(waitStatus: 3 << 8).code == 3)
    let killed = ChildProcess.Termination(waitStatus: SIGINT)
    #expect(killed.description == "killed by SIGINT")
    #expect(killed.code == 130)
  }

  @Test func aCleanupRemovesItsFileAndRestoresSignals() throws {
    let path = "/tmp/dinger-cleanup-\(getpid())"
    _ = creat(path, 0o600)
    var before = sigaction()
    sigaction(SIGTERM, nil, &before)
    do {
      let cleanup = TemporaryFileCleanup(path)
      var during = sigaction()
      sigaction(SIGTERM, nil, &during)
      #expect(handlerAddress(during) != handlerAddress(before))
      cleanup.remove()
    }
    #expect(access(path, F_OK) != 0)
    var after = sigaction()
    sigaction(SIGTERM, nil, &after)
    #expect(handlerAddress(after) == handlerAddress(before))
  }

  @Test func aChildsResourcesAreMeasured() throws {
    // NB: python3 holds 50 MB for a moment: the peak shows in the usage.
    let child = try ChildProcess(
      .init(
        ["python3", "-c", "b = bytearray(50_000_000); b[-1] = 1"], output: .null, errors: .null))
    let (ended, cpu, rss) = child.waitWithUsage()
    #expect(ended.succeeded)
    #expect(cpu >= 0)
    #expect(rss > 40_000, "peak \(rss) KiB")
  }
}
