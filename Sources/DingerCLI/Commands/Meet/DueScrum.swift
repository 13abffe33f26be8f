import Base
import Components
import FoundationEssentials
import Glibc
import Models
import Providers

extension Meet {
  /// The scrum named, or else the one the schedules say is due now: from 10 minutes before its
  /// start to its planned end, not recorded yet. Two due: asks on a terminal, else names them.
  func chosenScrum(_ repository: Workspace) throws -> StoredScrum {
    let scrums = ScrumProvider.live(repository: repository)
    if let scrum { return try scrums.find(scrum) }
    let schedules = ScheduleProvider.live(repository: repository)
    let viewer = ViewerClock(now: currentDate())
    let now = viewer.now
    let window = now.addingTimeInterval(-24 * 3600)..<now.addingTimeInterval(24 * 3600)
    let due = try schedules.agenda(window, viewer: viewer).filter { $0.status == .now }
    let all = try scrums.list().scrums
    func stored(_ item: AgendaItem) throws -> StoredScrum {
      guard let s = all.first(where: { $0.slug == item.slug }) else {
        throw CLIError("scrum '\(item.title)' is gone; run 'dinger agenda' again")
      }
      return s
    }
    switch due.count {
    case 0:
      var message = "no stand-up is scheduled now"
      if let next = try schedules.next(viewer: viewer) {
        let line = AgendaView(
          items: [next], today: viewer.today.description, viewerZone: viewer.zoneName, now: now,
          color: false
        ).renderNext().trimming(\.isLineEnd)
        message += "; next: \(line)"
      }
      throw CLIError(message + "; name a scrum to meet anyway: 'dinger meet SCRUM'")
    case 1:
      Terminal.error("\(due[0].title), scheduled \(due[0].localStart)-\(due[0].localEnd)\n")
      return try stored(due[0])
    default:
      guard isatty(0) == 1 else {
        throw CLIError(
          "\(due.count) stand-ups are due now (\(due.map { "\($0.slug) at \($0.localStart)" }.joined(separator: ", "))); name one: 'dinger meet \(due[0].slug)'"
        )
      }
      var prompt = "\(due.count) stand-ups are due now:\n"
      for (i, item) in due.enumerated() {
        prompt += "  \(i + 1)) \(item.title)  \(item.localStart)-\(item.localEnd)\n"
      }
      prompt += "which one? [1-\(due.count)] "
      Terminal.error(prompt)
      guard let answer = readLine(), let n = Int(answer.trimmingSpaces()),
        (1...due.count).contains(n)
      else { throw CLIError("no stand-up chosen; nothing was run") }
      return try stored(due[n - 1])
    }
  }
}
