/// The series of Karney, "Algorithms for geodesics", J. Geodesy 87, 43–55 (2013),
/// doi:10.1007/s00190-012-0578-z, truncated at sixth order as the paper's error analysis
/// assumes: eqs. (17)–(18) (A₁, C₁ₗ), (21) (C′₁ₗ), (42)–(43) (A₂, C₂ₗ), (24)–(25) (A₃, C₃ₗ)
/// and (63)–(64) (C₄ₗ). The coefficients are the paper's series as published to 30th order
/// by the author (geographiclib.sourceforge.io, "Series for geodesic calculations"), cut at
/// εᵐ for m ≤ 6 in A₁, C₁, C′₁, A₂ and C₂, and at εᵐnᵏ for m + k ≤ 5 in A₃, C₃ and C₄,
/// which the geodesic multiplies by f. With these, WGS84 distances are right to about 15 nm.
enum GeodesicSeries {
    /// The numerator of A₁ = (1 + ε²/4 + ε⁴/64 + ε⁶/256)/(1 − ε) after its 1, by powers of ε.
    static let a1: [Double] = [0, 0, 1 / 4, 0, 1 / 64, 0, 1 / 256]
    /// The numerator of A₂ = (1 − 3ε²/4 − 7ε⁴/64 − 11ε⁶/256)/(1 + ε) after its 1, by powers of ε.
    static let a2: [Double] = [0, 0, -3 / 4, 0, -7 / 64, 0, -11 / 256]

    /// C₁ₗ for l = 1…6, each by powers of ε (0…6).
    static let c1: [[Double]] = [
        [0, -1 / 2, 0, 3 / 16, 0, -1 / 32, 0],
        [0, 0, -1 / 16, 0, 1 / 32, 0, -9 / 2048],
        [0, 0, 0, -1 / 48, 0, 3 / 256, 0],
        [0, 0, 0, 0, -5 / 512, 0, 3 / 512],
        [0, 0, 0, 0, 0, -7 / 1280, 0],
        [0, 0, 0, 0, 0, 0, -7 / 2048],
    ]
    /// C′₁ₗ (the reverted series: σ from τ) for l = 1…6.
    static let c1Reverted: [[Double]] = [
        [0, 1 / 2, 0, -9 / 32, 0, 205 / 1536, 0],
        [0, 0, 5 / 16, 0, -37 / 96, 0, 1335 / 4096],
        [0, 0, 0, 29 / 96, 0, -75 / 128, 0],
        [0, 0, 0, 0, 539 / 1536, 0, -2391 / 2560],
        [0, 0, 0, 0, 0, 3467 / 7680, 0],
        [0, 0, 0, 0, 0, 0, 38081 / 61440],
    ]
    /// C₂ₗ for l = 1…6.
    static let c2: [[Double]] = [
        [0, 1 / 2, 0, 1 / 16, 0, 1 / 32, 0],
        [0, 0, 3 / 16, 0, 1 / 32, 0, 35 / 2048],
        [0, 0, 0, 5 / 48, 0, 5 / 256, 0],
        [0, 0, 0, 0, 35 / 512, 0, 7 / 512],
        [0, 0, 0, 0, 0, 63 / 1280, 0],
        [0, 0, 0, 0, 0, 0, 77 / 2048],
    ]

    /// A₃: for ε⁰…ε⁵, the polynomial in n (ascending powers).
    static let a3: [[Double]] = [
        [1], [-1 / 2, 1 / 2], [-1 / 4, -1 / 8, 3 / 8], [-1 / 16, -3 / 16, -1 / 16], [-3 / 64, -1 / 32], [-3 / 128],
    ]
    /// C₃ₗ for l = 1…5: for εˡ…ε⁵, the polynomial in n.
    static let c3: [[[Double]]] = [
        [[1 / 4, -1 / 4], [1 / 8, 0, -1 / 8], [3 / 64, 3 / 64, -1 / 64], [5 / 128, 1 / 64], [3 / 128]],
        [[1 / 16, -3 / 32, 1 / 32], [3 / 64, -1 / 32, -3 / 64], [3 / 128, 1 / 128], [5 / 256]],
        [[5 / 192, -3 / 64, 5 / 192], [3 / 128, -5 / 192], [7 / 512]],
        [[7 / 512, -7 / 256], [7 / 512]],
        [[21 / 2560]],
    ]
    /// C₄ₗ for l = 0…5: for εˡ…ε⁵, the polynomial in n.
    static let c4: [[[Double]]] = [
        [
            [2 / 3, -4 / 15, 8 / 105, 4 / 315, 16 / 3465, 20 / 9009],
            [-1 / 5, 16 / 35, -32 / 105, 16 / 385, 64 / 15015],
            [-2 / 105, -32 / 315, 1088 / 3465, -1184 / 5005], [11 / 315, -368 / 3465, -32 / 6435],
            [4 / 1155, 1088 / 45045], [97 / 15015],
        ],
        [
            [1 / 45, -16 / 315, 32 / 945, -16 / 3465, -64 / 135135], [-2 / 105, 64 / 945, -128 / 1485, 1984 / 45045],
            [-1 / 105, 16 / 2079, 5792 / 135135], [4 / 1155, -2944 / 135135], [1 / 9009],
        ],
        [
            [4 / 525, -32 / 1575, 64 / 3465, -32 / 5005], [-8 / 1575, 128 / 5775, -256 / 6825],
            [-8 / 1925, 1856 / 225225], [8 / 10725],
        ],
        [[8 / 2205, -256 / 24255, 512 / 45045], [-16 / 8085, 1024 / 105105], [-136 / 63063]],
        [[64 / 31185, -512 / 81081], [-128 / 135135]],
        [[128 / 99099]],
    ]

    /// The polynomial `coefficients` (ascending powers) at `x` (Horner).
    @inline(__always)
    static func polynomial(_ coefficients: [Double], at x: Double) -> Double {
        var sum = 0.0
        for c in coefficients.reversed() { sum = sum * x + c }
        return sum
    }

    /// The series with coefficients `byEpsilon` (for ε⁰… each, a polynomial in n) with n
    /// put in: what is left is a polynomial in ε.
    static func fixing(n: Double, in byEpsilon: [[Double]], from first: Int) -> [Double] {
        [Double](repeating: 0, count: first) + byEpsilon.map { polynomial($0, at: n) }
    }

    /// Σ cₗ sin 2lσ for l = 1…count (`c[0]` unused), from sin σ and cos σ: Clenshaw summation.
    @inline(__always)
    static func sineSeries(_ c: UnsafePointer<Double>, count: Int, sin s: Double, cos k: Double) -> Double {
        let ar = 2 * (k - s) * (k + s)  // 2 cos 2σ
        var y0 = 0.0
        var y1 = 0.0
        var l = count
        while l >= 1 {
            let y2 = y1
            y1 = y0
            y0 = ar * y1 - y2 + c[l]
            l -= 1
        }
        return 2 * s * k * y0  // sin 2σ · y₀
    }

    /// Σ cₗ cos (2l + 1)σ for l = 0…count − 1, from sin σ and cos σ: Clenshaw summation.
    @inline(__always)
    static func cosineSeries(_ c: UnsafePointer<Double>, count: Int, sin s: Double, cos k: Double) -> Double {
        let ar = 2 * (k - s) * (k + s)
        var y0 = 0.0
        var y1 = 0.0
        var l = count - 1
        while l >= 0 {
            let y2 = y1
            y1 = y0
            y0 = ar * y1 - y2 + c[l]
            l -= 1
        }
        return k * (y0 - y1)  // cos σ · (y₀ − y₁)
    }
}

/// A series' coefficients, each a polynomial in ε (powers 0…6), packed for evaluation per
/// geodesic: only each row's nonzero terms, lowest power first, in one flat array (read
/// without touching a nested array's reference count). A row whose powers go up by two (the
/// series in ε alone: C₁, C′₁, C₂) is evaluated in ε², a dozen multiply-adds for C₁ where
/// all seven powers of six rows would take 42.
struct SeriesTable: Sendable {
    /// One row: its nonzero coefficients at `coefficients[start ..< start + count]`, for the
    /// powers `lowest`, `lowest + step`, …
    struct Row: Sendable {
        let start: Int, count: Int, lowest: Int, step: Int
    }
    let coefficients: [Double]
    let rows: [Row]

    /// `rows[l][k]` is the coefficient of εᵏ in row l (k ≤ 6).
    init(_ rows: [[Double]]) {
        var coefficients: [Double] = []
        var packed: [Row] = []
        for row in rows {
            let powers = row.indices.filter { row[$0] != 0 }
            guard let lowest = powers.first, let highest = powers.last else {
                packed.append(Row(start: coefficients.count, count: 0, lowest: 0, step: 1))
                continue
            }
            let step = powers.allSatisfy { ($0 - lowest) % 2 == 0 } ? 2 : 1
            let start = coefficients.count
            for power in stride(from: lowest, through: highest, by: step) { coefficients.append(row[power]) }
            packed.append(Row(start: start, count: coefficients.count - start, lowest: lowest, step: step))
        }
        self.coefficients = coefficients
        self.rows = packed
    }

    static let c1 = SeriesTable(GeodesicSeries.c1)
    static let c1Reverted = SeriesTable(GeodesicSeries.c1Reverted)
    static let c2 = SeriesTable(GeodesicSeries.c2)
}

/// The coefficients of one series for one geodesic (its ε put in), at [first…]: seven
/// numbers held inline, so that a geodesic needs no heap.
struct SeriesCoefficients {
    private var storage: (Double, Double, Double, Double, Double, Double, Double) = (0, 0, 0, 0, 0, 0, 0)
    /// How many terms, from index `first` (1 for sine series, 0 for cosine series).
    let count: Int

    /// The table's rows at `eps`, stored at [row + first].
    @inline(__always)
    init(_ table: SeriesTable, first: Int, eps: Double) {
        count = table.rows.count
        let eps2 = eps * eps
        // ε⁰ … ε⁶
        let powers = (1.0, eps, eps2, eps2 * eps, eps2 * eps2, eps2 * eps2 * eps, eps2 * eps2 * eps2)
        withUnsafeMutableBytes(of: &storage) { raw in
            let c = raw.bindMemory(to: Double.self)
            withUnsafeBytes(of: powers) { powersRaw in
                let power = powersRaw.bindMemory(to: Double.self)
                table.coefficients.withUnsafeBufferPointer { values in
                    table.rows.withUnsafeBufferPointer { rows in
                        for l in 0..<rows.count {
                            let row = rows[l]
                            let x = row.step == 2 ? eps2 : eps
                            var sum = 0.0
                            var k = row.start + row.count - 1
                            while k >= row.start {
                                sum = sum * x + values[k]
                                k -= 1
                            }
                            c[l + first] = sum * power[row.lowest]
                        }
                    }
                }
            }
        }
    }

    /// Σ cₗ sin 2lσ, l = 1…count.
    @inline(__always)
    func sineSeries(sin s: Double, cos k: Double) -> Double {
        withUnsafeBytes(of: storage) { raw in
            GeodesicSeries.sineSeries(
                raw.bindMemory(to: Double.self).baseAddress.unsafelyUnwrapped, count: count, sin: s, cos: k)
        }
    }

    /// Σ cₗ cos (2l + 1)σ, l = 0…count − 1.
    @inline(__always)
    func cosineSeries(sin s: Double, cos k: Double) -> Double {
        withUnsafeBytes(of: storage) { raw in
            GeodesicSeries.cosineSeries(
                raw.bindMemory(to: Double.self).baseAddress.unsafelyUnwrapped, count: count, sin: s, cos: k)
        }
    }
}
