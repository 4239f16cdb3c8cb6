/// Batch scoring for float32 padded forests: 16 rows at a time, transposed so each slot's 16 values are one
/// vector. The dense top levels compare all 16 rows against each node's broadcast threshold and keep the
/// result where a row's position matches that node; the sparse lower levels are walked in scalar code.
extension PaddedForest where Scalar == Float {
    static var blockRows: Int { 16 }
    /// Levels done in SIMD; below them a level has more nodes than a 16-row block visits.
    static var simdLevels: Int { 3 }

    /// `columns[slot * 16 + row]` holds one block of widened rows; writes 16 margins to `output`.
    @inline(__always)
    func margins(
        block columns: UnsafePointer<Float>, into output: UnsafeMutablePointer<Float>,
        positions: UnsafeMutablePointer<UInt32>
    ) {
        let treeCount = treeCount
        let depth = depth
        let simdDepth = min(depth, Self.simdLevels)
        let raw = UnsafeRawPointer(columns)
        nodes.withUnsafeBufferPointer { nodes in
            leaves.withUnsafeBufferPointer { leaves in
                let nodeBase = nodes.baseAddress!
                var sums = SIMD16<Float>(repeating: baseMargin)
                for tree in 0..<treeCount {
                    var position = SIMD16<Int32>(repeating: 0)
                    for level in 0..<simdDepth {
                        let block = nodeBase + treeCount * ((1 << level) - 1) + (tree << level)
                        var right = SIMD16<Int32>(repeating: 0)
                        for candidate in 0..<(1 << level) {
                            let node = block[candidate]
                            let x = raw.loadUnaligned(fromByteOffset: Int(node.slot) &* 64, as: SIMD16<Float>.self)
                            let left = unsafeBitCast(x .< SIMD16<Float>(repeating: node.threshold), to: SIMD16<Int32>.self)
                            let here = unsafeBitCast(position .== SIMD16<Int32>(repeating: Int32(candidate)), to: SIMD16<Int32>.self)
                            right |= here & ~left
                        }
                        position = (position &<< 1) | (right & 1)
                    }
                    for row in 0..<16 { positions[row] = UInt32(bitPattern: position[row]) }
                    var level = simdDepth
                    while level < depth {
                        let block = nodeBase + treeCount * ((1 << level) - 1) + (tree << level)
                        for row in 0..<16 {
                            let current = positions[row]
                            let node = block[Int(current)]
                            let x = columns[Int(node.slot) &* 16 &+ row]
                            positions[row] = (current &<< 1) | bit(!(x < node.threshold))
                        }
                        level += 1
                    }
                    let leafBlock = leaves.baseAddress! + (tree << depth)
                    var values = SIMD16<Float>()
                    for row in 0..<16 { values[row] = leafBlock[Int(positions[row])] }
                    sums += values
                }
                UnsafeMutableRawPointer(output).storeBytes(of: sums, as: SIMD16<Float>.self)
            }
        }
    }
}
