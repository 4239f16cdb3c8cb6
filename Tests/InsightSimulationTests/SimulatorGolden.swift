/// Pinned output of `trust-insights simulate --category payment --rows 500 --seed 42 --positive-rate 0.1`.
enum SimulatorGolden {
    static let payment500Seed42: UInt64 = 11_215_120_730_083_272_543
}
