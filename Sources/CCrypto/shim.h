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

// BIO_get_mem_data is a macro over BIO_ctrl.
static inline long ti_BIO_get_mem_data(BIO *bio, char **data) { return BIO_get_mem_data(bio, data); }

// ERR_GET_LIB / ERR_GET_REASON are macros (inline functions guarded by macros in some builds).
static inline int ti_ERR_GET_REASON(unsigned long code) { return ERR_GET_REASON(code); }

// EVP_PKEY_PUBLIC_KEY is a composite selection macro.
static inline int ti_EVP_PKEY_PUBLIC_KEY(void) { return EVP_PKEY_PUBLIC_KEY; }
#endif
