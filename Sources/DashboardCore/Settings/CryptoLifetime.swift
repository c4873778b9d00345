import CCrypto

/// OpenSSL's libcrypto kept whole until the process is gone.
///
/// By default libcrypto frees its state from an `atexit` handler. A dashboard exiting after SIGTERM may still have a
/// thread inside it (a cookie's HMAC, libpq's SCRAM exchange of a reconnect): a fresh-clone CI run's release binary
/// died with SIGSEGV in libcrypto on a Dispatch worker at exit (`test_package.py`'s `--database` run, seen in `dmesg`).
/// The kernel frees everything at exit anyway.
public enum CryptoLifetime {
    /// Asks libcrypto not to clean up at exit; call first, before any thread uses it.
    public static func keepThroughExit() {
        _ = OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_ATEXIT), nil)
    }
}
