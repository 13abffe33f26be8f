/// 16-bit PCM WAV files: read (any channel count and rate, brought to 16 kHz mono, the rate the
/// recognizer's model wants) and written. Every size in the file is checked against the bytes
/// there are before anything is allocated: a recording comes from elsewhere.
public enum WAVFile {
  /// The sample rate the recognizer works at.
  public static let rate = 16_000
  /// Longer recordings are refused (4 hours at 16 kHz is 460 MB of samples).
  public static let longest = 4 * 3600

  public struct Problem: Error, Equatable, CustomStringConvertible {
    public var description: String
    init(_ d: String) { description = d }
  }

  /// The length in seconds of the audio in a WAV file, read from its header (the first 64 KiB
  /// of the file are enough); nil when that is not a 16-bit PCM WAV header.
  public static func seconds(header bytes: [UInt8], fileSize: Int) -> Double? {
    func u32(_ at: Int) -> Int {
      Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
    }
    func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
    guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8),
      bytes[8..<12].elementsEqual("WAVE".utf8)
    else { return nil }
    var at = 12
    var bytesPerSecond: Int?
    while at + 8 <= bytes.count {
      let id = bytes[at..<at + 4]
      let size = u32(at + 4)
      if id.elementsEqual("fmt ".utf8) {
        guard at + 8 + 16 <= bytes.count else { return nil }
        let channels = u16(at + 10)
        let rate = u32(at + 12)
        guard u16(at + 22) == 16, (1...8).contains(channels), (8000...192_000).contains(rate) else {
          return nil
        }
        bytesPerSecond = rate * channels * 2
      } else if id.elementsEqual("data".utf8) {
        guard let bytesPerSecond else { return nil }
        return Double(min(size, fileSize - (at + 8))) / Double(bytesPerSecond)
      }
      at += 8 + size + (size & 1)
    }
    return nil
  }

  /// The samples of a WAV file at 16 kHz mono.
  public static func samples(_ bytes: [UInt8]) throws(Problem) -> [Int16] {
    func u32(_ at: Int) -> Int {
      Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
    }
    func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
    guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8),
      bytes[8..<12].elementsEqual("WAVE".utf8)
    else {
      throw Problem("not a WAV file (no RIFF/WAVE header); record or convert to 16-bit PCM WAV")
    }
    var at = 12
    var format: (channels: Int, rate: Int, bits: Int, code: Int)?
    while at + 8 <= bytes.count {
      let id = bytes[at..<at + 4]
      let size = u32(at + 4)
      let body = at + 8
      guard size <= bytes.count - body else {
        // NB: recorders that were stopped early leave the data size too large; take what is there.
        if id.elementsEqual("data".utf8), let format {
          return try convert(bytes, from: body, count: bytes.count - body, format)
        }
        throw Problem(
          "the WAV file is cut short (a chunk says \(size) bytes, \(bytes.count - body) are left)")
      }
      if id.elementsEqual("fmt ".utf8) {
        guard size >= 16 else { throw Problem("the WAV file's format chunk is too short") }
        format = (u16(body + 2), u32(body + 4), u16(body + 14), u16(body))
      } else if id.elementsEqual("data".utf8) {
        guard let format else { throw Problem("the WAV file has its data before its format") }
        return try convert(bytes, from: body, count: size, format)
      }
      at = body + size + (size & 1)
    }
    throw Problem("the WAV file has no audio data")
  }

  private static func convert(
    _ bytes: [UInt8], from start: Int, count: Int,
    _ format: (channels: Int, rate: Int, bits: Int, code: Int)
  ) throws(Problem) -> [Int16] {
    // 1: PCM; 0xFFFE: extensible (PCM inside, as most tools write it).
    guard format.code == 1 || format.code == 0xFFFE, format.bits == 16 else {
      throw Problem(
        "the WAV file is not 16-bit PCM (format \(format.code), \(format.bits) bits); convert it, e.g. with 'sox IN -b 16 -r 16000 -c 1 OUT.wav'"
      )
    }
    guard (1...8).contains(format.channels), (8000...192_000).contains(format.rate) else {
      throw Problem(
        "the WAV file has \(format.channels) channels at \(format.rate) Hz; dinger reads 1 to 8 channels at 8 to 192 kHz"
      )
    }
    let frames = count / (2 * format.channels)
    guard frames / format.rate <= longest else {
      throw Problem("the recording is longer than \(longest / 3600) hours")
    }
    var mono = [Int16](repeating: 0, count: frames)
    for f in 0..<frames {
      var sum = 0
      for c in 0..<format.channels {
        let at = start + (f * format.channels + c) * 2
        sum += Int(Int16(bitPattern: UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8))
      }
      mono[f] = Int16(sum / format.channels)
    }
    return format.rate == rate ? mono : resample(mono, from: format.rate)
  }

  /// Linear interpolation to 16 kHz (speech needs no better for the recognizer).
  static func resample(_ samples: [Int16], from source: Int) -> [Int16] {
    guard !samples.isEmpty else { return [] }
    let count = Int((Double(samples.count) * Double(rate) / Double(source)).rounded(.down))
    var out = [Int16](repeating: 0, count: count)
    let step = Double(source) / Double(rate)
    for i in 0..<count {
      let x = Double(i) * step
      let j = min(Int(x), samples.count - 1)
      let k = min(j + 1, samples.count - 1)
      let t = x - Double(j)
      out[i] = Int16((Double(samples[j]) * (1 - t) + Double(samples[k]) * t).rounded())
    }
    return out
  }

  /// A 16 kHz mono 16-bit WAV file of `samples`.
  public static func bytes(_ samples: [Int16], rate: Int = rate) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(44 + samples.count * 2)
    func u32(_ v: Int) {
      for s in stride(from: 0, to: 32, by: 8) { out.append(UInt8((v >> s) & 0xff)) }
    }
    func u16(_ v: Int) { out.append(UInt8(v & 0xff)); out.append(UInt8((v >> 8) & 0xff)) }
    out += Array("RIFF".utf8)
    u32(36 + samples.count * 2)
    out += Array("WAVEfmt ".utf8)
    u32(16)
    u16(1)
    u16(1)
    u32(rate)
    u32(rate * 2)
    u16(2)
    u16(16)
    out += Array("data".utf8)
    u32(samples.count * 2)
    for s in samples { u16(Int(UInt16(bitPattern: s))) }
    return out
  }
}
