//! Java's object sort (`List.sort`, `Arrays.sort` with a comparator), replayed
//! step by step so that a comparator that is not a total order gives the order
//! Java gives, or fails where Java throws.
//!
//! Java sorts objects with TimSort: below [`MIN_MERGE`] elements, the first
//! ascending (or strictly descending, then reversed) run is extended by binary
//! insertion. From [`MIN_MERGE`] up, the array is cut into runs of at least a
//! computed minimum length (short runs are extended by binary insertion), the
//! runs are kept on a stack whose lengths must shrink fast enough, and
//! neighbouring runs are merged, galloping (exponential search) whenever one
//! side keeps winning. A merge that finds one side empty where a consistent
//! comparator could not leave it empty reports [`ContractViolation`]: Java
//! throws `IllegalArgumentException("Comparison method violates its general
//! contract!")` there.
//!
//! A comparator returns a Java `int`: negative, zero or positive.

/// Below this many elements no merging happens.
pub const MIN_MERGE: usize = 32;

/// Wins in a row after which a merge starts galloping.
const MIN_GALLOP: usize = 7;

/// Java's sort threw: the comparator contradicted itself during a merge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContractViolation;

/// Sort `items` as Java's `List.sort(cmp)` would. On a contract violation the
/// slice is left unchanged (Java leaves a partly merged list behind, which
/// nothing here reads: the caller's step fails as Java's does).
pub fn java_list_sort<T: Clone>(
    items: &mut [T],
    cmp: impl Fn(&T, &T) -> i32,
) -> Result<(), ContractViolation> {
    let mut order: Vec<usize> = (0..items.len()).collect();
    let by_index = |x: &usize, y: &usize| cmp(&items[*x], &items[*y]);
    TimSort::new(&by_index).sort(&mut order)?;
    let sorted: Vec<T> = order.iter().map(|&i| items[i].clone()).collect();
    items.clone_from_slice(&sorted);
    Ok(())
}

/// The run length below which a run is extended by binary insertion: `n` is
/// halved until it is below [`MIN_MERGE`], plus one if any bit shifted out
/// was set.
fn min_run_length(mut n: usize) -> usize {
    let mut carry = 0;
    while n >= MIN_MERGE {
        carry |= n & 1;
        n >>= 1;
    }
    n + carry
}

struct TimSort<'c, F> {
    cmp: &'c F,
    min_gallop: usize,
    /// Pending runs: (start, length).
    runs: Vec<(usize, usize)>,
}

impl<'c, F: Fn(&usize, &usize) -> i32> TimSort<'c, F> {
    fn new(cmp: &'c F) -> Self {
        TimSort {
            cmp,
            min_gallop: MIN_GALLOP,
            runs: Vec::new(),
        }
    }

    fn c(&self, x: usize, y: usize) -> i32 {
        (self.cmp)(&x, &y)
    }

    fn sort(&mut self, a: &mut [usize]) -> Result<(), ContractViolation> {
        let n = a.len();
        if n < 2 {
            return Ok(());
        }
        if n < MIN_MERGE {
            let run = self.run_ascending(a, 0, n);
            self.binary_insertion(a, 0, n, run);
            return Ok(());
        }
        let min_run = min_run_length(n);
        let mut lo = 0;
        while lo < n {
            let mut len = self.run_ascending(a, lo, n);
            if len < min_run {
                let force = min_run.min(n - lo);
                self.binary_insertion(a, lo, lo + force, lo + len);
                len = force;
            }
            self.runs.push((lo, len));
            self.collapse(a)?;
            lo += len;
        }
        self.force_collapse(a)
    }

    /// The length of the run starting at `lo`: non-descending, or strictly
    /// descending (then reversed in place, which keeps the sort stable).
    fn run_ascending(&self, a: &mut [usize], lo: usize, hi: usize) -> usize {
        let mut end = lo + 1;
        if end == hi {
            return 1;
        }
        end += 1;
        if self.c(a[lo + 1], a[lo]) < 0 {
            while end < hi && self.c(a[end], a[end - 1]) < 0 {
                end += 1;
            }
            a[lo..end].reverse();
        } else {
            while end < hi && self.c(a[end], a[end - 1]) >= 0 {
                end += 1;
            }
        }
        end - lo
    }

    /// Insert `a[start..hi]` one by one into the sorted `a[lo..start]`, each
    /// after every element it does not compare below.
    fn binary_insertion(&self, a: &mut [usize], lo: usize, hi: usize, start: usize) {
        let start = if start == lo { start + 1 } else { start };
        for s in start..hi {
            let pivot = a[s];
            let (mut left, mut right) = (lo, s);
            while left < right {
                let mid = (left + right) / 2;
                if self.c(pivot, a[mid]) < 0 {
                    right = mid;
                } else {
                    left = mid + 1;
                }
            }
            a[left..=s].rotate_right(1);
        }
    }

    /// Merge until the run lengths shrink fast enough: every run longer than
    /// the next two together, and than the next one.
    fn collapse(&mut self, a: &mut [usize]) -> Result<(), ContractViolation> {
        while self.runs.len() > 1 {
            let mut n = self.runs.len() - 2;
            let len = |i: usize| self.runs[i].1;
            let deep =
                (n > 0 && len(n - 1) <= len(n) + len(n + 1)) || (n > 1 && len(n - 2) <= len(n) + len(n - 1));
            if deep {
                if len(n - 1) < len(n + 1) {
                    n -= 1;
                }
            } else if len(n) > len(n + 1) {
                break;
            }
            self.merge_at(a, n)?;
        }
        Ok(())
    }

    /// Merge every pending run, at the end.
    fn force_collapse(&mut self, a: &mut [usize]) -> Result<(), ContractViolation> {
        while self.runs.len() > 1 {
            let mut n = self.runs.len() - 2;
            if n > 0 && self.runs[n - 1].1 < self.runs[n + 1].1 {
                n -= 1;
            }
            self.merge_at(a, n)?;
        }
        Ok(())
    }

    /// Merge runs `i` and `i + 1`, skipping the head of the first run that is
    /// already in place and the tail of the second.
    fn merge_at(&mut self, a: &mut [usize], i: usize) -> Result<(), ContractViolation> {
        let (mut base1, mut len1) = self.runs[i];
        let (base2, mut len2) = self.runs[i + 1];
        self.runs[i].1 = len1 + len2;
        self.runs.remove(i + 1);
        let k = self.gallop_right(a[base2], a, base1, len1, 0);
        base1 += k;
        len1 -= k;
        if len1 == 0 {
            return Ok(());
        }
        len2 = self.gallop_left(a[base1 + len1 - 1], a, base2, len2, len2 - 1);
        if len2 == 0 {
            return Ok(());
        }
        if len1 <= len2 {
            self.merge_low(a, base1, len1, base2, len2)
        } else {
            self.merge_high(a, base1, len1, base2, len2)
        }
    }

    /// Where `key` goes in the sorted `a[base..base + len]`, before every
    /// element equal to it, searching outward from `hint` in doubling steps.
    fn gallop_left(&self, key: usize, a: &[usize], base: usize, len: usize, hint: usize) -> usize {
        let (lo, hi) = self.gallop(key, a, base, len, hint, |c| c > 0);
        self.narrow(key, a, base, lo, hi, |c| c > 0)
    }

    /// Where `key` goes in the sorted `a[base..base + len]`, after every
    /// element equal to it.
    fn gallop_right(&self, key: usize, a: &[usize], base: usize, len: usize, hint: usize) -> usize {
        let (lo, hi) = self.gallop(key, a, base, len, hint, |c| c >= 0);
        self.narrow(key, a, base, lo, hi, |c| c >= 0)
    }

    /// The doubling search around `hint`: `after(cmp(key, x))` says `key`
    /// goes after `x`. Returns offsets `(lo, hi)` with the answer in
    /// `lo + 1 ..= hi` (`lo` may be −1).
    fn gallop(
        &self,
        key: usize,
        a: &[usize],
        base: usize,
        len: usize,
        hint: usize,
        after: impl Fn(i32) -> bool,
    ) -> (isize, isize) {
        let (len, hint) = (len as isize, hint as isize);
        let at = |ofs: isize| a[(base as isize + ofs) as usize];
        let mut last = 0isize;
        let mut ofs = 1isize;
        if after(self.c(key, at(hint))) {
            let max = len - hint;
            while ofs < max && after(self.c(key, at(hint + ofs))) {
                last = ofs;
                ofs = ofs * 2 + 1;
            }
            (last + hint, ofs.min(max) + hint)
        } else {
            let max = hint + 1;
            while ofs < max && !after(self.c(key, at(hint - ofs))) {
                last = ofs;
                ofs = ofs * 2 + 1;
            }
            (hint - ofs.min(max), hint - last)
        }
    }

    /// Binary search between the gallop's bounds.
    fn narrow(
        &self,
        key: usize,
        a: &[usize],
        base: usize,
        lo: isize,
        hi: isize,
        after: impl Fn(i32) -> bool,
    ) -> usize {
        let (mut lo, mut hi) = (lo + 1, hi);
        while lo < hi {
            let m = lo + (hi - lo) / 2;
            if after(self.c(key, a[base + m as usize])) {
                lo = m + 1;
            } else {
                hi = m;
            }
        }
        hi as usize
    }

    /// Merge with the first (shorter) run copied aside, filling from the left.
    fn merge_low(
        &mut self,
        a: &mut [usize],
        base1: usize,
        mut len1: usize,
        base2: usize,
        mut len2: usize,
    ) -> Result<(), ContractViolation> {
        let tmp: Vec<usize> = a[base1..base1 + len1].to_vec();
        let (mut c1, mut c2, mut dest) = (0usize, base2, base1);
        a[dest] = a[c2];
        dest += 1;
        c2 += 1;
        len2 -= 1;
        if len2 == 0 {
            a[dest..dest + len1].copy_from_slice(&tmp[c1..c1 + len1]);
            return Ok(());
        }
        if len1 == 1 {
            a.copy_within(c2..c2 + len2, dest);
            a[dest + len2] = tmp[c1];
            return Ok(());
        }
        let mut min_gallop = self.min_gallop;
        'outer: loop {
            let (mut won1, mut won2) = (0usize, 0usize);
            // One at a time until one side wins often enough.
            loop {
                if self.c(a[c2], tmp[c1]) < 0 {
                    a[dest] = a[c2];
                    dest += 1;
                    c2 += 1;
                    won2 += 1;
                    won1 = 0;
                    len2 -= 1;
                    if len2 == 0 {
                        break 'outer;
                    }
                } else {
                    a[dest] = tmp[c1];
                    dest += 1;
                    c1 += 1;
                    won1 += 1;
                    won2 = 0;
                    len1 -= 1;
                    if len1 == 1 {
                        break 'outer;
                    }
                }
                if (won1 | won2) >= min_gallop {
                    break;
                }
            }
            // Galloping.
            loop {
                won1 = self.gallop_right(a[c2], &tmp, c1, len1, 0);
                if won1 != 0 {
                    a[dest..dest + won1].copy_from_slice(&tmp[c1..c1 + won1]);
                    dest += won1;
                    c1 += won1;
                    len1 -= won1;
                    if len1 <= 1 {
                        break 'outer;
                    }
                }
                a[dest] = a[c2];
                dest += 1;
                c2 += 1;
                len2 -= 1;
                if len2 == 0 {
                    break 'outer;
                }
                won2 = self.gallop_left(tmp[c1], a, c2, len2, 0);
                if won2 != 0 {
                    a.copy_within(c2..c2 + won2, dest);
                    dest += won2;
                    c2 += won2;
                    len2 -= won2;
                    if len2 == 0 {
                        break 'outer;
                    }
                }
                a[dest] = tmp[c1];
                dest += 1;
                c1 += 1;
                len1 -= 1;
                if len1 == 1 {
                    break 'outer;
                }
                min_gallop = min_gallop.saturating_sub(1);
                if won1 < MIN_GALLOP && won2 < MIN_GALLOP {
                    break;
                }
            }
            min_gallop += 2;
        }
        self.min_gallop = min_gallop.max(1);
        match len1 {
            1 => {
                a.copy_within(c2..c2 + len2, dest);
                a[dest + len2] = tmp[c1];
                Ok(())
            }
            0 => Err(ContractViolation),
            _ => {
                a[dest..dest + len1].copy_from_slice(&tmp[c1..c1 + len1]);
                Ok(())
            }
        }
    }

    /// Merge with the second (shorter) run copied aside, filling from the
    /// right.
    fn merge_high(
        &mut self,
        a: &mut [usize],
        base1: usize,
        mut len1: usize,
        base2: usize,
        mut len2: usize,
    ) -> Result<(), ContractViolation> {
        let tmp: Vec<usize> = a[base2..base2 + len2].to_vec();
        // Cursors point one past the next element to take, so they never go
        // below zero.
        let (mut c1, mut c2, mut dest) = (base1 + len1, len2, base2 + len2);
        dest -= 1;
        c1 -= 1;
        a[dest] = a[c1];
        len1 -= 1;
        if len1 == 0 {
            a[dest - len2..dest].copy_from_slice(&tmp[..len2]);
            return Ok(());
        }
        if len2 == 1 {
            dest -= len1;
            c1 -= len1;
            a.copy_within(c1..c1 + len1, dest);
            a[dest - 1] = tmp[c2 - 1];
            return Ok(());
        }
        let mut min_gallop = self.min_gallop;
        'outer: loop {
            let (mut won1, mut won2) = (0usize, 0usize);
            loop {
                if self.c(tmp[c2 - 1], a[c1 - 1]) < 0 {
                    dest -= 1;
                    c1 -= 1;
                    a[dest] = a[c1];
                    won1 += 1;
                    won2 = 0;
                    len1 -= 1;
                    if len1 == 0 {
                        break 'outer;
                    }
                } else {
                    dest -= 1;
                    c2 -= 1;
                    a[dest] = tmp[c2];
                    won2 += 1;
                    won1 = 0;
                    len2 -= 1;
                    if len2 == 1 {
                        break 'outer;
                    }
                }
                if (won1 | won2) >= min_gallop {
                    break;
                }
            }
            loop {
                won1 = len1 - self.gallop_right(tmp[c2 - 1], a, base1, len1, len1 - 1);
                if won1 != 0 {
                    dest -= won1;
                    c1 -= won1;
                    len1 -= won1;
                    a.copy_within(c1..c1 + won1, dest);
                    if len1 == 0 {
                        break 'outer;
                    }
                }
                dest -= 1;
                c2 -= 1;
                a[dest] = tmp[c2];
                len2 -= 1;
                if len2 == 1 {
                    break 'outer;
                }
                won2 = len2 - self.gallop_left(a[c1 - 1], &tmp, 0, len2, len2 - 1);
                if won2 != 0 {
                    dest -= won2;
                    c2 -= won2;
                    len2 -= won2;
                    a[dest..dest + won2].copy_from_slice(&tmp[c2..c2 + won2]);
                    if len2 <= 1 {
                        break 'outer;
                    }
                }
                dest -= 1;
                c1 -= 1;
                a[dest] = a[c1];
                len1 -= 1;
                if len1 == 0 {
                    break 'outer;
                }
                min_gallop = min_gallop.saturating_sub(1);
                if won1 < MIN_GALLOP && won2 < MIN_GALLOP {
                    break;
                }
            }
            min_gallop += 2;
        }
        self.min_gallop = min_gallop.max(1);
        match len2 {
            1 => {
                dest -= len1;
                c1 -= len1;
                a.copy_within(c1..c1 + len1, dest);
                a[dest - 1] = tmp[c2 - 1];
                Ok(())
            }
            0 => Err(ContractViolation),
            _ => {
                a[dest - len2..dest].copy_from_slice(&tmp[..len2]);
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Java's `(int) (s1 - s2)` comparator on scores, as AvgShedder used it
    /// before apache/pulsar#24954.
    fn truncating(a: &(usize, f64), b: &(usize, f64)) -> i32 {
        (a.1 - b.1) as i32
    }

    fn indexed(scores: &[f64]) -> Vec<(usize, f64)> {
        scores.iter().copied().enumerate().collect()
    }

    /// Derived from the code: halve until below 32, plus one if a set bit
    /// was shifted out.
    #[test]
    fn min_run_length_follows_timsorts_rule() {
        assert_eq!(min_run_length(32), 16);
        assert_eq!(min_run_length(33), 17);
        assert_eq!(min_run_length(64), 16);
        assert_eq!(min_run_length(65), 17);
        assert_eq!(min_run_length(1000), 32);
    }

    /// Expected order from running OpenJDK 17's `ArrayList.sort` with the
    /// `(int) (s1 - s2)` comparator on these 33 scores (two runs, merged).
    #[test]
    fn merges_runs_as_jdk_17_does_with_the_truncating_comparator() {
        let scores = [
            1.5, 5.0, 1.3, 2.5, 0.8, 1.9, 4.1, 4.8, 0.8, 0.6, 1.3, 3.6, 1.8, 3.9, 2.3, 1.7, 1.1, 5.3, 5.8,
            4.8, 5.8, 3.6, 2.3, 0.4, 4.3, 0.8, 2.5, 1.9, 6.0, 5.7, 0.5, 3.5, 0.2,
        ];
        let mut v = indexed(&scores);
        java_list_sort(&mut v, truncating).unwrap();
        let order: Vec<usize> = v.iter().map(|p| p.0).collect();
        assert_eq!(
            order,
            [
                23, 0, 2, 4, 8, 9, 10, 3, 5, 12, 14, 15, 16, 25, 30, 32, 22, 26, 27, 11, 13, 1, 6, 21, 7, 24,
                31, 17, 19, 18, 20, 28, 29
            ]
        );
        // Not what an exact sort gives: 0.2 (index 32) lands mid-list.
        let mut exact = indexed(&scores);
        exact.sort_by(|a, b| a.1.total_cmp(&b.1));
        assert_ne!(exact, v);
    }

    /// OpenJDK 17 throws "Comparison method violates its general contract!"
    /// on these 33 scores (found by running it on random score lists).
    #[test]
    fn fails_where_jdk_17_throws() {
        let scores = [
            4.5, 1.1, 2.0, 3.1, 0.0, 3.5, 4.0, 1.9, 5.0, 3.4, 3.0, 3.3, 0.1, 2.8, 1.1, 3.3, 3.8, 5.5, 4.4,
            4.2, 0.7, 4.1, 5.8, 3.6, 0.4, 5.1, 3.9, 2.4, 1.4, 3.5, 3.1, 0.6, 0.2,
        ];
        let mut v = indexed(&scores);
        assert_eq!(java_list_sort(&mut v, truncating), Err(ContractViolation));
        assert_eq!(v, indexed(&scores), "left unchanged");
    }

    /// With a comparator that is a total order, Java's sort is a stable sort:
    /// lengths 0 to 300, many runs, many ties.
    #[test]
    fn a_consistent_comparator_gives_the_stable_sort() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for len in (0..300).step_by(7).chain([31, 32, 33, 64, 65, 257]) {
            for shape in 0..3 {
                let mut v: Vec<(usize, i64)> = (0..len)
                    .map(|i| {
                        let r = (next() % 1000) as i64;
                        let key = match shape {
                            0 => r % 10,
                            1 => i as i64 + r % 3,
                            _ => -(i as i64) + r % 2,
                        };
                        (i, key)
                    })
                    .collect();
                let mut expected = v.clone();
                expected.sort_by_key(|p| p.1);
                java_list_sort(&mut v, |a, b| a.1.cmp(&b.1) as i32).unwrap();
                assert_eq!(v, expected, "len {len}, shape {shape}");
            }
        }
    }
}
