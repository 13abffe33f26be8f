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
  static func columns(
    label: String, values: [Double], marks: [Double]? = nil, stacked: [Double]? = nil,
    classes: [String], titles: [String], first: String, last: String, unit: String
  ) -> String {
    let heights = values.enumerated().map { $1 + (stacked?[$0] ?? 0) }
    let top = nice(max(1, (heights + (marks ?? [])).max() ?? 1))
    let plotW = width - left - 8
    let plotH = height - bottom - 8
    let step = plotW / Double(max(values.count, 1))
    let barW = max(1, min(step * 0.8, 28))
    var out = svgOpen(label)
    for f in [0.0, 0.5, 1.0] {
      let y = 8 + plotH * (1 - f)
      out +=
        "<line class=\"grid\" x1=\"\(num(left))\" x2=\"\(num(width - 8))\" y1=\"\(num(y))\" y2=\"\(num(y))\"/>"
      out +=
        "<text class=\"axis\" x=\"\(num(left - 4))\" y=\"\(num(y + 4))\" text-anchor=\"end\">\(HTML.esc(tick(top * f, unit)))</text>"
    }
    for (i, v) in values.enumerated() {
      let h = plotH * v / top
      let x = left + Double(i) * step + (step - barW) / 2
      out +=
        "<rect class=\"\(classes[i])\" x=\"\(num(x))\" y=\"\(num(8 + plotH - h))\" width=\"\(num(barW))\" height=\"\(num(h))\"><title>\(HTML.esc(titles[i]))</title></rect>"
      if let extra = stacked?[i], extra > 0 {
        let e = plotH * extra / top
        out +=
          "<rect class=\"missed\" x=\"\(num(x))\" y=\"\(num(8 + plotH - h - e))\" width=\"\(num(barW))\" height=\"\(num(e))\"><title>\(HTML.esc(titles[i]))</title></rect>"
      }
      if let m = marks?[i] {
        let y = 8 + plotH - plotH * m / top
        out +=
          "<line class=\"plan\" x1=\"\(num(x - 1))\" x2=\"\(num(x + barW + 1))\" y1=\"\(num(y))\" y2=\"\(num(y))\"/>"
      }
    }
    out +=
      "<text class=\"axis\" x=\"\(num(left))\" y=\"\(num(height - 6))\">\(HTML.esc(first))</text>"
    out +=
      "<text class=\"axis\" x=\"\(num(width - 8))\" y=\"\(num(height - 6))\" text-anchor=\"end\">\(HTML.esc(last))</text>"
    return out + "</svg>"
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
