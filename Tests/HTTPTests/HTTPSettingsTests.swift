import Foundation
import Testing

@testable import HTTP

/// git's http settings as git reads them: URL-scoped ones first, the extra header, client
/// certificates.
@Suite struct HTTPSettingsTests {
  @Test func scopesRunFromTheLongestPrefixToTheHost() {
    #expect(
      HTTPSettings.scopes(of: "https://dan:pw@git.example:8443/team/data.git") == [
        "https://git.example:8443/team/data.git", "https://git.example:8443/team/data.git/",
        "https://git.example:8443/team/", "https://git.example:8443/team",
        "https://git.example:8443/", "https://git.example:8443",
      ])
  }

  @Test func urlScopedSettingsWinOverGlobalOnesForTheirURLOnly() {
    let config: [String: String] = [
      "http.sslVerify": "true",
      "http.https://git.example/.sslVerify": "false",
      "http.https://git.example/.extraHeader": "AUTHORIZATION: basic dG9rZW4=",
      "http.https://other.example/.extraHeader": "X-Other: 1",
      "http.sslCert": "/etc/ssl/client.pem", "http.sslKey": "/etc/ssl/client.key",
    ]
    let ours = HTTPSettings.read(
      config: { config[$0] }, url: "https://git.example/team/data.git", environment: [:])
    #expect(!ours.tls.verify)
    #expect(ours.extraHeaders == ["AUTHORIZATION: basic dG9rZW4="])
    #expect(ours.tls.certFile == "/etc/ssl/client.pem" && ours.tls.keyFile == "/etc/ssl/client.key")
    let theirs = HTTPSettings.read(
      config: { config[$0] }, url: "https://elsewhere.example/x.git", environment: [:])
    #expect(theirs.tls.verify)
    #expect(theirs.extraHeaders.isEmpty)
  }

  @Test func everyExtraHeaderIsSentAndAnEmptyOneResetsTheList() {
    let values: [String: [String]] = [
      "http.extraHeader": ["X-Old: 0", "", "X-A: 1", "X-B: 2\nX-Injected: 3"],
      "http.https://h/.extraHeader": ["X-Scoped: 4"],
      "http.https://other/.extraHeader": ["X-Other: 5"],
    ]
    let settings = HTTPSettings.read(
      config: { values[$0]?.last }, values: { values[$0] ?? [] }, url: "https://h/x",
      environment: [:])
    #expect(settings.extraHeaders == ["X-A: 1", "X-Scoped: 4"])
  }

  @Test func aHeaderThatWouldSplitTheRequestIsIgnored() {
    let settings = HTTPSettings.read(
      config: { $0 == "http.extraHeader" ? "X-A: 1\r\nX-Injected: 2" : nil }, url: "https://h/x",
      environment: [:])
    #expect(settings.extraHeaders.isEmpty)
  }
}
