/// Batch scoring for float32 padded forests: 16 rows at a time, transposed so each slot's 16 values are one
/// vector. The dense top levels compare all 16 rows against each node's broadcast threshold and keep the
/// result where a row's position matches that node; the sparse lower levels are walked in scalar code.
extension PaddedForest where Scalar == Float {
    static var blockRows: Int { 16 }
    /// Levels done in SIMD; below them a level has more nodes than a 16-row block visits.
    static var simdLevels: Int { 3 }

    /// Trees whose lower levels are walked together: 8 trees x 16 rows of independent chains per level.
    static var batchGroupSize: Int { 8 }

    /// `columns[slot * 16 + row]` holds one block of widened rows; writes 16 margins to `sums`.
    /// `positions` has room for `batchGroupSize * 16` indices.
    @inline(__always)
    func margins(
        block columns: UnsafePointer<Float>, into sums: UnsafeMutablePointer<Float>,
        positions: UnsafeMutablePointer<UInt32>
    ) {
        let treeCount = treeCount
        let depth = depth
        let simdDepth = min(depth, Self.simdLevels)
        let raw = UnsafeRawPointer(columns)
        let rawPositions = UnsafeMutableRawPointer(positions)
        for row in 0..<16 { sums[row] = baseMargin }
        nodes.withUnsafeBufferPointer { nodes in blockNodes.withUnsafeBufferPointer { blockNodes in
            leaves.withUnsafeBufferPointer { leaves in
                let nodeBase = nodes.baseAddress!
                let blockBase = blockNodes.baseAddress!
                let leafBase = leaves.baseAddress!
                var groupStart = 0
                while groupStart < treeCount {
                    let groupEnd = min(groupStart + Self.batchGroupSize, treeCount)
                    for tree in groupStart..<groupEnd {
                        var position = SIMD16<Int32>(repeating: 0)
                        for level in 0..<simdDepth {
                            let block = nodeBase + treeCount * ((1 << level) - 1) + (tree << level)
                            var right = SIMDMask<SIMD16<Int32>>(repeating: false)
                            for candidate in 0..<(1 << level) {
                                let node = block[candidate]
                                let x = raw.loadUnaligned(fromByteOffset: Int(node.slot) &* 64, as: SIMD16<Float>.self)
                                let goesRight = .!(x .< SIMD16<Float>(repeating: node.threshold))
                                if level == 0 {
                                    right = goesRight
                                } else {
                                    right .|= goesRight .& (position .== SIMD16<Int32>(repeating: Int32(candidate)))
                                }
                            }
                            position = (position &<< 1) &- unsafeBitCast(right, to: SIMD16<Int32>.self)
                        }
                        // From here on a lane's index is its offset in the level block (tree * 2^level + position).
                        rawPositions.storeBytes(
                            of: position &+ SIMD16<Int32>(repeating: Int32(truncatingIfNeeded: tree << simdDepth)),
                            toByteOffset: (tree - groupStart) * 64, as: SIMD16<Int32>.self)
                    }
                    let groupTrees = groupEnd - groupStart
                    if simdDepth == depth {
                        for group in 0..<groupTrees {
                            let lanes = positions + group * 16
                            for row in 0..<16 { sums[row] += leafBase[Int(lanes[row])] }
                        }
                    } else {
                        var level = simdDepth
                        var block = blockBase + treeCount * ((1 << level) - 1)
                        while level < depth - 1 {
                            for group in 0..<groupTrees {
                                let lanes = positions + group * 16
                                for row in 0..<16 {
                                    let index = lanes[row]
                                    let node = block[Int(index)]
                                    lanes[row] = index &* 2 | bit(!(columns[Int(node.slot) &+ row] < node.threshold))
                                }
                            }
                            block += treeCount << level
                            level += 1
                        }
                        // The last level goes straight to the leaf. Lanes run tree by tree, so each row's sum
                        // still adds its leaves in file order, in float32.
                        for group in 0..<groupTrees {
                            let lanes = positions + group * 16
                            for row in 0..<16 {
                                let index = lanes[row]
                                let node = block[Int(index)]
                                let leaf = index &* 2 | bit(!(columns[Int(node.slot) &+ row] < node.threshold))
                                sums[row] += leafBase[Int(leaf)]
                            }
                        }
                    }
                    groupStart = groupEnd
                }
            }
        } }
    }
}
