//! The cluster simulation: [`Sim`], the state every action changes, and the
//! config the load manager runs with ([`effective_config`]).
//!
//! Cloning a [`Sim`] (for a "what would the next round do" proposal) copies
//! every topic, bundle and broker: O(topics + bundles + brokers), about a
//! millisecond per 10 000 topics natively.

use super::broker::Broker;
use super::bundle::BundleRange;
use super::config::{LoadManager, PlacementStrategy, Profile, SheddingStrategy};
use super::load::{BrokerId, BundleId, LoadData, NamespaceName};
use super::namespace::{Namespace, Topic};
use super::ownership::{Ownership, ServiceUnitState};
use super::topic::TopicName;
use super::traffic::Traffic;
use crate::engine::schema::{self, ConfigChange};
use crate::engine::{AnyAction, Engine, Part, Series, SimRng, Subject, System};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

pub use super::Config;
use super::{
    anti_affinity, bundle, failure_domain, index, invariants, isolation, knobs, namespace, place, shed,
    subject, topic, workload,
};
use super::{Action, Error, Event, Lookups, RoundMetrics};

/// Most bundles one namespace may have (Pulsar's `loadBalancerNamespaceMaximumBundles` default is 128;
/// the playground allows more for scale experiments).
pub const MAX_BUNDLES: u32 = 1 << 16;
/// Most topics one bulk action may create.
pub const MAX_BULK_TOPICS: u32 = 1 << 20;

/// A live bundle's state.
#[derive(Clone, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct BundleState {
    /// Ownership (service-unit state, owner).
    pub ownership: Ownership,
    /// Topics inside.
    pub topics: u32,
    /// Summed traffic of its topics.
    pub traffic: Traffic,
    /// Load set directly (replaces `traffic` when present).
    pub direct: Option<Traffic>,
    /// Destination planned by a shedder (AvgShedder), used at the next lookup when
    /// the placement strategy is AvgShedder.
    pub planned: Option<BrokerId>,
    /// Destination given by `unload -d` (modular: bundle affinity for the next lookup).
    pub affinity: Option<BrokerId>,
    /// Extensible split-condition hit count (kept by the owner broker).
    pub split_hits: u32,
}

impl BundleState {
    /// The load it carries (direct, or its topics' sum).
    pub fn load(&self) -> Traffic {
        self.direct.unwrap_or(self.traffic)
    }

    /// Its owner, when Owned.
    pub fn owner(&self) -> Option<&BrokerId> {
        self.ownership.owner()
    }

    /// Whether a lookup would place it: no owner, and no transfer under way.
    pub fn awaits_lookup(&self) -> bool {
        self.owner().is_none() && !self.ownership.state.is_in_flight()
    }
}

/// Counters of the round in progress.
#[derive(Clone, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct RoundCounters {
    /// Bundles unloaded or transferred.
    pub bundles_moved: u32,
    /// Topic reconnects.
    pub reconnects: u64,
    /// Splits.
    pub splits: u32,
    /// Lookups that assigned a bundle.
    pub assignments: u32,
}

/// A Pulsar cluster simulation.
#[derive(Clone, Debug)]
pub struct Sim {
    pub(super) config: Config,
    /// The config the load manager actually runs with (strategy fallbacks applied).
    pub(super) effective: Config,
    pub(super) rng: SimRng,
    pub(super) namespaces: BTreeMap<String, Namespace>,
    /// Each namespace's name as its bundle ids share it.
    pub(super) ns_ids: BTreeMap<String, NamespaceName>,
    pub(super) bundles: super::bundle_map::BundleMap,
    /// The bundles with topics but no owner (kept in step with `bundles`): what
    /// the assign phase looks up and the round metrics count.
    pub(super) unowned: BTreeSet<BundleId>,
    pub(super) brokers: BTreeMap<BrokerId, Broker>,
    pub(super) leader: Option<BrokerId>,
    pub(super) join_seq: u64,
    pub(super) load: LoadData,
    pub(super) shedder: shed::Shedder,
    pub(super) placer: place::Placer,
    /// Namespace isolation policies (`ns-isolation-policy`).
    pub(super) isolation: isolation::NamespaceIsolationPolicies,
    /// Anti-affinity groups (`namespaces set-anti-affinity-group`).
    pub(super) anti_affinity: anti_affinity::AntiAffinityGroups,
    /// Failure domains (`clusters create-failure-domain`).
    pub(super) failure_domains: failure_domain::FailureDomains,
    pub(super) round: u64,
    pub(super) now_ms: u64,
    pub(super) last_shed_ms: u64,
    pub(super) last_split_ms: u64,
    pub(super) last_sample_ms: u64,
    pub(super) counters: RoundCounters,
    pub(super) metrics: Vec<RoundMetrics>,
    /// Events of the last Step (the next one reserves room for as many).
    pub(super) last_step_events: usize,
    /// Workload patterns (traffic that changes every round).
    pub(super) workload: workload::Workload,
    /// Topics in all namespaces (see [`limits::MAX_TOPICS`]).
    pub(super) topic_count: u64,
    /// The layout the brokers' cached bundle positions were computed for.
    pub(super) layout: index::LayoutStamp,
    /// What the split check last read of the leader's long-term bundle data.
    pub(super) long_term: super::split_threshold::LongTermCache,
    /// Scalable topics (5.0) and their controller's clocks.
    pub(super) scalable: super::scalable_topic::ScalableTopics,
}

/// The config a load manager runs with, and the warnings Pulsar would log.
pub fn effective_config(c: &Config) -> (Config, Vec<String>) {
    let mut e = c.clone();
    let mut w = Vec::new();
    match c.load_manager_class_name {
        LoadManager::Modular => {
            // 5.0 (`ModularLoadManagerImpl.createLoadBalanceStrategies`): AvgShedder
            // placement beside another shedder falls back to LeastLongTermMessageRate.
            // 4.x refuses the pairing instead (`validate_config`).
            if c.load_balancer_load_placement_strategy == PlacementStrategy::AvgShedder
                && c.load_balancer_load_shedding_strategy != SheddingStrategy::AvgShedder
            {
                e.load_balancer_load_placement_strategy = PlacementStrategy::LeastLongTermMessageRate;
                w.push(format!(
                    "loadBalancerLoadSheddingStrategy is {:?} but the placement is AvgShedder: AvgShedder ties shedding and placement together, so the broker falls back to LeastLongTermMessageRate placement",
                    c.load_balancer_load_shedding_strategy
                ));
            }
            if c.load_balancer_load_shedding_strategy == SheddingStrategy::AvgShedder
                && c.load_balancer_load_placement_strategy != PlacementStrategy::AvgShedder
            {
                w.push(format!(
                    "AvgShedder shedding with {:?} placement: AvgShedder's planned destinations are ignored; set loadBalancerLoadPlacementStrategy to AvgShedder too",
                    c.load_balancer_load_placement_strategy
                ));
            }
            if c.load_balancer_load_placement_strategy == PlacementStrategy::AvgShedder
                && c.load_balancer_distribute_bundles_evenly_enabled
            {
                w.push("loadBalancerDistributeBundlesEvenlyEnabled removes the brokers owning most of a namespace's bundles first, which can discard AvgShedder's planned destination".into());
            }
        }
        LoadManager::Extensible => {
            if c.load_balancer_load_shedding_strategy != SheddingStrategy::TransferShedder {
                w.push(format!(
                    "the extensible load manager always sheds with TransferShedder ({:?} is a modular strategy)",
                    c.load_balancer_load_shedding_strategy
                ));
            }
            e.load_balancer_load_shedding_strategy = SheddingStrategy::TransferShedder;
            e.load_balancer_load_placement_strategy = PlacementStrategy::LeastResourceUsageWithWeight;
        }
    }
    (e, w)
}

/// `name`'s shared id out of `ids` (a copy for an unknown namespace).
pub(crate) fn ns_id(ids: &BTreeMap<String, NamespaceName>, name: &str) -> NamespaceName {
    ids.get(name).cloned().unwrap_or_else(|| name.into())
}

/// `tenant/namespace` or the legacy `tenant/cluster/namespace`, no part empty or with `:`.
pub(crate) fn is_namespace_name(name: &str) -> bool {
    let parts: Vec<&str> = name.split('/').collect();
    (2..=3).contains(&parts.len()) && parts.iter().all(|p| !p.is_empty() && !p.contains(':'))
}

/// A character Pulsar's `NamedEntity.checkName` allows in a tenant, cluster
/// or namespace name (`^[-=:.\w]*$`, `\w` being ASCII letters, digits and `_`):
/// no control character, no U+FFFE, nothing outside ASCII.
pub(crate) fn is_named_entity_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '=' | ':' | '.')
}

fn validate_config(c: &Config) -> Result<(), Error> {
    schema::check_unmodelled(c)?;
    let bad = |s: &str| Err(Error::Invalid(s.to_string()));
    if c.round_seconds == 0 {
        return bad("roundSeconds must be > 0");
    }
    super::auto_scale::AutoScaleConfig::of(c)
        .validated()
        .map_err(Error::Invalid)?;
    if c.scalable_topic_auto_scale_interval_seconds == 0 || c.scalable_topic_load_report_interval_seconds == 0
    {
        return bad(
            "scalableTopicAutoScaleIntervalSeconds and scalableTopicLoadReportIntervalSeconds must be > 0",
        );
    }
    let t = c.scalable_topic_load_report_rate_change_threshold;
    if !t.is_finite() || t < 0.0 {
        return bad("scalableTopicLoadReportRateChangeThreshold must be finite and not negative");
    }
    if c.default_number_of_namespace_bundles == 0 || c.default_number_of_system_namespace_bundles == 0 {
        return bad("default bundle counts must be > 0");
    }
    let fs = [
        c.load_balancer_broker_overloaded_threshold_percentage,
        c.load_balancer_broker_threshold_shedder_percentage,
        c.load_balancer_history_resource_percentage,
        c.load_balancer_cpu_resource_weight,
        c.load_balancer_memory_resource_weight,
        c.load_balancer_direct_memory_resource_weight,
        c.load_balancer_bandwidth_in_resource_weight,
        c.load_balancer_bandwidth_out_resource_weight,
        c.load_balancer_namespace_bundle_max_msg_rate,
        c.load_balancer_namespace_bundle_max_bandwidth_mbytes,
        c.flow_or_qps_difference_threshold_percentage,
        c.load_balancer_report_update_threshold_percentage,
        c.max_unload_percentage,
        c.load_balancer_broker_load_target_std,
    ];
    if fs.iter().any(|x| !x.is_finite() || *x < 0.0) {
        return bad("numeric settings must be finite and not negative");
    }
    if let Some(ns) = c
        .load_balancer_shedding_excluded_namespaces
        .iter()
        .find(|ns| !is_namespace_name(ns))
    {
        return Err(Error::Invalid(format!(
            "loadBalancerSheddingExcludedNamespaces: {ns:?} is not of the form tenant/namespace"
        )));
    }
    let shedder = c.load_balancer_load_shedding_strategy;
    // 4.x `ModularLoadManagerImpl.initialize`: a placement strategy that is also
    // a shedding strategy (AvgShedder) must be the shedding strategy's class, or
    // the load manager throws and does not start. (5.0 falls back instead:
    // `effective_config`.)
    if c.profile.is_4x()
        && c.load_manager_class_name == LoadManager::Modular
        && c.load_balancer_load_placement_strategy == PlacementStrategy::AvgShedder
        && shedder != SheddingStrategy::AvgShedder
    {
        return Err(Error::Invalid(format!(
            "loadBalancerLoadPlacementStrategy AvgShedder is also a shedding strategy, so the 4.x ModularLoadManagerImpl requires loadBalancerLoadSheddingStrategy to name the same class, but it is {shedder}: the load manager throws IllegalArgumentException at start and does not run; set both to AvgShedder, choose another placement, or use the 5.0 profile (which falls back to LeastLongTermMessageRate placement)"
        )));
    }
    if c.load_manager_class_name == LoadManager::Modular && shedder.interface() != shed::Interface::Modular {
        let modular: Vec<&str> = SheddingStrategy::ALL
            .iter()
            .filter(|s| s.interface() == shed::Interface::Modular)
            .map(|s| s.name())
            .collect();
        return Err(Error::Invalid(format!(
            "loadBalancerLoadSheddingStrategy {shedder} does not implement {}: ModularLoadManagerImpl cannot create it (Reflections.createInstance throws) and the load manager does not start; choose one of {} or set loadManagerClassName to ExtensibleLoadManagerImpl",
            shed::Interface::Modular.class(),
            modular.join(", ")
        )));
    }
    Ok(())
}

/// How many lookups a part of a bulk creation does per unit of its budget: as
/// many as the benchmark cluster's first creation has per unit of its weight
/// (16,384 bundles for 25,000 topics), whatever this creation's share of
/// bundles still to place (a later creation has a few thousand left for as
/// many topics, and its parts would otherwise be a few hundred lookups each).
const LOOKUPS_PER_UNIT: f64 = 2.0 / 3.0;

/// A bulk action's checks and topics ([`Sim::add_bulk`]): its event, and the
/// bundles it touched, still to be looked up, in order.
type Added = Result<(Vec<Event>, Vec<BundleId>), Error>;

impl Sim {
    /// Namespaces by name.
    pub fn namespaces(&self) -> &BTreeMap<String, Namespace> {
        &self.namespaces
    }

    /// Every live bundle and its state.
    pub fn bundles(&self) -> &BTreeMap<BundleId, BundleState> {
        &self.bundles
    }

    /// How many writes to bundle states were made so far (a mark for
    /// [`Sim::bundles_written_since`]).
    pub fn bundle_writes(&self) -> u64 {
        self.bundles.writes()
    }

    /// The bundles whose state was written after the mark `writes` (ids may
    /// repeat), or `None` when any bundle may have changed (see
    /// [`super::bundle_map::BundleMap::written_since`]).
    pub fn bundles_written_since(&self, writes: u64) -> Option<&[BundleId]> {
        self.bundles.written_since(writes)
    }

    /// Brokers (alive and crashed).
    pub fn brokers(&self) -> &BTreeMap<BrokerId, Broker> {
        &self.brokers
    }

    /// The leader broker.
    pub fn leader(&self) -> Option<&BrokerId> {
        self.leader.as_ref()
    }

    /// The leader's load data (what the strategies read).
    pub fn load_data(&self) -> &LoadData {
        &self.load
    }

    /// Namespace isolation policies.
    pub fn isolation_policies(&self) -> &isolation::NamespaceIsolationPolicies {
        &self.isolation
    }

    /// Anti-affinity groups by namespace.
    pub fn anti_affinity_groups(&self) -> &anti_affinity::AntiAffinityGroups {
        &self.anti_affinity
    }

    /// Failure domains.
    pub fn failure_domains(&self) -> &failure_domain::FailureDomains {
        &self.failure_domains
    }

    /// The config after the load manager's fallbacks.
    pub fn effective_config(&self) -> &Config {
        &self.effective
    }

    /// Rounds done.
    pub fn round(&self) -> u64 {
        self.round
    }

    /// Simulated time, ms.
    pub fn now_ms(&self) -> u64 {
        self.now_ms
    }

    /// Metrics of every finished round.
    pub fn metrics(&self) -> &[RoundMetrics] {
        &self.metrics
    }

    /// Counters of the round in progress.
    pub fn counters(&self) -> &RoundCounters {
        &self.counters
    }

    /// The owner of a topic's bundle.
    pub fn owner_of_topic(&self, topic: &str) -> Option<&BrokerId> {
        let name = TopicName::parse(topic).ok()?;
        let ns = self.namespaces.get(name.namespace())?;
        let t = ns.topics.get(&name)?;
        let bid = BundleId {
            namespace: self.ns_id(&ns.name),
            range: ns.bundle_of(t.hash),
        };
        self.bundles.get(&bid)?.owner()
    }

    /// `name` as the ids of its bundles share it (a copy for an unknown namespace).
    pub(crate) fn ns_id(&self, name: &str) -> NamespaceName {
        ns_id(&self.ns_ids, name)
    }

    pub(crate) fn alive(&self) -> impl Iterator<Item = &Broker> {
        self.brokers.values().filter(|b| b.alive)
    }

    pub(super) fn alive_broker(&self, name: &str) -> Result<BrokerId, Error> {
        let id = BrokerId::from(name.to_string());
        match self.brokers.get(&id) {
            None => Err(Error::NoSuchBroker(name.to_string())),
            Some(b) if !b.alive => Err(Error::BrokerNotAlive(name.to_string())),
            Some(_) => Ok(id),
        }
    }

    /// Parse `tenant/ns/0x.._0x..` into a live bundle id.
    pub(super) fn parse_bundle(&self, full: &str) -> Result<BundleId, Error> {
        let (ns, range) = full
            .rsplit_once('/')
            .ok_or_else(|| Error::NoSuchBundle(full.to_string()))?;
        let range = BundleRange::parse(range).ok_or_else(|| Error::NoSuchBundle(full.to_string()))?;
        let id = BundleId {
            namespace: self.ns_id(ns),
            range,
        };
        if self.bundles.contains_key(&id) {
            Ok(id)
        } else {
            Err(Error::NoSuchBundle(full.to_string()))
        }
    }

    /// Record an ownership change for a bundle, keeping broker sets in step.
    /// Extensible: the transition must be legal (callers only request legal ones;
    /// an illegal one is reported as a warning and not applied).
    pub(crate) fn transition(
        &mut self,
        bid: &BundleId,
        to: ServiceUnitState,
        dst: Option<BrokerId>,
        src: Option<BrokerId>,
        forced: bool,
        ev: &mut Vec<Event>,
    ) {
        let ext = self.config.load_manager_class_name == LoadManager::Extensible;
        let Some(st) = self.bundles.get_mut(bid) else {
            return;
        };
        let old_owner = st.owner().cloned();
        let from = st.ownership.state;
        if forced {
            st.ownership.force(to, dst.clone(), src.clone());
        } else if let Err(e) = st.ownership.transition(to, dst.clone(), src.clone()) {
            ev.push(Event::Warning {
                message: format!("{bid}: {e}"),
            });
            return;
        }
        let new_owner = st.owner().cloned();
        if old_owner != new_owner {
            st.split_hits = 0;
            self.track_unowned(bid);
            if let Some(o) = &old_owner {
                if let Some(b) = self.brokers.get_mut(o) {
                    b.bundles.remove(bid);
                    b.bundles_changed();
                }
            }
            if let Some(n) = &new_owner {
                if let Some(b) = self.brokers.get_mut(n) {
                    b.bundles.insert(bid.clone());
                    b.bundles_changed();
                }
            }
        }
        if ext {
            ev.push(Event::StateChanged {
                bundle: bid.clone(),
                from,
                to,
                dst,
                src,
                forced,
            });
        }
    }

    /// Close a bundle's topic sessions: every topic reconnects once.
    pub(crate) fn close_sessions(&mut self, bid: &BundleId, ev: &mut Vec<Event>) {
        let Some(ns) = self.namespaces.get_mut(bid.namespace.as_str()) else {
            return;
        };
        let (topics, sessions) = ns.reconnect_in(bid.range);
        self.counters.reconnects += u64::from(topics);
        if topics > 0 {
            ev.push(Event::Reconnected {
                bundle: bid.clone(),
                topics,
                sessions,
            });
        }
    }

    /// Recompute a bundle's topic count and summed traffic from its topics.
    pub(crate) fn refresh_bundle(&mut self, bid: &BundleId) {
        let Some(ns) = self.namespaces.get(bid.namespace.as_str()) else {
            return;
        };
        let (n, t) = ns.aggregate(bid.range);
        if let Some(st) = self.bundles.get_mut(bid) {
            st.topics = n;
            st.traffic = t;
            if let Some(o) = st.owner().cloned() {
                self.served_changed(&o);
            }
            self.track_unowned(bid);
        }
    }

    /// Keep `bid`'s place in `unowned` (after its topics or owner changed).
    pub(super) fn track_unowned(&mut self, bid: &BundleId) {
        let unowned = self
            .bundles
            .get(bid)
            .is_some_and(|s| s.topics > 0 && s.owner().is_none());
        if !unowned {
            self.unowned.remove(bid);
        } else if !self.unowned.contains(bid) {
            self.unowned.insert(bid.clone());
        }
    }

    /// Forget a bundle that no longer exists (split).
    pub(crate) fn remove_bundle(&mut self, bid: &BundleId) {
        self.bundles.remove(bid);
        self.unowned.remove(bid);
    }

    fn create_namespace(&mut self, name: &str, bundles: Option<u32>) -> Result<Vec<Event>, Error> {
        let default = if name == namespace::SYSTEM_NAMESPACE {
            self.config.default_number_of_system_namespace_bundles
        } else {
            self.config.default_number_of_namespace_bundles
        };
        let n = bundles.unwrap_or(default);
        if n == 0 {
            return Err(Error::ZeroBundles(n));
        }
        if n > MAX_BUNDLES {
            return Err(Error::TooManyBundles {
                got: n,
                max: MAX_BUNDLES,
            });
        }
        self.check_new_namespace(name)?;
        self.check_bundle_room(n as usize)?;
        let ns = Namespace::new(name, n).ok_or(Error::ZeroBundles(n))?;
        Ok(self.insert_namespace(ns))
    }

    /// A new namespace's name must be `tenant/namespace`, or the legacy
    /// `tenant/cluster/namespace` (Pulsar's `NamespaceName` accepts both; topics of
    /// a legacy namespace are named `persistent://tenant/cluster/namespace/topic`),
    /// and unused.
    fn check_new_namespace(&self, name: &str) -> Result<(), Error> {
        if !is_namespace_name(name) {
            return Err(Error::BadNamespace(name.to_string()));
        }
        if let Some(c) = name.chars().find(|&c| !is_named_entity_char(c) && c != '/') {
            return Err(Error::Invalid(format!(
                "namespace {name:?}: {c:?} is not allowed; Pulsar names take only letters a-z A-Z, digits, \
                 '_', '-', '=', ':' and '.' (NamedEntity.checkName)"
            )));
        }
        if self.namespaces.contains_key(name) {
            return Err(Error::NamespaceExists(name.to_string()));
        }
        Ok(())
    }

    /// `NamespacesBase.validateBundlesData` on lbscope's numbers: boundaries sorted
    /// and deduplicated, the first `0x00000000`, the last `0xffffffff`.
    fn create_namespace_with_boundaries(
        &mut self,
        name: &str,
        boundaries: &[u32],
    ) -> Result<Vec<Event>, Error> {
        let sorted: Vec<u32> = boundaries
            .iter()
            .copied()
            .collect::<BTreeSet<u32>>()
            .into_iter()
            .collect();
        let (Some(&first), Some(&last)) = (sorted.first(), sorted.last()) else {
            return Err(Error::ZeroBundles(0));
        };
        if first != 0 || last != bundle::LAST_BOUNDARY {
            return Err(Error::Invalid(format!(
                "Input bundles do not cover the whole hash range. first:0x{first:08x}, last:0x{last:08x}"
            )));
        }
        let n = u32::try_from(sorted.len() - 1).unwrap_or(u32::MAX);
        if n == 0 {
            return Err(Error::ZeroBundles(0));
        }
        if n > MAX_BUNDLES {
            return Err(Error::TooManyBundles {
                got: n,
                max: MAX_BUNDLES,
            });
        }
        self.check_new_namespace(name)?;
        self.check_bundle_room(n as usize)?;
        let ns = Namespace {
            name: name.to_string(),
            bundles: bundle::ranges_from_boundaries(&sorted),
            topics: Default::default(),
            ring: Default::default(),
            partitioned: Default::default(),
            shaped: None,
        };
        Ok(self.insert_namespace(ns))
    }

    /// Register a validated new namespace and its (unowned) bundles.
    fn insert_namespace(&mut self, ns: Namespace) -> Vec<Event> {
        let name = ns.name.clone();
        let name = name.as_str();
        let id = NamespaceName::from(name);
        self.ns_ids.insert(name.to_string(), id.clone());
        for r in &ns.bundles {
            self.bundles.insert(
                BundleId {
                    namespace: id.clone(),
                    range: *r,
                },
                BundleState::default(),
            );
        }
        let ev = Event::NamespaceCreated {
            namespace: name.to_string(),
            bundles: ns.bundles.clone(),
        };
        self.namespaces.insert(name.to_string(), ns);
        vec![ev]
    }

    /// [`Action::AssignBundle`]: an unowned, settled bundle gets `broker` as owner.
    fn assign_bundle(&mut self, raw: &str, broker: &str) -> Result<Vec<Event>, Error> {
        let bid = self.parse_bundle(raw)?;
        let owner = self.alive_broker(broker)?;
        let Some(st) = self.bundles.get(&bid) else {
            return Err(Error::NoSuchBundle(raw.to_string()));
        };
        if let Some(o) = st.owner() {
            return Err(Error::Invalid(format!("bundle {bid} is already owned by {o}")));
        }
        if st.ownership.state.is_in_flight() {
            return Err(Error::Invalid(format!(
                "bundle {bid} is {:?}; only a settled, unowned bundle can be assigned",
                st.ownership.state
            )));
        }
        let mut ev = Vec::new();
        self.assign_to(&bid, &owner, &mut ev);
        if let Some(st) = self.bundles.get_mut(&bid) {
            st.planned = None;
            st.affinity = None;
        }
        ev.push(Event::BundleAssigned {
            bundle: bid,
            broker: owner,
        });
        Ok(ev)
    }

    /// Validate a new topic name; returns (name, hash).
    fn check_new_topic(&self, raw: &str, pinned: Option<u32>) -> Result<(TopicName, u32), Error> {
        let name = TopicName::parse(raw)?;
        let ns = self
            .namespaces
            .get(name.namespace())
            .ok_or_else(|| Error::NoSuchNamespace(name.namespace().to_string()))?;
        if ns.topics.contains_key(&name) || ns.partitioned.contains_key(&name) {
            return Err(Error::TopicExists(name.0.to_string()));
        }
        let hash = pinned.unwrap_or_else(|| name.hash());
        Ok((name, hash))
    }

    /// Insert a validated topic (no lookup).
    fn insert_topic(&mut self, name: TopicName, hash: u32, pinned: bool, traffic: Traffic) -> BundleId {
        let Some(ns) = self.namespaces.get_mut(name.namespace()) else {
            // Unreachable: check_new_topic verified the namespace.
            return BundleId {
                namespace: name.namespace().into(),
                range: BundleRange::FULL,
            };
        };
        let range = ns.bundle_of(hash);
        self.topic_count += 1;
        ns.insert(Topic::new(name, hash, pinned, traffic));
        let bid = BundleId {
            namespace: ns_id(&self.ns_ids, &ns.name),
            range,
        };
        if let Some(st) = self.bundles.get_mut(&bid) {
            st.topics += 1;
            st.traffic = st.traffic.plus(&traffic);
            if let Some(o) = st.owner().cloned() {
                self.served_changed(&o);
            }
            self.track_unowned(&bid);
        }
        bid
    }

    /// Insert validated, unpinned topics of namespace `ns` that all have
    /// `traffic`: what [`Sim::insert_topic`] for each in turn does, with each
    /// touched bundle updated once (its traffic still summed one topic at a
    /// time, in the same order). The touched bundles, in order.
    fn insert_topics(&mut self, ns: &str, names: Vec<(TopicName, u32)>, traffic: Traffic) -> Vec<BundleId> {
        let Some(space) = self.namespaces.get_mut(ns) else {
            return Vec::new();
        };
        let mut added = vec![0u32; space.bundles.len()];
        for (name, hash) in names {
            added[bundle::find(&space.bundles, hash).unwrap_or(0)] += 1;
            space.insert(Topic::new(name, hash, false, traffic));
            self.topic_count += 1;
        }
        let id = ns_id(&self.ns_ids, &space.name);
        let touched: Vec<(BundleId, u32)> = space
            .bundles
            .iter()
            .zip(added)
            .filter(|&(_, n)| n > 0)
            .map(|(range, n)| {
                (
                    BundleId {
                        namespace: id.clone(),
                        range: *range,
                    },
                    n,
                )
            })
            .collect();
        for (bid, n) in &touched {
            if let Some(st) = self.bundles.get_mut(bid) {
                st.topics += n;
                for _ in 0..*n {
                    st.traffic = st.traffic.plus(&traffic);
                }
                if let Some(b) = st.owner().and_then(|o| self.brokers.get_mut(o)) {
                    b.served.0 = None;
                }
                self.track_unowned(bid);
            }
        }
        touched.into_iter().map(|(bid, _)| bid).collect()
    }

    fn create_topic(&mut self, raw: &str, pinned: Option<u32>) -> Result<Vec<Event>, Error> {
        let (name, hash) = self.check_new_topic(raw, pinned)?;
        self.check_topic_room(1)?;
        let bid = self.insert_topic(name.clone(), hash, pinned.is_some(), Traffic::default());
        let mut ev = vec![Event::TopicCreated {
            topic: name,
            hash,
            bundle: bid.range,
        }];
        self.lookup_bundle(&bid, &mut ev);
        Ok(ev)
    }

    /// The checks and the topics of a bulk creation: its event, and the touched
    /// bundles still to look up, in order ([`Sim::lookup_bundles`]).
    fn add_topics(&mut self, ns: &str, prefix: &str, count: u32, traffic: Traffic) -> Added {
        if count > MAX_BULK_TOPICS {
            return Err(Error::Invalid(format!(
                "at most {MAX_BULK_TOPICS} topics per action"
            )));
        }
        traffic.check().map_err(Error::Invalid)?;
        topic::check_bulk(count, "persistent://".len() + ns.len() + prefix.len() + 12)?;
        if !self.namespaces.contains_key(ns) {
            return Err(Error::NoSuchNamespace(ns.to_string()));
        }
        self.check_topic_room(u64::from(count))?;
        if let Some(names) = self.bulk_names(ns, prefix, count) {
            let touched = self.insert_topics(ns, names, traffic);
            let ev = vec![Event::TopicsCreated {
                namespace: ns.to_string(),
                count,
                bundles_touched: touched.len(),
            }];
            return Ok((ev, touched));
        }
        let mut names = Vec::with_capacity(count as usize);
        // The names differ only in their `-{i}` ending, so they are distinct: a
        // name that parses at all is the raw text with the same domain prefix.
        for i in 0..count {
            let (name, hash) = self.check_new_topic(&format!("{ns}/{prefix}-{i}"), None)?;
            if name.namespace() != ns {
                return Err(Error::Invalid(format!(
                    "prefix {prefix:?} does not give topics of {ns}"
                )));
            }
            names.push((name, hash));
        }
        let touched = self.insert_topics(ns, names, traffic);
        let ev = vec![Event::TopicsCreated {
            namespace: ns.to_string(),
            count,
            bundles_touched: touched.len(),
        }];
        Ok((ev, touched))
    }

    /// The names and hashes of `{ns}/{prefix}-{i}` for `i` in `0..count`, built
    /// without parsing each one, when that gives what
    /// [`Sim::check_new_topic`] gives each of them and none can be refused:
    /// the first and the last name parse to `persistent://{ns}/{prefix}-{i}`
    /// in `ns` (the names in between differ only in their digits, so they
    /// parse the same way and are no longer than the last), and no topic of
    /// `ns` starts with `persistent://{ns}/{prefix}-`. `None`: check them one
    /// by one (which also finds the first refusal).
    fn bulk_names(&self, ns: &str, prefix: &str, count: u32) -> Option<Vec<(TopicName, u32)>> {
        let space = self.namespaces.get(ns)?;
        let head = format!("persistent://{ns}/{prefix}-");
        for i in [0, count.checked_sub(1)?] {
            let (name, _) = self.check_new_topic(&format!("{ns}/{prefix}-{i}"), None).ok()?;
            let digits = name.as_str().strip_prefix(head.as_str())?;
            if name.namespace() != ns || digits != i.to_string() {
                return None;
            }
        }
        // '.' follows '-': every name with the head sorts in [head, head with '.').
        let mut past = head.clone();
        past.pop();
        past.push('.');
        let (lo, hi) = (TopicName(head.as_str().into()), TopicName(past.into()));
        if space.topics.range(lo.clone()..hi.clone()).next().is_some()
            || space.partitioned.range(lo..hi).next().is_some()
        {
            return None;
        }
        let mut text = head;
        let keep = text.len();
        Some(
            (0..count)
                .map(|i| {
                    text.truncate(keep);
                    super::fixed::push_u64(&mut text, u64::from(i));
                    let name = TopicName(text.as_str().into());
                    let hash = name.hash();
                    (name, hash)
                })
                .collect(),
        )
    }

    /// The checks and the partitions of a partitioned topic: its event, and
    /// the touched bundles still to look up, in order.
    fn add_partitioned(&mut self, raw: &str, partitions: u32) -> Added {
        if partitions == 0 || partitions > MAX_BULK_TOPICS {
            return Err(Error::Invalid(format!(
                "partitions must be in 1..={MAX_BULK_TOPICS}"
            )));
        }
        let (name, _) = self.check_new_topic(raw, None)?;
        topic::check_bulk(partitions, name.0.len() + "-partition-".len() + 7)?;
        self.check_topic_room(u64::from(partitions))?;
        let mut parts = Vec::new();
        for i in 0..partitions {
            let (p, h) = self.check_new_topic(&name.partition(i).0, None)?;
            parts.push((p, h));
        }
        if let Some(ns) = self.namespaces.get_mut(name.namespace()) {
            ns.partitioned.insert(name.clone(), partitions);
        }
        let mut listed = Vec::new();
        let mut touched = std::collections::BTreeSet::new();
        for (p, h) in parts {
            let bid = self.insert_topic(p.clone(), h, false, Traffic::default());
            listed.push((p, h, bid.range));
            touched.insert(bid);
        }
        let ev = vec![Event::PartitionedTopicCreated {
            topic: name,
            partitions: listed,
        }];
        Ok((ev, touched.into_iter().collect()))
    }

    /// The checks and the topics of a bulk action (a bulk creation or a
    /// partitioned topic), without the lookups of the bundles they touch:
    /// `None` for any other action.
    fn add_bulk(&mut self, action: &Action) -> Option<Added> {
        match action {
            Action::CreateTopics {
                namespace,
                prefix,
                count,
                traffic,
            } => Some(self.add_topics(namespace, prefix, *count, *traffic)),
            Action::CreatePartitionedTopic { topic, partitions } => {
                Some(self.add_partitioned(topic, *partitions))
            }
            _ => None,
        }
    }

    /// The rest of a bulk action applied whole: every bundle it touched looked up.
    fn look_up_all(&mut self, added: Added) -> Result<Vec<Event>, Error> {
        let (mut ev, bids) = added?;
        self.lookup_bundles(&bids, &mut ev);
        Ok(ev)
    }

    /// Look up the next bundles of `rest`, [`LOOKUPS_PER_UNIT`] per unit of
    /// `budget` (at least one bundle); `None` once every bundle is looked up.
    fn lookup_part(&mut self, mut rest: Lookups, budget: u64, ev: &mut Vec<Event>) -> Option<Lookups> {
        let left = rest.bids.len() - rest.next;
        let n = ((budget as f64 * LOOKUPS_PER_UNIT) as usize).clamp(1, left);
        self.lookup_bundles(&rest.bids[rest.next..rest.next + n], ev);
        rest.next += n;
        (rest.next < rest.bids.len()).then_some(rest)
    }

    fn set_topic_traffic(&mut self, raw: &str, traffic: Traffic) -> Result<Vec<Event>, Error> {
        traffic.check().map_err(Error::Invalid)?;
        let name = TopicName::parse(raw)?;
        let ns = self
            .namespaces
            .get_mut(name.namespace())
            .ok_or_else(|| Error::NoSuchNamespace(name.namespace().to_string()))?;
        let (targets, each) = if let Some(n) = ns.partitioned.get(&name) {
            (
                (0..*n).map(|i| name.partition(i)).collect::<Vec<_>>(),
                traffic.share(*n),
            )
        } else if ns.topics.contains_key(&name) {
            (vec![name.clone()], traffic)
        } else {
            return Err(Error::NoSuchTopic(name.0.to_string()));
        };
        let mut touched = std::collections::BTreeSet::new();
        for t in &targets {
            if let Some(h) = ns.set_traffic(t, each) {
                touched.insert(ns.bundle_of(h));
            }
        }
        let nsname = ns_id(&self.ns_ids, &ns.name);
        for r in touched {
            self.refresh_bundle(&BundleId {
                namespace: nsname.clone(),
                range: r,
            });
        }
        Ok(vec![Event::TopicTrafficSet {
            topic: name,
            traffic: each,
            partitions: targets.len() as u32,
        }])
    }

    fn lookup_topic(&mut self, raw: &str) -> Result<Vec<Event>, Error> {
        let name = TopicName::parse(raw)?;
        let ns = self
            .namespaces
            .get(name.namespace())
            .ok_or_else(|| Error::NoSuchNamespace(name.namespace().to_string()))?;
        let t = ns
            .topics
            .get(&name)
            .ok_or_else(|| Error::NoSuchTopic(name.0.to_string()))?;
        let bid = BundleId {
            namespace: self.ns_id(&ns.name),
            range: ns.bundle_of(t.hash),
        };
        let mut ev = Vec::new();
        if let Some(o) = self.bundles.get(&bid).and_then(|s| s.owner()) {
            ev.push(Event::Lookup {
                bundle: bid.clone(),
                broker: o.clone(),
                candidates: (1, 1),
                how: "already owned".into(),
            });
        } else {
            self.lookup_bundle(&bid, &mut ev);
        }
        Ok(ev)
    }

    fn set_bundle_load(&mut self, raw: &str, load: Option<Traffic>) -> Result<Vec<Event>, Error> {
        let bid = self.parse_bundle(raw)?;
        if let Some(t) = &load {
            t.check().map_err(Error::Invalid)?;
        }
        if let Some(st) = self.bundles.get_mut(&bid) {
            st.direct = load;
            if let Some(o) = st.owner().cloned() {
                self.served_changed(&o);
            }
        }
        Ok(vec![Event::BundleLoadSet { bundle: bid, load }])
    }

    fn set_config(&mut self, c: Config) -> Result<Vec<Event>, Error> {
        validate_config(&c)?;
        if let Some(why) = super::scalable_topic::config_refusal(&self.scalable, &c) {
            return Err(Error::Invalid(why));
        }
        let changes = schema::describe_changes(&self.config, &c);
        let manager_changed = c.load_manager_class_name != self.config.load_manager_class_name;
        let (eff, warnings) = effective_config(&c);
        self.config = c;
        self.effective = eff;
        let mut ev = vec![Event::ConfigSet { changes }];
        ev.extend(warnings.into_iter().map(|message| Event::Warning { message }));
        if manager_changed {
            // A different load manager starts with fresh in-memory strategy state.
            self.shedder = shed::Shedder::default();
            self.placer = place::Placer::default();
        }
        Ok(ev)
    }
}

impl Engine for Sim {
    type Config = Config;
    type Action = Action;
    type Event = Event;
    type Error = Error;
    const SYSTEM: System = System::Pulsar;

    fn new(config: Config, seed: u64) -> Result<Self, Error> {
        validate_config(&config)?;
        let (effective, _) = effective_config(&config);
        Ok(Sim {
            config,
            effective,
            rng: SimRng::new(seed),
            namespaces: BTreeMap::new(),
            ns_ids: BTreeMap::new(),
            bundles: Default::default(),
            unowned: BTreeSet::new(),
            brokers: BTreeMap::new(),
            leader: None,
            join_seq: 0,
            load: LoadData::default(),
            shedder: shed::Shedder::default(),
            placer: place::Placer::default(),
            isolation: isolation::NamespaceIsolationPolicies::default(),
            anti_affinity: anti_affinity::AntiAffinityGroups::default(),
            failure_domains: failure_domain::FailureDomains::default(),
            round: 0,
            now_ms: 0,
            last_shed_ms: 0,
            last_split_ms: 0,
            last_sample_ms: 0,
            counters: RoundCounters::default(),
            metrics: Vec::new(),
            last_step_events: 0,
            workload: workload::Workload::default(),
            topic_count: 0,
            layout: Default::default(),
            long_term: Default::default(),
            scalable: Default::default(),
        })
    }

    fn apply(&mut self, action: &Action) -> Result<Vec<Event>, Error> {
        match action {
            Action::CreateNamespace { namespace, bundles } => self.create_namespace(namespace, *bundles),
            Action::CreateNamespaceWithBoundaries {
                namespace,
                boundaries,
            } => self.create_namespace_with_boundaries(namespace, boundaries),
            Action::AssignBundle { bundle, broker } => self.assign_bundle(bundle, broker),
            Action::CreateTopic { topic } => self.create_topic(topic, None),
            Action::CreateTopicWithHash { topic, hash } => self.create_topic(topic, Some(*hash)),
            Action::CreateTopics {
                namespace,
                prefix,
                count,
                traffic,
            } => {
                let added = self.add_topics(namespace, prefix, *count, *traffic);
                self.look_up_all(added)
            }
            Action::CreatePartitionedTopic { topic, partitions } => {
                let added = self.add_partitioned(topic, *partitions);
                self.look_up_all(added)
            }
            Action::SetTopicTraffic { topic, traffic } => self.set_topic_traffic(topic, *traffic),
            Action::Lookup { topic } => self.lookup_topic(topic),
            Action::AddBroker { broker, capacity } => self.add_broker(broker, *capacity, true),
            Action::AddUnreportedBroker { broker, capacity } => self.add_broker(broker, *capacity, false),
            Action::CrashBroker { broker } => self.crash_broker(broker),
            Action::RestoreBroker { broker } => self.restore_broker(broker),
            Action::SetBrokerCapacity { broker, capacity } => self.set_broker_capacity(broker, *capacity),
            Action::SetBrokerLoad { broker, usage } => self.set_broker_load(broker, *usage),
            Action::SetBundleLoad { bundle, load } => self.set_bundle_load(bundle, *load),
            Action::SetConfig(change) => {
                let c = change.config.apply_to(&self.config)?;
                self.set_config(c)
            }
            Action::SetProfile { profile } => {
                let mut c = Config::profile(*profile);
                c.round_seconds = self.config.round_seconds;
                let mut ev = self.set_config(c)?;
                ev.insert(0, Event::ProfileSet { profile: *profile });
                Ok(ev)
            }
            Action::Step => Ok(self.step()),
            Action::Report => Ok(self.report_phase(true)),
            Action::Split => Ok(self.split_phase()),
            Action::Shed => Ok(self.shed_phase()),
            Action::Assign => Ok(self.assign_phase()),
            Action::SplitBundle {
                namespace,
                bundle,
                algorithm,
                boundaries,
                unload,
            } => self.admin_split(namespace, bundle, *algorithm, boundaries, *unload),
            Action::SplitBundleInParts {
                namespace,
                bundle,
                parts,
                unload,
            } => self.admin_split_in_parts(namespace, bundle, *parts, *unload),
            Action::Unload {
                namespace,
                bundle,
                destination,
            } => self.admin_unload(namespace, bundle.as_deref(), destination.as_deref()),
            Action::NsIsolationPolicySet {
                policy,
                namespaces,
                primary,
                secondary,
                auto_failover_policy,
                unload_scope,
            } => self.ns_isolation_policy_set(
                policy,
                namespaces,
                primary,
                secondary,
                *auto_failover_policy,
                *unload_scope,
            ),
            Action::NsIsolationPolicyDelete { policy } => self.ns_isolation_policy_delete(policy),
            Action::SetAntiAffinityGroup { namespace, group } => {
                self.set_anti_affinity_group(namespace, group)
            }
            Action::DeleteAntiAffinityGroup { namespace } => self.delete_anti_affinity_group(namespace),
            Action::CreateFailureDomain { domain, brokers } => self.create_failure_domain(domain, brokers),
            Action::DeleteFailureDomain { domain } => self.delete_failure_domain(domain),
            Action::AddWorkload { pattern } => self.add_workload(pattern),
            Action::ChangeWorkload { id, pattern } => self.change_workload(*id, pattern),
            Action::RemoveWorkload { id } => self.remove_workload(*id),
            Action::CreateScalableTopic { topic, segments } => self.create_scalable_topic(topic, *segments),
            Action::SetScalableTopicTraffic {
                topic,
                traffic,
                wave,
                hot_keys,
            } => self.set_scalable_traffic(topic, *traffic, *wave, *hot_keys),
            Action::AddScalableConsumer {
                topic,
                subscription,
                consumer,
            } => self.scalable_consumer(topic, subscription, consumer, true),
            Action::RemoveScalableConsumer {
                topic,
                subscription,
                consumer,
            } => self.scalable_consumer(topic, subscription, consumer, false),
            Action::SplitSegment { topic, segment_id } => self.split_segment_admin(topic, *segment_id),
            Action::MergeSegments {
                topic,
                segment_id_1,
                segment_id_2,
            } => self.merge_segments_admin(topic, *segment_id_1, *segment_id_2),
        }
    }

    /// A bulk creation stops after its topics, and then looks its touched
    /// bundles up a part at a time (the lookups are most of its work; they are
    /// the same lookups in the same order, so the parts give what one `apply`
    /// gives).
    type Rest = Lookups;

    fn apply_part(&mut self, action: &Action, budget: u64) -> Result<Part<Self>, Error> {
        let weight = Self::weight(action);
        if budget >= weight {
            return Ok((self.apply(action)?, None));
        }
        match self.add_bulk(action) {
            None => Ok((self.apply(action)?, None)),
            Some(added) => {
                let (ev, mut bids) = added?;
                // A lookup places its own bundle only, so a bundle that is owned
                // (or moving) now is still so when its turn would come: its
                // lookup would do nothing. Only the others are left for later.
                bids.retain(|b| self.bundles.get(b).is_some_and(BundleState::awaits_lookup));
                let rest = (!bids.is_empty()).then_some(Lookups {
                    bids,
                    next: 0,
                    weight,
                });
                Ok((ev, rest))
            }
        }
    }

    fn resume(&mut self, rest: Lookups, budget: u64) -> Part<Self> {
        let mut ev = Vec::new();
        let rest = self.lookup_part(rest, budget, &mut ev);
        (ev, rest)
    }

    fn rest_weight(rest: &Lookups) -> u64 {
        // The topics are in: one unit for the action, the rest shared out
        // over the lookups left (rounded up, so never zero).
        let left = (rest.bids.len() - rest.next) as u64;
        ((rest.weight - 1) * left).div_ceil(rest.bids.len() as u64).max(1)
    }

    fn config(&self) -> &Config {
        &self.config
    }

    fn round_action() -> Action {
        Action::Step
    }

    fn set_config(change: ConfigChange<Config>) -> Action {
        Action::SetConfig(change)
    }

    fn wrap(action: Action) -> AnyAction {
        AnyAction::Pulsar(action)
    }

    fn unwrap(any: &AnyAction) -> Option<&Action> {
        match any {
            AnyAction::Pulsar(a) => Some(a),
            _ => None,
        }
    }

    fn subject(event: &Event) -> Option<Subject> {
        subject::of(event)
    }

    fn changes(before: &Sim, after: &Sim) -> Vec<String> {
        let owner = |s: &Sim, id: &BundleId| {
            s.bundles
                .get(id)
                .and_then(|b| b.owner())
                .map_or("nobody".to_string(), |o| o.0.to_string())
        };
        let mut out: Vec<String> = after
            .bundles
            .keys()
            .filter(|id| !before.bundles.contains_key(*id))
            .map(|id| format!("bundle {id}: new (split), owned by {}", owner(after, id)))
            .collect();
        out.extend(before.bundles.keys().filter_map(|id| {
            if !after.bundles.contains_key(id) {
                return Some(format!("bundle {id}: split"));
            }
            let (a, b) = (owner(before, id), owner(after, id));
            (a != b).then(|| format!("bundle {id}: {a} → {b}"))
        }));
        if out.is_empty() {
            out.push("no bundle would move".into());
        }
        out
    }

    fn series(events: &mut dyn Iterator<Item = &Event>) -> Vec<Series> {
        let mut shaped = Vec::new();
        let rounds: Vec<(f64, &RoundMetrics)> = events
            .filter_map(|e| match e {
                Event::RoundDone { metrics } => Some((metrics.round as f64, metrics)),
                Event::Workload(w) => {
                    shaped.push(w);
                    None
                }
                _ => None,
            })
            .collect();
        let mut out = vec![
            Series::of("max load", "%", &rounds, |m| m.max_load),
            Series::of("avg load", "%", &rounds, |m| m.avg_load),
            Series::of("min load", "%", &rounds, |m| m.min_load),
            Series::of("std dev", "pts", &rounds, |m| m.std_dev),
            Series::of("bundles moved", "", &rounds, |m| f64::from(m.bundles_moved)),
            Series::of("reconnects", "", &rounds, |m| m.reconnects as f64),
        ];
        out.extend(workload::series(&shaped));
        out
    }

    fn charted(e: &Event) -> bool {
        matches!(e, Event::RoundDone { .. } | Event::Workload(_))
    }

    fn weight(a: &Action) -> u64 {
        1 + match a {
            Action::CreateTopics { count, .. } => u64::from(*count),
            Action::CreatePartitionedTopic { partitions, .. } => u64::from(*partitions),
            _ => 0,
        }
    }

    fn open_cost(config: &Config, a: &Action) -> u64 {
        Self::weight(a)
            + match a {
                Action::CreateNamespace { bundles, .. } => {
                    u64::from(bundles.unwrap_or(config.default_number_of_namespace_bundles))
                }
                Action::CreateNamespaceWithBoundaries { boundaries, .. } => boundaries.len() as u64,
                _ => 0,
            }
    }

    fn view_json(&self) -> serde_json::Value {
        let rings: Vec<_> = self
            .namespaces()
            .keys()
            .filter_map(|ns| self.ring_view(ns, false))
            .collect();
        serde_json::json!({ "namespaces": rings, "brokers": self.broker_views(), "rounds": self.metrics() })
    }

    /// The same keys, each namespace's ring built as it is written.
    fn serialize_view<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let rings = crate::engine::LazySeq(|| {
            self.namespaces()
                .keys()
                .filter_map(|ns| self.ring_view(ns, false))
        });
        let mut m = s.serialize_map(Some(3))?;
        m.serialize_entry("brokers", &self.broker_views())?;
        m.serialize_entry("namespaces", &rings)?;
        m.serialize_entry("rounds", self.metrics())?;
        m.end()
    }

    fn invariants(&self) -> Result<(), String> {
        invariants::check(self)
    }

    fn strategies() -> Vec<crate::engine::strategy::StrategyInfo> {
        let mut all = SheddingStrategy::infos();
        all.extend(PlacementStrategy::infos());
        all
    }
}

impl schema::Schema for Config {
    fn knobs() -> &'static [schema::Knob] {
        knobs::KNOBS
    }

    const PROFILE_KEY: Option<&'static str> = Some("profile");

    fn profiles() -> Vec<(&'static str, Config)> {
        vec![
            ("pulsar-5.0", Config::profile(Profile::Pulsar5)),
            ("pulsar-4.2", Config::profile(Profile::Pulsar4)),
            ("pulsar-4.0", Config::profile(Profile::Pulsar40)),
        ]
    }

    fn baseline(&self) -> Config {
        Config::profile(self.profile)
    }

    fn rules(&self) -> Result<(), String> {
        validate_config(self).map_err(|e| e.to_string())
    }

    fn unmodelled(&self) -> &std::collections::BTreeMap<String, serde_json::Value> {
        &self.unmodelled
    }

    fn compare_keys() -> &'static [&'static str] {
        &[
            "loadBalancerLoadSheddingStrategy",
            "loadBalancerLoadPlacementStrategy",
            "loadManagerClassName",
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::pulsar::broker::Capacity;
    use crate::engine::pulsar::topic::TopicNameError;
    use crate::engine::Narrate;

    #[test]
    fn doc_topic_lands_in_first_of_four_bundles() {
        let mut sim = Sim::new(Config::profile(Profile::Pulsar4), 1).unwrap();
        sim.apply(&Action::CreateNamespace {
            namespace: "public/default".into(),
            bundles: Some(4),
        })
        .unwrap();
        let ev = sim
            .apply(&Action::CreateTopic {
                topic: "persistent://public/default/my-topic".into(),
            })
            .unwrap();
        match &ev[0] {
            Event::TopicCreated { hash, bundle, .. } => {
                assert_eq!(*hash, 0x2bad45f7);
                assert_eq!(bundle.name(), "0x00000000_0x40000000");
            }
            e => panic!("unexpected {e:?}"),
        }
        assert!(ev[0].narrate().contains("0x2bad45f7"));
        // No broker yet: the lookup finds none.
        assert!(matches!(ev[1], Event::NoBrokerAvailable { .. }));
    }

    /// The names a bulk creation builds without parsing are the ones parsing
    /// each gives, with the same hashes; a prefix that could give another name
    /// or a taken one goes one by one, and is refused as before.
    #[test]
    fn bulk_names_are_the_parsed_names() {
        let mut sim = Sim::new(Config::profile(Profile::Pulsar4), 1).unwrap();
        for ns in ["t/a", "t/b"] {
            sim.apply(&Action::CreateNamespace {
                namespace: ns.into(),
                bundles: Some(8),
            })
            .unwrap();
        }
        for (prefix, count) in [
            ("x", 1),
            ("x", 1200),
            ("two words", 11),
            ("ü-ñ", 3),
            ("", 4),
            ("x ", 2),
            (" x", 2),
        ] {
            let fast = sim
                .bulk_names("t/a", prefix, count)
                .expect("a plain prefix is built");
            let slow: Vec<(TopicName, u32)> = (0..count)
                .map(|i| sim.check_new_topic(&format!("t/a/{prefix}-{i}"), None).unwrap())
                .collect();
            assert_eq!(fast, slow, "{prefix} x {count}");
        }
        // Nothing to build, or a prefix whose names would not be `persistent://t/a/{prefix}-{i}`.
        for prefix in ["x", "sub/x", "a://b"] {
            let count = if prefix == "x" { 0 } else { 4 };
            assert_eq!(sim.bulk_names("t/a", prefix, count), None, "{prefix:?}");
        }
        // A topic of the namespace that starts like the names, taken or not.
        let create = |prefix: &str, count| Action::CreateTopics {
            namespace: "t/b".into(),
            prefix: prefix.into(),
            count,
            traffic: Traffic::default(),
        };
        sim.apply(&Action::CreateTopic {
            topic: "persistent://t/b/y-7".into(),
        })
        .unwrap();
        sim.apply(&Action::CreateTopic {
            topic: "persistent://t/b/z-1x".into(),
        })
        .unwrap();
        assert_eq!(sim.bulk_names("t/b", "y", 5), None);
        assert_eq!(
            sim.apply(&create("y", 9)),
            Err(Error::TopicExists("persistent://t/b/y-7".into()))
        );
        assert_eq!(sim.bulk_names("t/b", "z", 5), None);
        let ev = sim.apply(&create("z", 5)).expect("z-1x is not one of z-0 .. z-4");
        assert!(matches!(ev[0], Event::TopicsCreated { count: 5, .. }), "{ev:?}");
        assert!(sim.namespaces()["t/b"]
            .topics
            .contains_key(&TopicName("persistent://t/b/z-4".into())));
        // A short name has three parts at most.
        assert_eq!(
            sim.apply(&create("q/r", 2)),
            Err(Error::TopicName(TopicNameError::Malformed("t/b/q/r-0".into())))
        );
    }

    #[test]
    fn errors_leave_state_unchanged() {
        let mut sim = Sim::new(Config::profile(Profile::Pulsar4), 1).unwrap();
        let zero = Action::CreateNamespace {
            namespace: "a/b".into(),
            bundles: Some(0),
        };
        assert_eq!(sim.apply(&zero), Err(Error::ZeroBundles(0)));
        assert!(sim.namespaces().is_empty());
        assert!(matches!(
            sim.apply(&Action::CreateTopic {
                topic: "a/b/t".into()
            }),
            Err(Error::NoSuchNamespace(_))
        ));
        assert!(matches!(
            sim.apply(&Action::CreateNamespace {
                namespace: "nope".into(),
                bundles: None
            }),
            Err(Error::BadNamespace(_))
        ));
    }

    #[test]
    fn system_namespace_gets_its_own_default() {
        let mut sim = Sim::new(Config::profile(Profile::Pulsar5), 1).unwrap();
        sim.apply(&Action::CreateNamespace {
            namespace: "pulsar/system".into(),
            bundles: None,
        })
        .unwrap();
        sim.apply(&Action::CreateNamespace {
            namespace: "t/n".into(),
            bundles: None,
        })
        .unwrap();
        assert_eq!(sim.namespaces()["pulsar/system"].bundles.len(), 64);
        assert_eq!(sim.namespaces()["t/n"].bundles.len(), 32);
        assert_eq!(sim.bundles().len(), 96);
    }

    #[test]
    fn five_zero_warning_when_shedding_set_alone() {
        let mut sim = Sim::new(Config::profile(Profile::Pulsar5), 1).unwrap();
        let mut c = Config::profile(Profile::Pulsar5);
        c.load_balancer_load_shedding_strategy = SheddingStrategy::ThresholdShedder;
        let ev = sim.apply(&Action::whole_config(&c)).unwrap();
        assert!(ev.iter().any(
            |e| matches!(e, Event::Warning { message } if message.contains("LeastLongTermMessageRate"))
        ));
        assert_eq!(
            sim.effective_config().load_balancer_load_placement_strategy,
            PlacementStrategy::LeastLongTermMessageRate
        );
        assert_eq!(
            sim.config().load_balancer_load_placement_strategy,
            PlacementStrategy::AvgShedder
        );
    }

    /// Derived by reading `NamespacesBase.validateBundlesData` and
    /// `NamespaceBundleFactory.validateFullRange`: repeated boundaries are ignored,
    /// the rest sorted, and the set must start at 0x00000000 and end at 0xffffffff.
    #[test]
    fn namespaces_base_validate_bundles_data() {
        let mut sim = Sim::new(Config::default(), 1).unwrap();
        let ev = sim
            .apply(&Action::CreateNamespaceWithBoundaries {
                namespace: "t/n".into(),
                boundaries: vec![0xFFFF_FFFF, 0x1000_0000, 0, 0x1000_0000, 0x9000_0000],
            })
            .unwrap();
        let names: Vec<String> = sim.namespaces()["t/n"].bundles.iter().map(|b| b.name()).collect();
        assert_eq!(
            names,
            [
                "0x00000000_0x10000000",
                "0x10000000_0x90000000",
                "0x90000000_0xffffffff"
            ]
        );
        assert!(matches!(&ev[0], Event::NamespaceCreated { bundles, .. } if bundles.len() == 3));
        assert_eq!(
            ev[0].narrate(),
            "namespace t/n created with 3 bundles at the given boundaries 0x00000000, 0x10000000, 0x90000000, 0xffffffff"
        );
        assert_eq!(sim.bundles().len(), 3);
        let before = format!("{sim:?}");
        for (b, want) in [
            (
                vec![0x10, 0xFFFF_FFFF],
                "invalid value: Input bundles do not cover the whole hash range. first:0x00000010, last:0xffffffff",
            ),
            (
                vec![0, 0x8000_0000],
                "invalid value: Input bundles do not cover the whole hash range. first:0x00000000, last:0x80000000",
            ),
            (
                vec![0, 0],
                "invalid value: Input bundles do not cover the whole hash range. first:0x00000000, last:0x00000000",
            ),
            (vec![], "a namespace needs at least 1 bundle (got 0)"),
        ] {
            let err = sim
                .apply(&Action::CreateNamespaceWithBoundaries {
                    namespace: "t/m".into(),
                    boundaries: b,
                })
                .unwrap_err();
            assert_eq!(err.to_string(), want);
        }
        let dup = sim.apply(&Action::CreateNamespaceWithBoundaries {
            namespace: "t/n".into(),
            boundaries: vec![0, 0xFFFF_FFFF],
        });
        assert_eq!(dup.unwrap_err(), Error::NamespaceExists("t/n".into()));
        assert_eq!(
            before,
            format!("{sim:?}"),
            "refused actions leave the state unchanged"
        );
    }

    /// An assigned bundle is owned by the named broker, topics created in it are
    /// served there without a placement decision, and a bundle can only be
    /// assigned while unowned and settled.
    #[test]
    fn assign_bundle_sets_the_owner_a_lookup_would() {
        for lm in [LoadManager::Modular, LoadManager::Extensible] {
            let c = Config {
                load_manager_class_name: lm,
                ..Config::default()
            };
            let mut sim = Sim::new(c, 1).unwrap();
            for b in ["b1", "b2"] {
                sim.apply(&Action::AddBroker {
                    broker: b.into(),
                    capacity: Capacity::default(),
                })
                .unwrap();
            }
            sim.apply(&Action::CreateNamespace {
                namespace: "public/default".into(),
                bundles: Some(4),
            })
            .unwrap();
            let ev = sim
                .apply(&Action::AssignBundle {
                    bundle: "public/default/0x00000000_0x40000000".into(),
                    broker: "b2".into(),
                })
                .unwrap();
            let last = ev.last().unwrap();
            assert!(matches!(last, Event::BundleAssigned { broker, .. } if broker.as_str() == "b2"));
            assert_eq!(
                last.narrate(),
                "bundle public/default/0x00000000_0x40000000 assigned to b2 directly; clients redirected to b2"
            );
            if lm == LoadManager::Extensible {
                assert!(ev.iter().any(|e| matches!(
                    e,
                    Event::StateChanged {
                        to: ServiceUnitState::Owned,
                        ..
                    }
                )));
            }
            // my-topic hashes to 0x2bad45f7, inside the assigned bundle.
            let ev = sim
                .apply(&Action::CreateTopic {
                    topic: "my-topic".into(),
                })
                .unwrap();
            assert!(!ev.iter().any(|e| matches!(e, Event::Lookup { .. })), "{ev:?}");
            let bid = BundleId {
                namespace: "public/default".into(),
                range: BundleRange {
                    lower: 0,
                    upper: 0x4000_0000,
                },
            };
            assert_eq!(sim.bundles()[&bid].owner().map(|b| b.as_str()), Some("b2"));
            let before = format!("{sim:?}");
            for (bundle, broker, want) in [
                (
                    "public/default/0x00000000_0x40000000",
                    "b1",
                    "invalid value: bundle public/default/0x00000000_0x40000000 is already owned by b2",
                ),
                (
                    "public/default/0x00000000_0x20000000",
                    "b1",
                    "no bundle public/default/0x00000000_0x20000000",
                ),
                (
                    "public/default/0x40000000_0x80000000",
                    "b9",
                    "broker b9 does not exist",
                ),
            ] {
                let err = sim
                    .apply(&Action::AssignBundle {
                        bundle: bundle.into(),
                        broker: broker.into(),
                    })
                    .unwrap_err();
                assert_eq!(err.to_string(), want);
            }
            assert_eq!(before, format!("{sim:?}"));
        }
    }
}
