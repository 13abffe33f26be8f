import Base
import FoundationEssentials
import Git
import Glibc
import Models
import Schedules
import Storage

/// `dinger collect --from ROOM`: the replies to dinger's stand-up reminders in a team's chat
/// room become the senders' written entries. A reminder `remind --post` sent to the room is a
/// thread's root (its content names the scrum); each reply in that thread (or an
/// `m.in_reply_to` of the reminder) from an attendee whose `matrix:` is its sender is read as
/// one line per question (`ChatReply`) and written as their entry of their local day, with
/// them as the commit's author; an edit (`m.replace`) writes the new text. What it read up to
/// is remembered in `.git/dinger/` (never committed); losing that only costs reading again:
/// an answer already in the entry is no change, never a second one.
public struct StandupCollector {
  let repository: Workspace
  let scrums: ScrumProvider
  let standups: StandupProvider

  public init(repository: Workspace) {
    self.repository = repository
    scrums = ScrumProvider.live(repository: repository)
    standups = StandupProvider(scrums: scrums)
  }

  /// What a collection did, a line each.
  public struct Outcome: Sendable, Equatable {
    /// `Platform: stand-up of Ada for 2026-11-24 (from @ada:example.org)`.
    public var written: [String] = []
    /// Replies left alone, and why.
    public var leftAlone: [String] = []
    /// Replies read that changed nothing (already in the entries).
    public var unchanged = 0
  }

  /// What `collect` remembers of a room between runs.
  struct Memory: Codable {
    /// Where to read on from.
    var from: String?
    /// Reminder events (thread roots) by id: the scrum's id, else slug.
    var roots: [String: String] = [:]
    /// Replies read, by id: the root they answer (an edit names only the reply).
    var replies: [String: String] = [:]
  }

  /// Reads the room behind `session` and writes what the replies say; `answer`: tells a sender
  /// whose reply was left alone why, in the thread. `days`: how far back a first read goes.
  public func collect(
    _ session: MatrixPoster.Session, address: String, answer: Bool, now: Date, days: Int = 14,
    fallbackZone: any WallClockZone
  ) throws -> Outcome {
    let room = try session.roomID()
    let me = try session.whoAmI()
    let file = memoryFile(address)
    var memory =
      file.flatMap { RegularFile.read($0, limit: 8 << 20) }.flatMap {
        try? JSONDecoder().decode(Memory.self, from: Data($0))
      } ?? Memory()
    let (events, next) = try session.timeline(
      room, from: memory.from, since: now.addingTimeInterval(-Double(days) * 86_400))
    let all = try scrums.list().scrums
    // NB: a reply is read as its latest edit says, wherever the edit is: reading the original
    // and then its edit would write the entry twice (and write again on every reading).
    var latest: [String: String] = [:]
    var senders: [String: String] = [:]
    for event in events where event.type == "m.room.message" {
      if let edited = event.edits {
        if senders[edited] == nil || senders[edited] == event.sender {
          latest[edited] = event.content.replacement?.body ?? event.content.body
        }
      } else {
        senders[event.event_id] = event.sender
      }
    }
    var outcome = Outcome()
    for event in events where event.type == "m.room.message" {
      if event.sender == me {
        if let root = event.content.root { memory.roots[event.event_id] = root.id ?? root.scrum }
        continue
      }
      let rootID: String
      let body: String
      if let edited = event.edits, let root = memory.replies[edited] {
        rootID = root
        body = latest[edited] ?? ""
      } else if let root = event.answers.flatMap({ id in memory.roots[id] != nil ? id : nil }) {
        rootID = root
        body = latest[event.event_id] ?? event.content.body ?? ""
        memory.replies[event.event_id] = root
      } else {
        continue
      }
      let key = memory.roots[rootID] ?? ""
      guard
        let stored = all.first(where: { $0.scrum.id?.lowercased == key.lowercased() })
          ?? all.first(where: { $0.slug == key })
      else {
        outcome.leftAlone.append("a reply of \(event.sender): its scrum is not here any more")
        continue
      }
      let why = try write(
        body, of: event, into: stored, fallbackZone: fallbackZone,
        outcome: &outcome)
      if let why {
        outcome.leftAlone.append("\(event.sender): \(why)")
        if answer {
          try? session.reply(
            "dinger left this reply alone: \(why)", to: rootID, about: event.event_id, in: room)
        }
      }
    }
    memory.from = next ?? memory.from
    // NB: bounded to 5,000 replies (event ids, not ordered by time): an edit of a reply that
    // fell out is left alone until the memory is lost and the room read again.
    if memory.replies.count > 5_000 {
      memory.replies = Dictionary(
        uniqueKeysWithValues: memory.replies.sorted { $0.key < $1.key }.suffix(5_000).map {
          ($0.key, $0.value)
        })
    }
    if let file, let data = try? JSONEncoder().encode(memory) {
      try? AtomicFile.write(Array(data), to: file, durability: .cache)
    }
    return outcome
  }

  /// Writes one reply as its sender's entry; why it was left alone, or nil.
  private func write(
    _ body: String, of event: MatrixEvent, into stored: StoredScrum,
    fallbackZone: any WallClockZone, outcome: inout Outcome
  ) throws -> String? {
    let scrum = stored.scrum
    guard
      let person = scrum.attendees.first(where: {
        $0.matrix?.lowercased() == event.sender.lowercased()
      })
    else {
      return
        "not an attendee of \(scrum.title) (give the attendee who this is 'matrix: \"\(event.sender)\"')"
    }
    let reply = ChatReply(body, asked: (scrum.standup ?? StandupSettings()).asked)
    guard !reply.isEmpty else { return "the reply answers no question of \(scrum.title)" }
    let zone =
      person.zone.flatMap { ZoneDatabase.system.rules($0) }
      ?? scrum.schedule.flatMap { ZoneDatabase.system.rules($0.zone) } ?? fallbackZone
    let day = CivilDate(at: Int64((event.origin_server_ts / 1000).rounded(.down)), in: zone)
      .description
    do {
      try standups.checkResolvable(reply.resolved, in: stored, by: person.name, on: day)
      let written = try standups.write(
        for: stored, by: person.name, date: day,
        author: (person.name, person.email ?? String(event.sender.dropFirst()))
      ) { e in
        for answer in reply.answers {
          e.answers.removeAll { $0.key == answer.key }
          e.answers.append(answer)
        }
        for text in reply.blockers where !e.blockers.contains(where: { $0.text == text }) {
          e.blockers.append(BlockerMention(text: text))
        }
        for id in reply.resolved where !e.resolved.contains(where: { $0.id == id }) {
          e.resolved.append(BlockerResolution(id: id))
        }
      }
      outcome.written.append("\(written.subject) (from \(event.sender))")
      return nil
    } catch let error as StorageError where error.description.hasPrefix("nothing to change") {
      outcome.unchanged += 1
      return nil
    } catch let error as StorageError {
      return error.description
    }
  }

  /// Where a room's memory is kept: `.git/dinger/collect-<hash of the address>.json` (nil in
  /// a repository dinger may not keep files in: every run reads the room again).
  func memoryFile(_ address: String) -> String? {
    var h = FNV1a()
    h.add(address.utf8)
    return repository.dingerFolderIfUsable?.appendingPathComponent(
      "collect-\(String(h.value, radix: 16)).json"
    ).path
  }
}
