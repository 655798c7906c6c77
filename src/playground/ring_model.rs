//! What the Pulsar tab draws, kept from one render to the next so that a round
//! rebuilds only what it changed. At 16,384 bundles and 200,000 topics, building
//! the ring afresh each round (every bundle's name formatted, its state copied)
//! and binning every topic's traffic took most of the redraw; a round moves
//! ~100 bundles and changes no topic's traffic.
//!
//! * The ring: each bundle is read straight from the engine's bundle map (only
//!   the namespace's part of it), in ring order, in one pass that compares it
//!   with the previous ring; when no bundle changed the previous ring itself is
//!   returned (same `Rc`, so the ring component skips the render). Otherwise
//!   the ring before the previous one, which the views no longer hold, is
//!   patched in place at the bundles that changed since it was drawn (no name
//!   or owner copied for the ~16,000 others); while a view still holds it, the
//!   previous ring is copied and patched instead.
//! * The bundle names (for the controls' lists): rebuilt only when the bundle
//!   ranges change (a split, another namespace).
//! * The topic bins of a ring drawn per angular bin: recomputed only when a
//!   topic's traffic may have changed. They are kept while the session is the
//!   same, only rounds (`Step`) were applied since, no workload pattern is
//!   running (without one a round never changes a topic's traffic), and every
//!   bundle's topic count and summed topic traffic are exactly as before.
//! * The broker list and colours: the previous `Rc` when equal.
//!
//! Everything returned equals what a fresh build gives (tested natively).

use super::Live;
use crate::engine::pulsar::ids::{BundleId, NamespaceName};
use crate::engine::pulsar::traffic::Traffic;
use crate::engine::pulsar::view::{BrokerView, BundleView, RingView};
use crate::engine::pulsar::{self, Action};
use std::rc::Rc;

/// Bins the topics of a namespace, given each topic's `(hash, msg rate)`
/// (the drawing's binning; see the Pulsar ring).
pub type Binner<B> = fn(&mut dyn Iterator<Item = (u32, f64)>) -> Vec<B>;

/// The ring, the topic bins (when asked for) and the bundle names.
pub type Drawn<B> = (Rc<RingView>, Option<Rc<Vec<B>>>, Rc<Vec<String>>);

/// The bins' inputs at the time they were computed.
struct BinsAt<B> {
    /// Log cursor of the session.
    cursor: usize,
    /// Per bundle, in ring order: (topics, summed topic traffic).
    sums: Vec<(u32, Traffic)>,
    bins: Rc<Vec<B>>,
}

/// The bins' inputs as a walk reads them, one bundle after the other: written
/// over the previous walk's list when it has as many bundles (`same` stays true
/// while each equals what it replaces), else into a new list.
struct Sums {
    list: Vec<(u32, Traffic)>,
    at: usize,
    same: bool,
}

impl Sums {
    /// Over the previous list `prev`, for a walk of `len` bundles.
    fn over(prev: Option<Vec<(u32, Traffic)>>, len: usize) -> Sums {
        match prev {
            Some(list) if list.len() == len => Sums {
                list,
                at: 0,
                same: true,
            },
            _ => Sums {
                list: Vec::with_capacity(len),
                at: 0,
                same: false,
            },
        }
    }

    /// Whether it holds the previous walk's whole list, not yet walked over.
    fn reusable(&self, len: usize) -> bool {
        self.at == 0 && self.list.len() == len
    }

    /// Bundle `i`'s inputs, out of order (over a reusable list).
    fn set(&mut self, i: usize, x: (u32, Traffic)) {
        if self.list[i] != x {
            self.list[i] = x;
            self.same = false;
        }
    }

    /// The next bundle's inputs.
    fn note(&mut self, x: (u32, Traffic)) {
        match self.list.get_mut(self.at) {
            Some(slot) if *slot == x => {}
            Some(slot) => {
                *slot = x;
                self.same = false;
            }
            None => self.list.push(x),
        }
        self.at += 1;
    }
}

/// The cache (one per Pulsar tab); `B` is the drawing's topic bin.
pub struct RingModel<B> {
    /// The session the cache was built from (kept, so that it is never confused
    /// with a later session at the same address).
    live: Option<Live>,
    ring: Option<Rc<RingView>>,
    /// The ring before `ring`: once the views drawn from it are gone it is held
    /// here alone, and the next changed ring is that one patched in place (no
    /// bundle name or owner is copied for the bundles that did not change).
    spare: Option<Rc<RingView>>,
    /// Where `ring` differs from `spare` (bundle positions).
    spare_diff: Vec<usize>,
    names: Option<Rc<Vec<String>>>,
    bins: Option<BinsAt<B>>,
    brokers: Option<Rc<Vec<BrokerView>>>,
    /// The state `ring` was read from: the engine's note of bundle writes then
    /// lists the bundles that may have changed since.
    mark: Option<Mark>,
    /// How many bundles the last ring read from the engine (`None`: all).
    read: Option<usize>,
}

/// Which state a ring was read from: the session's rebuild count (a seek back
/// starts another line of states), its cursor and the engine's bundle write count.
#[derive(Clone, Copy, PartialEq)]
struct Mark {
    rebuilds: u64,
    cursor: usize,
    writes: u64,
}

impl<B> Default for RingModel<B> {
    fn default() -> Self {
        RingModel {
            live: None,
            ring: None,
            spare: None,
            spare_diff: Vec::new(),
            names: None,
            bins: None,
            brokers: None,
            mark: None,
            read: None,
        }
    }
}

/// Whether `prev`, the previous view of bundle `range`, no longer shows `st`
/// (the cheap fields first; this runs for every bundle of every round).
fn changed(prev: &BundleView, range: pulsar::bundle::BundleRange, st: &pulsar::BundleState) -> bool {
    prev.topics != st.topics
        || prev.state != st.ownership.state
        || prev.direct != st.direct.is_some()
        || prev.range != range
        || prev.load != *st.direct.as_ref().unwrap_or(&st.traffic)
        || prev.owner.as_ref() != st.owner()
        || !prev.topic_list.is_empty()
}

/// Make `view` (a view of the same range) show `st`; its name stays.
fn update(view: &mut BundleView, st: &pulsar::BundleState) {
    if view.owner.as_ref() != st.owner() {
        view.owner = st.owner().cloned();
    }
    view.state = st.ownership.state;
    view.topics = st.topics;
    view.load = st.load();
    view.direct = st.direct.is_some();
    view.topic_list.clear();
}

/// Whether two rings have the same bundle ranges, in order.
fn same_ranges(a: &[BundleView], b: &[pulsar::bundle::BundleRange]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(o, r)| o.range == *r)
}

impl<B> RingModel<B> {
    /// Forget everything when `live` is not the session the cache was built from.
    fn follow(&mut self, live: &Live) {
        if !self.live.as_ref().is_some_and(|l| l.same(live)) {
            *self = RingModel {
                live: Some(live.clone()),
                ..RingModel::default()
            };
        }
    }

    /// The ring of `ns` without topic lists (as `Sim::ring_view(ns, false)`),
    /// reusing what did not change; the topic bins of the namespace when `bins`;
    /// the bundle names.
    pub fn ring(
        &mut self,
        live: &Live,
        session: &crate::scenario::session::Session<pulsar::Sim>,
        ns: &str,
        bins: Option<Binner<B>>,
    ) -> Drawn<B> {
        self.follow(live);
        let sim = session.state();
        let Some(namespace) = sim.namespaces().get(ns) else {
            *self = RingModel {
                live: Some(live.clone()),
                brokers: self.brokers.take(),
                ..RingModel::default()
            };
            let empty = RingView {
                namespace: ns.to_string(),
                bundles: Vec::new(),
            };
            return (Rc::new(empty), None, Rc::new(Vec::new()));
        };
        let default = pulsar::BundleState::default();
        let ranges = &namespace.bundles[..];
        let prev = self.ring.take().filter(|r| r.namespace == ns);
        let spare = self.spare.take().filter(|r| r.namespace == ns);
        let prev_bundles = prev.as_ref().map_or(&[][..], |r| &r.bundles[..]);
        let same = prev.is_some() && same_ranges(prev_bundles, ranges);
        let mut sums = Sums::over(
            self.bins.as_mut().map(|b| std::mem::take(&mut b.sums)),
            if bins.is_some() { ranges.len() } else { 0 },
        );
        // The bundles written since the previous ring was read, when the engine's
        // note reaches back to it (same line of states, no seek back since).
        let mark = Mark {
            rebuilds: session.rebuilds(),
            cursor: session.cursor(),
            writes: sim.bundle_writes(),
        };
        let written = self
            .mark
            .filter(|m| m.rebuilds == mark.rebuilds && m.cursor <= mark.cursor)
            .and_then(|m| sim.bundles_written_since(m.writes))
            .filter(|_| bins.is_none() || sums.reusable(ranges.len()));
        let ring = if let (true, Some(written)) = (same, written) {
            // Only the written bundles of this namespace are read (positions by
            // range; the ranges are in ring order), then, as below, the changed
            // ones and those where the spare differs are patched.
            let name = NamespaceName::from(ns);
            let state_at = |i: usize| {
                sim.bundles()
                    .get(&BundleId {
                        namespace: name.clone(),
                        range: ranges[i],
                    })
                    .unwrap_or(&default)
            };
            let mut at: Vec<usize> = written
                .iter()
                .filter(|id| id.namespace.as_str() == ns)
                .filter_map(|id| ranges.binary_search(&id.range).ok())
                .collect();
            at.sort_unstable();
            at.dedup();
            self.read = Some(at.len());
            let mut moved: Vec<usize> = Vec::new();
            for &i in &at {
                let st = state_at(i);
                if changed(&prev_bundles[i], ranges[i], st) {
                    moved.push(i);
                }
                if bins.is_some() {
                    sums.set(i, (st.topics, st.traffic));
                }
            }
            let mut at: Vec<usize> = moved.iter().chain(&self.spare_diff).copied().collect();
            at.sort_unstable();
            at.dedup();
            let patch: Vec<(usize, &pulsar::BundleState)> =
                at.into_iter().map(|i| (i, state_at(i))).collect();
            self.patched(ns, prev.clone(), spare, prev_bundles, moved, &patch, ranges.len())
        } else if same {
            self.read = None;
            // One pass: which bundles changed since the previous ring, the
            // engine's state of those and of the bundles where the spare
            // differs from the previous ring (`spare_diff`, in ring order), and
            // the bins' inputs. Nothing is kept for the ~16,000 others.
            let mut moved: Vec<usize> = Vec::new();
            let mut patch: Vec<(usize, &pulsar::BundleState)> = Vec::new();
            let mut behind = self.spare_diff.iter().copied().peekable();
            for (i, (r, st, o)) in walk(sim, ns, ranges, prev_bundles, &default).enumerate() {
                let now = o.is_none_or(|o| changed(o, r, st));
                if now {
                    moved.push(i);
                }
                let before = behind.next_if_eq(&i).is_some();
                if now || before {
                    patch.push((i, st));
                }
                if bins.is_some() {
                    sums.note((st.topics, st.traffic));
                }
            }
            self.patched(ns, prev.clone(), spare, prev_bundles, moved, &patch, ranges.len())
        } else {
            self.read = None;
            // Other ranges (a split, another namespace): built again, each
            // bundle keeping its formatted name when its range is unchanged.
            let v: Vec<BundleView> = walk(sim, ns, ranges, prev_bundles, &default)
                .map(|(r, st, o)| {
                    if bins.is_some() {
                        sums.note((st.topics, st.traffic));
                    }
                    match o {
                        Some(o) if !changed(o, r, st) => o.clone(),
                        Some(o) => BundleView {
                            name: o.name.clone(),
                            ..fresh_named(r, st)
                        },
                        None => BundleView {
                            name: r.name(),
                            ..fresh_named(r, st)
                        },
                    }
                })
                .collect();
            self.spare = None;
            self.spare_diff.clear();
            Rc::new(RingView {
                namespace: ns.to_string(),
                bundles: v,
            })
        };
        let names = match self.names.take() {
            Some(n) if same => n,
            _ => Rc::new(ring.bundles.iter().map(|b| b.name.clone()).collect()),
        };
        let tick_bins = if let Some(binner) = bins {
            Some(self.bins(session, namespace, sums, binner))
        } else {
            self.bins = None;
            None
        };
        self.names = Some(names.clone());
        self.ring = Some(ring.clone());
        self.mark = Some(mark);
        (ring, tick_bins, names)
    }

    /// The ring after the bundles at `moved` changed (`patch`: the engine's state
    /// at those and at `spare_diff`, in ring order): the previous ring itself
    /// when none did; else the spare patched in place when nothing else holds
    /// it, or a patched copy of the previous ring. The previous ring becomes
    /// the spare.
    #[allow(clippy::too_many_arguments)]
    fn patched(
        &mut self,
        ns: &str,
        prev: Option<Rc<RingView>>,
        spare: Option<Rc<RingView>>,
        prev_bundles: &[BundleView],
        moved: Vec<usize>,
        patch: &[(usize, &pulsar::BundleState)],
        len: usize,
    ) -> Rc<RingView> {
        if let Some(p) = prev.clone().filter(|_| moved.is_empty()) {
            // Nothing changed: the same ring (the spare stays).
            self.spare = spare;
            return p;
        }
        // The ring before the previous one, held by nothing else: patched
        // in place where it differs from the previous ring or the engine.
        let patched = spare.filter(|s| s.bundles.len() == len).and_then(|mut s| {
            let v = Rc::get_mut(&mut s)?;
            for &(i, st) in patch {
                update(&mut v.bundles[i], st);
            }
            Some(s)
        });
        // Otherwise a copy of the previous ring with the changed bundles
        // updated (updating one that did not change leaves it as it is).
        let ring = patched.unwrap_or_else(|| {
            let mut v = prev_bundles.to_vec();
            for &(i, st) in patch {
                update(&mut v[i], st);
            }
            Rc::new(RingView {
                namespace: ns.to_string(),
                bundles: v,
            })
        });
        self.spare = prev;
        self.spare_diff = moved;
        ring
    }

    fn bins(
        &mut self,
        session: &crate::scenario::session::Session<pulsar::Sim>,
        namespace: &pulsar::namespace::Namespace,
        sums: Sums,
        binner: Binner<B>,
    ) -> Rc<Vec<B>> {
        let sim = session.state();
        let cursor = session.cursor();
        let keep = self.bins.as_ref().filter(|b| {
            b.cursor <= cursor
                && sim.workload().is_empty()
                && session.log().actions[b.cursor..cursor]
                    .iter()
                    .all(|a| *a == Action::Step)
                && sums.same
        });
        let sums = sums.list;
        if let Some(b) = keep {
            let bins = b.bins.clone();
            self.bins = Some(BinsAt {
                cursor,
                sums,
                bins: bins.clone(),
            });
            return bins;
        }
        let mut topics = namespace
            .topics
            .values()
            .map(|t| (t.hash, namespace.traffic(t).msg_rate()));
        let bins = Rc::new(binner(&mut topics));
        self.bins = Some(BinsAt {
            cursor,
            sums,
            bins: bins.clone(),
        });
        bins
    }

    /// How many bundles the last ring read from the engine: `Some(n)` when the
    /// engine's note of bundle writes named them, `None` when it walked them all.
    pub fn last_read(&self) -> Option<usize> {
        self.read
    }

    /// The broker views: the previous list when equal.
    pub fn brokers(&mut self, live: &Live, sim: &pulsar::Sim) -> Rc<Vec<BrokerView>> {
        self.follow(live);
        let now = sim.broker_views();
        match &self.brokers {
            Some(b) if **b == now => b.clone(),
            _ => {
                let b = Rc::new(now);
                self.brokers = Some(b.clone());
                b
            }
        }
    }
}

/// Each bundle of a namespace in ring order (`ranges`): its range, the engine's
/// state of it (the bundle map is ordered by namespace, then range; a range the
/// map lacks reads as the default state, as `Sim::ring_view` reads it) and the
/// previous view of the same range, if any (`prev` is in ring order too). Only
/// the map's entries between the namespace's first and last range are read.
fn walk<'a>(
    sim: &'a pulsar::Sim,
    ns: &'a str,
    ranges: &'a [pulsar::bundle::BundleRange],
    prev: &'a [BundleView],
    default: &'a pulsar::BundleState,
) -> impl Iterator<
    Item = (
        pulsar::bundle::BundleRange,
        &'a pulsar::BundleState,
        Option<&'a BundleView>,
    ),
> + 'a {
    let bounds = ranges.first().zip(ranges.last()).map(|(lo, hi)| {
        let name = NamespaceName::from(ns);
        BundleId {
            namespace: name.clone(),
            range: *lo,
        }..=BundleId {
            namespace: name,
            range: *hi,
        }
    });
    // One range of the map (empty without bounds), read without an adapter over it.
    let mut states = bounds
        .map_or_else(Default::default, |b| sim.bundles().range(b))
        .peekable();
    let mut old = prev.iter().peekable();
    ranges.iter().map(move |range| {
        while states.peek().is_some_and(|(id, _)| id.range < *range) {
            states.next();
        }
        let st = match states.peek() {
            Some((id, st)) if id.range == *range => *st,
            _ => default,
        };
        while old.peek().is_some_and(|o| o.range < *range) {
            old.next();
        }
        let o = old.peek().copied().filter(|o| o.range == *range);
        (*range, st, o)
    })
}

/// A bundle view whose name the caller fills in.
fn fresh_named(range: pulsar::bundle::BundleRange, st: &pulsar::BundleState) -> BundleView {
    BundleView {
        range,
        name: String::new(),
        owner: st.owner().cloned(),
        state: st.ownership.state,
        topics: st.topics,
        load: st.load(),
        direct: st.direct.is_some(),
        topic_list: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::session::Session;

    /// A binning for the tests: topics and summed rate per 1/64 of the ring.
    fn bin64(t: &mut dyn Iterator<Item = (u32, f64)>) -> Vec<(u32, f64)> {
        let mut v = vec![(0, 0.0); 64];
        for (h, r) in t {
            let b = &mut v[(h >> 26) as usize];
            b.0 += 1;
            b.1 += r;
        }
        v
    }

    fn session() -> Live {
        let sc = crate::bench::pulsar_scenario(12, 6_000, 256);
        Live::open(&sc).unwrap()
    }

    /// What a fresh build gives.
    fn expected(s: &Session<pulsar::Sim>, ns: &str) -> (RingView, Vec<(u32, f64)>) {
        let sim = s.state();
        let nsd = &sim.namespaces()[ns];
        let mut t = nsd.topics.values().map(|t| (t.hash, nsd.traffic(t).msg_rate()));
        (sim.ring_view(ns, false).unwrap(), bin64(&mut t))
    }

    fn check(m: &mut RingModel<(u32, f64)>, live: &Live) -> Rc<RingView> {
        let s = live.session::<pulsar::Sim>().unwrap();
        let ns = crate::bench::PULSAR_NS;
        let (ring, bins, names) = m.ring(live, &s, ns, Some(bin64));
        let (want_ring, want_bins) = expected(&s, ns);
        assert_eq!(*ring, want_ring);
        assert_eq!(*bins.unwrap(), want_bins);
        assert_eq!(
            *names,
            want_ring
                .bundles
                .iter()
                .map(|b| b.name.clone())
                .collect::<Vec<_>>()
        );
        assert_eq!(*m.brokers(live, s.state()), s.state().broker_views());
        ring
    }

    #[test]
    fn the_kept_views_are_what_a_fresh_build_gives() {
        let live = session();
        let mut m = RingModel::default();
        let first = check(&mut m, &live);
        // Nothing changed: the same ring.
        assert!(Rc::ptr_eq(&first, &check(&mut m, &live)));
        let ns = crate::bench::PULSAR_NS;
        let topic = format!("{ns}/b1p0-3");
        let steps: Vec<Action> = vec![
            Action::Step,
            Action::Step,
            Action::SetTopicTraffic {
                topic: topic.clone(),
                traffic: Traffic {
                    msg_rate_in: 90_000.0,
                    ..Traffic::default()
                },
            },
            Action::Step,
            Action::CreateTopic {
                topic: format!("{ns}/late"),
            },
            Action::SplitBundle {
                namespace: ns.to_string(),
                bundle: first.bundles[7].name.clone(),
                algorithm: None,
                boundaries: Vec::new(),
                unload: false,
            },
            Action::Step,
        ];
        let mut moved = false;
        for a in steps {
            let before = check(&mut m, &live);
            live.edit().act(&crate::engine::AnyAction::Pulsar(a)).unwrap();
            let after = check(&mut m, &live);
            moved |= !Rc::ptr_eq(&before, &after);
        }
        assert!(moved);
        // Undo and a different action at the same cursor.
        live.edit().undo().unwrap();
        check(&mut m, &live);
        live.edit()
            .act(&crate::engine::AnyAction::Pulsar(Action::SetTopicTraffic {
                topic,
                traffic: Traffic::default(),
            }))
            .unwrap();
        check(&mut m, &live);
        // Another session of the same scenario: nothing carried over.
        let other = session();
        check(&mut m, &other);
    }

    /// Rounds read only the bundles the engine wrote, and whatever happens
    /// between two renders (a seek back and a different action, undo and redo,
    /// a refused action) still gives what a fresh build gives.
    #[test]
    fn rounds_read_only_the_written_bundles_and_seeks_back_walk_them_all() {
        let live = session();
        let mut m = RingModel::default();
        let act = |a: Action| live.edit().act(&crate::engine::AnyAction::Pulsar(a));
        check(&mut m, &live);
        assert_eq!(m.last_read(), None, "the first ring walks every bundle");
        let bundles = check(&mut m, &live).bundles.len();
        let mut read = Vec::new();
        for _ in 0..6 {
            act(Action::Step).unwrap();
            check(&mut m, &live);
            read.push(m.last_read());
        }
        assert!(
            read.iter().all(|r| r.is_some_and(|n| n < bundles)),
            "{read:?} of {bundles}"
        );
        assert!(
            read.iter().any(|r| r.is_some_and(|n| n > 0)),
            "{read:?}: some round moved bundles"
        );
        // Back one action and a different one, with no render between.
        live.edit().undo().unwrap();
        act(Action::SetTopicTraffic {
            topic: format!("{}/b1p0-3", crate::bench::PULSAR_NS),
            traffic: Traffic {
                msg_rate_in: 50_000.0,
                ..Traffic::default()
            },
        })
        .unwrap();
        check(&mut m, &live);
        assert_eq!(m.last_read(), None, "another line of states: walked");
        // Undo twice and redo twice between two renders; then a round.
        for _ in 0..2 {
            live.edit().undo().unwrap();
        }
        for _ in 0..2 {
            live.edit().redo().unwrap();
        }
        check(&mut m, &live);
        act(Action::Step).unwrap();
        check(&mut m, &live);
        assert!(m.last_read().is_some());
        // A refused action changes nothing.
        assert!(act(Action::AssignBundle {
            bundle: "no/such/0x0_0x1".into(),
            broker: "nobody".into(),
        })
        .is_err());
        check(&mut m, &live);
        assert_eq!(m.last_read(), Some(0));
    }
}
