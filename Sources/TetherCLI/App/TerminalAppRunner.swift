import Foundation
import Observation
import TetherTerminal

/// Runs a ``TerminalApp`` in a real terminal: raw mode, keys and resizes in, frames out, until the user quits.
///
/// Frames are drawn inside `withObservationTracking`, so any change to what a frame showed (a response arriving,
/// a save confirmed, a request count) schedules the next frame; keys and resizes draw at once, and a tick moves
/// spinners while something is loading. Every frame goes through ``ScreenRenderer``, which writes only the cells
/// that changed. Main actor only.
@MainActor
final class TerminalAppRunner {
    private let session: TerminalSession
    private var renderer: ScreenRenderer
    private var app: TerminalApp?
    private var size: (width: Int, height: Int)
    private var redrawScheduled = false
    private var finished: CheckedContinuation<Void, Never>?
    /// A line shown until the app exists: what is starting.
    private var startupMessage = "Starting…"

    init(session: TerminalSession, colorMode: ColorMode) {
        self.session = session
        renderer = ScreenRenderer(colorMode: colorMode, usesSynchronizedUpdate: true)
        size = session.size
    }

    /// Shows a start-up line until ``run(_:)`` gets its app.
    func showStartup(_ message: String) {
        startupMessage = message
        redraw()
    }

    /// Set once ``run(_:)`` has returned: no frame is drawn after it.
    private var isStopped = false

    /// Runs `app` until the user quits or input ends.
    func run(_ app: TerminalApp) async {
        self.app = app
        redraw()
        let keys = Task { @MainActor [session] in
            for await key in session.keys {
                if key == .control("z") {
                    // Ctrl+Z: back to the shell until `fg`, then a whole new frame at the size of then.
                    try? session.suspend()
                    self.size = session.size
                    self.renderer.invalidate()
                    self.redraw()
                    continue
                }
                app.handle(key)
                if app.isFinished { break }
                self.redraw()
            }
            self.finish()
        }
        let resizes = Task { @MainActor [session] in
            for await newSize in session.resizes {
                self.size = newSize
                self.renderer.invalidate()
                self.redraw()
            }
        }
        let ticks = Task { @MainActor in
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(100))
                if app.isBusy {
                    app.context.tick += 1
                    self.redraw()
                }
            }
        }
        await withCheckedContinuation { continuation in
            if app.isFinished { continuation.resume() } else { finished = continuation }
        }
        keys.cancel()
        resizes.cancel()
        ticks.cancel()
        // Changes still arriving (a save landing, the outbox's counts while the app quits) draw nothing more: the
        // terminal is about to be handed back.
        isStopped = true
    }

    private func finish() {
        finished?.resume()
        finished = nil
    }

    /// Draws a frame now, observing what it reads.
    func redraw() {
        redrawScheduled = false
        guard !isStopped else { return }
        let (width, height) = size
        let frame: ScreenBuffer
        if let app {
            frame = withObservationTracking {
                app.draw(width: width, height: height)
            } onChange: { [weak self] in
                Task { @MainActor in self?.scheduleRedraw() }
            }
        } else {
            var buffer = ScreenBuffer(width: width, height: height)
            buffer.draw(" " + startupMessage, x: 0, y: max(0, height / 2 - 1), style: Theme.secondary)
            frame = buffer
        }
        try? session.write(renderer.render(frame))
    }

    /// Draws once soon, however many changes arrive before then.
    private func scheduleRedraw() {
        guard !redrawScheduled else { return }
        redrawScheduled = true
        Task { @MainActor in
            if self.redrawScheduled { self.redraw() }
        }
    }
}
