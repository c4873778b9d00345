// OpenSSL's libcrypto (libssl-dev): HMAC-SHA-256 for the settings cookie's integrity tag, SHA-256 for the settings
// digest, and CRYPTO_memcmp so a tag is compared in constant time.
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>
