import Components
import Foundation
import Testing

/// Cutting a long line for a chat service: every piece within the limit in the service's unit,
/// nothing lost, no grapheme cluster (👍🏽, 🇩🇪, é) and no escape (`&amp;`, `\[`, `@` and its
/// zero-width space) ever split, words kept whole where a space is near. Seeded, replayable.
@Suite struct ChatLineTests {
  static let alphabet: [String] = [
    "a", "b", " ", " ", "word", "👍🏽", "🇩🇪", "👩🏽‍💻", "é", "e\u{301}", "言", "语", "&", "<", ">", "[", "]",
    "(", ")", "@", "*", "_", "\"", "\\", "#", "\u{202E}", "\u{200B}", "\n",
  ]

  struct Random {
    var state: UInt64
    mutating func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state >> 33
    }
  }

  @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8])
  func aCutLineFitsLosesNothingAndSplitsNoEscapeOrCharacter(seed: Int) {
    var random = Random(state: UInt64(seed))
    for service in ChatService.allCases {
      for limit in [12, 40, 300] {
        var text = ""
        for _ in 0..<Int(random.next() % 400) {
          text += Self.alphabet[Int(random.next() % UInt64(Self.alphabet.count))]
        }
        let line = ChatLine([.own("2026-11-27 "), .name("Zoë"), .own(" today: "), .text(text)])
        let unit = service.unit
        let pieces = line.wrapped(limit: limit, render: service.render, cost: { unit.cost($0) })
        var rebuilt = ""
        for (i, piece) in pieces.enumerated() {
          let rendered = piece.rendered(service.render)
          // A piece over the limit holds a single character that does not fit alone.
          let texts = piece.parts.compactMap { if case .text(let t) = $0 { t } else { nil } }
          #expect(
            unit.cost(rendered) <= limit || texts.joined().count <= 1,
            "seed \(seed) \(service) \(limit): piece \(i) costs \(unit.cost(rendered))")
          for t in texts {
            rebuilt += t
            // Escaping a piece is escaping that part of the text: no escape was cut.
            #expect(service.escape(ChatText.oneLine(t)).isEmpty == ChatText.oneLine(t).isEmpty)
          }
        }
        #expect(rebuilt == text, "seed \(seed) \(service) \(limit): text lost or changed")
        // No grapheme cluster split: the pieces' characters are the text's characters.
        let characters = pieces.flatMap { p in
          p.parts.flatMap { part -> [Character] in
            if case .text(let t) = part { Array(t) } else { [] }
          }
        }
        #expect(
          characters == Array(text), "seed \(seed) \(service) \(limit): a character was split")
      }
    }
  }

  @Test func wordsStayWholeWhereASpaceIsNear() {
    let line = ChatLine([.text("alpha beta gamma delta epsilon zeta eta theta")])
    let pieces = line.wrapped(limit: 20, more: .own(""), render: ChatService.slack.render) {
      ChatUnit.codePoints.cost($0)
    }
    let texts = pieces.map { $0.rendered { if case .text(let t) = $0 { t } else { "" } } }
    #expect(texts.count > 1)
    for t in texts.dropLast() { #expect(t.hasSuffix(" "), "\(texts)") }
    #expect(texts.joined() == "alpha beta gamma delta epsilon zeta eta theta")
  }

  @Test func slackCountsCodePointsAndTeamsCountsBytes() {
    #expect(ChatUnit.codePoints.cost("👍🏽🇩🇪") == 4)
    #expect("👍🏽🇩🇪".count == 2)
    #expect(ChatUnit.jsonBytes.cost("言") == 3 && ChatUnit.jsonBytes.cost("\"") == 2)
  }
}
