/// The frames of a busy indicator, picked by a tick count or by elapsed time.
///
/// ```swift
/// import TetherTerminal
///
/// let clock = ContinuousClock()
/// let started = clock.now
/// var buffer = ScreenBuffer(width: 80, height: 24)
///
/// let spinner = Spinner()
/// buffer.draw(spinner.frame(elapsed: clock.now - started) + " Loading…", x: 1, y: 0)
/// ```
///
/// The braille frames (`⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏`) are one column wide; `ascii` picks `|/-\` for terminals or fonts
/// without them. A value type with no state beyond its frames: the app keeps the clock. Complexity: O(1).
public struct Spinner: Sendable, Hashable {
    /// The braille frames.
    public static let brailleFrames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
    /// The ASCII frames.
    public static let asciiFrames = ["|", "/", "-", "\\"]

    /// The frames, shown in order and then from the first again.
    public let frames: [String]

    /// A spinner with the braille frames, or the ASCII ones when `ascii` is set.
    public init(ascii: Bool = false) {
        frames = ascii ? Self.asciiFrames : Self.brailleFrames
    }

    /// The frame for tick `tick`; negative ticks count back from the last frame.
    public func frame(tick: Int) -> String {
        let count = frames.count
        return frames[((tick % count) + count) % count]
    }

    /// The frame to show `elapsed` after the spinner started, advancing once per `interval` (80 ms by default).
    /// A zero or negative interval shows the first frame.
    public func frame(elapsed: Duration, interval: Duration = .milliseconds(80)) -> String {
        guard interval > .zero, elapsed > .zero else { return frames[0] }
        return frame(tick: Int(elapsed / interval))
    }
}
