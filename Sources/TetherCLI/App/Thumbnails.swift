import Foundation
import Observation
import TetherImages
import TetherTerminal

/// The pictures of the item screen: loaded through an ``ImagePipeline`` and kept as half-block cells ready to draw.
///
/// Drawing never waits: ``cells(for:columns:rows:)`` returns the cells when they are ready, and otherwise starts
/// the load and returns `nil`, so the screen draws a placeholder; the cells arrive in observed state, which draws
/// the next frame. Each frame says which pictures it showed (``endFrame()``): the loads of rows that scrolled away
/// are cancelled (the pipeline goes on with a download another row still waits for). ``prefetch(_:columns:rows:)``
/// warms the pipeline's memory cache for the rows just below, at low priority. A new size (a resize) is a new
/// key, so the pictures are drawn again at that size.
///
/// Under ``ColorMode/monochrome`` (`NO_COLOR`, a dumb terminal) there are no pictures: ``showsPictures`` is false.
///
/// Main actor only; downloads and decoding run in the pipeline's tasks, never on the main actor.
@MainActor
@Observable
final class Thumbnails {
    /// One picture at one size in cells.
    struct Key: Hashable, Sendable {
        var url: String
        var columns: Int
        var rows: Int

        /// The pixel box half blocks need: one pixel per column, two per row.
        var pixelSize: ImageSize { ImageSize(width: columns, height: rows * 2) }
    }

    /// The most pictures kept as cells; the oldest go first.
    static let capacity = 600

    @ObservationIgnored let pipeline: ImagePipeline
    @ObservationIgnored let colorMode: ColorMode
    /// The pictures ready to draw.
    private(set) var ready: [Key: [[Cell]]] = [:]
    @ObservationIgnored private var order: [Key] = []
    @ObservationIgnored private var loads: [Key: Task<Void, Never>] = [:]
    @ObservationIgnored private var failed: Set<Key> = []
    @ObservationIgnored private var shown: Set<Key> = []
    @ObservationIgnored private var prefetched: [ImageSize: [URL]] = [:]

    init(pipeline: ImagePipeline, colorMode: ColorMode) {
        self.pipeline = pipeline
        self.colorMode = colorMode
    }

    /// Whether the terminal shows pictures at all.
    var showsPictures: Bool { colorMode != .monochrome }

    /// The number of loads in flight (for tests).
    var loadCount: Int { loads.count }

    /// The cells of the picture at `url` fitted into `columns` × `rows` cells, if ready; otherwise starts loading
    /// it (unless it failed before) and returns `nil`.
    func cells(for url: String, columns: Int, rows: Int) -> [[Cell]]? {
        let key = Key(url: url, columns: columns, rows: rows)
        shown.insert(key)
        if let cells = ready[key] { return cells }
        guard loads[key] == nil, !failed.contains(key), let imageURL = URL(string: url) else { return nil }
        let pipeline = pipeline
        loads[key] = Task { [weak self] in
            do throws(ImageError) {
                let image = try await pipeline.image(for: imageURL, size: key.pixelSize)
                self?.finish(key, with: image)
            } catch {
                self?.fail(key, error)
            }
        }
        return nil
    }

    /// Ends a frame: cancels the loads of pictures the frame did not show.
    func endFrame() {
        for (key, task) in loads where !shown.contains(key) {
            task.cancel()
            loads[key] = nil
        }
        shown.removeAll(keepingCapacity: true)
    }

    /// Lets pictures that failed be tried again when they show next (a new search, `R`).
    func forgetFailures() { failed.removeAll() }

    /// Warms the pipeline for `urls` (the rows below the visible ones) at `columns` × `rows` cells, and stops the
    /// prefetches of the rows that are no longer below.
    func prefetch(_ urls: [String], columns: Int, rows: Int) {
        let size = Key(url: "", columns: columns, rows: rows).pixelSize
        let wanted = urls.compactMap(URL.init(string:))
        let previous = prefetched[size] ?? []
        guard wanted != previous else { return }
        let stale = previous.filter { !wanted.contains($0) }
        if !stale.isEmpty { pipeline.cancelPrefetching(stale, size: size) }
        pipeline.prefetch(wanted, size: size)
        prefetched[size] = wanted
    }

    private func finish(_ key: Key, with image: RGBAImage) {
        loads[key] = nil
        let pixels = TerminalPixels(width: image.width, height: image.height, rgba: image.pixels)
        var cells = HalfBlockImage.cells(pixels)
        // Centred in the box when the aspect ratio leaves room.
        let padColumns = max(0, key.columns - image.width) / 2
        if padColumns > 0 { cells = cells.map { Array(repeating: Cell.blank, count: padColumns) + $0 } }
        let padRows = max(0, key.rows - cells.count) / 2
        if padRows > 0 { cells = Array(repeating: [], count: padRows) + cells }
        ready[key] = cells
        order.append(key)
        if order.count > Self.capacity { ready[order.removeFirst()] = nil }
    }

    private func fail(_ key: Key, _ error: ImageError) {
        loads[key] = nil
        // A cancelled load is tried again when its row shows again; a failed one is not (the placeholder stays).
        if !error.isCancelled { failed.insert(key) }
    }

    /// `url` with its `_ex` size replaced by `side`×`side` (appended when missing): Rakuten's thumbnail server
    /// makes any size up to 600×600 from the same picture.
    static func url(_ url: String, side: Int) -> String {
        guard var components = URLComponents(string: url) else { return url }
        var items = components.queryItems ?? []
        items.removeAll { $0.name == "_ex" }
        items.append(URLQueryItem(name: "_ex", value: "\(side)x\(side)"))
        components.queryItems = items
        return components.string ?? url
    }
}
