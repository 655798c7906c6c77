//! Bundle ownership: the extensible load manager's service-unit state machine
//! (`ServiceUnitState`, carried by `ServiceUnitStateChannelImpl`).
//!
//! Allowed transitions (Pulsar's table for the system-topic channel, the default):
//!
//! | from      | to                                                   |
//! |-----------|------------------------------------------------------|
//! | Init      | Free, Owned, Assigning, Releasing, Splitting, Deleted |
//! | Free      | Assigning, Init                                      |
//! | Owned     | Splitting, Releasing                                 |
//! | Assigning | Owned                                                |
//! | Releasing | Assigning, Free                                      |
//! | Splitting | Deleted                                              |
//! | Deleted   | Init                                                 |
//!
//! Assignment is `Init/Free -> Assigning -> Owned`; a transfer is
//! `Owned -> Releasing -> Assigning -> Owned` (destination pre-assigned); an
//! unload without destination is `Owned -> Releasing -> Free`; a split is
//! `Owned -> Splitting -> Deleted` for the parent and `Init -> Owned` for each child.
//! The modular load manager keeps ownership in ephemeral metadata nodes instead;
//! lbscope tracks the same states for it (Owned / Free) so views stay uniform,
//! but only the extensible manager reports the transitions as events.

use super::load::BrokerId;
use serde::{Deserialize, Serialize};

/// A service unit's (bundle's) ownership state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, Default)]
pub enum ServiceUnitState {
    /// Initialising; no previous state.
    #[default]
    Init,
    /// Not owned by any broker.
    Free,
    /// Owned by a broker.
    Owned,
    /// Ownership being assigned to the destination broker.
    Assigning,
    /// The source broker is releasing ownership (topic connections being closed).
    Releasing,
    /// Being split.
    Splitting,
    /// Deleted (after a split).
    Deleted,
}

impl ServiceUnitState {
    /// Every state.
    pub const ALL: [ServiceUnitState; 7] = [
        ServiceUnitState::Init,
        ServiceUnitState::Free,
        ServiceUnitState::Owned,
        ServiceUnitState::Assigning,
        ServiceUnitState::Releasing,
        ServiceUnitState::Splitting,
        ServiceUnitState::Deleted,
    ];

    /// Whether `self -> to` is allowed (`ServiceUnitState.isValidTransition`).
    pub fn can_transition(self, to: ServiceUnitState) -> bool {
        use ServiceUnitState::*;
        match self {
            Init => to != Init,
            Free => matches!(to, Assigning | Init),
            Owned => matches!(to, Splitting | Releasing),
            Assigning => to == Owned,
            Releasing => matches!(to, Assigning | Free),
            Splitting => to == Deleted,
            Deleted => to == Init,
        }
    }

    /// Assigning, Releasing or Splitting (`isInFlightState`).
    pub fn is_in_flight(self) -> bool {
        matches!(
            self,
            ServiceUnitState::Assigning | ServiceUnitState::Releasing | ServiceUnitState::Splitting
        )
    }

    /// In flight or Owned (`isActiveState`).
    pub fn is_active(self) -> bool {
        self.is_in_flight() || self == ServiceUnitState::Owned
    }
}

/// A refused transition.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("illegal service-unit state transition {from:?} -> {to:?}")]
pub struct IllegalTransition {
    /// Current state.
    pub from: ServiceUnitState,
    /// Requested state.
    pub to: ServiceUnitState,
}

/// A bundle's ownership record (`ServiceUnitStateData`: state, dst broker, src broker).
#[derive(Clone, Debug, PartialEq, Default, Serialize, Deserialize)]
pub struct Ownership {
    /// The state.
    pub state: ServiceUnitState,
    /// The owner (Owned), or the destination (Assigning / Releasing with a transfer).
    pub dst: Option<BrokerId>,
    /// The source broker of a transfer / release.
    pub src: Option<BrokerId>,
}

impl Ownership {
    /// The owner serving the bundle: `dst` when Owned.
    pub fn owner(&self) -> Option<&BrokerId> {
        (self.state == ServiceUnitState::Owned)
            .then_some(self.dst.as_ref())
            .flatten()
    }

    /// Move to `to` with the given brokers, if the transition is allowed.
    pub fn transition(
        &mut self,
        to: ServiceUnitState,
        dst: Option<BrokerId>,
        src: Option<BrokerId>,
    ) -> Result<ServiceUnitState, IllegalTransition> {
        let from = self.state;
        if !from.can_transition(to) {
            return Err(IllegalTransition { from, to });
        }
        self.state = to;
        self.dst = dst;
        self.src = src;
        Ok(from)
    }

    /// Overwrite the record regardless of the table: the channel's ownership
    /// override when a broker dies (`overrideOwnership`).
    pub fn force(
        &mut self,
        to: ServiceUnitState,
        dst: Option<BrokerId>,
        src: Option<BrokerId>,
    ) -> ServiceUnitState {
        let from = self.state;
        self.state = to;
        self.dst = dst;
        self.src = src;
        from
    }
}

#[cfg(test)]
mod tests {
    use super::ServiceUnitState::*;
    use super::*;

    #[test]
    fn transition_table_matches_pulsar() {
        let allowed = |f: ServiceUnitState| -> Vec<ServiceUnitState> {
            ServiceUnitState::ALL
                .into_iter()
                .filter(|t| f.can_transition(*t))
                .collect()
        };
        assert_eq!(
            allowed(Init),
            vec![Free, Owned, Assigning, Releasing, Splitting, Deleted]
        );
        assert_eq!(allowed(Free), vec![Init, Assigning]);
        assert_eq!(allowed(Owned), vec![Releasing, Splitting]);
        assert_eq!(allowed(Assigning), vec![Owned]);
        assert_eq!(allowed(Releasing), vec![Free, Assigning]);
        assert_eq!(allowed(Splitting), vec![Deleted]);
        assert_eq!(allowed(Deleted), vec![Init]);
        assert!(Assigning.is_in_flight() && Owned.is_active() && !Free.is_active());
    }

    #[test]
    fn transfer_path_and_refusals() {
        let a = BrokerId("a".into());
        let b = BrokerId("b".into());
        let mut o = Ownership::default();
        o.transition(Assigning, Some(a.clone()), None).unwrap();
        o.transition(Owned, Some(a.clone()), None).unwrap();
        assert_eq!(o.owner(), Some(&a));
        // Owned -> Assigning and Owned -> Free are illegal; the record is unchanged.
        let before = o.clone();
        assert_eq!(
            o.transition(Assigning, Some(b.clone()), None),
            Err(IllegalTransition {
                from: Owned,
                to: Assigning
            })
        );
        assert!(o.transition(Free, None, None).is_err());
        assert_eq!(o, before);
        o.transition(Releasing, Some(b.clone()), Some(a.clone())).unwrap();
        assert_eq!(o.owner(), None);
        o.transition(Assigning, Some(b.clone()), Some(a.clone())).unwrap();
        o.transition(Owned, Some(b.clone()), None).unwrap();
        assert_eq!(o.owner(), Some(&b));
        o.transition(Splitting, Some(b.clone()), None).unwrap();
        assert!(o.transition(Owned, Some(b), None).is_err());
        o.transition(Deleted, None, None).unwrap();
        assert_eq!(o.force(Free, None, None), Deleted);
    }
}
