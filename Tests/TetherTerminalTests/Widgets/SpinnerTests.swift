import Testing
import TetherTerminal

@Suite struct SpinnerTests {
    @Test func cyclesThroughTheFramesByTick() {
        let spinner = Spinner()
        #expect(spinner.frame(tick: 0) == "⠋")
        #expect(spinner.frame(tick: 3) == "⠸")
        #expect(spinner.frame(tick: 10) == "⠋")
        #expect(spinner.frame(tick: -1) == "⠏")
        #expect((0..<10).map { spinner.frame(tick: $0) }.joined() == "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")
        for frame in spinner.frames { #expect(frame.terminalColumns == 1) }
    }

    @Test func asciiFallback() {
        let spinner = Spinner(ascii: true)
        #expect((0..<5).map { spinner.frame(tick: $0) }.joined() == "|/-\\|")
    }

    @Test func framesByElapsedTime() {
        let spinner = Spinner()
        #expect(spinner.frame(elapsed: .zero) == "⠋")
        #expect(spinner.frame(elapsed: .milliseconds(79)) == "⠋")
        #expect(spinner.frame(elapsed: .milliseconds(250)) == "⠸")
        #expect(spinner.frame(elapsed: .seconds(1), interval: .milliseconds(500)) == "⠹")
        #expect(spinner.frame(elapsed: .seconds(1), interval: .zero) == "⠋")
        #expect(spinner.frame(elapsed: .seconds(-1)) == "⠋")
    }
}
