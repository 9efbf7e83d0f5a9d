import JSONRPC
import NativeAds

/// One load of a store document into an ``Inventory`` (``StoreLoader``): it walks the document
/// as it streams in, validates each item on its own, and reports the error the whole document
/// would get.
///
/// The loader holds one item at a time, never the document: the top level (the root object,
/// its members, the section arrays) is walked here, byte by byte with the ``JSONParser``'s
/// wording of syntax errors, and each item (a format, a creative, an ad unit, or the value of
/// another member) is parsed and validated by itself. What "the error" of a document is does
/// not change with streaming:
///
/// 1. a syntax error, the first in the document, before anything else;
/// 2. then an unknown top-level member (the first);
/// 3. then the sections in the order formats, creatives, ad units, whatever their order in the
///    file: for each, a value that is not an array, then its first item that is not an object,
///    then its first item with an unknown member, then its first item that cannot be stored
///    (decoded, a repeated ID, or refused by the inventory), in item order.
///
/// So the walk records errors rather than stopping at them, keeps checking what could still
/// come first, and stops doing what cannot matter any more. Ad units are decoded as they come
/// and stored at the end, once every creative is there (a file may list its units first).
/// Creatives need the formats before them only when they are custom: when a formats section
/// comes after custom creatives, or a section is given twice (the last one counts), the first
/// pass only validates the syntax and notes where each section is, and a second pass loads the
/// sections, in order, from where they are.
final class StoreLoad {
  enum Section: Int, CaseIterable {
    case formats, creatives, adUnits

    var name: String {
      switch self {
      case .formats: "formats"
      case .creatives: "creatives"
      case .adUnits: "adUnits"
      }
    }
  }

  /// What a section has shown so far.
  struct SectionState {
    /// How many times the document names it (a second time: another pass).
    var occurrences = 0
    /// Where the value of its last occurrence starts.
    var valueOffset: Int?
    /// Its value is neither an array nor null.
    var notArray = false
    /// The first item that is not an object.
    var firstNonObject: Int?
    /// The first item with an unknown member, and the member.
    var unknownMember: InvalidField?
    /// The first item that cannot be stored.
    var failure: InvalidField?
    /// When that is a creative whose ID an earlier one has: its index and the ID (the earlier
    /// one is found when the error is reported).
    var duplicate: (index: Int, id: String)?
    /// Items walked, and items stored.
    var items = 0
    var stored = 0

    var hasError: Bool {
      notArray || firstNonObject != nil || unknownMember != nil || failure != nil
    }

    func error(_ section: Section) -> InvalidField? {
      if notArray { return InvalidField(section.name, "must be an array") }
      if let index = firstNonObject {
        return InvalidField("\(section.name)[\(index)]", "must be an object")
      }
      return unknownMember ?? failure
    }
  }

  private let inventory: Inventory
  private let options: StoreLoadOptions
  private let input: StoreInput
  /// Parsers for the depth at which values are read (the document's limit is 64 levels): the
  /// root, a member of it, an item of a section.
  private let rootParser = JSONParser(maxDepth: 64)
  private let memberParser = JSONParser(maxDepth: 63)
  private let itemParser = JSONParser(maxDepth: 62)
  /// Runs of items are parsed as one array (``StoreInput/itemRunCandidate(limit:)``) of at
  /// most ``StoreLoadOptions/runBytes``; an item that does not parse that way is parsed alone.
  private let runParser = JSONParser(maxDepth: 63)
  /// While reporting a repeated creative ID: the ID, and the first item that has it.
  private var locating: (id: String, found: Int?)?
  private let reader = PackedCreativeReader()
  private let snapshot: Inventory.Snapshot
  /// Whether the inventory had custom creatives before the load (a native creative of the file
  /// may replace one, which matters to a format the file redefines).
  private let hadCustomCreatives: Bool

  private var sections = [SectionState](repeating: SectionState(), count: 3)
  private var unknownTopLevel: InvalidField?
  /// Whether this pass only validates and maps the document (another pass loads it).
  private var mapping = false
  private var pass = 1
  /// Within one document an ID may appear once per kind (over RPC, putting again replaces).
  private var seenFormats: [String: Int] = [:]
  private var seenUnits: [String: Int] = [:]
  /// Ad units decoded, stored at the end of the pass.
  private var pendingUnits: [(index: Int, unit: AdUnit)] = []
  /// Pass 1: a formats section was walked; a creative that needs formats was seen before it.
  private var formatsSeen = false
  private var creativeNeedingFormats = false
  private var reserved = false

  // Progress.
  private let startTime: Double?
  private var nextProgressTime = 0.0
  private var nextProgressCheck = 0
  private var printedProgress = false

  init(source: any StoreByteSource, inventory: Inventory, options: StoreLoadOptions) {
    self.inventory = inventory
    self.options = options
    input = StoreInput(
      source: source, readBytes: options.readBytes, maximumValueBytes: options.maximumItemBytes)
    snapshot = inventory.snapshot()
    hadCustomCreatives = inventory.creatives.values.contains { $0.kind == .customNative }
    startTime = options.progress.map { $0.clock() }
    if let startTime, let progress = options.progress {
      nextProgressTime = startTime + progress.interval
    }
  }

  /// Loads the document; the summary, or the document's error.
  func run() throws(StoreLoadError) -> StoreLoadSummary {
    try walkDocument()
    if mapping && unknownTopLevel == nil {
      // Another pass, sections in order, from where they are.
      inventory.restore(snapshot)
      mapping = false
      pass = 2
      let offsets = sections.map(\.valueOffset)
      sections = [SectionState](repeating: SectionState(), count: 3)
      seenFormats = [:]
      seenUnits = [:]
      pendingUnits = []
      for section in Section.allCases {
        guard let offset = offsets[section.rawValue] else { continue }
        sections[section.rawValue].valueOffset = offset
        try input.seek(to: offset)
        try walkSectionValue(section)
      }
    }
    storePendingUnits()
    if let error = unknownTopLevel {
      throw StoreLoadError(path: error.field, problem: error.problem)
    }
    for section in Section.allCases {
      let state = sections[section.rawValue]
      guard var error = state.error(section) else { continue }
      if error == state.failure, let (index, id) = state.duplicate {
        let first = try locateFirstCreative(id)
        error = InvalidField(
          "\(section.name)[\(index)].id", "duplicates the ID of \(section.name)[\(first)]")
      }
      throw StoreLoadError(path: error.field, problem: error.problem)
    }
    let summary = StoreLoadSummary(
      formats: sections[0].stored, creatives: sections[1].stored, adUnits: sections[2].stored,
      packedCreatives: reader.packer.packedCount, packedBytes: reader.packer.packedBytes,
      bytes: input.totalRead, passes: pass)
    if printedProgress, let progress = options.progress, let startTime {
      progress.write(
        "store: \(StoreLoadProgress.grouped(summary.creatives)) creatives, "
          + "\(StoreLoadProgress.grouped(summary.adUnits)) ad units and "
          + "\(StoreLoadProgress.grouped(summary.formats)) formats loaded from "
          + "\(StoreLoadProgress.megabytes(input.size ?? summary.bytes)) MB in "
          + "\(StoreLoadProgress.seconds(progress.clock() - startTime)) s")
    }
    return summary
  }

  // MARK: The top level

  private func syntax(_ reason: String, at offset: Int) -> StoreLoadError {
    StoreLoadError(path: "", problem: "not valid JSON: \(reason) at byte \(offset)")
  }

  /// The length of the value at the next byte, for the item at `place`.
  private func scanValue(place: @autoclosure () -> String) throws(StoreLoadError) -> Int {
    do {
      return try input.scanValue()
    } catch {
      switch error {
      case .unreadable(let error): throw error
      case .tooLarge:
        let limit = StoreLoadProgress.grouped(options.maximumItemBytes)
        throw StoreLoadError(
          path: place(), problem: "is larger than the limit of \(limit) bytes for one item")
      }
    }
  }

  /// Parses the `count` bytes at the input's position with `parser` and hands the value to
  /// `body`; a syntax error as the whole document's parse would word it. `afterScalar` is what
  /// the enclosing container expects after a value (a scalar slice ends where a byte that
  /// cannot continue it starts).
  private func parse(
    _ count: Int, with parser: JSONParser, afterScalar: String?, _ body: (JSONRef) -> Void
  ) throws(StoreLoadError) {
    let base = input.offset
    do {
      try input.withBytes(count) { bytes in try parser.parse(bytes) { body($0) } }
    } catch let error as JSONParseError {
      var reason = error.reason
      if reason == "nesting deeper than \(parser.maxDepth) levels" {
        reason = "nesting deeper than \(rootParser.maxDepth) levels"
      } else if let afterScalar, reason == "unexpected data after the JSON value" {
        reason = afterScalar
      }
      throw syntax(reason, at: base + error.offset)
    } catch {
      throw StoreLoadError(path: "", problem: "\(error)")
    }
  }

  private func walkDocument() throws(StoreLoadError) {
    guard let first = try input.peek() else {
      throw syntax("unexpected end of input", at: input.offset)
    }
    guard first == UInt8(ascii: "{") else {
      // Valid JSON that is not an object is still not a store.
      let count = try scanValue(place: "")
      try parse(count, with: rootParser, afterScalar: nil) { _ in }
      input.advance(count)
      if try input.peek() != nil {
        throw syntax("unexpected data after the JSON value", at: input.offset)
      }
      throw StoreLoadError(path: "", problem: "a store file must be a JSON object")
    }
    input.advance(1)
    var next = try input.peek()
    if next == UInt8(ascii: "}") {
      input.advance(1)
    } else {
      while true {
        guard let c = next else { throw syntax("unexpected end of input", at: input.offset) }
        guard c == UInt8(ascii: "\"") else {
          throw syntax("expected a string key in object", at: input.offset)
        }
        let keyLength = try scanValue(place: "")
        var key = ""
        try parse(keyLength, with: memberParser, afterScalar: nil) { key = $0.stringValue ?? "" }
        input.advance(keyLength)
        guard try input.peek() == UInt8(ascii: ":") else {
          throw syntax("expected ':' after object key", at: input.offset)
        }
        input.advance(1)
        try walkMember(key)
        guard try another(closedBy: UInt8(ascii: "}"), "expected ',' or '}' in object") else {
          break
        }
        next = try input.peek()
      }
    }
    if try input.peek() != nil {
      throw syntax("unexpected data after the JSON value", at: input.offset)
    }
  }

  /// The value of the top-level member `key`, at the input's position.
  private func walkMember(_ key: String) throws(StoreLoadError) {
    guard try input.peek() != nil else {
      throw syntax("unexpected end of input", at: input.offset)
    }
    // Keys compare as bytes (as everywhere in the document), not as Swift strings.
    let section = Section.allCases.first { key.utf8.elementsEqual($0.name.utf8) }
    guard let section else {
      let count = try scanValue(place: key)
      try parse(count, with: memberParser, afterScalar: "expected ',' or '}' in object") { _ in }
      input.advance(count)
      if !key.utf8.elementsEqual("$schema".utf8), !key.utf8.elementsEqual("description".utf8),
        unknownTopLevel == nil
      {
        unknownTopLevel = InvalidField(key, "is not a known field")
      }
      return
    }
    sections[section.rawValue].occurrences += 1
    sections[section.rawValue].valueOffset = input.offset
    if sections[section.rawValue].occurrences > 1 {
      mapping = true  // the last occurrence counts: load it in another pass
    }
    if section == .formats {
      if creativeNeedingFormats { mapping = true }
      formatsSeen = true
    }
    try walkSectionValue(section)
  }

  /// The value of a section, at the input's position (just past whitespace).
  private func walkSectionValue(_ section: Section) throws(StoreLoadError) {
    guard try input.peek() == UInt8(ascii: "[") else {
      let count = try scanValue(place: section.name)
      var isNull = false
      try parse(count, with: memberParser, afterScalar: "expected ',' or '}' in object") {
        isNull = $0.isNull
      }
      input.advance(count)
      if !isNull { sections[section.rawValue].notArray = true }
      return
    }
    input.advance(1)
    var next = try input.peek()
    if next == UInt8(ascii: "]") {
      input.advance(1)
      return
    }
    var index = 0
    // Runs parsed one item at a time up to here (a run that did not parse as one).
    var aloneUntil = 0
    let runBytes = options.runBytes
    let runs = runBytes > 0 && options.maximumItemBytes >= runBytes
    while true {
      guard next != nil else { throw syntax("unexpected end of input", at: input.offset) }
      var parsedRun = false
      if runs, input.offset >= aloneUntil {
        try input.fill(atLeast: runBytes)
        if let count = input.itemRunCandidate(limit: runBytes) {
          do {
            try input.withBatch(count) { bytes in
              try runParser.parse(bytes) { run in
                for element in run.elements {
                  self.item(element, at: index, of: section)
                  index += 1
                }
              }
            }
            input.advance(count)
            parsedRun = true
          } catch {
            // Not a run of items after all, or not valid: item by item, which says why.
            aloneUntil = input.offset + count
          }
        }
      }
      if !parsedRun {
        let count = try scanValue(place: "\(section.name)[\(index)]")
        try parse(count, with: itemParser, afterScalar: "expected ',' or ']' in array") { item in
          self.item(item, at: index, of: section)
        }
        input.advance(count)
        index += 1
      }
      sections[section.rawValue].items = index
      if section == .creatives, !reserved, index >= 1024, let size = input.size {
        // Room for the creatives still to come, estimated from those so far.
        reserved = true
        let offset = input.offset
        let perCreative = max(1, (offset - (sections[1].valueOffset ?? 0)) / index)
        inventory.reserveCapacity(creatives: (size - offset) / perCreative)
      }
      if input.bytesRead >= nextProgressCheck { progressCheck() }
      guard try another(closedBy: UInt8(ascii: "]"), "expected ',' or ']' in array") else {
        return
      }
      next = try input.peek()
    }
  }

  /// After a member or an element: past its `,` when another follows (true), past the
  /// container's `closer` when none does (false); anything else is the syntax error
  /// `expected`.
  private func another(closedBy closer: UInt8, _ expected: String) throws(StoreLoadError)
    -> Bool
  {
    guard let after = try input.peek() else {
      throw syntax("unexpected end of input", at: input.offset)
    }
    guard after == UInt8(ascii: ",") || after == closer else {
      throw syntax(expected, at: input.offset)
    }
    input.advance(1)
    return after == UInt8(ascii: ",")
  }

  // MARK: Items

  /// Whether items of `section` are still stored: nothing that comes first has failed.
  private func storing(_ section: Section) -> Bool {
    guard !mapping, unknownTopLevel == nil else { return false }
    for s in 0...section.rawValue where sections[s].hasError { return false }
    return true
  }

  /// Whether the shapes of `section`'s items still matter.
  private func checking(_ section: Section) -> Bool {
    guard !mapping, unknownTopLevel == nil else { return false }
    for s in 0..<section.rawValue where sections[s].hasError { return false }
    let state = sections[section.rawValue]
    return !state.notArray && (state.firstNonObject == nil || state.unknownMember == nil)
  }

  private func item(_ item: JSONRef, at index: Int, of section: Section) {
    if locating != nil { return locate(item, at: index) }
    if section == .creatives, storing(.creatives), let creative = reader.read(item) {
      return store(creative, at: index, packed: true)
    }
    guard checking(section) else { return }
    let s = section.rawValue
    guard item.kind == .object else {
      if sections[s].firstNonObject == nil { sections[s].firstNonObject = index }
      return
    }
    guard sections[s].unknownMember == nil else { return }
    let place = "\(section.name)[\(index)]"
    let params = Params(item, prefix: place + ".")
    let shape =
      switch section {
      case .formats: FormatShape.shape
      case .creatives: CreativeShape.shape
      case .adUnits: AdUnitShape.shape
      }
    do throws(InvalidField) {
      try shape.check(params)
    } catch {
      sections[s].unknownMember = error
      return
    }
    if section == .creatives, !formatsSeen, pass == 1,
      item["kind"]?.stringEquals("customNative") == true
    {
      creativeNeedingFormats = true
    }
    guard storing(section) else { return }
    do throws(InvalidField) {
      switch section {
      case .formats:
        let format = try StoreDecoder.format(params)
        try once(&seenFormats, format.id, index, section)
        do {
          _ = try inventory.defineFormat(format)
        } catch {
          throw error.invalidField(under: place)
        }
        sections[s].stored += 1
      case .creatives:
        let creative = try StoreDecoder.creative(
          params, maximumTrackers: options.maximumAdTrackers
        ) { inventory.format($0) }
        store(creative, at: index, packed: false)
      case .adUnits:
        let unit = try StoreDecoder.adUnit(params)
        try once(&seenUnits, unit.id, index, section)
        pendingUnits.append((index, unit))
      }
    } catch {
      sections[s].failure = error
    }
  }

  /// While reporting a repeated ID: whether `item` is the first with it.
  private func locate(_ item: JSONRef, at index: Int) {
    guard let (id, found) = locating, found == nil,
      let itemID = item["id"]?.stringValue, itemID.utf8.elementsEqual(id.utf8)
    else { return }
    locating = (id, index)
  }

  private func once(
    _ seen: inout [String: Int], _ id: String, _ index: Int, _ section: Section
  ) throws(InvalidField) {
    if let first = seen.updateValue(index, forKey: id) {
      seen[id] = first
      throw InvalidField(
        "\(section.name)[\(index)].id", "duplicates the ID of \(section.name)[\(first)]")
    }
  }

  /// Whether `existing`, stored under an ID, was stored by this load (not the inventory's
  /// before it, which a file may replace once).
  private func isFromThisLoad(_ existing: Creative) -> Bool {
    guard let before = inventory.creative(existing.id, in: snapshot) else { return true }
    return !before.isIdentical(to: existing)
  }

  /// Stores a creative the file gives at `index`. A packed one breaks no rule, so whether its
  /// ID came before is seen from what it replaces; another is checked for that first, as the
  /// rules come after it.
  private func store(_ creative: Creative, at index: Int, packed: Bool) {
    let section = Section.creatives
    if hadCustomCreatives, !formatsSeen, pass == 1,
      inventory.creative(creative.id)?.kind == .customNative
    {
      // Replacing a custom creative before a redefinition of its format: that order matters.
      creativeNeedingFormats = true
    }
    if !packed, let existing = inventory.creative(creative.id), isFromThisLoad(existing) {
      return repeated(creative.id, at: index)
    }
    do {
      let replaced = try inventory.storeCreative(creative)
      if packed, let replaced, isFromThisLoad(replaced) { return repeated(creative.id, at: index) }
      sections[section.rawValue].stored += 1
    } catch {
      sections[section.rawValue].failure = error.invalidField(under: "\(section.name)[\(index)]")
    }
  }

  private func repeated(_ id: String, at index: Int) {
    sections[1].failure = InvalidField("creatives[\(index)].id", "duplicates an earlier ID")
    sections[1].duplicate = (index, id)
  }

  /// The index of the first creative with ID `id` in the creatives section loaded.
  private func locateFirstCreative(_ id: String) throws(StoreLoadError) -> Int {
    guard let offset = sections[1].valueOffset else { return 0 }
    locating = (id, nil)
    defer { locating = nil }
    try input.seek(to: offset)
    try walkSectionValue(.creatives)
    return locating?.found ?? 0
  }

  /// Stores the ad units decoded in this pass, in order, if nothing before them failed.
  private func storePendingUnits() {
    defer { pendingUnits = [] }
    guard !mapping, unknownTopLevel == nil else { return }
    for s in 0..<2 where sections[s].hasError { return }
    let state = sections[Section.adUnits.rawValue]
    guard !state.notArray, state.firstNonObject == nil, state.unknownMember == nil else { return }
    for (index, unit) in pendingUnits {
      do {
        _ = try inventory.putAdUnit(unit)
        sections[Section.adUnits.rawValue].stored += 1
      } catch {
        sections[Section.adUnits.rawValue].failure = error.invalidField(
          under: "adUnits[\(index)]")
        return
      }
    }
  }

  // MARK: Progress

  private func progressCheck() {
    nextProgressCheck = input.bytesRead + options.readBytes
    guard let progress = options.progress, let startTime else { return }
    let now = progress.clock()
    guard now >= nextProgressTime else { return }
    nextProgressTime = now + progress.interval
    printedProgress = true
    let total = input.size.map { " of \(StoreLoadProgress.megabytes($0)) MB" } ?? ""
    let count = sections[1].items
    progress.write(
      "store: \(StoreLoadProgress.grouped(count)) creatives, "
        + "\(StoreLoadProgress.megabytes(input.bytesRead)) MB\(total) read"
        + "\(pass > 1 ? " (second pass)" : "") (\(StoreLoadProgress.seconds(now - startTime)) s)")
  }
}
