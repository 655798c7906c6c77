//! The store as yew sees it: the pure playground store ([`crate::playground`])
//! behind `use_reducer` and a context. The only thing added here is the clock:
//! the time the engine took for a round, measured around the reducer.

pub use crate::engine::{Subject, SubjectKind};
pub use crate::playground::{EventRow, LessonMsg, Msg, Notice, Page, Store};
use std::ops::Deref;
use std::rc::Rc;
use yew::prelude::*;

/// The playground store, as a yew reducer.
#[derive(Clone, Debug, PartialEq)]
pub struct AppStore(pub Store);

impl Deref for AppStore {
    type Target = Store;
    fn deref(&self) -> &Store {
        &self.0
    }
}

impl Reducible for AppStore {
    type Action = Msg;

    fn reduce(self: Rc<Self>, msg: Msg) -> Rc<Self> {
        let round = matches!(msg, Msg::StepActive | Msg::ApplyProposal);
        let t0 = super::browser::now_ms();
        let mut next = self.0.reduce(msg);
        if round {
            next.last_round_ms = Some(super::browser::now_ms() - t0);
        }
        Rc::new(AppStore(next))
    }
}

/// The store as seen through context.
pub type StoreCtx = UseReducerHandle<AppStore>;
