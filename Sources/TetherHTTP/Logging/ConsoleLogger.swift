import Foundation

/// An ``HTTPEventMonitor`` that writes one line per event, to standard error by default.
///
/// ```
/// → GET http://127.0.0.1:3000/posts?_page=1 (attempt 1)
/// ↻ GET http://127.0.0.1:3000/posts?_page=1: status 503, retry 2 in 0.18s
/// ✓ GET http://127.0.0.1:3000/posts?_page=1 200 network 12.3ms
/// ```
public struct ConsoleLogger: HTTPEventMonitor {
    private let write: @Sendable (String) -> Void

    /// A logger that passes each line (without a newline) to `write`.
    public init(write: @escaping @Sendable (String) -> Void) {
        self.write = write
    }

    /// A logger that writes to standard error.
    public init() {
        self.init { line in FileHandle.standardError.write(Data((line + "\n").utf8)) }
    }

    public func handle(_ event: HTTPEvent) {
        write(Self.line(for: event))
    }

    /// The line for `event`.
    public static func line(for event: HTTPEvent) -> String {
        switch event {
        case .started(let request, let attempt):
            return "→ \(request) (attempt \(attempt))"
        case .retrying(let request, let attempt, let delay, let reason):
            return "↻ \(request): \(reason), retry \(attempt + 1) in \(format(delay))"
        case .finished(let request, let status, let source, let duration, _):
            return "✓ \(request) \(status.code) \(source) \(format(duration))"
        case .failed(let error):
            return "✗ \(error)"
        }
    }

    static func format(_ duration: Duration) -> String {
        let seconds = duration.seconds
        if seconds < 1 { return String(format: "%.1fms", seconds * 1000) }
        return String(format: "%.2fs", seconds)
    }
}
