#ifndef TRUST_INSIGHTS_CCRYPTO_SHIM_H
#define TRUST_INSIGHTS_CCRYPTO_SHIM_H
// OpenSSL 3 libcrypto only. Macros that Swift cannot import are wrapped below as static inline functions.
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/bn.h>
#include <openssl/pem.h>
#include <openssl/err.h>
#include <openssl/rand.h>
#include <openssl/crypto.h>
#include <openssl/core_names.h>
#include <openssl/param_build.h>
#include <openssl/x509.h>
#include <openssl/obj_mac.h>

static inline int ti_EVP_PKEY_CTX_set_ec_paramgen_curve_nid(EVP_PKEY_CTX *ctx, int nid) {
    return EVP_PKEY_CTX_set_ec_paramgen_curve_nid(ctx, nid);
}
static inline int ti_nid_X9_62_prime256v1(void) { return NID_X9_62_prime256v1; }
static inline int ti_EVP_PKEY_EC(void) { return EVP_PKEY_EC; }
#endif
