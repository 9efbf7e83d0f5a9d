/// How the store loader reads a document (``StoreLoader/load(from:into:options:)``).
public struct StoreLoadOptions {
  /// The default of ``maximumItemBytes``: 16 MiB.
  public static let defaultMaximumItemBytes = 16 << 20

  /// The largest item the loader reads: one format, creative or ad unit, or the value of any
  /// other member of the document. What it holds of the document at once is about this plus
  /// ``readBytes``; a longer item stops the load with an error naming it.
  public var maximumItemBytes = defaultMaximumItemBytes
  /// The most trackers a creative written in `openrtb` may carry (`--max-ad-trackers`).
  public var maximumAdTrackers = OpenRTBDecoder.defaultMaximumTrackers
  /// How many bytes one read asks of the source (1 MiB).
  public var readBytes = 1 << 20
  /// Progress lines for a long load; nil for none.
  public var progress: StoreLoadProgress?
  /// The longest run of items parsed as one array (0: every item alone; tests compare both).
  /// Runs are parsed only when no item may be longer (``maximumItemBytes`` at least this).
  var runBytes = 256 << 10

  public init(
    maximumItemBytes: Int = defaultMaximumItemBytes, readBytes: Int = 1 << 20,
    progress: StoreLoadProgress? = nil
  ) {
    self.maximumItemBytes = maximumItemBytes
    self.readBytes = readBytes
    self.progress = progress
  }
}

/// Progress lines for a store load that takes long (`store: 412,000 creatives, 104 MB of 255 MB
/// read (1.0 s)`), driven by the clock it is given: nothing before ``interval`` has passed,
/// then a line every ``interval`` or so, and a last line when a load that printed any ends.
public struct StoreLoadProgress {
  /// Seconds on a monotonic clock (the executable's; a test's fake one).
  public var clock: () -> Double
  /// Where a line goes (the executable writes it on stderr).
  public var write: (String) -> Void
  /// Seconds before the first line, and between lines.
  public var interval: Double

  public init(
    clock: @escaping () -> Double, interval: Double = 1, write: @escaping (String) -> Void
  ) {
    self.clock = clock
    self.interval = interval
    self.write = write
  }

  /// `1234567` as `1,234,567`.
  static func grouped(_ n: Int) -> String {
    let digits = String(n.magnitude)
    var out = ""
    for (k, c) in digits.enumerated() {
      if k > 0 && (digits.count - k) % 3 == 0 { out.append(",") }
      out.append(c)
    }
    return n < 0 ? "-" + out : out
  }

  /// Bytes in MB (10^6), as a whole number (tenths below 10 MB).
  static func megabytes(_ bytes: Int) -> String {
    let mb = Double(bytes) / 1_000_000
    if mb < 10 { return String(Double((mb * 10).rounded()) / 10) }
    return grouped(Int(mb.rounded()))
  }

  /// Seconds with one decimal.
  static func seconds(_ s: Double) -> String {
    let tenths = Int((s * 10).rounded())
    return "\(tenths / 10).\(tenths % 10)"
  }
}
