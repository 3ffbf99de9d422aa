#if os(Linux)
    import Foundation
    import TetherHTTP
    import TetherServer
    import Testing
    import TetherTestSupport

    @testable import TetherCLI

    /// `tether serve --tls-cert/--tls-key` and `tether get --cacert/-k`: in-process runs against a
    /// ``TetherServerApp`` serving HTTPS with certificates made by the `openssl` command.
    @Suite(.enabled(if: TestCertificates.available, "needs the openssl command"))
    struct TLSCommandTests {
        /// Runs `body` with the certificates and the base URL of an HTTPS server presenting the identity `serving`
        /// picks.
        func withHTTPSServer(
            serving: KeyPath<TestCertificates, TestCertificates.Identity> = \.localhost,
            _ body: (String, TestCertificates) async throws -> Void
        ) async throws {
            let certificates = try await TestCertificates.shared()
            let identity = certificates[keyPath: serving]
            var options = TetherServerApp.Options(writes: .inMemory, rakutenRateLimit: false)
            options.tls = .init(certificateFile: identity.certificate, privateKeyFile: identity.key)
            let app = try await TetherServerApp.start(options)
            do {
                try await body(app.baseURL.absoluteString, certificates)
            } catch {
                await app.stop()
                throw error
            }
            await app.stop()
        }

        @Test func getWithCACertSucceeds() async throws {
            try await withHTTPSServer { base, certificates in
                #expect(base.hasPrefix("https://127.0.0.1:"))
                let result = await tetherOnThread(
                    "get", "-v", "--cacert", certificates.localhost.certificate, "\(base)/posts/1")
                #expect(result.status == 0)
                #expect(result.stdout.hasPrefix("{\n  \"userId\": 1,\n  \"id\": 1,"))
                let timings = result.stderr.split(separator: "\n").first { $0.hasPrefix("* time_namelookup=") }
                #expect(timings?.contains(" time_appconnect=") == true)
            }
        }

        @Test func getWithoutTrustFailsWithOneLine() async throws {
            try await withHTTPSServer { base, _ in
                let result = await tetherOnThread("get", "--transport", "native", "\(base)/posts/1")
                #expect(result.status == 1)
                #expect(result.stdout.isEmpty)
                #expect(
                    result.stderr
                        == "tether: GET \(base)/posts/1: TLS failed: The certificate of 127.0.0.1 is not trusted"
                        + " (self-signed certificate).\n")
            }
        }

        @Test func getOfAnotherHostsCertificateFails() async throws {
            try await withHTTPSServer(serving: \.otherHost) { base, certificates in
                let result = await tetherOnThread("get", "--cacert", certificates.otherHost.certificate, "\(base)/")
                #expect(result.status == 1)
                #expect(result.stderr.contains("TLS failed: The certificate of 127.0.0.1 is not valid for 127.0.0.1"))
                #expect(result.stderr.filter { $0 == "\n" }.count == 1)
            }
        }

        @Test func getInsecureAcceptsAnyCertificate() async throws {
            try await withHTTPSServer(serving: \.expired) { base, _ in
                let result = await tetherOnThread("get", "-k", "\(base)/posts/2")
                #expect(result.status == 0)
                #expect(result.stdout.contains("\"id\": 2,"))
                let long = await tetherOnThread(
                    "get", "--insecure", "-X", "POST", "-d", "{\"title\":\"x\"}", "\(base)/posts")
                #expect(long.status == 0)
            }
        }

        @Test func getPlainHTTPPortWithHTTPSFails() async throws {
            let app = try await TetherServerApp.start(.init(writes: .inMemory, rakutenRateLimit: false))
            let url = "https://127.0.0.1:\(app.port)/posts/1"
            let result = await tetherOnThread("get", "-k", url)
            await app.stop()
            #expect(result.status == 1)
            #expect(result.stderr.hasPrefix("tether: GET \(url): TLS failed: The TLS handshake with 127.0.0.1 failed"))
        }

        @Test(arguments: [
            ["get", "--cacert", "/nonexistent/ca.pem", "https://127.0.0.1:1/"],
            ["get", "-k", "--transport", "urlsession", "https://127.0.0.1:1/"],
            ["get", "--insecure=yes", "https://127.0.0.1:1/"],
            ["serve", "--tls-cert", "/nonexistent/cert.pem", "--tls-key", "/nonexistent/key.pem"],
            ["serve", "--tls-cert", "/etc/hostname"],
            ["serve", "--tls-key", "/etc/hostname"],
        ])
        func usageErrorsExit2(arguments: [String]) {
            let result = tether(arguments: arguments)
            #expect(result.status == 2)
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.hasPrefix("tether: ") && result.stderr.filter { $0 == "\n" }.count == 1)
        }

        @Test func serveNamesTheMissingFile() async throws {
            let certificates = try await TestCertificates.shared()
            let missing = certificates.directory.appendingPathComponent("missing-key.pem").path
            let result = tether("serve", "--tls-cert", certificates.localhost.certificate, "--tls-key", missing)
            #expect(result.status == 2)
            #expect(result.stderr.hasPrefix("tether: cannot read the TLS key file '\(missing)': no such file"))
        }

        @Test func serveRefusesAKeyOfAnotherCertificate() async throws {
            let certificates = try await TestCertificates.shared()
            let result = await tetherOnThread(
                "serve", "--port", "0", "--in-memory", "--tls-cert", certificates.localhost.certificate, "--tls-key",
                certificates.otherHost.key)
            #expect(result.status == 1)
            #expect(result.stderr.contains("does not match the certificate"))
        }

        @Test func serveStartsHTTPSOnAnEphemeralPort() async throws {
            let certificates = try await TestCertificates.shared()
            let options = try #require(
                try ServeCommand.parse([
                    "--port", "0", "--in-memory", "--tls-cert", certificates.localhost.certificate, "--tls-key",
                    certificates.localhost.key,
                ]))
            let app = try await ServeCommand.start(options)
            #expect(
                ServeCommand.banner(for: app).hasPrefix("Tether server listening on https://127.0.0.1:\(app.port)\n"))
            var configuration = NativeTransport.Configuration()
            configuration.tls.additionalTrustedCertificates = [URL(fileURLWithPath: certificates.localhost.certificate)]
            let client = HTTPClient(baseURL: app.baseURL) {
                $0.transport = NativeTransport(configuration: configuration)
            }
            let response = try await client.send(Request<Data>(path: "/posts/1"))
            await app.stop()
            #expect(response.status.code == 200)
        }
    }

    private func tetherOnThread(_ arguments: String...) async -> CLIResult {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: tether(arguments: arguments)) }.start()
        }
    }
#endif
