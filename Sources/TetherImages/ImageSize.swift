/// A size in pixels: the box an image is fitted into, or an image's own size.
public struct ImageSize: Sendable, Hashable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// `W×H`.
    public var description: String { "\(width)×\(height)" }

    /// The number of pixels.
    public var pixelCount: Int { width * height }

    /// The largest size with this size's aspect ratio that fits in `box`, never larger than this size (an image is
    /// only ever made smaller) and at least 1×1.
    ///
    /// A box side of 0 or less leaves that side free: `ImageSize(width: 64, height: 0)` fits the width only.
    public func fitting(in box: ImageSize) -> ImageSize {
        guard width > 0, height > 0 else { return ImageSize(width: max(width, 1), height: max(height, 1)) }
        let boxWidth = box.width > 0 ? min(box.width, width) : width
        let boxHeight = box.height > 0 ? min(box.height, height) : height
        // Compare the two scale factors exactly: boxWidth / width against boxHeight / height.
        if boxWidth * height <= boxHeight * width {
            let fittedHeight = (height * boxWidth + width / 2) / width
            return ImageSize(width: max(boxWidth, 1), height: min(max(fittedHeight, 1), boxHeight))
        } else {
            let fittedWidth = (width * boxHeight + height / 2) / height
            return ImageSize(width: min(max(fittedWidth, 1), boxWidth), height: max(boxHeight, 1))
        }
    }
}
