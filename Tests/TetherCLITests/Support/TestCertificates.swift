import Foundation

/// Certificates and keys made with the `openssl` command in a temporary directory, for the TLS tests; removed by
/// ``remove()``. Tests that need them are enabled only when `/usr/bin/openssl` exists (else reported skipped).
///
/// Each is self-signed (so trusting the certificate file itself is trusting its issuer), with an EC P-256 key:
/// - `localhost`: `CN=localhost`, names `localhost` and `127.0.0.1`, valid for a day;
/// - `otherHost`: `CN=other.example`, for that name only;
/// - `expired`: like `localhost`, valid for one day in January 2020 (made with `openssl ca -startdate/-enddate`).
struct TestCertificates {
    struct Identity {
        var certificate: String
        var key: String
        /// `sha256//` and the base64 SHA-256 of its SubjectPublicKeyInfo.
        var pin: String
    }

    static let opensslPath = "/usr/bin/openssl"
    static var available: Bool { FileManager.default.isExecutableFile(atPath: opensslPath) }

    let directory: URL
    let localhost: Identity
    let otherHost: Identity
    let expired: Identity

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tether-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let dir = directory.path
        func identity(_ name: String) throws -> Identity {
            let pin = try Self.run(
                "\(Self.opensslPath) pkey -in \(dir)/\(name)-key.pem -pubout -outform der"
                    + " | \(Self.opensslPath) dgst -sha256 -binary | base64")
            return Identity(
                certificate: "\(dir)/\(name).pem", key: "\(dir)/\(name)-key.pem",
                pin: "sha256//" + pin.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        let newKey = "-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes"
        _ = try Self.run(
            "\(Self.opensslPath) req -x509 \(newKey) -days 1 -subj /CN=localhost"
                + " -addext subjectAltName=DNS:localhost,IP:127.0.0.1 -keyout \(dir)/localhost-key.pem"
                + " -out \(dir)/localhost.pem")
        _ = try Self.run(
            "\(Self.opensslPath) req -x509 \(newKey) -days 1 -subj /CN=other.example"
                + " -addext subjectAltName=DNS:other.example -keyout \(dir)/other-key.pem -out \(dir)/other.pem")
        try "".write(toFile: "\(dir)/index.txt", atomically: true, encoding: .utf8)
        try "01\n".write(toFile: "\(dir)/serial", atomically: true, encoding: .utf8)
        try """
        [ ca ]
        default_ca = test
        [ test ]
        database = \(dir)/index.txt
        new_certs_dir = \(dir)
        serial = \(dir)/serial
        default_md = sha256
        policy = anything
        copy_extensions = copy
        unique_subject = no
        [ anything ]
        commonName = supplied

        """.write(toFile: "\(dir)/ca.cnf", atomically: true, encoding: .utf8)
        _ = try Self.run(
            "\(Self.opensslPath) req -new \(newKey) -subj /CN=localhost"
                + " -addext subjectAltName=DNS:localhost,IP:127.0.0.1 -keyout \(dir)/expired-key.pem"
                + " -out \(dir)/expired.csr")
        _ = try Self.run(
            "\(Self.opensslPath) ca -batch -notext -config \(dir)/ca.cnf -selfsign -keyfile \(dir)/expired-key.pem"
                + " -in \(dir)/expired.csr -startdate 20200101000000Z -enddate 20200102000000Z"
                + " -out \(dir)/expired.pem")
        localhost = try identity("localhost")
        otherHost = try identity("other")
        expired = try identity("expired")
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs `command` with `/bin/sh -c`; its standard output, or ``Failure`` with its standard error.
    @discardableResult
    static func run(_ command: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(
                description: "\(command) failed: \(String(decoding: errorData, as: UTF8.self))")
        }
        return String(decoding: outputData, as: UTF8.self)
    }
}
