#if os(Linux)
    import Foundation
    import Testing
    import TetherTestSupport

    @testable import TetherIO

    /// ``TLSSession`` without sockets: a client and a server session hand their bytes to each other in memory.
    @Suite(.enabled(if: TestCertificates.available, "needs the openssl command")) struct TLSSessionTests {
        /// Runs both handshakes until each has finished or failed; the errors of each side.
        func handshake(_ client: TLSSession, _ server: TLSSession) -> (client: IOError?, server: IOError?) {
            var clientError: IOError?
            var serverError: IOError?
            for _ in 0..<10 {
                if clientError == nil {
                    do { _ = try client.handshake() } catch { clientError = error }
                }
                client.takeOutput().withUnsafeBytes { server.receive($0) }
                if serverError == nil {
                    do { _ = try server.handshake() } catch { serverError = error }
                }
                server.takeOutput().withUnsafeBytes { client.receive($0) }
                if (client.isHandshakeComplete || clientError != nil)
                    && (server.isHandshakeComplete || serverError != nil)
                {
                    break
                }
            }
            return (clientError, serverError)
        }

        func sessions(
            _ certificates: TestCertificates, serverIdentity: TestCertificates.Identity? = nil,
            host: String = "localhost",
            configure: (inout TLSClientConfiguration) -> Void
        ) throws -> (TLSSession, TLSSession) {
            var configuration = TLSClientConfiguration()
            configure(&configuration)
            let identity = serverIdentity ?? certificates.localhost
            let server = try TLSContext(serverCertificateFile: identity.certificate, privateKeyFile: identity.key)
            let client = try TLSContext(client: configuration)
            return (try client.makeSession(serverName: host), try server.makeSession())
        }

        func clientError(
            serving serverIdentity: (TestCertificates) -> TestCertificates.Identity? = { _ in nil },
            host: String = "localhost", configure: (TestCertificates, inout TLSClientConfiguration) -> Void
        ) async throws -> IOError? {
            let certificates = try await TestCertificates.shared()
            let (client, server) = try sessions(
                certificates, serverIdentity: serverIdentity(certificates), host: host
            ) { configure(certificates, &$0) }
            return handshake(client, server).client
        }

        @Test func trustedCertificateFileCompletesAndCarriesBytesBothWays() async throws {
            let certificates = try await TestCertificates.shared()
            let (client, server) = try sessions(certificates) {
                $0.additionalTrustedCertificateFiles = [certificates.localhost.certificate]
            }
            let errors = handshake(client, server)
            #expect(errors.client == nil && errors.server == nil)
            #expect(client.isHandshakeComplete && server.isHandshakeComplete)
            #expect(client.applicationProtocol == "http/1.1")
            #expect(client.protocolVersion == "TLSv1.3")

            try Array("GET / HTTP/1.1\r\n\r\n".utf8).withUnsafeBytes { try client.write($0) }
            client.takeOutput().withUnsafeBytes { server.receive($0) }
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1024, alignment: 1)
            defer { buffer.deallocate() }
            guard case .bytes(let count) = try server.read(into: buffer) else {
                Issue.record("no bytes")
                return
            }
            #expect(String(decoding: buffer[0..<count], as: UTF8.self) == "GET / HTTP/1.1\r\n\r\n")
            #expect(try server.read(into: buffer) == .wantsMore)
            server.close()
            server.takeOutput().withUnsafeBytes { client.receive($0) }
            #expect(try client.read(into: buffer) == .closed)
        }

        @Test func trustedPEMTextAndIPAddressesWork() async throws {
            let error = try await clientError(host: "127.0.0.1") { certificates, configuration in
                let pem = FileManager.default.contents(atPath: certificates.localhost.certificate)!
                configuration.additionalTrustedCertificates = [[UInt8](pem)]
            }
            #expect(error == nil)
        }

        @Test func unknownIssuerIsUntrusted() async throws {
            let error = try await clientError { _, _ in }
            #expect(error?.code == .certificateUntrusted)
            #expect(error?.isCertificateFailure == true)
            #expect(error?.message.contains("localhost") == true)
        }

        @Test func certificateForAnotherHostIsAHostMismatch() async throws {
            let error = try await clientError(
                serving: { $0.otherHost },
                configure: { certificates, configuration in
                    configuration.additionalTrustedCertificateFiles = [certificates.otherHost.certificate]
                })
            #expect(error?.code == .certificateHostMismatch)
        }

        @Test func wrongAddressIsAHostMismatch() async throws {
            let error = try await clientError(host: "127.0.0.2") { certificates, configuration in
                configuration.additionalTrustedCertificateFiles = [certificates.localhost.certificate]
            }
            #expect(error?.code == .certificateHostMismatch)
        }

        @Test func expiredCertificateIsExpired() async throws {
            let error = try await clientError(
                serving: { $0.expired },
                configure: { certificates, configuration in
                    configuration.additionalTrustedCertificateFiles = [certificates.expired.certificate]
                })
            #expect(error?.code == .certificateExpired)
        }

        @Test func pinsMatchOrFail() async throws {
            let matching = try await clientError { certificates, configuration in
                configuration.additionalTrustedCertificateFiles = [certificates.localhost.certificate]
                configuration.pinnedPublicKeys = [certificates.otherHost.pin, certificates.localhost.pin]
            }
            #expect(matching == nil)
            let mismatch = try await clientError { certificates, configuration in
                configuration.additionalTrustedCertificateFiles = [certificates.localhost.certificate]
                configuration.pinnedPublicKeys = [certificates.otherHost.pin]
            }
            #expect(mismatch?.code == .certificatePinMismatch)
            let insecureButPinned = try await clientError { certificates, configuration in
                configuration.verifiesCertificates = false
                configuration.pinnedPublicKeys = [certificates.otherHost.pin]
            }
            #expect(insecureButPinned?.code == .certificatePinMismatch)
        }

        @Test func insecureAcceptsAnyCertificate() async throws {
            let error = try await clientError(
                serving: { $0.expired }, host: "wrong.example",
                configure: { _, configuration in
                    configuration.verifiesCertificates = false
                })
            #expect(error == nil)
        }

        @Test func badSettingsAreConfigurationErrors() async throws {
            let certificates = try await TestCertificates.shared()
            var configuration = TLSClientConfiguration()
            configuration.pinnedPublicKeys = ["sha256//tooShort="]
            #expect(throws: IOError.self) { try TLSContext(client: configuration) }
            configuration.pinnedPublicKeys = []
            configuration.additionalTrustedCertificateFiles = [certificates.directory.path + "/missing.pem"]
            let missing = #expect(throws: IOError.self) { try TLSContext(client: configuration) }
            #expect(missing?.code == .tlsConfiguration)
            configuration.additionalTrustedCertificateFiles = []
            configuration.additionalTrustedCertificates = [Array("not a certificate".utf8)]
            #expect(throws: IOError.self) { try TLSContext(client: configuration) }
            let mismatched = #expect(throws: IOError.self) {
                try TLSContext(
                    serverCertificateFile: certificates.localhost.certificate,
                    privateKeyFile: certificates.otherHost.key)
            }
            #expect(mismatched?.code == .tlsConfiguration)
        }

        @Test func plainBytesFailTheHandshake() throws {
            let client = try TLSContext(client: TLSClientConfiguration()).makeSession(serverName: "localhost")
            _ = try client.handshake()
            #expect(client.hasOutput)
            Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".utf8).withUnsafeBytes { client.receive($0) }
            let error = #expect(throws: IOError.self) { try client.handshake() }
            #expect(error?.code == .tlsHandshakeFailed)
        }
    }
#endif
