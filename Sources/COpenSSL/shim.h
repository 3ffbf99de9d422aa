// OpenSSL 3 (libssl and libcrypto) for TetherIO's TLS layer, Linux only; nothing on other platforms.
//
// The few OpenSSL "functions" that are macros over *_ctrl calls, which Swift cannot import, are wrapped here as
// static inline functions with a `copenssl_` prefix.
#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H
#ifdef __linux__
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

/// SSL_CTX_set_min_proto_version.
static inline int copenssl_ctx_set_min_proto_version(SSL_CTX *ctx, int version) {
    return (int)SSL_CTX_set_min_proto_version(ctx, version);
}

/// SSL_set_tlsext_host_name (SNI).
static inline int copenssl_set_server_name(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}

/// BIO_set_mem_eof_return: what a memory BIO's read returns when empty (-1: "retry", not end of file).
static inline void copenssl_bio_set_mem_eof_return(BIO *bio, int value) {
    (void)BIO_set_mem_eof_return(bio, value);
}
#endif
#endif
