import CCrypto
import Synchronization

/// CSPRNG bytes drawn from libcrypto in chunks and handed out a few at a time. An evaluation needs 16 random bytes
/// per identifier (its own and one per insight), and each `RAND_bytes` call costs about a microsecond of fixed
/// overhead whatever its size: one call per chunk instead of one per identifier took 3-4% of an evaluation's CPU.
///
/// Bytes are handed out once: the part of the chunk already given away is wiped, so the reserve never holds a
/// byte someone else has. What it holds is only future randomness, as secret as the DRBG state libcrypto keeps.
/// Safe to share between threads.
public final class RandomReserve: Sendable {
    public static let defaultChunkSize = 512

    // The chunk is touched only under `next`'s lock: `next` is where the bytes not yet handed out begin.
    private nonisolated(unsafe) let chunk: UnsafeMutableRawBufferPointer
    private let next: Mutex<Int>

    public init(chunkSize: Int = RandomReserve.defaultChunkSize) {
        precondition(chunkSize > 0 && chunkSize <= Int(Int32.max), "RandomReserve: chunk size out of range")
        chunk = .allocate(byteCount: chunkSize, alignment: 16)
        next = Mutex(chunkSize)
    }

    deinit {
        OPENSSL_cleanse(chunk.baseAddress, chunk.count)
        chunk.deallocate()
    }

    /// Fills `destination` with random bytes. Traps if the CSPRNG fails, as `SecureRandom` does.
    public func fill(_ destination: UnsafeMutableRawBufferPointer) {
        guard let target = destination.baseAddress, destination.count > 0 else { return }
        let chunk = self.chunk
        let size = chunk.count
        next.withLock { next in
            var written = 0
            while written < destination.count {
                if next == size {
                    SecureRandom.fill(chunk)
                    next = 0
                }
                let count = min(destination.count - written, size - next)
                let source = chunk.baseAddress! + next
                (target + written).copyMemory(from: source, byteCount: count)
                OPENSSL_cleanse(source, count)
                next += count
                written += count
            }
        }
    }

    /// `count` random bytes.
    public func bytes(_ count: Int) -> [UInt8] {
        precondition(count >= 0, "RandomReserve.bytes: negative count")
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            fill(UnsafeMutableRawBufferPointer(buffer))
            initialized = count
        }
    }
}
