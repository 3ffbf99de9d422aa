public import Foundation

/// A `multipart/form-data` body (RFC 7578): text fields and files, in order.
///
/// ```swift
/// import Foundation
/// import TetherHTTP
///
/// struct Photo: Decodable, Sendable { var id: Int }
/// let png = Data()  // the picture's bytes
///
/// var form = MultipartForm()
/// form.append(name: "title", value: "Trip")
/// form.append(name: "photo", filename: "a.png", contentType: "image/png", data: png)
/// let upload = Request<Photo>(path: "/photos", method: .post, body: .multipart(form))
/// ```
public struct MultipartForm: Sendable {
    /// One part: a field or a file.
    public struct Part: Sendable {
        public var name: String
        public var filename: String?
        public var contentType: String?
        public var data: Data
    }

    /// The boundary between parts; by default random (about 128 bits), so it cannot plausibly occur inside a part.
    public private(set) var boundary: String
    /// The parts in order.
    public private(set) var parts: [Part] = []

    public init(boundary: String? = nil) {
        self.boundary =
            boundary ?? "tether-"
            + (0..<4).map { _ in String(UInt32.random(in: .min ... .max), radix: 36) }
            .joined()
    }

    /// Appends a text field.
    public mutating func append(name: String, value: String) {
        parts.append(Part(name: name, filename: nil, contentType: nil, data: Data(value.utf8)))
    }

    /// Appends a file.
    public mutating func append(name: String, filename: String, contentType: String, data: Data) {
        parts.append(Part(name: name, filename: filename, contentType: contentType, data: data))
    }

    /// The encoded body. Quotes, CR and LF in names and file names are percent-encoded (RFC 7578 §4.2).
    func encoded() -> Data {
        var body = Data()
        for part in parts {
            body.append(Data("--\(boundary)\r\n".utf8))
            var disposition = "Content-Disposition: form-data; name=\"\(Self.quoted(part.name))\""
            if let filename = part.filename { disposition += "; filename=\"\(Self.quoted(filename))\"" }
            body.append(Data("\(disposition)\r\n".utf8))
            if let contentType = part.contentType { body.append(Data("Content-Type: \(contentType)\r\n".utf8)) }
            body.append(Data("\r\n".utf8))
            body.append(part.data)
            body.append(Data("\r\n".utf8))
        }
        body.append(Data("--\(boundary)--\r\n".utf8))
        return body
    }

    private static func quoted(_ text: String) -> String {
        text.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }
}
