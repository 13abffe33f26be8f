import Testing

@testable import Git

/// A server's messages (band 2 of a push's answer): a counter it updates in place with `\r`
/// shows once, as it ended; text it overwrites with other text is kept (git keeps both parts:
/// a server must not hide what it said first behind a `\r`, in a terminal or in a log).
@Suite struct ServerMessageTests {
  @Test func aCounterShowsOnceAndOverwrittenTextIsKept() {
    let said =
      "Resolving deltas:  10% (1/10)\rResolving deltas: 100% (10/10), done.\n"
      + "Your token expires tomorrow\rEverything up-to-date\n\n  \r\n"
    #expect(
      ReceivePackAdvertisement.messageLines(said) == [
        "Resolving deltas: 100% (10/10), done.", "Your token expires tomorrow",
        "Everything up-to-date",
      ])
  }
}

/// The advertisement sniffer finds a `shallow` line however the stream is cut, over ssh (no
/// service line) and http (a service line and its flush first), and stops at the end of the
/// advertisement (a pack that happens to hold the bytes is never read as one).
@Suite struct ShallowSnifferTests {
  static let id = String(repeating: "a", count: 40)
  static let ref = "003d\(id) refs/heads/main\n"
  static let shallowLine = "0035shallow \(id)\n"

  func sniff(_ text: String, cut: Int) -> Bool {
    var sniffer = ShallowSniffer()
    let bytes = Array(text.utf8)
    var i = 0
    while i < bytes.count {
      let piece = Array(bytes[i..<min(i + cut, bytes.count)])
      piece.withUnsafeBytes { sniffer.see($0) }
      i += cut
    }
    return sniffer.isShallow
  }

  @Test(arguments: [1, 3, 7, 64, 4096])
  func aShallowLineIsFoundAtAnyCut(cut: Int) {
    #expect(ShallowSnifferTests.ref.utf8.count == 0x3d)
    #expect(sniff(Self.ref + Self.shallowLine + "0000", cut: cut))
    #expect(
      sniff("001e# service=git-upload-pack\n0000" + Self.ref + Self.shallowLine + "0000", cut: cut))
    #expect(!sniff(Self.ref + "0000", cut: cut))
    #expect(!sniff(Self.ref + "0000" + Self.shallowLine, cut: cut))
  }
}
