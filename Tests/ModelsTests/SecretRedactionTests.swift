import Models
import Testing

/// Credentials in remote addresses never reach a message.
@Suite struct SecretRedactionTests {
  @Test(arguments: [
    (
      "no credentials for https://dan:ghp_SECRET@host.example/team.git; store them",
      "no credentials for https://host.example/team.git; store them"
    ),
    (
      "fetch 'https://a:b@h/x' and 'http://c:d@h2:8080/y'",
      "fetch 'https://h/x' and 'http://h2:8080/y'"
    ),
    ("ssh://git@host/repo and https://dan@host/r", "ssh://git@host/repo and https://dan@host/r"),
    ("https://u:p@ss@host/r", "https://host/r"),
    ("plain text without a URL: a@b", "plain text without a URL: a@b"),
  ])
  func passwordsAreRemoved(_ text: String, _ expected: String) {
    #expect(SecretRedaction.scrub(text) == expected)
  }
}
