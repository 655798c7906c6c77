//! The page's forms, each named by the id the page gives it (`data-field`):
//! an action sent on behalf of a form ([`crate::playground::Msg::AtField`]) that is
//! refused has its message shown inside that form.

/// A form of the page whose refusals are shown next to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    /// Pulsar: try a lookup or a topic's owner.
    PulsarTry,
    /// Pulsar: add, crash and restore brokers.
    PulsarCluster,
    /// Pulsar: create namespaces and topics.
    PulsarTopics,
    /// Pulsar: a namespace's bundle count.
    BundleCount,
    /// Pulsar: topic and bundle traffic, broker usage.
    PulsarTraffic,
    /// Pulsar: split and unload (pulsar-admin).
    PulsarAdmin,
    /// Pulsar: the round controls.
    PulsarRounds,
    /// Pulsar: assign a bundle to a broker.
    PulsarAssignBundle,
    /// Pulsar: namespace isolation policies.
    PulsarIsolation,
    /// Pulsar: anti-affinity groups.
    PulsarAntiAffinity,
    /// Pulsar: failure domains.
    PulsarFailureDomain,
    /// Pulsar: a namespace's bundle boundaries.
    PulsarNsBoundaries,
    /// Pulsar: the config profile.
    PulsarProfile,
    /// Pulsar: scalable topics.
    PulsarScalable,
    /// Pulsar: a broker that stops reporting.
    PulsarUnreported,
    /// The workload patterns (every system).
    Workloads,
    /// Flink: add TaskManagers.
    FlinkSlots,
    /// Flink: the scheduler.
    FlinkScheduler,
    /// Flink: local recovery.
    FlinkLocalRecovery,
    /// Flink: another job sharing the cluster.
    FlinkOtherJob,
    /// Flink: a slot sharing group's resources.
    FlinkSsgResources,
    /// Flink: a TaskManager's resources.
    FlinkTmResources,
    /// Kafka Streams: add instances.
    KsAdd,
    /// Kafka Streams: the task assignor.
    KsAssignor,
    /// Kafka Streams: task lags.
    KsLags,
    /// Kafka Streams: the previous assignment.
    KsPrevious,
    /// Kafka Streams: partition racks.
    KsRacks,
}

impl Field {
    /// Every form.
    pub const ALL: [Field; 27] = [
        Field::PulsarTry,
        Field::PulsarCluster,
        Field::PulsarTopics,
        Field::BundleCount,
        Field::PulsarTraffic,
        Field::PulsarAdmin,
        Field::PulsarRounds,
        Field::PulsarAssignBundle,
        Field::PulsarIsolation,
        Field::PulsarAntiAffinity,
        Field::PulsarFailureDomain,
        Field::PulsarNsBoundaries,
        Field::PulsarProfile,
        Field::PulsarScalable,
        Field::PulsarUnreported,
        Field::Workloads,
        Field::FlinkSlots,
        Field::FlinkScheduler,
        Field::FlinkLocalRecovery,
        Field::FlinkOtherJob,
        Field::FlinkSsgResources,
        Field::FlinkTmResources,
        Field::KsAdd,
        Field::KsAssignor,
        Field::KsLags,
        Field::KsPrevious,
        Field::KsRacks,
    ];

    /// The id the page renders for it (`data-field`), as the field error names it.
    pub fn id(self) -> &'static str {
        match self {
            Field::PulsarTry => "pulsar-try",
            Field::PulsarCluster => "pulsar-cluster",
            Field::PulsarTopics => "pulsar-topics",
            Field::BundleCount => "bundle-count",
            Field::PulsarTraffic => "pulsar-traffic",
            Field::PulsarAdmin => "pulsar-admin",
            Field::PulsarRounds => "pulsar-rounds",
            Field::PulsarAssignBundle => "pulsar-assign-bundle",
            Field::PulsarIsolation => "pulsar-isolation",
            Field::PulsarAntiAffinity => "pulsar-anti-affinity",
            Field::PulsarFailureDomain => "pulsar-failure-domain",
            Field::PulsarNsBoundaries => "pulsar-ns-boundaries",
            Field::PulsarProfile => "pulsar-profile",
            Field::PulsarScalable => "pulsar-scalable",
            Field::PulsarUnreported => "pulsar-unreported",
            Field::Workloads => "workloads",
            Field::FlinkSlots => "flink-slots",
            Field::FlinkScheduler => "flink-scheduler",
            Field::FlinkLocalRecovery => "flink-local-recovery",
            Field::FlinkOtherJob => "flink-other-job",
            Field::FlinkSsgResources => "flink-ssg-resources",
            Field::FlinkTmResources => "flink-tm-resources",
            Field::KsAdd => "ks-add",
            Field::KsAssignor => "ks-assignor",
            Field::KsLags => "ks-lags",
            Field::KsPrevious => "ks-previous",
            Field::KsRacks => "ks-racks",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Field;

    /// Two forms never share an id (a refusal would show in both).
    #[test]
    fn form_ids_are_distinct() {
        let mut ids: Vec<&str> = Field::ALL.iter().map(|f| f.id()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), Field::ALL.len());
        assert_eq!(Field::PulsarTraffic.id(), "pulsar-traffic");
    }
}
