/// 1 when `condition` holds, else 0, without a branch: `Int(condition)`-style conversions can compile to a
/// conditional jump that mispredicts on tree data.
@inline(__always)
func bit(_ condition: Bool) -> UInt32 {
    UInt32(truncatingIfNeeded: unsafeBitCast(condition, to: UInt8.self))
}
