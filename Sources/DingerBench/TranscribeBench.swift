import Foundation
import TestSupport

/// The transcription helper on a 2-minute recording of three flite voices: its CPU real-time
/// factor (CPU seconds per second of audio, target at most 0.3) and peak memory (target at most
/// 150 MB); and `dinger --version` beside it, with the shared libraries `dinger` loads, to show
/// that the audio and speech libraries stay out of the main program.
enum TranscribeBench {
  static func run(dinger: String, packageRoot: URL) throws {
    print("Transcription: dinger-transcribe on a 2-minute recording")
    let helper = URL(fileURLWithPath: dinger).deletingLastPathComponent()
      .appendingPathComponent("dinger-transcribe").path
    guard FileManager.default.isExecutableFile(atPath: helper) else {
      print("  no dinger-transcribe beside dinger (make bench builds it)\n")
      return
    }
    guard Shell.which("flite") != nil else {
      print("  no flite to make the recording (make deps installs it)\n")
      return
    }
    let work = FileManager.default.temporaryDirectory.appendingPathComponent(
      "dinger-bench-transcribe-\(UUID().uuidString.prefix(8))")
    defer { try? FileManager.default.removeItem(at: work) }
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    let lines = [
      "slt:Yesterday I finished the login page. Today I will review the pull requests.",
      "rms:I fixed the bug in the payment service and wrote more tests.",
      "awb:I am blocked on the database migration. I need help from the team.",
      "slt:The release is planned for Thursday, and the notes are almost done.",
      "rms:I paired with the designers on the new settings screen this morning.",
      "awb:Nothing blocks me today. I will finish the search feature.",
    ]
    let wav = work.appendingPathComponent("two-minutes.wav")
    let turns = Array(repeating: lines, count: 4).flatMap { $0 }
    let starts = try Shell.run(
      "/usr/bin/python3",
      [packageRoot.appendingPathComponent("scripts/demo-recording.py").path, wav.path] + turns
    )
    .split(separator: "\n").compactMap { Double($0) }
    let seconds =
      Double(
        ((try? FileManager.default.attributesOfItem(atPath: wav.path)[.size] as? Int) ?? 44) - 44)
      / 32000
    let names = ["Ana", "Bo", "Chella"]
    let args =
      ["file", wav.path]
      + starts.enumerated().flatMap { ["--turn", "\(names[$0.offset % 3])=\($0.element)"] }
      + names.flatMap { ["--word", $0] }
    var best: (wall: Double, cpu: Double, rss: Int)?
    for _ in 0..<3 {
      let run = try Shell.spawn(helper, args)
      if best == nil || run.cpu < best!.cpu { best = run }
    }
    guard let best else { return }
    print(
      String(
        format: "  recording                               %7.1f s (%d turns)", seconds,
        starts.count))
    print(
      String(
        format: "  helper CPU time (user+system)            %7.2f s, wall %.2f s", best.cpu,
        best.wall))
    let factor = best.cpu / seconds
    print(
      String(
        format: "  CPU real-time factor                     %7.3f (target <= 0.30) %@", factor,
        factor <= 0.3 ? "ok" : "OVER TARGET"))
    let mb = Double(best.rss) / 1024
    print(
      String(
        format: "  peak memory                              %7.1f MB (target <= 150) %@", mb,
        mb <= 150 ? "ok" : "OVER TARGET"))
    let libraries = (try? Shell.run("/usr/bin/ldd", [dinger])) ?? ""
    let audio = libraries.split(separator: "\n").filter {
      $0.contains("pocketsphinx") || $0.contains("sphinxbase") || $0.contains("pulse")
    }
    var version: [Double] = []
    for _ in 0..<40 { version.append(try StartupBench.spawn(dinger, ["--version"])) }
    print(
      String(
        format: "  dinger --version                         %7.2f ms", Shell.median(version) * 1000)
    )
    print(
      audio.isEmpty
        ? "  dinger loads no audio or speech library (ldd): its start-up is as without the helper"
        : "  dinger loads audio libraries: \(audio.joined(separator: ", ")) OVER TARGET")
    try attribution(helper: helper, wav: wav, starts: starts, turns: turns, names: names)
    try hour(helper: helper, wav: wav, work: work, names: names)
    print("")
  }

  /// Keys 0.7 s late and 0.7 s early at every speaker change of the 2-minute recording: words
  /// heard in the wrong turn (target 0).
  static func attribution(
    helper: String, wav: URL, starts: [Double], turns: [String], names: [String]
  ) throws {
    let said = turns.map { String($0.split(separator: ":", maxSplits: 1)[1]) }
    for offset in [0.7, -0.7] {
      // NB: each start is its 1.5 s of silence; the speech begins after it.
      let keys = starts.enumerated().map { i, start in
        "\(names[i % 3])=\(i == 0 ? 0 : start + 1.5 + offset)"
      }
      let out = try Shell.run(
        helper,
        ["file", wav.path] + keys.flatMap { ["--turn", $0] } + names.flatMap { ["--word", $0] })
      var heard = [String](repeating: "", count: starts.count)
      for line in out.split(separator: "\n") where line.hasPrefix("heard ") {
        let parts = line.split(separator: " ", maxSplits: 2)
        if parts.count == 3, let turn = Int(parts[1]), turn < heard.count {
          heard[turn] += (heard[turn].isEmpty ? "" : " ") + parts[2]
        }
      }
      let wrong = TeamSpeech.misattributed(heard: heard, said: said)
      print(
        String(
          format: "  keys %+.1f s off at %d changes: words in the wrong turn %d (target 0) %@",
          offset, starts.count - 1, wrong, wrong == 0 ? "ok" : "OVER TARGET"))
    }
  }

  /// A 60-minute meeting from a file, 44.1 kHz stereo (the 2-minute recording thirty times):
  /// the helper's peak memory (target under 150 MB) and CPU real-time factor (target 0.3).
  static func hour(helper: String, wav: URL, work: URL, names: [String]) throws {
    let long = work.appendingPathComponent("sixty-minutes.wav")
    let make = """
      import audioop, sys, wave
      w = wave.open(sys.argv[1]); data = w.readframes(w.getnframes())
      stereo = audioop.tostereo(audioop.ratecv(data, 2, 1, 16000, 44100, None)[0], 2, 1, 1)
      out = wave.open(sys.argv[2], 'wb')
      out.setnchannels(2); out.setsampwidth(2); out.setframerate(44100)
      seconds = 0.0
      while seconds < 3600:
          out.writeframes(stereo); seconds += len(stereo) / (44100 * 4)
      out.close(); print(seconds)
      """
    let seconds =
      Double(
        try Shell.run("/usr/bin/python3", ["-W", "ignore", "-c", make, wav.path, long.path])
          .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 3600
    defer { try? FileManager.default.removeItem(at: long) }
    let keys = stride(from: 0.0, to: seconds, by: 120).enumerated().map {
      "\(names[$0.offset % 3])=\($0.element)"
    }
    let run = try Shell.spawn(helper, ["file", long.path] + keys.flatMap { ["--turn", $0] })
    let mb = Double(run.rss) / 1024
    let factor = run.cpu / seconds
    print(
      String(
        format: "  %.0f-minute file at 44.1 kHz stereo: peak memory %.0f MB (target < 150) %@",
        seconds / 60, mb, mb < 150 ? "ok" : "OVER TARGET"))
    print(
      String(
        format: "  ... CPU real-time factor %.3f (target <= 0.30) %@, wall %.0f s", factor,
        factor <= 0.3 ? "ok" : "OVER TARGET", run.wall))
  }
}
