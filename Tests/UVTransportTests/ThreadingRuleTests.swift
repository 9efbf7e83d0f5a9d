import Foundation
import Testing

/// The server's Swift code runs on the loop thread only (docs/threading.md), and release builds
/// count references without atomic instructions on that promise (`-assume-single-threaded`,
/// Package.swift): an object retained on one thread while another releases it would be freed
/// early or never. These tests hold the promise where it would be broken, in the sources: no
/// module of the server uses an API that runs Swift code on another thread.
@Suite struct ThreadingRuleTests {
  static let sourcesDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources")

  /// What starts Swift code on another thread, or hands it to one, and why it is named.
  static let forbidden: [(pattern: String, why: String)] = [
    (#"\bThread\b"#, "Foundation's threads"),
    (#"\bpthread_create\b"#, "a POSIX thread"),
    (#"\bDispatch(Queue|Group|Semaphore|Source|WorkItem)\b"#, "Dispatch's queues run on a pool"),
    (#"^\s*import\s+(Dispatch|Foundation)\b"#, "Dispatch and Foundation start threads"),
    (#"\bTask\s*(\{|\(|\.detached)"#, "a task runs on the concurrency pool"),
    (
      #"\b(async\s+let|withTaskGroup|withThrowingTaskGroup|withDiscardingTaskGroup)\b"#,
      "child tasks"
    ),
    (
      #"\)\s*(async|async\s+throws(\([^)]*\))?)\s*(->|\{|where)"#,
      "an async function runs on the pool"
    ),
    (
      #"^\s*(public\s+|private\s+|fileprivate\s+|internal\s+)?(distributed\s+)?actor\s"#,
      "an actor"
    ),
    (#"@(MainActor|concurrent)\b"#, "an isolation that is not the loop"),
    (#"\buv_(queue_work|thread_create|work_t)\b"#, "libuv's thread pool running a callback"),
  ]

  /// The code of a Swift file, comments and string literals' contents left out, line by line.
  static func codeLines(of text: String) -> [(number: Int, code: String)] {
    var out: [(Int, String)] = []
    var inBlockComment = false
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    {
      var code = ""
      var chars = Array(line)
      var i = 0
      var inString = false
      while i < chars.count {
        if inBlockComment {
          if chars[i] == "*", i + 1 < chars.count, chars[i + 1] == "/" {
            inBlockComment = false
            i += 2
          } else {
            i += 1
          }
          continue
        }
        if inString {
          if chars[i] == "\\" {
            i += 2
            continue
          }
          if chars[i] == "\"" { inString = false }
          i += 1
          continue
        }
        if chars[i] == "/", i + 1 < chars.count, chars[i + 1] == "/" { break }
        if chars[i] == "/", i + 1 < chars.count, chars[i + 1] == "*" {
          inBlockComment = true
          i += 2
          continue
        }
        if chars[i] == "\"" {
          inString = true
          code.append("\"\"")
          i += 1
          continue
        }
        code.append(chars[i])
        i += 1
      }
      chars.removeAll()
      out.append((index + 1, code))
    }
    return out
  }

  static func violations(in text: String, file: String) -> [String] {
    var found: [String] = []
    for (number, code) in codeLines(of: text) {
      for rule in forbidden where code.range(of: rule.pattern, options: .regularExpression) != nil {
        found.append("\(file):\(number): \(rule.why): \(code.trimmingCharacters(in: .whitespaces))")
      }
    }
    return found
  }

  @Test func noServerModuleRunsSwiftCodeOnAnotherThread() throws {
    let files = FileManager.default.enumerator(
      at: Self.sourcesDirectory, includingPropertiesForKeys: nil)
    var swiftFiles = 0
    var found: [String] = []
    while let url = files?.nextObject() as? URL {
      guard url.pathExtension == "swift" else { continue }
      swiftFiles += 1
      let text = try String(contentsOf: url, encoding: .utf8)
      let name = url.path.replacingOccurrences(of: Self.sourcesDirectory.path + "/", with: "")
      found += Self.violations(in: text, file: name)
    }
    #expect(swiftFiles > 50, "the sources were not found at \(Self.sourcesDirectory.path)")
    #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
  }

  /// The rules catch what they are for, and not the same words in comments or strings.
  @Test func theRulesCatchEachWayOfStartingAThread() {
    let offending = [
      "let t = Thread { work() }",
      "pthread_create(&id, nil, body, nil)",
      "DispatchQueue.global().async { work() }",
      "import Dispatch",
      "import Foundation",
      "Task { await work() }",
      "Task.detached { work() }",
      "async let x = work()",
      "func load() async throws -> Ad {",
      "func load() async {",
      "public actor Store {",
      "@MainActor final class View {",
      "uv_queue_work(loop, req, work, after)",
    ]
    for line in offending {
      #expect(!Self.violations(in: line, file: "f").isEmpty, "not caught: \(line)")
    }
    let harmless = [
      "// a Task { } would run on the pool; DispatchQueue too",
      "/// `Thread` is never used",
      #"log("no Thread here; Task { } and import Foundation in a string")"#,
      "/* pthread_create(&id) */ let x = 1",
      "let asyncLoad = loadAsync()",
      "func threadCount() -> Int {",
      "import Synchronization",
      "let transaction = actorName",
    ]
    for line in harmless {
      #expect(Self.violations(in: line, file: "f").isEmpty, "wrongly caught: \(line)")
    }
  }
}
