//! The Kafka Streams lessons (seed `003`: architecture).
use super::Lesson;

pub(super) fn lessons() -> Vec<Lesson> {
    Vec::new()
}
