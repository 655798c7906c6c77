//! The README and `docs/` stay true: every relative link leads to a file (and an anchor to a
//! heading of it), the README is a front door of under 250 lines that links to every page of
//! `docs/` (and each page links back), and every count the pages quote (lessons, shedders,
//! placements, golden scenarios, views) is the crate's.

use lbscope::engine::{pulsar, Engine, System};
use lbscope::lessons;
use lbscope::view::ViewKind;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The README stays a front door.
const README_MAX_LINES: usize = 250;

/// Every Markdown file a reader meets: the top-level ones and all of `docs/`.
fn pages() -> Vec<PathBuf> {
    let root = Path::new(ROOT);
    let mut pages: Vec<PathBuf> = ["README.md", "CONTRIBUTING.md", "CHANGELOG.md"]
        .iter()
        .map(|p| root.join(p))
        .collect();
    let mut dirs = vec![root.join("docs")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                pages.push(path);
            }
        }
    }
    pages.sort();
    pages
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The text a reader sees as prose: fenced code blocks and inline code spans blanked out, so a
/// `](x)` inside code is not taken for a link.
fn prose(text: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            out.push('\n');
            continue;
        }
        if !fenced {
            let mut in_code = false;
            for c in line.chars() {
                if c == '`' {
                    in_code = !in_code;
                }
                out.push(if in_code || c == '`' { ' ' } else { c });
            }
        }
        out.push('\n');
    }
    out
}

/// The targets of the page's inline links and images: `[text](target)`, `![alt](target)`.
fn links(text: &str) -> Vec<String> {
    let text = prose(text);
    let mut found = Vec::new();
    let mut rest = text.as_str();
    while let Some(i) = rest.find("](") {
        rest = &rest[i + 2..];
        if let Some(end) = rest.find(')') {
            let target = rest[..end].trim();
            if !target.is_empty() && !target.contains(char::is_whitespace) {
                found.push(target.to_string());
            }
        }
    }
    found
}

/// An anchor as GitHub makes it from a heading: lower case, punctuation dropped but `-` and
/// `_`, spaces as `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a page's headings.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut fenced = false;
    let mut out = BTreeSet::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            out.insert(slug(line.trim_start_matches('#')));
        }
    }
    out
}

fn is_external(target: &str) -> bool {
    target.starts_with("http://") || target.starts_with("https://") || target.starts_with("mailto:")
}

/// Where a relative link of `page` leads, and its anchor.
fn resolve(page: &Path, target: &str) -> (PathBuf, Option<String>) {
    let (file, anchor) = match target.split_once('#') {
        Some((f, a)) => (f, Some(a.to_string())),
        None => (target, None),
    };
    let path = if file.is_empty() {
        page.to_path_buf()
    } else {
        page.parent().unwrap().join(file)
    };
    (path, anchor)
}

fn shown(path: &Path) -> String {
    path.strip_prefix(ROOT).unwrap_or(path).display().to_string()
}

#[test]
fn every_relative_link_leads_to_a_file_and_a_heading() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in pages() {
        for target in links(&read(&page)) {
            if is_external(&target) {
                continue;
            }
            checked += 1;
            let (path, anchor) = resolve(&page, &target);
            if !path.exists() {
                broken.push(format!("{}: ({target}) leads to no file", shown(&page)));
                continue;
            }
            let Some(anchor) = anchor else { continue };
            if path.extension().is_some_and(|e| e == "md") && !anchors(&read(&path)).contains(&anchor) {
                broken.push(format!(
                    "{}: ({target}) names no heading of {}",
                    shown(&page),
                    shown(&path)
                ));
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    assert!(
        checked > 50,
        "only {checked} relative links found: is the link reader right?"
    );
}

#[test]
fn the_readme_is_a_front_door_linked_both_ways_with_docs() {
    let readme_path = Path::new(ROOT).join("README.md");
    let readme = read(&readme_path);
    let lines = readme.lines().count();
    assert!(
        lines < README_MAX_LINES,
        "README.md has {lines} lines; keep it under {README_MAX_LINES}"
    );

    let from_readme: BTreeSet<PathBuf> = links(&readme)
        .iter()
        .filter(|t| !is_external(t))
        .map(|t| resolve(&readme_path, t).0)
        .collect();
    for page in pages() {
        let in_docs = page.parent() == Some(Path::new(ROOT).join("docs").as_path());
        let index = page.ends_with("docs/perf-log/README.md");
        if (in_docs || index) && !from_readme.contains(&page) {
            panic!("README.md does not link to {}", shown(&page));
        }
        if page.starts_with(Path::new(ROOT).join("docs")) {
            let back = links(&read(&page)).iter().any(|t| {
                !is_external(t) && resolve(&page, t).0.canonicalize().ok() == readme_path.canonicalize().ok()
            });
            assert!(back, "{} does not link back to the README", shown(&page));
        }
    }
}

/// The README's and the docs' lesson counts are the course's (the course is `lessons::all`).
#[test]
fn the_docs_count_the_lessons_of_each_system() {
    let readme = words(&read(&Path::new(ROOT).join("README.md")));
    let n = |s: System| lessons::of_system(s).count();
    let want = format!(
        "a guided course of {} lessons ({} Pulsar, {} Flink, {} Kafka Streams)",
        lessons::all().len(),
        n(System::Pulsar),
        n(System::Flink),
        n(System::Kstreams)
    );
    assert!(readme.contains(&want), "README should say: {want}");
    let architecture = words(&read(&Path::new(ROOT).join("docs/architecture.md")));
    let table = format!("the guided course: {} lessons", lessons::all().len());
    assert!(
        architecture.contains(&table),
        "docs/architecture.md should say: {table}"
    );
}

/// Every "N lessons", "N shedders", "N placements", "N golden scenarios" and "N views" of the
/// README and of `docs/` (the log of past measurements aside) is the real count.
#[test]
fn every_count_the_docs_quote_is_the_crates() {
    let strategies = <pulsar::Sim as Engine>::strategies();
    let of_key = |key: &str| strategies.iter().filter(|s| s.key == key).count();
    let golden = std::fs::read_dir(Path::new(ROOT).join("tests/scenarios"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "json")
        })
        .count();
    let counts: [(&str, usize); 6] = [
        ("lessons", lessons::all().len()),
        ("shedders", of_key("loadBalancerLoadSheddingStrategy")),
        ("placements", of_key("loadBalancerLoadPlacementStrategy")),
        (
            "placement strategies",
            of_key("loadBalancerLoadPlacementStrategy"),
        ),
        ("golden scenarios", golden),
        ("views", ViewKind::ALL.len()),
    ];
    let mut wrong = Vec::new();
    let mut seen = 0;
    for page in pages() {
        if page.components().any(|c| c.as_os_str() == "perf-log") || page.ends_with("CHANGELOG.md") {
            continue;
        }
        let text = words(&read(&page));
        for (noun, real) in counts {
            for quoted in quoted_counts(&text, noun) {
                seen += 1;
                if quoted != real {
                    wrong.push(format!(
                        "{}: \"{quoted} {noun}\", but there are {real}",
                        shown(&page)
                    ));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "counts that drifted:\n{}", wrong.join("\n"));
    assert!(seen >= 6, "only {seen} counts found: is the reader right?");
}

/// The text with every run of whitespace as one space (so a phrase may wrap).
fn words(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The numbers written just before `noun` (as digits or as a word up to twelve).
fn quoted_counts(text: &str, noun: &str) -> Vec<usize> {
    const WORDS: [&str; 13] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
        "twelve",
    ];
    let mut out = Vec::new();
    let needle = format!(" {noun}");
    let mut from = 0;
    while let Some(i) = text[from..].find(&needle) {
        let at = from + i;
        from = at + needle.len();
        let after = text[from..].chars().next();
        if after.is_some_and(|c| c.is_alphanumeric()) {
            continue;
        }
        let before = text[..at].rsplit(' ').next().unwrap_or("");
        let before = before.trim_start_matches(|c: char| !c.is_alphanumeric());
        if let Ok(n) = before.replace(',', "").parse::<usize>() {
            out.push(n);
        } else if let Some(n) = WORDS.iter().position(|w| before.eq_ignore_ascii_case(w)) {
            out.push(n);
        }
    }
    out
}

#[test]
fn the_reader_of_counts_finds_digits_and_words() {
    let text = "Pulsar's 5 shedders, the five shedders and 3 placement strategies; the views";
    assert_eq!(quoted_counts(text, "shedders"), vec![5, 5]);
    assert_eq!(quoted_counts(text, "placement strategies"), vec![3]);
    assert_eq!(quoted_counts(text, "views"), Vec::<usize>::new());
    assert_eq!(
        slug("Heavy scenarios: the opening in parts"),
        "heavy-scenarios-the-opening-in-parts"
    );
    assert_eq!(slug("Where the wasm's bytes go"), "where-the-wasms-bytes-go");
    assert_eq!(
        links("see [a](x.md) and `[b](y.md)` and ![c\nd](img/e.svg)"),
        vec!["x.md", "img/e.svg"]
    );
}
