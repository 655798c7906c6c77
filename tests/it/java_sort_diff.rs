//! The differential test against the JDK's own sort (`make java-sort-diff`).
//!
//! Under the `pulsar-4.0` profile AvgShedder sorts brokers with `(int) (s1 - s2)`,
//! a comparator that calls scores less than one point apart equal and is not
//! transitive, so the order depends on how Java's TimSort walks the list, and from
//! 32 brokers Java may throw. `java_sort_diff_write_cases` writes seeded random
//! score lists to `$LBSCOPE_JAVA_SORT_DIR/cases.txt`;
//! `tools/java-sort-diff/JavaSort.java` sorts each with the JDK's `List.sort`; and
//! `java_sort_diff_compare` checks that `lbscope::engine::java_sort` gives the same
//! order, or fails exactly where the JDK threw. Both are ignored unless asked for
//! (they need a JDK).

use lbscope::engine::java_sort::java_list_sort;
use lbscope::engine::SimRng;
use std::path::PathBuf;

/// Random score lists.
const CASES: usize = 4000;

fn dir() -> PathBuf {
    PathBuf::from(std::env::var("LBSCOPE_JAVA_SORT_DIR").expect("set LBSCOPE_JAVA_SORT_DIR"))
}

/// Scores with one or two decimals: spread wide (few ties under truncation),
/// packed within a few points (many), or nearly sorted with small noise (long
/// runs for the merges to gallop over). Lengths below and above 32, up to 1,100.
fn cases() -> Vec<Vec<f64>> {
    let mut rng = SimRng::new(0x5eed_0a75);
    (0..CASES)
        .map(|k| {
            let len = match k % 3 {
                0 => 2 + rng.below(40),
                1 => 32 + rng.below(100),
                _ => 100 + rng.below(1000),
            };
            let hundredths = |rng: &mut SimRng, max: usize| rng.below(max * 100) as f64 / 100.0;
            (0..len)
                .map(|i| match (k / 3) % 4 {
                    0 => hundredths(&mut rng, 100),
                    1 => hundredths(&mut rng, 3),
                    2 => (rng.below(100) as f64) / 10.0,
                    _ => {
                        let noise = [0.0, 0.0, 0.6, -0.6][rng.below(4)];
                        ((i as f64 * 0.3 + noise) * 100.0).round() / 100.0
                    }
                })
                .collect()
        })
        .collect()
}

#[test]
#[ignore = "writes the cases for tools/java-sort-diff/run.sh"]
fn java_sort_diff_write_cases() {
    let text: String = cases()
        .iter()
        .map(|c| c.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(" ") + "\n")
        .collect();
    std::fs::create_dir_all(dir()).unwrap();
    std::fs::write(dir().join("cases.txt"), text).unwrap();
}

#[test]
#[ignore = "compares with the JDK's output from tools/java-sort-diff/run.sh"]
fn java_sort_diff_compare() {
    let java = std::fs::read_to_string(dir().join("java.txt")).expect("run JavaSort first");
    let cases = cases();
    let rows: Vec<&str> = java.lines().collect();
    assert_eq!(rows.len(), cases.len(), "one JDK answer per case");
    let (mut threw, mut differs_from_exact, mut merged) = (0, 0, 0);
    for (i, (scores, row)) in cases.iter().zip(&rows).enumerate() {
        let mut v: Vec<(usize, f64)> = scores.iter().copied().enumerate().collect();
        let ours = java_list_sort(&mut v, |a, b| (a.1 - b.1) as i32);
        if scores.len() >= 32 {
            merged += 1;
        }
        if *row == "THROW" {
            threw += 1;
            assert!(ours.is_err(), "case {i}: the JDK threw, lbscope sorted");
            continue;
        }
        assert!(ours.is_ok(), "case {i}: lbscope failed where the JDK sorted");
        let order: Vec<usize> = v.iter().map(|p| p.0).collect();
        let jdk: Vec<usize> = row.split(' ').map(|w| w.parse().unwrap()).collect();
        assert_eq!(order, jdk, "case {i}: {scores:?}");
        let mut exact: Vec<usize> = (0..scores.len()).collect();
        exact.sort_by(|&a, &b| scores[a].total_cmp(&scores[b]));
        if exact != jdk {
            differs_from_exact += 1;
        }
    }
    println!(
        "java-sort-diff: {} cases ({merged} of 32 or more scores) agree with the JDK: \
         {threw} threw in both, {differs_from_exact} sorted differently from an exact sort",
        cases.len()
    );
    assert!(
        threw > 0 && differs_from_exact > 0,
        "the cases exercise the comparator"
    );
}
