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
