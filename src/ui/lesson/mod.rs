//! The guided lessons in the browser: the lesson menu, the panel above the
//! active tab while a lesson runs, and the fidelity notes page. The lessons
//! themselves (scenarios, narration computed from the engine) live in
//! `crate::lessons`; this module only shows them and sends `LessonMsg`s.

mod fidelity;
mod menu;
mod panel;
mod start;

pub use fidelity::FidelityPage;
pub use menu::LessonsPage;
pub use panel::LessonPanel;
pub use start::StartHere;

use crate::lessons::Concept;

/// The concept, as the course names it.
pub fn concept_label(c: Concept) -> &'static str {
    use crate::engine::pulsar::config::SheddingStrategy;
    use Concept::*;
    match c {
        PulsarBundlesOnTheRing => "Topics, namespaces and bundles on the hash ring",
        PulsarLookup => "Bundle assignment and lookup",
        PulsarAutoSplit => "Automatic split thresholds",
        PulsarRangeEquallyDivide => "range_equally_divide",
        PulsarTopicCountEquallyDivide => "topic_count_equally_divide",
        PulsarSpecifiedPositionsDivide => "specified_positions_divide",
        PulsarFlowOrQpsEquallyDivide => "flow_or_qps_equally_divide",
        PulsarOverloadShedder => SheddingStrategy::OverloadShedder.name(),
        PulsarThresholdShedder => SheddingStrategy::ThresholdShedder.name(),
        PulsarUniformLoadShedder => SheddingStrategy::UniformLoadShedder.name(),
        PulsarTransferShedder => SheddingStrategy::TransferShedder.name(),
        PulsarAvgShedder => SheddingStrategy::AvgShedder.name(),
        PulsarModularVsExtensible => "Modular vs extensible load manager",
        PulsarCrashAndJoin => "A broker crash and a broker join",
        PulsarManualCommands => "Manual split and unload",
        PulsarScalableTopics => "Scalable topics (5.0): segments that split and merge",
        FlinkUnequalParallelism => "Unequal parallelism skews TaskManagers",
        FlinkTwoPhases => "The two phases of balanced scheduling",
        FlinkWhenNotToUse => "When not to use tasks mode",
        FlinkFailover => "Failover and slot.request.max-interval",
        KstreamsPartitionsToTasks => "Partitions → tasks",
        KstreamsThreads => "Threads, and scaling them at runtime",
        KstreamsStateRestore => "State stores, changelogs and restore cost",
        KstreamsStandbys => "Standby replicas and caught-up failover",
        KstreamsRackAwareStandbys => "Rack-aware standbys",
        KstreamsRackAwareActives => "Rack-aware active tasks",
    }
}

/// 1-based position of a lesson in the whole course.
pub fn course_number(id: &str) -> usize {
    crate::lessons::all()
        .iter()
        .position(|l| l.id == id)
        .map_or(0, |i| i + 1)
}
