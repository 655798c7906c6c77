//! Differential check for engine refactors: random Pulsar action sequences
//! (brokers joining and crashing, namespaces, topics, traffic, splits, unloads,
//! configs of both load managers and every shedder, phases and Steps), one
//! line per sequence with a hash of every event (Debug and narration), every
//! refusal, and the final state and views. Build it at two commits and compare:
//! `cargo run --release --example pulsar_diff -- FROM TO LENGTH > a.txt`.
//! `KINDS=1` prints each event's kind on stderr (to see what a run covers).
use lbscope::engine::{pulsar, Engine, Narrate};
use pulsar::traffic::Traffic;
use std::hash::{DefaultHasher, Hash, Hasher};

struct R(u64);
impl R {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn n(&mut self, k: u64) -> u64 {
        self.next() % k
    }
}

fn action(r: &mut R) -> pulsar::Action {
    use pulsar::Action as A;
    let b = format!("b{}", r.n(7));
    let ns = format!("t/ns{}", r.n(3));
    let traffic = |r: &mut R| Traffic {
        msg_rate_in: (r.n(40000)) as f64 / 3.0,
        msg_rate_out: (r.n(40000)) as f64 / 7.0,
        throughput_in: (r.n(60_000_000)) as f64,
        throughput_out: (r.n(60_000_000)) as f64 / 3.0,
        producers: r.n(700) as u32,
        consumers: r.n(700) as u32,
    };
    match r.n(24) {
        0 | 1 => A::AddBroker {
            broker: b,
            capacity: Default::default(),
        },
        2 => A::CrashBroker { broker: b },
        3 => A::RestoreBroker { broker: b },
        4 => A::CreateNamespace {
            namespace: ns,
            bundles: Some([1u32, 2, 4, 8, 16][r.n(5) as usize]),
        },
        5 | 6 => A::CreateTopics {
            namespace: ns,
            prefix: format!("p{}", r.n(10)),
            count: r.n(300) as u32,
            traffic: traffic(r),
        },
        7 => A::CreateTopicWithHash {
            topic: format!("{ns}/h{}", r.n(1000)),
            hash: r.next() as u32,
        },
        8 => A::CreatePartitionedTopic {
            topic: format!("{ns}/q{}", r.n(1000)),
            partitions: 1 + r.n(9) as u32,
        },
        9 => A::SetTopicTraffic {
            topic: format!("{ns}/p{}-{}", r.n(10), r.n(50)),
            traffic: traffic(r),
        },
        10 => A::SetBundleLoad {
            bundle: format!(
                "{ns}/0x00000000_0x{:08x}",
                [0x20000000u32, 0x40000000, 0x80000000, 0xffffffff][r.n(4) as usize]
            ),
            load: if r.n(2) == 0 { Some(traffic(r)) } else { None },
        },
        11 => A::SplitBundle {
            namespace: ns,
            bundle: ["LARGEST", "HOT", "0x00000000_0x40000000"][r.n(3) as usize].into(),
            algorithm: None,
            boundaries: vec![],
            unload: r.n(2) == 0,
        },
        12 => A::Unload {
            namespace: ns,
            bundle: None,
            destination: if r.n(2) == 0 { Some(b) } else { None },
        },
        13 => {
            use pulsar::config::{LoadManager, SheddingStrategy as S};
            let c = pulsar::Config {
                load_manager_class_name: if r.n(2) == 0 {
                    LoadManager::Modular
                } else {
                    LoadManager::Extensible
                },
                load_balancer_load_shedding_strategy: [
                    S::OverloadShedder,
                    S::ThresholdShedder,
                    S::UniformLoadShedder,
                    S::TransferShedder,
                    S::AvgShedder,
                ][r.n(5) as usize],
                load_balancer_namespace_maximum_bundles: [4, 16, 128][r.n(3) as usize],
                load_balancer_report_update_threshold_percentage: [1.0, 10.0, 50.0][r.n(3) as usize],
                lower_boundary_shedding_enabled: r.n(2) == 0,
                ..pulsar::Config::profile(pulsar::config::Profile::Pulsar4)
            };
            A::whole_config(&c)
        }
        14 => A::SetBrokerLoad {
            broker: b,
            usage: pulsar::broker::DirectUsage {
                cpu: Some(r.n(100) as f64),
                ..Default::default()
            },
        },
        15 => A::Report,
        16 => A::Split,
        17 => A::Shed,
        18 => A::Assign,
        _ => A::Step,
    }
}

fn main() {
    let a: Vec<u64> = std::env::args().skip(1).filter_map(|s| s.parse().ok()).collect();
    let (from, to, len) = (a[0], a[1], a[2] as usize);
    for seed in from..to {
        let mut r = R(seed.wrapping_mul(0x9e3779b97f4a7c15) | 1);
        let mut s =
            pulsar::Sim::new(pulsar::Config::profile(pulsar::config::Profile::Pulsar4), seed).unwrap();
        let mut h = DefaultHasher::new();
        for _ in 0..len {
            let act = action(&mut r);
            match s.apply(&act) {
                Ok(ev) => {
                    for e in &ev {
                        if std::env::var_os("KINDS").is_some() {
                            eprintln!("{}", serde_json::to_value(e).unwrap()["kind"]);
                        }
                        format!("{e:?}").hash(&mut h);
                        e.narrate().hash(&mut h);
                    }
                }
                Err(e) => e.to_string().hash(&mut h),
            }
        }
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
        format!("{:?}{:?}", s.broker_views(), s.broker_loads()).hash(&mut h);
        println!("{seed} {:016x}", h.finish());
    }
}
