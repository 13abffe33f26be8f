import CSphinx
import Foundation
import Speech

/// One pocketsphinx decoder for the whole meeting (a fresh one per turn doubled the errors:
/// its cepstral mean normalisation would start cold each time).
final class Recognizer: @unchecked Sendable {
  // NB: used by one thread at a time (the decoding thread once set up).
  private let decoder: OpaquePointer
  private var inUtterance = false
  private var wasInSpeech = false
  private var utteranceSamples = 0
  /// An utterance ends after 30 s even without a pause: pocketsphinx keeps a whole utterance's
  /// lattice (one 10-minute turn without a 0.5 s pause grew to 455 MB).
  static let longestUtterance = 30 * 16_000

  /// Where Debian's pocketsphinx-en-us puts the model; `DINGER_SPEECH_MODEL` or `--model`
  /// may name another folder with the same three parts.
  static let defaultModel = "/usr/share/pocketsphinx/model/en-us"

  struct Missing: Error { var message: String }

  init(model: String) throws(Missing) {
    let parts = ["en-us", "en-us.lm.bin", "cmudict-en-us.dict"].map { model + "/" + $0 }
    for part in parts where access(part, R_OK) != 0 {
      throw Missing(
        message:
          "no speech model at \(model) (\(part) is missing); install Debian's: sudo apt-get install pocketsphinx-en-us"
      )
    }
    let args = [
      "dinger-transcribe", "-hmm", parts[0], "-lm", parts[1], "-dict", parts[2], "-logfn",
      "/dev/null",
    ]
    var argv = args.map { strdup($0) }
    defer { argv.forEach { free($0) } }
    let config = argv.withUnsafeMutableBufferPointer { buffer in
      cmd_ln_parse_r(nil, ps_args(), Int32(buffer.count), buffer.baseAddress, 1)
    }
    guard let config, let decoder = ps_init(config) else {
      throw Missing(
        message: "the speech model at \(model) could not be loaded (damaged or another version)")
    }
    cmd_ln_free_r(config)
    self.decoder = decoder
  }

  deinit { ps_free(decoder) }

  /// Adds the words of these names that the dictionary lacks, sounded out by `Pronouncer`; the
  /// language model then knows them as words of their own. Returns the words added.
  func learn(names: [String]) -> [(word: String, phones: String)] {
    var added: [(String, String)] = []
    let words = Set(names.flatMap(Pronouncer.words(of:))).sorted()
    for word in words {
      if let known = ps_lookup_word(decoder, word) {
        free(known)
        continue
      }
      let phones = Pronouncer.phones(word)
      added.append((word, phones))
    }
    for (i, (word, phones)) in added.enumerated() {
      _ = ps_add_word(decoder, word, phones, i == added.count - 1 ? 1 : 0)
    }
    return added
  }

  /// Feeds audio; returns what was heard when a pause in speech ended an utterance.
  func process(_ samples: UnsafeBufferPointer<Int16>) -> String? {
    if !inUtterance {
      ps_start_utt(decoder)
      inUtterance = true
      wasInSpeech = false
      utteranceSamples = 0
    }
    ps_process_raw(decoder, samples.baseAddress, samples.count, 0, 0)
    utteranceSamples += samples.count
    let inSpeech = ps_get_in_speech(decoder) != 0
    defer { wasInSpeech = inSpeech }
    if (wasInSpeech && !inSpeech) || utteranceSamples >= Self.longestUtterance { return finish() }
    return nil
  }

  /// Ends the utterance under way (at a turn change, a pause, the end) and returns its text.
  func finish() -> String? {
    guard inUtterance else { return nil }
    ps_end_utt(decoder)
    inUtterance = false
    guard let hyp = ps_get_hyp(decoder, nil) else { return nil }
    let text = String(cString: hyp).trimmingCharacters(in: .whitespaces)
    return text.isEmpty ? nil : text
  }
}
