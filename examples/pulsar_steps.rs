//! Profiling driver: build the benchmark's Pulsar cluster, then run Steps.
//! `cargo run --release --example pulsar_steps -- TOPICS WARMUP STEPS`
//! (defaults 200000 10 5). Prints per-Step time and event counts by kind; under
//! `valgrind --tool=callgrind --collect-atstart=no --toggle-collect='pulsar_steps::timed_step'`
//! only the Steps are counted; add `--instr-atstart=no` to run the setup and
//! the warm-up uninstrumented.
//! `JITTER=10` adds a ±10 % jitter pattern on every topic; `PHASES=1` prints
//! each phase's time ([`pulsar::Phase`]) after every timed Step; `ALLOCS=1`
//! prints how many allocations (and bytes) each timed Step made.

use lbscope::engine::{pulsar, Engine};
use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Instant;

/// The system allocator, counting allocations and the bytes asked for (`ALLOCS=1`).
struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);
static ALLOCATED: AtomicU64 = AtomicU64::new(0);

// SAFETY: every call is passed on to the system allocator unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Relaxed);
        ALLOCATED.fetch_add(l.size() as u64, Relaxed);
        // SAFETY: the caller's contract for `alloc`, passed on.
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        // SAFETY: the caller's contract for `dealloc`, passed on.
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Relaxed);
        ALLOCATED.fetch_add(n as u64, Relaxed);
        // SAFETY: the caller's contract for `realloc`, passed on.
        unsafe { System.realloc(p, l, n) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// Valgrind's client request `CALLGRIND_START_INSTRUMENTATION` (a no-op
/// natively): with `--instr-atstart=no` the setup runs uninstrumented, which is
/// about ten times faster under callgrind.
#[cfg(target_arch = "x86_64")]
fn callgrind_start_instrumentation() {
    let args: [u64; 6] = [0x4354_0004, 0, 0, 0, 0, 0];
    // SAFETY: the rotations leave rdi as it was and `xchg rbx, rbx` is a no-op;
    // only valgrind gives the sequence a meaning (it reads `args` through rax).
    unsafe {
        std::arch::asm!(
            "rol rdi, 3", "rol rdi, 13", "rol rdi, 61", "rol rdi, 51", "xchg rbx, rbx",
            inout("rdx") 0u64 => _, in("rax") args.as_ptr(), inout("rdi") 0u64 => _,
        );
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn callgrind_start_instrumentation() {}

fn step(s: &mut pulsar::Sim) -> Vec<pulsar::Event> {
    s.apply(&pulsar::Action::Step).expect("Step")
}

/// The Steps callgrind counts (`--toggle-collect='pulsar_steps::timed_step'`).
#[inline(never)]
fn timed_step(s: &mut pulsar::Sim) -> Vec<pulsar::Event> {
    step(s)
}

fn main() {
    let a: Vec<u64> = std::env::args().skip(1).filter_map(|s| s.parse().ok()).collect();
    let topics = a.first().copied().unwrap_or(200_000) as u32;
    let warmup = a.get(1).copied().unwrap_or(10);
    let steps = a.get(2).copied().unwrap_or(5);
    let t = Instant::now();
    let mut s = lbscope::bench::pulsar_cluster(1000, topics, 16_384);
    eprintln!("setup {:.0} ms", t.elapsed().as_secs_f64() * 1e3);
    // CONFIG='{"loadManagerClassName": ..}': another config (JSON, defaults for
    // the keys left out) for the Steps.
    if let Ok(json) = std::env::var("CONFIG") {
        let config: pulsar::Config = serde_json::from_str(&json).expect("CONFIG is a Pulsar config");
        s.apply(&pulsar::Action::whole_config(&config)).expect("config");
    }
    // JITTER=P: a ±P % jitter pattern on every topic (every topic's traffic
    // changes every round, as in the benchmark's jitter rows).
    if let Some(p) = std::env::var("JITTER").ok().and_then(|p| p.parse::<f64>().ok()) {
        s.apply(&pulsar::Action::AddWorkload {
            pattern: pulsar::workload::Pattern {
                target: pulsar::workload::Target::All,
                shape: pulsar::workload::Shape::Jitter { percent: p },
            },
        })
        .expect("jitter pattern");
    }
    // DIGEST=1: a hash of every Step's events (Debug and narration) and of the
    // final state, to check that a change keeps the engine's output identical.
    let digest = std::env::var_os("DIGEST").is_some();
    let mut h = std::hash::DefaultHasher::new();
    for i in 0..warmup + steps {
        if i == warmup {
            callgrind_start_instrumentation();
        }
        let allocs = (ALLOCATIONS.load(Relaxed), ALLOCATED.load(Relaxed));
        let t = Instant::now();
        let mut phases = Vec::new();
        let ev = if std::env::var_os("PHASES").is_some() {
            let mut at = Instant::now();
            s.step_marked(|p| {
                phases.push(format!("{} {:.2}", p.name(), at.elapsed().as_secs_f64() * 1e3));
                at = Instant::now();
            })
        } else if i >= warmup {
            timed_step(&mut s)
        } else {
            step(&mut s)
        };
        let d = t.elapsed().as_secs_f64() * 1e3;
        if i >= warmup && !phases.is_empty() {
            eprintln!("  phases (ms): {}", phases.join(", "));
        }
        if i >= warmup && std::env::var_os("ALLOCS").is_some() {
            eprintln!(
                "  allocations: {} ({} KiB)",
                ALLOCATIONS.load(Relaxed) - allocs.0,
                (ALLOCATED.load(Relaxed) - allocs.1) / 1024
            );
        }
        if digest {
            use lbscope::engine::Narrate;
            use std::hash::Hash;
            for e in &ev {
                format!("{e:?}").hash(&mut h);
                e.narrate().hash(&mut h);
            }
        }
        if i >= warmup {
            let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
            for e in &ev {
                let k = serde_json::to_value(e)
                    .ok()
                    .and_then(|v| v["kind"].as_str().map(String::from));
                *kinds.entry(k.unwrap_or_default()).or_default() += 1;
            }
            eprintln!("step {i}: {d:.2} ms, {} events {kinds:?}", ev.len());
            if std::env::var_os("NARRATE").is_some() {
                use lbscope::engine::Narrate;
                for e in ev.iter().take(40) {
                    eprintln!("  {}", e.narrate());
                }
            }
        }
    }
    if digest {
        use std::hash::{Hash, Hasher};
        let events = h.finish();
        // The state through its public views (not `Sim`'s Debug, which shows
        // internal caches too).
        format!(
            "{:?}{:?}{:?}{:?}{:?}{:?}",
            s.namespaces(),
            s.bundles(),
            s.brokers(),
            s.load_data(),
            s.metrics(),
            s.leader()
        )
        .hash(&mut h);
        eprintln!("digest: events {events:016x}, events+state {:016x}", h.finish());
    }
}
