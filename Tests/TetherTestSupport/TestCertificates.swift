package import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Certificates and keys made with the `openssl` command in a temporary directory, for the TLS tests: made once per
/// test process on first use (``shared()``), without blocking a thread of the concurrency pool, and removed when the
/// process exits. Tests that need them are enabled only when `/usr/bin/openssl` exists (else reported skipped).
///
/// Each is self-signed (so trusting the certificate file itself is trusting its issuer), with an EC P-256 key:
/// - `localhost`: `CN=localhost`, names `localhost` and `127.0.0.1`, valid for a day;
/// - `otherHost`: `CN=other.example`, for that name only;
/// - `expired`: like `localhost`, valid for one day in January 2020 (made with `openssl ca -startdate/-enddate`).
package struct TestCertificates: Sendable {
    package struct Identity: Sendable {
        package var certificate: String
        package var key: String
        /// `sha256//` and the base64 SHA-256 of its SubjectPublicKeyInfo.
        package var pin: String
    }

    package static let opensslPath = "/usr/bin/openssl"
    package static var available: Bool { FileManager.default.isExecutableFile(atPath: opensslPath) }

    /// Where this process's certificates are.
    package static let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "tether-tls-\(getpid())-\(UUID().uuidString)")

    package var directory: URL { Self.directory }
    package let localhost: Identity
    package let otherHost: Identity
    package let expired: Identity

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// The process's certificates, made on the first call.
    package static func shared() async throws -> TestCertificates {
        try await made.value
    }

    private static let made = Task { try await TestCertificates.make() }

    private init(localhost: Identity, otherHost: Identity, expired: Identity) {
        self.localhost = localhost
        self.otherHost = otherHost
        self.expired = expired
    }

    private static func make() async throws -> TestCertificates {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: TestCertificates.directory) }
        let dir = directory.path
        let openssl = opensslPath
        func identity(_ name: String) async throws -> Identity {
            let pin = try await run(
                "\(openssl) pkey -in \(dir)/\(name)-key.pem -pubout -outform der | \(openssl) dgst -sha256 -binary | base64"
            )
            return Identity(
                certificate: "\(dir)/\(name).pem", key: "\(dir)/\(name)-key.pem",
                pin: "sha256//" + pin.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        let newKey = "-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes"
        try await run(
            "\(openssl) req -x509 \(newKey) -days 1 -subj /CN=localhost"
                + " -addext subjectAltName=DNS:localhost,IP:127.0.0.1 -keyout \(dir)/localhost-key.pem"
                + " -out \(dir)/localhost.pem")
        try await run(
            "\(openssl) req -x509 \(newKey) -days 1 -subj /CN=other.example"
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
        try await run(
            "\(openssl) req -new \(newKey) -subj /CN=localhost"
                + " -addext subjectAltName=DNS:localhost,IP:127.0.0.1 -keyout \(dir)/expired-key.pem"
                + " -out \(dir)/expired.csr")
        try await run(
            "\(openssl) ca -batch -notext -config \(dir)/ca.cnf -selfsign -keyfile \(dir)/expired-key.pem"
                + " -in \(dir)/expired.csr -startdate 20200101000000Z -enddate 20200102000000Z"
                + " -out \(dir)/expired.pem")
        return TestCertificates(
            localhost: try await identity("localhost"), otherHost: try await identity("other"),
            expired: try await identity("expired"))
    }

    /// Runs `command` with `/bin/sh -c` and waits for it without blocking the calling thread; its standard output,
    /// or ``Failure`` with its standard error. Its output must be small (it is read once the command has ended).
    @discardableResult
    package static func run(_ command: String) async throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        guard status == 0 else {
            throw Failure(description: "\(command) failed: \(String(decoding: errorData, as: UTF8.self))")
        }
        return String(decoding: outputData, as: UTF8.self)
    }
}
