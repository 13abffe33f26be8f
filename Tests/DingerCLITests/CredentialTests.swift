import Foundation
import TestSupport
import Testing

/// A remote address is untrusted: one that decodes to a line break or NUL never reaches git's
/// credential helper (git's CVE-2020-5260), whichever command meets it.
@Suite struct CredentialTests {
  @Test func addressesThatCouldForgeHelperInputAreRefused() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    // A helper that logs whatever it is asked.
    try box.git(
      "config", "--global", "credential.helper", "!f() { cat >> \"$HOME/helper.log\"; }; f")
    let evil = [
      "https://127.0.0.1:9/x%0ahost=github.com", "https://127.0.0.1:9/x%00host=github.com",
      "https://127.0.0.1:9/x%0d%0ahost=github.com", "https://user%0ahost=github.com@127.0.0.1:9/x",
    ]
    for url in evil {
      let add = try box.dinger("remote", "add", "evil", url)
      #expect(add.status == 1, "\(url)")
      #expect(add.stderr.contains("dinger refuses it"), "\(add.stderr)")
      let clone = try box.dinger(
        ["clone", url, box.home.url.appendingPathComponent("copy").path])
      #expect(clone.status == 1, "\(url)")
      #expect(clone.stderr.contains("dinger refuses it"), "\(clone.stderr)")
    }
    // One put in the config by hand (or by an older version) is refused at sync.
    try box.git("remote", "add", "evil", evil[0])
    let sync = try box.dinger("sync", "--remote", "evil")
    #expect(sync.status == 1)
    #expect(sync.stderr.contains("dinger refuses it"), "\(sync.stderr)")
    #expect(!FileManager.default.fileExists(atPath: box.home.path("helper.log")))
    // An ordinary address with an encoded space is fine to add.
    #expect(
      try box.dinger("remote", "add", "fine", "https://127.0.0.1:9/team%20data.git").status == 0)
  }

  @Test func sshAddressesThatLookLikeOptionsAreRefused() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    for url in ["ssh://-oProxyCommand=touch%20pwned/x", "-oProxyCommand=x:repo", "host:-repo"] {
      let r = try box.dinger("remote", "add", "evil", "--", url)
      #expect(r.status == 1, "\(url): \(r.stderr)")
      #expect(r.stderr.contains("dinger refuses it"), "\(r.stderr)")
    }
  }

  /// `ext::` (git runs any command for it) and `file::` ask for a remote helper: refused by
  /// name, not tried as ssh to a host called `ext`; neither clone nor remote add runs anything.
  @Test func remoteHelperAddressesAreRefusedByName() throws {
    let box = try Sandbox()
    #expect(try box.dinger("init").status == 0)
    let marker = box.home.path("ran")
    for url in ["ext::sh -c touch% \(marker)", "file::\(box.data.path)"] {
      let helper = String(url.prefix(while: { $0 != ":" }))
      for args in [["remote", "add", "odd", "--", url], ["clone", "--", url, box.home.path("c")]] {
        let r = try box.dinger(args)
        #expect(r.status == 1, "\(args): \(r.stderr)")
        #expect(r.stderr.contains("git's remote helper 'git-remote-\(helper)'"), "\(r.stderr)")
        #expect(!r.stderr.lowercased().contains("resolve"), "\(r.stderr)")
      }
    }
    #expect(!FileManager.default.fileExists(atPath: marker))
    #expect(!FileManager.default.fileExists(atPath: box.home.path("c")))
  }
}
