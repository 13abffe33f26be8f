import Foundation
import Testing

@testable import Components

/// Numbers from teammates' files never trap a view: a share of nothing (0/0), a speaker's time
/// past the meeting's, a quiz claiming more right answers than questions.
@Suite struct DataShapedNumbersTests {
  @Test(arguments: [Double.nan, .infinity, -.infinity, -0.5, 0, 0.5, 1, 1.7, 1e300])
  func barsSparksAndPercentsTakeAnyShare(share: Double) {
    let bar = StatsView.bar(share, 20)
    #expect(bar.count == 20)
    _ = StatsView.spark(share)
    #expect(HTML.percent(share).hasSuffix("%") || HTML.percent(share) == "-")
  }
}
