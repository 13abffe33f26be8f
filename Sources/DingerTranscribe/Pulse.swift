import CPulse
import Foundation
import Speech

/// The sound server through PulseAudio's simple API (PipeWire desktops answer it too).
final class PulseStream {
  private let stream: OpaquePointer

  struct Failure: Error { var message: String }

  /// Records 16 kHz mono from the default source, or plays to the default sink.
  init(recording: Bool, name: String) throws(Failure) {
    var spec = pa_sample_spec(format: PA_SAMPLE_S16LE, rate: UInt32(WAVFile.rate), channels: 1)
    var error: Int32 = 0
    // NB: small fragments, so the level meter and the turn marks stay close to real time.
    var attributes = pa_buffer_attr(
      maxlength: UInt32.max, tlength: UInt32.max, prebuf: UInt32.max, minreq: UInt32.max,
      fragsize: UInt32(WAVFile.rate / 10 * 2))
    let opened = withUnsafePointer(to: &attributes) { wanted in
      pa_simple_new(
        nil, "dinger", recording ? PA_STREAM_RECORD : PA_STREAM_PLAYBACK, nil, name, &spec, nil,
        recording ? wanted : nil, &error)
    }
    guard let stream = opened else {
      throw Failure(message: String(cString: pa_strerror(error)))
    }
    self.stream = stream
  }

  deinit { pa_simple_free(stream) }

  /// Fills `buffer` with recorded samples.
  func read(into buffer: UnsafeMutableBufferPointer<Int16>) throws(Failure) {
    var error: Int32 = 0
    guard pa_simple_read(stream, buffer.baseAddress, buffer.count * 2, &error) >= 0 else {
      throw Failure(message: String(cString: pa_strerror(error)))
    }
  }

  /// How much recorded sound waits in the server's buffers (not read yet), in samples.
  func pendingSamples() -> Int {
    var error: Int32 = 0
    let usec = pa_simple_get_latency(stream, &error)
    return usec == UInt64.max ? 0 : Int(usec) * WAVFile.rate / 1_000_000
  }

  /// Plays `samples` and waits until they are heard.
  func play(_ samples: [Int16]) throws(Failure) {
    var error: Int32 = 0
    let rc = samples.withUnsafeBytes { pa_simple_write(stream, $0.baseAddress, $0.count, &error) }
    guard rc >= 0, pa_simple_drain(stream, &error) >= 0 else {
      throw Failure(message: String(cString: pa_strerror(error)))
    }
  }
}
