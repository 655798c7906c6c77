//! Flink's `ResourceRequestPreMappings`: before the tasks-balanced strategy matches a
//! whole batch of slot requests greedily (heaviest request first), it works out how
//! request profiles can be mapped onto the slot profiles at hand so that *every*
//! request can still be served. Without it, an `UNKNOWN` request with many tasks could
//! take the only slot a fine-grained request fits, and the batch would never complete.
//!
//! Building the mapping (in this order):
//! 1. if there are no requests, no slots, or fewer slots than requests: not fulfilled;
//! 2. each fine-grained request profile takes slots of exactly its profile;
//! 3. fine-grained requests still open take `ANY` slots;
//! 4. `UNKNOWN` requests take whatever slots are left.
//!
//! If some request is still open, the mapping is not fulfilled and the strategy
//! matches nothing (the slot pool waits for more slots). Otherwise the mapping keeps,
//! per request profile, how many slots of each slot profile are reserved for it (the
//! *base* mappings), and the slots left over (the *flexible* resources). Matching a
//! request to a slot uses a reserved slot first; taking a flexible slot instead hands
//! one of the request's reserved slots back to the flexible pool.
//!
//! Deterministic rule (lbscope): Flink walks these maps in hash order; lbscope walks
//! profiles in [`ResourceProfile`]'s order (`UNKNOWN`, `ANY`, then concrete profiles by
//! CPU, then memory).

use super::resource_profile::ResourceProfile;
use std::collections::BTreeMap;

/// Why a pre-mapping could not be built or changed (Flink throws
/// `IllegalStateException` in these cases).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PreMappingError {
    /// A request asked for `ANY`.
    #[error("a slot request must not ask for the ANY profile")]
    RequestIsAny,
    /// A slot offered `UNKNOWN`.
    #[error("a slot's resource profile must not be UNKNOWN")]
    SlotIsUnknown,
    /// Nothing left to decrease.
    #[error("no {acquired} slot is left for a {required} request")]
    NotEnough {
        /// Request profile.
        required: ResourceProfile,
        /// Slot profile.
        acquired: ResourceProfile,
    },
    /// No reserved slot of the request could be handed back.
    #[error("no reserved slot of the {0} requests could be handed back")]
    NoReleasableMapping(ResourceProfile),
}

/// The pre-mapping of a batch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResourceRequestPreMappings {
    matching_fulfilled: bool,
    base: BTreeMap<ResourceProfile, BTreeMap<ResourceProfile, u32>>,
    flexible: BTreeMap<ResourceProfile, u32>,
}

fn counts(items: &[ResourceProfile]) -> BTreeMap<ResourceProfile, u32> {
    let mut m = BTreeMap::new();
    for &p in items {
        *m.entry(p).or_insert(0) += 1;
    }
    m
}

impl ResourceRequestPreMappings {
    /// Build the mapping of `requests` (request profiles) onto `slots` (slot profiles).
    pub fn create_from(
        requests: &[ResourceProfile],
        slots: &[ResourceProfile],
    ) -> Result<ResourceRequestPreMappings, PreMappingError> {
        if requests.contains(&ResourceProfile::Any) {
            return Err(PreMappingError::RequestIsAny);
        }
        if slots.contains(&ResourceProfile::Unknown) {
            return Err(PreMappingError::SlotIsUnknown);
        }
        let mut open = counts(requests);
        let mut available = counts(slots);
        let mut base: BTreeMap<ResourceProfile, BTreeMap<ResourceProfile, u32>> = BTreeMap::new();
        let not_fulfilled = ResourceRequestPreMappings {
            matching_fulfilled: false,
            base: BTreeMap::new(),
            flexible: BTreeMap::new(),
        };
        let total = |m: &BTreeMap<ResourceProfile, u32>| m.values().map(|&n| u64::from(n)).sum::<u64>();
        if open.is_empty() || available.is_empty() || total(&available) < total(&open) {
            return Ok(not_fulfilled);
        }
        let all_open = |open: &BTreeMap<ResourceProfile, u32>| open.values().all(|&n| n == 0);
        let done = |base, available| ResourceRequestPreMappings {
            matching_fulfilled: true,
            base,
            flexible: available,
        };
        // 2. Fine-grained requests on slots of exactly their profile.
        for (&p, n) in open.iter_mut() {
            if p == ResourceProfile::Unknown || *n == 0 {
                continue;
            }
            let a = available.get(&p).copied().unwrap_or(0);
            if a == 0 {
                continue;
            }
            let take = (*n).min(a);
            base.entry(p).or_default().insert(p, take);
            *n -= take;
            available.insert(p, a - take);
        }
        if all_open(&open) {
            return Ok(done(base, available));
        }
        // 3. Fine-grained requests still open on ANY slots.
        for (&p, n) in open.iter_mut() {
            let any = available.get(&ResourceProfile::Any).copied().unwrap_or(0);
            if any == 0 {
                break;
            }
            if p == ResourceProfile::Unknown || *n == 0 {
                continue;
            }
            let take = (*n).min(any);
            base.entry(p).or_default().insert(ResourceProfile::Any, take);
            *n -= take;
            available.insert(ResourceProfile::Any, any - take);
        }
        if all_open(&open) {
            return Ok(done(base, available));
        }
        // 4. UNKNOWN requests on whatever is left.
        let mut unknown = open.get(&ResourceProfile::Unknown).copied().unwrap_or(0);
        if unknown > 0 {
            let profiles: Vec<ResourceProfile> = available.keys().copied().collect();
            for sp in profiles {
                let a = available.get(&sp).copied().unwrap_or(0);
                if a == 0 {
                    continue;
                }
                if unknown == 0 {
                    break;
                }
                let take = unknown.min(a);
                base.entry(ResourceProfile::Unknown).or_default().insert(sp, take);
                unknown -= take;
                available.insert(sp, a - take);
            }
            open.insert(ResourceProfile::Unknown, unknown);
        }
        Ok(if all_open(&open) {
            done(base, available)
        } else {
            not_fulfilled
        })
    }

    /// A mapping given directly (for tests, as Flink's `@VisibleForTesting` factory).
    pub fn from_parts(
        matching_fulfilled: bool,
        base: BTreeMap<ResourceProfile, BTreeMap<ResourceProfile, u32>>,
        flexible: BTreeMap<ResourceProfile, u32>,
    ) -> ResourceRequestPreMappings {
        ResourceRequestPreMappings {
            matching_fulfilled,
            base,
            flexible,
        }
    }

    /// Whether every request can be served.
    pub fn is_matching_fulfilled(&self) -> bool {
        self.matching_fulfilled
    }

    /// The base mappings: request profile → slot profile → reserved count.
    pub fn base_required_resource_pre_mappings(
        &self,
    ) -> &BTreeMap<ResourceProfile, BTreeMap<ResourceProfile, u32>> {
        &self.base
    }

    /// The flexible resources: slot profile → count.
    pub fn remaining_flexible_resources(&self) -> &BTreeMap<ResourceProfile, u32> {
        &self.flexible
    }

    /// Reserved slots of profile `acquirable` for `required` requests.
    pub fn available_in_base(&self, required: ResourceProfile, acquirable: ResourceProfile) -> u32 {
        self.base
            .get(&required)
            .and_then(|m| m.get(&acquirable))
            .copied()
            .unwrap_or(0)
    }

    /// Flexible slots of profile `acquirable`.
    pub fn available_in_flexible(&self, acquirable: ResourceProfile) -> u32 {
        self.flexible.get(&acquirable).copied().unwrap_or(0)
    }

    /// Whether a `required` request may take a slot of profile `acquirable`.
    pub fn has_available_profile(&self, required: ResourceProfile, acquirable: ResourceProfile) -> bool {
        self.available_in_base(required, acquirable) > 0 || self.available_in_flexible(acquirable) > 0
    }

    /// A `required` request took a slot of profile `acquired`.
    pub fn decrease(
        &mut self,
        required: ResourceProfile,
        acquired: ResourceProfile,
    ) -> Result<(), PreMappingError> {
        let reserved = self.available_in_base(required, acquired);
        if reserved > 0 {
            self.base
                .entry(required)
                .or_default()
                .insert(acquired, reserved - 1);
            return Ok(());
        }
        let flexible = self.available_in_flexible(acquired);
        if flexible == 0 {
            return Err(PreMappingError::NotEnough { required, acquired });
        }
        self.flexible.insert(acquired, flexible - 1);
        // Hand one of the request's reserved slots back to the flexible pool.
        let releasable = self
            .base
            .get(&required)
            .and_then(|m| m.iter().find(|(_, &n)| n > 0).map(|(&p, &n)| (p, n)));
        let Some((p, n)) = releasable else {
            return Err(PreMappingError::NoReleasableMapping(required));
        };
        self.base.entry(required).or_default().insert(p, n - 1);
        *self.flexible.entry(p).or_insert(0) += 1;
        Ok(())
    }
}
