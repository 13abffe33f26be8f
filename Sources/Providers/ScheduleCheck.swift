import Base
import FoundationEssentials
import Glibc
import Models
import Schedules
import Storage

extension CheckProvider {
  /// `check --strict`: meetings recorded far from every scheduled occurrence of their scrum
  /// (more than the match slack before the start or after the planned end), as warnings at
  /// their `date:`. Only scrums whose schedule reads are looked at; files with errors are the
  /// main check's.
  public static func offSchedule(root: URL, only: [String]?) -> [Diagnostic] {
    let directory = DataDirectory(root: root)
    var scheduled: [UUID: ScheduleProvider.Scheduled] = [:]
    for path in (try? directory.recordPaths(of: .scrum)) ?? [] {
      guard let bytes = read(root, path) else { continue }
      let file = RecordCodec.decode(bytes, path: path, kind: .scrum)
      guard case .scrum(let scrum)? = file.record, let id = scrum.id,
        let plan = scrum.schedule?.plan, let rules = ZoneDatabase.system.rules(plan.zone)
      else { continue }
      scheduled[id] = ScheduleProvider.Scheduled(
        stored: StoredScrum(path: path, scrum: scrum), plan: plan, rules: rules)
    }
    guard !scheduled.isEmpty else { return [] }
    let wanted = only.map(Set.init)
    var out: [Diagnostic] = []
    for path in (try? directory.recordPaths(of: .meeting)) ?? [] {
      if let wanted, !wanted.contains(path) { continue }
      guard let bytes = read(root, path) else { continue }
      let file = RecordCodec.decode(bytes, path: path, kind: .meeting)
      guard case .meeting(let meeting)? = file.record, let s = scheduled[meeting.scrum],
        ScheduleProvider.offSchedule(meeting, of: s)
      else { continue }
      out.append(
        file.diagnostic(
          .warning, at: [.key("date")],
          "this meeting of '\(s.stored.scrum.title)' is more than 2 hours from any scheduled stand-up (\(s.plan.summary)); check its date, or the schedule"
        ))
    }
    return out
  }

  private static func read(_ root: URL, _ path: String) -> [UInt8]? {
    guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(path).path),
      data.count <= 16 << 20
    else { return nil }
    return [UInt8](data)
  }
}
