import Foundation
import Models
import Storage
import YAML

/// Decode throughput over a generated set of record files, against raw libyaml event parsing of
/// the same bytes (the floor). Target: decoding costs at most 2x the raw parse.
enum YAMLBench {
  static let names = [
    "Ada Lovelace", "Grace Hopper", "Katherine Johnson", "Alan Turing", "Edsger Dijkstra",
    "Barbara Liskov", "Margaret Hamilton", "Donald Knuth", "Frances Allen", "John Backus",
    "Radia Perlman", "Ken Thompson", "Dennis Ritchie", "Hedy Lamarr", "Tim Berners-Lee",
  ]
  static let words = [
    "hola", "gracias", "adiós", "por favor", "perro", "gato", "casa", "libro", "agua", "comer",
    "beber", "dormir", "rojo", "azul", "verde", "mañana", "noche", "tiempo", "amigo", "ciudad",
  ]

  /// Canonical record files like a busy team's repository holds: scrums, meetings with
  /// transcripts, and libraries of words.
  static func corpus() -> [(kind: RecordKind, bytes: [UInt8])] {
    var rng = BenchRandom(state: 42)
    var files: [(RecordKind, [UInt8])] = []
    func add(_ record: AnyRecord, _ kind: RecordKind) {
      files.append((kind, Array(try! RecordCodec.encode(record).utf8)))
    }
    var scrumIDs: [UUID] = []
    for i in 0..<1_000 {
      let id = UUID()
      scrumIDs.append(id)
      let attendees = (0..<rng.int(2...9)).map { Attendee(name: "\(rng.pick(names)) \($0)") }
      add(
        .scrum(
          Scrum(
            id: id, title: "Team \(i) stand-up", theme: rng.pick(Theme.allCases),
            length: rng.int(5...30), attendees: attendees)), .scrum)
    }
    for i in 0..<6_000 {
      let people = (0..<rng.int(2...8)).map { "\(rng.pick(names)) \($0)" }
      let meeting = Meeting(
        id: UUID(), scrum: rng.pick(scrumIDs),
        date: Date(timeIntervalSince1970: 1_790_000_000 + Double(i) * 86_400), length: 15,
        duration: rng.int(300...1200), attendees: people,
        speakers: people.map { SpeakerTime(name: $0, seconds: rng.int(30...200)) },
        transcript: i % 3 == 0
          ? nil : "Yesterday: shipped \(rng.pick(words)).\nToday: review #\(i).\n")
      add(.meeting(meeting), .meeting)
    }
    for l in 0..<10 {
      let entries = (0..<500).map { w in
        Word(
          text: "\(rng.pick(words)) \(l)-\(w)", phonetic: "/ˈola/",
          meanings: [
            Meaning(
              partOfSpeech: "noun", definition: "meaning number \(w) of the word",
              example: "¡Hola, amigo \(w)!")
          ])
      }
      add(
        .library(Library(id: UUID(), name: "Library \(l)", language: "es", words: entries)),
        .library)
    }
    return files
  }

  static func run() {
    let files = corpus()
    let bytes = files.reduce(0) { $0 + $1.bytes.count }
    if ProcessInfo.processInfo.environment["DINGER_BENCH_PROFILE"] == "tree" {
      var sink = 0
      for _ in 0..<20 {
        for file in files { sink &+= (try? YAMLParser.parse(SourceText(file.bytes)))?.count ?? 0 }
      }
      print(sink)
      return
    }
    if ProcessInfo.processInfo.environment["DINGER_BENCH_PROFILE"] == "decode" {
      // For `perf record`: the decode step alone, many times.
      let nodes = files.map { (try? YAMLParser.parse(SourceText($0.bytes)))! }
      let decoder = YAMLDecoder()
      var sink = 0
      for _ in 0..<10 {
        for (file, node) in zip(files, nodes) {
          switch file.kind {
          case .scrum: sink &+= (try? decoder.decode(Scrum.self, from: node))?.length ?? 0
          case .meeting: sink &+= (try? decoder.decode(Meeting.self, from: node))?.duration ?? 0
          case .library: sink &+= (try? decoder.decode(Library.self, from: node))?.words.count ?? 0
          default: break
          }
        }
      }
      print(sink)
      return
    }
    print("YAML decoding: \(files.count) record files, \(bytes / 1024) KiB")

    var sink = 0
    let decoder = YAMLDecoder()
    let times = Measure.interleaved([
      { for file in files { sink &+= YAMLParser.countEvents(file.bytes) } },
      {
        for file in files {
          if let node = try? YAMLParser.parse(SourceText(file.bytes)) { sink &+= node.count }
        }
      },
      {
        for file in files {
          guard let node = try? YAMLParser.parse(SourceText(file.bytes)) else { continue }
          switch file.kind {
          case .scrum: sink &+= (try? decoder.decode(Scrum.self, from: node))?.length ?? 0
          case .meeting: sink &+= (try? decoder.decode(Meeting.self, from: node))?.duration ?? 0
          case .library: sink &+= (try? decoder.decode(Library.self, from: node))?.words.count ?? 0
          default: break
          }
        }
      },
    ])
    let (raw, tree, decode) = (times[0], times[1], times[2])
    let check = Measure.best(runs: 3) {
      for file in files {
        sink &+= RecordCodec.decode(file.bytes, path: "x", kind: file.kind).diagnostics.count
      }
    }
    Measure.line("raw libyaml events (floor)", seconds: raw, bytes: bytes)
    Measure.line("parse to nodes with ranges", seconds: tree, bytes: bytes)
    Measure.line("decode to models", seconds: decode, bytes: bytes)
    Measure.line("decode + validate + diagnostics", seconds: check, bytes: bytes)
    Measure.ratio("decode / raw parse", decode / raw, target: 2)
    if sink == 42 { print("") }  // keeps the work observable
    print("")
  }
}
