import Base
import FoundationEssentials
import Glibc

/// One planned stand-up, as `dinger agenda` shows it: when, in the schedule's zone and the
/// viewer's, and whether it happened.
public struct AgendaItem: Hashable, Sendable, Codable {
  /// Where it is in its life.
  public enum Status: String, Hashable, Sendable, Codable {
    /// Not started yet.
    case upcoming
    /// From 10 minutes before its start to its planned end, nothing recorded yet.
    case now
    /// A meeting was recorded for it.
    case done
    /// Over, nothing recorded, and not in `skip`, where the team records its stand-ups: the
    /// schedule has a `from` on or before it, or the scrum has a meeting recorded before it.
    case missed
    /// Over and nothing recorded, where nothing says the team records them (a schedule without
    /// `from` added after this day's stand-up, or a scrum that never recorded one).
    case over
  }

  /// An attendee's own clock for the occurrence.
  public struct AttendeeTime: Hashable, Sendable, Codable {
    public var name: String
    /// Their zone, when the scrum gives one.
    public var zone: String?
    /// `HH:MM` there, and the day when it is not the viewer's day.
    public var time: String?
    public var day: String?
    /// Away that day (their `away:`), with its note; nil when expected.
    public var away: String?

    /// An attendee's time.
    public init(name: String, zone: String? = nil, time: String? = nil, day: String? = nil) {
      self.name = name
      self.zone = zone
      self.time = time
      self.day = day
    }
  }

  /// The scrum's title, slug and id.
  public var title: String
  public var slug: String
  public var id: String?
  /// The scheduled day in the schedule's zone (`skip:` and `moved:` name this day).
  public var day: String
  /// Start (`date`, as a meeting's) and planned end.
  public var date: Date
  public var endDate: Date
  /// The schedule's zone, and the time there.
  public var zone: String
  public var zoneTime: String
  /// True when `moved:` changed its time.
  public var moved: Bool
  public var status: Status
  /// The day and times in the viewer's zone.
  public var localDay: String
  public var localStart: String
  public var localEnd: String
  public var attendees: [AttendeeTime]
  /// The recorded meeting's file, when `status` is `done`.
  public var meeting: String?

  /// An item.
  public init(
    title: String, slug: String, id: String?, day: String, date: Date, endDate: Date, zone: String,
    zoneTime: String, moved: Bool, status: Status, localDay: String, localStart: String,
    localEnd: String, attendees: [AttendeeTime], meeting: String? = nil
  ) {
    self.title = title
    self.slug = slug
    self.id = id
    self.day = day
    self.date = date
    self.endDate = endDate
    self.zone = zone
    self.zoneTime = zoneTime
    self.moved = moved
    self.status = status
    self.localDay = localDay
    self.localStart = localStart
    self.localEnd = localEnd
    self.attendees = attendees
    self.meeting = meeting
  }
}
