// `make bench`: Dinger's performance figures, each with the baseline it is judged against.
// Run in release mode; prints figures, never asserts.

import Foundation

print("Dinger benchmarks (release build, best of several runs)\n")
YAMLBench.run()
