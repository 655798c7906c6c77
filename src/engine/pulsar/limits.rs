//! lbscope's caps on the size of a whole cluster, across all actions (Pulsar
//! itself sets none): the number of topics and the number of bundles. Each
//! action that would pass one is refused before it changes anything, so many
//! actions of allowed size stop at the cap with the state as it was.

use super::{Error, Sim};

/// Most topics (partitions count one each) in one cluster: the benchmark's
/// largest cluster (2,000,000 topics) fits.
pub const MAX_TOPICS: u64 = 1 << 21;
/// Most bundles in one cluster, over all namespaces (each namespace has at most
/// [`super::MAX_BUNDLES`]).
pub const MAX_CLUSTER_BUNDLES: usize = 1 << 20;

impl Sim {
    /// Topics in the cluster.
    pub fn topic_count(&self) -> u64 {
        self.topic_count
    }

    /// Whether `adding` more topics fit under [`MAX_TOPICS`].
    pub(crate) fn check_topic_room(&self, adding: u64) -> Result<(), Error> {
        if self.topic_count.saturating_add(adding) > MAX_TOPICS {
            return Err(Error::Invalid(format!(
                "the cluster has {} topics; {adding} more would pass lbscope's limit of {MAX_TOPICS} topics per cluster",
                self.topic_count
            )));
        }
        Ok(())
    }

    /// Whether `adding` more bundles fit under [`MAX_CLUSTER_BUNDLES`].
    pub(crate) fn check_bundle_room(&self, adding: usize) -> Result<(), Error> {
        if let Some(why) = self.bundle_room_refusal(adding) {
            return Err(Error::Invalid(why));
        }
        Ok(())
    }

    /// Why `adding` more bundles do not fit, if they do not (also the reason an
    /// automatic split is skipped at the cap).
    pub(crate) fn bundle_room_refusal(&self, adding: usize) -> Option<String> {
        let have = self.bundles.len();
        (have.saturating_add(adding) > MAX_CLUSTER_BUNDLES).then(|| {
            format!(
                "the cluster has {have} bundles; {adding} more would pass lbscope's limit of {MAX_CLUSTER_BUNDLES} bundles per cluster"
            )
        })
    }
}
