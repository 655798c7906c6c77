//! Namespace isolation policies, anti-affinity groups, failure domains,
//! shedding-excluded namespaces, legacy topic names and brokers without a load
//! report, through the engine's actions. Test names follow the upstream test
//! they mirror; each says where its expected values come from.

use crate::support::pulsar as pulsar_util;

use lbscope::engine::pulsar::config::{LoadManager, Profile, SheddingStrategy};
use lbscope::engine::pulsar::isolation::{AutoFailoverPolicy, UnloadScope};
use lbscope::engine::pulsar::place::{PlaceEvent, PlacementFilter};
use lbscope::engine::pulsar::shed::ShedEvent;
use lbscope::engine::pulsar::{Action, Config, Error, Event, Sim};
use lbscope::engine::{Engine, Narrate};
use pulsar_util::refused;
use std::collections::BTreeSet;

/// The 4.x profile these cases were written for (ThresholdShedder, LeastLongTermMessageRate).
fn config(lm: LoadManager) -> Config {
    Config {
        load_manager_class_name: lm,
        ..Config::profile(lbscope::engine::pulsar::config::Profile::Pulsar4)
    }
}

fn sim(config: Config, brokers: &[&str]) -> Sim {
    let mut s = Sim::new(config, 42).unwrap();
    for b in brokers {
        s.apply(&Action::AddBroker {
            broker: b.to_string(),
            capacity: Default::default(),
        })
        .unwrap();
    }
    s
}

fn ns(s: &mut Sim, name: &str, bundles: u32) {
    s.apply(&Action::CreateNamespace {
        namespace: name.into(),
        bundles: Some(bundles),
    })
    .unwrap();
}

fn topic(s: &mut Sim, name: &str) -> Vec<Event> {
    s.apply(&Action::CreateTopic { topic: name.into() }).unwrap()
}

fn pinned(s: &mut Sim, name: &str, hash: u32) -> Vec<Event> {
    s.apply(&Action::CreateTopicWithHash {
        topic: name.into(),
        hash,
    })
    .unwrap()
}

fn owner(s: &Sim, t: &str) -> Option<String> {
    s.owner_of_topic(t).map(|b| b.0.to_string())
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

fn policy(name: &str, namespaces: &[&str], primary: &[&str], secondary: &[&str], min_limit: u32) -> Action {
    Action::NsIsolationPolicySet {
        policy: name.into(),
        namespaces: strings(namespaces),
        primary: strings(primary),
        secondary: strings(secondary),
        auto_failover_policy: AutoFailoverPolicy::MinAvailable {
            min_limit,
            usage_threshold: 80,
        },
        unload_scope: None,
    }
}

fn group(s: &mut Sim, namespace: &str, g: &str) {
    s.apply(&Action::SetAntiAffinityGroup {
        namespace: namespace.into(),
        group: g.into(),
    })
    .unwrap();
}

fn domain(s: &mut Sim, d: &str, brokers: &[&str]) {
    s.apply(&Action::CreateFailureDomain {
        domain: d.into(),
        brokers: strings(brokers),
    })
    .unwrap();
}

/// The brokers each filter removed, in event order.
fn filtered(ev: &[Event]) -> Vec<(PlacementFilter, Vec<String>)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Place(PlaceEvent::Filtered { filter, removed, .. }) => {
                Some((*filter, removed.iter().map(|b| b.0.to_string()).collect()))
            }
            _ => None,
        })
        .collect()
}

fn lookups(ev: &[Event]) -> Vec<(String, String)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Lookup { bundle, broker, .. } => Some((bundle.to_string(), broker.0.to_string())),
            _ => None,
        })
        .collect()
}

fn no_broker(ev: &[Event]) -> bool {
    ev.iter().any(|e| matches!(e, Event::NoBrokerAvailable { .. }))
}

/// Mirrors `ExtensibleLoadManagerTest.testIsolationPolicy`: primary broker 0,
/// secondary broker 1, `min_limit` 1, `usage_threshold` 100. The topic goes to
/// broker 0; with broker 0 down to broker 1; with both down the lookup fails.
/// Expected owners from its assertions; the modular manager gives the same.
#[test]
fn extensible_load_manager_test_test_isolation_policy() {
    for lm in [LoadManager::Extensible, LoadManager::Modular] {
        let brokers = ["pulsar-broker-0", "pulsar-broker-1", "pulsar-broker-2"];
        let mut s = sim(config(lm), &brokers);
        ns(&mut s, "public/my-isolation-policy", 1);
        s.apply(&Action::NsIsolationPolicySet {
            policy: "my-isolation-policy".into(),
            namespaces: strings(&["public/my-isolation-policy"]),
            primary: strings(&["pulsar-broker-0"]),
            secondary: strings(&["pulsar-broker-1"]),
            auto_failover_policy: AutoFailoverPolicy::MinAvailable {
                min_limit: 1,
                usage_threshold: 100,
            },
            unload_scope: None,
        })
        .unwrap();
        let t = "persistent://public/my-isolation-policy/topic";
        let ev = topic(&mut s, t);
        assert_eq!(owner(&s, t).as_deref(), Some("pulsar-broker-0"), "{lm:?}");
        let filter = if lm == LoadManager::Extensible {
            PlacementFilter::BrokerIsolationPoliciesFilter
        } else {
            PlacementFilter::ApplyNamespacePolicies
        };
        assert_eq!(
            filtered(&ev),
            vec![(filter, strings(&["pulsar-broker-1", "pulsar-broker-2"]))],
            "{lm:?}"
        );
        s.apply(&Action::CrashBroker {
            broker: "pulsar-broker-0".into(),
        })
        .unwrap();
        s.apply(&Action::Assign).unwrap();
        assert_eq!(owner(&s, t).as_deref(), Some("pulsar-broker-1"), "{lm:?}");
        s.apply(&Action::CrashBroker {
            broker: "pulsar-broker-1".into(),
        })
        .unwrap();
        let ev = s.apply(&Action::Assign).unwrap();
        assert_eq!(owner(&s, t), None, "{lm:?}");
        assert!(no_broker(&ev), "{lm:?}: broker 2 is shared, not a candidate");
    }
}

/// Mirrors `ExtensibleLoadManagerTest.testAntiAffinityPolicy`: one namespace per
/// broker, all in one anti-affinity group, one failure domain per broker; each
/// namespace's partitioned topic lands on a single broker, and the namespaces on
/// as many different brokers as there are. Expected sizes from its assertions.
#[test]
fn extensible_load_manager_test_test_anti_affinity_policy() {
    for lm in [LoadManager::Extensible, LoadManager::Modular] {
        let brokers = ["pulsar-broker-0", "pulsar-broker-1", "pulsar-broker-2"];
        let mut s = sim(
            Config {
                failure_domains_enabled: true,
                ..config(lm)
            },
            &brokers,
        );
        let mut result = BTreeSet::new();
        for (i, b) in brokers.iter().enumerate() {
            let n = format!("public/my-ns-filter-{i}");
            ns(&mut s, &n, 1);
            group(&mut s, &n, "my-anti-affinity-filter");
            domain(&mut s, &format!("domain-{i}"), &[b]);
        }
        for i in 0..brokers.len() {
            let t = format!("persistent://public/my-ns-filter-{i}/topic");
            s.apply(&Action::CreatePartitionedTopic {
                topic: t.clone(),
                partitions: 20,
            })
            .unwrap();
            let owners: BTreeSet<String> = (0..20)
                .map(|p| owner(&s, &format!("{t}-partition-{p}")).unwrap())
                .collect();
            assert_eq!(owners.len(), 1, "{lm:?}");
            result.extend(owners);
        }
        assert_eq!(result.len(), brokers.len(), "{lm:?}");
    }
}

/// Mirrors `AntiAffinityNamespaceGroupExtensionTest.testAntiAffinityGroupPolicyFilter`
/// (Pulsar has no separate `AntiAffinityGroupPolicyFilterTest`): a namespace
/// without a group is not filtered; once a namespace of the group owns a bundle
/// on a broker, that broker is filtered out for its next bundle. Expected sets
/// from its assertions.
#[test]
fn anti_affinity_namespace_group_extension_test_test_anti_affinity_group_policy_filter() {
    let mut s = sim(
        config(LoadManager::Extensible),
        &["broker-a", "broker-b", "broker-c"],
    );
    ns(&mut s, "my-tenant/test/my-ns-filter", 2);
    ns(&mut s, "my-tenant/test/my-ns-filter-antiaffinity-enabled", 2);
    group(
        &mut s,
        "my-tenant/test/my-ns-filter-antiaffinity-enabled",
        "my-antiaffinity-filter",
    );
    let ev = pinned(&mut s, "persistent://my-tenant/test/my-ns-filter/t0", 1);
    assert!(filtered(&ev).is_empty());
    let first = "persistent://my-tenant/test/my-ns-filter-antiaffinity-enabled/my-topic1";
    pinned(&mut s, first, 1);
    let src = owner(&s, first).unwrap();
    let second = "persistent://my-tenant/test/my-ns-filter-antiaffinity-enabled/t2";
    let ev = pinned(&mut s, second, 0x8000_0001);
    assert_eq!(
        filtered(&ev),
        vec![(PlacementFilter::AntiAffinityGroupPolicyFilter, vec![src.clone()])]
    );
    assert_ne!(owner(&s, second), Some(src));
}

/// Mirrors `AntiAffinityNamespaceGroupTest.testBrokerSelectionForAntiAffinityGroup`
/// (modular) and its extension variant: two brokers in two failure domains, two
/// legacy namespaces in one group: they get different brokers (its assertion).
#[test]
fn anti_affinity_namespace_group_test_test_broker_selection_for_anti_affinity_group() {
    for lm in [LoadManager::Modular, LoadManager::Extensible] {
        let mut s = sim(
            Config {
                failure_domains_enabled: true,
                ..config(lm)
            },
            &["broker1", "broker2"],
        );
        domain(&mut s, "domain1", &["broker1"]);
        domain(&mut s, "domain2", &["broker2"]);
        for n in ["tenant-x/use/ns1", "tenant-x/use/ns2"] {
            ns(&mut s, n, 1);
            group(&mut s, n, "group");
        }
        topic(&mut s, "persistent://tenant-x/use/ns1/t");
        topic(&mut s, "persistent://tenant-x/use/ns2/t");
        let (a, b) = (
            owner(&s, "persistent://tenant-x/use/ns1/t"),
            owner(&s, "persistent://tenant-x/use/ns2/t"),
        );
        assert!(a.is_some() && b.is_some());
        assert_ne!(a, b, "{lm:?}");
    }
}

/// The modular manager counts *namespaces* of the group per broker, the
/// extensible one *bundles* (derived by reading the two
/// `LoadManagerShared.getAntiAffinityNamespaceOwnedBrokers` overloads): a
/// grouped namespace with two bundles on broker-1 and one on broker-2 keeps both
/// candidates for the modular manager (1 namespace each) but only broker-2 for
/// the extensible one (2 bundles vs 1).
#[test]
fn anti_affinity_counts_namespaces_modular_bundles_extensible() {
    for (lm, want) in [(LoadManager::Modular, 2usize), (LoadManager::Extensible, 1usize)] {
        let mut s = sim(config(lm), &["broker-1", "broker-2"]);
        let n = "t/grouped";
        ns(&mut s, n, 4);
        group(&mut s, n, "g");
        for (i, b) in [(0u32, "broker-1"), (1, "broker-1"), (2, "broker-2")] {
            pinned(&mut s, &format!("{n}/t{i}"), i * 0x4000_0000 + 1);
            let at = owner(&s, &format!("{n}/t{i}")).unwrap();
            if at != b {
                s.apply(&Action::Unload {
                    namespace: n.into(),
                    bundle: Some(format!(
                        "0x{:08x}_0x{:08x}",
                        i * 0x4000_0000,
                        (i + 1) * 0x4000_0000
                    )),
                    destination: Some(b.into()),
                })
                .unwrap();
                s.apply(&Action::Assign).unwrap();
            }
            assert_eq!(owner(&s, &format!("{n}/t{i}")).as_deref(), Some(b));
        }
        let mut c = s.config().clone();
        c.load_balancer_distribute_bundles_evenly_enabled = false;
        s.apply(&Action::whole_config(&c)).unwrap();
        let ev = pinned(&mut s, &format!("{n}/t3"), 0xC000_0001);
        let cands = ev.iter().find_map(|e| match e {
            Event::Lookup { candidates, .. } => Some(candidates.0),
            _ => None,
        });
        assert_eq!(cands, Some(want), "{lm:?}");
    }
}

/// Mirrors `ModularLoadManagerImplTest.testMaxTopicDistributionToBroker`: once a
/// broker serves more than `loadBalancerBrokerMaxTopics` topics, new bundles go
/// elsewhere (its assertion); distribute-evenly is off so only this filter acts.
#[test]
fn modular_load_manager_impl_test_test_max_topic_distribution_to_broker() {
    let mut s = sim(
        Config {
            load_balancer_broker_max_topics: 2,
            load_balancer_distribute_bundles_evenly_enabled: false,
            ..config(LoadManager::Modular)
        },
        &["broker-1", "broker-2"],
    );
    ns(&mut s, "test/test/test", 16);
    for i in 0..3 {
        pinned(&mut s, &format!("persistent://test/test/test/big-{i}"), i + 1);
    }
    let max_owner = owner(&s, "persistent://test/test/test/big-0").unwrap();
    // Its report now counts 3 topics > 2.
    s.apply(&Action::Report).unwrap();
    for i in 1..16u32 {
        let t = format!("persistent://test/test/test/t{i}");
        let ev = pinned(&mut s, &t, (i << 28) + 1);
        assert_ne!(owner(&s, &t).unwrap(), max_owner, "bundle {i}");
        assert_eq!(
            filtered(&ev),
            vec![(
                PlacementFilter::FilterBrokersWithLargeTopicCount,
                vec![max_owner.clone()]
            )]
        );
    }
}

/// Item A: the extensible `BrokerMaxTopicCountFilter` removes every broker whose
/// reported topic count is ≥ `loadBalancerBrokerMaxTopics`, with no fall-back,
/// so a lookup can find no owner; the modular filter keeps brokers at the
/// maximum and falls back to all (derived by reading both classes).
#[test]
fn broker_max_topic_count_filter_has_no_fallback() {
    for lm in [LoadManager::Extensible, LoadManager::Modular] {
        let mut s = sim(
            Config {
                load_balancer_broker_max_topics: 1,
                ..config(lm)
            },
            &["broker-1", "broker-2"],
        );
        ns(&mut s, "t/n", 4);
        pinned(&mut s, "t/n/a", 1);
        pinned(&mut s, "t/n/b", 0x4000_0001);
        let a = owner(&s, "t/n/a").unwrap();
        let b = owner(&s, "t/n/b").unwrap();
        assert_ne!(a, b, "distribute-evenly / random spread");
        s.apply(&Action::Report).unwrap();
        let ev = pinned(&mut s, "t/n/c", 0x8000_0001);
        match lm {
            LoadManager::Extensible => {
                assert!(no_broker(&ev), "both report 1 topic ≥ 1");
                assert_eq!(filtered(&ev)[0].0, PlacementFilter::BrokerMaxTopicCountFilter);
            }
            LoadManager::Modular => {
                // 1 topic ≤ 1: nobody is removed; the bundle is placed.
                assert!(!no_broker(&ev));
                assert!(owner(&s, "t/n/c").is_some());
            }
        }
    }
}

/// `loadBalancerSheddingExcludedNamespaces` (PIP-380): bundles of such a
/// namespace are placed by `RoundRobinBrokerSelector` (derived by reading
/// `ModularLoadManagerImpl.selectBroker` and the selector): the candidates in
/// name order, in turn, whatever their load.
#[test]
fn shedding_excluded_namespaces_are_placed_round_robin() {
    for lm in [LoadManager::Modular, LoadManager::Extensible] {
        let mut s = sim(
            Config {
                load_balancer_distribute_bundles_evenly_enabled: false,
                load_balancer_shedding_excluded_namespaces: vec!["t/excluded".into()],
                ..config(lm)
            },
            &["b1", "b2", "b3"],
        );
        ns(&mut s, "t/excluded", 6);
        let mut owners = Vec::new();
        for i in 0..6u32 {
            let t = format!("t/excluded/t{i}");
            let ev = pinned(&mut s, &t, i * 0x2AAA_AAAA + 1);
            assert!(ev
                .iter()
                .any(|e| matches!(e, Event::Place(PlaceEvent::RoundRobin { index, .. }) if *index == i as usize % 3)));
            owners.push(owner(&s, &t).unwrap());
        }
        assert_eq!(owners, ["b1", "b2", "b3", "b1", "b2", "b3"], "{lm:?}");
    }
}

/// Drive a modular cluster where `hot` is far busier than `cold` until the
/// ThresholdShedder has had two chances to shed; returns every event.
fn shed_rounds(s: &mut Sim, hot: &str, cold: &str) -> Vec<Event> {
    for (b, cpu) in [(hot, 90.0), (cold, 10.0)] {
        s.apply(&Action::SetBrokerLoad {
            broker: b.into(),
            usage: lbscope::engine::pulsar::broker::DirectUsage {
                cpu: Some(cpu),
                ..Default::default()
            },
        })
        .unwrap();
    }
    let mut ev = Vec::new();
    for _ in 0..3 {
        ev.extend(s.apply(&Action::Step).unwrap());
    }
    ev
}

fn heavy(s: &mut Sim, t: &str, hash: u32) {
    pinned(s, t, hash);
    s.apply(&Action::SetTopicTraffic {
        topic: t.into(),
        traffic: pulsar_util::traffic(1000.0, 30.0, 2, 2),
    })
    .unwrap();
}

fn skipped(ev: &[Event], bundle_prefix: &str) -> Vec<String> {
    ev.iter()
        .filter_map(|e| match e {
            Event::UnloadSkipped { bundle, reason } if bundle.to_string().starts_with(bundle_prefix) => {
                Some(reason.to_string())
            }
            _ => None,
        })
        .collect()
}

fn unloaded(ev: &[Event], bundle_prefix: &str) -> usize {
    ev.iter()
        .filter(
            |e| matches!(e, Event::Unloaded { bundle, .. } if bundle.to_string().starts_with(bundle_prefix)),
        )
        .count()
}

/// Put the one-bundle namespace `ns` on `broker` (`unload -d`, then a lookup).
fn move_to(s: &mut Sim, ns: &str, broker: &str) {
    let b = s
        .bundles()
        .iter()
        .find(|(b, _)| b.namespace.as_str() == ns)
        .map(|(b, st)| (b.range.name(), st.owner().map(|o| o.0.clone())))
        .unwrap();
    if b.1.as_deref() != Some(broker) {
        s.apply(&Action::Unload {
            namespace: ns.into(),
            bundle: Some(b.0),
            destination: Some(broker.into()),
        })
        .unwrap();
        s.apply(&Action::Assign).unwrap();
    }
}

/// `hot` owns the heavy one-bundle namespace `heavy_ns` and a light bundle of
/// `t/light`, so a shedder can pick the heavy bundle without it being `hot`'s
/// sole bundle.
fn hot_with(s: &mut Sim, heavy_ns: &str, hot: &str) {
    ns(s, "t/light", 1);
    pinned(s, "t/light/a", 1);
    s.apply(&Action::SetTopicTraffic {
        topic: "t/light/a".into(),
        traffic: pulsar_util::traffic(10.0, 0.1, 1, 1),
    })
    .unwrap();
    move_to(s, "t/light", hot);
    move_to(s, heavy_ns, hot);
}

/// `ModularLoadManagerImpl.doLoadShedding` skips the bundles of a
/// shedding-excluded namespace that a shedder picked (derived by reading it).
#[test]
fn modular_load_manager_impl_do_load_shedding_skips_excluded_namespaces() {
    let mut s = sim(
        Config {
            load_balancer_shedding_excluded_namespaces: vec!["t/kop".into()],
            ..config(LoadManager::Modular)
        },
        &["b1", "b2"],
    );
    ns(&mut s, "t/kop", 1);
    heavy(&mut s, "t/kop/a", 1);
    heavy(&mut s, "t/kop/b", 2);
    hot_with(&mut s, "t/kop", "b1");
    let ev = shed_rounds(&mut s, "b1", "b2");
    let reasons = skipped(&ev, "t/kop/");
    assert!(!reasons.is_empty(), "the shedder picked the excluded bundle");
    assert!(
        reasons[0].contains("loadBalancerSheddingExcludedNamespaces"),
        "{reasons:?}"
    );
    assert_eq!(unloaded(&ev, "t/kop/"), 0);
}

/// Mirrors `ModularLoadManagerImplTest.testLoadSheddingWithNamespaceIsolationPolicies`
/// at the cluster level: the isolated namespace's only allowed broker is its
/// owner, so the bundle the shedder picks stays (`shouldNamespacePoliciesUnload`
/// false).
#[test]
fn modular_load_manager_impl_test_test_load_shedding_with_namespace_isolation_policies() {
    let mut s = sim(config(LoadManager::Modular), &["broker1", "other"]);
    ns(&mut s, "my-tenant/use/my-ns", 1);
    s.apply(&policy(
        "p",
        &["my-tenant/use/my-ns.*"],
        &["broker1"],
        &["broker1"],
        1,
    ))
    .unwrap();
    heavy(&mut s, "persistent://my-tenant/use/my-ns/my-topic1", 1);
    assert_eq!(
        owner(&s, "persistent://my-tenant/use/my-ns/my-topic1").as_deref(),
        Some("broker1")
    );
    hot_with(&mut s, "my-tenant/use/my-ns", "broker1");
    let ev = shed_rounds(&mut s, "broker1", "other");
    let reasons = skipped(&ev, "my-tenant/use/my-ns/");
    assert!(!reasons.is_empty());
    assert!(
        reasons[0].contains("no broker but broker1 satisfies the namespace policies"),
        "{reasons:?}"
    );
    assert_eq!(unloaded(&ev, "my-tenant/use/my-ns/"), 0);
}

/// `shouldAntiAffinityNamespaceUnload` at the cluster level (derived by reading
/// it): two brokers each own one namespace of the group; moving either would
/// bring it onto a broker owning as many, so the shed bundle stays.
#[test]
fn modular_load_manager_impl_should_anti_affinity_namespace_unload_blocks_shedding() {
    let mut s = sim(config(LoadManager::Modular), &["b1", "b2"]);
    for n in ["t/g0", "t/g1"] {
        ns(&mut s, n, 1);
        group(&mut s, n, "pay");
    }
    heavy(&mut s, "t/g0/a", 1);
    heavy(&mut s, "t/g1/a", 1);
    move_to(&mut s, "t/g1", "b2");
    hot_with(&mut s, "t/g0", "b1");
    assert_eq!(owner(&s, "t/g0/a").as_deref(), Some("b1"));
    assert_eq!(owner(&s, "t/g1/a").as_deref(), Some("b2"));
    let ev = shed_rounds(&mut s, "b1", "b2");
    let reasons = skipped(&ev, "t/g0/");
    assert!(!reasons.is_empty());
    assert!(reasons[0].contains("anti-affinity group pay"), "{reasons:?}");
    assert_eq!(unloaded(&ev, "t/g0/"), 0);
}

/// Item F, modular: a broker whose first load report has not reached the leader
/// is left out by `applyNamespacePolicies` (the persistent-topics flag is in the
/// report; derived by reading `ModularLoadManagerImpl`'s
/// `brokerTopicLoadingPredicate`); after the next report it is a candidate.
/// Extensible: it is a candidate at once (`BrokerMaxTopicCountFilter` counts it
/// 0, LeastResourceUsageWithWeight leaves it out of the mean only).
#[test]
fn unreported_broker_as_a_placement_candidate() {
    // Modular.
    let mut s = sim(config(LoadManager::Modular), &["b1"]);
    s.apply(&Action::AddUnreportedBroker {
        broker: "b9".into(),
        capacity: Default::default(),
    })
    .unwrap();
    ns(&mut s, "t/n", 4);
    let ev = pinned(&mut s, "t/n/a", 1);
    assert_eq!(
        filtered(&ev),
        vec![(PlacementFilter::ApplyNamespacePolicies, strings(&["b9"]))]
    );
    assert!(ev.iter().any(|e| e.narrate().contains("no load report yet")));
    assert_eq!(owner(&s, "t/n/a").as_deref(), Some("b1"));
    s.apply(&Action::Report).unwrap();
    let ev = pinned(&mut s, "t/n/b", 0x4000_0001);
    // Reported now, and distribute-evenly prefers it.
    assert_eq!(owner(&s, "t/n/b").as_deref(), Some("b9"));
    assert!(filtered(&ev)
        .iter()
        .all(|(f, _)| *f != PlacementFilter::ApplyNamespacePolicies));

    // Extensible: the unreported broker is among the candidates.
    let mut s = sim(config(LoadManager::Extensible), &["b1"]);
    s.apply(&Action::AddUnreportedBroker {
        broker: "b9".into(),
        capacity: Default::default(),
    })
    .unwrap();
    ns(&mut s, "t/n", 8);
    let mut owners = BTreeSet::new();
    for i in 0..8u32 {
        let ev = pinned(&mut s, &format!("t/n/t{i}"), (i << 29) + 1);
        assert!(ev
            .iter()
            .any(|e| matches!(e, Event::Lookup { candidates, .. } if *candidates == (2, 2))));
        owners.insert(owner(&s, &format!("t/n/t{i}")).unwrap());
    }
    assert!(owners.contains("b9"), "{owners:?}");
}

/// Item F, modular with an isolation policy naming the unreported broker: it
/// passes `applyNamespacePolicies` (the policy case reads no report), and then
/// LeastLongTermMessageRate reads its missing load data: Pulsar throws, the
/// lookup fails; once it reports, the bundle is placed on it.
#[test]
fn unreported_primary_fails_the_modular_lookup_until_it_reports() {
    let mut s = sim(config(LoadManager::Modular), &["b1"]);
    s.apply(&Action::AddUnreportedBroker {
        broker: "iso-1".into(),
        capacity: Default::default(),
    })
    .unwrap();
    ns(&mut s, "t/iso", 1);
    s.apply(&policy("p", &["t/iso"], &["iso-.*"], &[], 1)).unwrap();
    let ev = pinned(&mut s, "t/iso/a", 1);
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::Place(PlaceEvent::MissingLoadData { .. }))));
    assert!(no_broker(&ev));
    s.apply(&Action::Report).unwrap();
    s.apply(&Action::Assign).unwrap();
    assert_eq!(owner(&s, "t/iso/a").as_deref(), Some("iso-1"));
}

/// `ns-isolation-policy set` unloads matching namespaces so they are placed again
/// (derived by reading `ClustersBase.filterAndUnloadMatchedNamespaceAsync`): by
/// default only namespaces matching added or removed regexes, all of the old and
/// new matches when the primary list changed or with `all_matching`, none with
/// `none`.
#[test]
fn ns_isolation_policy_set_unload_scope() {
    let mut s = sim(
        config(LoadManager::Modular),
        &["broker-1", "broker-2", "broker-3"],
    );
    for n in ["a/x", "a/y", "b/z"] {
        ns(&mut s, n, 2);
        pinned(&mut s, &format!("{n}/t0"), 1);
        pinned(&mut s, &format!("{n}/t1"), 0x8000_0001);
    }
    let unloading = |ev: &[Event]| -> Vec<String> {
        ev.iter()
            .find_map(|e| match e {
                Event::IsolationPolicySet { unloading, .. } => Some(unloading.clone()),
                _ => None,
            })
            .unwrap()
    };
    let ev = s.apply(&policy("p", &["a/.*"], &["broker-1"], &[], 1)).unwrap();
    assert_eq!(unloading(&ev), ["a/x", "a/y"]);
    s.apply(&Action::Assign).unwrap();
    for n in ["a/x", "a/y"] {
        assert_eq!(owner(&s, &format!("{n}/t0")).as_deref(), Some("broker-1"));
        assert_eq!(owner(&s, &format!("{n}/t1")).as_deref(), Some("broker-1"));
    }
    // The same regexes and primaries: nothing changed, nothing unloaded.
    let ev = s
        .apply(&policy("p", &["a/.*"], &["broker-1"], &["broker-2"], 1))
        .unwrap();
    assert!(unloading(&ev).is_empty());
    // A regex added: only its namespaces.
    let ev = s
        .apply(&policy("p", &["a/.*", "b/.*"], &["broker-1"], &[], 1))
        .unwrap();
    assert_eq!(unloading(&ev), ["b/z"]);
    // The primary list changed: every namespace of the old and new regexes.
    let ev = s
        .apply(&policy("p", &["a/.*", "b/.*"], &["broker-2"], &[], 1))
        .unwrap();
    assert_eq!(unloading(&ev), ["a/x", "a/y", "b/z"]);
    let mut none = policy("p", &["a/x"], &["broker-3"], &[], 1);
    if let Action::NsIsolationPolicySet { unload_scope, .. } = &mut none {
        *unload_scope = Some(UnloadScope::None);
    }
    assert!(unloading(&s.apply(&none).unwrap()).is_empty());
    let mut all = policy("p", &["a/x"], &["broker-3"], &[], 1);
    if let Action::NsIsolationPolicySet { unload_scope, .. } = &mut all {
        *unload_scope = Some(UnloadScope::AllMatching);
    }
    assert_eq!(unloading(&s.apply(&all).unwrap()), ["a/x"]);
}

/// Bad input is refused with a clear message and leaves the state unchanged.
#[test]
fn policy_actions_refuse_bad_input() {
    let mut s = sim(config(LoadManager::Modular), &["broker-1", "broker-2"]);
    ns(&mut s, "t/n", 1);
    let e = refused(&mut s, policy("p", &["t/n"], &["broker-[1"], &[], 1));
    assert!(e.to_string().contains("does not compile"), "{e}");
    let e = refused(&mut s, policy("p", &["t/(n"], &["broker-1"], &[], 1));
    assert!(e.to_string().contains("does not compile"), "{e}");
    let e = refused(&mut s, policy("p", &["t/n"], &["(?<=x)b"], &[], 1));
    assert!(e.to_string().contains("does not compile"), "{e}");
    let e = refused(&mut s, policy("p", &[], &["broker-1"], &[], 1));
    assert!(e.to_string().contains("namespace"), "{e}");
    let e = refused(&mut s, policy("p", &["t/n"], &[], &[], 1));
    assert!(e.to_string().contains("primary"), "{e}");
    let e = refused(&mut s, policy(" ", &["t/n"], &["broker-1"], &[], 1));
    assert!(e.to_string().contains("name"), "{e}");
    refused(
        &mut s,
        Action::NsIsolationPolicyDelete {
            policy: "nope".into(),
        },
    );
    let e = refused(
        &mut s,
        Action::SetAntiAffinityGroup {
            namespace: "t/none".into(),
            group: "g".into(),
        },
    );
    assert!(matches!(e, Error::NoSuchNamespace(_)));
    refused(
        &mut s,
        Action::SetAntiAffinityGroup {
            namespace: "t/n".into(),
            group: "  ".into(),
        },
    );
    refused(
        &mut s,
        Action::DeleteAntiAffinityGroup {
            namespace: "t/n".into(),
        },
    );
    let e = refused(
        &mut s,
        Action::CreateFailureDomain {
            domain: "d1".into(),
            brokers: strings(&["ghost"]),
        },
    );
    assert!(matches!(e, Error::NoSuchBroker(_)));
    domain(&mut s, "d1", &["broker-1"]);
    let e = refused(
        &mut s,
        Action::CreateFailureDomain {
            domain: "d2".into(),
            brokers: strings(&["broker-2", "broker-1"]),
        },
    );
    assert!(e.to_string().contains("already in failure domain d1"), "{e}");
    refused(&mut s, Action::DeleteFailureDomain { domain: "d2".into() });
    let mut c = s.config().clone();
    c.load_balancer_shedding_excluded_namespaces = vec!["not-a-namespace".into()];
    refused(&mut s, Action::whole_config(&c));
    // And the good ones work.
    s.apply(&policy("p", &["t/n"], &["broker-1"], &[], 1)).unwrap();
    s.apply(&Action::NsIsolationPolicyDelete { policy: "p".into() })
        .unwrap();
    group(&mut s, "t/n", "g");
    s.apply(&Action::DeleteAntiAffinityGroup {
        namespace: "t/n".into(),
    })
    .unwrap();
    s.apply(&Action::DeleteFailureDomain { domain: "d1".into() })
        .unwrap();
    assert!(s.isolation_policies().is_empty() && s.failure_domains().is_empty());
}

/// Item B end to end: a legacy topic name hashes as a whole (cluster included)
/// into its legacy namespace (`TopicName` / `NamespaceBundles.findBundle`,
/// derived by reading them): CRC-32 of
/// `persistent://my-tenant/use/my-ns/my-topic1` is 0xdd35733e, in the last of 4
/// bundles.
#[test]
fn legacy_topic_names_hash_and_place_in_their_namespace() {
    let mut s = sim(config(LoadManager::Modular), &["broker-1"]);
    ns(&mut s, "my-tenant/use/my-ns", 4);
    let ev = topic(&mut s, "persistent://my-tenant/use/my-ns/my-topic1");
    match &ev[0] {
        Event::TopicCreated { topic, hash, bundle } => {
            assert_eq!(topic.namespace(), "my-tenant/use/my-ns");
            assert_eq!(*hash, 0xdd35_733e);
            assert_eq!(bundle.name(), "0xc0000000_0xffffffff");
        }
        e => panic!("{e:?}"),
    }
    assert_eq!(
        lookups(&ev),
        vec![(
            "my-tenant/use/my-ns/0xc0000000_0xffffffff".to_string(),
            "broker-1".to_string()
        )]
    );
    // The short form must not have four parts (TopicNameTest).
    assert!(matches!(
        s.apply(&Action::CreateTopic {
            topic: "my-tenant/use/my-ns/x".into()
        }),
        Err(Error::TopicName(_))
    ));
    // A legacy name whose namespace does not exist.
    assert!(matches!(
        s.apply(&Action::CreateTopic {
            topic: "persistent://my-tenant/usw/my-ns/x".into()
        }),
        Err(Error::NoSuchNamespace(_))
    ));
}

/// `ModularLoadManagerImpl.selectBroker` spreads `pulsar/system` bundles evenly
/// even with `loadBalancerDistributeBundlesEvenlyEnabled` off (the Pulsar 5.0
/// default), derived by reading it.
#[test]
fn modular_distributes_pulsar_system_evenly_always() {
    let mut s = sim(Config::profile(Profile::Pulsar5), &["b1", "b2"]);
    assert!(!s.config().load_balancer_distribute_bundles_evenly_enabled);
    ns(&mut s, "pulsar/system", 4);
    let mut counts = std::collections::BTreeMap::new();
    for i in 0..4u32 {
        pinned(&mut s, &format!("pulsar/system/t{i}"), (i << 30) + 1);
        *counts
            .entry(owner(&s, &format!("pulsar/system/t{i}")).unwrap())
            .or_insert(0) += 1;
    }
    assert_eq!(counts.values().copied().collect::<Vec<_>>(), [2, 2]);
}

/// Extensible shedding with policies: with
/// `loadBalancerSheddingBundlesWithPoliciesEnabled` off, a bundle of an isolated
/// namespace is not even in its broker's top-bundles report; with it on, a move
/// to a broker outside the policy is refused by `isTransferable` (derived by
/// reading `TopKBundles.update` and `TransferShedder.isTransferable`).
#[test]
fn transfer_shedder_respects_isolation_policies() {
    for flag in [false, true] {
        let mut s = sim(
            Config {
                load_balancer_shedding_bundles_with_policies_enabled: flag,
                load_balancer_load_shedding_strategy: SheddingStrategy::TransferShedder,
                ..config(LoadManager::Extensible)
            },
            &["iso", "free"],
        );
        ns(&mut s, "t/iso", 4);
        s.apply(&policy("p", &["t/iso"], &["iso"], &[], 1)).unwrap();
        for i in 0..4u32 {
            heavy(&mut s, &format!("t/iso/t{i}"), (i << 30) + 1);
        }
        assert!((0..4).all(|i| owner(&s, &format!("t/iso/t{i}")).as_deref() == Some("iso")));
        let mut ev = Vec::new();
        for (b, cpu) in [("iso", 90.0), ("free", 5.0)] {
            s.apply(&Action::SetBrokerLoad {
                broker: b.into(),
                usage: lbscope::engine::pulsar::broker::DirectUsage {
                    cpu: Some(cpu),
                    ..Default::default()
                },
            })
            .unwrap();
        }
        for _ in 0..8 {
            ev.extend(s.apply(&Action::Step).unwrap());
        }
        assert_eq!(unloaded(&ev, "t/iso/"), 0, "flag {flag}");
        let refused = ev
            .iter()
            .filter(|e| matches!(e, Event::Shed(ShedEvent::PolicyRefused { .. })))
            .count();
        if flag {
            assert!(refused > 0, "the shedder tried and was refused");
            assert!(ev.iter().any(
                |e| matches!(e, Event::Shed(ShedEvent::PolicyRefused { reason, .. })
                if reason.to_string().contains("BrokerIsolationPoliciesFilter"))
            ));
        } else {
            assert_eq!(refused, 0, "the bundles are not in the report at all");
        }
    }
}

/// Odd regexes are compiled or refused with a message, never a panic; a refusal
/// leaves the state unchanged. Matching is ASCII like Java's defaults.
#[test]
fn odd_policy_regexes_are_compiled_or_refused() {
    let mut s = sim(
        config(LoadManager::Modular),
        &["broker-1", "Broker-2", "brøker-3"],
    );
    ns(&mut s, "t/n", 1);
    for r in [
        "",
        "*",
        "(",
        "\\",
        "[",
        "a{1000000}",
        "(?i)BROKER-.*",
        "\\p{L}+",
        "brøker-.",
        "\\w+-\\d",
        ".{0,5}",
        "(a|b",
    ] {
        let a = policy("p", &["t/.*"], &[r], &[], 1);
        let before = format!("{s:?}");
        match s.apply(&a) {
            Ok(_) => {
                s.apply(&Action::NsIsolationPolicyDelete { policy: "p".into() })
                    .unwrap();
            }
            Err(e) => {
                assert!(e.to_string().contains("does not compile"), "{r:?}: {e}");
                assert_eq!(before, format!("{s:?}"));
            }
        }
    }
    // (?i) is ASCII case-insensitive, as Java's CASE_INSENSITIVE.
    s.apply(&policy("p", &["t/.*"], &["(?i)BROKER-.*"], &[], 1))
        .unwrap();
    pinned(&mut s, "t/n/a", 1);
    let o = owner(&s, "t/n/a").unwrap();
    assert!(o == "broker-1" || o == "Broker-2", "{o}");
}
