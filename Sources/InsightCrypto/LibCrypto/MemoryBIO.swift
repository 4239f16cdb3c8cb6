import CCrypto

/// PEM goes in and out of libcrypto through memory BIOs; these keep the BIO lifetimes in one place.
enum MemoryBIO {
    /// Runs `body` with a read-only BIO over `text`. The BIO borrows the string's bytes, so it must not escape.
    static func reading<Result>(_ text: String, _ body: (OpaquePointer) throws -> Result) throws -> Result {
        var text = text
        return try text.withUTF8 { utf8 in
            guard let base = utf8.baseAddress, utf8.count <= Int(Int32.max),
                  let bio = BIO_new_mem_buf(base, Int32(utf8.count))
            else {
                throw CryptoError.invalidKeyEncoding(reason: "empty or oversized PEM")
            }
            defer { BIO_free(bio) }
            return try body(bio)
        }
    }

    /// Runs `write` on a fresh writable BIO and returns what it wrote as a string.
    static func writing(_ operation: String, _ write: (OpaquePointer) -> Int32) throws -> String {
        guard let bio = BIO_new(BIO_s_mem()) else { throw LibCryptoErrorQueue.error("BIO_new") }
        defer { BIO_free(bio) }
        guard write(bio) == 1 else { throw LibCryptoErrorQueue.error(operation) }
        var data: UnsafeMutablePointer<CChar>?
        let length = ti_BIO_get_mem_data(bio, &data)
        guard length > 0, let data else { throw LibCryptoErrorQueue.error(operation) }
        let bytes = UnsafeRawBufferPointer(start: data, count: length)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// For writing a key that libcrypto already validated, where only memory exhaustion can make PEM output fail.
    static func writingInfallibly(_ operation: String, _ write: (OpaquePointer) -> Int32) -> String {
        do {
            return try writing(operation, write)
        } catch {
            fatalError("\(error)")
        }
    }
}

/// libcrypto's default passphrase callback prompts on the terminal; a server must fail instead.
let refusePassphrase: @convention(c) (
    UnsafeMutablePointer<CChar>?, Int32, Int32, UnsafeMutableRawPointer?
) -> Int32 = { _, _, _, _ in 0 }
