import CSphinx
import Foundation
import Speech

/// One pocketsphinx decoder for the whole meeting (a fresh one per turn doubled the errors:
/// its cepstral mean normalisation would start cold each time).
final class Recognizer {
  // NB: used by one thread at a time (the decoding thread once set up).
  private let decoder: OpaquePointer
  private var inUtterance = false
  private var wasInSpeech = false
  private var utteranceSamples = 0
  /// Samples fed since the start, and where the utterance under way began.
  private var fed = 0
  private var utteranceStart = 0
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
  func process(_ samples: UnsafeBufferPointer<Int16>) -> [HeardWord]? {
    if !inUtterance {
      ps_start_utt(decoder)
      inUtterance = true
      wasInSpeech = false
      utteranceSamples = 0
      utteranceStart = fed
    }
    ps_process_raw(decoder, samples.baseAddress, samples.count, 0, 0)
    utteranceSamples += samples.count
    fed += samples.count
    let inSpeech = ps_get_in_speech(decoder) != 0
    defer { wasInSpeech = inSpeech }
    if (wasInSpeech && !inSpeech) || utteranceSamples >= Self.longestUtterance { return finish() }
    return nil
  }

  /// Ends the utterance under way (at a pause, after 30 s, at the end) and returns its words,
  /// each with where it lies in the audio fed so far (silences and fillers left out).
  func finish() -> [HeardWord]? {
    guard inUtterance else { return nil }
    ps_end_utt(decoder)
    inUtterance = false
    var words: [HeardWord] = []
    // NB: this pocketsphinx (Debian 12's) counts frames from the decoder's first utterance;
    // one that counts from each utterance's start gives frames that lie before it.
    var base: Int?
    var seg = ps_seg_iter(decoder)
    while let s = seg {
      if let raw = ps_seg_word(s) {
        var word = String(cString: raw)
        // NB: `read(2)` is the dictionary's second pronunciation of `read`.
        if let paren = word.firstIndex(of: "(") { word = String(word[..<paren]) }
        var (sf, ef): (Int32, Int32) = (0, 0)
        ps_seg_frames(s, &sf, &ef)
        if !word.hasPrefix("<") && !word.hasPrefix("[") && !word.hasPrefix("+") && !word.isEmpty {
          // 100 frames a second: 160 samples each.
          if base == nil { base = Int(sf) * 160 + 16_000 < utteranceStart ? utteranceStart : 0 }
          words.append(
            HeardWord(word, start: base! + Int(sf) * 160, end: base! + Int(ef + 1) * 160))
        }
      }
      seg = ps_seg_next(s)
    }
    return words.isEmpty ? nil : words
  }

  // MARK: The team's words

  /// Interpolates the team's language model (an ARPA file dinger built from its data) with
  /// the general one, `weight` the team's share, and teaches the dictionary the team's words
  /// it lacks. Returns the words added. Throws when the file can't be read as ARPA.
  func useTeamModel(_ path: String, weight: Float) throws(Missing) -> [(
    word: String, phones: String
  )] {
    let (set, team) = try teamSet(path)
    let names = [strdup("general"), strdup("team")]
    defer { names.forEach { free($0) } }
    var constNames = names.map { UnsafePointer($0) }
    var weights: [Float] = [1 - weight, weight]
    _ = ngram_model_set_interp(set, &constNames, &weights)
    ps_set_lm(decoder, "team", set)
    ps_set_search(decoder, "team")
    // NB: the vocabulary is the count of unigrams; `ngram_model_get_size` is the model's order
    // (3), so the team's words were never looked at and none was added to the dictionary.
    let unigrams = ngram_model_get_counts(team).map { Int32(clamping: $0[0]) } ?? 0
    var words: [String] = []
    for wid in 0..<unigrams {
      if let w = ngram_word(team, wid) { words.append(String(cString: w)) }
    }
    return learn(names: words.filter { !$0.hasPrefix("<") })
  }

  /// The general model and the team's, as a set; the team's model alone too.
  private func teamSet(_ path: String) throws(Missing) -> (set: OpaquePointer, team: OpaquePointer)
  {
    guard let general = ps_get_lm(decoder, ps_get_search(decoder)),
      let team = ngram_model_read(ps_get_config(decoder), path, NGRAM_ARPA, ps_get_logmath(decoder))
    else { throw Missing(message: "the team's language model at \(path) could not be read") }
    // NB: the set and the default search both hold the general model.
    _ = ngram_model_retain(general)
    var models: [OpaquePointer?] = [general, team]
    let names = [strdup("general"), strdup("team")]
    defer { names.forEach { free($0) } }
    var mutableNames = names
    var weights: [Float] = [0.5, 0.5]
    guard
      let set = ngram_model_set_init(ps_get_config(decoder), &models, &mutableNames, &weights, 2)
    else { throw Missing(message: "the team's language model at \(path) could not be combined") }
    return (set, team)
  }

  /// The team's share (0.1 to 0.9) that gives `heldOut` (sentences kept out of the model) the
  /// highest probability under the interpolated model.
  func bestTeamWeight(_ path: String, heldOut: [[String]]) throws(Missing) -> Float {
    let (set, _) = try teamSet(path)
    let names = [strdup("general"), strdup("team")]
    defer { names.forEach { free($0) } }
    var best: (weight: Float, score: Int64) = (0.5, Int64.min)
    for step in 1...9 {
      let weight = Float(step) / 10
      var weights: [Float] = [1 - weight, weight]
      var constNames = names.map { UnsafePointer($0) }
      _ = ngram_model_set_interp(set, &constNames, &weights)
      var score: Int64 = 0
      for sentence in heldOut {
        let words = ["<s>"] + sentence + ["</s>"]
        for i in 1..<words.count {
          let context = words[max(0, i - 2)...i].reversed().map { strdup($0) }
          defer { context.forEach { free($0) } }
          var pointers = context.map { UnsafePointer($0) }
          score += Int64(ngram_prob(set, &pointers, Int32(pointers.count)))
        }
      }
      if score > best.score { best = (weight, score) }
    }
    return best.weight
  }
}
