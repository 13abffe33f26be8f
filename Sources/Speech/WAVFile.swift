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

  /// Where a WAV file's audio is and what it is, from its header.
  public struct Header: Sendable, Equatable {
    public var channels: Int
    public var rate: Int
    /// Where the audio starts, and how many bytes of it the file holds (a data size larger
    /// than the file, as a recorder stopped early leaves, is cut to what is there).
    public var dataStart: Int
    public var dataBytes: Int

    /// Whole frames of audio.
    public var frames: Int { dataBytes / (2 * channels) }
    /// The length in seconds.
    public var seconds: Double { Double(frames) / Double(rate) }
  }

  /// The header of a WAV file whose first bytes are `bytes` (64 KiB are enough) and whose whole
  /// size is `fileSize`: 16-bit PCM, 1 to 8 channels, 8 to 192 kHz, at most `longest` long.
  public static func header(_ bytes: [UInt8], fileSize: Int) throws(Problem) -> Header {
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
    while at + 8 <= min(bytes.count, fileSize) {
      let id = bytes[at..<at + 4]
      let size = u32(at + 4)
      let body = at + 8
      if id.elementsEqual("data".utf8) {
        guard let format else { throw Problem("the WAV file has its data before its format") }
        // NB: recorders that were stopped early leave the data size too large; take what is there.
        let header = Header(
          channels: format.channels, rate: format.rate, dataStart: body,
          dataBytes: max(0, min(size, fileSize - body)))
        try check(format, header)
        return header
      }
      guard size <= fileSize - body else {
        throw Problem(
          "the WAV file is cut short (a chunk says \(size) bytes, \(fileSize - body) are left)")
      }
      if id.elementsEqual("fmt ".utf8) {
        guard size >= 16 else { throw Problem("the WAV file's format chunk is too short") }
        guard body + 16 <= bytes.count else { throw Problem("the WAV file's header is too large") }
        format = (u16(body + 2), u32(body + 4), u16(body + 14), u16(body))
      }
      at = body + size + (size & 1)
    }
    if at + 8 > bytes.count && at + 8 <= fileSize {
      throw Problem("the WAV file's header is too large (no audio in its first 64 KiB)")
    }
    throw Problem("the WAV file has no audio data")
  }

  private static func check(
    _ format: (channels: Int, rate: Int, bits: Int, code: Int), _ header: Header
  ) throws(Problem) {
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
    guard header.frames / header.rate <= longest else {
      throw Problem("the recording is longer than \(longest / 3600) hours")
    }
  }

  /// The length in seconds of the audio in a WAV file, read from its header (the first 64 KiB
  /// of the file are enough); nil when that is not a 16-bit PCM WAV header.
  public static func seconds(header bytes: [UInt8], fileSize: Int) -> Double? {
    (try? header(bytes, fileSize: fileSize))?.seconds
  }

  /// The samples of a WAV file at 16 kHz mono.
  public static func samples(_ bytes: [UInt8]) throws(Problem) -> [Int16] {
    let header = try header(bytes, fileSize: bytes.count)
    var converter = Converter(header)
    return converter.convert(bytes[header.dataStart..<header.dataStart + header.dataBytes])
      + converter.finish()
  }

  /// Interleaved 16-bit frames to 16 kHz mono: channels averaged, then resampled.
  public struct Converter: Sendable {
    let channels: Int
    var resampler: Resampler?

    /// A converter for audio as `header` describes it.
    public init(_ header: Header) {
      channels = header.channels
      resampler = header.rate == rate ? nil : Resampler(from: header.rate, to: rate)
    }

    /// The 16 kHz mono samples of these bytes (whole frames; a partial one is dropped).
    public mutating func convert(_ bytes: ArraySlice<UInt8>) -> [Int16] {
      let frames = bytes.count / (2 * channels)
      var mono = [Int16](repeating: 0, count: frames)
      var at = bytes.startIndex
      for f in 0..<frames {
        var sum = 0
        for _ in 0..<channels {
          sum += Int(Int16(bitPattern: UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8))
          at += 2
        }
        mono[f] = Int16(sum / channels)
      }
      guard resampler != nil else { return mono }
      return resampler!.process(mono)
    }

    /// What the resampler still holds, at the end.
    public mutating func finish() -> [Int16] { resampler?.finish() ?? [] }
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
