import Base
import FoundationEssentials
import Models
import Storage

/// A room's events as the client API gives them (`/rooms/{id}/messages`), only the parts a
/// stand-up collection reads: who sent what, when, and how it relates to other events. Every
/// field is optional, so an event of another shape (state, a reaction) decodes too.
struct MatrixEvent: Decodable, Sendable {
  var event_id: String
  var type: String
  var sender: String
  var origin_server_ts: Double
  var content: Content

  struct Content: Decodable, Sendable {
    var body: String?
    var relation: Relation?
    var replacement: Replacement?
    var root: Root?

    enum CodingKeys: String, CodingKey {
      case body
      case relation = "m.relates_to"
      case replacement = "m.new_content"
      case root = "org.dinger.standup"
    }

    init(from decoder: any Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      body = try? c.decodeIfPresent(String.self, forKey: .body)
      relation = try? c.decodeIfPresent(Relation.self, forKey: .relation)
      replacement = try? c.decodeIfPresent(Replacement.self, forKey: .replacement)
      root = try? c.decodeIfPresent(Root.self, forKey: .root)
    }
  }

  struct Relation: Decodable, Sendable {
    var rel_type: String?
    var event_id: String?
    var reply: Reply?

    enum CodingKeys: String, CodingKey {
      case rel_type, event_id
      case reply = "m.in_reply_to"
    }
  }

  struct Reply: Decodable, Sendable { var event_id: String? }
  struct Replacement: Decodable, Sendable { var body: String? }

  /// What a reminder dinger posted says of itself: the scrum it asks (id and slug).
  struct Root: Decodable, Sendable {
    var scrum: String
    var id: String?
  }

  /// The thread root or message this one answers, if any.
  var answers: String? {
    guard let relation = content.relation else { return nil }
    if relation.rel_type == "m.thread" { return relation.event_id }
    return relation.reply?.event_id
  }

  /// The event this one edits (`m.replace`), if any.
  var edits: String? {
    content.relation?.rel_type == "m.replace" ? content.relation?.event_id : nil
  }
}

/// One page of `/messages`.
struct MatrixPage: Decodable {
  var chunk: [MatrixEvent]
  var start: String?
  var end: String?
}

extension MatrixPoster.Session {
  /// The user the token belongs to (`/account/whoami`).
  func whoAmI() throws -> String {
    struct Me: Decodable { var user_id: String }
    let body = try get("ask the homeserver who the token is", "account/whoami")
    guard let me = try? JSONDecoder().decode(Me.self, from: Data(body)) else {
      throw StorageError("the homeserver's answer to who the token is does not read as Matrix's")
    }
    return me.user_id
  }

  /// The room's message events after `from` (a token from an earlier read), oldest first, and
  /// the token to read on from next time; without `from`, those of the last `days` days (at
  /// most `pages` pages of 100 events).
  func timeline(_ room: String, from: String?, since: Date, pages: Int = 50) throws -> (
    events: [MatrixEvent], next: String?
  ) {
    let path = "rooms/\(room.percentEncoded())/messages"
    func page(_ query: String) throws -> MatrixPage {
      let body = try get("read", path + "?" + query)
      do {
        return try JSONDecoder().decode(MatrixPage.self, from: Data(body))
      } catch {
        throw StorageError("the homeserver's messages of \(place) do not read as Matrix's")
      }
    }
    if let from {
      var events: [MatrixEvent] = []
      var token = from
      for _ in 0..<pages {
        let p = try page("dir=f&limit=100&from=" + token.percentEncoded())
        events += p.chunk
        guard let end = p.end, !p.chunk.isEmpty, end != token else { break }
        token = end
      }
      return (events, token)
    }
    var events: [MatrixEvent] = []
    var next: String?
    var token: String?
    for _ in 0..<pages {
      let p = try page("dir=b&limit=100" + (token.map { "&from=" + $0.percentEncoded() } ?? ""))
      if next == nil { next = p.start }
      events += p.chunk
      guard let end = p.end, !p.chunk.isEmpty,
        let oldest = p.chunk.last, oldest.origin_server_ts / 1000 >= since.timeIntervalSince1970
      else { break }
      token = end
    }
    return (events.reversed(), next)
  }

  /// Answers in the thread of `root` (a short note to a sender, `--answer`).
  func reply(_ text: String, to root: String, about event: String, in room: String) throws {
    struct Content: Encodable {
      var msgtype = "m.notice"
      var body: String
      var relation: Relation
      var mentions = Mentions()
      enum CodingKeys: String, CodingKey {
        case msgtype, body
        case relation = "m.relates_to"
        case mentions = "m.mentions"
      }
    }
    struct Relation: Encodable {
      var rel_type = "m.thread"
      var event_id: String
      var is_falling_back = true
      var reply: Reply
      enum CodingKeys: String, CodingKey {
        case rel_type, event_id, is_falling_back
        case reply = "m.in_reply_to"
      }
    }
    struct Reply: Encodable { var event_id: String }
    struct Mentions: Encodable {}
    let json = try JSONEncoder().encode(
      Content(body: text, relation: Relation(event_id: root, reply: Reply(event_id: event))))
    var h = FNV1a()
    h.add(event.utf8)
    try send(String(decoding: json, as: UTF8.self), in: room, txn: "dinger-answer-\(h.value)")
  }
}
