//! Pulsar: brokers (one per load report, capacities from the reported limits),
//! namespaces (bundle boundaries from `namespaces bundles`, else from the bundles
//! the reports list), bundle ownership (each report's `bundles`), topics (from
//! `namespaces topics` / `topics stats`, hashed into bundles as Pulsar hashes
//! them) and traffic (each topic's stats; without them, the reports' per-bundle
//! `lastStats`).
//!
//! Setup order: namespaces, brokers (in input order: the first is lbscope's
//! leader), `assign_bundle` for every reported bundle, topics (a topic in a bundle
//! no report owns is placed by lbscope's lookup, as a client lookup would place
//! it), then traffic.
//!
//! A `namespaces bundles` output without any load report opens on its real
//! boundaries with one assumed broker ([`ASSUMED_BROKER`]) owning every bundle.

use super::pulsar_admin::{self, BrokerReport, NamedTopic, RESOURCES};
use super::{json, shorten, thousands, ImportError, Input, InputKind, Notes, Options};
use crate::engine::pulsar::broker::Capacity;
use crate::engine::pulsar::bundle::{self, BundleRange};
use crate::engine::pulsar::config::LoadManager;
use crate::engine::pulsar::topic::TopicName;
use crate::engine::pulsar::traffic::Traffic;
use crate::engine::pulsar::{self};
use crate::engine::System;
use crate::scenario::{Body, Scenario};
use crate::sort::StableSort;
use std::collections::{BTreeMap, BTreeSet};

/// Where a namespace's bundles come from.
enum Tiling {
    /// A `namespaces bundles` input's boundaries.
    Given(Vec<u32>),
    /// The reports' bundles (gaps filled with one bundle each).
    Reported(Vec<BundleRange>),
    /// `defaultNumberOfNamespaceBundles`.
    Default,
}

fn split_bundle(input: &str, full: &str) -> Result<(String, BundleRange), ImportError> {
    let bad = || {
        ImportError::bad(
            input,
            format!(
                "bundle {:?} is not of the form tenant/namespace/0xLLLLLLLL_0xUUUUUUUU",
                shorten(full, 80)
            ),
        )
    };
    let (ns, range) = full.rsplit_once('/').ok_or_else(bad)?;
    let range = BundleRange::parse(range).ok_or_else(bad)?;
    let parts: Vec<&str> = ns.split('/').collect();
    if parts.len() == 3 {
        return Err(ImportError::bad(
            input,
            format!("bundle {full}: {ns} is a v1 namespace (tenant/cluster/namespace); lbscope models tenant/namespace"),
        ));
    }
    if parts.len() != 2 || parts.iter().any(|p| p.is_empty()) {
        return Err(bad());
    }
    Ok((ns.to_string(), range))
}

/// The load manager a report's `loadManagerClassName` names.
fn load_manager(name: &str) -> Option<LoadManager> {
    if name.ends_with("ExtensibleLoadManagerImpl") || name.ends_with("ExtensibleLoadManagerWrapper") {
        Some(LoadManager::Extensible)
    } else if name.ends_with("ModularLoadManagerImpl") || name.ends_with("ModularLoadManagerWrapper") {
        Some(LoadManager::Modular)
    } else {
        None
    }
}

/// Capacities from the reported limits (lbscope's default where a limit is not positive).
fn capacity(input: &str, r: &BrokerReport, pinned: bool, notes: &mut Notes) -> Capacity {
    let d = Capacity::default();
    let lim = |i: usize| {
        r.resources[i]
            .map(|u| u.limit)
            .filter(|l| l.is_finite() && *l > 0.0)
    };
    let mut assumed = Vec::new();
    let mut pick = |i: usize, scale: f64, default: f64| match lim(i) {
        Some(l) => l / scale,
        None => {
            assumed.push(RESOURCES[i]);
            default
        }
    };
    let c = Capacity {
        cpu_cores: pick(0, 100.0, d.cpu_cores),
        memory_mb: pick(1, 1.0, d.memory_mb),
        direct_memory_mb: pick(2, 1.0, d.direct_memory_mb),
        nic_in_mbit: pick(3, 1000.0, d.nic_in_mbit),
        nic_out_mbit: pick(4, 1000.0, d.nic_out_mbit),
    };
    if !assumed.is_empty() {
        notes.add(
            input,
            format!(
                "broker {}: no positive limit for {}: lbscope's default capacity is used for it",
                r.broker,
                assumed.join(", ")
            ),
        );
    }
    let used: Vec<String> = RESOURCES
        .iter()
        .zip(&r.resources)
        .filter_map(|(n, u)| {
            let u = (*u)?;
            (u.limit > 0.0).then(|| format!("{n} {:.1} %", 100.0 * u.usage / u.limit))
        })
        .collect();
    notes.add(
        input,
        format!(
            "broker {}: capacity {} cores, {:.0} MB memory, {:.0} MB direct memory, {:.0}/{:.0} Mbit/s NIC in/out \
             (from the report's limits); the reported usage{} {}",
            r.broker,
            c.cpu_cores,
            c.memory_mb,
            c.direct_memory_mb,
            c.nic_in_mbit,
            c.nic_out_mbit,
            if used.is_empty() {
                String::new()
            } else {
                format!(" ({})", used.join(", "))
            },
            if pinned {
                "is pinned with set_broker_load (--reported-usage): it stays as reported whatever moves"
            } else {
                "is not set: lbscope derives usage from the traffic it is given (--reported-usage pins it instead)"
            }
        ),
    );
    c
}

/// The reported usage in percent, for `set_broker_load`.
fn reported_usage(r: &BrokerReport) -> pulsar::broker::DirectUsage {
    let pct = |i: usize| {
        r.resources[i]
            .filter(|u| u.limit > 0.0 && u.usage.is_finite() && u.usage >= 0.0)
            .map(|u| 100.0 * u.usage / u.limit)
    };
    pulsar::broker::DirectUsage {
        cpu: pct(0),
        memory: pct(1),
        direct_memory: pct(2),
        bandwidth_in: pct(3),
        bandwidth_out: pct(4),
    }
}

/// The broker lbscope adds when no load report names one (a `namespaces bundles`
/// output alone): it owns every bundle.
pub const ASSUMED_BROKER: &str = "broker-1:8080";

/// The namespace a lone `namespaces bundles` output is taken for when nothing
/// else names one (Pulsar's default namespace).
const ASSUMED_NAMESPACE: &str = "public/default";

/// Build the Pulsar scenario: parse every input, check that they agree, then
/// assemble the setup.
pub(super) fn build(
    inputs: &[Input<'_>],
    options: &Options,
    notes: &mut Notes,
) -> Result<Scenario, ImportError> {
    let parsed = parse_inputs(inputs, notes)?;
    check_enough(&parsed, options)?;
    let owners = check_ownership(&parsed.reports)?;
    let topics = collect_topics(parsed.named, notes)?;
    let tilings = tile_namespaces(&parsed.bundles, &owners, &topics, options, notes)?;
    assemble(&parsed.reports, &owners, &tilings, &topics, options, notes)
}

/// What the inputs say, each read on its own.
struct Parsed<'a> {
    /// Each `namespaces bundles` input's boundaries.
    bundles: Vec<(&'a str, Vec<u32>)>,
    /// Each load report.
    reports: Vec<(&'a str, BrokerReport)>,
    /// Each topic named, with its input.
    named: Vec<(&'a str, NamedTopic)>,
}

/// Parse every input by its kind, noting the fields lbscope does not read.
fn parse_inputs<'a>(inputs: &[Input<'a>], notes: &mut Notes) -> Result<Parsed<'a>, ImportError> {
    let mut p = Parsed {
        bundles: Vec::new(),
        reports: Vec::new(),
        named: Vec::new(),
    };
    for inp in inputs {
        match inp.kind {
            InputKind::PulsarBundles => {
                let v = json::parse(inp.name, inp.text)?;
                let (b, unused) = pulsar_admin::parse_bundles(inp.name, &v)?;
                notes.unused_fields(inp.name, "bundles", unused);
                p.bundles.push((inp.name, b));
            }
            InputKind::PulsarLocalBrokerData | InputKind::PulsarLoadReport => {
                let v = json::parse(inp.name, inp.text)?;
                let r = pulsar_admin::parse_load_report(inp.name, &v)?;
                notes.unused_fields(inp.name, "load report", r.unused.iter().cloned());
                p.reports.push((inp.name, r));
            }
            InputKind::PulsarTopicList | InputKind::PulsarTopicStats => {
                let list = parse_topic_input(inp, notes)?;
                p.named.extend(list.into_iter().map(|t| (inp.name, t)));
                if p.named.len() > pulsar_admin::MAX_TOPICS {
                    return Err(ImportError::too_large(
                        inp.name,
                        format!(
                            "the inputs name more than {} topics; lbscope imports at most that many (each needs \
                             two of a scenario's 100,000 actions)",
                            thousands(pulsar_admin::MAX_TOPICS)
                        ),
                    ));
                }
            }
            InputKind::PulsarUnnamedTopicStats => {
                return Err(ImportError::bad(
                    inp.name,
                    "a topics stats JSON does not name its topic: print each topic's name on the line before its \
                     stats (for t in $(pulsar-admin namespaces topics NS); do echo $t; pulsar-admin topics stats $t; \
                     done)",
                ))
            }
            _ => {}
        }
    }
    Ok(p)
}

/// One topic list or topic stats input, with the stats fields it does not use noted.
fn parse_topic_input(inp: &Input<'_>, notes: &mut Notes) -> Result<Vec<NamedTopic>, ImportError> {
    let list = pulsar_admin::parse_topics(inp.name, inp.text)?;
    let mut unused = BTreeSet::new();
    for s in list.iter().filter_map(|t| t.stats.as_ref()) {
        unused.extend(s.unused.iter().cloned());
        for (_, p) in &s.per_partition {
            unused.extend(p.unused.iter().map(|f| format!("partitions.*.{f}")));
        }
    }
    notes.unused_fields(inp.name, "topics stats", unused);
    Ok(list)
}

/// The inputs must name the brokers (load reports) or at least the bundles:
/// a `namespaces bundles` output alone opens on one assumed broker.
fn check_enough(p: &Parsed<'_>, options: &Options) -> Result<(), ImportError> {
    if !p.reports.is_empty() {
        return Ok(());
    }
    if p.bundles.is_empty() {
        return Err(ImportError::Missing(
            "no load report among the inputs: give `pulsar-admin --admin-url http://BROKER:8080 broker-stats \
             load-report` of each broker (they name the brokers, their capacities and the bundles they own)"
                .into(),
        ));
    }
    if options.reported_usage {
        return Err(ImportError::BadOption(
            "--reported-usage pins each broker's usage to its load report, but no load report was given"
                .into(),
        ));
    }
    Ok(())
}

/// Who owns which bundle, by the load reports.
struct Owners<'a> {
    /// `(namespace, range)` → (broker, the report's input).
    owner: BTreeMap<(String, BundleRange), (String, &'a str)>,
    /// Each namespace's reported bundles.
    reported: BTreeMap<String, Vec<BundleRange>>,
}

/// Check that no broker reports twice and no bundle has two owners.
fn check_ownership<'a>(reports: &[(&'a str, BrokerReport)]) -> Result<Owners<'a>, ImportError> {
    let mut brokers: BTreeSet<&str> = BTreeSet::new();
    let mut o = Owners {
        owner: BTreeMap::new(),
        reported: BTreeMap::new(),
    };
    for (input, r) in reports {
        if !brokers.insert(&r.broker) {
            return Err(ImportError::bad(
                input,
                format!("broker {} has a load report in another input too", r.broker),
            ));
        }
        for b in &r.bundles {
            let (ns, range) = split_bundle(input, b)?;
            if let Some((other, _)) = o.owner.get(&(ns.clone(), range)) {
                return Err(ImportError::bad(
                    input,
                    format!(
                        "bundle {b} is owned by {} and by {other} in the reports (were they taken at different times?)",
                        r.broker
                    ),
                ));
            }
            o.owner.insert((ns.clone(), range), (r.broker.clone(), input));
            o.reported.entry(ns).or_default().push(range);
        }
        for s in &r.stats {
            split_bundle(input, &s.bundle)?;
        }
    }
    Ok(o)
}

/// One topic to create.
struct TopicIn {
    name: TopicName,
    traffic: Option<Traffic>,
    /// A partitioned topic without per-partition stats: its partition count.
    partitions: u32,
}

/// The topics, each once (partitioned stats with per-partition stats become
/// their partitions; partitions listed by name join their partitioned topic).
fn collect_topics(named: Vec<(&str, NamedTopic)>, notes: &mut Notes) -> Result<Vec<TopicIn>, ImportError> {
    let mut topics = Topics::default();
    for (input, t) in named {
        topics.add_named(input, t, notes)?;
        let count: usize = topics.list.iter().map(|t| t.partitions.max(1) as usize).sum();
        if count > pulsar_admin::MAX_TOPICS {
            return Err(ImportError::too_large(
                input,
                format!(
                    "the inputs name more than {} topics (partitions counted one by one); lbscope imports at most \
                     that many",
                    thousands(pulsar_admin::MAX_TOPICS)
                ),
            ));
        }
    }
    if topics.repeats > 0 {
        notes.add(
            "import",
            format!(
                "{} topic names appear more than once; each is created once",
                topics.repeats
            ),
        );
    }
    let mut list = topics.list;
    merge_listed_partitions(&mut list, notes);
    Ok(list)
}

/// Topics as they are collected, each name once.
#[derive(Default)]
struct Topics {
    list: Vec<TopicIn>,
    by_name: BTreeMap<TopicName, usize>,
    repeats: usize,
}

impl Topics {
    /// Add a topic; a name seen before counts as a repeat and only lends its
    /// traffic to a first sighting that had none.
    fn add(&mut self, name: TopicName, traffic: Option<Traffic>, partitions: u32) {
        match self.by_name.get(&name) {
            Some(&i) => {
                self.repeats += 1;
                let t = &mut self.list[i];
                if t.traffic.is_none() && traffic.is_some() {
                    t.traffic = traffic;
                    t.partitions = partitions;
                }
            }
            None => {
                self.by_name.insert(name.clone(), self.list.len());
                self.list.push(TopicIn {
                    name,
                    traffic,
                    partitions,
                });
            }
        }
    }

    /// Add one named topic of `input` (its partitions, when its stats list them).
    fn add_named(&mut self, input: &str, t: NamedTopic, notes: &mut Notes) -> Result<(), ImportError> {
        let parse = |n: &str| {
            TopicName::parse(n).map_err(|e| ImportError::bad(input, format!("line {}: {e}", t.line)))
        };
        let name = parse(&t.name)?;
        match t.stats {
            Some(s) if !s.per_partition.is_empty() => {
                for (pname, ps) in s.per_partition {
                    if !super::looks_like_topic_name(&pname) || super::clean_name(&pname).1 {
                        return Err(ImportError::bad(
                            input,
                            format!(
                                "the stats of {name} (line {}): partition {:?} is not a topic name",
                                t.line,
                                shorten(&pname, 80)
                            ),
                        ));
                    }
                    self.add(parse(&pname)?, Some(ps.traffic), 0);
                }
            }
            Some(s) if s.partitions > 0 => {
                notes.add(
                    input,
                    format!(
                        "line {}: {name} is a partitioned topic of {} partitions without per-partition stats: its \
                         traffic is spread evenly over them (topics partitioned-stats --per-partition gives each)",
                        t.line, s.partitions
                    ),
                );
                self.add(name, Some(s.traffic), s.partitions);
            }
            Some(s) => self.add(name, Some(s.traffic), 0),
            None => self.add(name, None, 0),
        }
        Ok(())
    }
}

/// Partitions listed by name belong to a partitioned topic created whole from its stats.
fn merge_listed_partitions(topics: &mut Vec<TopicIn>, notes: &mut Notes) {
    let parents: BTreeMap<String, u32> = topics
        .iter()
        .filter(|t| t.partitions > 0)
        .map(|t| (t.name.0.to_string(), t.partitions))
        .collect();
    if parents.is_empty() {
        return;
    }
    let before = topics.len();
    topics.retain(|t| {
        let Some((parent, idx)) = t.name.0.rsplit_once("-partition-") else {
            return true;
        };
        !parents
            .get(parent)
            .is_some_and(|&n| idx.parse::<u32>().is_ok_and(|i| i < n))
    });
    let merged = before - topics.len();
    if merged > 0 {
        notes.add(
            "import",
            format!("{merged} partitions listed by name are created with their partitioned topic"),
        );
    }
}

/// Each namespace's bundles: a `namespaces bundles` input's, else the reported
/// ones, else the default count.
fn tile_namespaces(
    bundle_inputs: &[(&str, Vec<u32>)],
    owners: &Owners<'_>,
    topics: &[TopicIn],
    options: &Options,
    notes: &mut Notes,
) -> Result<BTreeMap<String, Tiling>, ImportError> {
    let mut namespaces: BTreeSet<String> = owners.reported.keys().cloned().collect();
    namespaces.extend(topics.iter().map(|t| t.name.namespace().to_string()));
    let mut tilings: BTreeMap<String, Tiling> = BTreeMap::new();
    check_namespace_option(options, bundle_inputs.len())?;
    for (input, b) in bundle_inputs {
        let ranges = distinct_ranges(b);
        let ns = match &options.namespace {
            Some(ns) => ns.clone(),
            None => namespace_of_bundles(
                input,
                &ranges,
                &namespaces,
                &tilings,
                owners,
                bundle_inputs.len(),
                notes,
            )?,
        };
        if tilings.contains_key(&ns) {
            return Err(ImportError::BadOption(format!(
                "two `namespaces bundles` inputs for {ns}; give one"
            )));
        }
        check_reported_fit(input, &ns, &ranges, owners)?;
        namespaces.insert(ns.clone());
        tilings.insert(ns, Tiling::Given(b.clone()));
    }
    for ns in &namespaces {
        if tilings.contains_key(ns) {
            continue;
        }
        let tiling = match owners.reported.get(ns) {
            Some(rs) => tiling_from_reports(ns, rs, notes)?,
            None => {
                notes.add(
                    "import",
                    format!(
                        "no bundles known for {ns}: it is created with defaultNumberOfNamespaceBundles (give \
                         `pulsar-admin namespaces bundles {ns}` for its real boundaries)"
                    ),
                );
                Tiling::Default
            }
        };
        tilings.insert(ns.clone(), tiling);
    }
    Ok(tilings)
}

/// The bundles a list of boundaries makes (duplicates and order ignored).
fn distinct_ranges(b: &[u32]) -> Vec<BundleRange> {
    let s: Vec<u32> = b.iter().copied().collect::<BTreeSet<_>>().into_iter().collect();
    bundle::ranges_from_boundaries(&s)
}

/// `--namespace` names the namespace of exactly one bundles input, as tenant/namespace.
fn check_namespace_option(options: &Options, bundle_inputs: usize) -> Result<(), ImportError> {
    let Some(ns) = &options.namespace else {
        return Ok(());
    };
    if bundle_inputs != 1 {
        return Err(ImportError::BadOption(format!(
            "--namespace {ns} names the namespace of one `namespaces bundles` input, but {bundle_inputs} were given"
        )));
    }
    let parts: Vec<&str> = ns.split('/').collect();
    if parts.len() != 2 || parts.iter().any(|p| p.is_empty()) {
        return Err(ImportError::BadOption(format!(
            "--namespace {ns:?} is not of the form tenant/namespace"
        )));
    }
    Ok(())
}

/// Which namespace a `namespaces bundles` input is (it does not print its own):
/// the one namespace not yet tiled, else the one whose reported bundles it holds;
/// with nothing naming any namespace, a lone bundles input is Pulsar's default
/// namespace.
fn namespace_of_bundles(
    input: &str,
    ranges: &[BundleRange],
    namespaces: &BTreeSet<String>,
    tilings: &BTreeMap<String, Tiling>,
    owners: &Owners<'_>,
    bundle_inputs: usize,
    notes: &mut Notes,
) -> Result<String, ImportError> {
    let fits = |ns: &str| {
        owners
            .reported
            .get(ns)
            .is_none_or(|rs| rs.iter().all(|r| ranges.binary_search(r).is_ok()))
    };
    let open: Vec<&String> = namespaces.iter().filter(|n| !tilings.contains_key(*n)).collect();
    let fitting: Vec<&String> = open
        .iter()
        .copied()
        .filter(|n| owners.reported.contains_key(*n) && fits(n))
        .collect();
    if open.len() == 1 {
        return Ok(open[0].clone());
    }
    if fitting.len() == 1 {
        notes.add(
            input,
            format!(
                "taken as the bundles of {}, the one namespace whose reported bundles it holds",
                fitting[0]
            ),
        );
        return Ok(fitting[0].clone());
    }
    if namespaces.is_empty() && bundle_inputs == 1 {
        notes.add(
            input,
            format!(
                "no load report or topic names a namespace: taken as the bundles of {ASSUMED_NAMESPACE} (pass \
                 --namespace TENANT/NS for another)"
            ),
        );
        return Ok(ASSUMED_NAMESPACE.to_string());
    }
    Err(ImportError::Missing(format!(
        "{input}: `namespaces bundles` does not print its namespace and lbscope cannot tell which it is ({}): pass \
         --namespace TENANT/NS",
        if open.is_empty() {
            "no load report or topic names a namespace".to_string()
        } else {
            format!("candidates {}", open.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", "))
        }
    )))
}

/// Every bundle a report owns in `ns` must be one of the bundles `input` gives.
fn check_reported_fit(
    input: &str,
    ns: &str,
    ranges: &[BundleRange],
    owners: &Owners<'_>,
) -> Result<(), ImportError> {
    let Some(rs) = owners.reported.get(ns) else {
        return Ok(());
    };
    let Some(r) = rs.iter().find(|r| ranges.binary_search(r).is_err()) else {
        return Ok(());
    };
    let (broker, rin) = owners
        .owner
        .get(&(ns.to_string(), *r))
        .map_or((String::new(), input), |(b, i)| (b.clone(), *i));
    Err(ImportError::bad(
        rin,
        format!(
            "broker {broker} owns bundle {ns}/{r}, which is not one of the bundles {input} gives for {ns} (was a \
             bundle split between the two outputs?)"
        ),
    ))
}

/// A namespace's bundles from the reports alone: the reported ones, each gap
/// between them one unowned bundle.
fn tiling_from_reports(ns: &str, reported: &[BundleRange], notes: &mut Notes) -> Result<Tiling, ImportError> {
    let mut rs = reported.to_vec();
    rs.stable_sort();
    let mut tiling = Vec::new();
    let mut at: u64 = 0;
    let mut gaps = 0;
    for r in &rs {
        if u64::from(r.lower) < at {
            return Err(ImportError::Missing(format!(
                "the load reports list overlapping bundles of {ns} ({r} and the one before it): give \
                 `pulsar-admin namespaces bundles {ns}`"
            )));
        }
        if u64::from(r.lower) > at {
            tiling.push(BundleRange {
                lower: at as u32,
                upper: r.lower,
            });
            gaps += 1;
        }
        tiling.push(*r);
        at = u64::from(r.upper);
    }
    if at < u64::from(bundle::LAST_BOUNDARY) {
        tiling.push(BundleRange {
            lower: at as u32,
            upper: bundle::LAST_BOUNDARY,
        });
        gaps += 1;
    }
    notes.add(
        "import",
        format!(
            "no `namespaces bundles` input for {ns}: its bundles are the {} the load reports list{}",
            rs.len(),
            if gaps > 0 {
                format!(
                    ", and each of the {gaps} gaps between them is taken as one unowned bundle (give \
                     `pulsar-admin namespaces bundles {ns}` for the exact boundaries)"
                )
            } else {
                String::new()
            }
        ),
    );
    Ok(Tiling::Reported(tiling))
}

/// The scenario: config, namespaces, brokers, ownership, topics, traffic.
fn assemble(
    reports: &[(&str, BrokerReport)],
    owners: &Owners<'_>,
    tilings: &BTreeMap<String, Tiling>,
    topics: &[TopicIn],
    options: &Options,
    notes: &mut Notes,
) -> Result<Scenario, ImportError> {
    let mut sc = Scenario::empty(System::Pulsar, options.seed);
    let Body::Pulsar(log) = &mut sc.body else {
        unreachable!("an empty Pulsar scenario")
    };
    set_load_manager(&mut log.config, reports, notes);
    let ranges_of = create_namespaces(
        &mut log.setup,
        tilings,
        log.config.default_number_of_namespace_bundles,
    );
    if reports.is_empty() {
        add_assumed_broker(
            &mut log.setup,
            &ranges_of,
            log.config.profile.name(),
            topics,
            notes,
        );
    } else {
        add_brokers(&mut log.setup, reports, options, notes);
    }
    create_topics(
        &mut log.setup,
        topics,
        &ranges_of,
        owners,
        reports.is_empty(),
        notes,
    );
    set_traffic(&mut log.setup, topics, reports, &ranges_of, notes)?;
    Ok(sc)
}

/// The load manager the reports name, and the profile lbscope starts from.
fn set_load_manager(
    config: &mut pulsar::config::Config,
    reports: &[(&str, BrokerReport)],
    notes: &mut Notes,
) {
    let managers: BTreeSet<&str> = reports
        .iter()
        .filter_map(|(_, r)| r.load_manager.as_deref())
        .collect();
    if let Some(first) = reports.iter().find_map(|(_, r)| r.load_manager.as_deref()) {
        match load_manager(first) {
            Some(lm) => config.load_manager_class_name = lm,
            None => notes.add(
                "import",
                format!(
                    "loadManagerClassName {first} is not modelled: lbscope uses ModularLoadManagerImpl (set \
                     loadManagerClassName to compare with ExtensibleLoadManagerImpl)"
                ),
            ),
        }
        if managers.len() > 1 {
            notes.add(
                "import",
                format!(
                    "the brokers report different load managers ({}): lbscope uses the first",
                    managers.iter().copied().collect::<Vec<_>>().join(", ")
                ),
            );
        }
    }
    let versions: BTreeSet<&str> = reports.iter().filter_map(|(_, r)| r.version.as_deref()).collect();
    if !versions.is_empty() {
        notes.add(
            "import",
            format!(
                "the brokers run Pulsar {}: lbscope starts from its default config (the {} profile); set_profile \
                 or set_config switch strategies",
                versions.iter().copied().collect::<Vec<_>>().join(", "),
                config.profile.name()
            ),
        );
    }
}

/// One namespace action per tiling; returns each namespace's bundles.
fn create_namespaces(
    setup: &mut Vec<pulsar::Action>,
    tilings: &BTreeMap<String, Tiling>,
    default_bundles: u32,
) -> BTreeMap<String, Vec<BundleRange>> {
    let mut ranges_of = BTreeMap::new();
    for (ns, t) in tilings {
        let (action, ranges) = match t {
            Tiling::Given(b) => (
                pulsar::Action::CreateNamespaceWithBoundaries {
                    namespace: ns.clone(),
                    boundaries: b.clone(),
                },
                distinct_ranges(b),
            ),
            Tiling::Reported(rs) => {
                let mut b: Vec<u32> = rs.iter().map(|r| r.lower).collect();
                b.push(bundle::LAST_BOUNDARY);
                (
                    pulsar::Action::CreateNamespaceWithBoundaries {
                        namespace: ns.clone(),
                        boundaries: b,
                    },
                    rs.clone(),
                )
            }
            Tiling::Default => {
                let b = bundle::initial_boundaries(default_bundles).unwrap_or_default();
                (
                    pulsar::Action::CreateNamespace {
                        namespace: ns.clone(),
                        bundles: None,
                    },
                    bundle::ranges_from_boundaries(&b),
                )
            }
        };
        setup.push(action);
        ranges_of.insert(ns.clone(), ranges);
    }
    ranges_of
}

/// One broker per report (the first lbscope's leader), then each reported bundle's owner.
fn add_brokers(
    setup: &mut Vec<pulsar::Action>,
    reports: &[(&str, BrokerReport)],
    options: &Options,
    notes: &mut Notes,
) {
    for (input, r) in reports {
        let capacity = capacity(input, r, options.reported_usage, notes);
        setup.push(pulsar::Action::AddBroker {
            broker: r.broker.clone(),
            capacity,
        });
        if options.reported_usage {
            setup.push(pulsar::Action::SetBrokerLoad {
                broker: r.broker.clone(),
                usage: reported_usage(r),
            });
        }
    }
    notes.add(
        "import",
        format!(
            "brokers are added in input order: {} is lbscope's leader (the real leader is not in the reports)",
            reports[0].1.broker
        ),
    );
    for (_, r) in reports {
        for b in &r.bundles {
            setup.push(pulsar::Action::AssignBundle {
                bundle: b.clone(),
                broker: r.broker.clone(),
            });
        }
    }
}

/// Without a load report: one broker of lbscope's default capacity, owning
/// every bundle (the one broker a lookup could pick).
fn add_assumed_broker(
    setup: &mut Vec<pulsar::Action>,
    ranges_of: &BTreeMap<String, Vec<BundleRange>>,
    profile: &str,
    topics: &[TopicIn],
    notes: &mut Notes,
) {
    let c = Capacity::default();
    setup.push(pulsar::Action::AddBroker {
        broker: ASSUMED_BROKER.to_string(),
        capacity: c,
    });
    let mut count = 0;
    for (ns, ranges) in ranges_of {
        for r in ranges {
            setup.push(pulsar::Action::AssignBundle {
                bundle: format!("{ns}/{r}"),
                broker: ASSUMED_BROKER.to_string(),
            });
            count += 1;
        }
    }
    let load = if topics.iter().any(|t| t.traffic.is_some()) {
        "the load is the topics stats' traffic"
    } else {
        "every bundle's load is zero (give topics stats for the traffic)"
    };
    notes.add(
        "import",
        format!(
            "no load report: the bundle boundaries are real, the brokers and loads are assumed: one broker \
             {ASSUMED_BROKER} of lbscope's default capacity ({} cores, {:.0} MB memory, {:.0} MB direct memory, \
             {:.0}/{:.0} Mbit/s NIC in/out) owns all {count} bundles; {load}; lbscope starts from the {profile} \
             profile (give each broker's `broker-stats load-report` for the real brokers, owners and usage)",
            c.cpu_cores, c.memory_mb, c.direct_memory_mb, c.nic_in_mbit, c.nic_out_mbit
        ),
    );
}

/// Create each topic (hashed into its bundle as Pulsar hashes it), noting the
/// bundles with topics that no reporting broker owns.
fn create_topics(
    setup: &mut Vec<pulsar::Action>,
    topics: &[TopicIn],
    ranges_of: &BTreeMap<String, Vec<BundleRange>>,
    owners: &Owners<'_>,
    all_owned: bool,
    notes: &mut Notes,
) {
    let mut unowned_bundles: BTreeSet<(String, BundleRange)> = BTreeSet::new();
    for t in topics {
        let ns = t.name.namespace().to_string();
        let ranges = &ranges_of[&ns];
        let mut hashes = Vec::new();
        if t.partitions > 0 {
            for i in 0..t.partitions {
                hashes.push(TopicName(format!("{}-partition-{i}", t.name.0).into()).hash());
            }
            setup.push(pulsar::Action::CreatePartitionedTopic {
                topic: t.name.0.to_string(),
                partitions: t.partitions,
            });
        } else {
            hashes.push(t.name.hash());
            setup.push(pulsar::Action::CreateTopic {
                topic: t.name.0.to_string(),
            });
        }
        for i in hashes.into_iter().filter_map(|h| bundle::find(ranges, h)) {
            if !all_owned && !owners.owner.contains_key(&(ns.clone(), ranges[i])) {
                unowned_bundles.insert((ns.clone(), ranges[i]));
            }
        }
    }
    if unowned_bundles.is_empty() {
        return;
    }
    let list: Vec<String> = unowned_bundles
        .iter()
        .take(8)
        .map(|(n, r)| format!("{n}/{r}"))
        .collect();
    notes.add(
        "import",
        format!(
            "{} bundles with topics are owned by no reporting broker ({}{}): lbscope's placement assigns them at the \
             topics' first lookup",
            unowned_bundles.len(),
            list.join(", "),
            if unowned_bundles.len() > list.len() { ", …" } else { "" }
        ),
    );
}

/// The traffic: each topic's stats, else the reports' per-bundle stats.
fn set_traffic(
    setup: &mut Vec<pulsar::Action>,
    topics: &[TopicIn],
    reports: &[(&str, BrokerReport)],
    ranges_of: &BTreeMap<String, Vec<BundleRange>>,
    notes: &mut Notes,
) -> Result<(), ImportError> {
    let with_stats = topics.iter().filter(|t| t.traffic.is_some()).count();
    for t in topics {
        if let Some(tr) = t.traffic.filter(Traffic::is_active) {
            setup.push(pulsar::Action::SetTopicTraffic {
                topic: t.name.0.to_string(),
                traffic: tr,
            });
        }
    }
    let bundle_stats: Vec<(&str, &pulsar_admin::BundleStats)> = reports
        .iter()
        .flat_map(|(i, r)| r.stats.iter().map(move |s| (*i, s)))
        .collect();
    let reported_topics: u64 = bundle_stats.iter().map(|(_, s)| s.topics).sum();
    if with_stats == 0 && !bundle_stats.is_empty() {
        set_bundle_loads(setup, &bundle_stats, ranges_of, notes)?;
    } else if !bundle_stats.is_empty() {
        notes.add(
            "import",
            "the load reports' per-bundle stats (lastStats / bundleStats) are not used: the topics' own stats give \
             the traffic",
        );
    }
    if reported_topics > topics.iter().map(|t| u64::from(t.partitions.max(1))).sum::<u64>() {
        notes.add(
            "import",
            format!(
                "the load reports count {reported_topics} topics in their bundles; the inputs name {}: the others \
                 are not created",
                topics.len()
            ),
        );
    }
    if topics.is_empty() {
        notes.add(
            "import",
            "no topic names among the inputs: give `pulsar-admin namespaces topics NS` or topics stats",
        );
    }
    Ok(())
}

/// Without topic stats, each reported bundle's `lastStats` as its load.
fn set_bundle_loads(
    setup: &mut Vec<pulsar::Action>,
    bundle_stats: &[(&str, &pulsar_admin::BundleStats)],
    ranges_of: &BTreeMap<String, Vec<BundleRange>>,
    notes: &mut Notes,
) -> Result<(), ImportError> {
    let mut set = 0;
    for (input, s) in bundle_stats {
        let (ns, range) = split_bundle(input, &s.bundle)?;
        if ranges_of
            .get(&ns)
            .is_none_or(|rs| rs.binary_search(&range).is_err())
        {
            return Err(ImportError::bad(
                input,
                format!("lastStats: {} is not one of the bundles of {ns}", s.bundle),
            ));
        }
        if s.traffic.is_active() {
            setup.push(pulsar::Action::SetBundleLoad {
                bundle: s.bundle.clone(),
                load: Some(s.traffic),
            });
            set += 1;
        }
    }
    notes.add(
        "import",
        format!(
            "no topic has stats: the traffic of {set} bundles is set from the load reports' per-bundle stats \
             (lastStats / bundleStats; it stays with the bundle, and a split divides it; topics stats give each \
             topic's own)"
        ),
    );
    Ok(())
}
