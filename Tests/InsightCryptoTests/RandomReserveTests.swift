import Dispatch
import Synchronization
import Testing
@testable import InsightCrypto

@Suite struct RandomReserveTests {
    @Test func givesTheRequestedNumberOfBytesAcrossChunkBoundaries() {
        // A chunk of 20 bytes: 16 + 16 crosses into a second draw, 45 spans three.
        let reserve = RandomReserve(chunkSize: 20)
        let first = reserve.bytes(16)
        let second = reserve.bytes(16)
        let long = reserve.bytes(45)
        #expect((first.count, second.count, long.count) == (16, 16, 45))
        #expect(first != second)
        #expect(reserve.bytes(0).isEmpty)
    }

    @Test func neverHandsOutTheSameBytesTwice() {
        // 16-byte draws from a small chunk: a repeat would mean a chunk was reused or not refilled.
        let reserve = RandomReserve(chunkSize: 48)
        var seen = Set<[UInt8]>()
        for _ in 0..<5_000 { seen.insert(reserve.bytes(16)) }
        #expect(seen.count == 5_000)
    }

    @Test func everyByteValueTurnsUpAndNoneDominates() {
        let bytes = RandomReserve().bytes(1 << 16)
        var counts = [Int](repeating: 0, count: 256)
        for byte in bytes { counts[Int(byte)] += 1 }
        // 256 expected per value; a bias or a run of zeros (a wiped chunk handed out) would push one far off.
        #expect(counts.min()! > 150)
        #expect(counts.max()! < 380)
    }

    @Test func threadsDrawingAtOnceGetDistinctBytes() {
        let reserve = RandomReserve(chunkSize: 64)
        let drawn = Mutex<[[UInt8]]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            var mine: [[UInt8]] = []
            for _ in 0..<2_000 { mine.append(reserve.bytes(16)) }
            drawn.withLock { $0 += mine }
        }
        let all = drawn.withLock { $0 }
        #expect(all.count == 8_000)
        #expect(Set(all).count == 8_000)
    }
}
