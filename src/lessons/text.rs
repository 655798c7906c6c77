//! Formatting helpers for narration, and the two checks the tests apply to it
//! (sentence count, the numbers quoted).

/// `0x1c800001` (Pulsar's bundle-name style: lower case, 8 digits).
pub fn hex(x: u32) -> String {
    format!("0x{x:08x}")
}

/// A fraction as a percentage with one decimal: `0.2` → `20.0 %`.
pub fn pct(f: f64) -> String {
    format!("{:.1} %", f * 100.0)
}

/// A number with at most one decimal, trailing `.0` dropped: `250.0` → `250`.
pub fn num(x: f64) -> String {
    let r = (x * 10.0).round() / 10.0;
    if r.fract() == 0.0 {
        format!("{r:.0}")
    } else {
        format!("{r:.1}")
    }
}

/// `a, b and c`.
pub fn and_list<S: AsRef<str>>(xs: &[S]) -> String {
    match xs.len() {
        0 => String::new(),
        1 => xs[0].as_ref().to_string(),
        n => {
            let head: Vec<&str> = xs[..n - 1].iter().map(|s| s.as_ref()).collect();
            format!("{} and {}", head.join(", "), xs[n - 1].as_ref())
        }
    }
}

/// `[4, 3, 2]`.
pub fn bracket(xs: &[u32]) -> String {
    format!(
        "[{}]",
        xs.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")
    )
}

/// Sentences in a narration: a `.`, `!` or `?` followed by white space or the end
/// (so `0.5` and `0x1c800001` do not end a sentence).
pub fn sentences(text: &str) -> usize {
    let cs: Vec<char> = text.trim().chars().collect();
    let mut n = 0;
    for (i, c) in cs.iter().enumerate() {
        if matches!(c, '.' | '!' | '?') && cs.get(i + 1).is_none_or(|d| d.is_whitespace()) {
            n += 1;
        }
    }
    n
}

/// The numbers a text quotes: hex literals (`0x…`) as integers, and decimal
/// numbers (`1,000` and `20.5` included); digits inside names (`broker-1`,
/// `tm-0`, `0_1`, `t3`) are not numbers.
pub fn numbers(text: &str) -> Vec<f64> {
    let cs: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        let prev = if i > 0 { Some(cs[i - 1]) } else { None };
        let in_name =
            prev.is_some_and(|p| p.is_alphanumeric() || p == '-' || p == '_' || p == '/' || p == '.');
        if c.is_ascii_digit() && !in_name {
            // Hex?
            if c == '0' && matches!(cs.get(i + 1), Some('x') | Some('X')) {
                let mut j = i + 2;
                while j < cs.len() && cs[j].is_ascii_hexdigit() {
                    j += 1;
                }
                let h: String = cs[i + 2..j].iter().collect();
                if let Ok(v) = u64::from_str_radix(&h, 16) {
                    out.push(v as f64);
                }
                i = j;
                continue;
            }
            let mut j = i;
            let mut s = String::new();
            while j < cs.len() {
                let d = cs[j];
                if d.is_ascii_digit() {
                    s.push(d);
                } else if (d == ',' || d == '.') && cs.get(j + 1).is_some_and(|e| e.is_ascii_digit()) {
                    if d == '.' {
                        s.push('.');
                    }
                } else {
                    break;
                }
                j += 1;
            }
            // A name continues after the digits (`0_1`, `3x`): not a number.
            let next = cs.get(j).copied();
            if !next.is_some_and(|n| n.is_alphabetic() && n != 'x' || n == '_' || n == '-') {
                if let Ok(v) = s.parse::<f64>() {
                    out.push(v);
                }
            }
            i = j;
            continue;
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(hex(0x1C80_0001), "0x1c800001");
        assert_eq!(pct(0.2), "20.0 %");
        assert_eq!(num(250.0), "250");
        assert_eq!(num(2.25), "2.3");
        assert_eq!(and_list(&["a", "b", "c"]), "a, b and c");
        assert_eq!(bracket(&[4, 3, 2]), "[4, 3, 2]");
    }

    #[test]
    fn sentence_count_ignores_decimals_and_hex() {
        assert_eq!(sentences("Average 20.5 %. Offload 0x1c800001. Done!"), 3);
        assert_eq!(sentences("One sentence with 0.5 in it"), 0);
        assert_eq!(sentences("Is it? Yes."), 2);
    }

    #[test]
    fn numbers_skip_names() {
        assert_eq!(
            numbers("broker-1 at 40.0 % owns 0x4d000000, task 0_1 on tm-0, 1,000 msg/s, t3"),
            vec![40.0, 0x4d00_0000 as f64, 1000.0]
        );
        assert_eq!(numbers("[4, 3, 2] and 3 TaskManagers"), vec![4.0, 3.0, 2.0, 3.0]);
    }
}
