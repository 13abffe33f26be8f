import Base
import FoundationEssentials
import Glibc
import Models

/// Inline SVG charts, each inside a `<figure>` with its title, a one-line reading, and its data as
/// a table behind a `<details>` (what a screen reader and a printout read). Pure functions.
enum Charts {
  static let width = 720.0
  static let height = 200.0
  static let left = 44.0
  static let bottom = 22.0

  /// A figure around a chart.
  static func figure(id: String, title: String, reading: String, svg: String, table: String)
    -> String
  {
    """
    <figure class="chart" id="\(id)">
    <figcaption><h3>\(HTML.esc(title))</h3><p class="reading">\(HTML.esc(reading))</p></figcaption>
    \(svg)
    <details><summary>Data</summary>\(table)</details>
    </figure>

    """
  }

  /// A figure that has nothing to draw: says so instead of empty axes.
  static func empty(id: String, title: String, why: String) -> String {
    """
    <figure class="chart empty" id="\(id)">
    <figcaption><h3>\(HTML.esc(title))</h3><p class="reading">\(HTML.esc(why))</p></figcaption>
    </figure>

    """
  }

  static func svgOpen(_ label: String, height h: Double = height) -> String {
    "<svg class=\"plot\" viewBox=\"0 0 \(Int(width)) \(Int(h))\" role=\"img\" aria-label=\"\(HTML.esc(label))\">"
  }

  static func num(_ v: Double) -> String { String(cFormat: "%.1f", v) }

  /// Vertical bars with an optional marker per bar (the planned length) and a class per bar.
  /// `labels` names each bar; about five of them are written under the axis, evenly spaced.
  /// With `whole`, the values are counts: every tick is a whole number.
  static func columns(
    label: String, values: [Double], marks: [Double]? = nil, stacked: [Double]? = nil,
    stackedClass: String = "missed", classes: [String], titles: [String], labels: [String],
    unit: String, whole: Bool = false
  ) -> String {
    let heights = values.enumerated().map { $1 + (stacked?[$0] ?? 0) }
    let (top, ticks) = scale(max(heights.max() ?? 0, marks?.max() ?? 0), whole: whole)
    let plotW = width - left - 8
    let plotH = height - bottom - 8
    let step = plotW / Double(max(values.count, 1))
    let barW = max(1, min(step * 0.8, 28))
    var out = svgOpen(label)
    for t in ticks {
      let y = 8 + plotH * (1 - t / top)
      out +=
        "<line class=\"grid\" x1=\"\(num(left))\" x2=\"\(num(width - 8))\" y1=\"\(num(y))\" y2=\"\(num(y))\"/>"
      out +=
        "<text class=\"axis\" x=\"\(num(left - 4))\" y=\"\(num(y + 4))\" text-anchor=\"end\">\(HTML.esc(tick(t, unit)))</text>"
    }
    for (i, v) in values.enumerated() {
      let h = plotH * v / top
      let x = left + Double(i) * step + (step - barW) / 2
      out +=
        "<rect class=\"\(classes[i])\" x=\"\(num(x))\" y=\"\(num(8 + plotH - h))\" width=\"\(num(barW))\" height=\"\(num(h))\"><title>\(HTML.esc(titles[i]))</title></rect>"
      if let extra = stacked?[i], extra > 0 {
        let e = plotH * extra / top
        out +=
          "<rect class=\"\(stackedClass)\" x=\"\(num(x))\" y=\"\(num(8 + plotH - h - e))\" width=\"\(num(barW))\" height=\"\(num(e))\"><title>\(HTML.esc(titles[i]))</title></rect>"
      }
      if let m = marks?[i] {
        let y = 8 + plotH - plotH * m / top
        out +=
          "<line class=\"plan\" x1=\"\(num(x - 1))\" x2=\"\(num(x + barW + 1))\" y1=\"\(num(y))\" y2=\"\(num(y))\"/>"
      }
    }
    // NB: about five labels along the axis (only the ends were labelled): each under its bar.
    for i in labelIndices(labels.count) {
      let x = left + Double(i) * step + step / 2
      let anchor =
        i == 0 && labels.count > 1
        ? "start" : i == labels.count - 1 && labels.count > 1 ? "end" : "middle"
      let at = anchor == "start" ? left : anchor == "end" ? width - 8 : x
      out +=
        "<text class=\"axis\" x=\"\(num(at))\" y=\"\(num(height - 6))\" text-anchor=\"\(anchor)\">\(HTML.esc(labels[i]))</text>"
    }
    return out + "</svg>"
  }

  /// Which of `n` bars get a label under the axis: the first, the last, and about three evenly
  /// spaced between.
  static func labelIndices(_ n: Int) -> [Int] {
    guard n > 0 else { return [] }
    guard n > 5 else { return Array(0..<n) }
    return (0...4).map { Int((Double($0) * Double(n - 1) / 4).rounded()) }
  }

  /// The axis top and its ticks for values up to `v`: ticks a nice step apart (1, 2 or 5
  /// times a power of ten), whole numbers when the values are counts (a chart of meetings had
  /// ticks at 0.5 and 2.5 meetings, and one of minutes at 13).
  static func scale(_ v: Double, whole: Bool) -> (top: Double, ticks: [Double]) {
    let v = v.isFinite && v > 0 ? v : 1
    var step = niceStep(v / 4)
    if whole { step = max(1, step.rounded(.up)) }
    let count = max(1, Int((v / step).rounded(.up)))
    let top = Double(count) * step
    return (top, (0...count).map { Double($0) * step })
  }

  /// The smallest of 1, 2, 5 times a power of ten at or above `v`.
  static func niceStep(_ v: Double) -> Double {
    guard v > 0, v.isFinite else { return 1 }
    let p = pow(10, (log10(v)).rounded(.down))
    for f in [1.0, 2, 5, 10] where f * p >= v * 0.999_999 { return f * p }
    return 10 * p
  }

  /// The smallest of 1, 2, 2.5, 5 times a power of ten at or above `v`.
  static func nice(_ v: Double) -> Double {
    let p = pow(10, (log10(v)).rounded(.down))
    for f in [1, 2, 2.5, 5, 10] where f * p >= v { return f * p }
    return 10 * p
  }

  static func tick(_ v: Double, _ unit: String) -> String {
    guard v.isFinite, abs(v) < 1e15 else { return "-" }
    return v >= 10 || v == v.rounded()
      ? "\(Int(v.rounded()))\(unit)" : String(cFormat: "%.1f", v) + unit
  }

  /// Horizontal bars, one per row: label, length, and the value written after the bar.
  static func bars(
    label: String, rows: [(name: String, value: Double, text: String)], color: String
  )
    -> String
  {
    let rowH = 22.0
    let h = Double(rows.count) * rowH + 8
    let nameW = 150.0
    let plotW = width - nameW - 110
    let top = max(rows.map(\.value).max() ?? 1, 1)
    var out = svgOpen(label, height: h)
    for (i, r) in rows.enumerated() {
      let y = 4 + Double(i) * rowH
      let w = plotW * r.value / top
      out +=
        "<text class=\"name\" x=\"\(num(nameW - 6))\" y=\"\(num(y + 15))\" text-anchor=\"end\">\(HTML.esc(String(r.name.prefix(24))))</text>"
      out +=
        "<rect class=\"bar\" style=\"fill:\(color)\" x=\"\(num(nameW))\" y=\"\(num(y + 3))\" width=\"\(num(max(w, 1)))\" height=\"\(num(rowH - 6))\"><title>\(HTML.esc(r.name)): \(HTML.esc(r.text))</title></rect>"
      out +=
        "<text class=\"value\" x=\"\(num(nameW + w + 6))\" y=\"\(num(y + 15))\">\(HTML.esc(r.text))</text>"
    }
    return out + "</svg>"
  }

  /// A table: a header row and rows of cells (already escaped where they hold data).
  static func table(id: String, head: [String], rows: [[String]]) -> String {
    var out = "<table id=\"\(id)\"><thead><tr>"
    out += head.map { "<th scope=\"col\">\(HTML.esc($0))</th>" }.joined()
    out += "</tr></thead><tbody>"
    for r in rows {
      out +=
        "<tr>"
        + r.enumerated().map { i, c in i == 0 ? "<th scope=\"row\">\(c)</th>" : "<td>\(c)</td>" }
        .joined() + "</tr>"
    }
    return out + "</tbody></table>"
  }
}
