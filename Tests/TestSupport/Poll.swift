import Foundation

/// Waits for a marker instead of sleeping: looks every 20 ms until `ready` holds (true) or
/// `seconds` have passed (false). A test then waits exactly as long as a loaded machine needs.
public func waitUntil(seconds: Double, _ ready: () -> Bool) -> Bool {
  let deadline = Date().addingTimeInterval(seconds)
  while true {
    if ready() { return true }
    if Date() >= deadline { return false }
    usleep(20_000)
  }
}
