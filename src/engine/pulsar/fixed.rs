//! `{:.1}` / `{:.2}` of an `f64` without the formatting machinery: the same
//! text, a few times cheaper. The split check writes one such number per
//! bundle over its limit (thousands per round at 16 384 bundles).
//!
//! The printed number is `x × 10^p` rounded to an integer — exactly, from the
//! float's binary value, halfway cases to even, as `format!("{x:.p$}")` does —
//! then split into integer and fraction digits. Negative, non-finite and large
//! values (at least 2^53) go to `format!` itself.

use std::fmt::Write;

/// Append `x` with `p` (1 or 2) decimals, exactly as `write!(out, "{x:.p$}")`.
pub fn push_fixed(out: &mut String, x: f64, p: u32) {
    debug_assert!(p == 1 || p == 2);
    let scale: u64 = if p == 1 { 10 } else { 100 };
    let Some(n) = scaled(x, scale) else {
        let _ = write!(out, "{x:.*}", p as usize);
        return;
    };
    // Digits from the last: the decimals, the point, then the integer part.
    let mut buf = [0u8; 24];
    let mut i = buf.len();
    let mut n = n;
    for _ in 0..p {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
    }
    i -= 1;
    buf[i] = b'.';
    i = digits(&mut buf[..i], n);
    push_ascii(out, &buf[i..]);
}

/// Write `n`'s decimal digits at the end of `buf`; returns where they start.
fn digits(buf: &mut [u8], mut n: u64) -> usize {
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            return i;
        }
    }
}

/// Append ASCII bytes (one `char` each: cheaper than validating them as a
/// `str` for a few digits).
fn push_ascii(out: &mut String, bytes: &[u8]) {
    out.reserve(bytes.len());
    for &b in bytes {
        out.push(char::from(b));
    }
}

/// `round_half_even(x × scale)` for `0 <= x < 2^53` (with a clear sign bit).
fn scaled(x: f64, scale: u64) -> Option<u64> {
    if !(x.is_sign_positive() && x < 9_007_199_254_740_992.0) {
        return None;
    }
    let bits = x.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1 << 52) - 1);
    // x = m × 2^e exactly.
    let (m, e) = if exp == 0 {
        (frac, -1074)
    } else {
        (frac | (1 << 52), exp - 1075)
    };
    // m < 2^53 and scale <= 100, so m × scale < 2^60.
    let num = u128::from(m) * u128::from(scale);
    if e >= 0 {
        // Only e = 0 is possible below 2^53; kept general.
        return u64::try_from(num << e).ok();
    }
    let s = (-e) as u32;
    if s > 120 {
        // num < 2^60 <= 2^(s - 1): below one half.
        return Some(0);
    }
    let q = num >> s;
    let r = num & ((1u128 << s) - 1);
    let half = 1u128 << (s - 1);
    let up = r > half || (r == half && q & 1 == 1);
    u64::try_from(q + u128::from(up)).ok()
}

/// Append the decimal digits of `n` (as `{n}` prints it).
pub fn push_u64(out: &mut String, n: u64) {
    let mut buf = [0u8; 20];
    let i = digits(&mut buf, n);
    push_ascii(out, &buf[i..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same(x: f64) {
        for p in [1u32, 2] {
            let mut s = String::new();
            push_fixed(&mut s, x, p);
            assert_eq!(
                s,
                format!("{x:.*}", p as usize),
                "x = {x:e} ({:#x}), p = {p}",
                x.to_bits()
            );
        }
    }

    #[test]
    fn edge_values_print_as_format_does() {
        let edges = [
            0.0,
            -0.0,
            f64::MIN_POSITIVE,
            5e-324,
            0.04,
            0.05,
            0.05000000000000001,
            0.15,
            0.25,
            0.35,
            0.45,
            0.005,
            0.015,
            0.025,
            0.125,
            0.375,
            0.5,
            0.95,
            0.995,
            1.0,
            2.5,
            9.95,
            9.995,
            99.95,
            31111.05,
            44444.444444,
            1e15 + 0.25,
            4_503_599_627_370_495.5,
            9_007_199_254_740_991.0,
            9_007_199_254_740_992.0,
            1e300,
            -1.25,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
        ];
        for x in edges {
            same(x);
        }
        // Every exact tie k/8 and k/400 (halves of the last printed digit).
        for k in 0..20_000u32 {
            same(f64::from(k) / 8.0);
            same(f64::from(k) / 400.0);
            same(f64::from(k) * 0.05);
        }
    }

    #[test]
    fn pseudo_random_values_print_as_format_does() {
        // A fixed xorshift stream over bit patterns and over typical rates.
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        for _ in 0..50_000 {
            let bits = next();
            same(f64::from_bits(bits));
            same(f64::from_bits(bits >> 2));
            same((bits >> 11) as f64 / (1u64 << 20) as f64);
            same((bits % 10_000_000) as f64 / 9.0);
        }
    }
}
