//! Stable sorting in little code: [`StableSort`] gives slices `stable_sort`,
//! `stable_sort_by` and `stable_sort_by_key`, which order exactly as the standard
//! library's `sort`, `sort_by` and `sort_by_key` do.
//!
//! Natively they are the standard library's sorts. On wasm32 the standard stable
//! sort (driftsort) is compiled anew, about 4 KB, for every element type and
//! comparator it is used with, which made sorting one of the largest parts of the
//! web app. There they sort through [`sort_by_index`]: one merge sort of `u32`
//! positions, compiled once, which calls the comparator through a `dyn` reference;
//! what is left per call site is a small closure and the loop that moves the
//! elements into their sorted places.
//!
//! A stable sort's result is fully determined by the comparison (equal elements
//! keep their order), so both give the same order, given a comparison that is a
//! total order, which every caller's is (`Ord`, or `f64::total_cmp`). The tests
//! compare the two.

use std::cmp::Ordering;

/// Stable sorts with the standard library's results (see the module documentation).
pub trait StableSort<T> {
    /// As `slice::sort`.
    fn stable_sort(&mut self)
    where
        T: Ord;
    /// As `slice::sort_by`.
    fn stable_sort_by<F: FnMut(&T, &T) -> Ordering>(&mut self, compare: F);
    /// As `slice::sort_by_key`.
    fn stable_sort_by_key<K: Ord, F: FnMut(&T) -> K>(&mut self, key: F);
}

#[cfg(not(target_arch = "wasm32"))]
impl<T> StableSort<T> for [T] {
    fn stable_sort(&mut self)
    where
        T: Ord,
    {
        self.sort();
    }
    fn stable_sort_by<F: FnMut(&T, &T) -> Ordering>(&mut self, compare: F) {
        self.sort_by(compare);
    }
    fn stable_sort_by_key<K: Ord, F: FnMut(&T) -> K>(&mut self, key: F) {
        self.sort_by_key(key);
    }
}

#[cfg(target_arch = "wasm32")]
impl<T> StableSort<T> for [T] {
    fn stable_sort(&mut self)
    where
        T: Ord,
    {
        sort_by_index(self, &mut |a: &T, b: &T| a.lt(b));
    }
    fn stable_sort_by<F: FnMut(&T, &T) -> Ordering>(&mut self, mut compare: F) {
        sort_by_index(self, &mut |a: &T, b: &T| compare(a, b) == Ordering::Less);
    }
    fn stable_sort_by_key<K: Ord, F: FnMut(&T) -> K>(&mut self, mut key: F) {
        sort_by_index(self, &mut |a: &T, b: &T| key(a).lt(&key(b)));
    }
}

/// Sort `v` stably by `is_less`: the positions are sorted (by [`merge_sort`]), then
/// the elements moved to them.
pub fn sort_by_index<T>(v: &mut [T], is_less: &mut dyn FnMut(&T, &T) -> bool) {
    let n = v.len();
    if n < 2 {
        return;
    }
    assert!(n <= u32::MAX as usize, "too many elements to sort");
    // `order[k]`: the position of the element that belongs at `k`.
    let order = {
        let v: &[T] = v;
        merge_sort(n, &mut |a, b| is_less(&v[a as usize], &v[b as usize]))
    };
    let Some(order) = order else {
        return; // already in order
    };
    // `dest[i]`: where the element now at `i` goes; swap until every one is home.
    let mut dest = vec![0u32; n];
    for (k, &i) in order.iter().enumerate() {
        dest[i as usize] = k as u32;
    }
    for i in 0..n {
        loop {
            let d = dest[i] as usize;
            if d == i {
                break;
            }
            v.swap(i, d);
            dest.swap(i, d);
        }
    }
}

/// The positions `0..n` in stable order by `is_less` (a bottom-up merge sort over
/// runs of up to 16 sorted by insertion), or `None` when they already are in order.
fn merge_sort(n: usize, is_less: &mut dyn FnMut(u32, u32) -> bool) -> Option<Vec<u32>> {
    if (1..n).all(|i| !is_less(i as u32, i as u32 - 1)) {
        return None;
    }
    const RUN: usize = 16;
    let mut a: Vec<u32> = (0..n as u32).collect();
    for run in a.chunks_mut(RUN) {
        for i in 1..run.len() {
            let mut j = i;
            while j > 0 && is_less(run[j], run[j - 1]) {
                run.swap(j, j - 1);
                j -= 1;
            }
        }
    }
    let mut b = vec![0u32; n];
    let mut width = RUN;
    while width < n {
        let mut start = 0;
        while start < n {
            let mid = (start + width).min(n);
            let end = (start + 2 * width).min(n);
            let (mut i, mut j) = (start, mid);
            for slot in &mut b[start..end] {
                // Take from the right run only when strictly less: equal ones keep their order.
                if j < end && (i >= mid || is_less(a[j], a[i])) {
                    *slot = a[j];
                    j += 1;
                } else {
                    *slot = a[i];
                    i += 1;
                }
            }
            start = end;
        }
        std::mem::swap(&mut a, &mut b);
        width *= 2;
    }
    Some(a)
}

/// Names in natural order: runs of digits compare by their value, so `broker-2`
/// comes before `broker-10` and `tm-9` before `tm-10`; everything else compares
/// character by character. Names equal but for leading zeros (`a-01`, `a-1`) fall
/// back to the plain string order, so the order is total.
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (mut x, mut y) = (a.as_bytes(), b.as_bytes());
    loop {
        match (x.first(), y.first()) {
            (None, None) => return a.cmp(b),
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(c), Some(d)) if c.is_ascii_digit() && d.is_ascii_digit() => {
                let run = |s: &[u8]| s.iter().take_while(|c| c.is_ascii_digit()).count();
                let (m, n) = (run(x), run(y));
                let trim = |s: &'_ [u8]| -> usize { s.iter().take_while(|&&c| c == b'0').count() };
                let (p, q) = (&x[trim(&x[..m])..m], &y[trim(&y[..n])..n]);
                let o = p.len().cmp(&q.len()).then_with(|| p.cmp(q));
                if o != Ordering::Equal {
                    return o;
                }
                x = &x[m..];
                y = &y[n..];
            }
            (Some(c), Some(d)) => {
                if c != d {
                    return c.cmp(d);
                }
                x = &x[1..];
                y = &y[1..];
            }
        }
    }
}

/// Sort names (or anything with a name) in [`natural_cmp`] order, stably.
pub fn sort_natural_by<T>(v: &mut [T], name: impl Fn(&T) -> &str) {
    v.stable_sort_by(|a, b| natural_cmp(name(a), name(b)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn by_index<T: Clone>(v: &[T], mut cmp: impl FnMut(&T, &T) -> Ordering) -> Vec<T> {
        let mut out = v.to_vec();
        sort_by_index(&mut out, &mut |a, b| cmp(a, b) == Ordering::Less);
        out
    }

    #[test]
    fn small_and_sorted_inputs() {
        let empty: [u8; 0] = [];
        assert_eq!(by_index(&empty, Ord::cmp), empty);
        assert_eq!(by_index(&[1], Ord::cmp), [1]);
        assert_eq!(by_index(&[2, 1], Ord::cmp), [1, 2]);
        let sorted: Vec<u32> = (0..100).collect();
        assert_eq!(by_index(&sorted, Ord::cmp), sorted);
        let reversed: Vec<u32> = (0..100).rev().collect();
        assert_eq!(by_index(&reversed, Ord::cmp), sorted);
    }

    #[test]
    fn equal_keys_keep_their_order() {
        // (key, original position): sorting by key alone must keep positions rising.
        let v: Vec<(u8, usize)> = (0..200).map(|i| ((i * 7 % 5) as u8, i)).collect();
        let got = by_index(&v, |a, b| a.0.cmp(&b.0));
        let mut want = v.clone();
        want.sort_by_key(|a| a.0);
        assert_eq!(got, want);
    }

    #[test]
    fn the_trait_orders_as_the_standard_sorts() {
        let v: Vec<(u8, String)> = (0..50).map(|i| ((i % 3) as u8, format!("n{}", 50 - i))).collect();
        let (mut a, mut b) = (v.clone(), v.clone());
        a.stable_sort();
        b.sort();
        assert_eq!(a, b);
        let (mut a, mut b) = (v.clone(), v.clone());
        a.stable_sort_by_key(|x| x.0);
        b.sort_by_key(|x| x.0);
        assert_eq!(a, b);
        let (mut a, mut b) = (v.clone(), v);
        a.stable_sort_by(|x, y| y.1.cmp(&x.1));
        b.sort_by(|x, y| y.1.cmp(&x.1));
        assert_eq!(a, b);
    }

    #[test]
    fn names_sort_naturally() {
        let mut v = vec![
            "broker-10",
            "broker-2",
            "broker-1",
            "tm-9",
            "tm-10",
            "a-01",
            "a-1",
            "b",
            "a",
        ];
        sort_natural_by(&mut v, |s| s);
        assert_eq!(
            v,
            [
                "a",
                "a-01",
                "a-1",
                "b",
                "broker-1",
                "broker-2",
                "broker-10",
                "tm-9",
                "tm-10"
            ]
        );
        assert_eq!(natural_cmp("x2y10", "x2y9"), Ordering::Greater);
        assert_eq!(natural_cmp("app-100", "app-100"), Ordering::Equal);
    }

    proptest! {
        /// Any keys, many ties: the same order as the standard library's stable sort,
        /// by key alone (ties keep their order) and by a float key under `total_cmp`.
        #[test]
        fn natural_order_is_total(a in "[ab0-9-]{0,6}", b in "[ab0-9-]{0,6}") {
            prop_assert_eq!(natural_cmp(&a, &b), natural_cmp(&b, &a).reverse());
            prop_assert_eq!(natural_cmp(&a, &b) == Ordering::Equal, a == b);
        }

        #[test]
        fn same_order_as_std(keys in proptest::collection::vec(0u8..8, 0..300)) {
            let v: Vec<(u8, usize)> = keys.iter().copied().zip(0..).collect();
            let mut want = v.clone();
            want.sort_by_key(|x| x.0);
            prop_assert_eq!(by_index(&v, |a, b| a.0.cmp(&b.0)), want);
            let f: Vec<(f64, usize)> = keys.iter().map(|&k| (f64::from(k) / 3.0 - 1.0, 0)).zip(0..).map(|((x, _), i)| (x, i)).collect();
            let mut want = f.clone();
            want.sort_by(|a, b| b.0.total_cmp(&a.0));
            prop_assert_eq!(by_index(&f, |a, b| b.0.total_cmp(&a.0)), want);
        }
    }
}
