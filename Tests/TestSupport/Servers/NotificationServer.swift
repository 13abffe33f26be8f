import Foundation

/// A private D-Bus session bus (Debian's `dbus-daemon`) with a desktop notification server on
/// it: a small program (/usr/bin/python3 with Debian's python3-dbus) that owns
/// `org.freedesktop.Notifications` as a desktop's server does and records each `Notify` call
/// (app name, summary, body) as a JSON line. The real `notify-send` talks to it.
public final class NotificationServer: @unchecked Sendable {
  public let folder: TemporaryDirectory
  /// What a client puts in DBUS_SESSION_BUS_ADDRESS.
  public let address: String
  private var pids: [Int32] = []

  /// Whether dbus-daemon, python3-dbus and notify-send are here (`make deps` installs them).
  public static var available: Bool {
    ProcessRunner.which("dbus-daemon") != nil && ProcessRunner.which("notify-send") != nil
      && (try? ProcessRunner.run("/usr/bin/python3", ["-c", "import dbus, gi"]).status) == 0
  }

  static let server = #"""
    import os, sys, json
    os.environ['DBUS_SESSION_BUS_ADDRESS'] = sys.argv[1]
    import dbus, dbus.service, dbus.mainloop.glib
    from gi.repository import GLib
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    log = open(sys.argv[2], 'a')
    I = 'org.freedesktop.Notifications'
    class Server(dbus.service.Object):
        @dbus.service.method(I, in_signature='susssasa{sv}i', out_signature='u')
        def Notify(self, app, replaces, icon, summary, body, actions, hints, timeout):
            log.write(json.dumps({'app': str(app), 'summary': str(summary), 'body': str(body)}) + '\n')
            log.flush()
            return 1
        @dbus.service.method(I, out_signature='as')
        def GetCapabilities(self): return ['body', 'body-markup']
        @dbus.service.method(I, out_signature='ssss')
        def GetServerInformation(self): return ('dinger-test', 'dinger', '1', '1.2')
    bus = dbus.SessionBus()
    name = dbus.service.BusName(I, bus)
    Server(bus, '/org/freedesktop/Notifications')
    open(sys.argv[3], 'w').write('ready')
    GLib.MainLoop().run()
    """#

  public init() throws {
    folder = try TemporaryDirectory("dinger-notify")
    address = "unix:path=" + folder.path("bus")
    pids.append(
      try ProcessRunner.start(
        ProcessRunner.which("dbus-daemon")!, ["--session", "--nofork", "--address=" + address]))
    for _ in 0..<100 where !FileManager.default.fileExists(atPath: folder.path("bus")) {
      usleep(50_000)
    }
    pids.append(
      try ProcessRunner.start(
        "/usr/bin/python3",
        ["-c", Self.server, address, folder.path("notifications.jsonl"), folder.path("ready")]))
    for _ in 0..<200 where !FileManager.default.fileExists(atPath: folder.path("ready")) {
      usleep(50_000)
    }
    guard FileManager.default.fileExists(atPath: folder.path("ready")) else {
      stop()
      throw CancellationError()
    }
  }

  /// One shown notification.
  public struct Shown: Decodable, Equatable, Sendable {
    public var app: String
    public var summary: String
    public var body: String
  }

  /// The notifications shown so far, in order.
  public func shown() throws -> [Shown] {
    guard let data = FileManager.default.contents(atPath: folder.path("notifications.jsonl"))
    else { return [] }
    return try data.split(separator: UInt8(ascii: "\n")).map {
      try JSONDecoder().decode(Shown.self, from: Data($0))
    }
  }

  public func stop() {
    for pid in pids.reversed() { ProcessRunner.stop(pid) }
    pids = []
  }

  deinit { stop() }
}
