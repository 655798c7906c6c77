//! Kafka's default partitioner for keyed records: `murmur2` of the key bytes,
//! made positive with `toPositive`, modulo the partition count.
//!
//! This is a port of the clients' `Utils.murmur2` / `Utils.toPositive` as used
//! by `BuiltInPartitioner.partitionForKey`, re-expressed with wrapping `u32`
//! arithmetic (Java's `int` overflow semantics).

/// Kafka's 32-bit murmur2 (seed `0x9747b28c`), returned as Java's signed `int`.
pub fn murmur2(data: &[u8]) -> i32 {
    const SEED: u32 = 0x9747_b28c;
    const M: u32 = 0x5bd1_e995;
    const R: u32 = 24;
    let mut h: u32 = SEED ^ (data.len() as u32);
    let whole = data.len() / 4;
    for chunk in data[..whole * 4].chunks_exact(4) {
        let mut k = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
        k = k.wrapping_mul(M);
        k ^= k >> R;
        k = k.wrapping_mul(M);
        h = h.wrapping_mul(M);
        h ^= k;
    }
    let tail = &data[whole * 4..];
    // The fall-through switch of the Java original, unrolled.
    if tail.len() >= 3 {
        h ^= u32::from(tail[2]) << 16;
    }
    if tail.len() >= 2 {
        h ^= u32::from(tail[1]) << 8;
    }
    if !tail.is_empty() {
        h ^= u32::from(tail[0]);
        h = h.wrapping_mul(M);
    }
    h ^= h >> 13;
    h = h.wrapping_mul(M);
    h ^= h >> 15;
    h as i32
}

/// Kafka's `Utils.toPositive`: clears the sign bit (not `abs`, so `i32::MIN` maps to 0).
pub fn to_positive(n: i32) -> i32 {
    n & 0x7fff_ffff
}

/// The partition a keyed record goes to: `toPositive(murmur2(key)) % partitions`.
/// Returns `None` for zero partitions.
pub fn partition_for_key(key: &[u8], partitions: u32) -> Option<u32> {
    if partitions == 0 {
        return None;
    }
    Some((to_positive(murmur2(key)) as u32) % partitions)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The values of Kafka's `UtilsTest.testMurmur2`.
    #[test]
    fn murmur2_matches_kafka_utils_test() {
        let cases: [(&[u8], i32); 6] = [
            (b"21", -973_932_308),
            (b"foobar", -790_332_482),
            (b"a-little-bit-long-string", -985_981_536),
            (b"a-little-bit-longer-string", -1_486_304_829),
            (b"lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8", -58_897_971),
            (b"abc", 479_470_107),
        ];
        for (input, want) in cases {
            assert_eq!(murmur2(input), want, "{:?}", String::from_utf8_lossy(input));
        }
    }

    #[test]
    fn to_positive_clears_the_sign_bit() {
        assert_eq!(to_positive(-1), i32::MAX);
        assert_eq!(to_positive(i32::MIN), 0);
        assert_eq!(to_positive(42), 42);
        assert_eq!(to_positive(-973_932_308), 1_173_551_340);
    }

    #[test]
    fn keys_route_like_the_default_partitioner() {
        // toPositive(-973932308) = 1173551340; 1173551340 % 5 = 0.
        assert_eq!(partition_for_key(b"21", 5), Some(0));
        // toPositive(479470107) % 3 = 479470107 % 3 = 0.
        assert_eq!(partition_for_key(b"abc", 3), Some(479_470_107 % 3));
        assert_eq!(partition_for_key(b"foobar", 0), None);
        for n in 1..50 {
            assert!(partition_for_key(b"foobar", n).unwrap() < n);
        }
    }
}
