import Foundation
import TestSupport
import Testing

/// The team simulation (see `TeamSimulation`): seeds that found bugs stay here as fixed cases;
/// `make torture` runs many more seeds with thousands of steps (DINGER_SIM_SEEDS,
/// DINGER_SIM_STEPS), and DINGER_SIM_SEED replays one.
@Suite(.serialized) struct TeamSimulationTests {
  /// Seeds kept because they found a bug, with the steps that reach it (docs/simulation.md
  /// says which bug), and one more.
  static let keptSeeds: [(seed: UInt64, steps: Int)] = [
    (1001, 25), (1007, 40), (2001, 60), (2005, 15), (1, 40), (4000, 95), (9102, 110),
    (9202, 60), (9301, 75), (9300, 80), (9403, 120),
  ]

  static var cases: [[UInt64]] {
    let env = ProcessInfo.processInfo.environment
    let steps = env["DINGER_SIM_STEPS"].flatMap(UInt64.init)
    if let one = env["DINGER_SIM_SEED"].flatMap(UInt64.init) { return [[one, steps ?? 40]] }
    if let count = env["DINGER_SIM_SEEDS"].flatMap(Int.init) {
      let start = env["DINGER_SIM_FIRST"].flatMap(UInt64.init) ?? 1000
      return (0..<UInt64(count)).map { [start + $0, steps ?? 250] }
    }
    return keptSeeds.map { [$0.seed, UInt64($0.steps)] }
  }

  /// `seedAndSteps`: the seed, and how many steps to run.
  @Test(arguments: cases) func aTeamsWeeksKeepEveryInvariant(seedAndSteps: [UInt64]) throws {
    let (seed, steps) = (seedAndSteps[0], Int(seedAndSteps[1]))
    let simulation = try TeamSimulation(seed: seed)
    try simulation.run(steps: steps)
    #expect(simulation.failures.isEmpty, "\(simulation.report)")
    // The simulation did real work: reads ran, and changes were acknowledged.
    #expect(simulation.readsRun >= steps * 10)
    #expect(simulation.ledger.writes.count >= steps / 8, "\(simulation.report)")
  }

  /// The reminder step itself, on a stand-up due now: the reminder reaches the local receiver
  /// once (the second run sends nothing), and the step's checks find nothing wrong.
  @Test func theReminderStepPostsOnceToTheReceiver() throws {
    let simulation = try TeamSimulation(seed: 1)
    let soon = simulation.now.addingTimeInterval(30 * 60)
    let f = ISO8601DateFormatter()
    let at = String(f.string(from: soon).dropFirst(11).prefix(5))
    let r = try simulation.dinger(
      "ada",
      [
        "scrum", "edit", "design-review", "--at", at, "--days", "daily", "--zone", "UTC", "--from",
        String(f.string(from: simulation.now).prefix(10)),
      ])
    #expect(r.status == 0, "\(r.stderr)")
    try simulation.remindStep("ada")
    #expect(simulation.failures.isEmpty, "\(simulation.failures)")
    let log = try #require(simulation.receiver?.log)
    let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
    #expect(lines.count == 1, "\(lines)")
    #expect(lines.first?.contains("Design Review starts in 30 min") == true, "\(lines)")
  }
}
